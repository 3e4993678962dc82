"""``patience dataset``: card artwork and the synthetic training sets for the card recogniser.

    patience dataset fetch                 # apt-get download + dpkg -x the free decks, rasterise, find indices
    patience dataset build --train 3000 --val 300 --workers 2
    patience dataset sheet                 # contact sheets of the decks with their index boxes (to check by eye)
    patience dataset glyphs --count 20800  # synthetic corner-index crops in many fonts (crops/train/<card>/g*.png)
    patience dataset negatives             # crops that show no index, for the classifier's "none" class

Everything lands in git-ignored folders: ``datasets/cache`` (artwork) and ``datasets/build`` (datasets).
``fetch`` needs ``apt-get``/``dpkg`` (no root) and ``rsvg-convert`` (root: ``apt-get install librsvg2-bin``).
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("dataset", help="fetch card artwork and build the synthetic training sets")
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    f = sub.add_parser("fetch", help="download, unpack and rasterise the free card decks (Debian packages)")
    f.set_defaults(func=run)
    b = sub.add_parser("build", help="render the YOLO detection set and the index-crop classification set")
    b.add_argument("--out", type=Path, default=None, help="output folder (default datasets/build)")
    b.add_argument("--train", type=int, default=3000, help="training scenes (training designs)")
    b.add_argument("--val", type=int, default=300, help="validation scenes (held-out designs)")
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--workers", type=int, default=1, help="processes (this machine: at most 2)")
    b.add_argument("--layout", choices=("tommy", "poker", "loose", "closeup", "fan"), default=None,
                   help="every scene of this one layout (default: the training mix; 'fan' = hands of cards, for "
                        "testing; use a separate --out)")
    b.set_defaults(func=run)
    s = sub.add_parser("sheet", help="write contact sheets of every deck with its index box")
    s.set_defaults(func=run)
    g = sub.add_parser("glyphs", help="render synthetic corner-index crops from many fonts and drawn suit pips")
    g.add_argument("--count", type=int, default=52 * 400, help="crops to write (the same number per card)")
    g.add_argument("--out", type=Path, default=None, help="dataset folder (default datasets/build)")
    g.add_argument("--seed", type=int, default=0)
    g.set_defaults(func=run)
    n = sub.add_parser("negatives", help="cut crops that show no corner index (the detector's false boxes on the "
                                         "scenes, random boxes) for the classifier's 'none' class")
    n.add_argument("--out", type=Path, default=None, help="dataset folder (default datasets/build)")
    n.add_argument("--model", type=Path, default=None,
                   help="ONNX detector whose false boxes are mined (default models/detector.onnx; 'none': random "
                        "boxes only)")
    n.add_argument("--seed", type=int, default=0)
    n.set_defaults(func=run)
    p.set_defaults(func=run, action=None)


def run(args: argparse.Namespace) -> int:
    from assistant.cli import UserError

    if args.action is None:
        raise UserError("say what to do: fetch, build, sheet, glyphs or negatives (patience dataset --help)")
    from vision.training import artwork

    if args.action == "fetch":
        try:
            info = artwork.prepare_all()
        except RuntimeError as exc:
            raise UserError(str(exc)) from exc
        held = [n for n, m in info.items() if m["held_out"]]
        print(f"{len(info)} decks ready in {artwork.CACHE / 'cards'} ({len(held)} held out: {', '.join(held)})")
        return 0
    if args.action == "sheet":
        out = artwork.contact_sheets()
        print(f"contact sheets in {out}")
        return 0

    if args.action == "glyphs":
        return _glyphs(args, artwork, _bar())

    if args.action == "negatives":
        return _negatives(args, artwork, _bar())

    from vision.training import synth

    if not (artwork.CACHE / "cards" / "decks.json").exists():
        raise UserError("no card artwork yet: run `patience dataset fetch` first")
    out = args.out or (artwork.REPO / "datasets" / "build")
    with _bar() as bar:
        tasks = {}

        def progress(split, done, total):
            if split not in tasks:
                tasks[split] = bar.add_task(f"{split} scenes", total=total, completed=done)
            bar.update(tasks[split], completed=done)

        made = synth.build(out, args.train, args.val, seed=args.seed, workers=args.workers, progress=progress,
                           layout=args.layout)
    print(f"rendered {made.get('train', 0)} train + {made.get('val', 0)} val scenes; dataset: {out / 'detect' / 'data.yaml'}")
    return 0


def _bar():
    """A rich progress bar: what, bar, done/total, elapsed, remaining."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TimeRemainingColumn())


def _glyphs(args: argparse.Namespace, artwork, bar) -> int:
    """Write ``args.count`` glyph crops to ``<out>/crops/train/<card>/gNNNNNN.png`` (``write_glyph_crops``)."""
    from assistant.cli import UserError

    try:
        from vision.training.index_glyphs import write_glyph_crops
    except ImportError as exc:  # PIL: a training-time dependency (ultralytics brings it)
        raise UserError(f"the glyph renderer needs Pillow ({exc})") from exc
    if args.count < 0:
        raise UserError("--count must be at least 0")
    try:
        artwork.fetch_fonts()
    except RuntimeError as exc:
        raise UserError(str(exc)) from exc
    fonts = artwork.glyph_fonts()
    if not fonts:
        raise UserError(f"no usable fonts under {artwork.CACHE / 'fonts'}")
    out = (args.out or (artwork.REPO / "datasets" / "build")) / "crops" / "train"
    with bar:
        task = bar.add_task("glyph crops", total=args.count)
        made = write_glyph_crops(out, args.count, fonts, seed=args.seed,
                                 progress=lambda done: bar.update(task, completed=done))
    print(f"{made} glyph crops written ({args.count - made} already there) from {len(fonts)} fonts under {out}")
    return 0


def _negatives(args: argparse.Namespace, artwork, bar) -> int:
    """Negative crops for every built scene of both splits (``vision.training.negatives``); resumable."""
    from assistant.cli import UserError
    from vision.training.negatives import build_negatives
    from vision.onnx_backend import ModelFileError

    out = args.out or (artwork.REPO / "datasets" / "build")
    if not (out / "detect" / "meta").is_dir():
        raise UserError(f"no scenes in {out}: run `patience dataset build` first")
    model = None if str(args.model).lower() == "none" else (args.model or artwork.REPO / "models" / "detector.onnx")
    made = {}
    with bar:
        for split in ("val", "train"):
            task = bar.add_task(f"{split} negatives", total=None)
            try:
                made[split] = build_negatives(out, split, model, seed=args.seed,
                                              progress=lambda k, n, t=task: bar.update(t, completed=k, total=n))
            except ModelFileError as exc:
                raise UserError(str(exc)) from None
    print(f"{made['train']} train + {made['val']} val negative crops written under {out / 'crops'}")
    return 0

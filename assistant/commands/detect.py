"""``patience detect``: find the cards in photos or camera frames with the committed card-recognition models.

``patience detect IMAGE_OR_FOLDER...`` prints a table per image: each card found (once, even when both its
corners are seen), its confidence and box in image pixels. A folder stands for the images in it (jpg, jpeg, png,
bmp, webp, tif; not recursive). ``--json`` prints one JSON object per image and line instead:

    {"image": "table.jpg", "cards": [{"card": "Qh", "confidence": 0.97, "box": [x1, y1, x2, y2]}, ...],
     "detections": [{"label": "index", "confidence": 0.93, "box": [...], "card": "Qh", "card_confidence": 0.98}, ...]}

``detections`` are the raw boxes of the detector (corner indices, and whole cards if the model finds them) with
the name the classifier gave each corner. A bad image (missing, unreadable, not an image) is reported on stderr
as ``patience detect: FILE: <reason>`` (with --json also as ``{"image": FILE, "error": "<reason>"}``), the other
images are still processed, and the exit code is 2 if any failed.

``--model DIR`` picks the model folder (``detector.onnx``, ``classifier.onnx``, optional ``vision.json``); the
default is ``$PATIENCE_LENS_MODELS`` or the ``models/`` folder of the source checkout the package runs from. A
photo is read with the folder's ``table/`` models where it has them (a detector fine-tuned with fanned hands added
and a wider index classifier trained on every design's corners); the live camera keeps the folder's own, and so
does ``--bench`` (it times the camera's way) unless given ``--table``.

``--table`` groups the cards into piles, each from its bottom card to its top (a fanned pile or hand shows the
corner of each covered card): the basis for taking over a game in progress. It also looks closer (``--zoom``:
the photo enlarged 1.5x, in tiles, finds the small corners of covered cards) and reports cards from confidence 0.4
(``--min-confidence``). ``--json`` then adds
``"piles": [{"cards": ["Kh", "4s", "3c"], "top": "3c", "box": [...]}, ...]`` (``top`` null where no card of the
pile was seen whole, and the order of its corners is a guess).

``--draw DIR`` also writes each image with its boxes and card names drawn (``DIR/<name>.detect.jpg``).

``--bench`` times recognition instead (median and p95 ms per frame, frames resized to 640x480 unless
``--bench-size`` says otherwise); ``--eval`` scores the models on labelled folders (see vision/training/evaluate.py).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from assistant.cli import UserError

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
#: Reading a whole table (``--table``): the photo also enlarged 1.5x in tiles, which finds the small corners of
#: covered cards, and a higher card threshold against the extra wrong names of small corners; chosen on the tuning
#: sets fantune / facetune / closetune (docs/BENCHMARKS.md, "A closer look for reading a table", session 20).
TABLE_ZOOM = 1.5
TABLE_CONFIDENCE = 0.4
PHOTO_CONFIDENCE = 0.3
BOX_THRESHOLD = 0.1


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "detect",
        help="find the cards in photos or camera frames",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("images", nargs="*", metavar="IMAGE", help="image files or folders of images")
    parser.add_argument("--json", action="store_true", help="one JSON object per image and line")
    parser.add_argument("--model", metavar="DIR", help="model folder (default: the committed models/)")
    parser.add_argument("--min-confidence", type=float, default=None, metavar="P",
                        help="report cards whose confidence (detector score ** 0.5 x classifier probability) is at "
                             f"least P (default {PHOTO_CONFIDENCE}, with --table {TABLE_CONFIDENCE}; lower finds more "
                             "cards and more wrong ones)")
    parser.add_argument("--box-threshold", type=float, default=BOX_THRESHOLD, metavar="P",
                        help=f"keep detector boxes scoring at least P (default {BOX_THRESHOLD})")
    parser.add_argument("--imgsz", type=int, default=None, metavar="PX",
                        help="detector input long side (default: the model's; a dynamic-shape model runs at any "
                             "multiple of 32: smaller is faster and misses more small indices)")
    parser.add_argument("--threads", type=int, default=None, metavar="N",
                        help="ONNX Runtime threads per model (default: 2, or 1 on a one-core machine)")
    parser.add_argument("--tile", choices=("auto", "off"), default="auto",
                        help="cut large photos into overlapping tiles so small corner indices are found (default auto)")
    parser.add_argument("--zoom", type=float, default=None, metavar="Z",
                        help="also read a photo the detector sees whole enlarged Z times, in tiles, for corner "
                             f"indices too small for one look (default {TABLE_ZOOM} with --table, else 1: off; "
                             "about 4x the time at 1.5)")
    parser.add_argument("--no-face", action="store_true",
                        help="no second look at whole cards: names from the corner indices alone (as before the face "
                             "classifier, models/cardface.onnx)")
    parser.add_argument("--no-balance", action="store_true",
                        help="take the classifier's suits as they are, even where a photo's cards then hold far too "
                             "few of one suit of a colour for one deck (vision/deck_suits.py)")
    parser.add_argument("--no-suit", action="store_true",
                        help="no suit look: corner suits from the 32 px classifier alone (as before models/suitlook.onnx)")
    parser.add_argument("--no-pips", action="store_true",
                        help="no pip look: suits not weighed by the pips in the middle of whole cards (as before "
                             "models/pips.onnx)")
    parser.add_argument("--table", action="store_true",
                        help="group the cards into piles, bottom to top (fanned piles and hands: covered cards too); "
                             "also looks closer for the small corners of covered cards (--zoom)")
    parser.add_argument("--draw", metavar="DIR", help="also write each image with the boxes and names drawn, to DIR")
    parser.add_argument("--bench", action="store_true", help="time recognition per frame (median, p95) and exit")
    parser.add_argument("--bench-size", default="640x480", metavar="WxH",
                        help="frame size for --bench (default 640x480; 'native' keeps each image's size)")
    parser.add_argument("--frames", type=int, default=50, help="frames timed by --bench (default 50)")
    parser.add_argument("--eval", action="store_true",
                        help="score the models on labelled folders: an edje-style folder (Pascal VOC, ranks) or a "
                             "rendered val set; prints recall, wrong-card rate and a confusion summary")
    parser.add_argument("--limit", type=int, default=0, help="--eval: use at most N images per folder")
    parser.add_argument("--sweep", action="store_true",
                        help="--eval: score every pair of box and card thresholds (to choose the defaults on a val set)")
    parser.set_defaults(func=run, trailing_files="images")  # photos may also follow the options


def expand_inputs(paths: list[str]) -> tuple[list[Path], list[tuple[str, str]]]:
    """(images, errors): folders become their images (sorted); errors are (path, reason)."""
    images: list[Path] = []
    errors: list[tuple[str, str]] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = sorted(q for q in path.iterdir() if q.is_file() and q.suffix.lower() in IMAGE_SUFFIXES)
            if not found:
                errors.append((p, f"folder has no images ({', '.join(IMAGE_SUFFIXES)}): give image files or another folder"))
            images.extend(found)
        elif not path.exists():
            errors.append((p, "no such file: check the path"))
        else:
            images.append(path)
    return images, errors


def read_image(path: Path):
    """BGR uint8 array, or raise ValueError with the reason (EXIF orientation applied, as cv2.imread does)."""
    import cv2
    import numpy as np

    if not path.is_file():
        raise ValueError("no such file: check the path")
    if not os.access(path, os.R_OK):
        raise ValueError("cannot read the file (permission denied): check its permissions")
    try:
        raw = np.fromfile(str(path), dtype=np.uint8)
    except OSError as exc:
        raise ValueError(f"cannot read the file ({exc.strerror or exc}): check it") from None
    if raw.size == 0:
        raise ValueError("the file is empty: give a JPEG or PNG photo")
    image = cv2.imdecode(raw, cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise ValueError("not an image OpenCV can decode: give a JPEG, PNG, BMP, WebP or TIFF photo")
    return image


def load_detector(args):
    from vision.detector import Detector
    from vision.model_files import table_model_dir
    from vision.onnx_backend import ModelFileError

    # a photo (also with --eval) reads with the table folder's models, where the folder has them: a detector that
    # knows fanned hands and the larger index classifier (session 27); --bench times the camera's way, with the
    # folder's own, unless it times --table
    table = getattr(args, "table", False)
    camera = getattr(args, "bench", False) and not table
    model_dir = args.model if camera else table_model_dir(args.model)
    # a photo's corners are each read on their own (share_confidence > 1): the camera's way, a sure corner's name
    # given to its partners in the same card box unread, misnames covered cards where one box holds a fan or two
    # overlapping cards (docs/BENCHMARKS.md, session 19)
    share = {} if camera else {"share_confidence": 2.0}
    zoom = getattr(args, "zoom", None)
    zoom = (TABLE_ZOOM if table else 1.0) if zoom is None else zoom
    confidence = args.min_confidence
    confidence = (TABLE_CONFIDENCE if table else PHOTO_CONFIDENCE) if confidence is None else confidence
    try:
        return Detector(model_dir=model_dir, conf_threshold=args.box_threshold, zoom=zoom,
                        min_card_confidence=confidence, tile=args.tile, imgsz=args.imgsz, **share,
                        threads=args.threads, face=False if getattr(args, "no_face", False) else None,
                        suit=False if getattr(args, "no_suit", False) else None,
                        balance=not getattr(args, "no_balance", False),
                        pips=False if getattr(args, "no_pips", False) else None)
    except (ModelFileError, ValueError) as exc:
        raise UserError(str(exc)) from None


def table_reader(model: str | None = None, threads: int | None = None):
    """The reader of ``patience detect --table`` with its defaults (the photo models, the closer look, the table
    threshold): for reading a whole table from a photo elsewhere (taking over a game)."""
    return load_detector(argparse.Namespace(model=model, threads=threads, table=True, zoom=None, min_confidence=None,
                                            box_threshold=BOX_THRESHOLD, tile="auto", imgsz=None))


def run(args) -> int:
    if getattr(args, "zoom", None) is not None and not 1.0 <= args.zoom <= 4.0:
        raise UserError(f"--zoom {args.zoom}: give a number from 1 (off) to 4, e.g. 1.5")
    for option, value in (("--min-confidence", args.min_confidence), ("--box-threshold", args.box_threshold)):
        if value is not None and not 0.0 <= value <= 1.0:
            raise UserError(f"{option} {value}: give a number from 0 to 1, e.g. 0.3")
    if args.threads is not None and args.threads < 1:
        raise UserError(f"--threads {args.threads}: give 1 or more")
    if args.frames < 1 or args.limit < 0:
        raise UserError("--frames must be at least 1 and --limit at least 0")
    if args.bench:
        return run_bench(args)
    if args.eval:
        return run_eval(args)
    if not args.images:
        raise UserError("give one or more images or folders, e.g. patience detect table.jpg")
    images, errors = expand_inputs(args.images)
    failed = 0
    for path, reason in errors:
        failed += 1
        _report_error(args, path, reason)
    if not images:
        return 2
    from vision.deck_suits import shift_notes

    detector = load_detector(args)
    console = None
    if not args.json:
        from rich.console import Console

        console = Console()
    for path in images:
        try:
            image = read_image(path)
        except ValueError as exc:
            failed += 1
            _report_error(args, str(path), str(exc))
            continue
        with pass_progress(str(path), detector, image) as progress:
            result = detector.detect(image, progress=progress)
        if args.draw:
            _write_drawing(args.draw, path, image, result)
        piles = None
        if args.table:
            from vision.piles import group_piles

            piles = group_piles(result.cards)
        notes = detector.prepare_notes(image) + shift_notes(result.suit_shifts)
        if not len(result.cards) and (small := too_small_note(image)):
            notes.append(small)
        if args.json:
            extra = {"piles": [p.to_json() for p in piles]} if piles is not None else {}
            extra.update({"notes": notes} if notes else {})
            print(json.dumps({"image": str(path), **result.to_json(), **extra}), flush=True)
        elif piles is not None:
            console.print(render_piles(str(path), result, piles))
        else:
            console.print(render_result(str(path), result))
        if console is not None:
            for note in notes:
                console.print(f"[dim]note: {note}[/dim]")
    return 2 if failed else 0


# A photo whose short side is under this many pixels, where nothing was found, is said to be too small (a thumbnail).
TINY_PHOTO_PX = 300


def too_small_note(image) -> str | None:
    """"the photo is only 64x48 pixels: ..." for a picture too small to read cards in; None for a usable size."""
    h, w = image.shape[:2]
    if min(h, w) >= TINY_PHOTO_PX:
        return None
    return f"the photo is only {w}x{h} pixels: too small to read cards (take it at 640x480 or more)"


class pass_progress:
    """A large photo is read in many detector passes (a 6000x6000 one: about 100, 10 s on 2 cores): show how far
    it is on stderr: a transient bar on a terminal, else a plain line every tenth of the passes. Photos read in
    one pass show nothing."""

    def __init__(self, name: str, detector, image, stream=None):
        self.name, self.stream = name, stream or sys.stderr
        self.needed = detector.tile_plan(image.shape[:2]) is not None
        self.size = f"{image.shape[1]}x{image.shape[0]}"
        self.bar = self.task = None
        self.shown = 0

    def __enter__(self):
        if not self.needed:
            return None
        if self.stream.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                TimeElapsedColumn(), console=Console(file=self.stream), transient=True)
            self.bar.__enter__()
            self.task = self.bar.add_task(f"reading {Path(self.name).name} ({self.size}) in tiles", total=None)
        return self.update

    def update(self, done: int, total: int) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=done, total=total)
            return
        step = max(1, total // 10)
        if done == total or done - self.shown >= step:
            self.shown = done
            print(f"{self.name}: {self.size}, detector pass {done} of {total}", file=self.stream, flush=True)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


def _write_drawing(folder: str, path: Path, image, result) -> None:
    import cv2

    from vision.detector import draw_result

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    target = out / (path.stem + ".detect.jpg")
    if not cv2.imwrite(str(target), draw_result(image, result)):
        raise UserError(f"cannot write {target}: check that the folder is writable")


def _report_error(args, path: str, reason: str) -> None:
    print(f"patience detect: {path}: {reason}", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps({"image": path, "error": reason}), flush=True)


def render_result(title: str, result):
    """A rich table of the cards found in one image."""
    from rich.table import Table
    from rich.text import Text

    h, w = result.image_hw
    total = sum(result.timings_ms.values())
    corners = int((result.detections.data.get("label", []) == "index").sum()) if len(result.detections) else 0
    table = Table(title=f"{title}  ({w}x{h}, {len(result.cards)} cards, {corners} corner boxes, "
                        f"{result.tiles} pass{'es' if result.tiles != 1 else ''}, {total:.0f} ms)",
                  title_justify="left")
    table.add_column("card")
    table.add_column("confidence", justify="right")
    table.add_column("corners", justify="right")
    table.add_column("box (x1, y1, x2, y2)", justify="right")
    for c in result.cards:
        suit = c.card[-1]
        symbol = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[suit]
        style = "bold red" if suit in "hd" else "bold"
        table.add_row(Text(f"{c.card[:-1]}{symbol}", style=style), f"{c.confidence:.2f}", str(c.corners),
                      ", ".join(f"{v:.0f}" for v in c.box))
    if not result.cards:
        table.add_row(Text("no cards found", style="dim"), "", "", "")
    return table


def render_piles(title: str, result, piles):
    """A rich table of the piles found in one image, each from its bottom card to its top."""
    from rich.table import Table
    from rich.text import Text

    h, w = result.image_hw
    table = Table(title=f"{title}  ({w}x{h}, {len(result.cards)} cards in {len(piles)} piles)", title_justify="left")
    table.add_column("pile", justify="right")
    table.add_column("bottom -> top")
    table.add_column("top card seen whole")
    for k, pile in enumerate(piles, 1):
        names = Text()
        for c in pile.cards:
            names.append(f"{c.card} ", style="bold red" if c.card[-1] in "hd" else "bold")
        table.add_row(str(k), names, "yes" if pile.top_known else "no (order guessed)")
    if not piles:
        table.add_row("", Text("no cards found", style="dim"), "")
    return table


def run_bench(args) -> int:
    from vision.benchmark import bench_detector, format_rows, load_average, load_frames, machine

    if args.bench_size == "native":
        size = None
    else:
        try:
            size = tuple(int(v) for v in args.bench_size.lower().split("x"))
            assert len(size) == 2 and min(size) > 0
        except (ValueError, AssertionError):
            raise UserError(f"--bench-size {args.bench_size!r}: write WIDTHxHEIGHT, e.g. 640x480, or 'native'") from None
    images, errors = expand_inputs(args.images)
    if errors:
        raise UserError(f"{errors[0][0]}: {errors[0][1]}")
    detector = load_detector(args)
    frames = load_frames([str(p) for p in images], size)
    what = f"{len(frames)} {'images' if images else 'synthetic frames'}"
    print(f"machine: {machine()}; {load_average()}; {what} at {frames[0].shape[1]}x{frames[0].shape[0]}; model: {detector.model_dir}")
    for line in format_rows(bench_detector(detector, frames, args.frames)):
        print(line)
    return 0


def run_eval(args) -> int:
    from vision.training.evaluate import evaluate, format_report, format_sweep, load_folder, threshold_sweep

    if not args.images:
        raise UserError("--eval needs labelled folders, e.g. patience detect --eval ../shared/datasets/real-dev/edje-train")
    sets = []
    for folder in args.images:
        try:
            sets.append((folder, *load_folder(folder)))
        except (FileNotFoundError, ValueError, KeyError) as exc:
            raise UserError(str(exc)) from None
    detector = load_detector(args)
    for folder, kind, images in sets:
        if args.sweep:
            rows = threshold_sweep(images, detector, kind, limit=args.limit)
            if args.json:
                for row in rows:
                    print(json.dumps({"folder": folder, **row}))
            else:
                print(f"{folder} ({kind}): thresholds")
                print(format_sweep(rows))
            continue
        try:
            tally = evaluate(images, detector.detect, kind, limit=args.limit)
        except FileNotFoundError as exc:
            raise UserError(str(exc)) from None
        if args.json:
            print(json.dumps({"folder": folder, **tally.summary()}))
        else:
            print(format_report(folder, tally))
    return 0

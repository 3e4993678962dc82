"""``patience dataset``: card artwork and the synthetic training sets for the card recogniser.

    patience dataset fetch                 # apt-get download + dpkg -x the free decks, rasterise, find indices
    patience dataset build --train 3000 --val 300 --workers 2
    patience dataset sheet                 # contact sheets of the decks with their index boxes (to check by eye)
    patience dataset procedural --count 40 --seed 0   # procedurally drawn decks (vision/training/procedural_decks.py)
    patience dataset glyphs --count 20800  # synthetic corner-index crops in many fonts (crops/train/<card>/g*.png)
    patience dataset negatives             # crops that show no index, for the classifier's "none" class
    patience dataset faces                 # whole-card crops (build/faces/{train,val}) for the face classifier
    patience dataset mix --out datasets/mix datasets/build datasets/fanbuild:2   # one crop folder from several builds
    patience dataset video --game tommy --seed 3 --held-out   # a game video + its ground truth (camera tests)

Everything lands in git-ignored folders: ``datasets/cache`` (artwork), ``datasets/build`` (datasets) and
``datasets/videos`` (game videos; ``datasets/videos.md`` says how the benchmark videos are made).
``fetch`` needs ``apt-get``/``dpkg`` (no root) and ``rsvg-convert`` (root: ``apt-get install librsvg2-bin``).
"""

from __future__ import annotations

import argparse
from pathlib import Path


# ``patience dataset harder --change``: the changes of vision.training.harder_photos.CHANGES and its close-ups
# (named here so that building the command line imports no training code)
HARDER_CHANGES = ("same", "turn90", "turn180", "half", "tilt", "dim", "dark", "darknoisy", "slightblur", "blur",
                  "heavyblur", "shake", "glare", "jpeg", "warm", "closeup")


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
    b.add_argument("--procedural-share", type=float, default=0.0, metavar="P",
                   help="share of the TRAINING tables drawn with procedural decks (`dataset procedural`), 0..1 "
                        "(default 0: the artwork decks only, as every build before; val scenes never use them)")
    b.add_argument("--registry-share", type=float, default=0.0, metavar="P",
                   help="share of the TRAINING tables drawn with the npm decks (`dataset fetch`), 0..1 (default 0; "
                        "with --procedural-share, the two together at most 1)")
    b.set_defaults(func=run)
    pr = sub.add_parser("procedural", help="draw complete decks procedurally (fonts, varied pips and colours, "
                                           "four-colour decks) into the artwork cache, for `dataset build "
                                           "--procedural-share`")
    pr.add_argument("--count", type=int, default=40, help="decks to draw (default 40)")
    pr.add_argument("--seed", type=int, default=0, help="deck k is drawn from (seed, k); names proc-s<seed>-<k>")
    pr.set_defaults(func=run)
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
    fc = sub.add_parser("faces", help="cut whole-card crops of the built scenes (<out>/faces/{train,val}/<card>) "
                                      "for the face classifier (vision/training/faces.py)")
    fc.add_argument("--out", type=Path, default=None, help="dataset folder (default datasets/build)")
    fc.add_argument("--per-card", type=int, default=1, help="jittered crops per whole card (default 1)")
    fc.add_argument("--seed", type=int, default=0)
    fc.set_defaults(func=run)
    m = sub.add_parser("mix", help="link the readable index crops (and none crops) of several builds into one "
                                   "classifier crop folder (vision/training/crop_mix.py)")
    m.add_argument("sources", nargs="+", metavar="BUILD[:WEIGHT]",
                   help="build folders (as `dataset build --out` wrote them), each WEIGHT times (default 1)")
    m.add_argument("--out", type=Path, required=True, help="the crop folder to write (train/<class>/ links)")
    m.add_argument("--val", type=Path, default=None,
                   help="a crop folder to link as <out>/val for the per-epoch check (e.g. datasets/facetune/crops/val); "
                        "with --scenes: a build whose val scenes check the detector (e.g. datasets/facetune)")
    m.add_argument("--scenes", action="store_true",
                   help="link the builds' labelled training SCENES into a detector folder with data.yaml instead "
                        "(patience train detector --data <out>/data.yaml)")
    m.add_argument("--faces", action="store_true",
                   help="link the builds' whole-card FACE crops (`dataset faces`) instead, for `train cardface "
                        "--crops <out>`")
    m.set_defaults(func=run)
    v = sub.add_parser("video", help="render a video of a game played on a table, with its ground truth JSON "
                                     "(vision/training/game_video.py)")
    v.add_argument("--game", choices=("tommy", "poker"), required=True)
    v.add_argument("--seed", type=int, default=0, help="the deal (deal_order(seed)); also seeds the player and the look")
    v.add_argument("--variant", default=None, help="tommy: standard (default) or any other Sir Tommy preset "
                   "(four-at-a-time, calculation, one-redeal, in-suit, ...: base cards set out, redeals played); "
                   "poker: american (default), english, american-adjacent, english-adjacent, american-shuffle, "
                   "english-shuffle")
    v.add_argument("--turns", type=int, default=None, help="tommy: stop after N turned cards (default: whole game)")
    v.add_argument("--cards", type=int, default=25, help="poker: place the first N cards (default 25)")
    v.add_argument("--deck", default=None, help="card design (a rasterised deck name, see datasets/decks.json)")
    v.add_argument("--held-out", action="store_true", help="a design held out of training, chosen by the seed")
    v.add_argument("--procedural", action="store_true", help="plain drawn faces, no artwork (tests)")
    v.add_argument("--size", default="1280x720", metavar="WxH", help="frame size (default 1280x720)")
    v.add_argument("--fps", type=float, default=15.0, help="frames per second (default 15)")
    v.add_argument("--speed", type=float, default=1.0, help=">1: quicker hands; the table stays still 0.4-1.5 s between moves (default 1)")
    v.add_argument("--card-height", default=None, metavar="LO,HI",
                   help="card height as a fraction of the frame height (default 0.10,0.14; poker 0.13,0.15)")
    v.add_argument("--clean", action="store_true",
                   help="a camera on a tripod in steady light: no sensor noise or shake, mild compression (small "
                        "files: the committed clips)")
    v.add_argument("--quick", action="store_true",
                   help="a brisk player: fewer turned cards laid beside the stock first, fewer idle hands, the "
                        "table still 0.4-0.9 s between moves (the demo)")
    v.add_argument("--straight", action="store_true",
                   help="tommy: every turned card laid straight onto its place, none beside the stock first (a "
                        "player the camera never sees hold a card in hand)")
    v.add_argument("--nudge", type=float, default=0.0, metavar="D",
                   help="the camera knocked halfway through the game: D card heights aside, a turn of up to 8 "
                        "degrees, up to 7 %% nearer or further, then kept so (default 0: never)")
    v.add_argument("--rows-overlap", type=float, default=0.0, metavar="F",
                   help="poker: the rows laid F of a card height over each other, a card laid later covering the "
                        "edge of its neighbour (default 0: gaps between the rows)")
    v.add_argument("--columns-overlap", type=float, default=0.0, metavar="F",
                   help="poker: the columns laid F of a card width over each other, a card laid later covering the "
                        "left or right edge of its neighbour (default 0: gaps between the columns)")
    v.add_argument("--look", type=int, default=None,
                   help="seed of the look (table, layout, camera, light, hands) apart from the deal (default: --seed)")
    v.add_argument("--out", type=Path, default=None,
                   help="output path without suffix (default datasets/videos/<game>-<seed>): writes .mp4 and .json")
    v.set_defaults(func=run)
    hd = sub.add_parser("harder", help="copy labelled real photos (an edje-style folder) turned, smaller, tilted, "
                                       "dimmer, blurred, with glare, in lamp light or heavy JPEG, boxes moved along: "
                                       "for patience detect --eval, never for training")
    hd.add_argument("source", type=Path, help="edje-style folder (labels.csv and the photos)")
    hd.add_argument("--out", type=Path, required=True, help="the new folder")
    hd.add_argument("--labels", type=Path, default=None,
                    help="another labels.csv of the same photos to carry along (default: the folder's own), e.g. "
                         "datasets/real-dev-suits/edje-train.csv, which adds each card's suit: the copy is then "
                         "scored by whole card names")
    hd.add_argument("--change", required=True, choices=HARDER_CHANGES,
                    help="what to do to each photo (vision/training/harder_photos.py): same (as taken), turn90 / "
                         "turn180 (turned a "
                         "quarter clockwise / half round), half (the size), tilt (the far edge 60 %% as wide), dim / "
                         "dark (half / a third as bright), darknoisy (dark, with sensor noise), slightblur / blur / "
                         "heavyblur (Gaussian, sigma 1.2 / 2 / 3 px), shake (motion blur), glare (a lamp's reflection), jpeg (quality 20), "
                         "warm (lamp light); closeup: one 640x480 close-up per card, the card filling 45-95 %% of "
                         "the height (as if held up to the camera)")
    hd.set_defaults(func=run)
    p.set_defaults(func=run, action=None)


def run(args: argparse.Namespace) -> int:
    from assistant.cli import UserError

    if args.action is None:
        raise UserError("say what to do: fetch, build, sheet, procedural, glyphs, negatives, faces, mix, video or "
                        "harder (patience dataset --help)")
    if args.action == "video":
        return _video(args)
    if args.action == "harder":
        from vision.training.harder_photos import CHANGES, make_closeups, make_harder

        with _bar() as bar:
            task = bar.add_task(f"{args.change} photos", total=None)
            try:
                progress = lambda done, total: bar.update(task, completed=done, total=total)  # noqa: E731
                if args.change == "closeup":
                    n = make_closeups(args.source, args.out, progress=progress, labels=args.labels)
                else:
                    n = make_harder(args.source, args.out, args.change, progress=progress, labels=args.labels)
            except (ValueError, FileNotFoundError) as exc:
                raise UserError(str(exc)) from None
        what = "close-ups, one a card," if args.change == "closeup" else f"photos {CHANGES[args.change][0]}"
        print(f"{n} {what} in {args.out} (patience detect --eval {args.out})")
        return 0
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
    if args.action == "procedural":
        return _procedural(args, artwork, _bar())

    if args.action == "negatives":
        return _negatives(args, artwork, _bar())

    if args.action == "mix":
        from vision.training.crop_mix import mix_crops, mix_faces, mix_scenes, parse_source

        if args.scenes and args.val is None:
            raise UserError("--scenes needs --val BUILD: the scenes that check the detector each epoch")
        try:
            sources = [parse_source(s) for s in args.sources]
            if args.scenes and args.faces:
                raise ValueError("--scenes or --faces, not both")
            if args.scenes:
                made = mix_scenes(sources, args.out, args.val)
            elif args.faces:
                made = mix_faces(sources, args.out, args.val)
            else:
                made = mix_crops(sources, args.out, val=args.val)
        except (ValueError, FileNotFoundError) as exc:
            raise UserError(str(exc)) from None
        for src, n in made.items():
            print(f"{src}: {n} {'scenes' if args.scenes else 'crops'} linked")
        if args.scenes:
            print(f"detector folder: {args.out} (patience train detector --data {args.out}/data.yaml)")
        else:
            what = "cardface" if args.faces else "classifier"
            print(f"crop folder: {args.out} (patience train {what} --crops {args.out})")
        return 0
    if args.action == "faces":
        return _faces(args, artwork, _bar())

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

        try:  # here: a failing start of the rendering workers would only be retried by their pool
            synth.check_shares(args.procedural_share, args.registry_share)
        except ValueError as exc:
            raise UserError(f"--procedural-share / --registry-share: {exc}") from None
        try:
            made = synth.build(out, args.train, args.val, seed=args.seed, workers=args.workers, progress=progress,
                               layout=args.layout, procedural_share=args.procedural_share,
                               registry_share=args.registry_share)
        except FileNotFoundError as exc:
            raise UserError(str(exc)) from None
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


def _procedural(args: argparse.Namespace, artwork, bar) -> int:
    """Draw ``args.count`` procedural decks into the artwork cache (``write_procedural_decks``)."""
    from assistant.cli import UserError

    try:
        from vision.training.procedural_decks import write_procedural_decks
    except ImportError as exc:  # PIL: a training-time dependency
        raise UserError(f"the deck drawing needs Pillow ({exc})") from exc
    if args.count < 1:
        raise UserError("--count must be at least 1")
    fonts = artwork.glyph_fonts() if (artwork.CACHE / "fonts").is_dir() else []
    with bar:
        task = bar.add_task("procedural decks", total=args.count)
        made = write_procedural_decks(args.count, seed=args.seed, fonts=fonts,
                                      progress=lambda done: bar.update(task, completed=done))
    four = sum(m["style"]["four_colour"] for m in made.values())
    print(f"{len(made)} procedural decks ({four} four-colour) drawn with {len(fonts) or 'Hershey'} fonts into "
          f"{artwork.CACHE / 'cards'}; listed in decks.json (procedural: true). Use them with "
          f"`patience dataset build --procedural-share P`; check them with `patience dataset sheet`.")
    return 0


def _negatives(args: argparse.Namespace, artwork, bar) -> int:
    """Negative crops for every built scene of both splits (``vision.training.negatives``); resumable."""
    from assistant.cli import UserError
    from vision.training.negatives import build_negatives
    from vision.onnx_backend import ModelFileError

    out = args.out or (artwork.REPO / "datasets" / "build")
    if not (out / "detect" / "meta").is_dir():
        raise UserError(f"no scenes in {out}: run `patience dataset build` first")
    model = negatives_model(args.model, artwork.REPO / "models" / "detector.onnx")
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


def _faces(args: argparse.Namespace, artwork, bar) -> int:
    """Whole-card crops of both splits of a built scene set (``vision.training.faces``); resumable."""
    from assistant.cli import UserError
    from vision.training.faces import write_face_crops

    out = args.out or (artwork.REPO / "datasets" / "build")
    if not (out / "detect" / "meta").is_dir():
        raise UserError(f"no scenes in {out}: run `patience dataset build` first")
    made = {}
    with bar:
        for split in ("val", "train"):
            task = bar.add_task(f"{split} face crops", total=None)
            made[split] = write_face_crops(out, split, out / "faces" / split, per_card=args.per_card, seed=args.seed,
                                           progress=lambda k, n, t=task: bar.update(t, completed=k, total=n))
    print(f"{made['train']} train + {made['val']} val whole-card crops written under {out / 'faces'}")
    return 0


def _video(args: argparse.Namespace) -> int:
    """Play a seeded game with a fallible player and render it (``vision.training.game_video``)."""
    import json
    import time

    from assistant.cli import UserError
    from assistant.games.kinds import GAME_KINDS
    from vision.training import artwork
    from vision.training.game_video import VideoOptions, deck_faces, procedural_faces, render_game

    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
        assert width >= 64 and height >= 64
    except (ValueError, AssertionError):
        raise UserError(f"--size {args.size!r}: write WIDTHxHEIGHT, e.g. 1280x720") from None
    if args.fps <= 0 or args.speed <= 0:
        raise UserError("--fps and --speed must be positive")
    kind = GAME_KINDS[args.game]
    try:
        script = kind.video_script(args.seed, args.variant, turns=args.turns, cards=args.cards)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if args.procedural:
        faces, deck, held = procedural_faces(), "procedural", False
    else:
        index = artwork.CACHE / "cards" / "decks.json"
        if not index.exists():
            raise UserError("no card artwork yet: run `patience dataset fetch` first (or use --procedural)")
        info = json.loads(index.read_text())
        if args.deck:
            if args.deck not in info:
                raise UserError(f"--deck {args.deck!r}: not a rasterised deck; one of {', '.join(sorted(info))}")
            deck = args.deck
        else:
            names = sorted(n for n, m in info.items()
                           if bool(m["held_out"]) == bool(args.held_out) and not m.get("procedural"))
            if not names:
                raise UserError("no such deck in the cache")
            deck = names[args.seed % len(names)]
        held = bool(info[deck]["held_out"])
        faces = deck_faces(deck)
    options = VideoOptions(width=width, height=height, fps=args.fps, speed=args.speed)
    if args.clean:
        options.noise, options.jpeg, options.shake, options.light = (0.0, 0.0), (88, 92), 0.0, 0.0
    if args.quick:
        options.two_step, options.hand_passes, options.still = 0.3, 0.05, (0.4, 0.9)
    if args.straight:
        options.two_step = 0.0
    options.nudge = args.nudge
    for lines, size, most in (("rows", "height", 0.5), ("columns", "width", 0.45)):  # a Poker grid laid over itself
        share = getattr(args, f"{lines}_overlap")
        if not 0.0 <= share <= most:
            raise UserError(f"--{lines}-overlap is a share of a card {size} from 0 to {most}")
        if share and args.game != "poker":
            raise UserError(f"--{lines}-overlap lays a Poker grid's {lines} over each other: use it with --game poker")
        setattr(options, f"{lines}_overlap", share)
    if kind.video_card_height:
        options.card_height = kind.video_card_height
    if args.card_height:
        try:
            lo, hi = (float(v) for v in args.card_height.split(","))
            assert 0 < lo <= hi < 1
        except (ValueError, AssertionError):
            raise UserError(f"--card-height {args.card_height!r}: write LO,HI, e.g. 0.10,0.14") from None
        options.card_height = (lo, hi)
    out = args.out or (artwork.REPO / "datasets" / "videos" / f"{args.game}-{args.seed}")
    t0 = time.perf_counter()
    look = args.seed if args.look is None else args.look
    truth = render_game(script, faces, out, seed=look, options=options, meta={"deck": deck, "held_out": held, "look": look})
    secs = time.perf_counter() - t0
    print(f"{out}.mp4: {truth['frames']} frames ({truth['frames'] / args.fps:.0f} s of video, {deck}) in "
          f"{secs:.0f} s; truth in {out}.json: {sum(e['event'] == 'move' for e in truth['events'])} moves, "
          f"result {truth['result']}")
    return 0


def negatives_model(arg: Path | None, default: Path) -> Path | None:
    """The detector whose false boxes ``dataset negatives`` mines: ``--model`` if given, the committed one if not;
    None (random boxes only) for ``--model none``. (An absent option must not read as "none".)"""
    if arg is None:
        return default
    return None if str(arg).lower() == "none" else Path(arg)

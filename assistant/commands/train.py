"""``patience train``: train the card recogniser from the synthetic data and export it to ``models/``.

    patience train detector --epochs 24 --imgsz 416   # YOLO corner-index detector (resumes runs/detector)
    patience train detector --name detector640 --imgsz 640 --init runs/detector/weights/best.pt --hours 1.7 \
        --warmup-epochs 0.5 --close-mosaic 2          # second stage: fine-tuned at 640 px
    patience train classifier --epochs 8              # crop classifier, 52 cards (resumes runs/classifier)
    patience train classifier --name classifier3 --init runs/classifier/best.pt --epochs 14 \
        --samples-per-epoch 60000 --lr 2e-3 --hours 1.25  # 52 cards + none, once `patience dataset negatives`/`glyphs` ran
    patience train export --run detector640 --imgsz 640 --dynamic   # models/detector.onnx|.pt, classifier, vision.json
    patience train cardface --hours 1                 # whole-card face classifier -> models/cardface.onnx (second look)
    patience train suit --hours 0.8                   # suit look at the 64 px corner crop -> models/suitlook.onnx
    patience train pips --wire                        # pip look: the suit of the pips in a whole card's middle
    patience train stream --device cuda --workers 14 --seconds 380 --batch 1024   # index classifiers on a GPU
    patience train blend models/table/classifier.pt runs/stream/w4s_64_last.pt --share 0.7 --out DIR  # weights blended
    patience train report                             # measure both on the held-out designs -> models/metrics.json
    patience train all                                # the committed recipe, start to end (each step resumes)

Needs the training extras (torch, ultralytics, onnx: ``pip install -e .[train]``) and a dataset from
``patience dataset build``. Runs offline on one thread; each step resumes where it stopped.
"""

from __future__ import annotations

import argparse
from pathlib import Path

REPO_DATA = Path(__file__).resolve().parents[2] / "datasets"
SUIT_WEIGHT = 1.0  # the suit look's fusion exponent and gate, chosen on datasets/facetune (models/README.md)
SUIT_BELOW = 1.01
PIP_WEIGHT = 2.0  # the pip look's fusion exponent and least pip weight, chosen on datasets/gridtune (models/README.md)
MIN_PIPS = 1.5
TABLE_PIP_WEIGHT = 3.0  # the photo models' exponent (models/table), chosen on the tuning sets in session 28


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("train", help="train the card detector and classifier, export them to models/")
    sub = p.add_subparsers(dest="step", metavar="STEP")
    d = sub.add_parser("detector", help="train the YOLO corner-index detector")
    d.add_argument("--epochs", type=int, default=24)
    d.add_argument("--imgsz", type=int, default=416)
    d.add_argument("--batch", type=int, default=16)
    d.add_argument("--data", type=Path, default=None, help="data.yaml (default datasets/build/detect/data.yaml)")
    d.add_argument("--name", default="detector", help="run folder under runs/")
    d.add_argument("--hours", type=float, default=None, help="train for this long (overrides --epochs for the schedule)")
    d.add_argument("--init", type=Path, default=None,
                   help="start from these weights (fine-tune, e.g. models/detector.pt at a larger --imgsz)")
    d.add_argument("--warmup-epochs", type=float, default=3.0, help="learning-rate warm-up (use ~0.5 to fine-tune)")
    d.add_argument("--close-mosaic", type=int, default=5, help="last epochs trained without mosaic")
    c = sub.add_parser("classifier", help="train the index-crop classifier")
    c.add_argument("--epochs", type=int, default=8)
    c.add_argument("--samples-per-epoch", type=int, default=12000, help="crops drawn per epoch")
    c.add_argument("--batch", type=int, default=128)
    c.add_argument("--input", type=int, default=32, help="classifier input in px (the 64 px crops are shrunk to it)")
    c.add_argument("--name", default="classifier", help="run folder under runs/")
    c.add_argument("--init", type=Path, default=None, help="start from this run's weights (e.g. runs/classifier/best.pt)")
    c.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (one-cycle)")
    c.add_argument("--crops", type=Path, default=None, help="crop folder (default datasets/build/crops)")
    c.add_argument("--hours", type=float, default=None, help="stop after this long (resume later)")
    c.add_argument("--width", type=int, default=None,
                   help="CNN width (make_cropnet; default 2, the committed classifier's)")
    c.add_argument("--shape-aug", action="store_true",
                   help="also train on glyphs stretched, sheared, bolder or lighter (other typefaces)")
    f = sub.add_parser("cardface", help="train the whole-card face classifier (the second look at cards seen whole) "
                                        "on `patience dataset faces` crops, export models/cardface.onnx")
    _look_arguments(f, crops="face crop folder (default datasets/build/faces)",
                    val="the per-epoch check's crops (default <crops>/val; the recipe uses a separate tuning set)",
                    epochs=10, samples=40000, input_px=48, name="cardface",
                    init="start from this run's weights (layers of the same shape)")
    f.add_argument("--wire", choices=("card", "suit"), default=None,
                   help="also declare it in models/vision.json with this fusion (the Detector then uses it)")
    f.add_argument("--weight", type=float, default=1.0, help="with --wire: exponent of the face probabilities")
    u = sub.add_parser("suit", help="train the suit look (4 suits from the 64 px corner-index crop, fused into the "
                                    "corner classifier's names), export models/suitlook.onnx")
    _look_arguments(u, crops="index crop folder (default datasets/build/crops)",
                    val="the per-epoch check's crops (default <crops>/val; the recipe uses datasets/facetune/crops/val)",
                    epochs=10, samples=30000, input_px=64, name="suitlook",
                    init="start from these weights (layers of the same shape)")
    u.add_argument("--wire", action="store_true", help="also declare it in models/vision.json (the Detector uses it)")
    u.add_argument("--weight", type=float, default=SUIT_WEIGHT, help="with --wire: exponent of the suit probabilities")
    u.add_argument("--below", type=float, default=SUIT_BELOW,
                   help="with --wire: only corners whose own best suit probability is below this get the suit look")
    q = sub.add_parser("pips", help="train the pip look (the suit of each pip silhouette in a whole card's middle, "
                                    "fused into its corners' names), export models/pips.onnx")
    q.add_argument("--epochs", type=int, default=12)
    q.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (one-cycle)")
    q.add_argument("--name", default="pips", help="run folder under runs/")
    q.add_argument("--recut", action="store_true", help="cut the silhouettes again (else datasets/build/pips.npz is reused)")
    q.add_argument("--wire", action="store_true", help="also declare it in models/vision.json (the Detector uses it)")
    q.add_argument("--weight", type=float, default=PIP_WEIGHT, help="with --wire: exponent of a card's pip suit shares")
    q.add_argument("--table-weight", type=float, default=TABLE_PIP_WEIGHT,
                   help="with --wire: the same exponent for the photo models (models/table)")
    q.add_argument("--min-pips", type=float, default=MIN_PIPS,
                   help="with --wire: the summed pip weight of a card from which its pips count fully "
                        "(less counts in proportion, from half a pip)")
    s = sub.add_parser("stream", help="index classifiers (and suit looks) trained on a stream of freshly rendered "
                                      "scenes: many CPU workers render, a GPU learns (a machine with many cores "
                                      "and a GPU)")
    _stream_arguments(s)
    e = sub.add_parser("export", help="export the trained models to models/ (ONNX + .pt + vision.json)")
    e.add_argument("--imgsz", type=int, default=416)
    e.add_argument("--run", default="detector", help="detector run folder under runs/ (default detector)")
    e.add_argument("--classifier-run", default="classifier", help="classifier run folder under runs/")
    e.add_argument("--dynamic", action="store_true",
                   help="free input height and width (each frame at its own aspect, long side --imgsz)")
    b = sub.add_parser("blend", help="a classifier's weights blended with a fine-tune of it (weight-space "
                                     "ensemble), exported as ONNX + .pt")
    b.add_argument("base", type=Path,
                   help="the checkpoint the fine-tune started from (e.g. models/table/classifier.pt)")
    b.add_argument("tuned", type=Path, help="the fine-tuned checkpoint (e.g. runs/stream/w4s_64_last.pt)")
    b.add_argument("--share", type=float, default=0.7, help="the fine-tune's share of each weight (default 0.7)")
    b.add_argument("--out", type=Path, required=True, help="folder for classifier.onnx and classifier.pt")
    r = sub.add_parser("report", help="measure the exported models on the held-out designs (models/metrics.json)")
    r.add_argument("--imgsz", type=int, default=416)
    r.add_argument("--run", default="detector", help="detector run folder under runs/ (default detector)")
    r.add_argument("--classifier-run", default="classifier", help="classifier run folder under runs/ (its training time)")
    a = sub.add_parser("all", help="the committed recipe: dataset fetch/build, detector, classifier, export, report")
    a.add_argument("--detector-hours", type=float, default=1.25, help="first detector stage, 416 px (default 1.25)")
    a.add_argument("--finetune-hours", type=float, default=1.7,
                   help="second detector stage: the 416 px model fine-tuned at 640 px (default 1.7)")
    a.add_argument("--classifier-epochs", type=int, default=12, help="first classifier (52 cards), default 12")
    a.add_argument("--second-finetune-hours", type=float, default=2.3,
                   help="third detector stage: the 640 px model again on the doubled scenes (default 2.3)")
    a.add_argument("--classifier3-hours", type=float, default=1.25,
                   help="the final classifier: 52 cards + none, with glyph and negative crops (default 1.25)")
    p.set_defaults(func=run, step=None)


#: the classifier shapes of ``vision.training.stream_train.ARCHS`` (named here so that building the CLI loads no
#: training code; tests/test_stream_train.py checks that the two agree)
STREAM_CARD_SHAPES = ("w2_32", "w3_32", "w4_32", "w3s_64", "w4s_64")  # index classifiers (the default)
STREAM_SHAPES = STREAM_CARD_SHAPES + ("suit_w1_64", "suit_w2s_64", "suit_w3s_64")  # + suit looks (``--archs``)


def _stream_arguments(s) -> None:
    """The options of ``patience train stream`` (``vision.training.stream_train.train_stream``)."""
    s.add_argument("--out", type=Path, default=Path("runs/stream"), help="folder for <shape>.pt and summary.json")
    s.add_argument("--seconds", type=float, default=420.0, help="training time after the buffer is filled")
    s.add_argument("--workers", type=int, default=None, help="rendering processes (default: the cores but two)")
    s.add_argument("--device", default="cuda", help="torch device (cuda, cpu)")
    s.add_argument("--archs", default=",".join(STREAM_CARD_SHAPES),
                   help=f"shapes to train, of {', '.join(STREAM_SHAPES)} (suit_*: suit looks; default: the others)")
    s.add_argument("--batch", type=int, default=512)
    s.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (warm-up, then cosine, over --seconds)")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--cache", type=Path, default=None, help="artwork cache (default datasets/cache)")
    s.add_argument("--detector", default="models/detector.onnx",
                   help="ONNX detector whose false boxes become negatives ('' for random boxes only)")
    s.add_argument("--fan-share", type=float, default=0.3, help="share of training scenes that are fanned hands")
    s.add_argument("--registry-share", type=float, default=0.2, help="share of training tables of the npm decks")
    s.add_argument("--procedural-share", type=float, default=0.0,
                   help="share of training tables of procedural decks (`patience dataset procedural` first; more "
                        "shapes of pips and indices than the artwork has)")
    s.add_argument("--glyph-share", type=float, default=0.0,
                   help="share of the jobs that draw corner indices in fonts (typefaces not held out; courts also "
                        "with German or Dutch letters) instead of rendering a scene")
    s.add_argument("--check-scenes", type=int, default=150, help="held-out scenes of the default mix for the checks")
    s.add_argument("--check-fan-scenes", type=int, default=75, help="held-out fanned hands for the checks")
    s.add_argument("--check-every", type=float, default=30.0, help="seconds between checks")
    s.add_argument("--capacity", type=int, default=1_000_000, help="crops kept in memory")
    s.add_argument("--min-buffer", type=int, default=20000, help="crops rendered before training starts")
    s.add_argument("--init", type=Path, default=None,
                   help="start every shape from this checkpoint (e.g. models/suitlook.pt with --archs suit_w1_64)")
    s.add_argument("--pack", type=Path, default=None, help="only write the artwork cache as WebP into this folder")
    s.add_argument("--unpack", type=Path, default=None, help="first unpack a --pack folder into the cache")


def _stream(args) -> None:
    """``patience train stream``: pack the artwork, or (unpack it and) train the shapes asked for."""
    import os

    from assistant.cli import UserError
    from vision.training import stream_train, synth
    from vision.training.artwork import CACHE

    cache = args.cache or CACHE
    if args.pack:
        print(f"{stream_train.pack_artwork(cache, args.pack)} faces packed into {args.pack}")
        return
    names = [n for n in args.archs.split(",") if n]
    unknown = [n for n in names if n not in stream_train.ARCHS]
    if unknown or not names:
        raise UserError(f"unknown shapes {unknown or args.archs!r}; known: {', '.join(stream_train.ARCHS)}")
    if args.unpack:
        print(f"{stream_train.unpack_artwork(args.unpack, cache)} faces unpacked", flush=True)
    try:  # here, not in the rendering workers, whose failing start the pool would only retry
        synth._init(str(cache), "train", procedural_share=args.procedural_share, registry_share=args.registry_share)
    except (ValueError, FileNotFoundError) as exc:
        raise UserError(str(exc)) from None
    workers = args.workers or max(1, (os.cpu_count() or 2) - 2)
    stream_train.train_stream(args.out, args.seconds, workers, {n: stream_train.ARCHS[n] for n in names},
                              batch=args.batch, lr=args.lr, device=args.device, seed=args.seed, cache=args.cache,
                              detector=Path(args.detector) if args.detector else None, fan_share=args.fan_share,
                              registry_share=args.registry_share, procedural_share=args.procedural_share,
                              glyph_share=args.glyph_share, check_scenes=args.check_scenes,
                              check_fan_scenes=args.check_fan_scenes, capacity=args.capacity,
                              min_buffer=args.min_buffer, check_every=args.check_every, init=args.init,
                              log=lambda m: print(m, flush=True))


def classifier_options(args) -> dict:
    """``train_classifier``'s keyword arguments from ``patience train classifier``'s options (the width only when
    given, so the function's default stays the one place that names the committed classifier's)."""
    return dict(epochs=args.epochs, batch=args.batch, crops=args.crops,
                time_budget_s=args.hours * 3600 if args.hours else None, samples_per_epoch=args.samples_per_epoch,
                input_size=args.input, name=args.name, init=args.init, lr=args.lr, shape_aug=args.shape_aug,
                **({} if args.width is None else {"width": args.width}))


def run(args: argparse.Namespace) -> int:
    from assistant.cli import UserError

    if args.step is None:
        raise UserError("say which step: detector, classifier, stream, blend, cardface, suit, pips, export, report "
                        "or all (patience train --help)")
    try:
        import torch  # noqa: F401
    except ModuleNotFoundError as exc:
        raise UserError("training needs torch and ultralytics: pip install -e .[train]") from exc
    from vision.training import train

    if args.step == "all":
        import time

        from vision.training import artwork, index_glyphs, model_report, negatives, synth

        t0 = time.time()
        artwork.prepare_all()  # card decks and fonts
        synth.build(train.BUILD, 3000, 300, seed=0, workers=1)
        t1 = time.time()
        # session 1-2: detector at 416 then 640 px, classifier of the 52 cards, all on the first 3000 scenes
        first = train.train_detector(epochs=30, imgsz=416, batch=16, hours=args.detector_hours)
        train.train_detector(epochs=8, imgsz=640, batch=16, name="detector640", hours=args.finetune_hours,
                             init=first / "weights" / "best.pt", warmup_epochs=0.5, close_mosaic=2)
        train.train_classifier(epochs=args.classifier_epochs, samples_per_epoch=48000)
        # session 3: 3000 more scenes; negatives mined with the 640 px detector; glyph crops; both models again
        synth.build(train.BUILD, 6000, 300, seed=0, workers=1)
        miner = train.export_detector(run=train.RUNS / "detector640", out=train.RUNS / "miner", imgsz=640, dynamic=True)
        for split in ("val", "train"):
            negatives.build_negatives(train.BUILD, split, miner)
        index_glyphs.write_glyph_crops(train.BUILD / "crops" / "train", 52 * 400, artwork.glyph_fonts())
        train.train_detector(epochs=4, imgsz=640, batch=16, name="detector640b", hours=args.second_finetune_hours,
                             init=train.RUNS / "detector640" / "weights" / "best.pt", warmup_epochs=0.3,
                             close_mosaic=1)
        train.train_classifier(epochs=14, samples_per_epoch=60000, lr=2e-3, name="classifier3",
                               init=train.RUNS / "classifier" / "best.pt", time_budget_s=args.classifier3_hours * 3600)
        train.train_classifier(epochs=10, samples_per_epoch=60000, lr=1e-3, name="classifier4",  # a gentler cycle
                               init=train.RUNS / "classifier3" / "best.pt", time_budget_s=0.75 * 3600)
        train.export_detector(run=train.RUNS / "detector640b", imgsz=640, dynamic=True)
        train.export_classifier(run=train.RUNS / "classifier4")
        train.write_manifest(imgsz=640)
        out = model_report.report(imgsz=640, data_seconds=t1 - t0, run="detector640b", classifier_run="classifier4")
        # session 4: the whole-card face classifier (second look) from the 6000 scenes' whole cards (the committed
        # one had the first 3000 and a separate tuning set, datasets/facetune, for its per-epoch check): 48 px, then
        # 64 px from its convolutions; the last epoch, fused by card at weight 0.5
        face = dict(samples_per_epoch=30000, batch=128, width=1, no_export=True, wire=None, weight=0.5, val_crops=None)
        _cardface(train, train.BUILD, train.BUILD / "faces", argparse.Namespace(
            epochs=8, input=48, lr=3e-3, name="cardface", hours=0.95, init=None, **face))
        _cardface(train, None, train.BUILD / "faces", argparse.Namespace(
            epochs=10, input=64, lr=2e-3, name="cardface64", hours=0.75, init=train.RUNS / "cardface" / "last.pt",
            **{**face, "no_export": False, "wire": "card"}))
        # session 6: the suit look at the 64 px corner crop, from the face's convolutions; then a second cycle on the
        # scene crops plus font-glyph crops (datasets/suitglyphs), per-epoch check on the tuning set's crops
        from vision.training.crop_mix import mix_crops

        synth.build(REPO_DATA / "facetune", 0, 150, seed=1, workers=1)
        tune = REPO_DATA / "facetune" / "crops" / "val"
        suit = dict(batch=128, input=64, width=1, val_crops=tune, no_export=True, wire=False, below=SUIT_BELOW,
                    weight=SUIT_WEIGHT, samples_per_epoch=30000)
        _suitlook(train, train.BUILD / "crops", argparse.Namespace(
            epochs=8, lr=3e-3, hours=0.8, name="suitlook", init=train.MODELS / "cardface.pt", **suit))
        index_glyphs.write_glyph_crops(REPO_DATA / "suitglyphs" / "crops" / "train", 52 * 400, artwork.glyph_fonts())
        mix_crops([(train.BUILD, 1), (REPO_DATA / "suitglyphs", 1)], REPO_DATA / "suitmix", val=tune)
        _suitlook(train, REPO_DATA / "suitmix", argparse.Namespace(
            epochs=6, lr=1.5e-3, hours=0.45, name="suitlook2g", init=train.RUNS / "suitlook" / "last.pt",
            **{**suit, "no_export": False, "wire": True}))
        # session 10: the pip look, from the whole cards of the training scenes and of procedural-deck scenes
        from vision.training.procedural_decks import write_procedural_decks

        write_procedural_decks(40, seed=0)
        synth.build(REPO_DATA / "procbuild", 1500, 0, seed=21, workers=1, procedural_share=1.0)
        _pips(train, argparse.Namespace(recut=True, name="pips", epochs=12, lr=3e-3, wire=True, weight=PIP_WEIGHT,
                                        min_pips=MIN_PIPS, table_weight=TABLE_PIP_WEIGHT))
        # session 12: the face look fine-tuned with the whole cards of scenes of the two npm decks added
        from vision.training.crop_mix import mix_faces
        from vision.training.faces import write_face_crops

        npm = REPO_DATA / "npmbuild"
        synth.build(npm, 1200, 0, seed=12, workers=1, registry_share=1.0)
        write_face_crops(npm, "train", npm / "faces" / "train", per_card=2)
        write_face_crops(REPO_DATA / "facetune", "val", REPO_DATA / "facetune" / "faces" / "val", per_card=1)
        mix_faces([(train.BUILD, 1), (npm, 1)], REPO_DATA / "facemixnpm", val=REPO_DATA / "facetune" / "faces" / "val")
        _cardface(train, None, REPO_DATA / "facemixnpm", argparse.Namespace(
            epochs=6, input=64, lr=1e-3, name="cardface_npm", hours=0.45, init=train.MODELS / "cardface.pt",
            **{**face, "val_crops": REPO_DATA / "facetune" / "faces" / "val", "no_export": False, "wire": "card"}))
        print(f"done in {time.time() - t0:.0f} s; metrics in {out}")
    elif args.step == "detector":
        data = args.data or train.BUILD / "detect" / "data.yaml"
        if not Path(data).exists():
            raise UserError(f"{data} not found: run `patience dataset build` first")
        run_dir = train.train_detector(epochs=args.epochs, imgsz=args.imgsz, batch=args.batch, data=data, name=args.name,
                                     hours=args.hours, init=args.init, warmup_epochs=args.warmup_epochs,
                                     close_mosaic=args.close_mosaic)
        print(f"detector trained: {run_dir}")
    elif args.step == "classifier":
        run_dir = train.train_classifier(**classifier_options(args))
        print(f"classifier trained: {run_dir}")
    elif args.step == "cardface":
        crops = args.crops or train.BUILD / "faces"
        if not (Path(crops) / "train").is_dir():
            raise UserError(f"{crops}/train not found: run `patience dataset faces` first")
        _cardface(train, None, crops, args)
    elif args.step == "suit":
        crops = args.crops or train.BUILD / "crops"
        if not (Path(crops) / "train").is_dir():
            raise UserError(f"{crops}/train not found: run `patience dataset build` first")
        _suitlook(train, crops, args)
    elif args.step == "pips":
        _pips(train, args)
    elif args.step == "stream":
        _stream(args)
    elif args.step == "blend":
        for path in (args.base, args.tuned):
            if not path.is_file():
                raise UserError(f"no checkpoint {path}")
        import tempfile

        with tempfile.TemporaryDirectory() as work:  # the blended checkpoint, before its export
            try:
                blend = train.blend_classifiers(args.base, args.tuned, args.share, Path(work))
            except ValueError as exc:
                raise UserError(str(exc)) from exc
            print(f"exported {train.export_classifier(run=blend.parent, out=args.out, checkpoint=blend.name)}")
    elif args.step == "export":
        det = train.export_detector(run=train.RUNS / args.run, imgsz=args.imgsz, dynamic=args.dynamic)
        clf = train.export_classifier(run=train.RUNS / args.classifier_run)
        man = train.write_manifest(imgsz=args.imgsz)
        print(f"exported {det}, {clf}, {man}")
    else:
        from vision.training import model_report

        out = model_report.report(imgsz=args.imgsz, run=args.run, classifier_run=args.classifier_run)
        print(f"metrics written to {out}")
    return 0


def _pips(train, args) -> None:
    """Cut the pip silhouettes from the rendered scenes (once), train the pip net, and with ``--wire`` export it to
    models/pips.onnx and declare it in vision.json."""
    from assistant.progress import progress
    from vision.training import pips

    if args.recut or not pips.PIP_SET.is_file():
        if not (train.BUILD / "detect" / "meta" / "train").is_dir():
            from assistant.cli import UserError

            raise UserError(f"{train.BUILD}/detect not found: run `patience dataset build` first")
        with progress("scenes cut into pip silhouettes", len(pips.scene_metas())) as bar:
            pips.cut_pip_set(progress=lambda done, total: bar.advance())
    best = pips.train_pips(name=args.name, epochs=args.epochs, lr=args.lr)
    print(f"pip look trained: {best}")
    if args.wire:
        path = pips.export_pips(best, weight=args.weight, min_pips=args.min_pips, table_weight=args.table_weight)
        print(f"exported {path}")


def _look_arguments(p, *, crops: str, val: str, epochs: int, samples: int, input_px: int, name: str, init: str) -> None:
    """The options the second-look classifiers (face, suit) share; the helps and defaults differ by look."""
    p.add_argument("--crops", type=Path, default=None, help=crops)
    p.add_argument("--val-crops", type=Path, default=None, help=val)
    p.add_argument("--epochs", type=int, default=epochs)
    p.add_argument("--samples-per-epoch", type=int, default=samples)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--input", type=int, default=input_px, help="input px (the 64 px crops are shrunk to it)")
    p.add_argument("--width", type=int, default=1, help="CNN width (make_cropnet: 1 = conv 16-32-64-64)")
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--name", default=name, help="run folder under runs/")
    p.add_argument("--init", type=Path, default=None, help=init)
    p.add_argument("--hours", type=float, default=None, help="stop after this long")
    p.add_argument("--no-export", action="store_true", help="train only")


def _train_look(train, crops: Path, args, *, what: str, filename: str, description: str, **options) -> Path | None:
    """Train one second-look classifier (face or suit) on ``crops`` and export its LAST epoch to
    models/<filename>.onnx (no epoch is picked on held-out figures). Returns the ONNX path, None with
    ``args.no_export``. ``options``: what the look adds to ``train_classifier`` (its target, crop filters)."""
    budget = args.hours * 3600 if args.hours else None
    run_dir = train.train_classifier(epochs=args.epochs, batch=args.batch, crops=crops, name=args.name, lr=args.lr,
                                     samples_per_epoch=args.samples_per_epoch, input_size=args.input, width=args.width,
                                     val_crops=args.val_crops, time_budget_s=budget, init=getattr(args, "init", None),
                                     **options)
    print(f"{what} trained: {run_dir}")
    if args.no_export:
        return None
    out = train.export_classifier(run=run_dir, filename=filename, checkpoint="last.pt", description=description)
    print(f"exported {out}")
    return out


def _cardface(train, build, crops: Path, args) -> None:
    """Whole-card crops (when ``build`` is given), the face classifier, its export to models/cardface.onnx and,
    with ``args.wire``, its entry in vision.json."""
    if build is not None:
        from vision.training.faces import write_face_crops

        for split in ("train", "val"):
            write_face_crops(build, split, Path(crops) / split, per_card=2)
    out = _train_look(train, crops, args, what="face classifier", filename="cardface", min_px=0.0, min_visible=0.0,
                      description=f"Patience Lens whole-card face classifier (64 px crop of a card box shrunk to "
                                  f"{args.input} px, RGB 0..1 -> 52 card probabilities)")
    if out is not None and args.wire:
        print(f"declared in {train.write_face_manifest(weight=args.weight, fuse=args.wire)}")


def _suitlook(train, crops: Path, args) -> None:
    """The suit look: the corner-index crops labelled by suit, a CNN at ``args.input`` px, exported to
    models/suitlook.onnx and, with ``args.wire``, declared in vision.json with fusion exponent ``args.weight``."""
    out = _train_look(train, crops, args, what="suit look", filename="suitlook", target="suit",
                      description=f"Patience Lens suit look (64 px corner-index crop shrunk to {args.input} px, "
                                  "RGB 0..1 -> probabilities of s h d c)")
    if out is not None and args.wire:
        print(f"declared in {train.write_suit_manifest(weight=args.weight, below=args.below)}")

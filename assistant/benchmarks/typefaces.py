"""``patience bench typefaces``: corner indices printed in typefaces no card design of ours uses; how many are read.

The recogniser learned its corner indices from the ~40 card designs of the training artwork, and is measured on
four more held out of training. A player's own deck may print its ranks in another typeface, or its courts with
another language's letters (German B/D/K, Dutch B/V/H, French V/D/R). This benchmark draws corner indices (a rank
above a suit pip, on plain card paper, upright) in the free fonts of the artwork cache that no training draws
(``index_glyphs.HELD_OUT_TYPEFACES``, whole lineages; ``--fonts all`` takes every font, fair only for classifiers
that never trained on drawn indices) with ``vision.training.index_glyphs``, and reads each with the
corner reading of the camera's models and of the photo models (``Detector.corner_probabilities``: the classifier,
its quarter turns where unsure, the suit look and, for photos, the thin look). Printed per model folder and court
lettering: whole names right, wrong and read as no index at all, and the ranks right per rank.

Needs the fonts of ``patience dataset fetch``; the same ``--seed`` draws the same pictures, and every lettering
draws the same fonts and sizes (only the courts' letters differ).
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

import numpy as np

from assistant.cli import UserError


def add_arguments(parser) -> None:
    parser.add_argument("--per-card", type=int, default=8, metavar="N",
                        help="corner indices drawn per card and lettering (default 8: 416 a lettering)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the drawings (default 0)")
    parser.add_argument("--letters", default="en,de,nl,fr", metavar="L,..",
                        help="court letterings to draw (default en,de,nl,fr: J/Q/K, B/D/K, B/V/H, V/D/R)")
    parser.add_argument("--fonts", choices=("held-out", "all"), default="held-out",
                        help="the typefaces no training draws (default), or every font of the cache")
    parser.add_argument("--model", metavar="DIR", action="append",
                        help="model folder to read with (repeatable; default: the camera's and the photos' models)")
    parser.add_argument("--threads", type=int, default=None, metavar="N", help="ONNX Runtime threads (default 2)")
    parser.add_argument("--json", action="store_true", help="one JSON object per model folder and lettering")


def mosaic(crops: list[np.ndarray], pad: float) -> tuple[np.ndarray, np.ndarray]:
    """The crops side by side in one picture, with the box of each crop's index: the box that
    ``vision.crops.index_crop`` (side ``1 + 2 * pad`` times the box's) cuts back to exactly that crop."""
    size = crops[0].shape[0]
    cols = max(1, int(np.ceil(np.sqrt(len(crops)))))
    rows = -(-len(crops) // cols)
    image = np.full((rows * size, cols * size, 3), 255, np.uint8)
    half = size / (1 + 2 * pad) / 2
    boxes = np.zeros((len(crops), 4), np.float64)
    for i, crop in enumerate(crops):
        y, x = divmod(i, cols)
        image[y * size:(y + 1) * size, x * size:(x + 1) * size] = crop
        cx, cy = x * size + size / 2, y * size + size / 2
        boxes[i] = (cx - half, cy - half, cx + half, cy + half)
    return image, boxes


def draw(per_card: int, seed: int, letters: dict[str, str], fonts: list[Path]) -> tuple[list[str], list[np.ndarray]]:
    """``per_card`` plain corner indices of every card; drawing ``j`` of a card uses ``default_rng([seed, j, k])``
    whatever the lettering, so the letterings are drawn alike but for the courts' letters."""
    from vision.card_names import CARD_NAMES
    from vision.training.index_glyphs import render_index_crop

    names, crops = [], []
    for k, card in enumerate(CARD_NAMES):
        for j in range(per_card):
            names.append(card)
            crops.append(render_index_crop(card, np.random.default_rng([seed, j, k]), fonts, plain=True,
                                           letters=letters))
    return names, crops


def score(truth: list[str], read: list[str | None]) -> dict:
    """Whole names right / wrong / read as no index (counts), and the ranks read right per rank."""
    from vision.card_names import RANKS, rank_of

    out = Counter()
    ranks: Counter = Counter()
    for t, r in zip(truth, read):
        out["cards"] += 1
        if r is None:
            out["none"] += 1
        elif r == t:
            out["right"] += 1
        else:
            out["wrong"] += 1
        ranks[rank_of(t)] += r is not None and rank_of(r) == rank_of(t)
    return {**{k: out[k] for k in ("cards", "right", "wrong", "none")},
            "rank_right": {r: ranks[r] for r in RANKS}}


def run(args) -> int:
    from vision.benchmark import load_average, machine
    from vision.detector import Detector
    from vision.model_files import default_model_dir, table_model_dir
    from vision.onnx_backend import ModelFileError

    if importlib.util.find_spec("PIL") is None:  # Pillow draws the fonts' glyphs
        raise UserError("drawing the corner indices needs Pillow: pip install pillow")
    from vision.training.artwork import glyph_fonts
    from vision.training.index_glyphs import COURT_LETTERS, typeface_split

    if args.per_card < 1:
        raise UserError(f"--per-card {args.per_card}: give 1 or more")
    wanted = [w.strip() for w in args.letters.split(",") if w.strip()]
    unknown = [w for w in wanted if w not in COURT_LETTERS]
    if unknown or not wanted:
        raise UserError(f"--letters {args.letters}: choose from {', '.join(COURT_LETTERS)}")
    fonts = glyph_fonts()
    if args.fonts == "held-out":
        fonts = typeface_split(fonts)[1]
    if not fonts:
        raise UserError("no fonts in the artwork cache: run `patience dataset fetch` first")
    folders = args.model or [str(default_model_dir()), str(table_model_dir(None))]
    readers = []
    for folder in folders:
        try:
            readers.append((folder, Detector(model_dir=folder, threads=args.threads)))
        except (ModelFileError, ValueError) as exc:
            raise UserError(str(exc)) from None
    if not args.json:
        print(f"{len(fonts)} fonts ({args.fonts}), {args.per_card} drawings a card and lettering, seed {args.seed}; "
              f"{machine()}, {load_average()}")
    for lettering in wanted:
        truth, crops = draw(args.per_card, args.seed, COURT_LETTERS[lettering], fonts)
        for folder, det in readers:
            image, boxes = mosaic(crops, det.spec.crop_pad)
            p = det.corner_probabilities(image, boxes)
            read = [det.classifier_names[k] or None for k in p.argmax(axis=1)]
            result = {"model": folder, "letters": lettering, **score(truth, read)}
            if args.json:
                print(json.dumps(result))
                continue
            n = result["cards"]
            per_rank = " ".join(f"{r} {100 * v / (n / 13):.0f}" for r, v in result["rank_right"].items())
            print(f"{folder} [{lettering}]: {100 * result['right'] / n:.1f} % right, {100 * result['wrong'] / n:.1f} % "
                  f"wrong, {100 * result['none'] / n:.1f} % no index (of {n}); ranks right %: {per_rank}")
    return 0

"""``patience bench score-photo FOLDER``: read labelled photos of dealt grids; grids fully right, cells right, speed.

FOLDER holds photos (``*.jpg``, ``*.png``) each with ``<photo>.json`` = ``{"rows": [[5 card names] x 5], ...}``: the
grid as seen in the picture (top row first, left to right), and optionally ``"centres"`` (the cards' centres in
the picture, same order). A photo's grid is fully right when all 25 cells read equal the truth; a cell left unread
(None) counts as not right. With centres, "grid found" counts photos where every cell's outline holds the centre
of its card: the geometry, apart from what the recogniser read. Time per photo is the wall time of the reading
(detector, classifier's second answers, grid), after decoding the file, on ``--threads`` ONNX threads. "Named
wrong" counts cells given a wrong card name, and how many of them a warning, doubt or note points at (the rest are
silent mistakes); "right cells flagged" counts the doubts spent on cells read right.

``--corrections`` also plays the player who fixes a grid read wrong with ``score-photo --set``: the first wrong
cell (reading order) is set to its card and the photo read again, until the grid is right (at most
``MAX_CORRECTIONS``). It prints how many corrections the wrong grids took: a correction that makes other cells
wrong (the deck rule moving the replaced name elsewhere) costs more than one.

``--render N`` first renders N labelled photos into FOLDER from the card designs the model never trained on
(``vision.grid_photos.write_grid_set``, seeded by ``--seed``; needs the artwork: ``patience dataset fetch``). The
recorded set is ``patience bench score-photo datasets/gridval --render 48``; ``--overlap`` renders grids whose rows
are laid over each other (only the top of each card shows), ``--overlap columns`` grids whose columns are (only
the left strip of each card shows), which the reader handles less well (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from assistant.cli import UserError

MAX_CORRECTIONS = 12  # --corrections: a grid still wrong after this many is counted as not corrected


def add_arguments(parser) -> None:
    parser.add_argument("folder", metavar="FOLDER", help="labelled photos: IMAGE + IMAGE.json with the truth rows")
    parser.add_argument("--render", type=int, default=0, metavar="N",
                        help="first render N labelled grid photos of held-out designs into FOLDER")
    parser.add_argument("--seed", type=int, default=0, help="seed of --render (default 0)")
    parser.add_argument("--overlap", nargs="?", const="rows", default="", choices=("rows", "columns", "both"),
                        help="--render grids laid over themselves: 'rows' (the default of --overlap) each row over "
                             "the lower part of the row above, 'columns' each card over the right part of the one "
                             "before it, 'both' (read less well than grids with gaps: docs/BENCHMARKS.md)")
    parser.add_argument("--limit", type=int, default=0, metavar="N", help="read at most N photos")
    parser.add_argument("--threads", type=int, default=None, metavar="N", help="ONNX Runtime threads (default 2)")
    parser.add_argument("--model", metavar="DIR", help="model folder (default: the committed models/)")
    parser.add_argument("--no-pips", action="store_true", help="without the pip look (suits from the corners alone)")
    parser.add_argument("--json", action="store_true", help="one JSON object per photo, then the summary")
    parser.add_argument("--verbose", action="store_true", help="print each photo's wrong cells")
    parser.add_argument("--corrections", action="store_true",
                        help="also count the --set corrections that make each wrong grid right (the first wrong "
                             "cell each time; the photo is read again after each)")


def labelled_photos(folder: Path) -> list[tuple[Path, list[list[str]], list | None, str]]:
    photos = []
    for p in sorted(folder.iterdir()):
        if p.suffix.lower() in (".jpg", ".jpeg", ".png") and (folder / (p.name + ".json")).is_file():
            truth = json.loads((folder / (p.name + ".json")).read_text())
            photos.append((p, truth["rows"], truth.get("centres"), truth.get("deck", "")))
    return photos


def grid_placed(reading, centres) -> bool:
    """Every cell's quadrilateral holds the centre of the card dealt there (the geometry right, whatever was read)."""
    import cv2
    import numpy as np

    if not reading.found:
        return False
    for r in range(5):
        for c in range(5):
            quad = reading.cell_boxes[r][c]
            if quad is None or cv2.pointPolygonTest(np.asarray(quad, np.float32), tuple(map(float, centres[r][c])),
                                                    False) < 0:
                return False
    return True


def compare(rows, truth) -> int:
    """Cells read equal to the truth (an unread cell is never right)."""
    return sum(1 for r in range(5) for c in range(5) if rows[r][c] is not None and rows[r][c] == truth[r][c])


def silent_and_flagged(reading, truth) -> tuple[int, int, int]:
    """``(named wrong, of those flagged, right cells flagged)``: a wrong name that no warning, doubt or note points
    at is a silent mistake (an unread cell is never silent: it is null and warned about)."""
    wrong = [(r, c) for r in range(5) for c in range(5)
             if reading.rows[r][c] is not None and reading.rows[r][c] != truth[r][c]]
    right_flagged = sum(1 for r, c in reading.flagged if reading.rows[r][c] == truth[r][c])
    return len(wrong), sum(1 for rc in wrong if rc in reading.flagged), right_flagged


def corrections_needed(detector, image, truth, reading) -> tuple[int, bool] | None:
    """``(corrections, right)``: the player's ``--set`` corrections, the first wrong cell each time, until the
    grid reads right or ``MAX_CORRECTIONS`` were made; ``reading`` is the photo's first reading. None when it
    names no cell wrong (a cell empty in the truth and unread counts as not right, but needs no correction)."""
    from assistant.commands.score_photo import read_grid

    fixed: dict[tuple[int, int], str] = {}
    while True:
        wrong = [(r, c) for r in range(5) for c in range(5) if reading.rows[r][c] != truth[r][c]]
        if not wrong and not fixed:
            return None
        if not wrong or len(fixed) >= MAX_CORRECTIONS:
            return len(fixed), not wrong
        fixed[wrong[0]] = truth[wrong[0][0]][wrong[0][1]]
        reading, _ = read_grid(detector, image, fixed)


def run(args) -> int:
    import numpy as np

    from assistant.commands.score_photo import SMALL_CORNERS_DOUBT, load_detector, read_grid, read_photo
    from vision.benchmark import load_average, machine

    folder = Path(args.folder)
    if args.render:
        from vision.training.grid_photos import write_grid_set

        try:
            write_grid_set(folder, args.render, args.seed, overlap=args.overlap)
        except FileNotFoundError as exc:
            raise UserError(str(exc)) from None
    if not folder.is_dir():
        raise UserError(f"{folder}: no such folder (render one with --render 48)")
    photos = labelled_photos(folder)
    if args.limit:
        photos = photos[: args.limit]
    if not photos:
        raise UserError(f"{folder}: no labelled photos (IMAGE + IMAGE.json); render some with --render 48")
    detector = load_detector(args)
    detector.detect(np.zeros((480, 640, 3), np.uint8))  # warm up the sessions
    full = cells = placed = with_centres = 0
    wrong_named = wrong_flagged = right_flagged = 0
    small = [0, 0]  # photos with the small-corners doubt; of them, not fully right
    count_fixes = getattr(args, "corrections", False)
    fixes: list[tuple[int, bool]] = []  # --corrections: per wrong grid (corrections, right at the end)
    ms, wrong_lines = [], []
    by_deck: dict[str, list[int]] = {}
    for path, truth, centres, deck in photos:
        image = read_photo(path)
        t0 = time.perf_counter()
        reading, _ = read_grid(detector, image)
        dt = (time.perf_counter() - t0) * 1e3
        ms.append(dt)
        right = compare(reading.rows, truth)
        found = None if centres is None else grid_placed(reading, centres)
        if found is not None:
            with_centres += 1
            placed += found
        cells += right
        full += right == 25
        if any(d.startswith(SMALL_CORNERS_DOUBT) for d in reading.doubts):
            small[0] += 1
            small[1] += right < 25
        w, wf, rf = silent_and_flagged(reading, truth)
        wrong_named, wrong_flagged, right_flagged = wrong_named + w, wrong_flagged + wf, right_flagged + rf
        if count_fixes and right < 25 and (fix := corrections_needed(detector, image, truth, reading)):
            fixes.append(fix)
        tally = by_deck.setdefault(deck or "?", [0, 0, 0])
        tally[0] += 1
        tally[1] += right == 25
        tally[2] += right
        if args.json:
            print(json.dumps({"image": path.name, "cells_right": right, "grid_found": found, "ms": round(dt, 1),
                              "rows": reading.rows,
                              "truth": truth, "warnings": reading.warnings, "doubts": reading.doubts,
                              "notes": reading.notes, "flagged": sorted(reading.flagged)}))
        elif args.verbose and (right < 25 or found is False):
            bad = [f"r{r + 1}c{c + 1} {reading.rows[r][c]} (is {truth[r][c]})" for r in range(5) for c in range(5)
                   if reading.rows[r][c] != truth[r][c]]
            bad += ["the cells drawn miss their cards"] if found is False else []
            wrong_lines.append(f"  {path.name} ({image.shape[1]}x{image.shape[0]}): {', '.join(bad)}")
    a = np.array(ms)
    summary = {"photos": len(photos), "grids_fully_right": full, "cells_right": cells, "cells": 25 * len(photos),
               "ms_median": round(float(np.median(a)), 1), "ms_p95": round(float(np.percentile(a, 95)), 1),
               "ms_mean": round(float(a.mean()), 1), "grids_placed": placed, "photos_with_centres": with_centres,
               "cells_named_wrong": wrong_named, "named_wrong_flagged": wrong_flagged,
               "right_cells_flagged": right_flagged, "small_corners_doubted": small[0],
               "small_corners_doubted_wrong": small[1],
               **({"corrections": sum(n for n, _ in fixes), "corrected_grids": sum(ok for _, ok in fixes),
                   "corrections_max": max((n for n, _ in fixes), default=0)}
                  if count_fixes else {}),
               "machine": machine(), "load": load_average()}
    if args.json:
        print(json.dumps({"summary": summary}))
        return 0
    print(f"machine: {summary['machine']}; {summary['load']}; model: {detector.model_dir}")
    print(f"{folder}: {len(photos)} photos")
    if with_centres:
        print(f"grid found:        {placed}/{with_centres} (every cell's outline holds its card's centre)")
    print(f"grids fully right: {full}/{len(photos)} ({100 * full / len(photos):.1f} %)")
    print(f"cells right:       {cells}/{25 * len(photos)} ({100 * cells / (25 * len(photos)):.1f} %)")
    print(f"named wrong:       {wrong_named} cells, {wrong_flagged} of them flagged (a warning, doubt or note "
          f"names the cell); right cells flagged: {right_flagged}")
    print(f"small corners:     {small[0]} photos doubted as a whole, {small[1]} of them not fully right; "
          f"{len(photos) - full - small[1]} of the other {len(photos) - small[0]} not fully right")
    if count_fixes:
        print(f"corrections:       {summary['corrections']} (--set, the first wrong cell each time) made "
              f"{summary['corrected_grids']} of the {len(fixes)} wrong grids right; at most "
              f"{summary['corrections_max']} for one grid (a limit of {MAX_CORRECTIONS})")
    print(f"ms per photo:      median {summary['ms_median']:.0f}, p95 {summary['ms_p95']:.0f}, "
          f"mean {summary['ms_mean']:.0f}")
    if len(by_deck) > 1:
        for deck, (n, f, c) in sorted(by_deck.items()):
            print(f"  {deck}: {f}/{n} grids fully right, {c}/{25 * n} cells ({100 * c / (25 * n):.1f} %)")
    for line in wrong_lines:
        print(line)
    return 0

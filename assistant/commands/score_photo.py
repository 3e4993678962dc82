"""``patience score-photo``: score a photo of a dealt Poker Patience grid (rules/004, "Wertung").

``patience score-photo IMAGE...`` finds the 25 cards of each photo with the committed recogniser, the 5x5 grid
they lie in (any rotation, a tilted camera, uneven gaps, crooked cards; a phone photo's EXIF orientation is
applied), and prints the grid as seen (top row first, left to right), each row's and column's hand and points,
and both totals against the win thresholds (200 American / 70 English). ``--scoring american|english`` shows one.

``--json`` prints one object per image and line:

    {"image": "grid.jpg", "rows": [["Ah", "Kd", null, ...] x 5], "american": 97, "english": 31,
     "lines": [{"line": "row 1", "cards": [...], "hand": "one pair", "american": 2, "english": 1}, ...],
     "warnings": ["row 1, column 3: no card read"], "doubts": [...], "notes": [...],
     "thresholds": {"american": 200, "english": 70}}

A cell that could not be read is null and named in a warning; it is never guessed. When a card name is read in two
cells, the deck's rule (each card once) gives it to the cell with more evidence; the other cell takes its next
reading or stays unread; ``notes`` say where that rule decided, when a dim or soft photo was read brightened or
sharpened (``Detector.prepare``), when the photo has no colour (red suits then read as black), and when the grid
read better card by card (each card's corners counted in its own cell: rows laid over each other). ``doubts`` name
cells read with a close second reading or whose name holds little of the evidence read there (worth a look), and a
photo whose card corners are small (under 24 pixels: check the cells, or take the photo closer). Lines with an
unread cell score 0.

Exit code: 0 when every photo gave a grid of 25 cards (doubts and the deck rule's notes allowed); 1 when a photo
shows fewer or more than 25 cards, a card read twice that the deck rule cannot settle, two cards in a cell, a
missing row or an unreadable cell (the complete lines are still scored); 2 when a file is missing or not a readable
image, or a JPEG is cut off (the other photos are still scored).

For a program: ``read_grid(detector, image) -> (GridReading, DetectionResult)`` does all of it for one picture
(``assistant.photo_grid`` has the geometry; the live camera can call ``grid_from_detection`` on a frame's result).

``--draw DIR`` writes each photo with the grid's cells and the card read in each (``DIR/<name>.grid.jpg``).
``--set r2c3=Qs`` (one photo; repeatable) corrects a cell the player sees was read wrong: the grid is scored again
with it, a note says what had been read there, and another cell that had read that card takes its next reading.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from assistant.cli import UserError

THRESHOLDS = {"american": 200, "english": 70}
# The detector runs on the whole picture first; a big photo is cut into tiles only when that misses cells.
# Tiles are made just fine enough for the corner indices seen on the first pass (this share of their height).
TILE_INDEX_SHARE = 0.6
# An unread cell's corners are looked for where the other cards' corners lie; what the classifier reads there
# counts this much (a detected corner counts its detector score ** 0.5, typically 0.5-0.95).
PROBE_WEIGHT = 0.5
# A picture no bigger than the detector's input whose corner indices are smaller than this (x TILE_INDEX_SHARE,
# pixels) is looked at again at twice its size when the first look leaves the grid incomplete.
SMALL_INDEX_PX = 12.0
# Enough corners (or whole cards) seen on the first look to size the second look's tiles by them.
MIN_CORNERS = 8
# Corner indices smaller than this (their long side's median, picture pixels) are read wrong much more often: on
# the rendered tuning grids (datasets/gridtune) 9 of the 29 photos below it had a cell wrong, 5 of the 67 above it.
# Such a photo gets a doubt that says so (check the cells, or take the photo closer).
SMALL_CORNER_PX = 24.0
SMALL_CORNERS_DOUBT = "the card corners are small in this photo"
# A corner index is about this share of a card's long side high (0.17-0.3 in the decks seen; the low end, so that
# tiles are fine enough for small indices).
INDEX_PER_CARD = 0.17


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "score-photo",
        help="score a photo of a dealt Poker Patience grid",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photos of dealt grids (files or folders)")
    add_common_arguments(parser)
    parser.add_argument("--draw", metavar="DIR", help="also write each photo with the grid and card names drawn")
    parser.add_argument("--set", action="append", default=[], metavar="rRcC=CARD",
                        help="correct one cell of the grid as seen, e.g. --set r2c3=Qs (row 2, column 3 holds the "
                             "Queen of spades; any other cell read as Qs takes its next reading); repeat for more "
                             "cells; one photo only")
    parser.set_defaults(func=run, trailing_files="images")  # photos may also follow the options


def add_common_arguments(parser) -> None:
    parser.add_argument("--scoring", choices=("american", "english", "both"), default="both",
                        help="which points to show (default both)")
    parser.add_argument("--json", action="store_true", help="one JSON object per image and line")
    parser.add_argument("--model", metavar="DIR", help="model folder (default: the committed models/)")
    parser.add_argument("--threads", type=int, default=None, metavar="N",
                        help="ONNX Runtime threads per model (default 2)")
    parser.add_argument("--no-balance", action="store_true",
                        help="take the classifier's suits as they are, even where the photo's cards then hold far too "
                             "few of one suit of a colour for one deck (vision/deck_suits.py)")
    parser.add_argument("--no-pips", action="store_true",
                        help="name suits from the corner indices alone, not also from the pips in the middle of each "
                             "card (vision/pips.py)")


# --------------------------------------------------------------------------------------------------- reading


def load_detector(args):
    from vision.detector import Detector
    from vision.model_files import table_model_dir
    from vision.onnx_backend import ModelFileError

    if args.threads is not None and args.threads < 1:
        raise UserError(f"--threads {args.threads}: give 1 or more")
    try:
        # a photo's corners are each read on their own (share_confidence > 1): the deck rule weighs both names;
        # read with the table folder's models: a detector that knows fanned hands (found more grids: session 27)
        # and the larger index classifier (a photo may take its time; session 21)
        return Detector(model_dir=table_model_dir(args.model), threads=args.threads, share_confidence=2.0,
                        balance=not getattr(args, "no_balance", False),
                        pips=False if getattr(args, "no_pips", False) else None)
    except (ModelFileError, ValueError) as exc:
        raise UserError(str(exc)) from None


def read_grid(detector, image, fixed=None):
    """``(GridReading, DetectionResult)`` for one BGR picture (``fixed``: cells whose card the player has named,
    ``{(row, column): "Qs"}`` as seen from 0; see ``assistant.photo_grid.grid_from_cards``).

    First the whole picture at the detector's input size (a grid that fills a phone photo has corner indices
    large enough for it). When that leaves the grid incomplete, a second look at the part of the picture where the
    cards are (the whole cards the first look found), in tiles just fine enough for the indices seen or expected
    from the cards' size (``vision.tiling``), or at twice the size for a small picture of small cards; the better
    reading is kept. A photo whose corners are small (``SMALL_CORNER_PX``) gets a doubt that says so."""
    reading, result, zoom = _best_look(detector, image, fixed)
    px = corner_size(result)
    if px is not None and px / zoom < SMALL_CORNER_PX:
        reading.doubts.append(f"{SMALL_CORNERS_DOUBT} (about {px / zoom:.0f} pixels): a rank or suit is misread more "
                              "often; check the cells, or photograph the grid closer")
    return reading, result


def corner_size(result) -> float | None:
    """The median long side (pixels of the picture read) of the corner indices named in ``result``; None when
    fewer than ``MIN_CORNERS`` were named."""
    import numpy as np

    boxes = named_corner_boxes(result.detections)
    if len(boxes) < MIN_CORNERS:
        return None
    return float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))


def named_corner_boxes(d):
    """The (n, 4) boxes of the corner indices in detections ``d`` that the classifier named."""
    import numpy as np

    if not len(d):
        return np.zeros((0, 4))
    named = (d.data.get("label", np.zeros(len(d), object)) == "index") & \
        (d.data.get("card", np.zeros(len(d), object)) != "")
    return d.xyxy[named]


def _best_look(detector, image, fixed=None):
    """``read_grid``'s looks: ``(reading, result, zoom)``, ``zoom`` the factor by which the picture that ``result``
    was read from had been enlarged (1 or 2)."""
    import cv2
    import numpy as np

    saved = detector.tile, detector.min_index_px
    try:
        detector.tile = "off"
        reading, result = _read(detector, image, fixed)
        if reading.complete:
            return reading, result, 1
        d = result.detections
        labels = d.data.get("label", np.zeros(len(d), object)) if len(d) else np.zeros(0, object)
        named = named_corner_boxes(d)
        heights = named[:, 3] - named[:, 1]
        cards = d.xyxy[labels == "card"] if len(d) else np.zeros((0, 4))
        # the indices' size from the corners read; else from the whole cards' size; else the detector's own plan
        if len(heights) >= MIN_CORNERS:
            index_px = float(np.median(heights)) * TILE_INDEX_SHARE
        elif len(cards) >= MIN_CORNERS:
            index_px = INDEX_PER_CARD * float(np.median(np.ptp(cards.reshape(-1, 2, 2), axis=1).max(axis=1)))
            index_px *= TILE_INDEX_SHARE
        else:
            index_px = saved[1]
        x0, y0, x1, y1 = cards_region(cards, image.shape[:2])
        view = image[y0:y1, x0:x1]
        detector.tile = "auto"
        detector.min_index_px = max(detector.min_model_px, min(index_px, 4 * saved[1]))
        zoom = 1
        if detector.tile_plan(view.shape[:2]) is None and index_px < SMALL_INDEX_PX:
            zoom = 2  # a small picture of small cards: look again at twice the size, in tiles
            detector.min_index_px = max(detector.min_model_px, index_px * zoom)
            view = cv2.resize(view, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
        elif detector.tile_plan(view.shape[:2]) is None and view.shape[:2] == image.shape[:2]:
            return reading, result, 1  # the same look again would see the same
        reading2, result2 = _read(detector, view, fixed)
        reading2 = reading2.moved(1 / zoom, x0, y0)
        if reading2.quality > reading.quality:
            return reading2, result2, zoom
        return reading, result, 1
    finally:
        detector.tile, detector.min_index_px = saved


def cards_region(card_boxes, image_hw) -> tuple[int, int, int, int]:
    """``(x0, y0, x1, y1)``: the part of the picture that holds the whole cards found (a margin of a fifth of a
    card all round); the whole picture when fewer than MIN_CORNERS were found or they cover most of it."""
    import numpy as np

    h, w = image_hw
    if len(card_boxes) < MIN_CORNERS:
        return 0, 0, w, h
    b = np.asarray(card_boxes, float)
    margin = 0.2 * float(np.median(np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])))
    x0, y0 = (int(max(0, np.floor(v - margin))) for v in b[:, :2].min(axis=0))
    x1, y1 = int(min(w, np.ceil(b[:, 2].max() + margin))), int(min(h, np.ceil(b[:, 3].max() + margin)))
    if (x1 - x0) * (y1 - y0) > 0.8 * w * h:
        return 0, 0, w, h
    return x0, y0, x1, y1


def top_names(detector, p, top: int = 5) -> list[tuple]:
    """Each row of probabilities as its ``top`` card names, ``((name, probability), ...)`` (no 'none')."""
    import numpy as np

    names = detector.classifier_names
    out = []
    for row in p:
        best = np.argsort(-row)[:top]
        out.append(tuple((names[b], float(row[b])) for b in best if names[b] and row[b] >= 0.01))
    return out


def classify_boxes(detector, image, boxes, top: int = 5, shifts: dict[str, float] | None = None) -> list[tuple]:
    """The classifier's ``top`` names for the corner index in each box (with the photo's suit ``shifts``);
    ``image`` as ``Detector.prepare`` gives it."""
    import numpy as np

    from vision.deck_suits import apply_shifts

    if detector.classifier is None:
        return [() for _ in boxes]
    p = apply_shifts(detector.corner_probabilities(image, np.asarray(boxes, np.float64).reshape(-1, 4)),
                     detector.classifier_names, shifts or {})
    return top_names(detector, p, top)


def detect_with_probabilities(detector, image, prepared: bool = False):
    """``(DetectionResult, corner_probs, suit_shifts)``: the detector's result and each corner's best names
    (``Detector.detect`` keeps only the best one): the deck rule's second choices. None for whole-card boxes and
    for a detector that names cards itself. ``suit_shifts``: the photo's own balance of suits, applied."""
    result = detector.detect(image, prepared=prepared)
    detections = result.detections
    probs: list = [None] * len(detections)
    if detector.classifier is not None:
        index = [i for i in range(len(detections)) if detections.class_id[i] == detector.index_class]
        for i, names in zip(index, top_names(detector, detections.data["probs"][index])):
            probs[i] = names
    return result, probs, result.suit_shifts


def _read(detector, image, fixed=None):
    """One detector pass, the grid, then the places of the unread cells' corners read by the classifier; a grid
    still not complete is made again as if its rows overlapped (``photo_grid.read_overlapping``), the better kept."""
    from assistant.photo_grid import (Sighting, cell_name, grid_from_cards, probe_boxes, read_overlapping,
                                      sightings_from_detection)
    from vision.deck_suits import shift_notes

    image = detector.prepare(image)  # once, for the detector and the corners read again below
    result, corner_probs, shifts = detect_with_probabilities(detector, image, prepared=True)
    sightings, centres = sightings_from_detection(result, corner_probs)
    centres = centres if len(centres) >= 4 else None
    reading = grid_from_cards(sightings, centres, fixed)
    probes = probe_boxes(reading, sightings)
    if probes:
        boxes = [b for bs in probes.values() for b in bs]
        extra = [Sighting("", 0.0, tuple(float(v) for v in b), probs=probs, weight=PROBE_WEIGHT)
                 for b, probs in zip(boxes, classify_boxes(detector, image, boxes, shifts=shifts))]
        probed = grid_from_cards(sightings + [e for e in extra if e.probs], centres, fixed)
        if probed.quality[0] > reading.quality[0]:  # more cells read
            probed.notes.extend(f"{cell_name(r, c)}: {probed.rows[r][c]}, read where its corners should be (the "
                                "detector had not found them)" for r, c in probes if probed.rows[r][c])
            probed.flagged.update((r, c) for r, c in probes if probed.rows[r][c])
            reading = probed
    reading = read_overlapping(reading, result, sightings, centres, corner_probs, fixed)
    reading.notes.extend(shift_notes(shifts))
    return reading, result


# --------------------------------------------------------------------------------------------------- scoring


def score_reading(rows) -> dict:
    """Both scorings of a grid with unread cells (None): ``{"american", "english", "lines"}``; incomplete lines
    score 0 (assistant.games.poker.score_grid)."""
    from assistant.cards import Card
    from assistant.games.poker import score_grid

    cells = [None if n is None else Card.parse(n) for row in rows for n in row]
    am = score_grid(cells, "american")
    en = score_grid(cells, "english")
    lines = []
    for a, e in zip(am.lines, en.lines):
        lines.append({"line": a.name, "cards": [None if c is None else str(c) for c in a.cards],
                      "hand": None if a.category is None else a.category.label,
                      "american": a.points, "english": e.points})
    return {"american": am.total, "english": en.total, "lines": lines}


def reading_object(image: str, reading) -> dict:
    """The JSON object of one photo."""
    obj = {"image": image, "rows": reading.rows}
    obj.update(score_reading(reading.rows))
    obj["warnings"] = list(reading.warnings)
    obj["doubts"] = list(reading.doubts)
    obj["notes"] = list(reading.notes)
    obj["thresholds"] = dict(THRESHOLDS)
    return obj


# --------------------------------------------------------------------------------------------------- command


def read_photo(path: Path):
    """BGR picture with its EXIF orientation applied (as a phone shows it), or ValueError with the reason."""
    from assistant.commands.detect import read_image

    cut_off = ValueError("the JPEG file is cut off (its image data has no end): copy the photo again")
    try:
        image = read_image(path)  # cv2.imdecode with IMREAD_COLOR turns the pixels by the EXIF orientation tag
    except ValueError:
        if path.is_file() and jpeg_cut_off(path.read_bytes()):
            raise cut_off from None
        raise
    if jpeg_cut_off(path.read_bytes()):  # OpenCV may decode a cut-off JPEG, greying what is missing: refuse it
        raise cut_off
    return image


def jpeg_cut_off(data: bytes) -> bool:
    """True for a JPEG whose last scan has no end-of-image marker after it (the file was cut short). The marker
    bytes FF D9 cannot occur inside scan data (an FF there is followed by 00), and an EXIF thumbnail's scan and
    end come before the main scan."""
    if data[:2] != b"\xff\xd8":
        return False
    return data.rfind(b"\xff\xd9") < data.rfind(b"\xff\xda")


def run(args) -> int:
    from assistant.commands.detect import expand_inputs, too_small_note

    fixed = parse_cell_settings(getattr(args, "set", []))
    images, errors = expand_inputs(args.images)
    if fixed and len(images) + len(errors) > 1:
        raise UserError("--set corrects the grid of one photo: give one IMAGE with it")
    status = 0
    for path, reason in errors:
        status = 2
        report_error(args, "score-photo", path, reason)
    if not images:
        return 2
    detector = load_detector(args)
    for path in images:
        try:
            image = read_photo(path)
        except ValueError as exc:
            status = 2
            report_error(args, "score-photo", str(path), str(exc))
            continue
        reading, _result = read_grid(detector, image, fixed)
        reading.notes.extend(detector.prepare_notes(image))
        if not reading.found and (small := too_small_note(image)):
            reading.warnings.append(small)
        if fixed and not reading.found:
            reading.warnings.append("--set was not applied: there is no grid to correct in this photo")
        obj = reading_object(str(path), reading)
        if args.draw:
            write_drawing(args.draw, path, image, reading)
        if args.json:
            print(json.dumps(obj), flush=True)
        else:
            print_reading(obj, args.scoring, correction_example(reading))
        if obj["warnings"] and status == 0:
            status = 1
    return status


def parse_cell_settings(texts) -> dict[tuple[int, int], str]:
    """``["r2c3=Qs", ...]`` -> ``{(1, 2): "Qs"}`` (rows and columns as seen, from 1 on the command line);
    ``UserError`` for a cell or card that is not one, a cell set twice or a card given to two cells."""
    import re

    from assistant.cards import Card

    fixed: dict[tuple[int, int], str] = {}
    for text in texts or ():
        m = re.fullmatch(r"\s*[rR]([1-5])\s*[cC]([1-5])\s*=\s*(\S+)\s*", text)
        if not m:
            raise UserError(f"--set {text!r}: give a cell and its card as rRcC=CARD, rows and columns 1-5 as seen "
                            "(top row first, left to right), e.g. --set r2c3=Qs")
        try:
            card = str(Card.parse(m.group(3)))
        except ValueError as exc:
            raise UserError(f"--set {text!r}: {exc}") from None
        cell = (int(m.group(1)) - 1, int(m.group(2)) - 1)
        if cell in fixed:
            raise UserError(f"--set: row {cell[0] + 1}, column {cell[1] + 1} is set twice ({fixed[cell]} and {card})")
        if card in fixed.values():
            raise UserError(f"--set: {card} is given to two cells; the deck has each card once")
        fixed[cell] = card
    return fixed


def report_error(args, command: str, path: str, reason: str) -> None:
    print(f"patience {command}: {path}: {reason}", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps({"image": path, "error": reason}), flush=True)


def write_drawing(folder: str, path: Path, image, reading) -> Path:
    import cv2

    out = Path(folder)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create {out} ({exc.strerror}): give a writable folder") from None
    target = out / (path.stem + ".grid.jpg")
    if not cv2.imwrite(str(target), draw_grid(image, reading)):
        raise UserError(f"cannot write {target}: check that the folder is writable")
    return target


def draw_grid(image, reading):
    """A copy of the picture with each cell's outline and the card read in it (red: unread)."""
    import cv2
    import numpy as np

    out = image.copy()
    scale = max(1.0, max(out.shape[:2]) / 900)
    for r, row in enumerate(reading.cell_boxes):
        for c, quad in enumerate(row):
            if quad is None:
                continue
            name = reading.rows[r][c]
            colour = (0, 200, 0) if name else (0, 0, 255)
            cv2.polylines(out, [np.round(quad).astype(np.int32)], True, colour, max(1, int(2 * scale)), cv2.LINE_AA)
            label = name or "?"
            cx, cy = quad.mean(0)
            size = 0.9 * scale
            (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, size, max(2, int(2 * scale)))
            org = (int(cx - tw / 2), int(cy + th / 2))
            cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, size, (255, 255, 255), max(4, int(6 * scale)),
                        cv2.LINE_AA)
            cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, size, colour if name else (0, 0, 255),
                        max(2, int(2 * scale)), cv2.LINE_AA)
    return out


def print_reading(obj: dict, scoring: str, fix: str | None = None) -> None:
    """The grid, the hands of its rows and columns and the totals, for people (rich); ``fix``: an example
    ``--set`` to offer (``correction_example``)."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from assistant.cards import Card

    def card_text(name) -> Text:
        if name is None:
            return Text("??", style="bold yellow")
        c = Card.parse(name)
        return Text(c.pretty, style="red" if c.suit.is_red else "bold")

    shown = ("american", "english") if scoring == "both" else (scoring,)
    console = Console()
    square = Table(title=f"{obj['image']}: the grid as seen", header_style="dim")
    square.add_column("")
    for c in range(1, 6):
        square.add_column(f"col {c}", justify="center")
    for r, row in enumerate(obj["rows"]):
        square.add_row(f"row {r + 1}", *[card_text(n) for n in row])
    lines = Table(title="Hands", show_footer=True)
    lines.add_column("line", footer="total")
    lines.add_column("cards")
    lines.add_column("hand")
    for s in shown:
        lines.add_column(s.capitalize(), justify="right", footer=str(obj[s]))
    for line in obj["lines"]:
        cards = Text(" ").join(card_text(n) for n in line["cards"])
        lines.add_row(line["line"], cards, line["hand"] or Text("incomplete", style="yellow"),
                      *[str(line[s]) for s in shown])
        if line["line"] == "row 5":
            lines.add_section()
    console.print(square)
    console.print(lines)
    complete = all(line["hand"] for line in obj["lines"])
    for s in shown:
        t = obj["thresholds"][s]
        verdict = ("[green]won[/]" if obj[s] >= t else "[yellow]not reached[/]") if complete else \
            "[yellow]grid not complete[/]"
        console.print(f"{s.capitalize()}: {obj[s]} points, Poker Patience win at {t}: {verdict}")
    for note in obj["notes"]:
        console.print(f"[cyan]note:[/] {note}")
    for doubt in obj["doubts"]:
        console.print(f"[cyan]doubtful:[/] {doubt}")
    for w in obj["warnings"]:
        console.print(f"[yellow]warning:[/] {w}")
    if fix:
        console.print(f"[dim]a cell read wrong? name its card and score again, e.g. patience score-photo "
                      f"{obj['image']} --set {fix}[/]", highlight=False)


def correction_example(reading) -> str | None:
    """``--set`` for the first cell worth a check that has another reading (``"r1c5=Kc"``), else for the first
    cell worth a check (``"r3c2=CARD"``); None when no cell is (``GridReading.to_check``)."""
    checks = sorted(reading.to_check, key=lambda t: t[2] is None)  # stable: the order of the messages kept
    if not checks:
        return None
    r, c, other = checks[0]
    return f"r{r + 1}c{c + 1}={other or 'CARD'}"

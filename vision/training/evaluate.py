"""Scoring the card recognition on labelled images.

Two kinds of folder:

- **edje-style real photos** (``labels.csv`` with ``filename,width,height,class,xmin,ymin,xmax,ymax``; boxes
  around WHOLE cards; classes are RANKS only: nine ten jack queen king ace). A labelled card is *found* when a
  reported card of the right rank lies in its box (one of the reported card's corner boxes has its centre
  inside); *wrong* when only reported cards of other ranks lie in it; *missed* when none does. A reported card
  is *false* when it lies in no labelled box (``outside``) or only in boxes of other ranks (``wrong rank``).
  Rank confusion: per labelled card, the rank of the most confident reported card in its box.
- **rendered val sets**: ``patience dataset build``'s ``datasets/build`` (held-out designs, ``meta/val/*.json``,
  see :func:`load_synth`), or ``labels.jsonl`` (one object per image, ``{"image": "x.jpg", "cards": [{"card": "Qh",
  "index_boxes": [[x1, y1, x2, y2], ...], "card_box": [...]}]}``): card recall = share of labelled cards
  reported under their own name, located (a corner of the reported card is within one of its index boxes or
  its card box); wrong-card rate = share of reported cards that are not in the image or not where reported.
  Confusion by full name, and the known traps summarised (A/4, 6/9, Q/9, 8/6, 3/5, same-colour suit swaps).

Never train on the folders scored here. Functions return plain dicts; :func:`format_report` makes text.
"""

from __future__ import annotations

import csv
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from vision.card_names import RANKS, normalize_card, normalize_rank

TRAPS = (("A", "4"), ("6", "9"), ("Q", "9"), ("8", "6"), ("3", "5"))
SUIT_SWAPS = (("s", "c"), ("h", "d"))
#: The rendered layouts by the scenario a player meets (issue 13 asks for figures by scenario).
SCENARIOS = {"poker": "flat (poker grid)", "tommy": "fanned piles (Sir Tommy table)", "fan": "fanned hand",
             "loose": "overlapping (loose cards)", "closeup": "close-up"}
#: A labelled card's size class by its largest index box (pixels, longest side): far cards have tiny indices.
SIZE_CLASSES = ((0.0, "far (index < 12 px)"), (12.0, "middle (12-24 px)"), (24.0, "near (index >= 24 px)"))


def size_class(card: "LabelledCard") -> str | None:
    """The size class of a labelled card with index boxes (None without: edje labels whole cards)."""
    if not card.index_boxes:
        return None
    side = max(max(b[2] - b[0], b[3] - b[1]) for b in card.index_boxes)
    return [name for low, name in SIZE_CLASSES if side >= low][-1]


@dataclass
class LabelledCard:
    box: tuple[float, float, float, float]  # whole card (edje) or union of index boxes
    rank: str
    card: str | None = None                 # full name when the set has suits
    index_boxes: list[tuple[float, float, float, float]] = field(default_factory=list)


@dataclass
class LabelledImage:
    path: Path
    cards: list[LabelledCard]
    scenario: str = ""   # rendered: the scene's layout (SCENARIOS); real: real_scenario; "" if unknown


def load_edje(folder: str | Path) -> list[LabelledImage]:
    """The edje-train folder: labels.csv, images in ``images/`` (or beside the csv). A ``suit`` column (s h d c;
    ``datasets/real-dev-suits/``) gives each card its whole name (``card``), so the folder is scored by names."""
    folder = Path(folder)
    csv_path = folder / "labels.csv"
    if not csv_path.is_file():
        raise FileNotFoundError(f"{csv_path} not found: an edje-style folder has labels.csv")
    image_dir = folder / "images" if (folder / "images").is_dir() else folder
    by_file: dict[str, list[LabelledCard]] = defaultdict(list)
    with csv_path.open(newline="") as fh:
        for row in csv.DictReader(fh):
            box = tuple(float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
            rank = normalize_rank(row["class"])
            suit = (row.get("suit") or "").strip().lower()
            by_file[row["filename"]].append(LabelledCard(box=box, rank=rank, card=rank + suit if suit else None))
    return [LabelledImage(image_dir / name, cards, scenario=real_scenario(cards))
            for name, cards in sorted(by_file.items())]


#: Two labelled whole-card boxes of a real photo overlap when they share at least this share of the smaller one.
OVERLAP_SHARE = 0.1


def real_scenario(cards: list[LabelledCard]) -> str:
    """A real photo's scenario from its whole-card boxes: "overlapping (real)" when two of them overlap (a card
    partly covered, as in a fan or a pile), else "apart (real)"."""
    for i, a in enumerate(cards):
        for b in cards[i + 1:]:
            w = min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])
            h = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
            smaller = min((a.box[2] - a.box[0]) * (a.box[3] - a.box[1]), (b.box[2] - b.box[0]) * (b.box[3] - b.box[1]))
            if w > 0 and h > 0 and w * h >= OVERLAP_SHARE * smaller:
                return "overlapping (real)"
    return "apart (real)"


def load_rendered(folder: str | Path) -> list[LabelledImage]:
    """A rendered val set: ``labels.jsonl`` (see module docstring), image paths relative to the folder."""
    folder = Path(folder)
    path = folder / "labels.jsonl"
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found: a rendered val set has labels.jsonl")
    out = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        obj = json.loads(line)
        cards = []
        for c in obj["cards"]:
            name = normalize_card(c["card"])
            idx = [tuple(map(float, b)) for b in c.get("index_boxes", [])]
            box = c.get("card_box")
            if box is None and idx:
                a = np.asarray(idx)
                box = (*a[:, :2].min(axis=0), *a[:, 2:].max(axis=0))
            cards.append(LabelledCard(box=tuple(map(float, box)), rank=name[:-1], card=name, index_boxes=idx))
        out.append(LabelledImage(folder / obj["image"], cards))
    return out


def load_synth(folder: str | Path, split: str = "val") -> list[LabelledImage]:
    """The rendered set of ``patience dataset build`` (``datasets/build`` or its ``detect/``): per image
    ``meta/<split>/NNNNNN.json`` with ``indices`` (card, corner, visible, quad; listed when >= 60 % visible) and
    ``cards`` (whole faces nearly fully visible: card, box). A labelled card = a card with a listed index."""
    folder = Path(folder)
    if (folder / "detect").is_dir():
        folder = folder / "detect"
    meta_dir = folder / "meta" / split
    if not meta_dir.is_dir():
        raise FileNotFoundError(f"{meta_dir} not found: give the folder `patience dataset build` wrote (datasets/build)")
    out = []
    for meta_path in sorted(meta_dir.glob("*.json")):
        image = folder / "images" / split / (meta_path.stem + ".jpg")
        if not (folder / "labels" / split / (meta_path.stem + ".txt")).is_file():
            continue  # still being rendered: its label file is written last
        meta = json.loads(meta_path.read_text())
        boxes: dict[str, list] = defaultdict(list)
        for ix in meta.get("indices", []):
            q = np.asarray(ix["quad"], dtype=np.float64)
            boxes[normalize_card(ix["card"])].append((*q.min(axis=0), *q.max(axis=0)))
        whole = {normalize_card(c["card"]): tuple(map(float, c["box"])) for c in meta.get("cards", [])}
        cards = []
        for name, idx in sorted(boxes.items()):
            a = np.asarray(idx)
            box = whole.get(name, (*a[:, :2].min(axis=0), *a[:, 2:].max(axis=0)))
            cards.append(LabelledCard(box=tuple(map(float, box)), rank=name[:-1], card=name,
                                      index_boxes=[tuple(map(float, b)) for b in idx]))
        out.append(LabelledImage(image, cards, scenario=SCENARIOS.get(meta.get("layout", ""), meta.get("layout", ""))))
    return out


def load_folder(folder: str | Path) -> tuple[str, list[LabelledImage]]:
    """("edje" | "real" | "rendered", images) by what the folder holds: "edje" photos are labelled with ranks,
    "real" ones (edje-style with a ``suit`` column) and "rendered" ones with whole card names."""
    folder = Path(folder)
    if (folder / "meta" / "val").is_dir() or (folder / "detect" / "meta" / "val").is_dir():
        return "rendered", load_synth(folder)
    if (folder / "labels.jsonl").is_file():
        return "rendered", load_rendered(folder)
    if (folder / "labels.csv").is_file():
        images = load_edje(folder)
        named = all(c.card for im in images for c in im.cards) and any(im.cards for im in images)
        return ("real" if named else "edje"), images
    raise FileNotFoundError(f"{folder}: no labels.csv (edje-style), meta/val/ (patience dataset build) or labels.jsonl "
                            "(rendered val set) in it")


def _inside(points: np.ndarray, box) -> bool:
    x1, y1, x2, y2 = box
    return bool(np.any((points[:, 0] >= x1) & (points[:, 0] <= x2) & (points[:, 1] >= y1) & (points[:, 1] <= y2)))


def _card_points(result) -> list[np.ndarray]:
    """Per reported card: the centres of its corner boxes (its box centre when it has none)."""
    d = result.detections
    cid = d.data.get("card_id", np.full(len(d), -1))
    pts = []
    for row in range(len(result.cards)):
        m = cid == row
        pts.append(d.center[m] if m.any() else result.card_detections.center[row:row + 1])
    return pts


class Tally:
    """Counts for one evaluation run."""

    def __init__(self, kind: str):
        self.kind = kind
        self.images = 0
        self.labelled = 0
        self.found = 0
        self.wrong = 0
        self.missed = 0
        self.reported = 0
        self.false_outside = 0
        self.false_wrong = 0
        self.confusion: Counter = Counter()  # (truth, predicted or "-") -> count
        self.index_labelled = 0    # rendered sets: labelled index boxes
        self.index_found = 0       # ... with a detected index box at IoU >= 0.5
        self.index_named = 0       # ... whose detected box the classifier named right
        self.ms: list[float] = []
        self.failures: list[str] = []
        self.by_size: Counter = Counter()    # (size class, "found" | "wrong" | "missed") -> labelled cards
        self.by_scenario: dict[str, Tally] = {}

    def add(self, labelled: LabelledImage, result) -> None:
        if labelled.scenario:
            sub = self.by_scenario.setdefault(labelled.scenario, Tally(self.kind))
            sub._add(labelled, result)
        self._add(labelled, result)

    def _add(self, labelled: LabelledImage, result) -> None:
        self.images += 1
        self.ms.append(sum(result.timings_ms.values()))
        self._add_indices(labelled, result)
        pts = _card_points(result)
        names = [c.card for c in result.cards]
        conf = [c.confidence for c in result.cards]
        by_rank = self.kind == "edje"
        key = (lambda name: name[:-1]) if by_rank else (lambda name: name)
        # which reported cards lie in which labelled card
        in_box = np.zeros((len(labelled.cards), len(names)), dtype=bool)
        for i, lc in enumerate(labelled.cards):
            regions = [lc.box] if by_rank or not lc.index_boxes else [lc.box, *lc.index_boxes]
            for j, p in enumerate(pts):
                in_box[i, j] = any(_inside(p, r) for r in regions)
        for i, lc in enumerate(labelled.cards):
            truth = lc.rank if by_rank else lc.card
            self.labelled += 1
            here = [j for j in range(len(names)) if in_box[i, j]]
            size = size_class(lc)
            if any(key(names[j]) == truth for j in here):
                self.found += 1
                self.confusion[(truth, truth)] += 1
                outcome = "found"
            elif here:
                self.wrong += 1
                outcome = "wrong"
                best = max(here, key=lambda j: conf[j])
                self.confusion[(truth, key(names[best]))] += 1
                self.failures.append(f"{labelled.path.name}: {truth} read as {key(names[best])}")
            else:
                self.missed += 1
                self.confusion[(truth, "-")] += 1
                outcome = "missed"
            if size is not None:
                self.by_size[(size, outcome)] += 1
        for j, name in enumerate(names):
            self.reported += 1
            holders = [i for i in range(len(labelled.cards)) if in_box[i, j]]
            if not holders:
                self.false_outside += 1
            elif not any(key(name) == (labelled.cards[i].rank if by_rank else labelled.cards[i].card) for i in holders):
                self.false_wrong += 1

    def _add_indices(self, labelled: LabelledImage, result) -> None:
        """Stage by stage: is each labelled index box detected (IoU >= 0.5), and named right?"""
        from vision.boxes import box_iou

        d = result.detections
        if len(d) and "label" in d.data:
            d = d[d.data["label"] == "index"]
        for lc in labelled.cards:
            if not lc.index_boxes or lc.card is None:
                continue
            self.index_labelled += len(lc.index_boxes)
            if not len(d):
                continue
            iou = box_iou(np.asarray(lc.index_boxes, np.float32), d.xyxy)
            for row in iou:
                j = int(row.argmax())
                if row[j] >= 0.5:
                    self.index_found += 1
                    self.index_named += int(d.data.get("card", np.full(len(d), ""))[j] == lc.card)

    def summary(self) -> dict:
        rep = max(self.reported, 1)
        lab = max(self.labelled, 1)
        def r(x: str) -> str:
            return x if (self.kind == "edje" or x == "-") else x[:-1]

        traps = {f"{a}/{b}": sum(n for (t, p), n in self.confusion.items() if {r(t), r(p)} == {a, b})
                 for a, b in TRAPS}
        if self.kind != "edje":
            for s1, s2 in SUIT_SWAPS:
                traps[f"suit {s1}/{s2}"] = sum(n for (t, p), n in self.confusion.items()
                                               if p != "-" and t[:-1] == p[:-1] and {t[-1], p[-1]} == {s1, s2})
        return {
            "kind": self.kind, "images": self.images, "labelled_cards": self.labelled,
            "recall": self.found / lab, "wrong": self.wrong / lab, "missed": self.missed / lab,
            "reported_cards": self.reported,
            "false_cards": (self.false_outside + self.false_wrong) / rep,
            "false_outside": self.false_outside, "false_wrong_rank": self.false_wrong,
            "traps": traps,
            "index_boxes": self.index_labelled,
            "index_recall": self.index_found / max(self.index_labelled, 1),
            "index_named_right": self.index_named / max(self.index_found, 1),
            "median_ms": float(np.median(self.ms)) if self.ms else 0.0,
            "by_size": {name: _shares(self.by_size, name) for _, name in SIZE_CLASSES
                        if any(self.by_size[(name, o)] for o in ("found", "wrong", "missed"))},
            "by_scenario": {name: {k: v for k, v in sub.summary().items() if k in _SCENARIO_KEYS}
                            for name, sub in sorted(self.by_scenario.items())},
        }


_SCENARIO_KEYS = ("images", "labelled_cards", "recall", "wrong", "missed", "reported_cards", "false_cards")


def _shares(counts: Counter, name: str) -> dict:
    n = sum(counts[(name, o)] for o in ("found", "wrong", "missed"))
    return {"cards": n, **{o: counts[(name, o)] / max(n, 1) for o in ("found", "wrong", "missed")}}


def evaluate(images: Iterable[LabelledImage], detect: Callable[[np.ndarray], object], kind: str,
             read: Callable[[Path], np.ndarray] | None = None, limit: int = 0) -> Tally:
    """Run ``detect`` (image -> DetectionResult) on each labelled image and tally."""
    import cv2

    read = read or (lambda p: cv2.imread(str(p), cv2.IMREAD_COLOR))
    tally = Tally(kind)
    for k, li in enumerate(images):
        if limit and k >= limit:
            break
        img = read(li.path)
        if img is None:
            raise FileNotFoundError(f"{li.path}: cannot read the image")
        tally.add(li, detect(img))
    return tally


def confusion_lines(tally: Tally, top: int = 12) -> list[str]:
    """The most frequent mistakes, 'truth -> predicted: n'."""
    errs = [(n, t, p) for (t, p), n in tally.confusion.items() if t != p]
    errs.sort(reverse=True)
    return [f"{t} -> {p if p != '-' else 'missed'}: {n}" for n, t, p in errs[:top]]


def rank_matrix(tally: Tally) -> list[str]:
    """Rows = true ranks seen, columns = the 13 ranks + missed (edje: rank level)."""
    rank = (lambda x: x) if tally.kind == "edje" else (lambda x: x[:-1] if x != "-" else x)
    m: Counter = Counter()
    for (t, p), n in tally.confusion.items():
        m[(rank(t), rank(p))] += n
    truths = [r for r in RANKS if any(m[(r, c)] for c in (*RANKS, "-"))]
    cols = [*RANKS, "-"]
    lines = ["truth\\read " + " ".join(f"{c:>4}" for c in cols)]
    for t in truths:
        lines.append(f"{t:>10} " + " ".join(f"{m[(t, c)]:>4}" if m[(t, c)] else "   ." for c in cols))
    return lines


def format_report(name: str, tally: Tally) -> str:
    s = tally.summary()
    what = "rank" if s["kind"] == "edje" else "card"
    lines = [
        f"{name} ({s['kind']}): {s['images']} images, {s['labelled_cards']} labelled cards, {s['reported_cards']} reported",
        f"  {what} found in its box: {s['recall']:.1%}   wrong {what}: {s['wrong']:.1%}   missed: {s['missed']:.1%}",
        f"  false cards: {s['false_cards']:.1%} of reported ({s['false_outside']} outside any card, "
        f"{s['false_wrong_rank']} on a card of another {what})",
        *([f"  corner indices: {s['index_recall']:.1%} of {s['index_boxes']} detected (IoU >= 0.5), "
           f"{s['index_named_right']:.1%} of those named right by the classifier"] if s["index_boxes"] else []),
        *(["  by scenario (images, cards: found / wrong / missed; false cards of reported):"]
          + [f"    {name:32s} {v['images']:4d} {v['labelled_cards']:5d}: {v['recall']:6.1%} / {v['wrong']:6.1%} / "
             f"{v['missed']:6.1%}; false {v['false_cards']:6.1%} of {v['reported_cards']}"
             for name, v in s["by_scenario"].items()] if s["by_scenario"] else []),
        *(["  by card size (cards: found / wrong / missed):"]
          + [f"    {name:32s} {v['cards']:5d}: {v['found']:6.1%} / {v['wrong']:6.1%} / {v['missed']:6.1%}"
             for name, v in s["by_size"].items()] if s["by_size"] else []),
        "  traps (confusions either way): " + ", ".join(f"{k} {v}" for k, v in s["traps"].items()),
        f"  median {s['median_ms']:.0f} ms per image",
        "  most frequent mistakes: " + ("; ".join(confusion_lines(tally)) or "none"),
        *("  " + line for line in rank_matrix(tally)),
    ]
    return "\n".join(lines)


def threshold_sweep(images: Iterable[LabelledImage], detector, kind: str, box_thresholds=(0.05, 0.1, 0.15, 0.25),
                    card_thresholds=(0.05, 0.1, 0.2, 0.3, 0.4, 0.5), limit: int = 0) -> list[dict]:
    """Scores for every (detector box threshold, card confidence threshold) pair from ONE run per image at the
    lowest box threshold: the raw boxes are filtered and regrouped (``Detector.assemble``) for each pair.
    (Corners are classified once, so second corners share names as at the lowest threshold: close enough.)"""
    import cv2

    saved = detector.yolo.conf_threshold
    detector.yolo.conf_threshold = min(box_thresholds)
    tallies = {(b, c): Tally(kind) for b in box_thresholds for c in card_thresholds}
    try:
        for k, li in enumerate(images):
            if limit and k >= limit:
                break
            img = cv2.imread(str(li.path), cv2.IMREAD_COLOR)
            if img is None:
                raise FileNotFoundError(f"{li.path}: cannot read the image")
            raw = detector.detect(img).detections
            for (b, c), tally in tallies.items():
                tally.add(li, detector.assemble(raw[raw.confidence >= b], img.shape[:2], c))
    finally:
        detector.yolo.conf_threshold = saved
    return [{"box_threshold": b, "card_threshold": c, **t.summary()} for (b, c), t in tallies.items()]


def format_sweep(rows: list[dict]) -> str:
    lines = ["box thr  card thr   found   wrong  missed   false cards   corners found / named right"]
    for r in rows:
        lines.append(f"{r['box_threshold']:7.2f}  {r['card_threshold']:8.2f}  {r['recall']:6.1%}  {r['wrong']:6.1%}  "
                     f"{r['missed']:6.1%}  {r['false_cards']:11.1%}   {r['index_recall']:6.1%} / {r['index_named_right']:6.1%}")
    return "\n".join(lines)

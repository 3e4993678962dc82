"""``Detector``: one camera frame or photo (BGR numpy) -> the cards in it, each once.

    det = Detector()                       # the committed models/ (or Detector(model_dir="path/to/models"))
    result = det.detect(cv2.imread("table.jpg"))
    for card in result.cards:              # SeenCard(card="Qh", confidence=0.97, box=(x1, y1, x2, y2), corners=2)
        ...
    result.detections                      # raw corner (and whole-card) detections, Detections with data columns

Pipeline (two stages, see models/README.md for what the files are):

1. the detector (``OnnxYolo``) finds corner indices (class ``index``) and maybe whole cards (class ``card``)
   on the whole image; photos too large for that are also cut into overlapping tiles (``vision.tiling``);
2. each index box is cut out (``vision.crops.index_crop``) and named by the classifier (52 card names);
   a detector whose classes are the 52 names is used alone;
   with a face classifier in the model folder (``cardface.onnx``, manifest key ``cardface``), a corner inside a
   whole-card box also gets a second look: the whole card's crop (``vision.crops.face_crop``) is named by the face
   classifier (its pips and pictures show the suit big) and each corner's probabilities are multiplied by the
   face's (``Detector.fuse_faces``); with a suit look (``suitlook.onnx``, manifest key ``suitlook``), the same
   64 px corner crop is also named by suit at full resolution and the suit probabilities multiplied into each
   card of that suit (``Detector.fuse_suits``), before the face's; with ``pips`` on (photos, the Poker camera)
   also the pip look, last: the suit of the pips in the middle of each whole card (``vision.pips``, ``Detector.fuse_pips``);
3. corners are grouped into cards by identity (``vision.grouping``): same name -> one card.

Model folder: ``vision.json`` (optional) names the files and classes; otherwise ``detector.onnx`` and
``classifier.onnx`` are used with the class names from their ONNX metadata. The default folder is
``$PATIENCE_LENS_MODELS`` if set, else ``models/`` beside the ``vision`` package (a repository checkout or an
editable install). A wheel does not carry ``models/``: installed that way, pass ``model_dir`` / ``--model``.

The parts beside this module: ``vision.model_files`` (the model folder and its manifest), ``vision.results`` (what
is reported) and ``vision.drawing`` (a result drawn on its image); their names stay importable from here.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from vision.card_names import CARD_NAMES, NONE_CLASS, CardNameError, is_card_name_list, normalize_card
from vision.boxes import box_iou
from vision.colour import grey_note
from vision.crops import crops_to_tensor, face_crop, index_crop, resize_crops, thinned
from vision.deck_suits import balance_suits
from vision.detections import Detections
from vision.drawing import draw_result
from vision.focus import sharpened, soft_note
from vision.grouping import DEFAULT_REACH, card_box_owners, group_cards
from vision.light import brightened, dim_note
from vision.model_files import ENV_MODELS, MANIFEST, ModelSpec, default_model_dir
from vision.onnx_backend import ModelFileError, OnnxClassifier, OnnxYolo
from vision.pips import card_suit_evidence, pip_shapes
from vision.results import DetectionResult, SeenCard
from vision.tiling import detect_tiled, merge_overlapping

# Chosen on the rendered held-out-design val set (`patience detect --eval --sweep datasets/build`), not on the real
# photos: the small detector scores true corners low, and a card's confidence is box score ** 0.5 x classifier
# probability (vision.grouping). 0.3 favours precision (the issue asks for <= 1 % wrong cards): with the 416 px model
# it cut the val false cards from 24 % (0.1 with the plain product) to 15 %; session 3's models at 0.3 find 52.8 %
# of the val cards with 11.4 % false (models/README.md, "Measured").
DEFAULT_BOX_THRESHOLD = 0.1
DEFAULT_CARD_THRESHOLD = 0.3
SIGNATURE_SIZE = 16
SIGNATURE_TOLERANCE = 0.25  # mean |difference| of standardised 16x16 grey crops; same corner in the next frame: ~0.05
# Both cores of the 2-core target machine: ORT threads that do not spin-wait cost nothing when the other core is
# busy and make the detector ~1.4x faster when it is free (docs/BENCHMARKS.md).
DEFAULT_THREADS = min(2, os.cpu_count() or 1)
FACE_FUSIONS = ("card", "suit", "rank", "rank+suit")
PIP_SUITS = ("s", "h", "d", "c")
# A card whose pips' summed weight is under ``min_pips`` still counts from this weight on, its exponent scaled down
# in proportion (half a pip: a little; an ace's one pip: most of it). A hard cut at ``min_pips`` lost the aces and
# the small cards of photos whose pips are mostly too small to be looked at (docs/BENCHMARKS.md, score-photo,
# session 25: gridval 1168 -> 1174 of 1200 cells, nothing lost on the tuning sets or the camera videos).
PIP_WEIGHT_FLOOR = 0.5
# The thin look reads the corners whose black cards have at least this much of the first look's probability (the
# red ones, the clutter and the sure other names are left alone: half the crops a photo, not all).
BLACK_LOOK_FROM = 0.05


def crop_signature(image_bgr: np.ndarray, box, pad: float) -> np.ndarray:
    """A 16x16 grey thumbnail of the index crop, standardised (zero mean, unit spread), flattened: (256,)."""
    import cv2

    c = index_crop(image_bgr, box, SIGNATURE_SIZE, pad)
    g = cv2.cvtColor(c, cv2.COLOR_BGR2GRAY).astype(np.float32).reshape(-1)
    return (g - g.mean()) / (g.std() + 8.0)


def reading_order(d: Detections) -> np.ndarray:
    """Indices sorting boxes in rows top to bottom, left to right within a row (rows ~ one box height)."""
    if len(d) == 0:
        return np.zeros(0, np.int64)
    h = float(np.median(d.xyxy[:, 3] - d.xyxy[:, 1])) or 1.0
    c = d.center
    return np.lexsort((c[:, 0], np.floor(c[:, 1] / h)))


class Detector:
    """Card recognition for one image at a time (keeps the ONNX sessions; not thread-safe: one per thread).

    ``conf_threshold``: detector score to keep a box; ``min_card_confidence``: detector x classifier score
    to report a card; ``min_index_px``: the smallest corner index (height, image pixels) that big photos are tiled
    for; ``min_model_px``: the smallest index the detector finds reliably at its input; ``tile``: "auto", "off";
    ``share_confidence``: the second corner of a fully visible card (inside the same ``card`` box) takes the first
    corner's name without its own classifier run when the first is at least this sure (saves ~1 ms a card;
    above 1: always classify every corner); ``tta_below``: a corner the classifier names with less than this
    probability is classified again in its three other quarter turns and the four answers averaged (held-out
    designs: 64.5 % -> 68.0 % of crops named right at 0.5, for ~2.3x the classifier's time; 0 turns it off);
    ``imgsz``: the detector's input long side for a dynamic-shape model (smaller is faster and misses small indices);
    ``threads``: ONNX Runtime intra-op threads per model (non-spinning; None: ``DEFAULT_THREADS``; 1 where another
    process needs the other core); ``face``: None uses the face classifier when the model folder declares one, False
    never; ``face_model``: an ONNX face classifier to use instead of the manifest's (measuring one before wiring it
    in); ``face_weight`` / ``face_fuse`` / ``face_suit_weight``: override the manifest's fusion (exponent of the face
    probabilities; "card" fuses all 52 names, "suit" / "rank" only the face's suit / rank, "rank+suit" both
    marginals, the suit's with its own exponent); ``suit``: None uses the suit look when the model folder declares
    one, False never; ``suit_model`` / ``suit_weight`` / ``suit_below``: another ONNX suit look, the exponent of its
    probabilities, the corners it reads (those whose own best suit probability is below this); ``balance``: a photo
    (no previous frame) is taken to show one deck, and the suit odds of its corners are shifted where their reading
    has far too few of one suit of a colour (``vision.deck_suits``; the photo commands, not the camera);
    ``pips``: the pip look (``pips.onnx``, manifest key ``pips``: the suit of the pips in the middle of each
    whole card, ``vision.pips``) when True or, with None, when the model folder declares one; False (the default:
    a few ms a card, too slow for every card of every camera frame) never; only corners classified anew get it
    (with ``previous``, the reused ones keep their names); ``pip_model`` / ``pip_weight`` / ``min_pips``: another
    ONNX pip look, the exponent of a card's pip suit shares, the least summed pip weight for them to count;
    ``zoom``: above 1, a picture the detector sees whole (no tiles) is enlarged this much and read in tiles of
    the detector's input, so that corner indices too small for the whole-picture pass are found (covered cards
    of fanned hands: ``patience detect --table``; ~4-5 detector passes at 1.5, so not for the camera);
    ``classifier_model``: an ONNX index classifier to use instead of the manifest's (measuring one before wiring it
    in); ``thin_weight``: the thin look's share in settling clubs against spades (:meth:`settle_black_suits`; None:
    the manifest's, 0 off; the photo models only: a second classifier run for the black corners).
    """

    def __init__(self, model_dir: str | Path | None = None, conf_threshold: float = DEFAULT_BOX_THRESHOLD,
                 min_card_confidence: float = DEFAULT_CARD_THRESHOLD, iou_threshold: float = 0.5, min_index_px: float = 24.0,
                 min_model_px: float = 12.0, tile: str = "auto", reach: float = DEFAULT_REACH,
                 share_confidence: float = 0.9, tta_below: float = 0.5, imgsz: int | None = None,
                 threads: int | None = None, face: bool | None = None, face_model: str | Path | None = None,
                 face_weight: float | None = None, face_fuse: str | None = None,
                 face_suit_weight: float | None = None, suit: bool | None = None,
                 suit_model: str | Path | None = None, suit_weight: float | None = None,
                 suit_below: float | None = None, balance: bool = False, pips: bool | None = False,
                 pip_model: str | Path | None = None, pip_weight: float | None = None,
                 min_pips: float | None = None, zoom: float = 1.0, classifier_model: str | Path | None = None,
                 thin_weight: float | None = None):
        self.model_dir = Path(model_dir) if model_dir is not None else default_model_dir()
        self.spec = ModelSpec.from_dir(self.model_dir)
        if not self.spec.detector.is_file():
            raise ModelFileError(f"detector model {self.spec.detector} not found: pass --model DIR holding detector.onnx")
        threads = DEFAULT_THREADS if threads is None else threads
        self.yolo = OnnxYolo(self.spec.detector, self.spec.detector_classes, conf_threshold, iou_threshold,
                             threads=threads)
        if imgsz is not None:
            self.yolo.set_long_side(imgsz)
        self.labels = [c.lower() for c in self.yolo.classes]
        self.single_stage = is_card_name_list(self.yolo.classes)
        self.classifier = None
        if not self.single_stage:
            if self.spec.classifier is None or not self.spec.classifier.is_file():
                raise ModelFileError(f"classifier model {self.spec.classifier or self.model_dir / 'classifier.onnx'} "
                                     "not found: the detector finds corners but names no cards")
            if classifier_model is not None:  # another index classifier (its class names from its own metadata)
                if not Path(classifier_model).is_file():
                    raise ModelFileError(f"classifier model {classifier_model} not found")
                self.classifier = OnnxClassifier(classifier_model, None, threads=threads)
            else:
                self.classifier = OnnxClassifier(self.spec.classifier, self.spec.classifier_classes, threads=threads)
            try:  # a class "none" (not a corner index: clutter, pips, pictures) names no card
                self.classifier_names = ["" if n.strip().lower() == NONE_CLASS else normalize_card(n)
                                         for n in self.classifier.classes]
            except CardNameError as exc:
                raise ModelFileError(f"classifier {self.spec.classifier} classes are not card names ({exc})") from exc
        none = [j for j, n in enumerate(getattr(self, "classifier_names", [])) if not n]
        self._none_col = none[0] if none else -1
        self.thin_weight = self.spec.thin_weight if thin_weight is None else float(thin_weight)
        names = getattr(self, "classifier_names", [])
        pairs = [(names.index(n), names.index(n[:-1] + "c")) for n in names
                 if n.endswith("s") and n[:-1] + "c" in names]
        self._black_pairs = np.array(pairs, np.int64).reshape(-1, 2)  # each rank's (spade column, club column)
        self.index_class = self.labels.index("index") if "index" in self.labels else (0 if not self.single_stage else -1)
        self.card_class = self.labels.index("card") if "card" in self.labels else -1
        self.min_card_confidence = min_card_confidence
        self.iou_threshold = iou_threshold
        self.min_index_px = min_index_px
        self.min_model_px = min_model_px
        self.tile = tile
        if not zoom >= 1.0:
            raise ValueError(f"zoom {zoom}: give 1 (off) or more, e.g. 1.5")
        self.zoom = float(zoom)
        self.reach = reach
        self.share_confidence = share_confidence
        self.tta_below = tta_below
        self.balance = balance
        self.face = None
        self.face_weight = self.spec.face_weight if face_weight is None else float(face_weight)
        self.face_fuse = self.spec.face_fuse if face_fuse is None else face_fuse
        self.face_suit_weight = self.spec.face_suit_weight if face_suit_weight is None else float(face_suit_weight)
        if self.face_fuse not in FACE_FUSIONS:
            raise ValueError(f"face_fuse {self.face_fuse!r}: one of {', '.join(FACE_FUSIONS)}")
        face_path = self._second_look("face classifier", face, face_model, self.spec.face)
        if face_path is not None:
            self._load_face(face_path, self.spec.face_classes if face_model is None else None, threads)
        self.suit = None
        self.suit_weight = self.spec.suit_weight if suit_weight is None else float(suit_weight)
        self.suit_below = self.spec.suit_below if suit_below is None else float(suit_below)
        suit_path = self._second_look("suit look", suit, suit_model, self.spec.suit)
        if suit_path is not None:
            self._load_suit(suit_path, self.spec.suit_classes if suit_model is None else None, threads)
        self.pips = None
        self.pip_weight = self.spec.pip_weight if pip_weight is None else float(pip_weight)
        self.min_pips = self.spec.min_pips if min_pips is None else float(min_pips)
        pip_path = self._second_look("pip look", pips, pip_model, self.spec.pips)
        if pip_path is not None:
            self._load_pips(pip_path, self.spec.pip_classes if pip_model is None else None)

    def _second_look(self, what: str, wanted: bool | None, given: str | Path | None, declared: Path | None) -> Path | None:
        """The file of an optional second look (face, suit) to load, or None: used when the folder declares it (or a
        file is given) unless switched off; asked for (``wanted`` True or a file given) but missing is an error."""
        path = Path(given) if given is not None else declared
        if wanted is False or path is None or self.classifier is None:
            return None
        if path.is_file():
            return path
        if wanted is True or given is not None:
            raise ModelFileError(f"{what} {path} not found")
        return None

    def _load_suit(self, path: Path, classes, threads: int) -> None:
        """The suit look and its 0/1 map from its suits to the corner classifier's card columns."""
        self.suit = OnnxClassifier(path, classes, threads=1)  # a few crops a frame: a second thread's wake-up costs more
        suits = [c.strip().lower()[-1:] for c in self.suit.classes]
        if sorted(suits) != ["c", "d", "h", "s"]:
            raise ModelFileError(f"suit look {path} classes {self.suit.classes} are not the four suits s h d c")
        # (suits, classifier columns): 1 where the column's card has that suit; the "none" column gets no suit
        self._suit_map = self._suit_columns(suits)

    def _load_pips(self, path: Path, classes) -> None:
        """The pip look and its 0/1 map from its four suits to the corner classifier's card columns."""
        self.pips = OnnxClassifier(path, classes, threads=1)  # a few dozen 32 px silhouettes a photo
        names = [c.strip().lower() for c in self.pips.classes]
        if names[:4] != list(PIP_SUITS) or names[4:] not in ([], [NONE_CLASS]):
            raise ModelFileError(f"pip look {path} classes {self.pips.classes} are not s h d c (+ none)")
        self._pip_map = self._suit_columns(PIP_SUITS)
        self._court_cols = np.array([j for j, n in enumerate(self.classifier_names) if n and n[:-1] in ("J", "Q", "K")],
                                    np.int64)

    def _suit_columns(self, suits) -> np.ndarray:
        """(suits, classifier columns) 0/1: 1 where the column's card has that suit (the "none" column: none)."""
        return np.array([[1.0 if n and n[-1] == su else 0.0 for n in self.classifier_names] for su in suits],
                        np.float32)

    @staticmethod
    def _reweigh(out: np.ndarray, rows: np.ndarray, cols: np.ndarray, factor: np.ndarray) -> None:
        """``out[rows, cols]`` multiplied by ``factor`` (len(rows), len(cols)) and scaled back to the mass those
        cells held, so the other columns (``none``) keep their probability. In place."""
        q = out[np.ix_(rows, cols)]
        mass = q.sum(axis=1)
        q = q * factor
        q *= (mass / np.maximum(q.sum(axis=1), 1e-12))[:, None]
        out[np.ix_(rows, cols)] = q

    def _none_p(self, p: np.ndarray) -> np.ndarray:
        """The ``none`` probability of each row of ``p`` (0 without a ``none`` class)."""
        return p[:, self._none_col] if self._none_col >= 0 else np.zeros(len(p), np.float32)

    def _load_face(self, path: Path, classes, threads: int) -> None:
        """The face classifier and its 0/1 maps from face classes to the corner classifier's card columns (same card,
        same rank, same suit), one matrix product per fusion at run time."""
        self.face = OnnxClassifier(path, classes, threads=threads)
        try:
            face_names = [normalize_card(n) for n in self.face.classes if n.strip().lower() != NONE_CLASS]
        except CardNameError as exc:
            raise ModelFileError(f"face classifier {path} classes are not card names ({exc})") from exc
        pos = {n: i for i, n in enumerate(self.face.classes) if n.strip().lower() != NONE_CLASS}
        pos = {normalize_card(n): i for n, i in pos.items()}
        self._card_cols = np.array([j for j, n in enumerate(self.classifier_names) if n], np.int64)
        names = [self.classifier_names[j] for j in self._card_cols]
        if not all(n in pos for n in names):
            raise ModelFileError(f"face classifier {path} does not name all {len(names)} cards")
        # (face classes, card columns) 0/1 maps: the face probability of each corner column's card, rank, suit
        self._face_maps = {}
        for kind, same in (("card", lambda a, b: a == b), ("rank", lambda a, b: a[:-1] == b[:-1]),
                           ("suit", lambda a, b: a[-1] == b[-1])):
            m = np.zeros((len(self.face.classes), len(names)), np.float32)
            for fn in face_names:
                for k, n in enumerate(names):
                    if same(fn, n):
                        m[pos[fn], k] = 1.0
            self._face_maps[kind] = m

    # -- stage 1 ------------------------------------------------------------------------------------------------
    def tile_plan(self, image_hw: tuple[int, int]) -> tuple[tuple[int, int], int] | None:
        """``(tile_hw, overlap)`` in image pixels when the image needs tiling, else None."""
        if self.tile == "off":
            return None
        ih, iw = self.yolo.input_hw
        whole_scale = min(ih / image_hw[0], iw / image_hw[1])
        if self.min_index_px * whole_scale >= self.min_model_px:
            return None
        tile_scale = min(self.min_model_px / self.min_index_px * 1.5, 1.0)  # a margin over the bare minimum
        tile_hw = (int(ih / tile_scale), int(iw / tile_scale))
        if image_hw[0] <= tile_hw[0] * 1.1 and image_hw[1] <= tile_hw[1] * 1.1:
            return None
        return tile_hw, int(min(tile_hw) * 0.25)

    def zoom_for(self, image_hw: tuple[int, int]) -> float:
        """How much :meth:`detect` enlarges a picture of ``image_hw`` before reading it: ``zoom`` for a picture the
        detector sees whole, 1 for one it tiles anyway (a large photo) or when ``zoom`` or tiling is off."""
        if self.zoom <= 1.0 or self.tile == "off" or self.tile_plan(image_hw) is not None:
            return 1.0
        return self.zoom

    def find_boxes(self, image_bgr: np.ndarray, progress=None, fine: bool = False) -> tuple[Detections, int]:
        """Stage 1: detector boxes in image pixels (whole image, plus tiles for large photos). (boxes, n_passes)
        ``progress(done, total)``: called after each detector pass (a 6000x6000 photo takes about 100).
        ``fine``: also tiles of the detector's own input size where the whole image needs none (an enlarged
        picture, :meth:`zoom_for`)."""
        from vision.tiling import plan_tiles

        plan = self.tile_plan(image_bgr.shape[:2])
        if plan is None and fine:
            ih, iw = self.yolo.input_hw
            plan = (ih, iw), int(min(ih, iw) * 0.25)
            if image_bgr.shape[0] <= ih and image_bgr.shape[1] <= iw:
                plan = None  # the picture fits one tile: the whole-picture pass already sees it at full size
        n = 1 if plan is None else 1 + len(plan_tiles(image_bgr.shape[:2], *plan))
        whole = self.yolo.detect(image_bgr)
        if progress is not None:
            progress(1, n)
        if plan is None:
            return whole, 1
        tile_hw, overlap = plan
        step = None if progress is None else (lambda done, total: progress(1 + done, n))
        tiled = detect_tiled(image_bgr, self.yolo.detect, tile_hw, overlap, self.iou_threshold, progress=step)
        return merge_overlapping(Detections.merge([tiled, whole]), self.iou_threshold), n

    # -- stage 2 ------------------------------------------------------------------------------------------------
    def name_corners(self, image_bgr: np.ndarray, boxes: Detections,
                     previous: "DetectionResult | None" = None) -> tuple[Detections, int, dict[str, float]]:
        """Stage 2: data columns ``label``, ``card``, ``card_confidence``, ``signature`` and ``probs`` (the
        corner's classifier probabilities after every look, zeros where it was not classified) for every box.

        With ``previous`` (the result for the previous camera frame), a corner that sits where a corner of that
        frame sat (IoU >= 0.7) and LOOKS the same (16x16 grey signature) keeps its name without running the
        classifier: a card put exactly on top of another one looks different, so it is classified again.
        Returns (named boxes, how many names were reused, the photo's suit shifts (``balance``; {} if none)).
        """
        n = len(boxes)
        label = np.array([self.labels[c] if 0 <= c < len(self.labels) else str(c) for c in boxes.class_id], dtype=object)
        card = np.full(n, "", dtype=object)
        card_conf = np.zeros(n, np.float32)
        signature = np.zeros((n, SIGNATURE_SIZE * SIGNATURE_SIZE), np.float32)
        reused = 0
        probs = np.zeros((n, len(getattr(self, "classifier_names", []))), np.float32)
        shifts: dict[str, float] = {}
        if self.single_stage:
            card[:] = [normalize_card(self.yolo.classes[c]) for c in boxes.class_id]
            card_conf[:] = 1.0
        else:
            idx = np.flatnonzero(boxes.class_id == self.index_class)
            for i in idx:
                signature[i] = crop_signature(image_bgr, boxes.xyxy[i], self.spec.crop_pad)
            todo = idx
            if previous is not None and len(idx) and "signature" in previous.detections.data:
                prev = previous.detections
                prev = prev[(prev.data["card"] != "") & (prev.class_id == self.index_class)]
                if len(prev):
                    iou = box_iou(boxes.xyxy[idx], prev.xyxy)
                    j = iou.argmax(axis=1)
                    diff = np.abs(signature[idx] - prev.data["signature"][j]).mean(axis=1)
                    same = (iou[np.arange(len(idx)), j] >= 0.7) & (diff <= SIGNATURE_TOLERANCE)
                    card[idx[same]] = prev.data["card"][j[same]]
                    card_conf[idx[same]] = prev.data["card_confidence"][j[same]]
                    reused = int(same.sum())
                    todo = idx[~same]
            first, later, partner = self.split_by_card_box(boxes, todo)
            self._classify(image_bgr, boxes, first, card, card_conf, probs)
            if len(later):
                # a second corner of a fully visible card: the same card, unless its first corner was doubtful
                sure = (card_conf[partner] >= self.share_confidence) & (card[partner] != "")
                card[later[sure]] = card[partner[sure]]
                card_conf[later[sure]] = card_conf[partner[sure]]
                probs[later[sure]] = probs[partner[sure]]
                self._classify(image_bgr, boxes, later[~sure], card, card_conf, probs)
            if self.face is not None and len(todo):  # the second look at corners inside whole-card boxes
                probs[todo] = self.fuse_faces(image_bgr, boxes, todo, probs[todo])
                self._set_names(todo, probs[todo], card, card_conf)
            if self.balance and previous is None and len(todo):  # one deck in the photo: its suits' balance
                probs[todo], shifts = balance_suits(probs[todo], self.classifier_names)
                if shifts:
                    self._set_names(todo, probs[todo], card, card_conf)
            # the pips in the middle of whole cards: their suit, last, so that the balance above measures the corner
            # readings' own leaning (the pips would hide it on the number cards, and the courts then lose it)
            if self.pips is not None and len(todo):
                probs[todo] = self.fuse_pips(image_bgr, boxes, todo, probs[todo])
                self._set_names(todo, probs[todo], card, card_conf)
        data = {**boxes.data, "label": label, "card": card, "card_confidence": card_conf, "signature": signature,
                "probs": probs}
        named = Detections(xyxy=boxes.xyxy, confidence=boxes.confidence, class_id=boxes.class_id, data=data)
        return named, reused, shifts

    def corner_probabilities(self, image_bgr: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
        """(n, classifier classes) probabilities of the corner index in each box (x1, y1, x2, y2): the classifier,
        averaged over the four quarter turns where it is unsure, then fused with the suit look, then (photo models)
        clubs against spades settled by the thin look."""
        if not len(xyxy):
            return np.zeros((0, len(self.classifier_names)), np.float32)
        crops = [index_crop(image_bgr, b, self.spec.crop_size, self.spec.crop_pad) for b in xyxy]
        x = crops_to_tensor(resize_crops(crops, self.classifier.size))
        p = self.classifier.probabilities(x)
        unsure = np.flatnonzero(p.max(axis=1) < self.tta_below)
        if len(unsure):  # the other three quarter turns (the classifier was trained on crops in any orientation)
            xu = x[unsure]
            turns = [np.ascontiguousarray(np.rot90(xu, k, axes=(2, 3))) for k in (1, 2, 3)]
            pu = self.classifier.probabilities(np.concatenate(turns)).reshape(3, len(unsure), -1)
            p[unsure] = (p[unsure] + pu.sum(axis=0)) / 4
        if self.suit is not None:
            p = self.fuse_suits(crops, p)
        if self.thin_weight > 0:
            p = self.settle_black_suits(crops, xyxy, p)
        return p

    def read_corners(self, image_bgr: np.ndarray, xyxy: np.ndarray) -> list[tuple[str | None, float]]:
        """The card named by the corner index in each box, with its probability (None: no index there): a second
        look where an index is expected but the detector found none."""
        p = self.corner_probabilities(self.prepare(image_bgr), np.asarray(xyxy, dtype=np.float64))
        best = p.argmax(axis=1) if len(p) else np.zeros(0, int)
        return [(self.classifier_names[k] or None, float(p[i, k])) for i, k in enumerate(best)]

    def settle_black_suits(self, crops: list[np.ndarray], xyxy: np.ndarray, p: np.ndarray) -> np.ndarray:
        """Clubs against spades settled again by the thin look: the classifier (and the suit look) run once more on
        each black corner's crop with its ink thinned (:func:`vision.crops.thinned`), and each rank's spade+club
        probability is split between the two as in the looks' probabilities averaged, the thin one's with weight
        ``thin_weight``; the rank, the colour and ``none`` stay the first look's. Why: bold clubs of designs not
        trained on read as spades, thinner they read right (docs/BENCHMARKS.md, session 29: fanned hands 6.4 -> 5.5 %
        wrong on the tuning set, Poker grids unchanged). Corners whose box is under ``thin_min_px`` keep their split:
        thinning a small, enlarged index wipes its strokes out. Returns a new array."""
        out = np.array(p, np.float32, copy=True)
        if not len(out) or not len(self._black_pairs):
            return out
        s_col, c_col = self._black_pairs[:, 0], self._black_pairs[:, 1]
        black = out[:, s_col] + out[:, c_col]  # (n, ranks)
        side = np.maximum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1])
        todo = np.flatnonzero((side >= self.spec.thin_min_px) & (black.sum(axis=1) >= BLACK_LOOK_FROM))
        if not len(todo):
            return out
        thin = [thinned(crops[i]) for i in todo]
        q = self.classifier.probabilities(crops_to_tensor(resize_crops(thin, self.classifier.size)))
        if self.suit is not None:
            q = self.fuse_suits(thin, q)
        w = np.float32(self.thin_weight)
        both = (1 - w) * out[todo] + w * q
        share = both[:, s_col] / np.maximum(both[:, s_col] + both[:, c_col], 1e-12)
        out[np.ix_(todo, s_col)] = black[todo] * share
        out[np.ix_(todo, c_col)] = black[todo] * (1 - share)
        return out

    def _classify(self, image_bgr, boxes: Detections, idx: np.ndarray, card: np.ndarray, card_conf: np.ndarray,
                  probs: np.ndarray) -> None:
        if not len(idx):
            return
        probs[idx] = self.corner_probabilities(image_bgr, boxes.xyxy[idx])
        self._set_names(idx, probs[idx], card, card_conf)

    def _set_names(self, idx: np.ndarray, p: np.ndarray, card: np.ndarray, card_conf: np.ndarray) -> None:
        best = p.argmax(axis=1)  # "" where the classifier's answer is "none": the corner names no card
        card[idx] = [self.classifier_names[b] for b in best]
        card_conf[idx] = p[np.arange(len(idx)), best]

    def fuse_suits(self, crops: list[np.ndarray], p: np.ndarray, suit_p: np.ndarray | None = None) -> np.ndarray:
        """Corner probabilities ``p`` (len(crops), classifier classes) with the suit look's: for each corner whose
        classifier names a card and whose best suit (summed over ranks) is below ``suit_below``, every card column
        multiplied by the suit look's probability of that card's suit ** ``suit_weight``, renormalised so the
        ``none`` probability is kept. ``crops``: the corners' index crops at the crop size (64 px), shrunk here to
        the suit look's input; ``suit_p``: its probabilities for those rows instead (tests). Returns a new array."""
        out = np.array(p, np.float32, copy=True)
        if self.suit is None or not len(out):
            return out
        cards = self._suit_map.sum(axis=0) > 0  # the card columns (not "none")
        cardp = out @ self._suit_map.T  # (n, suits): the corner classifier's own suit marginal
        named = cards[out.argmax(axis=1)]  # a corner read as "none" is dropped anyway
        todo = np.flatnonzero(named & (cardp.max(axis=1) / np.maximum(cardp.sum(axis=1), 1e-12) < self.suit_below))
        if not len(todo):
            return out
        if suit_p is None:
            sp = self.suit.probabilities(crops_to_tensor(resize_crops([crops[i] for i in todo], self.suit.size)))
        else:
            sp = np.asarray(suit_p, np.float32)[todo]
        factor = (np.maximum(sp, 1e-6) ** np.float32(self.suit_weight) @ self._suit_map)[:, cards]  # (todo, cards)
        self._reweigh(out, todo, np.flatnonzero(cards), factor)
        return out

    def face_probabilities(self, image_bgr: np.ndarray, card_boxes_xyxy: np.ndarray) -> np.ndarray:
        """(m, face classes) probabilities of the face classifier for whole-card boxes (x1, y1, x2, y2)."""
        crops = [face_crop(image_bgr, b, self.spec.face_crop_size, self.spec.face_crop_pad) for b in card_boxes_xyxy]
        if not crops:
            return np.zeros((0, len(self.face.classes)), np.float32)
        return self.face.probabilities(crops_to_tensor(resize_crops(crops, self.face.size)))

    def fuse_faces(self, image_bgr: np.ndarray, boxes: Detections, idx: np.ndarray, p: np.ndarray,
                   face_p: np.ndarray | None = None) -> np.ndarray:
        """Corner probabilities ``p`` (len(idx), classifier classes) of the index boxes ``boxes[idx]``, each corner
        inside a whole-card box (the smallest holding >= 60 % of it) multiplied by that card's face probabilities
        ** ``face_weight`` over the 52 names (or the face's suit or rank, ``face_fuse``) and renormalised; the
        corner's ``none`` probability is kept. Corners in no card box are unchanged. Returns a new array.
        ``face_p``: the face probabilities of every ``card`` box in ``boxes`` order (tests); else computed here."""
        out = np.array(p, np.float32, copy=True)
        if self.face is None or self.card_class < 0 or not len(idx):
            return out
        cards, inside, used, row = self.boxed_corners(boxes, idx, out)
        if not len(inside):
            return out
        pf = face_p[used] if face_p is not None else self.face_probabilities(image_bgr, boxes.xyxy[cards[used]])
        factor = np.ones((len(used), len(self._card_cols)), np.float32)  # (used card boxes, card columns)
        for kind in self.face_fuse.split("+"):
            w = self.face_suit_weight if kind == "suit" and self.face_fuse == "rank+suit" else self.face_weight
            factor *= np.maximum(pf @ self._face_maps[kind], 1e-6) ** np.float32(w)
        q = out[np.ix_(inside, self._card_cols)] * factor[row]
        mass = 1.0 - (out[inside, self._none_col] if self._none_col >= 0 else 0.0)
        q *= (np.asarray(mass, np.float32) / np.maximum(q.sum(axis=1), 1e-12))[:, None]
        out[np.ix_(inside, self._card_cols)] = q
        return out

    def card_owners(self, boxes: Detections, idx: np.ndarray, names: np.ndarray | None = None,
                    sides: bool = True, name_p: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(cards, owner)``: the rows of ``boxes`` that are whole-card boxes, and for each corner ``idx`` the
        position in ``cards`` of the card box it belongs to (``grouping.card_box_owners``: the smallest holding
        >= 60 % of it, if the corner lies as one of that card's corners; -1: none). ``names`` / ``name_p`` /
        ``sides``: the corners' readings and their probabilities, pairs along one side believed (see there)."""
        cards = np.flatnonzero(boxes.class_id == self.card_class) if self.card_class >= 0 else np.zeros(0, np.int64)
        if not len(cards) or not len(idx):
            return cards, np.full(len(idx), -1, np.int64)
        return cards, card_box_owners(boxes.xyxy[idx], boxes.xyxy[cards], boxes.confidence[cards], names=names,
                                      sides=sides, name_p=name_p)

    def boxed_corners(self, boxes: Detections, idx: np.ndarray, p: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
        """``(cards, inside, used, row)``: the whole-card rows of ``boxes``; the positions in ``idx`` of the corners
        inside a card box; the card boxes holding them (positions in ``cards``); for each such corner, its box's
        position in ``used``. ``p``: the corners' probabilities so far (their best names judge pairs along a side)."""
        names = None if p is None else np.array([self.classifier_names[j] for j in p.argmax(axis=1)], dtype=object)
        cards, owner = self.card_owners(boxes, idx, names=names, name_p=None if p is None else p.max(axis=1))
        inside = np.flatnonzero(owner >= 0)
        used, row = np.unique(owner[inside], return_inverse=True)
        return cards, inside, used, row

    def pip_evidence(self, image_bgr: np.ndarray, card_boxes_xyxy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(suits, weight)``: for each whole-card box, the suit shares (m, 4: s h d c) of the pips in its middle
        (``vision.pips``) and how many blobs looked like pips (their summed 1 - P(none)); of a card seen at a
        slant (two readings), the reading whose pips say most."""
        readings = [pip_shapes(image_bgr, b) for b in card_boxes_xyxy]
        suits = np.full((len(readings), 4), 0.25, np.float32)
        weight = np.zeros(len(readings), np.float32)
        shapes = [s for r in readings for s in r]
        n = np.array([len(s) for s in shapes], np.int64)
        if not n.sum():
            return suits, weight
        p = self.pips.probabilities(np.concatenate(shapes)[:, None])
        ends = np.cumsum(n)
        k = 0
        for c, r in enumerate(readings):
            best = -1.0
            for _ in r:
                su, w = card_suit_evidence(p[ends[k] - n[k]:ends[k]])
                k += 1
                if w * su.max() > best:
                    best, suits[c], weight[c] = w * su.max(), su, w
        return suits, weight

    def fuse_pips(self, image_bgr: np.ndarray, boxes: Detections, idx: np.ndarray, p: np.ndarray,
                  evidence: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """Corner probabilities ``p`` (len(idx), classifier classes) of the index boxes ``boxes[idx]``, each corner
        inside a whole-card box whose middle shows pips multiplied by those pips' suit shares within the suit's
        colour (spades against clubs, hearts against diamonds) ** ``pip_weight`` over each card column's suit,
        renormalised; the ``none`` probability is kept. A card whose summed pip weight is under ``min_pips`` counts
        with the exponent scaled by weight / ``min_pips``, from ``PIP_WEIGHT_FLOOR`` on (none below it).
        Corners read as a Jack, Queen or King (half their card probability or more) are left alone: a court's
        middle is a picture, whose blobs are no pips.
        ``evidence``: ``pip_evidence`` of every card box in ``boxes`` order (tests); else computed here."""
        out = np.array(p, np.float32, copy=True)
        if self.pips is None or not len(idx):
            return out
        cards, inside, used, row = self.boxed_corners(boxes, idx, out)
        if not len(inside):
            return out
        if evidence is None:
            suits, weight = self.pip_evidence(image_bgr, boxes.xyxy[cards[used]])
        else:
            suits, weight = (np.asarray(e, np.float32)[used] for e in evidence)
        # pips are printed on the number cards and aces: a corner read as a court card (a picture) is left alone
        court = out[np.ix_(inside, self._court_cols)].sum(axis=1) >= 0.5 * (1.0 - self._none_p(out[inside]))
        ok = (weight[row] >= min(PIP_WEIGHT_FLOOR, self.min_pips)) & ~court
        inside, row = inside[ok], row[ok]
        if not len(inside):
            return out
        # within each colour only (spades against clubs, hearts against diamonds): the corner tells the colour
        # well, and a pip in the middle of the card (an ace's) may be seen upside down, a heart then like a spade
        suits = np.maximum(suits, 1e-4)
        pair = suits + suits[:, [3, 2, 1, 0]]  # PIP_SUITS = s h d c: s+c, h+d, d+h, c+s
        cols = np.flatnonzero(self._pip_map.sum(axis=0) > 0)
        # fewer pips than min_pips seen: their evidence counts less, in proportion
        power = np.float32(self.pip_weight) * np.minimum(1.0, weight / max(self.min_pips, 1e-6)).astype(np.float32)
        factor = ((suits / pair) ** power[:, None] @ self._pip_map)[:, cols]
        self._reweigh(out, inside, cols, factor[row])
        return out

    def split_by_card_box(self, boxes: Detections, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(first, later, partner)``: corners ``idx`` to classify now; corners that share a whole-card box with a
        more confident corner (``later``), each with that corner (``partner``), named after it when it is sure.
        The detector's ``card`` boxes are faces at least 90 % visible, so corners inside one are one card."""
        empty = np.zeros(0, np.int64)
        if self.card_class < 0 or self.share_confidence > 1 or len(idx) < 2:
            return idx, empty, empty
        _cards, owner = self.card_owners(boxes, idx, sides=False)  # unread: a pair along a side may be two cards
        first, later, partner = [], [], []
        lead: dict[int, int] = {}
        for k in np.argsort(-boxes.confidence[idx], kind="stable"):
            i, o = int(idx[k]), int(owner[k])
            if o < 0 or o not in lead:
                first.append(i)
                if o >= 0:
                    lead[o] = i
            else:
                later.append(i)
                partner.append(lead[o])
        return np.array(sorted(first), np.int64), np.array(later, np.int64), np.array(partner, np.int64)

    # -- all ----------------------------------------------------------------------------------------------------
    @staticmethod
    def prepare(image_bgr: np.ndarray) -> np.ndarray:
        """The picture as the models read it: brightened when dim (``vision.light``), then sharpened when soft
        (``vision.focus``); the same array when neither is needed."""
        return sharpened(brightened(image_bgr))

    @staticmethod
    def prepare_notes(image_bgr: np.ndarray) -> list[str]:
        """What ``prepare`` does to the picture, for the player ("the photo is dim ...: read brightened ..."), and
        a picture without colour (``vision.colour``: red suits then read as black)."""
        return [n for n in (dim_note(image_bgr), soft_note(brightened(image_bgr)), grey_note(image_bgr)) if n]

    def detect(self, image_bgr: np.ndarray, previous: DetectionResult | None = None, progress=None,
               prepared: bool = False) -> DetectionResult:
        """The cards in one frame. Camera loops pass the previous frame's result as ``previous`` so that corners
        that did not move or change keep their names without the classifier (see :meth:`name_corners`).
        ``progress(done, total)``: called after each detector pass (large photos are read in many tiles).
        ``prepared``: the picture is already ``prepare``'s output (a caller that reads it again itself)."""
        import time

        if image_bgr is None or not isinstance(image_bgr, np.ndarray) or image_bgr.ndim not in (2, 3) or image_bgr.size == 0:
            raise ValueError("expected an image as a (H, W, 3) uint8 BGR array")
        if image_bgr.ndim == 2:
            import cv2

            image_bgr = cv2.cvtColor(image_bgr, cv2.COLOR_GRAY2BGR)
        elif image_bgr.shape[2] == 4:
            image_bgr = image_bgr[..., :3]
        image_bgr = np.ascontiguousarray(image_bgr)
        photo_hw = image_bgr.shape[:2]
        zoom = self.zoom_for(photo_hw) if previous is None else 1.0
        if zoom > 1.0:
            import cv2

            image_bgr = cv2.resize(image_bgr, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
        if not prepared:
            image_bgr = self.prepare(image_bgr)
        t0 = time.perf_counter()
        boxes, passes = self.find_boxes(image_bgr, progress, fine=zoom > 1.0)
        t1 = time.perf_counter()
        named, reused, shifts = self.name_corners(image_bgr, boxes, previous)
        t2 = time.perf_counter()
        result = self.assemble(named, image_bgr.shape[:2])
        t3 = time.perf_counter()
        result.tiles, result.reused, result.suit_shifts = passes, reused, shifts
        result.timings_ms = {"detect": (t1 - t0) * 1e3, "classify": (t2 - t1) * 1e3, "group": (t3 - t2) * 1e3}
        return result.scaled(1.0 / zoom, photo_hw) if zoom > 1.0 else result

    def assemble(self, named: Detections, image_hw: tuple[int, int],
                 min_card_confidence: float | None = None) -> DetectionResult:
        """Stage 3: named boxes -> the result (cards grouped by identity, reading order, ``card_id`` column)."""
        min_card_confidence = self.min_card_confidence if min_card_confidence is None else min_card_confidence
        named = Detections(xyxy=named.xyxy, confidence=named.confidence, class_id=named.class_id, data=dict(named.data))
        is_card_box = named.class_id == self.card_class if self.card_class >= 0 else np.zeros(len(named), bool)
        corners = named[~is_card_box]
        cards, card_id = group_cards(corners, named[is_card_box], self.reach, min_card_confidence)
        order = reading_order(cards)
        cards = cards[order]
        remap = np.full(len(order) + 1, -1, np.int64)
        remap[order] = np.arange(len(order))
        all_card_id = np.full(len(named), -1, np.int64)
        all_card_id[~is_card_box] = remap[card_id]  # -1 stays -1 (last slot)
        named.data["card_id"] = all_card_id
        seen = [SeenCard(card=str(data["card"]), confidence=conf, box=tuple(float(v) for v in xyxy),
                         corners=int(data["corners"])) for xyxy, conf, _c, data in cards]
        return DetectionResult(cards=seen, card_detections=cards, detections=named, image_hw=tuple(image_hw))


__all__ = ["CARD_NAMES", "Detector", "DetectionResult", "ModelSpec", "ModelFileError", "SeenCard", "default_model_dir",
           "draw_result", "MANIFEST", "ENV_MODELS"]

"""Index classifiers trained on a stream of freshly rendered scenes: many CPU workers render, one GPU learns.

The CPU recipe (``patience train classifier``) learns from a fixed store of ~90 000 crops for a few passes, all that
a 2-core machine allows. Given many cores and a GPU (the device machine some sessions are lent), scenes can be
rendered about as fast as they are learned: workers render training scenes (training designs only; a share of
fanned hands and of the npm decks) and cut every readable corner index and a few negatives (the detector's false
boxes and random boxes, class ``none``) into a crop buffer; the trainer draws batches from the buffer, varies them
on the GPU (``gpu_augment``: what ``train._augment`` does on the CPU) and trains several classifier shapes
(``ARCHS``: card classifiers, and suit looks that learn the suit of the same card crops) side by side on the
same batches. The per-check crops come from held-out-design scenes (never trained
on). Each shape's best checkpoint is written in the form ``train.export_classifier`` reads. It runs on a CPU too,
slowly (the tests run it for seconds).

    patience train stream --out runs/stream --seconds 380 --workers 14 --device cuda --batch 1024
    python3 -m assistant.cli train stream ...     # the same where the package is not installed (PYTHONPATH=.)
"""

from __future__ import annotations

import json
import os
import queue
import string
import threading
import time
from pathlib import Path

import numpy as np

from vision.card_names import CARD_NAMES, NONE_CLASS, RANKS, card_index, rank_of
from vision.training.train import SUIT_CLASSES  # a suit look's classes (CARD_NAMES runs suit by suit, 13 ranks each)

CLASSES: tuple[str, ...] = CARD_NAMES + (NONE_CLASS,)
NONE_ID = len(CARD_NAMES)
CROP = 64  # px: the stored crop (``scenes.CROP_SIZE``); each shape shrinks it to its own input
# name -> make_cropnet arguments (+ ``target``: "card", the default, names the 52 cards and none; "suit" is a suit look,
# the suit of the card crops only, in SUIT_CLASSES). Shapes whose checkpoint would exceed ~16 MB (a 64 px input
# without a stem) are left out.
ARCHS: dict[str, dict] = {
    "w2_32": {"width": 2, "input_size": 32},  # the main classifier's shape
    "w3_32": {"width": 3, "input_size": 32},  # the table classifier's shape
    "w4_32": {"width": 4, "input_size": 32},
    "w3s_64": {"width": 3, "input_size": 64, "stem": 32},  # 64 px detail through a stride-2 first layer
    "w4s_64": {"width": 4, "input_size": 64, "stem": 32},
    "suit_w1_64": {"width": 1, "input_size": 64, "target": "suit"},  # the committed suit look's shape
    "suit_w2s_64": {"width": 2, "input_size": 64, "stem": 32, "target": "suit"},  # about the main classifier's cost
    "suit_w3s_64": {"width": 3, "input_size": 64, "stem": 32, "target": "suit"},
}
GLYPH_CROPS = 16  # drawn corner indices a glyph job makes (``glyph_share`` of the jobs; none by default)
GLYPH_LETTERS = ("de", "nl")  # court letterings drawn as well (index_glyphs.COURT_LETTERS; French V is a jack there)
GLYPH_LETTER_SHARE = 0.5  # of the drawn courts, this share printed with one of those
GLYPH_NEGATIVES = 4  # and this many drawings that are no index (text without a pip), labelled none
_TEXT = string.ascii_letters + string.digits
TRAIN_MIN_PX = 12.0  # training crops: indices at least this long and this uncovered (as ``patience train classifier``)
TRAIN_MIN_VISIBLE = 0.7

_YOLO = None
_INDEX_CLASS = 0


# ---------------------------------------------------------------------------------------------------------------
# Workers: one scene -> its crops
# ---------------------------------------------------------------------------------------------------------------


def _worker_init(cache: str, split: str, registry_share: float, detector: str | None,
                 procedural_share: float = 0.0) -> None:
    os.environ["OMP_NUM_THREADS"] = "1"
    from vision.training import synth

    synth._init(cache, split, procedural_share=procedural_share, registry_share=registry_share)
    global _YOLO, _INDEX_CLASS, _CACHE
    _CACHE = cache
    if detector:
        from vision.onnx_backend import OnnxYolo

        _YOLO = OnnxYolo(detector, conf_threshold=0.05, threads=1)
        _INDEX_CLASS = _YOLO.classes.index("index") if "index" in _YOLO.classes else 0


_FONTS: dict[str, list] = {}  # a worker's fonts by split
_CACHE: str | None = None  # the worker's artwork cache


def glyph_crops(seed: int, split: str, i: int) -> tuple[np.ndarray, np.ndarray, str]:
    """``GLYPH_CROPS`` corner indices drawn in fonts (``index_glyphs``; ``split`` "train": the typefaces not held
    out, "val": the held-out ones), courts now and then with German or Dutch letters: other typefaces than the
    card designs' (``patience bench typefaces``); for training also ``GLYPH_NEGATIVES`` drawings of text without a
    pip, labelled none, so that printed text on a table is not taken for an index."""
    from vision.training.artwork import CACHE, glyph_fonts
    from vision.training.index_glyphs import COURT_LETTERS, render_index_crop, typeface_split

    if split not in _FONTS:
        train, held = typeface_split(glyph_fonts(Path(_CACHE or CACHE)))
        _FONTS[split] = train if split == "train" else held
    fonts = _FONTS[split]
    if not fonts:
        raise FileNotFoundError("no fonts in the artwork cache for drawn indices: run `patience dataset fetch`")
    rng = np.random.default_rng([seed, 97, i])
    crops, labels = [], []
    for _ in range(GLYPH_CROPS):
        card = CARD_NAMES[int(rng.integers(len(CARD_NAMES)))]
        letters = None
        if card[0] in "JQK" and rng.random() < GLYPH_LETTER_SHARE:
            letters = COURT_LETTERS[GLYPH_LETTERS[int(rng.integers(len(GLYPH_LETTERS)))]]
        crops.append(render_index_crop(card, rng, fonts, size=CROP, letters=letters))
        labels.append(card_index(card))
    for _ in range(GLYPH_NEGATIVES if split == "train" else 0):  # printed text that is no corner index
        text = ""
        while not text or text.upper() in RANKS:
            text = "".join(_TEXT[int(k)] for k in rng.integers(len(_TEXT), size=int(rng.integers(1, 5))))
        card = CARD_NAMES[int(rng.integers(len(CARD_NAMES)))]  # its ink colour
        crops.append(render_index_crop(card, rng, fonts, size=CROP, letters={rank_of(card): text}, pip=False))
        labels.append(NONE_ID)
    return np.stack(crops), np.asarray(labels, np.int16), "glyphs"


def scene_crops(job) -> tuple[np.ndarray, np.ndarray, str]:
    """Render scene ``job = (seed, split, i, layout, min_px, min_visible)``; its readable index crops (label = card
    number) and negatives (label ``NONE_ID``) as (n, 64, 64, 3) BGR uint8 and (n,) int16, and its layout. Layout
    "glyphs": drawn corner indices instead of a scene (:func:`glyph_crops`)."""
    from vision.training import negatives, synth
    from vision.training.scenes import crop_index

    seed, split, i, layout, min_px, min_visible = job
    if layout == "glyphs":
        return glyph_crops(seed, split, i)
    scene, rng = synth.render_one(seed, split, i, layout)
    crops, labels = [], []
    for ix in scene.indices:
        x0, y0, x1, y1 = ix.box
        if max(x1 - x0, y1 - y0) < min_px or ix.visible < min_visible:
            continue
        crops.append(crop_index(scene.image, ix.box, jitter=(rng, 0.08, 1.1, 1.6)))
        labels.append(card_index(ix.card))
    meta = {"indices": [{"quad": ix.quad.tolist()} for ix in scene.indices]}
    detected = None
    if _YOLO is not None:
        d = _YOLO.detect(scene.image)
        d = d[d.class_id == _INDEX_CLASS]
        detected = np.concatenate([d.xyxy, d.confidence[:, None]], 1) if len(d) else None
    for crop in negatives.scene_negatives(scene.image, meta, rng, detected, n_random=2, n_hard=3):
        crops.append(crop)
        labels.append(NONE_ID)
    if not crops:
        return np.zeros((0, CROP, CROP, 3), np.uint8), np.zeros(0, np.int16), scene.layout
    return np.stack(crops), np.asarray(labels, np.int16), scene.layout


def _jobs(seed: int, split: str, start: int, fan_share: float, min_px: float, min_visible: float, count=None,
          glyph_share: float = 0.0):
    """Scene jobs ``start, start + 1, ...``: a ``fan_share`` of them fanned hands, the rest the default mix; a
    ``glyph_share`` of the jobs draw corner indices in fonts instead (the others are the scenes they were without)."""
    i = start
    while count is None or i < start + count:
        fan = np.random.default_rng([seed, 99, i]).random() < fan_share
        glyphs = glyph_share > 0 and np.random.default_rng([seed, 98, i]).random() < glyph_share
        yield (seed, split, i, "glyphs" if glyphs else "fan" if fan else None, min_px, min_visible)
        i += 1


# ---------------------------------------------------------------------------------------------------------------
# GPU-side variety (``train._augment`` in torch)
# ---------------------------------------------------------------------------------------------------------------


def gpu_augment(x, gen):
    """(B, 64, 64, 3) BGR uint8 tensor -> (B, 3, 64, 64) RGB float 0..1 with quarter turns, small rotations and
    scalings, blur, lower resolution, brightness/contrast/colour and noise, drawn from ``gen``."""
    import torch
    import torch.nn.functional as F

    dev = x.device
    b, n = x.shape[0], x.shape[1]
    x = plain_input(x)  # BGR -> RGB, NCHW, 0..1

    def u(lo, hi, *shape):
        return torch.rand(*shape, generator=gen, device=dev) * (hi - lo) + lo

    def chance(p):
        return torch.rand(b, generator=gen, device=dev) < p

    turns = torch.randint(0, 4, (b,), generator=gen, device=dev)
    for k in (1, 2, 3):
        m = turns == k
        if m.any():
            x[m] = torch.rot90(x[m], k, dims=(2, 3))
    m = chance(0.5)
    if m.any():
        k = int(m.sum())
        a = u(-25, 25, k) * np.pi / 180
        s = u(0.9, 1.1, k)
        theta = torch.zeros(k, 2, 3, device=dev)
        theta[:, 0, 0] = torch.cos(a) / s
        theta[:, 0, 1] = -torch.sin(a) / s
        theta[:, 1, 0] = torch.sin(a) / s
        theta[:, 1, 1] = torch.cos(a) / s
        grid = F.affine_grid(theta, (k, 3, n, n), align_corners=False)
        x[m] = F.grid_sample(x[m], grid, mode="bilinear", padding_mode="border", align_corners=False)
    m = chance(0.4)
    if m.any():  # other typefaces' stroke weights (the CPU recipe's ``_reshape_glyphs``): half a pixel bolder or lighter
        x[m] = ink_weight(x[m], chance(0.5)[m])
    m = chance(0.2)
    if m.any():
        k = int(m.sum())
        sigma = u(0.3, 0.8, k)
        r = torch.arange(-2, 3, device=dev, dtype=torch.float32)
        g = torch.exp(-(r[None] ** 2) / (2 * sigma[:, None] ** 2))
        g = g / g.sum(1, keepdim=True)
        ker = (g[:, :, None] * g[:, None, :]).repeat_interleave(3, 0)[:, None]  # (k*3, 1, 5, 5)
        y = F.pad(x[m].reshape(1, k * 3, n, n), (2, 2, 2, 2), mode="replicate")
        x[m] = F.conv2d(y, ker, groups=k * 3).reshape(k, 3, n, n)
    m = chance(0.2)
    if m.any():
        idx = torch.nonzero(m).flatten()
        for part in idx.chunk(4):
            if len(part):
                s = int(torch.randint(n // 2, n - 4, (1,), generator=gen, device=dev))
                small = F.interpolate(x[part], size=(s, s), mode="area")
                x[part] = F.interpolate(small, size=(n, n), mode="bilinear", align_corners=False)
    x = x * u(0.6, 1.3, b, 1, 1, 1) + u(-30, 30, b, 1, 1, 1) / 255.0
    x = x * u(0.85, 1.15, b, 3, 1, 1)
    m = chance(0.3)
    if m.any():
        x[m] = x[m] + torch.randn(x[m].shape, generator=gen, device=dev) * (5 / 255.0)
    return x.clamp_(0, 1)


def ink_weight(x, bolder):
    """(k, 3, n, n) pictures 0..1 with their dark ink made half a pixel bolder (where ``bolder``) or lighter: a 3x3
    min or max filter at twice the size. A held-out design's fat clubs read as spades until 1 px thinner
    (docs/BENCHMARKS.md, session 23), so the classifiers should not lean on the weight of a glyph's strokes."""
    import torch.nn.functional as F

    n = x.shape[-1]
    big = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
    lighter = F.max_pool2d(big, 3, stride=1, padding=1)
    heavier = -F.max_pool2d(-big, 3, stride=1, padding=1)
    big = lighter.where(~bolder[:, None, None, None], heavier)
    return F.adaptive_avg_pool2d(big, n)


def is_suit_look(cfg: dict) -> bool:
    """A shape of ``ARCHS`` that learns the suit of the card crops (``target: "suit"``)."""
    return cfg.get("target") == "suit"


def shape_classes(cfg: dict) -> tuple[str, ...]:
    """What a shape of ``ARCHS`` names: the 52 cards and none, or (a suit look) the four suits."""
    return SUIT_CLASSES if is_suit_look(cfg) else CLASSES


def make_shape(cfg: dict):
    """The untrained CNN of a shape of ``ARCHS``."""
    from vision.training.train import make_cropnet

    return make_cropnet(len(shape_classes(cfg)), **{k: v for k, v in cfg.items() if k != "target"})


def shape_targets(cfg: dict, y):
    """``(rows, labels)`` a shape learns from in a batch of crop labels ``y`` (a torch tensor): every crop and its
    label; for a suit look only the card crops, labelled by suit."""
    if not is_suit_look(cfg):
        return None, y
    rows = (y < NONE_ID).nonzero().squeeze(1)
    return rows, y[rows] // 13


def to_input(x, size: int):
    """The 64 px RGB batch shrunk to a shape's input (area averaging, as ``cv2.INTER_AREA``)."""
    import torch.nn.functional as F

    return x if x.shape[-1] == size else F.interpolate(x, size=(size, size), mode="area")


def plain_input(x_uint8):
    """(B, 64, 64, 3) BGR uint8 tensor -> (B, 3, 64, 64) RGB float 0..1, no variety (the checks)."""
    return x_uint8.flip(-1).permute(0, 3, 1, 2).float() / 255.0


# ---------------------------------------------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------------------------------------------


class CropBuffer:
    """Crops and labels appended by a reader thread, drawn at random by the trainer; when full, the oldest go."""

    def __init__(self, capacity: int):
        self.x = np.empty((capacity, CROP, CROP, 3), np.uint8)
        self.y = np.empty(capacity, np.int16)
        self.capacity, self.n, self.written = capacity, 0, 0
        self.scenes = 0
        self.layouts: dict[str, int] = {}
        self.lock = threading.Lock()

    def add(self, x: np.ndarray, y: np.ndarray, layout: str) -> None:
        with self.lock:
            for xi, yi in zip(x, y):
                k = self.written % self.capacity
                self.x[k], self.y[k] = xi, yi
                self.written += 1
            self.n = min(self.written, self.capacity)
            self.scenes += 1
            self.layouts[layout] = self.layouts.get(layout, 0) + 1

    def sample(self, rng: np.random.Generator, batch: int) -> tuple[np.ndarray, np.ndarray]:
        idx = rng.integers(0, self.n, batch)
        return self.x[idx], self.y[idx]


def render_checks(pool, seed: int, scenes: int, fan_scenes: int, glyph_jobs: int = 0
                  ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The per-check crops: held-out-design scenes of the default mix and of fanned hands (every index of at
    least 8 px, covered or not, as the tuning builds' val crops), with their negatives; with ``glyph_jobs``,
    also indices drawn in the held-out typefaces ("typefaces": reported, not used to choose a checkpoint)."""
    from vision.training.synth import MIN_CROP_PX

    out = {}
    for name, layout, count in (("mix", None, scenes), ("fan", "fan", fan_scenes), ("typefaces", "glyphs", glyph_jobs)):
        jobs = [(seed, "val", i, layout, MIN_CROP_PX, 0.0) for i in range(count)]
        parts = [r for r in pool.imap(scene_crops, jobs, chunksize=2) if len(r[1])]
        if parts:
            out[name] = (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]).astype(np.int64))
    return out


def evaluate(model, x: np.ndarray, y: np.ndarray, size: int, device, batch: int = 1024, suit: bool = False) -> dict:
    """Card top-1 and suit accuracy on the card crops, ``none`` recall on the negatives, cards lost to ``none``;
    of a suit look (``suit``), its suit accuracy on the card crops (as ``top1`` and ``suit``)."""
    import torch

    cards = y < NONE_ID
    if suit:
        x, y = x[cards], y[cards]
    model.eval()
    preds = []
    with torch.no_grad():
        for s in range(0, len(x), batch):
            xb = plain_input(torch.from_numpy(x[s : s + batch]).to(device))
            preds.append(model(to_input(xb, size)).float().argmax(1).cpu().numpy())
    model.train()
    p = np.concatenate(preds) if preds else np.zeros(0, np.int64)
    if suit:
        right = float((p == y // 13).mean()) if len(p) else 0.0
        return {"top1": right, "suit": right}
    out = {"top1": float((p[cards] == y[cards]).mean()),
           "suit": float(((p[cards] // 13) == (y[cards] // 13))[p[cards] < NONE_ID].mean()) if (p[cards] < NONE_ID).any() else 0.0,
           "cards_none": float((p[cards] == NONE_ID).mean())}
    if (~cards).any():
        out["none_recall"] = float((p[~cards] == NONE_ID).mean())
    return out


def train_stream(out: Path, seconds: float, workers: int, archs: dict[str, dict] | None = None, batch: int = 512,
                 lr: float = 3e-3, device: str = "cuda", seed: int = 0, cache: Path | None = None,
                 detector: Path | None = None, fan_share: float = 0.3, registry_share: float = 0.2,
                 procedural_share: float = 0.0, glyph_share: float = 0.0,
                 check_scenes: int = 150, check_fan_scenes: int = 75, check_seed: int = 1, capacity: int = 1_000_000,
                 min_buffer: int = 20000, check_every: float = 30.0, init: Path | None = None, log=print) -> dict:
    """Render and train for ``seconds`` (the rendering of the checks and the start not counted); write
    ``out/<arch>.pt`` (each shape's best checkpoint by held-out card top-1, rewritten at every check),
    ``out/<arch>_last.pt`` (its latest) and ``out/summary.json``; returns the summary. ``init``: a checkpoint
    (``{"model": state dict}``) every shape starts from instead of from scratch (fine-tuning a committed model; the
    shapes must match it), checked once before the first step. ``registry_share`` / ``procedural_share``: the
    training tables drawn with the npm decks / the procedural decks (``synth.pick_faces``); ``glyph_share``: the
    jobs that draw corner indices in the typefaces not held out (:func:`glyph_crops`; then the checks draw the
    held-out ones too)."""
    import multiprocessing as mp

    from vision.training.artwork import CACHE

    archs = dict(archs or ARCHS)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    cache = str(cache or CACHE)
    det = str(detector) if detector else None
    ctx = mp.get_context("fork")  # before any CUDA work: the workers never touch torch
    t_start = time.time()
    with ctx.Pool(workers, initializer=_worker_init, initargs=(cache, "val", 0.0, det)) as pool:
        checks = render_checks(pool, check_seed, check_scenes, check_fan_scenes,
                               glyph_jobs=(check_scenes + check_fan_scenes) // 2 if glyph_share > 0 else 0)
    log(f"checks: {', '.join(f'{k} {len(v[1])} crops' for k, v in checks.items())} ({time.time() - t_start:.0f} s)")

    buf = CropBuffer(capacity)
    pool = ctx.Pool(workers, initializer=_worker_init, initargs=(cache, "train", registry_share, det, procedural_share))
    stop = threading.Event()

    def reader():
        jobs = _jobs(seed, "train", 0, fan_share, TRAIN_MIN_PX, TRAIN_MIN_VISIBLE, glyph_share=glyph_share)
        try:
            for x, y, layout in pool.imap_unordered(scene_crops, jobs, chunksize=2):
                buf.add(x, y, layout)
                if stop.is_set():
                    break
        except Exception as exc:  # a scene that fails stops the rendering; training goes on with the buffer
            if not stop.is_set():
                log(f"rendering stopped: {exc!r}")

    threading.Thread(target=reader, daemon=True).start()
    import torch

    torch.manual_seed(seed)
    dev = torch.device(device)
    if dev.type == "cuda":
        torch.backends.cudnn.benchmark = True
    start = torch.load(init, map_location="cpu", weights_only=False)["model"] if init else None
    models, opts = {}, {}
    for name, cfg in archs.items():
        models[name] = make_shape(cfg)
        if start is not None:
            models[name].load_state_dict(start)
        models[name] = models[name].to(dev).to(memory_format=torch.channels_last)
        opts[name] = torch.optim.AdamW(models[name].parameters(), lr=lr, weight_decay=5e-4, fused=dev.type == "cuda")
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    gen = torch.Generator(device=dev)
    gen.manual_seed(seed)
    rng = np.random.default_rng(seed)
    while buf.n < min_buffer:
        time.sleep(0.5)
    log(f"buffer {buf.n} crops from {buf.scenes} scenes after {time.time() - t_start:.0f} s: training")

    batches: queue.Queue = queue.Queue(maxsize=6)

    def feeder():  # draws and uploads batches while the GPU trains
        while not stop.is_set():
            xb, yb = buf.sample(rng, batch)
            xt = torch.from_numpy(xb)
            yt = torch.from_numpy(yb.astype(np.int64))
            if dev.type == "cuda":
                xt, yt = xt.pin_memory(), yt.pin_memory()
            try:
                batches.put((xt, yt), timeout=1.0)
            except queue.Full:
                continue

    threading.Thread(target=feeder, daemon=True).start()
    autocast = torch.autocast(device_type=dev.type, dtype=torch.bfloat16, enabled=dev.type == "cuda")
    best = {name: -1.0 for name in archs}
    losses = {name: [] for name in archs}  # since the last check
    history: list[dict] = []
    t0 = time.time()
    last_check, step, seen = t0, 0, 0

    def check(final: bool = False) -> None:
        row = {"seconds": round(time.time() - t0, 1), "step": step, "samples": seen, "buffer": buf.n,
               "crops_made": buf.written, "scenes": buf.scenes}
        for name, model in models.items():
            size = archs[name]["input_size"]
            res = {k: evaluate(model, x, y, size, dev, suit=is_suit_look(archs[name]))
                   for k, (x, y) in checks.items()}
            row[name] = res
            row[name]["loss"] = round(float(torch.stack(losses[name]).float().mean()), 4) if losses[name] else None
            losses[name].clear()
            score = res["mix"]["top1"] if "mix" in res else 0.0
            state = {k: v.detach().float().cpu() for k, v in model.state_dict().items()}
            saved = {"model": state, "classes": list(shape_classes(archs[name])), "val_top1": score, "step": step,
                     "samples": seen, **archs[name]}
            torch.save(saved, out / f"{name}_last.pt")  # the latest, whichever check was best
            if score >= best[name]:
                best[name] = score
                torch.save(saved, out / f"{name}.pt")
        history.append(row)
        log(json.dumps(row))
        (out / "summary.json").write_text(json.dumps({"archs": archs, "history": history, "best": best,
                                                       "layouts": buf.layouts, "final": final}, indent=1))

    if start is not None:
        check()  # where the fine-tuning starts from
    while time.time() - t0 < seconds:
        frac = (time.time() - t0) / seconds
        rate = lr * (0.04 + 0.96 * frac / 0.05) if frac < 0.05 else lr * (0.01 + 0.99 * 0.5 * (1 + np.cos(np.pi * (frac - 0.05) / 0.95)))
        try:
            xt, yt = batches.get(timeout=60)
        except queue.Empty:
            log("no batch for 60 s: stopping")
            break
        xt, yt = xt.to(dev, non_blocking=True), yt.to(dev, non_blocking=True)
        with torch.no_grad():
            xa = gpu_augment(xt, gen).contiguous(memory_format=torch.channels_last)
        for name, model in models.items():
            for g in opts[name].param_groups:
                g["lr"] = rate
            rows, target = shape_targets(archs[name], yt)
            xs = xa if rows is None else xa[rows]
            with autocast:
                loss = loss_fn(model(to_input(xs, archs[name]["input_size"])).float(), target)
            opts[name].zero_grad(set_to_none=True)
            loss.backward()
            opts[name].step()
            losses[name].append(loss.detach())
        step += 1
        seen += len(yt)
        if time.time() - last_check > check_every:
            check()
            last_check = time.time()
    check(final=True)
    stop.set()
    pool.terminate()
    return json.loads((out / "summary.json").read_text())


def pack_artwork(cache: Path, to: Path, quality: int = 75) -> int:
    """The rasterised decks (``cache/cards``) as lossy WebP with alpha under ``to`` (a few MB instead of ~60, to
    travel to another machine); returns the number of faces."""
    import shutil

    import cv2

    n = 0
    src = Path(cache) / "cards"
    for deck in sorted(d for d in src.iterdir() if d.is_dir()):
        (to / deck.name).mkdir(parents=True, exist_ok=True)
        for png in sorted(deck.glob("*.png")):
            img = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
            cv2.imwrite(str(to / deck.name / f"{png.stem}.webp"), img, [cv2.IMWRITE_WEBP_QUALITY, quality])
            n += 1
    shutil.copy(src / "decks.json", to / "decks.json")
    return n


def unpack_artwork(packed: Path, cache: Path) -> int:
    """``pack_artwork``'s folder back into ``cache/cards`` as PNG (the form ``artwork.load_decks`` reads)."""
    import shutil

    import cv2

    n = 0
    dst = Path(cache) / "cards"
    for deck in sorted(d for d in Path(packed).iterdir() if d.is_dir()):
        (dst / deck.name).mkdir(parents=True, exist_ok=True)
        for w in sorted(deck.glob("*.webp")):
            cv2.imwrite(str(dst / deck.name / f"{w.stem}.png"), cv2.imread(str(w), cv2.IMREAD_UNCHANGED))
            n += 1
    shutil.copy(Path(packed) / "decks.json", dst / "decks.json")
    return n

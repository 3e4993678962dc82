"""Training the two models from the synthetic data (``patience train``), fully offline, one thread.

1. ``detector``: ultralytics YOLO built from ``models/index_det.yaml`` (no downloaded weights), classes
   ``index`` and ``card``, trained on ``datasets/build/detect``; resumable from ``runs/detector/weights/last.pt``.
2. ``classifier``: a small CNN (``CropNet``) naming a 64x64 corner-index crop (52 classes in ``CARD_NAMES``
   order, i.e. ``Card.index``, plus ``none`` when the crops hold negatives: ``vision.training.negatives``), trained on
   ``datasets/build/crops``; crops come in ANY rotation (the scenes
   rotate the cards freely), so the classifier is rotation-agnostic rather than needing upright crops;
   resumable from ``runs/classifier/last.pt``.
3. ``export``: ``models/detector.onnx`` / ``.pt``, ``models/classifier.onnx`` / ``.pt`` and
   ``models/vision.json`` (files, classes, crop recipe) for ``vision.detector``.

Offline: YOLO_OFFLINE=1, YOLO_AUTOINSTALL=0, YOLO_CONFIG_DIR=runs/yolo_config with a local TTF copied in as
Arial.ttf (ultralytics would otherwise download it for its plots), amp off, plots off.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

from vision.card_names import CARD_NAMES, NONE_CLASS
from vision.model_files import MANIFEST

REPO = Path(__file__).resolve().parents[2]
RUNS = REPO / "runs"
MODELS = REPO / "models"
BUILD = REPO / "datasets" / "build"
FONT_CANDIDATES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",)


def offline_env() -> Path:
    """Environment for ultralytics without network; returns the config folder. Call before importing it."""
    cfg = RUNS / "yolo_config"
    (cfg / "Ultralytics").mkdir(parents=True, exist_ok=True)
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        dst = cfg / "Ultralytics" / name
        if not dst.exists():
            for src in FONT_CANDIDATES:
                if Path(src).exists():
                    shutil.copy(src, dst)
                    break
    os.environ.update(
        YOLO_OFFLINE="1",
        YOLO_AUTOINSTALL="0",
        YOLO_CONFIG_DIR=str(cfg),
        OMP_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
        YOLO_VERBOSE=os.environ.get("YOLO_VERBOSE", "True"),
    )
    return cfg


def _torch_one_thread():
    import torch

    torch.set_num_threads(1)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:
        pass
    return torch


# ---------------------------------------------------------------------------------------------------------------
# 1. Detector
# ---------------------------------------------------------------------------------------------------------------


def snapshot_data(data: Path) -> Path:
    """A data yaml whose train/val lists hold only images whose label file exists (a build may still be running:
    an image without its label yet would be taken as an empty background picture)."""
    root = data.parent
    lines = []
    for split in ("train", "val"):
        imgs = sorted((root / "images" / split).glob("*.jpg"))
        ok = [str(p) for p in imgs if (root / "labels" / split / (p.stem + ".txt")).exists()]
        (root / f"{split}_snapshot.txt").write_text("\n".join(ok) + "\n")
        lines.append(f"{split}: {split}_snapshot.txt")
    text = data.read_text().splitlines()
    out = [ln for ln in text if not ln.startswith(("train:", "val:"))]
    out[1:1] = lines
    snap = root / "data_snapshot.yaml"
    snap.write_text("\n".join(out) + "\n")
    return snap


def train_detector(epochs: int = 30, imgsz: int = 416, batch: int = 16, data: Path | None = None, name: str = "detector",
                   model_yaml: Path | None = None, seed: int = 0, hours: float | None = None,
                   init: Path | None = None, warmup_epochs: float = 3.0, close_mosaic: int = 5) -> Path:
    """Train (or resume) the detector; ``hours`` caps the wall time (ultralytics then fits the schedule to it).

    ``init``: start from these weights instead of the bare YAML (fine-tuning, e.g. a 416 px model at 640 px)."""
    offline_env()
    _torch_one_thread()
    from ultralytics import YOLO, settings

    settings.update({"sync": False})
    data = snapshot_data(Path(data or BUILD / "detect" / "data.yaml"))
    project = RUNS
    last = project / name / "weights" / "last.pt"
    t0 = time.time()
    if last.exists():
        model = YOLO(str(last))
        model.train(resume=True, workers=0, plots=False, amp=False)
    else:
        model = YOLO(str(init or model_yaml or MODELS / "index_det.yaml"))
        model.train(
            data=str(data), epochs=epochs, imgsz=imgsz, batch=batch, workers=0, device="cpu", amp=False, plots=False,
            project=str(project), name=name, exist_ok=True, seed=seed, deterministic=False, pretrained=init is not None,
            warmup_epochs=warmup_epochs, close_mosaic=close_mosaic, fliplr=0.5, mosaic=1.0, scale=0.4, degrees=0.0, patience=100, val=True, verbose=True,
            cache=False, save_period=-1, time=hours,
        )
    _note_time(project / name, time.time() - t0)
    return project / name


def _note_time(run_dir: Path, seconds: float) -> None:
    f = run_dir / "wall_time.json"
    prev = json.loads(f.read_text()) if f.exists() else {"seconds": 0.0, "sessions": 0}
    prev["seconds"] += seconds
    prev["sessions"] += 1
    f.write_text(json.dumps(prev))


# ---------------------------------------------------------------------------------------------------------------
# 2. Crop classifier
# ---------------------------------------------------------------------------------------------------------------


CLASSIFIER_INPUT = 32  # px: the 64 px training crops are shrunk (INTER_AREA) to this; the CPU budget is small


SUIT_CLASSES = ("s", "h", "d", "c")  # the suit look's classes, in CARD_NAMES' suit order
CROPNET_WIDTH = 2  # the committed classifier; width 1 (16-32-64-64, ~0.2 M parameters) underfitted


def make_cropnet(n_classes: int = 52, width: int = CROPNET_WIDTH, input_size: int = CLASSIFIER_INPUT, stem: int = 0):
    """A small CNN for square RGB index crops (32 px: width 2 is conv 32-64-128-128 + FC 256, ~0.8 M parameters,
    ~20 M multiply-adds per crop; 48 px: 2.25x the convolutions). ``stem`` > 0: a first stride-2 convolution with
    that many channels, so a 64 px crop keeps its detail for about the cost of a 32 px one (the rest of the net
    runs at half the input size)."""
    from torch import nn

    def block(cin, cout, stride=1):
        return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    c1, c2, c3 = 16 * width, 32 * width, 64 * width
    head = block(3, stem, 2) if stem else []
    size = input_size // 2 if stem else input_size
    return nn.Sequential(
        *head,
        *block(stem or 3, c1), nn.MaxPool2d(2),  # 16x16
        *block(c1, c2), nn.MaxPool2d(2),  # 8x8
        *block(c2, c3), *block(c3, c3), nn.MaxPool2d(2),  # 4x4 at 32 px: where things are still matters (6 vs 9)
        nn.Flatten(), nn.Dropout(0.3), nn.Linear(c3 * (size // 8) ** 2, 128 * width), nn.ReLU(inplace=True), nn.Dropout(0.2),
        nn.Linear(128 * width, n_classes),
    )


def _readable(folder: Path, min_px: float, min_visible: float) -> set[str] | None:
    """Crop file stems (``NNNNNN_K``) whose index is at least ``min_px`` long and ``min_visible`` uncovered, from the
    scenes' meta files (``detect/meta/<split>``); None when there is no meta (then every crop is used)."""
    meta_dir = folder.parent.parent / "detect" / "meta" / folder.name
    if not meta_dir.is_dir():
        return None
    import numpy as np

    keep = set()
    for mf in meta_dir.glob("*.json"):
        for k, ix in enumerate(json.loads(mf.read_text())["indices"]):
            q = np.array(ix["quad"])
            if max(np.ptp(q[:, 0]), np.ptp(q[:, 1])) >= min_px and ix["visible"] >= min_visible:
                keep.add(f"{mf.stem}_{k}")
    return keep


def crop_classes(crops: Path) -> tuple[str, ...]:
    """The classifier's classes for a crop folder: the 52 cards, then ``none`` when ``train/none`` holds crops."""
    none = Path(crops) / "train" / NONE_CLASS
    return CARD_NAMES + ((NONE_CLASS,) if none.is_dir() and any(none.glob("*.png")) else ())


def _load_crops(folder: Path, size: int = CLASSIFIER_INPUT, min_px: float = 0.0, min_visible: float = 0.0,
                classes: tuple[str, ...] = CARD_NAMES):
    """Crops under ``folder/<class>/*.png`` as uint8 (n, size, size, 3) BGR and labels (index in ``classes``);
    with ``min_px``/``min_visible`` only scene crops (``NNNNNN_K``) of indices at least that long / that uncovered
    (training: unreadable crops only teach noise); crops named with a letter first (negatives ``n...``, rendered
    glyphs ``g...``) have no scene index and are always kept."""
    import cv2
    import numpy as np

    keep = _readable(folder, min_px, min_visible) if (min_px or min_visible) else None
    xs, ys = [], []
    for i, name in enumerate(classes):
        for p in sorted((folder / name).glob("*.png")):
            if keep is not None and p.stem[0].isdigit() and p.stem not in keep:
                continue
            im = cv2.imread(str(p), cv2.IMREAD_COLOR)
            if im is None:
                continue
            if im.shape[0] != size:
                im = cv2.resize(im, (size, size), interpolation=cv2.INTER_AREA)
            xs.append(im)
            ys.append(i)
    if not xs:
        raise FileNotFoundError(f"no crops under {folder}")
    return np.stack(xs), np.array(ys, np.int64)


def _reshape_glyphs(im, rng):
    """Other typefaces, roughly: the index stretched along one axis and sheared (narrow or wide, upright or slanted
    fonts), and its strokes made bolder or lighter by half a pixel (a 3x3 min or max filter at twice the size)."""
    import cv2
    import numpy as np

    n = im.shape[0]
    c = (n - 1) / 2
    if rng.random() < 0.5:
        sx, sy = np.exp(rng.uniform(-0.2, 0.2, 2))
        a = np.array([[sx, rng.uniform(-0.15, 0.15)], [0.0, sy]])
        m = np.c_[a, np.array([c, c]) - a @ np.array([c, c])]
        im = cv2.warpAffine(im, m, (n, n), borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.4:
        big = cv2.resize(im, (2 * n, 2 * n), interpolation=cv2.INTER_LINEAR)
        kernel = np.ones((3, 3), np.uint8)
        big = cv2.erode(big, kernel) if rng.random() < 0.5 else cv2.dilate(big, kernel)  # dark ink: erode = bolder
        im = cv2.resize(big, (n, n), interpolation=cv2.INTER_AREA)
    return im


def _augment(batch, rng, shape: bool = False):
    """Training-time variety on top of the scenes': quarter turns, small rotations, blur, contrast, colour; with
    ``shape``, also other glyph shapes (``_reshape_glyphs``)."""
    import cv2
    import numpy as np

    n = batch.shape[1]
    c = (n - 1) / 2
    out = np.empty_like(batch)
    for k, im in enumerate(batch):
        im = np.rot90(im, rng.integers(4)).copy()
        if shape:
            im = _reshape_glyphs(im, rng)
        if rng.random() < 0.5:
            m = cv2.getRotationMatrix2D((c, c), rng.uniform(-25, 25), rng.uniform(0.9, 1.1))
            im = cv2.warpAffine(im, m, (n, n), borderMode=cv2.BORDER_REPLICATE)
        if rng.random() < 0.2:
            im = cv2.GaussianBlur(im, (0, 0), rng.uniform(0.3, 0.8))
        if rng.random() < 0.2:  # lower resolution: down and up again
            s = int(rng.integers(n // 2, n - 4))
            im = cv2.resize(cv2.resize(im, (s, s), interpolation=cv2.INTER_AREA), (n, n), interpolation=cv2.INTER_LINEAR)
        out[k] = im
    f = out.astype(np.float32) * rng.uniform(0.6, 1.3, (len(out), 1, 1, 1)).astype(np.float32)
    f += rng.uniform(-30, 30, (len(out), 1, 1, 1)).astype(np.float32)
    f *= rng.uniform(0.85, 1.15, (len(out), 1, 1, 3)).astype(np.float32)
    noisy = rng.random(len(out)) < 0.3
    if noisy.any():
        f[noisy] += rng.standard_normal(f[noisy].shape, dtype=np.float32) * 5
    return np.clip(f, 0, 255).astype(np.uint8)


def _to_tensor(torch, batch_bgr):
    import numpy as np

    x = batch_bgr[:, :, :, ::-1].astype(np.float32) / 255.0  # BGR -> RGB, 0..1
    return torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2)))


def evaluate_classifier(model, x, y, torch, batch: int = 512):
    import numpy as np

    model.eval()
    preds = []
    with torch.no_grad():
        for s in range(0, len(x), batch):
            preds.append(model(_to_tensor(torch, x[s : s + batch])).argmax(1).numpy())
    p = np.concatenate(preds)
    return float((p == y).mean()), p


def train_classifier(epochs: int = 8, batch: int = 128, lr: float = 3e-3, crops: Path | None = None, name: str = "classifier",
                     seed: int = 0, log=print, time_budget_s: float | None = None, samples_per_epoch: int = 12000,
                     val_limit: int = 3000, min_px: float = 12.0, min_visible: float = 0.7, init: Path | None = None,
                     input_size: int = CLASSIFIER_INPUT, width: int = CROPNET_WIDTH, val_crops: Path | None = None,
                     target: str = "card", shape_aug: bool = False) -> Path:
    """Train (or resume) the crop classifier. An "epoch" is ``samples_per_epoch`` crops drawn at random (the CPU
    budget allows a few passes over the ~48 k crops at most); held-out top-1 is measured on ``val_limit`` crops.
    ``init``: start from another run's weights; layers whose shape differs (the first FC when ``input_size``
    changes) start afresh. ``width``: the CNN's width (``make_cropnet``); ``val_crops``: the per-epoch check's crop
    folder (default ``crops/val``); the whole-card face classifier uses both (``vision.training.faces``).
    ``target="suit"``: the same card crops labelled by their suit only (``SUIT_CLASSES``: the "suit look" at a
    corner index at a higher resolution than the card classifier's, fused into its probabilities by the detector).
    ``shape_aug``: glyphs stretched, sheared, bolder or lighter (``_reshape_glyphs``) for designs not trained on."""
    import numpy as np

    torch = _torch_one_thread()
    torch.manual_seed(seed)
    crops = Path(crops or BUILD / "crops")
    run = RUNS / name
    run.mkdir(parents=True, exist_ok=True)
    classes = crop_classes(crops) if target == "card" else CARD_NAMES
    xtr, ytr = _load_crops(crops / "train", size=input_size, min_px=min_px, min_visible=min_visible, classes=classes)
    xva, yva = _load_crops(Path(val_crops or crops / "val"), size=input_size, classes=classes)
    if target == "suit":  # CARD_NAMES runs suit by suit, 13 ranks each, in SUIT_CLASSES order
        classes, ytr, yva = SUIT_CLASSES, ytr // 13, yva // 13
    elif target != "card":
        raise ValueError(f"target {target!r}: 'card' or 'suit'")
    sel = np.random.default_rng(seed).permutation(len(xva))[:val_limit]
    xva, yva = xva[sel], yva[sel]
    log(f"classifier: {len(xtr)} training crops, {len(xva)} held-out-design crops for the per-epoch check; "
        f"{len(classes)} classes")
    model = make_cropnet(len(classes), width=width, input_size=input_size)
    log(f"cropnet width {width}, {input_size} px: {sum(p.numel() for p in model.parameters())} parameters; "
        f"training crops: indices >= {min_px} px, >= {min_visible:.0%} visible")
    if init is not None:  # fine-tune from another run's weights (a second cycle, or a larger input)
        mine = model.state_dict()
        theirs = {k: v for k, v in torch.load(init, weights_only=False)["model"].items()
                  if k in mine and v.shape == mine[k].shape}
        model.load_state_dict(theirs, strict=False)
        log(f"starting from {init} ({len(theirs)} of {len(mine)} tensors)")
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    per_epoch = min(samples_per_epoch, len(xtr))
    steps_per_epoch = (per_epoch + batch - 1) // batch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * steps_per_epoch, pct_start=0.15)
    start, history, best = 0, [], 0.0
    ck = run / "last.pt"
    if ck.exists():
        state = torch.load(ck, weights_only=False)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        start, history, best = state["epoch"] + 1, state["history"], state["best"]
        log(f"resuming at epoch {start}")
    t0 = time.time()
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    for epoch in range(start, epochs):
        rng = np.random.default_rng([seed, epoch])
        model.train()
        perm = rng.permutation(len(xtr))[:per_epoch]
        te, tot = time.time(), 0.0
        for s in range(0, len(perm), batch):
            idx = perm[s : s + batch]
            xb = _to_tensor(torch, _augment(xtr[idx], rng, shape=shape_aug))
            yb = torch.from_numpy(ytr[idx])
            loss = loss_fn(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss.detach()) * len(idx)
        _, pred = evaluate_classifier(model, xva, yva, torch)
        cards = yva < min(len(classes), len(CARD_NAMES))
        acc = float((pred[cards] == yva[cards]).mean())  # top-1 on the card crops (comparable with 52 classes)
        row = {"epoch": epoch, "loss": tot / len(perm), "val_top1": acc, "seconds": time.time() - te}
        note = ""
        if (~cards).any():  # negatives: how many are called "none", and how many card crops are lost to it
            row["none_recall"] = float((pred[~cards] == len(CARD_NAMES)).mean())
            row["cards_called_none"] = float((pred[cards] == len(CARD_NAMES)).mean())
            note = f", none: {row['none_recall']:.3f} of negatives, {row['cards_called_none']:.3f} of cards"
        history.append(row)
        log(f"epoch {epoch + 1}/{epochs} loss {tot / len(perm):.3f} held-out top-1 {acc:.4f}{note} "
            f"({time.time() - te:.0f} s)")
        if acc >= best:
            best = acc
            torch.save({"model": model.state_dict(), "epoch": epoch, "val_top1": acc, "input_size": input_size,
                        "classes": list(classes), "width": width}, run / "best.pt")
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "epoch": epoch,
                    "history": history, "best": best, "input_size": input_size, "classes": list(classes),
                    "width": width, "val_top1": acc}, ck)
        if time_budget_s and time.time() - t0 > time_budget_s:
            log("time budget spent: stopping (resume continues from last.pt)")
            break
    _note_time(run, time.time() - t0)
    (run / "history.json").write_text(json.dumps(history, indent=1))
    return run


# ---------------------------------------------------------------------------------------------------------------
# 3. Export
# ---------------------------------------------------------------------------------------------------------------


def export_classifier(run: Path | None = None, out: Path = MODELS, opset: int = 17, filename: str = "classifier",
                      checkpoint: str = "best.pt", description: str | None = None) -> Path:
    """A classifier run's ``checkpoint`` -> ``out/<filename>.onnx`` (softmax inside) + ``.pt``; the corner-index
    classifier by default, the whole-card face classifier with ``filename="cardface"``."""
    import numpy as np

    torch = _torch_one_thread()
    run = Path(run or RUNS / "classifier")
    state = torch.load(run / checkpoint, weights_only=False)
    size = int(state.get("input_size", CLASSIFIER_INPUT))
    classes = tuple(state.get("classes", CARD_NAMES))
    width = int(state.get("width", CROPNET_WIDTH))
    stem = int(state.get("stem", 0))
    model = make_cropnet(len(classes), width=width, input_size=size, stem=stem)
    model.load_state_dict(state["model"])
    model.eval()
    full = torch.nn.Sequential(model, torch.nn.Softmax(dim=1)).eval()
    out.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model.state_dict(), "classes": list(classes),
                "arch": f"vision.training.train.make_cropnet({len(classes)}, width={width}, input_size={size}"
                        + (f", stem={stem})" if stem else ")"),
                "input": f"nx3x{size}x{size} RGB 0..1", "val_top1": state.get("val_top1")}, out / f"{filename}.pt")
    n = size
    dummy = torch.zeros(1, 3, n, n)
    onnx_path = out / f"{filename}.onnx"
    torch.onnx.export(full, dummy, str(onnx_path), input_names=["images"], output_names=["probs"], opset_version=opset,
                      dynamic_axes={"images": {0: "batch"}, "probs": {0: "batch"}}, dynamo=False)
    import onnx

    m = onnx.load(str(onnx_path))
    what = "52 card probabilities" + (" + none (no index)" if NONE_CLASS in classes else "")
    meta = {"names": str({i: n for i, n in enumerate(classes)}), "imgsz": f"[{n}, {n}]", "task": "classify",
            "description": description or f"Patience Lens corner-index classifier (64 px crop shrunk to {n}x{n}, "
                                          f"RGB 0..1 -> {what})"}
    for k, v in meta.items():
        p = m.metadata_props.add()
        p.key, p.value = k, v
    onnx.save(m, str(onnx_path))
    # check: onnxruntime agrees with torch
    import onnxruntime as ort

    x = np.random.default_rng(0).random((2, 3, n, n), dtype=np.float32)
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    sess = ort.InferenceSession(str(onnx_path), so, providers=["CPUExecutionProvider"])
    a = sess.run(None, {"images": x})[0]
    with torch.no_grad():
        b = full(torch.from_numpy(x)).numpy()
    assert np.abs(a - b).max() < 1e-4, "ONNX and torch disagree"
    return onnx_path


def blend_classifiers(base: Path, tuned: Path, share: float, out: Path) -> Path:
    """Weights ``(1 - share) * base + share * tuned`` of two checkpoints of one classifier shape (a fine-tune and
    the model it started from), saved as ``out/blend.pt`` for ``export_classifier``. Such a blend keeps most of
    what the fine-tune learned and most of what it forgot (weight-space ensembles, "WiSE-FT")."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"share {share} is not between 0 and 1")
    torch = _torch_one_thread()
    a = torch.load(base, map_location="cpu", weights_only=False)
    b = torch.load(tuned, map_location="cpu", weights_only=False)
    if a["model"].keys() != b["model"].keys() or any(a["model"][k].shape != v.shape for k, v in b["model"].items()):
        raise ValueError(f"{base} and {tuned} are not the same classifier shape")
    if list(a.get("classes", CARD_NAMES)) != list(b.get("classes", CARD_NAMES)):
        raise ValueError(f"{base} and {tuned} name different classes")
    shape = {k: b.get(k, a.get(k)) for k in ("width", "input_size", "stem") if k in b or k in a}
    if "width" not in shape:  # an exported .pt keeps only its architecture's text
        raise ValueError(f"neither {base} nor {tuned} is a training checkpoint that records its width and input size")
    mixed = {k: ((1 - share) * a["model"][k].float() + share * v.float()).to(v.dtype) if v.is_floating_point()
             else v for k, v in b["model"].items()}
    out.mkdir(parents=True, exist_ok=True)
    torch.save({**b, **shape, "model": mixed, "val_top1": None,
                "blend": {"base": str(base), "tuned": str(tuned), "share": share}}, out / "blend.pt")
    return out / "blend.pt"


def export_detector(run: Path | None = None, out: Path = MODELS, opset: int = 17, imgsz: int = 416,
                    dynamic: bool = False) -> Path:
    """best.pt of a run -> ``out/detector.onnx`` (+ a stripped ``detector.pt``). ``dynamic``: height and width
    are free (the long side ``imgsz``), so a 640x480 frame is not padded to a square (``OnnxYolo.target_hw``)."""
    offline_env()
    _torch_one_thread()
    from ultralytics import YOLO

    run = Path(run or RUNS / "detector")
    weights = run / "weights" / "best.pt"
    if not weights.exists():
        weights = run / "weights" / "last.pt"
    model = YOLO(str(weights))
    f = Path(model.export(format="onnx", imgsz=imgsz, simplify=False, opset=opset, dynamic=dynamic, half=False))
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(f, out / "detector.onnx")
    from ultralytics.utils.torch_utils import strip_optimizer

    strip_optimizer(str(weights), str(out / "detector.pt"))  # weights only (EMA, half precision): a few MB
    return out / "detector.onnx"


def write_manifest(out: Path = MODELS, imgsz: int = 416) -> Path:
    """``out/vision.json`` (:data:`vision.model_files.MANIFEST`); the classifier's classes are read from the exported ``classifier.pt``."""
    from vision.training.scenes import CLASS_NAMES, CROP_EXPAND, CROP_SIZE

    classes = list(CARD_NAMES)
    if (out / "classifier.pt").is_file():
        torch = _torch_one_thread()
        classes = list(torch.load(out / "classifier.pt", weights_only=False).get("classes", classes))
    m = {
        "detector": {"file": "detector.onnx", "classes": list(CLASS_NAMES), "imgsz": imgsz},
        "classifier": {"file": "classifier.onnx", "classes": classes, "crop_size": CROP_SIZE,
                       "crop_pad": round((CROP_EXPAND - 1) / 2, 4)},
    }
    path = out / MANIFEST
    old = json.loads(path.read_text()) if path.is_file() else {}
    for key in ("cardface", "suitlook", "pips"):  # the second looks' entries stay
        if key in old:
            m[key] = old[key]
    for key in ("thin_weight", "thin_min_px"):  # and the thin look's
        if key in old.get("classifier", {}):
            m["classifier"][key] = old["classifier"][key]
    path.write_text(json.dumps(m, indent=1) + "\n")
    return path


def write_face_manifest(out: Path = MODELS, weight: float = 1.0, fuse: str = "card", file: str = "cardface.onnx") -> Path:
    """Add the whole-card face classifier to ``out/vision.json`` (``cardface``: file, classes, crop recipe, how its
    probabilities are fused with the corner votes: ``fuse`` "card" (all 52) or "suit", exponent ``weight``)."""
    from vision.crops import FACE_PAD, FACE_SIZE

    torch = _torch_one_thread()
    classes = list(torch.load(out / Path(file).with_suffix(".pt").name, weights_only=False)["classes"])
    path = out / "vision.json"
    m = json.loads(path.read_text())
    m["cardface"] = {"file": file, "classes": classes, "crop_size": FACE_SIZE, "crop_pad": FACE_PAD,
                     "weight": weight, "fuse": fuse}
    path.write_text(json.dumps(m, indent=1) + "\n")
    return path


def write_suit_manifest(out: Path = MODELS, weight: float = 1.0, below: float = 1.01,
                        file: str = "suitlook.onnx") -> Path:
    """Add the suit look to ``out/vision.json`` (``suitlook``: file, classes, crop recipe = the index crop's, the
    exponent ``weight`` of its probabilities and ``below``: only corners whose own best suit is less sure get it)."""
    from vision.training.scenes import CROP_EXPAND, CROP_SIZE

    torch = _torch_one_thread()
    classes = list(torch.load(out / Path(file).with_suffix(".pt").name, weights_only=False)["classes"])
    path = out / "vision.json"
    m = json.loads(path.read_text())
    m["suitlook"] = {"file": file, "classes": classes, "crop_size": CROP_SIZE,
                     "crop_pad": round((CROP_EXPAND - 1) / 2, 4), "weight": weight, "below": below}
    path.write_text(json.dumps(m, indent=1) + "\n")
    return path

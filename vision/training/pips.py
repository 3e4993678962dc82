"""Training the pip look (``models/pips.onnx``): a tiny CNN that names the suit of one pip silhouette.

The silhouettes are cut by ``vision.pips.pip_shapes`` (the same code that reads them at run time) from the whole
cards of rendered training scenes (``datasets/build`` and, where rendered, the procedural decks' scenes of
``datasets/procbuild``), so they carry the scenes' perspective, blur, light and JPEG. Aces and number cards label
their blobs with the card's suit; the blobs of Jacks, Queens and Kings (pictures) are ``none``. The scenes hold
only training designs: the held-out designs never reach this set.

    patience train pips --wire     # cut the silhouettes (~1 min, cached), train (~4 min on one core), export
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from vision.model_files import MANIFEST, TABLE_SUBDIR
from vision.pips import PIP_SIZE, pip_shapes
from vision.training.train import BUILD, MODELS, REPO, RUNS, _torch_one_thread

PIP_CLASSES = ("s", "h", "d", "c", "none")
PIP_SET = BUILD / "pips.npz"
SCENE_ROOTS = (BUILD / "detect", REPO / "datasets" / "procbuild" / "detect")


def scene_metas(roots=SCENE_ROOTS, split: str = "train") -> list[Path]:
    """The scenes' meta files (one a rendered picture) under ``roots``."""
    return [m for r in roots for m in sorted((Path(r) / "meta" / split).glob("*.json"))]


def cut_pip_set(roots=SCENE_ROOTS, out: Path = PIP_SET, split: str = "train", seed: int = 0,
                progress=None) -> Path:
    """Silhouettes of every whole card (meta ``cards``) in the scenes under ``roots`` -> ``out`` (npz: ``x``
    uint8 (n, 32, 32), ``y`` class index, ``card`` the card a blob came from, for a split by card). Each card box is
    jittered by up to 4 % a side, like a detector's box."""
    import cv2

    rng = np.random.default_rng(seed)
    xs, ys, cards = [], [], []
    card_no = 0
    metas = scene_metas(roots, split)
    for k, mf in enumerate(metas):
        img_path = mf.parent.parent.parent / "images" / split / (mf.stem + ".jpg")
        if not img_path.is_file():
            img_path = img_path.with_suffix(".png")
        image = cv2.imread(str(img_path))
        if image is None:
            continue
        for c in json.loads(mf.read_text()).get("cards", []):
            name, box = c["card"], np.array(c["box"], np.float64)
            w, h = box[2] - box[0], box[3] - box[1]
            box += rng.uniform(-0.04, 0.04, 4) * np.array([w, h, w, h])
            readings = pip_shapes(image, box)
            if len(readings) != 1 or not len(readings[0]):  # a card seen at a slant: which side is long is a guess
                continue
            shapes = readings[0]
            label = PIP_CLASSES.index("none") if name[:-1] in ("J", "Q", "K") else PIP_CLASSES.index(name[-1])
            xs.append((shapes * 255).round().astype(np.uint8))
            ys.append(np.full(len(shapes), label, np.int64))
            cards.append(np.full(len(shapes), card_no, np.int64))
            card_no += 1
        if progress is not None:
            progress(k + 1, len(metas))
    if not xs:
        raise FileNotFoundError(f"no whole card with pips in the scenes under {', '.join(map(str, roots))}: "
                                "run `patience dataset build` first")
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, x=np.concatenate(xs), y=np.concatenate(ys), card=np.concatenate(cards))
    return out


def make_pipnet(n_classes: int = len(PIP_CLASSES)):
    """Conv 16-32-64 on a 32x32 silhouette + FC 64 (~90 k parameters, ~3 M multiply-adds a pip)."""
    from torch import nn

    def block(cin, cout):
        return [nn.Conv2d(cin, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    return nn.Sequential(*block(1, 16), nn.MaxPool2d(2), *block(16, 32), nn.MaxPool2d(2), *block(32, 64),
                         nn.MaxPool2d(2), nn.Flatten(), nn.Dropout(0.2), nn.Linear(64 * 16, 64), nn.ReLU(inplace=True),
                         nn.Linear(64, n_classes))


def augment(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Silhouettes turned a little (the cards are straightened first), mirrored, a little thicker or thinner, and as
    seen small (down to 8 px) or blurred."""
    import cv2

    out = np.empty_like(x, dtype=np.float32)
    c = (PIP_SIZE - 1) / 2
    for i, s in enumerate(x.astype(np.float32) / 255.0):
        m = cv2.getRotationMatrix2D((c, c), float(rng.uniform(-15, 15)), float(rng.uniform(0.85, 1.1)))
        m[:, 2] += rng.uniform(-1.5, 1.5, 2)
        s = cv2.warpAffine(s, m, (PIP_SIZE, PIP_SIZE), flags=cv2.INTER_LINEAR, borderValue=0.0)
        if rng.random() < 0.5:
            s = s[:, ::-1]
        r = rng.random()
        if r < 0.2:
            s = cv2.dilate(s, np.ones((2, 2), np.float32))
        elif r < 0.4:
            s = cv2.erode(s, np.ones((2, 2), np.float32))
        if rng.random() < 0.5:
            k = int(rng.integers(8, 24))
            s = cv2.resize(cv2.resize(s, (k, k), interpolation=cv2.INTER_AREA), (PIP_SIZE, PIP_SIZE),
                           interpolation=cv2.INTER_LINEAR)
        out[i] = s
    return out


def train_pips(data: Path = PIP_SET, name: str = "pips", epochs: int = 12, batch: int = 256, lr: float = 3e-3,
               hours: float | None = None, seed: int = 0, log=print) -> Path:
    """Train the pip net on ``data`` (a tenth of the cards held back for choosing the epoch) -> ``runs/<name>/best.pt``."""
    torch = _torch_one_thread()
    d = np.load(data)
    x, y, card = d["x"], d["y"], d["card"]
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    val_cards = rng.random(int(card.max()) + 1) < 0.1
    vmask = val_cards[card]
    xt, yt, xv, yv = x[~vmask], y[~vmask], x[vmask], y[vmask]
    counts = np.bincount(yt, minlength=len(PIP_CLASSES))
    log(f"pips: {len(xt)} training silhouettes {dict(zip(PIP_CLASSES, counts.tolist()))}, {len(xv)} held back")
    model = make_pipnet()
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * (len(xt) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(1, steps))
    weight = torch.tensor((counts.sum() / np.maximum(counts, 1) / len(counts)) ** 0.5, dtype=torch.float32)
    loss_fn = torch.nn.CrossEntropyLoss(weight=weight, label_smoothing=0.05)
    xv_t = torch.from_numpy(xv.astype(np.float32)[:, None] / 255.0)
    run = RUNS / name
    run.mkdir(parents=True, exist_ok=True)
    best, t0 = -1.0, time.monotonic()
    for epoch in range(epochs):
        model.train()
        order = rng.permutation(len(xt))
        for b in range(len(xt) // batch):
            j = order[b * batch:(b + 1) * batch]
            xb = torch.from_numpy(augment(xt[j], rng)[:, None])
            loss = loss_fn(model(xb), torch.from_numpy(yt[j]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        model.eval()
        with torch.no_grad():
            pred = torch.cat([model(xv_t[i:i + 2048]).argmax(1) for i in range(0, len(xv_t), 2048)]).numpy()
        acc = float((pred == yv).mean())
        suit = yv < 4
        log(f"epoch {epoch + 1}/{epochs}: held-back top-1 {acc:.4f} (pips {float((pred[suit] == yv[suit]).mean()):.4f}), "
            f"loss {float(loss.detach()):.3f}, {time.monotonic() - t0:.0f} s")
        if acc > best:
            best = acc
            torch.save({"model": model.state_dict(), "classes": list(PIP_CLASSES), "epoch": epoch + 1,
                        "val_top1": acc}, run / "best.pt")
        if hours is not None and time.monotonic() - t0 > hours * 3600:
            break
    return run / "best.pt"


def export_pips(checkpoint: Path = RUNS / "pips" / "best.pt", out: Path = MODELS, weight: float = 1.0,
                min_pips: float = 1.0, table_weight: float | None = None) -> Path:
    """``checkpoint`` -> ``out/pips.onnx`` (softmax inside, input (n, 1, 32, 32) silhouettes 0..1) + ``pips.pt``, and
    the manifest entry ``pips`` (classes, the fusion exponent ``weight``, ``min_pips``: the summed pip weight
    of a card from which its evidence counts fully; ``Detector.fuse_pips`` counts less in proportion);
    ``table_weight``: the photo models' exponent (``out/table``), if not ``weight``."""
    import onnx

    torch = _torch_one_thread()
    state = torch.load(checkpoint, weights_only=False)
    model = make_pipnet(len(state["classes"]))
    model.load_state_dict(state["model"])
    full = torch.nn.Sequential(model, torch.nn.Softmax(dim=1)).eval()
    torch.save({**state, "arch": "vision.training.pips.make_pipnet()", "input": "nx1x32x32 silhouette 0..1"},
               out / "pips.pt")
    path = out / "pips.onnx"
    torch.onnx.export(full, torch.zeros(1, 1, PIP_SIZE, PIP_SIZE), str(path), input_names=["images"],
                      output_names=["probs"], opset_version=17,
                      dynamic_axes={"images": {0: "batch"}, "probs": {0: "batch"}}, dynamo=False)
    m = onnx.load(str(path))
    for k, v in {"names": str(dict(enumerate(state["classes"]))), "imgsz": f"[{PIP_SIZE}, {PIP_SIZE}]",
                 "task": "classify",
                 "description": "Patience Lens pip look: the suit of one pip silhouette (vision.pips), or none"}.items():
        p = m.metadata_props.add()
        p.key, p.value = k, v
    onnx.save(m, str(path))
    write_pip_manifest(out, weight, min_pips, list(state["classes"]), table_weight)
    return path


def write_pip_manifest(out: Path, weight: float, min_pips: float, classes: list[str],
                       table_weight: float | None = None) -> Path:
    """Add the pip look to ``out/vision.json`` (``pips``: file, classes, fusion exponent, least pip weight), and to
    ``out/table/vision.json`` where that folder exists (the photo models share the main folder's pip look, with the
    exponent ``table_weight`` where given: their index classifier is surer of itself, also where it is wrong)."""
    path = out / MANIFEST
    table = (out / TABLE_SUBDIR / MANIFEST, "../pips.onnx", weight if table_weight is None else table_weight)
    for manifest, file, w in ((path, "pips.onnx", weight), table):
        if manifest == path or manifest.exists():
            m = json.loads(manifest.read_text())
            m["pips"] = {"file": file, "classes": classes, "weight": w, "min_pips": min_pips}
            manifest.write_text(json.dumps(m, indent=1) + "\n")
    return path

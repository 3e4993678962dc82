"""Figures for the model card (``patience train report``), all on the HELD-OUT designs' rendered val set.

- detector: ultralytics val of ``runs/detector`` best weights on ``datasets/build/detect`` (val = held-out designs):
  precision, recall, mAP50, mAP50-95 per class;
- classifier: top-1 of ``models/classifier.onnx`` (onnxruntime, one thread) on ``datasets/build/crops/val``,
  per-rank / per-suit accuracy and the most frequent confusions;
- end to end: for every labelled index of the val scenes (at least 8 px long), does the ONNX detector find a box
  (IoU >= 0.5) and does the classifier, fed the crop of the DETECTED box, name the right card.

Writes ``models/metrics.json``.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

import numpy as np

from vision.training.train import BUILD, CARD_NAMES, MODELS, NONE_CLASS, RUNS, _load_crops, offline_env


def detector_val(imgsz: int = 416, run: Path | None = None) -> dict:
    offline_env()
    import torch

    torch.set_num_threads(1)
    from ultralytics import YOLO

    run = Path(run or RUNS / "detector")
    w = run / "weights" / "best.pt"
    if not w.exists():
        w = run / "weights" / "last.pt"
    model = YOLO(str(w))
    r = model.val(data=str(BUILD / "detect" / "data.yaml"), imgsz=imgsz, batch=8, workers=0, plots=False, device="cpu",
                  verbose=False, project=str(RUNS), name="report_val", exist_ok=True)
    out = {"weights": str(w.relative_to(RUNS.parent)), "imgsz": imgsz}
    names = r.names
    for i, c in enumerate(r.box.ap_class_index):
        p, rc, ap50, ap = r.box.class_result(i)
        out[names[int(c)]] = {"precision": round(float(p), 4), "recall": round(float(rc), 4), "mAP50": round(float(ap50), 4),
                              "mAP50-95": round(float(ap), 4)}
    out["all"] = {"mAP50": round(float(r.box.map50), 4), "mAP50-95": round(float(r.box.map), 4)}
    return out


def _session(path):
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])


def _classify(sess, crops_bgr, batch=256):
    probs = []
    for s in range(0, len(crops_bgr), batch):
        x = crops_bgr[s : s + batch][:, :, :, ::-1].astype(np.float32).transpose(0, 3, 1, 2) / 255.0
        probs.append(sess.run(None, {sess.get_inputs()[0].name: np.ascontiguousarray(x)})[0])
    return np.concatenate(probs)


def classifier_val(path: Path = MODELS / "classifier.onnx") -> dict:
    sess = _session(path)
    size = int(sess.get_inputs()[0].shape[-1])  # the classifier's input: 64 px crops are shrunk to it
    classes = _class_names(sess)
    x, y = _load_crops(BUILD / "crops" / "val", size=size)  # the card crops (labels = CARD_NAMES index)
    t = time.time()
    p = _classify(sess, x)
    ms = (time.time() - t) / len(x) * 1000
    pred = p.argmax(1)
    ok = pred == y
    name = lambda i: classes[i] if classes[i] != NONE_CLASS else "none-"  # noqa: E731
    rank = lambda i: name(i)[:-1]  # noqa: E731
    suit = lambda i: name(i)[-1]  # noqa: E731
    rank_ok = np.array([rank(a) == rank(b) for a, b in zip(pred, y)])
    suit_ok = np.array([suit(a) == suit(b) for a, b in zip(pred, y)])
    conf = Counter((name(b).rstrip("-"), name(a).rstrip("-")) for a, b in zip(pred, y) if a != b)
    rank_conf = Counter((rank(b), rank(a)) for a, b in zip(pred, y) if rank(a) != rank(b))
    suit_conf = Counter((suit(b), suit(a)) for a, b in zip(pred, y) if suit(a) != suit(b))
    x12, y12 = _load_crops(BUILD / "crops" / "val", size=size, min_px=12.0, min_visible=0.7)
    ok12 = _classify(sess, x12).argmax(1) == y12
    extra = {}
    if NONE_CLASS in classes and (BUILD / "crops" / "val" / NONE_CLASS).is_dir():
        xn, _ = _load_crops(BUILD / "crops" / "val", size=size, classes=(NONE_CLASS,))
        extra = {"negatives": int(len(xn)),
                 "negatives_called_none": round(float((_classify(sess, xn).argmax(1) == classes.index(NONE_CLASS)).mean()), 4),
                 "cards_called_none": round(float((pred == classes.index(NONE_CLASS)).mean()), 4)}
    return {
        "crops": int(len(y)),
        "top1": round(float(ok.mean()), 4),
        "crops_12px_70pc_visible": int(len(y12)),
        "top1_12px_70pc_visible": round(float(ok12.mean()), 4),
        "rank_accuracy": round(float(rank_ok.mean()), 4),
        "suit_accuracy": round(float(suit_ok.mean()), 4),
        "ms_per_crop_batched": round(ms, 3),
        "top_confusions": [f"{a}->{b}: {n}" for (a, b), n in conf.most_common(15)],
        "rank_confusions": [f"{a}->{b}: {n}" for (a, b), n in rank_conf.most_common(12)],
        "suit_confusions": [f"{a}->{b}: {n}" for (a, b), n in suit_conf.most_common(8)],
        **extra,
    }


def _class_names(sess) -> list[str]:
    """The classifier's class names from its ONNX metadata (the 52 cards when it has none)."""
    from vision.onnx_backend import session_metadata

    names = session_metadata(sess).get("names")
    return [str(names[k]) for k in sorted(names)] if isinstance(names, dict) else list(CARD_NAMES)


def _letterbox(img, size):
    import cv2

    h, w = img.shape[:2]
    r = min(size / h, size / w)
    nh, nw = int(round(h * r)), int(round(w * r))
    top, left = (size - nh) // 2, (size - nw) // 2
    out = np.full((size, size, 3), 114, np.uint8)
    out[top : top + nh, left : left + nw] = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_LINEAR)
    return out, r, left, top


def _nms(boxes, scores, iou=0.5):
    order = scores.argsort()[::-1]
    keep = []
    while len(order):
        i = order[0]
        keep.append(i)
        if len(order) == 1:
            break
        rest = order[1:]
        xx0 = np.maximum(boxes[i, 0], boxes[rest, 0]); yy0 = np.maximum(boxes[i, 1], boxes[rest, 1])
        xx1 = np.minimum(boxes[i, 2], boxes[rest, 2]); yy1 = np.minimum(boxes[i, 3], boxes[rest, 3])
        inter = np.clip(xx1 - xx0, 0, None) * np.clip(yy1 - yy0, 0, None)
        a = (boxes[i, 2] - boxes[i, 0]) * (boxes[i, 3] - boxes[i, 1])
        b = (boxes[rest, 2] - boxes[rest, 0]) * (boxes[rest, 3] - boxes[rest, 1])
        order = rest[inter / (a + b - inter + 1e-9) < iou]
    return np.array(keep, int)


def _iou(a, b):
    xx0, yy0 = max(a[0], b[0]), max(a[1], b[1])
    xx1, yy1 = min(a[2], b[2]), min(a[3], b[3])
    inter = max(0.0, xx1 - xx0) * max(0.0, yy1 - yy0)
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter + 1e-9)


def end_to_end(imgsz: int = 416, conf: float = 0.25, limit: int | None = None) -> dict:
    """Per labelled index (>= 8 px) of the held-out val scenes: found by the ONNX detector? named right?"""
    import cv2

    from vision.training.scenes import crop_index

    det = _session(MODELS / "detector.onnx")
    clf = _session(MODELS / "classifier.onnx")
    clf_names = _class_names(clf)
    metas = sorted((BUILD / "detect" / "meta" / "val").glob("*.json"))[:limit]
    n_gt = found = named = n_pred = false_pos = 0
    t_det = 0.0
    for m in metas:
        meta = json.loads(m.read_text())
        img = cv2.imread(str(BUILD / "detect" / "images" / "val" / (m.stem + ".jpg")))
        lb, r, left, top = _letterbox(img, imgsz)
        x = lb[:, :, ::-1].astype(np.float32).transpose(2, 0, 1)[None] / 255.0
        t = time.time()
        out = det.run(None, {det.get_inputs()[0].name: np.ascontiguousarray(x)})[0][0]  # (6, N)
        t_det += time.time() - t
        cls_scores = out[4:]
        sc = cls_scores[0]  # class 0: index
        keep = sc > conf
        b = out[:4, keep].T
        s = sc[keep]
        boxes = np.stack([b[:, 0] - b[:, 2] / 2, b[:, 1] - b[:, 3] / 2, b[:, 0] + b[:, 2] / 2, b[:, 1] + b[:, 3] / 2], 1) if len(b) else np.zeros((0, 4))
        if len(boxes):
            k = _nms(boxes, s)
            boxes = boxes[k]
        boxes = (boxes - [left, top, left, top]) / r
        n_pred += len(boxes)
        gts = []
        for ix in meta["indices"]:
            q = np.array(ix["quad"])
            g = (q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max())
            gts.append((g, ix["card"]))
        used = set()
        matched_pred = set()
        for g, card in gts:
            if max(g[2] - g[0], g[3] - g[1]) < 8:
                continue
            n_gt += 1
            best, bj = 0.0, -1
            for j, pb in enumerate(boxes):
                if j in used:
                    continue
                v = _iou(g, pb)
                if v > best:
                    best, bj = v, j
            if best >= 0.5:
                used.add(bj)
                matched_pred.add(bj)
                found += 1
                crop = crop_index(img, boxes[bj])  # 64 px, then shrunk to the classifier's input like the training crops
                n = clf.get_inputs()[0].shape[-1]
                crop = cv2.resize(crop, (n, n), interpolation=cv2.INTER_AREA)[None]
                p = _classify(clf, crop)[0]
                named += clf_names[int(p.argmax())] == card
        # unmatched predictions that overlap no label at all (tiny labels excluded above still count as matches)
        for j, pb in enumerate(boxes):
            if j not in matched_pred and all(_iou(g, pb) < 0.3 for g, _ in gts):
                false_pos += 1
    return {
        "scenes": len(metas),
        "indices_8px_or_more": n_gt,
        "found_iou50": round(found / max(n_gt, 1), 4),
        "named_right_of_all": round(named / max(n_gt, 1), 4),
        "named_right_of_found": round(named / max(found, 1), 4),
        "unmatched_boxes_per_scene": round(false_pos / max(len(metas), 1), 3),
        "detector_ms_per_picture_onnx_1thread": round(t_det / max(len(metas), 1) * 1000, 1),
        "conf": conf,
    }


def report(imgsz: int = 416, out: Path = MODELS / "metrics.json", data_seconds: float | None = None,
           readme: Path = MODELS / "README.md", run: str = "detector", classifier_run: str = "classifier") -> Path:
    """All figures -> ``out`` and the model card's metrics table; ``run`` / ``classifier_run``: the detector's and
    the classifier's run folders in runs/ (for their training times)."""
    res = {}
    if data_seconds is not None:
        res["data_wall_s"] = round(data_seconds)
    if (RUNS / run).exists():
        res["detector_val_heldout"] = detector_val(imgsz, RUNS / run)
    if (MODELS / "classifier.onnx").exists():
        res["classifier_val_heldout"] = classifier_val()
    if (MODELS / "detector.onnx").exists() and (MODELS / "classifier.onnx").exists():
        res["end_to_end_val_heldout"] = end_to_end(imgsz)
    for key, name in (("detector", run), ("classifier", classifier_run)):
        f = RUNS / name / "wall_time.json"
        if f.exists():
            res[f"{key}_training_wall_s"] = round(json.loads(f.read_text())["seconds"])
    csv = RUNS / run / "results.csv"
    if csv.exists():
        res["detector_epochs"] = max(0, len(csv.read_text().strip().splitlines()) - 1)
    hist = RUNS / classifier_run / "history.json"
    if hist.exists():
        res["classifier_epochs"] = len(json.loads(hist.read_text()))
    out.write_text(json.dumps(res, indent=1) + "\n")
    if readme.exists():
        fill_readme(res, readme)
    return out


START, END = "<!-- metrics:start -->", "<!-- metrics:end -->"


def fill_readme(res: dict, readme: Path) -> None:
    """Replace the text between the metrics markers of the model card with a table of ``res``."""
    rows = ["| figure | value |", "|---|---|"]

    def add(k, v):
        rows.append(f"| {k} | {v} |")

    d = res.get("detector_val_heldout", {})
    for cls in ("index", "card"):
        if cls in d:
            c = d[cls]
            add(f"detector `{cls}` P / R / mAP50 / mAP50-95 (held-out designs, {d.get('imgsz')} px)",
                f"{c['precision']:.3f} / {c['recall']:.3f} / {c['mAP50']:.3f} / {c['mAP50-95']:.3f}")
    c = res.get("classifier_val_heldout")
    if c:
        add(f"classifier top-1 on all {c['crops']} held-out-design crops (indices >= 8 px)", f"{c['top1']:.4f}")
        if "top1_12px_70pc_visible" in c:
            add(f"classifier top-1 on the {c['crops_12px_70pc_visible']} of them >= 12 px and >= 70 % visible",
                f"{c['top1_12px_70pc_visible']:.4f}")
        add("classifier rank / suit accuracy", f"{c['rank_accuracy']:.4f} / {c['suit_accuracy']:.4f}")
        add("classifier ms per crop (onnxruntime, 1 thread, batches of 256)", c["ms_per_crop_batched"])
    e = res.get("end_to_end_val_heldout")
    if e:
        add(f"end to end: labelled indices >= 8 px found (IoU 0.5, conf {e['conf']})", f"{e['found_iou50']:.4f} of {e['indices_8px_or_more']}")
        add("end to end: named right (of all / of found)", f"{e['named_right_of_all']:.4f} / {e['named_right_of_found']:.4f}")
        add("end to end: boxes overlapping no label, per picture", e["unmatched_boxes_per_scene"])
        add("detector ms per picture (ONNX, 1 thread)", e["detector_ms_per_picture_onnx_1thread"])
    for k in ("data_wall_s", "detector_training_wall_s", "detector_epochs", "classifier_training_wall_s", "classifier_epochs"):
        if k in res:
            add(k, res[k])
    if c:
        rows.append("")
        rows.append("Most frequent classifier confusions (true->predicted: count): " + ", ".join(c["top_confusions"][:12]))
        rows.append("")
        rows.append("Rank confusions: " + ", ".join(c["rank_confusions"][:10]) + ". Suit confusions: " + ", ".join(c["suit_confusions"][:6]) + ".")
    text = readme.read_text()
    block = START + "\n" + "\n".join(rows) + "\n" + END
    if START in text and END in text:
        a, b = text.index(START), text.index(END) + len(END)
        text = text[:a] + block + text[b:]
    else:
        text = text.rstrip() + "\n\n## Measured\n\n" + block + "\n"
    readme.write_text(text)

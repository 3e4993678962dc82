"""ONNX Runtime adapters: the only place that touches onnxruntime. Both return numpy / ``Detections``.

Sessions run sequentially (``inter_op_num_threads=1``) on ``threads`` intra-op threads (default 1) that never
spin-wait (``session.intra_op.allow_spinning=0``): ORT's default spin-waiting pools are 5-70x slower on a 2-core
machine when anything else runs; without spinning, 2 threads cut the detector's time on an idle 2-core machine
by ~1.4x and cost nothing when the other core is busy (docs/BENCHMARKS.md).

- :class:`OnnxYolo`: an ultralytics detection export. Raw output ``(1, 4 + nc, N)`` (cx, cy, w, h in input pixels,
  class scores after sigmoid), or an end-to-end export ``(1, K, 6)`` (x1, y1, x2, y2, score, class). Class names
  and input size come from the ONNX metadata ultralytics writes, unless given.
- :class:`OnnxClassifier`: input ``(n, 3, S, S)`` RGB 0..1, output ``(n, classes)`` probabilities or logits.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

from vision.boxes import Letterbox, letterbox
from vision.detections import Detections


class ModelFileError(ValueError):
    """A model file that is missing or cannot be loaded; the message names the file."""


def make_session(path: str | Path, threads: int = 1):
    """An ORT CPU session on ``threads`` non-spinning intra-op threads; a clear error for a missing or bad file."""
    import onnxruntime as ort

    path = Path(path)
    if not path.is_file():
        raise ModelFileError(f"model file {path} not found")
    so = ort.SessionOptions()
    so.intra_op_num_threads = max(1, int(threads))
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.log_severity_level = 3
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own exception types
        raise ModelFileError(f"model file {path} could not be loaded ({str(exc).splitlines()[0][:120]})") from exc


def session_metadata(session) -> dict[str, object]:
    """ultralytics' metadata (``names``, ``imgsz``, ``task``, ``end2end``...) parsed to Python values."""
    out: dict[str, object] = {}
    for k, v in session.get_modelmeta().custom_metadata_map.items():
        try:
            out[k] = ast.literal_eval(v)
        except (ValueError, SyntaxError):
            out[k] = v
    return out


def _names(meta_names, given) -> list[str] | None:
    if given is not None:
        return [str(x) for x in given]
    if isinstance(meta_names, dict):
        return [str(meta_names[k]) for k in sorted(meta_names)]
    if isinstance(meta_names, (list, tuple)):
        return [str(x) for x in meta_names]
    return None


def _input_hw(session, meta, default: int = 640) -> tuple[int, int]:
    shape = session.get_inputs()[0].shape  # [n, 3, h, w], dims may be names when dynamic
    h, w = shape[2], shape[3]
    if isinstance(h, int) and isinstance(w, int) and h > 0 and w > 0:
        return h, w
    imgsz = meta.get("imgsz", default)
    if isinstance(imgsz, (list, tuple)):
        return int(imgsz[0]), int(imgsz[-1])
    return int(imgsz), int(imgsz)


def _static_batch(session) -> int | None:
    b = session.get_inputs()[0].shape[0]
    return b if isinstance(b, int) and b > 0 else None


class OnnxYolo:
    """An ultralytics YOLO detector in ONNX. ``detect(image_bgr) -> Detections`` in image pixels (NMS done)."""

    def __init__(self, path: str | Path, classes: list[str] | None = None,
                 conf_threshold: float = 0.25, iou_threshold: float = 0.5, max_det: int = 300,
                 max_upscale: float = 4.0, threads: int = 1):
        self.path = Path(path)
        self.session = make_session(self.path, threads)
        self.meta = session_metadata(self.session)
        self.input_name = self.session.get_inputs()[0].name
        self.input_hw = _input_hw(self.session, self.meta)
        shape = self.session.get_inputs()[0].shape
        # exported with dynamic=True: each image goes in at its own aspect (long side = imgsz, sides multiples of
        # the stride), so a 640x480 frame costs 640x480, not 640x640
        self.dynamic = not (isinstance(shape[2], int) and isinstance(shape[3], int))
        self.stride = 32
        self.end2end = bool(self.meta.get("end2end", False))
        names = _names(self.meta.get("names"), classes)
        out_shape = self.session.get_outputs()[0].shape
        if names is None:
            nc = out_shape[1] - 4 if isinstance(out_shape[1], int) and not self.end2end else 1
            names = [f"class{i}" for i in range(nc)]
        self.classes = names
        self.conf_threshold = conf_threshold
        self.iou_threshold = iou_threshold
        self.max_det = max_det
        self.max_upscale = max_upscale  # a tiny crop is enlarged at most this much (indices stay card-sized)

    def set_long_side(self, imgsz: int) -> None:
        """Run a dynamic-shape detector at another input size (long side ``imgsz``, a multiple of the stride)."""
        if not self.dynamic:
            raise ValueError(f"{self.path.name} was exported with a fixed {self.input_hw[0]}x{self.input_hw[1]} input; "
                             "only a dynamic-shape export can run at another size")
        if imgsz < self.stride or imgsz % self.stride:
            raise ValueError(f"detector input size must be a positive multiple of {self.stride}, got {imgsz}")
        self.input_hw = (int(imgsz), int(imgsz))

    def target_hw(self, image_hw: tuple[int, int]) -> tuple[int, int]:
        """The model input size for an image: ``input_hw``, or for a dynamic model the image's own aspect."""
        if not self.dynamic:
            return self.input_hw
        ih, iw = image_hw
        scale = min(self.input_hw[0] / ih, self.input_hw[1] / iw, self.max_upscale)
        s = self.stride
        return max(s, -(-round(ih * scale) // s) * s), max(s, -(-round(iw * scale) // s) * s)

    def preprocess(self, image_bgr: np.ndarray) -> tuple[np.ndarray, Letterbox]:
        img, lb = letterbox(image_bgr, self.target_hw(image_bgr.shape[:2]), max_scale=self.max_upscale)
        x = np.ascontiguousarray(img[..., ::-1].transpose(2, 0, 1)[None], dtype=np.float32)
        x *= 1.0 / 255.0
        return x, lb

    def raw(self, x: np.ndarray) -> np.ndarray:
        return self.session.run(None, {self.input_name: x})[0]

    def decode(self, out: np.ndarray, conf_threshold: float | None = None) -> Detections:
        """Model output -> Detections in model-input pixels (before NMS for raw outputs)."""
        conf_threshold = self.conf_threshold if conf_threshold is None else conf_threshold
        out = np.asarray(out)
        out = out.reshape(out.shape[-2], out.shape[-1])  # (1, a, b) -> (a, b)
        if self.end2end:
            o = out
            o = o[o[:, 4] >= conf_threshold]
            return Detections(xyxy=o[:, :4], confidence=o[:, 4], class_id=o[:, 5].astype(np.int64))
        o = out  # (4 + nc, N)
        scores = o[4:]
        cls = scores.argmax(axis=0)
        conf = scores[cls, np.arange(scores.shape[1])]
        m = conf >= conf_threshold
        cx, cy, w, h = o[:4, m]
        xyxy = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
        return Detections(xyxy=xyxy, confidence=conf[m], class_id=cls[m])

    def detect(self, image_bgr: np.ndarray, conf_threshold: float | None = None) -> Detections:
        """Boxes in ``image_bgr`` pixels, class-aware NMS applied, best first."""
        x, lb = self.preprocess(image_bgr)
        d = self.decode(self.raw(x), conf_threshold)
        if not self.end2end:
            d = d.with_nms(self.iou_threshold)[: self.max_det]
        return Detections(xyxy=lb.to_image(d.xyxy), confidence=d.confidence, class_id=d.class_id)


class OnnxClassifier:
    """A crop classifier in ONNX: ``probabilities(tensor (n, 3, S, S)) -> (n, classes)`` rows summing to 1."""

    def __init__(self, path: str | Path, classes: list[str] | None = None, batch: int = 64, threads: int = 1):
        self.path = Path(path)
        self.session = make_session(self.path, threads)
        self.meta = session_metadata(self.session)
        self.input_name = self.session.get_inputs()[0].name
        self.input_hw = _input_hw(self.session, self.meta, default=64)
        self.static_batch = _static_batch(self.session)
        names = _names(self.meta.get("names"), classes)
        if names is None:
            nc = self.session.get_outputs()[0].shape[-1]
            names = [f"class{i}" for i in range(nc if isinstance(nc, int) else 0)]
        self.classes = names
        self.batch = self.static_batch or batch

    @property
    def size(self) -> int:
        return self.input_hw[0]

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        n = len(x)
        if n == 0:
            return np.zeros((0, len(self.classes)), np.float32)
        outs = []
        for s in range(0, n, self.batch):
            chunk = x[s:s + self.batch]
            k = len(chunk)
            if self.static_batch and k < self.static_batch:
                chunk = np.concatenate([chunk, np.zeros((self.static_batch - k,) + chunk.shape[1:], chunk.dtype)])
            outs.append(self.session.run(None, {self.input_name: np.ascontiguousarray(chunk, np.float32)})[0][:k])
        p = np.concatenate(outs).astype(np.float32).reshape(n, -1)
        sums = p.sum(axis=1)
        if p.min() < 0 or np.any(np.abs(sums - 1) > 1e-3):  # logits: softmax them
            p = np.exp(p - p.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
        return p

"""Speed of card recognition per frame: median and p95 milliseconds, for ONNX Runtime (what players run) and,
where torch is installed, for the same weights through PyTorch/ultralytics.

    .venv/bin/patience detect --bench [IMAGE...]                   # the Detector (ORT), frames 640x480
    .venv/bin/python -m vision.benchmark [--frames 50] [IMAGE...]  # the same, without the CLI
    /work/trainenv/bin/python -m vision.benchmark --torch models/detector.pt [IMAGE...]

The Detector's ORT sessions run on its default ``threads`` (2 non-spinning threads on a 2-core machine; ``--threads 1``
for one); PyTorch on one thread (``torch.set_num_threads(1)``, OMP_NUM_THREADS=1). Besides wall time,
the process's CPU time (all its threads) is printed: with one thread it equals wall time on an idle machine and
stays honest when other work shares the cores; with two it is about the sum of both threads' work (the load
average is printed too). Frames are the
given images resized to ``size`` (default 640x480), or synthetic table scenes when no image is given. The first
3 calls are warm-up and not counted. Figures belong in docs/BENCHMARKS.md with the command and the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()}-core {platform.machine()} ({cpu}), {platform.system()}"


def synthetic_frame(rng: np.random.Generator, hw: tuple[int, int] = (480, 640)) -> np.ndarray:
    """A table-ish frame: textured background and some white rectangles with dark marks (no real cards)."""
    import cv2

    h, w = hw
    img = (rng.integers(40, 90, size=(h, w, 3))).astype(np.uint8)
    img = cv2.GaussianBlur(img, (7, 7), 0)
    for _ in range(8):
        cw = int(rng.uniform(0.08, 0.14) * w)
        ch = int(cw * 1.4)
        x, y = int(rng.uniform(0, w - cw)), int(rng.uniform(0, h - ch))
        cv2.rectangle(img, (x, y), (x + cw, y + ch), (235, 235, 235), -1)
        cv2.putText(img, "Q", (x + 3, y + ch // 5), cv2.FONT_HERSHEY_SIMPLEX, ch / 150, (20, 20, 200), 2)
    return img


def load_frames(paths: list[str], size: tuple[int, int] | None, n_synthetic: int = 5,
                max_images: int = 60) -> list[np.ndarray]:
    """Images (at most ``max_images``, spread evenly over the given ones) resized to ``size`` (W, H) (None: as they
    are); synthetic frames when ``paths`` is empty."""
    import cv2

    frames = []
    files = []
    for p in paths:
        files += sorted(f for f in Path(p).iterdir() if f.suffix.lower() in IMAGE_SUFFIXES) if Path(p).is_dir() else [Path(p)]
    if len(files) > max_images:
        files = [files[i] for i in np.linspace(0, len(files) - 1, max_images).round().astype(int)]
    for f in files:
        img = cv2.imread(str(f), cv2.IMREAD_COLOR)
        if img is None:
            continue
        frames.append(cv2.resize(img, size, interpolation=cv2.INTER_AREA) if size else img)
    if not frames:
        rng = np.random.default_rng(0)
        frames = [synthetic_frame(rng, (size[1], size[0]) if size else (480, 640)) for _ in range(n_synthetic)]
    return frames


def time_calls(fn, frames: list[np.ndarray], n: int = 50, warmup: int = 3) -> dict[str, float]:
    """Call ``fn(frame)`` ``n`` times over the frames (cycling); median / p95 / mean in ms."""
    for i in range(warmup):
        fn(frames[i % len(frames)])
    t, c = [], []
    for i in range(n):
        f = frames[i % len(frames)]
        t0, c0 = time.perf_counter(), time.process_time()
        fn(f)
        t.append((time.perf_counter() - t0) * 1e3)
        c.append((time.process_time() - c0) * 1e3)
    a, b = np.asarray(t), np.asarray(c)
    return {"median_ms": float(np.median(a)), "p95_ms": float(np.percentile(a, 95)), "mean_ms": float(a.mean()),
            "cpu_median_ms": float(np.median(b)), "cpu_p95_ms": float(np.percentile(b, 95)), "frames": n}


def noisy_stream(frames: list[np.ndarray], per_scene: int = 10, sigma: float = 3.0, seed: int = 0) -> list[np.ndarray]:
    """A camera watching each table for ``per_scene`` frames: the same picture with fresh sensor noise each frame."""
    rng = np.random.default_rng(seed)
    out = []
    for f in frames:
        for _ in range(per_scene):
            noise = rng.normal(0, sigma, size=f.shape).astype(np.float32)
            out.append(np.clip(f.astype(np.float32) + noise, 0, 255).astype(np.uint8))
    return out


def bench_detector(detector, frames: list[np.ndarray], n: int = 50) -> dict[str, dict[str, float]]:
    """The whole Detector.detect on independent frames (every corner classified), the same as a camera loop
    (``previous=`` the last result: unchanged corners keep their names), and the detector stage alone."""
    stream = noisy_stream(frames[: max(1, n // 10)])
    state = {"prev": None}

    def camera(frame):
        state["prev"] = detector.detect(frame, previous=state["prev"])

    return {"detect, independent frames": time_calls(detector.detect, frames, n),
            "detect, camera loop (previous=)": time_calls(camera, stream, min(n, len(stream)), warmup=0),
            "detector stage only": time_calls(lambda f: detector.yolo.detect(f), frames, n)}


def bench_torch(weights: str, frames: list[np.ndarray], n: int = 50, imgsz=None) -> dict[str, dict[str, float]]:
    """The ultralytics model (PyTorch, CPU, one thread) on the same frames: predict() including its pre/post."""
    import torch

    torch.set_num_threads(1)
    from ultralytics import YOLO

    model = YOLO(weights)
    kw = {"imgsz": imgsz} if imgsz else {}
    fn = lambda f: model.predict(f, device="cpu", verbose=False, **kw)  # noqa: E731
    return {f"ultralytics predict ({Path(weights).name})": time_calls(fn, frames, n)}


def format_rows(results: dict[str, dict[str, float]]) -> list[str]:
    return [f"{name:34s} median {r['median_ms']:6.1f} ms  p95 {r['p95_ms']:6.1f} ms  |  CPU (all threads) "
            f"{r['cpu_median_ms']:6.1f} ms  p95 {r['cpu_p95_ms']:6.1f} ms  ({r['frames']} frames)" for name, r in results.items()]


def load_average() -> str:
    try:
        return "load average " + " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "load average unknown"


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    ap = argparse.ArgumentParser(prog="python -m vision.benchmark", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("images", nargs="*")
    ap.add_argument("--model", help="model folder for the ONNX Detector (default: models/)")
    ap.add_argument("--torch", metavar="WEIGHTS", help="time this ultralytics .pt instead (needs torch)")
    ap.add_argument("--imgsz", type=int, nargs="+", help="--torch: inference size (H W or one side)")
    ap.add_argument("--frames", type=int, default=50)
    ap.add_argument("--threads", type=int, help="ORT threads per model (default: the Detector's)")
    ap.add_argument("--size", default="640x480", help="WxH the frames are resized to, or 'native'")
    args = ap.parse_args(argv)
    size = None if args.size == "native" else tuple(int(v) for v in args.size.lower().split("x"))
    frames = load_frames(args.images, size)
    print(f"machine: {machine()}; {load_average()}; frames: {len(frames)} x {frames[0].shape[1]}x{frames[0].shape[0]}")
    if args.torch:
        imgsz = args.imgsz[0] if args.imgsz and len(args.imgsz) == 1 else args.imgsz
        results = bench_torch(args.torch, frames, args.frames, imgsz)
    else:
        from vision.detector import Detector

        results = bench_detector(Detector(model_dir=args.model, threads=args.threads), frames, args.frames)
    for line in format_rows(results):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Frames from a camera, a video file, a stream URL or a folder of images, read with OpenCV.

    source = open_source("0")                 # webcam 0; "clip.mp4"; "http://phone:8080/video"; "photos/"
    for frame in source:                      # Frame(index, image (BGR), seconds)
        ...

Files and folders give every frame in order (``live`` is False): the timeline is the video's own (index / fps),
so a run is reproducible. Cameras and streams are ``live``: a reader thread keeps only the newest frame, so a
slow consumer skips frames instead of falling behind. Errors are ``SourceError`` with one plain sentence; a camera
that stops giving frames mid-way raises ``SourceLost``.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mov", ".mkv", ".webm", ".m4v", ".mpg", ".mpeg", ".wmv")
FOLDER_FPS = 5.0  # a folder of photos is played as if taken five a second
LOST_AFTER = 30  # consecutive failed reads of a live source before it counts as lost


class SourceError(ValueError):
    """A source that cannot be opened or holds no frames."""


class SourceLost(RuntimeError):
    """A live source that stopped giving frames."""


@dataclass(frozen=True)
class Frame:
    index: int  # 0, 1, 2, ... in the source's order (a live source's skipped frames are not counted)
    image: np.ndarray  # BGR
    seconds: float  # on the source's timeline: index / fps for files, time since start for live sources


class FrameSource:
    """Base: iterate to get ``Frame``s; ``close()`` releases the device."""

    live = False
    fps = 0.0
    description = ""

    def __iter__(self) -> Iterator[Frame]:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_source(spec: str | int) -> FrameSource:
    """The source named by ``spec``: a camera index (``0``), a URL, a video file or a folder of images."""
    text = str(spec).strip()
    if not text:
        raise SourceError("no source given: pass a camera index (0), a video file, a stream URL or a folder")
    if text.isdigit():
        return CaptureSource(int(text), live=True, description=f"camera {text}")
    if "://" in text:
        return CaptureSource(text, live=True, description=text)
    path = Path(text).expanduser()
    if path.is_dir():
        return FolderSource(path)
    if not path.exists():
        raise SourceError(f"{path} not found: pass a camera index (0), a video file, a stream URL or a folder")
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return FolderSource(path.parent, only=[path])
    return CaptureSource(str(path), live=False, description=str(path))


def _quietly_opened(target: str | int):
    """``cv2.VideoCapture(target)`` without OpenCV's own log lines ("[ERROR:0@0.04] ... Camera index out of
    range"): a source that does not open gets one plain sentence from ``CaptureSource`` instead."""
    import cv2

    log = getattr(getattr(cv2, "utils", None), "logging", None)
    if log is None:
        return cv2.VideoCapture(target)
    level = log.getLogLevel()
    log.setLogLevel(log.LOG_LEVEL_SILENT)
    try:
        return cv2.VideoCapture(target)
    finally:
        log.setLogLevel(level)


class CaptureSource(FrameSource):
    """A cv2.VideoCapture: a camera or stream (live) or a video file (every frame, in order)."""

    def __init__(self, target: str | int, live: bool, description: str):
        import cv2

        self.live = live
        self.description = description
        self._cap = _quietly_opened(target)
        if not self._cap.isOpened():
            self._cap.release()
            if isinstance(target, int):
                raise SourceError(f"camera {target} cannot be opened: is it connected, and not used by another "
                                  "program? (try another index: 1, 2)")
            if live:
                raise SourceError(f"the stream {target} cannot be opened (is the phone's camera app running and "
                                  "on the same network?)")
            raise SourceError(f"{target} cannot be read as a video (a damaged file or an unknown format)")
        fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps if 1.0 <= fps <= 240.0 else 30.0
        self._first = None
        if not live:
            ok, image = self._cap.read()
            if not ok or image is None:
                self._cap.release()
                raise SourceError(f"{target} holds no frames (an empty or damaged video)")
            self._first = image

    def __iter__(self) -> Iterator[Frame]:
        if self.live:
            yield from self._live_frames()
            return
        index = 0
        image = self._first
        self._first = None
        while image is not None:
            yield Frame(index, image, index / self.fps)
            index += 1
            ok, image = self._cap.read()
            if not ok:
                break

    def _live_frames(self) -> Iterator[Frame]:
        """Newest frame only: a thread reads continuously so the consumer never sees stale frames."""
        latest: list = [None, 0]  # image, sequence number
        lost = threading.Event()
        stop = threading.Event()
        cond = threading.Condition()

        def reader() -> None:
            failures = 0
            while not stop.is_set():
                ok, image = self._cap.read()
                if not ok or image is None:
                    failures += 1
                    if failures >= LOST_AFTER:
                        lost.set()
                        with cond:
                            cond.notify_all()
                        return
                    time.sleep(0.01)
                    continue
                failures = 0
                with cond:
                    latest[0], latest[1] = image, latest[1] + 1
                    cond.notify_all()

        thread = threading.Thread(target=reader, name="camera-reader", daemon=True)
        thread.start()
        start = time.monotonic()
        seen, index = 0, 0
        try:
            while True:
                with cond:
                    while latest[1] == seen and not lost.is_set():
                        cond.wait(timeout=1.0)
                    if lost.is_set() and latest[1] == seen:
                        raise SourceLost(f"{self.description} stopped giving frames")
                    image, seen = latest[0], latest[1]
                yield Frame(index, image, time.monotonic() - start)
                index += 1
        finally:
            stop.set()

    def close(self) -> None:
        self._cap.release()


class FolderSource(FrameSource):
    """Images of a folder in name order (or the given files), each one frame; unreadable images are an error."""

    def __init__(self, folder: Path, only: list[Path] | None = None):
        self.description = str(folder if only is None else only[0])
        self.fps = FOLDER_FPS
        files = only if only is not None else sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            raise SourceError(f"{folder} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        self.files = files

    def __iter__(self) -> Iterator[Frame]:
        import cv2

        for index, path in enumerate(self.files):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise SourceError(f"{path} is not a readable image (damaged or not an image)")
            yield Frame(index, image, index / self.fps)

"""Running the live assistant on a source: the panel (or JSON lines), the player's keys, the camera's errors.

This is the edge of the camera path: it opens the source and the card reader, feeds every frame to
``LiveGame`` and shows what it publishes. A source that cannot be opened is a ``SourceError`` (one line, exit 2);
a camera lost mid-game leaves the game saved and says how to go on.
"""

from __future__ import annotations

import json
import sys
import threading
from typing import Callable

from vision.video import SourceError, SourceLost, open_source


def run_live(session, source_spec: str, *, as_json: bool = False, headless: bool = False, show: bool = False,
             hints: bool = True, budget_ms: float = 500.0, save: Callable | None = None, read: Callable | None = None,
             model_dir=None, threads: int | None = None, console=None, out=None, max_frames: int | None = None,
             read_keys: bool | None = None, imgsz: int | None = None, train: bool = False,
             lang: str | None = None) -> int:
    """Follow the game on ``source_spec`` until it ends, the source ends or the player quits. Exit code."""
    from assistant.cli import UserError
    from assistant.live.loop import LiveGame

    out = out or sys.stdout
    try:
        source = open_source(source_spec)
    except SourceError as exc:
        raise UserError(str(exc)) from None
    if read is None:
        read = _reader(model_dir, threads, imgsz, game=session.game)
    lock = threading.Lock()

    def publish(event: dict) -> None:
        if as_json:
            with lock:
                out.write(json.dumps(event) + "\n")
                out.flush()

    game = LiveGame(session, read, publish, hints=hints, budget_ms=budget_ms, skip_stale_hints=source.live,
                    save=save, train=train, lang=lang)
    window = _Window(game) if show else None
    panel = None
    if not headless:
        panel = _start_panel(game, source.description, console)
    if read_keys is None:
        read_keys = not headless and sys.stdin.isatty()
    quit_flag = threading.Event()
    if read_keys:
        _start_keys(game, quit_flag)
    code = 0
    try:
        for frame in source:
            game.process(frame.index, frame.image)
            if window is not None and not window.show(frame.image):
                break
            if quit_flag.is_set() or (max_frames is not None and frame.index + 1 >= max_frames):
                break
            if session.is_over:
                break
    except SourceLost as exc:
        code = 1
        _say(console, as_json, out, f"{exc}: the game is saved; continue with `patience resume` "
                                    f"(add --source {source_spec} to keep using the camera)")
    except SourceError as exc:  # a damaged image in a folder, a file cut short
        code = 2
        print(f"patience play: {exc}: the game is saved; continue with `patience resume`", file=sys.stderr)
    except KeyboardInterrupt:
        code = 130
    finally:
        game.finish(wait=True)
        source.close()
        if panel is not None:
            panel.stop()
        if window is not None:
            window.close()
    session.saver = save  # the live game saved through its worker; from here on as usual
    if session.is_over and save is not None:
        from assistant.commands.play import record_finished

        record_finished(session)
    if code == 130:
        _say(console, as_json, out, "interrupted: the game is saved; continue with `patience resume`")
    elif not as_json and console is not None:
        console.print(f"[bold]{session.result_line()}[/]")
    if game.worker.error is not None:
        raise game.worker.error
    return code


LARGE_FRAME = 800  # frames with a longer side than this are read at READ_LARGE (960x540, 1280x720 webcams)
READ_LARGE = 960  # the detector's input side for them: corner indices of cards on a table stay >= 12 px


def _reader(model_dir, threads, imgsz: int | None = None, game: str | None = None):
    """The card reader: the committed two-stage model (``reader_detector``). ``imgsz`` None: 640 for small frames,
    960 for HD ones (held-out designs on 1280x720 videos: 25 of 25 grid cards read at 960, 21 at 640;
    docs/BENCHMARKS.md)."""
    from assistant.cli import UserError
    from vision.onnx_backend import ModelFileError

    try:
        detector = reader_detector(model_dir, threads, imgsz, game)
    except ModelFileError as exc:
        raise UserError(str(exc)) from None
    chosen = [imgsz is not None]

    def read(image, previous):
        if not chosen[0]:
            chosen[0] = True
            if max(image.shape[:2]) > LARGE_FRAME:
                detector.yolo.set_long_side(min(READ_LARGE, max(image.shape[:2]) // 32 * 32))  # a multiple of 32
        return detector.detect(image, previous)

    return read


def reader_detector(model_dir, threads, imgsz: int | None = None, game: str | None = None):
    """The Detector of the camera. ``game``: its follower says what the second look at whole cards may settle
    (None: the model folder's choice) and whether the pip look is used (on corners read anew only: the cards just
    laid)."""
    from vision.detector import Detector

    from assistant.live.loop import follower_class

    follower = follower_class(game) if game else None
    return Detector(model_dir, threads=threads, imgsz=imgsz, face_fuse=follower.face_fuse if follower else None,
                    pips=follower.pips if follower else False)


def _say(console, as_json, out, text: str) -> None:
    if as_json:
        out.write(json.dumps({"event": "warning", "frame": None, "message": text}) + "\n")
        out.flush()
    elif console is not None:
        console.print(text)
    else:
        print(text, file=sys.stderr)


def _start_panel(game, description: str, console):
    """The rich Live panel, redrawn four times a second from what the worker published (never blocks frames)."""
    from rich.console import Console

    from assistant.live.live_panel import live_panel
    from assistant.panel.live_view import live_panel as live_display

    class _Renderable:
        def __rich__(self):
            return live_panel(game, description)

    context = live_display(_Renderable(), console or Console(), refresh_per_second=4)
    context.__enter__()

    class _Stop:
        def stop(self):
            context.__exit__(None, None, None)

    return _Stop()


def _start_keys(game, quit_flag: threading.Event) -> None:
    """Typed commands (a line each) while the camera runs: they are applied between frames."""

    def reader() -> None:
        for line in sys.stdin:
            text = line.strip()
            if text.lower() in ("q", "quit", "exit"):
                quit_flag.set()
                return
            if text:
                game.command(text)
        quit_flag.set()

    threading.Thread(target=reader, name="keys", daemon=True).start()


class _Window:
    """``--show``: the video with the cards read and the suggested place highlighted (needs an OpenCV with GUI)."""

    def __init__(self, game):
        self.game = game
        self.ok = True

    def show(self, image) -> bool:
        import cv2

        from assistant.live.overlay import draw_overlay

        if not self.ok:
            return True
        try:
            cv2.imshow("Patience Lens", draw_overlay(image, self.game))
            key = cv2.waitKey(1) & 0xFF
        except cv2.error:
            self.ok = False
            print("--show needs OpenCV with windows (pip install opencv-python instead of opencv-python-headless); "
                  "going on without the window", file=sys.stderr)
            return True
        return key not in (ord("q"), 27)

    def close(self) -> None:
        import cv2

        try:
            cv2.destroyAllWindows()
        except cv2.error:
            pass

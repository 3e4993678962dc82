"""The slow work off the frame path: saving each position and thinking about the next hint.

The camera loop hands over a copy of the game after every applied event and goes on reading frames. One worker
thread takes the copies in order: it writes the save first, then publishes the event (so nothing is shown that is
not saved), then computes the hint for the newest position. A live camera skips hints for positions that are
already out of date; a video file gets a hint for every position, so a run is reproducible.

A card that is being read but is not yet certain is thought about ahead (when the worker is idle): the hint for
"this card turned" is ready by the time the card is, and is published only if the card is confirmed.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Callable


@dataclass
class Job:
    frame: int
    snapshot: object  # a Session copy (no saver) of the position after the event
    events: list[dict] = field(default_factory=list)  # what to publish once saved
    want_hint: bool = True
    hint_position: object = None  # the position the hint is for (default: snapshot), e.g. the card just turned
    key: str = ""  # the hint position's identity, for hints thought out ahead
    ahead: bool = False  # a hint thought out before the card is certain: kept, not published, nothing saved
    created: float = field(default_factory=time.perf_counter)


class HintWorker:
    """``submit(job)`` from the frame thread; ``publish(dict)`` and ``on_hint(hint, job)`` run on the worker."""

    def __init__(self, save: Callable[[object], None] | None, hint: Callable[[object], object] | None,
                 publish: Callable[[dict], None], on_hint: Callable[[object, Job, float], None],
                 skip_stale: bool):
        self._save, self._hint, self._publish, self._on_hint = save, hint, publish, on_hint
        self._skip_stale = skip_stale
        self._jobs: queue.Queue[Job | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="hint-worker", daemon=True)
        self._thread.start()
        self.error: BaseException | None = None
        self.busy = False
        self._ahead: dict[str, tuple] = {}  # key -> (hint, when it was ready) thought out before the card was certain

    def submit(self, job: Job) -> None:
        self._jobs.put(job)

    def close(self, wait: bool = True) -> None:
        """No more jobs; with ``wait`` the queued ones are finished first."""
        self._jobs.put(None)
        if wait:
            self._thread.join()

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            try:
                self.busy = True
                if job.ahead:
                    if job.key not in self._ahead and self._jobs.empty():
                        hint, _ = self._think(job)
                        self._ahead[job.key] = (hint, time.perf_counter())
                    continue
                if self._save is not None:
                    self._save(job.snapshot)
                for event in job.events:
                    self._publish(event)
                stale = self._skip_stale and not self._jobs.empty()
                if job.want_hint and self._hint is not None and not stale:
                    if job.key in self._ahead:  # thought out ahead: it took only what was left when the card came
                        hint, done = self._ahead.pop(job.key)
                        ms = max(0.0, (done - job.created) * 1000.0)
                    else:
                        hint, ms = self._think(job)
                    self._on_hint(hint, job, ms)
            except BaseException as exc:  # reported by the loop; the worker keeps the saves going
                self.error = exc
            finally:
                self.busy = False

    def _think(self, job: Job):
        start = time.perf_counter()
        hint = self._hint(job.hint_position if job.hint_position is not None else job.snapshot)
        return hint, (time.perf_counter() - start) * 1000.0

    def ahead_known(self, key: str) -> bool:
        return key in self._ahead

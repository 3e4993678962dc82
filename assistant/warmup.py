"""Preparing the advisors in the background, so that a first run never freezes without a word.

The advisors' simulation loops are numba kernels, compiled on first use and cached on disk (``cache=True``). On a
fresh install that compile is long: measured on the project machine (2 cores, empty cache, another job running):
the first Sir Tommy hint about 30 s, the first Poker hint about 40 s; under heavy load (load average 11) the
stages took 55 s (Sir Tommy rollouts), 200 s (the end-game solver), 150 s (Poker) and 22 s (Poker Shuffle). Once
cached, loading them all takes about 2 s.

:func:`start_warmup` runs at the start of a command that gives hints. The first time (no marker file for this
version of the kernels), each stage is compiled in a child process (``python -m assistant.warmup STAGE``, two at a
time, the game played first first), which fills numba's cache without holding this process's interpreter; this
process then loads the cached code in a daemon thread. Later runs only load, in the thread. :func:`wait_ready` is
called where a hint is needed: it returns at once when the stages the position needs are ready, else shows a
spinner, "preparing the advisor (first run only)", with the seconds so far. Hints work without any of this (numba
compiles on the first call, under its own lock): the warm-up moves the wait to where nothing else happens yet,
overlaps it with setting up and playing, and says what happens.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

MESSAGE = "preparing the advisor (first run only: compiling its simulations)"
#: Seconds the first-run compile waits before starting its child processes, so that the command's own start (its
#: imports, the first panel) does not compete with two compilers for the two cores.
CHILD_START_DELAY_S = 1.0


# ------------------------------------------------------------------------------------------------ the stages


def warm_tommy() -> None:
    """Sir Tommy's rollout kernels: one advised decision, and the two-level search of close decisions."""
    import numpy as np

    from assistant.advisors import tommy_kernels as K
    from assistant.advisors.tommy_advisor import _pack, advise, kernel_params, position_from_arrays
    from assistant.deals import deal_order
    from assistant.games.tommy import TommyRules, TommyState

    rules = TommyRules.preset("standard")
    state = TommyState(rules, order=deal_order(0))
    state.turn_next()
    advise(state, np.random.default_rng(0), budget_ms=None, samples=64)
    pos, _, pool, _, _ = position_from_arrays(state.to_arrays())
    P, NR = kernel_params(rules)
    K.two_level(*_pack([pos]), np.zeros(1, np.int64), pool[:2], 1, 0, P, NR, K.DEFAULT_WEIGHTS, np.zeros(1))


def warm_tommy_endgame() -> None:
    """Sir Tommy's end-game solver (the end-game hint, and the advisor's last decisions)."""
    from assistant.advisors.tommy_solver import solve
    from assistant.deals import deal_order
    from assistant.games.tommy import TommyRules, TommyState

    end = TommyState(TommyRules.preset("standard"), order=deal_order(0))
    while end.needs_card():  # bury everything: a quick, legal way to the end game
        end.turn_next()
        end.apply(next(m for m in end.legal_moves() if not m.to_foundation))
    solve(end, [])


def warm_poker() -> None:
    """Poker Patience: the rollout, exact and policy kernels (every scoring uses the same compiled code)."""
    from assistant.advisors import poker_advisor

    poker_advisor.warm_up()


def warm_shuffle() -> None:
    """Poker Shuffle's annealer."""
    from assistant.advisors import shuffle_solver

    shuffle_solver.warm_up()


STAGES: dict[str, Callable[[], None]] = {
    "tommy": warm_tommy, "tommy-endgame": warm_tommy_endgame, "poker": warm_poker, "shuffle": warm_shuffle,
}
#: The order of the stages when a game is played first (the other game's stages follow).
FIRST = {"tommy": ("tommy", "tommy-endgame", "poker", "shuffle"), "poker": ("poker", "shuffle", "tommy", "tommy-endgame")}
KERNEL_FILES = ("advisors/tommy_kernels.py", "advisors/tommy_solver.py", "advisors/poker_kernels.py")


def stages_for(session) -> tuple[str, ...]:
    """The stages a hint for this position needs: Poker (or Poker Shuffle's annealer); Sir Tommy's rollouts,
    and near the end (few unseen cards, or the stock used up) its solver too (the kind's ``warmup_stages``)."""
    return session.kind.warmup_stages(session.state)


# ------------------------------------------------------------------------------------------------ first run?


def kernels_fingerprint() -> str:
    """Changes whenever a fresh compile is due: numba's and Python's versions, where the package and numba's cache
    are (another install or cache folder has its own compiled code), and the kernels' source."""
    import numba

    root = Path(__file__).parent
    h = hashlib.sha256(f"{numba.__version__} {sys.version} {root} {os.environ.get('NUMBA_CACHE_DIR', '')}".encode())
    for name in KERNEL_FILES:
        try:
            h.update((root / name).read_bytes())
        except OSError:
            pass
    return h.hexdigest()[:16]


def marker_path() -> Path:
    """A file in the user's cache folder saying "this version of the kernels was compiled here" (then only loading
    is left). Not under $PATIENCE_LENS_HOME: the compiled code belongs to the install, not to a save folder."""
    import platformdirs

    folder = Path(platformdirs.user_cache_dir("patience-lens", appauthor=False))
    return folder / f"advisors-compiled-{kernels_fingerprint()}"


def compiled_before() -> bool:
    try:
        return marker_path().exists()
    except Exception:  # noqa: BLE001 - no marker means only that the slower first-run path is taken
        return False


def _mark_compiled() -> None:
    try:
        path = marker_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("numba cache filled by assistant.warmup\n", encoding="utf-8")
    except OSError:
        pass


# ------------------------------------------------------------------------------------------------ the warm-up


class Warmup:
    """The background warm-up: a daemon thread that (first run) compiles the stages in child processes, two at a
    time, then loads each one here; an event per stage."""

    def __init__(self, stages: dict[str, Callable[[], None]], order: tuple[str, ...], child_processes: bool):
        self.stages = stages
        self.order = tuple(dict.fromkeys(g for g in order if g in stages)) + tuple(g for g in stages if g not in order)
        self.ready = {g: threading.Event() for g in self.order}
        self.errors: dict[str, BaseException] = {}
        self.seconds: dict[str, float] = {}
        self.child_processes = child_processes
        self.started = time.perf_counter()
        self.thread = threading.Thread(target=self._run, name="advisor-warmup", daemon=True)

    def _run(self) -> None:
        children: dict[str, subprocess.Popen] = {}
        if self.child_processes:
            env = {**os.environ, "NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
            time.sleep(CHILD_START_DELAY_S)
            queue, pending = list(self.order), list(self.order)
            while pending:
                while queue and sum(c.poll() is None for c in children.values()) < 2:  # two at a time
                    stage = queue.pop(0)
                    children[stage] = subprocess.Popen([sys.executable, "-m", "assistant.warmup", stage], env=env,
                                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                head = children.get(pending[0])
                if head is not None and head.poll() is not None:
                    self._load(pending.pop(0))  # in order: the stage needed first is loaded first
                    continue
                time.sleep(0.1)
            if all(c.returncode == 0 for c in children.values()):
                _mark_compiled()
        else:
            for stage in self.order:
                self._load(stage)

    def _load(self, stage: str) -> None:
        """Run the stage here: loads the cached code (or compiles it when no child could)."""
        t0 = time.perf_counter()
        try:
            self.stages[stage]()
        except BaseException as exc:  # noqa: BLE001 - the hint then compiles or fails on its own, with its message
            self.errors[stage] = exc
        finally:
            self.seconds[stage] = time.perf_counter() - t0
            self.ready[stage].set()

    def is_ready(self, stages: tuple[str, ...] | None = None) -> bool:
        stages = self.order if stages is None else stages
        return all(self.ready[s].is_set() for s in stages if s in self.ready)


_WARMUP: Warmup | None = None
_LOCK = threading.Lock()


def start_warmup(first: str | None = None, stages: dict[str, Callable[[], None]] | None = None,
                 child_processes: bool | None = None) -> Warmup:
    """Start preparing the advisors in the background (once per process; later calls return the same warm-up).
    ``first``: the game played first ("tommy" or "poker"); ``child_processes``: compile in child processes
    (default: only when this version of the kernels was never compiled here)."""
    global _WARMUP
    with _LOCK:
        if _WARMUP is None:
            if child_processes is None:
                child_processes = stages is None and not compiled_before()
            order = FIRST.get(first or "tommy", FIRST["tommy"])
            _WARMUP = Warmup(stages if stages is not None else STAGES, order, child_processes)
            _WARMUP.thread.start()
        return _WARMUP


def _stages(what) -> tuple[str, ...] | None:
    if what is None:
        return None
    if isinstance(what, str):
        return FIRST[what][:2] if what in FIRST else (what,)
    return stages_for(what)


def is_ready(what=None) -> bool:
    """True when no warm-up runs, or the stages for ``what`` (a session, a game, a stage; None: all) are ready."""
    return _WARMUP is None or _WARMUP.is_ready(_stages(what))


def wait_ready(console=None, what=None, message: str = MESSAGE,
               on_wait: Callable[[str], object] | None = None) -> float:
    """Block until the advisor for ``what`` (a Session: the stages its position needs; "tommy"/"poker"; a stage;
    None: everything) is prepared, with a spinner on ``console`` (a plain line when it is not a terminal), or,
    inside a live panel, ``on_wait(text)`` four times a second (the text to show: the message and the seconds so
    far). Returns the seconds waited (0 when it was ready). Without a warm-up: returns at once."""
    warm = _WARMUP
    stages = _stages(what)
    if warm is None or warm.is_ready(stages):
        return 0.0
    stages = tuple(s for s in (stages or warm.order) if s in warm.ready)
    t0 = time.perf_counter()
    if on_wait is not None:
        for s in stages:
            while not warm.ready[s].wait(0.25):
                on_wait(f"{message}... {time.perf_counter() - t0:.0f} s")
        return time.perf_counter() - t0
    if console is None or not console.is_terminal:
        if console is not None:
            console.print(f"{message}...", highlight=False)
        for s in stages:
            warm.ready[s].wait()
        return time.perf_counter() - t0
    with console.status(f"{message}...", spinner="dots") as status:
        for s in stages:
            while not warm.ready[s].wait(0.25):
                status.update(f"{message}... {time.perf_counter() - t0:.0f} s")
    return time.perf_counter() - t0


def _reset_for_tests() -> None:
    global _WARMUP
    _WARMUP = None


def _main(argv: list[str]) -> int:
    """``python -m assistant.warmup STAGE...``: compile (fill numba's cache for) the named stages, or all."""
    for stage in argv or list(STAGES):
        STAGES[stage]()
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))

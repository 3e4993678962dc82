"""The advisors are prepared in the background; where a hint waits for them, the player is told why."""

import io
import subprocess
import sys
import threading

import pytest
from rich.console import Console

from assistant import warmup
from assistant.session import Session


@pytest.fixture(autouse=True)
def fresh():
    warmup._reset_for_tests()
    yield
    warmup._reset_for_tests()


def slow_stages(gate: threading.Event):
    return {"tommy": gate.wait, "tommy-endgame": lambda: None, "poker": lambda: None, "shuffle": lambda: None}


def test_a_hint_that_waits_for_the_compiler_says_so():
    """Issue 11: the first hint froze for 11 s (the whole first demo for ~100 s) without a word."""
    gate = threading.Event()
    warmup.start_warmup("tommy", stages=slow_stages(gate))
    assert not warmup.is_ready("tommy")
    shown = []

    def on_wait(text):
        shown.append(text)
        if len(shown) == 3:
            gate.set()

    waited = warmup.wait_ready(what=Session.new("tommy", seed=1), on_wait=on_wait)
    assert waited > 0.4 and shown[0].startswith("preparing the advisor (first run only")
    assert shown[-1].endswith(" s") and warmup.is_ready()


def test_off_a_terminal_the_wait_is_one_plain_line():
    gate = threading.Event()
    warmup.start_warmup("tommy", stages=slow_stages(gate))
    threading.Timer(0.3, gate.set).start()
    console = Console(file=io.StringIO(), width=200)
    warmup.wait_ready(console, "tommy")
    assert console.file.getvalue().count("preparing the advisor") == 1


def test_when_ready_there_is_no_wait_and_no_message():
    warmup.start_warmup("poker", stages={"poker": lambda: None})
    warmup._WARMUP.thread.join(5)
    console = Console(file=io.StringIO())
    assert warmup.wait_ready(console, "poker") == 0.0 and console.file.getvalue() == ""
    assert warmup.wait_ready(console, "tommy") == 0.0  # no such stage in this warm-up: nothing to wait for


def test_the_game_played_first_is_prepared_first():
    assert warmup.start_warmup("poker", stages=dict(warmup.STAGES), child_processes=False).order[:2] == ("poker", "shuffle")


def test_near_the_end_of_sir_tommy_the_hint_also_needs_the_solver():
    s = Session.new("tommy", seed=3)
    assert warmup.stages_for(s) == ("tommy",)
    while s.needs_card():
        s.turn()
        s.play(next(m for m in s.state.legal_moves() if not m.to_foundation))
    assert warmup.stages_for(s) == ("tommy", "tommy-endgame")
    assert warmup.stages_for(Session.new("poker", "english-shuffle")) == ("shuffle",)


def test_a_stage_compiles_in_a_child_process():
    out = subprocess.run([sys.executable, "-m", "assistant.warmup", "shuffle"], capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr

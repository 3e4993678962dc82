"""The examples in the docstrings are run (issue 11: doctests existed in several modules but pytest never ran them).

Every module of ``assistant`` and ``vision`` whose source holds a ``>>>`` example is found by itself, so a new
doctest is run without being listed here.
"""

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def modules_with_examples() -> list[str]:
    found = []
    for package in ("assistant", "vision"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if ">>>" in path.read_text(encoding="utf-8"):
                found.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return found


def test_the_examples_are_found():
    assert {"assistant.games.tommy", "assistant.games.tommy_rules", "vision.card_names"} <= set(modules_with_examples())


@pytest.mark.parametrize("name", modules_with_examples())
def test_the_docstring_examples_hold(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.attempted > 0, f"{name} has '>>>' but no example was run"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed (see above)"

"""The layout shows the design: what a player's install runs never reaches the training code.

The rules, checked on every module's imports (read with ``ast``, so a lazy import inside a function counts too):

1. ``vision`` never imports ``assistant``: vision turns frames into detections and knows no game.
2. A play-time vision module (``vision/*``, any subpackage but ``vision/training``) never imports
   ``vision.training`` (the code that makes training data, trains and scores models on labelled sets).
3. No ``assistant`` module imports ``vision.training`` at module level, so importing the CLI, a command or the
   live assistant never loads training code.
4. Inside a function, only the offline tools may import ``vision.training``: ``assistant/commands/dataset.py``,
   ``assistant/commands/train.py``, ``assistant/benchmarks/*`` (they measure on rendered videos and sets), and
   ``assistant/commands/detect.py`` in ``run_eval`` alone (``patience detect --eval`` scores the models on
   labelled folders with ``vision.training.evaluate``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAZY_TRAINING_IMPORTERS = {"assistant/commands/dataset.py": None, "assistant/commands/train.py": None,
                           "assistant/commands/detect.py": {"run_eval"}}


def imports(path: Path) -> list[tuple[str, str | None]]:
    """(imported module, enclosing function name or None at module level) for every import in the file."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found: list[tuple[str, str | None]] = []

    def visit(node: ast.AST, func: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, func or child.name)
                continue
            if isinstance(child, ast.Import):
                found.extend((alias.name, func) for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                found.append((child.module, func))
                found.extend((f"{child.module}.{alias.name}", func) for alias in child.names)
            visit(child, func)

    visit(tree, None)
    return found


def is_under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def modules(folder: str) -> list[Path]:
    return sorted(p for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_imports_are_read_including_lazy_ones(tmp_path):
    sample = tmp_path / "m.py"
    sample.write_text("import os\nfrom vision import training\n\ndef f():\n    from assistant.cards import Card\n")
    assert imports(sample) == [("os", None), ("vision", None), ("vision.training", None),
                               ("assistant.cards", "f"), ("assistant.cards.Card", "f")]


@pytest.mark.parametrize("path", modules("vision"), ids=rel)
def test_vision_never_imports_assistant(path):
    bad = [m for m, _ in imports(path) if is_under(m, "assistant")]
    assert not bad, f"{rel(path)} imports {bad}: vision turns frames into detections and knows no game"


@pytest.mark.parametrize("path", [p for p in modules("vision") if not rel(p).startswith("vision/training/")], ids=rel)
def test_play_time_vision_never_imports_training(path):
    bad = [m for m, _ in imports(path) if is_under(m, "vision.training")]
    assert not bad, f"{rel(path)} (play time) imports {bad}"


@pytest.mark.parametrize("path", modules("assistant"), ids=rel)
def test_assistant_imports_training_code_only_lazily_in_offline_tools(path):
    name = rel(path)
    for module, func in imports(path):
        if not is_under(module, "vision.training"):
            continue
        assert func is not None, f"{name} imports {module} at module level"
        if name.startswith("assistant/benchmarks/"):
            continue
        assert name in LAZY_TRAINING_IMPORTERS, f"{name} imports {module}: not an offline tool"
        allowed = LAZY_TRAINING_IMPORTERS[name]
        assert allowed is None or func in allowed, f"{name}: {func}() imports {module}"


def test_the_training_package_is_where_the_layout_says():
    assert (ROOT / "vision/training/__init__.py").exists()
    for play_time in ("detector.py", "onnx_backend.py", "detections.py", "crops.py", "grouping.py", "tiling.py"):
        assert (ROOT / "vision" / play_time).exists()
    for recipe in ("decks.json", "held_out.json", "scene_mix.json", "README.md"):
        assert (ROOT / "datasets" / recipe).exists()

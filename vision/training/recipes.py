"""The data recipes kept as files under ``datasets/`` (deck sources and licences, held-out designs, scene mix):
the one source of truth the training code reads, so a reader sees the data's making without reading code.

>>> sorted(load_recipe("scene_mix.json")["layouts"])
['closeup', 'loose', 'poker', 'tommy']
"""

from __future__ import annotations

import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RECIPES = REPO / "datasets"


def load_recipe(name: str) -> dict:
    """The JSON recipe ``datasets/<name>`` (training runs from a source checkout, where ``datasets/`` lives)."""
    path = RECIPES / name
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: the data recipes live in the source checkout's datasets/ folder") from None

"""Saved games: every move is written to disk at once, so a crash or a closed terminal loses nothing.

A save is one JSON file ``{"format": 1, "game": "tommy"|"poker", "state": {...}, "meta": {...}}``; the
state is the engine's own ``to_dict()``. Writes are atomic (temporary file, fsync, rename) and the
previous save is kept as ``.bak``, so even a corrupt file leaves the last good game recoverable.
The folder is ``$PATIENCE_LENS_HOME`` or ``~/.local/share/patience-lens``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

FORMAT = 1
LAST_GAME = "last-game.json"


class SaveError(ValueError):
    """A save file that is missing or cannot be read back."""


def save_dir() -> Path:
    root = os.environ.get("PATIENCE_LENS_HOME")
    if root:
        return Path(root)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "patience-lens"


def write_save(game: str, state: dict, meta: dict | None = None, path: Path | None = None) -> Path:
    """Atomically write the game; the file it replaces becomes ``<name>.bak``."""
    path = path or save_dir() / LAST_GAME
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = json.dumps({"format": FORMAT, "game": game, "state": state, "meta": meta or {}}, indent=1)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(payload)
        fh.flush()
        os.fsync(fh.fileno())
    if path.exists():
        os.replace(path, path.with_suffix(path.suffix + ".bak"))
    os.replace(tmp, path)
    return path


def read_save(path: Path | None = None) -> dict:
    """The saved game as a dict with ``game``, ``state`` and ``meta``; SaveError says what is wrong and what to do."""
    path = path or save_dir() / LAST_GAME
    if not path.exists():
        raise SaveError(f"no saved game at {path}: start one with `patience play tommy --manual` or `patience play poker --manual`")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        backup = path.with_suffix(path.suffix + ".bak")
        hint = f"; the previous save is kept at {backup}: `patience resume --file {backup}`" if backup.exists() else ""
        raise SaveError(f"the saved game {path} is corrupt ({exc.__class__.__name__}){hint}") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("game") not in ("tommy", "poker") or not isinstance(data.get("state"), dict):
        raise SaveError(f"{path} is not a Patience Lens save (format {FORMAT}): start a new game with `patience play`")
    data.setdefault("meta", {})
    return data

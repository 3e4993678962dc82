"""Saved games: every action is written to disk at once, one file per game, so nothing is ever lost.

Each game has its own file ``games/<game>-<start time>.json`` in the user's data folder (``$PATIENCE_LENS_HOME``
if set, else platformdirs' user data folder: ``~/.local/share/patience-lens`` on Linux); starting a new game never
touches another one, and finished games stay (marked ``finished``) for statistics. A save is one JSON object
``{"format": 1, "game": "tommy"|"poker", "id", "started", "updated", "finished", "result", "state", "meta"}``;
the state is the engine's own ``to_dict()``.

Writing is crash-safe: the new content goes to a temporary file (fsync), the current good file is hard-linked
(or copied) to ``<name>.bak``, and only then does the temporary file replace the save in one atomic
``os.replace``. At every instant the save is either the old or the new complete file, and ``.bak`` holds a good
earlier one, so :func:`read_save` always finds a good copy (it falls back to ``.bak`` and says so).
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

FORMAT = 1
GAMES_DIR = "games"
LAST_GAME = "last-game.json"  # the single save of versions before one file per game; still listed and resumable
APP_NAME = "patience-lens"


class SaveError(ValueError):
    """A save file that is missing or cannot be read back."""


def save_dir() -> Path:
    """``$PATIENCE_LENS_HOME`` (tests and portable installs), else the platform's user data folder."""
    root = os.environ.get("PATIENCE_LENS_HOME")
    if root:
        return Path(root)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def games_dir() -> Path:
    return save_dir() / GAMES_DIR


def backup_path(path: Path) -> Path:
    return path.with_suffix(path.suffix + ".bak")


# ------------------------------------------------------------------------------------------------ writing


def _fsync_dir(folder: Path) -> None:
    """Make the renames in ``folder`` durable (POSIX; a no-op where directories cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _keep_backup(path: Path) -> None:
    """``path`` (a good save) becomes ``path.bak`` as well, atomically: a link (or copy) to a temporary name, then
    ``os.replace``; ``path`` itself is never moved away."""
    bak = backup_path(path)
    tmp = bak.with_suffix(bak.suffix + ".tmp")
    try:
        tmp.unlink()
    except FileNotFoundError:
        pass
    try:
        os.link(path, tmp)
    except OSError:  # file systems without hard links
        shutil.copyfile(path, tmp)
    os.replace(tmp, bak)


def write_json_atomic(path: Path, payload: dict) -> Path:
    """Write ``payload`` to ``path`` so that a crash at any point leaves a complete good file (old or new) at
    ``path`` and a good earlier one at ``path.bak``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(payload, indent=1))
        fh.flush()
        os.fsync(fh.fileno())
    if path.exists() and _readable(path):
        _keep_backup(path)
    os.replace(tmp, path)
    _fsync_dir(path.parent)
    return path


def _readable(path: Path) -> bool:
    try:
        _load(path)
        return True
    except SaveError:
        return False


def write_save(game: str, state: dict, meta: dict | None = None, path: Path | None = None, **info) -> Path:
    """Write one save (crash-safe, see the module doc). ``info``: the header fields (id, started, finished, ...).

    Without ``path`` the game goes to a file of its own that this process claims at its first path-less write
    (one game per process: the CLI's way before :func:`new_game_saver`); it never replaces another game."""
    if path is None:
        global _PROCESS_GAME
        global _RUNNING
        if _PROCESS_GAME is None or _PROCESS_GAME[0] != game:
            _PROCESS_GAME = (game, claim_game_file(game))
            _RUNNING = GameSaver(_PROCESS_GAME[1])
        path = _PROCESS_GAME[1]
    payload = {"format": FORMAT, "game": game, **info, "state": state, "meta": meta or {}}
    return write_json_atomic(path, payload)


_PROCESS_GAME: tuple[str, Path] | None = None


def _now() -> datetime:
    return datetime.now(timezone.utc).astimezone()


def claim_game_file(game: str, started: datetime | None = None) -> Path:
    """A new, unused file ``games/<game>-<YYYYmmdd-HHMMSS>[-n].json``, created empty-exclusive so that two games
    started in the same second (or by two processes) never share one."""
    started = started or _now()
    folder = games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{game}-{started:%Y%m%d-%H%M%S}"
    for n in range(1, 10_000):
        path = folder / (f"{stem}.json" if n == 1 else f"{stem}-{n}.json")
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            continue
        os.close(fd)
        return path
    raise SaveError(f"cannot find a free save name for {stem} in {folder}")


class GameSaver:
    """The ``saver`` of a Session: called with the session after every action, writes it to the game's own file.

    A new game claims its file at the first save; a resumed game keeps writing to the file it came from.
    The file's header says when the game started, when it was last saved, whether it is finished and its result
    line, so ``patience resume --list`` needs no engine."""

    def __init__(self, path: Path | None = None, started: str | None = None):
        self.path = path
        self.started = started

    @property
    def game_id(self) -> str | None:
        return None if self.path is None else game_id(self.path)

    def __call__(self, session) -> Path:
        now = _now()
        if self.path is None:
            self.path = claim_game_file(session.game, now)
        if self.started is None:
            self.started = now.isoformat(timespec="seconds")
        saved = session.to_save()
        finished = bool(session.is_over)
        write_save(session.game, saved["state"], saved.get("meta"), path=self.path, id=self.game_id,
                   started=self.started, updated=now.isoformat(timespec="seconds"), finished=finished,
                   result=session.result_line())
        global _RUNNING
        _RUNNING = None if finished else self
        return self.path


def new_game_saver() -> GameSaver:
    """The saver for a new game: ``Session.new(game, variant, seed, saver=new_game_saver())``."""
    return GameSaver()


def resume_saver(saved: "SavedGame | dict | Path") -> GameSaver:
    """The saver that continues a saved game in its own file (the backup it was read from, if any, is not
    written: the game goes back to its main file)."""
    if isinstance(saved, SavedGame):
        return GameSaver(saved.path, saved.started)
    if isinstance(saved, dict):
        return GameSaver(Path(saved["path"]), saved.get("started"))
    return GameSaver(Path(saved))


# The saver of the game this process is playing and has not finished: what Ctrl-C reports as saved.
_RUNNING: GameSaver | None = None


def running_game() -> GameSaver | None:
    """The saver of the unfinished game this process has saved most recently (None when no game runs)."""
    return _RUNNING


def forget_running_game() -> None:
    """Call when a play loop ends normally (the game stays saved; Ctrl-C later is not about it)."""
    global _RUNNING
    _RUNNING = None


# ------------------------------------------------------------------------------------------------ reading


def _load(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise SaveError(f"no saved game at {path}") from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SaveError(f"the saved game {path} is corrupt ({exc.__class__.__name__})") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("game") not in ("tommy", "poker") or not isinstance(data.get("state"), dict):
        raise SaveError(f"{path} is not a Patience Lens save (format {FORMAT}): start a new game with `patience play`")
    data.setdefault("meta", {})
    return data


def read_save(path: Path | None = None, use_backup: bool = True) -> dict:
    """The saved game as a dict with ``game``, ``state``, ``meta``, ``path`` (its main file) and, when the main
    file was missing or damaged and the backup was used, ``recovered_from``. Default: the latest unfinished game.
    SaveError (one line) says what is wrong and what to do."""
    if path is None:
        latest = latest_unfinished()
        if latest is None:
            raise SaveError(f"no unfinished saved game in {save_dir()}: start one with `patience play tommy --manual` "
                            "or `patience play poker --manual` (`patience resume --list` lists the saved games)")
        path = latest.path
    path = Path(path)
    try:
        data = _load(path)
    except SaveError as main_error:
        bak = backup_path(path)
        if not use_backup or not bak.exists():
            if path.exists():
                raise
            raise SaveError(f"no saved game at {path}: start one with `patience play tommy --manual` or "
                            "`patience play poker --manual`") from None
        try:
            data = _load(bak)
        except SaveError:
            raise SaveError(f"{main_error}; its backup {bak} cannot be read either") from None
        data["recovered_from"] = str(bak)
    data["path"] = str(path)
    return data


# ------------------------------------------------------------------------------------------------ listing


@dataclass(frozen=True)
class SavedGame:
    """One saved game as ``patience resume --list`` shows it (read from the file's header)."""

    id: str
    path: Path
    game: str
    started: str
    updated: str
    finished: bool
    result: str
    variant: str
    saved_ns: int = 0  # the file's modification time, ns: orders games saved within one second


def game_id(path: Path) -> str:
    """The id a player types: the file's name without ``.json`` (``tommy-20261201-061502``)."""
    name = Path(path).name
    return name[: -len(".json")] if name.endswith(".json") else name


def _saved_game(path: Path) -> SavedGame | None:
    try:
        data = read_save(path)
    except SaveError:
        return None
    source = Path(data.get("recovered_from") or path)
    saved_ns = source.stat().st_mtime_ns
    updated = data.get("updated") or datetime.fromtimestamp(saved_ns / 1e9, timezone.utc).astimezone().isoformat(timespec="seconds")
    meta = data.get("meta") or {}
    return SavedGame(game_id(path), path, data["game"], data.get("started") or updated, updated,
                     bool(data.get("finished", False)), str(data.get("result", "")), str(meta.get("variant", "")),
                     saved_ns)


def list_games() -> list[SavedGame]:
    """Every readable saved game, oldest first (by last save): the per-game files and an older single save."""
    paths = []
    folder = games_dir()
    if folder.is_dir():
        names = {p.name for p in folder.iterdir()}
        for name in sorted(names):
            if name.endswith(".json"):
                paths.append(folder / name)
            elif name.endswith(".json.bak") and name[: -len(".bak")] not in names:
                paths.append(folder / name[: -len(".bak")])  # the main file was lost in a crash: read_save uses .bak
    legacy = save_dir() / LAST_GAME
    if legacy.exists() or backup_path(legacy).exists():
        paths.append(legacy)
    games = [g for g in (_saved_game(p) for p in paths) if g is not None]
    return sorted(games, key=lambda g: (g.saved_ns, g.id))


def latest_unfinished() -> SavedGame | None:
    unfinished = [g for g in list_games() if not g.finished]
    return unfinished[-1] if unfinished else None


def find_game(ref: str) -> SavedGame:
    """A saved game by its id (or a unique start of it, ``tommy-2026``), or by a file path; SaveError if none or
    several match."""
    as_path = Path(ref)
    if as_path.suffix in (".json", ".bak") or os.sep in ref:
        if as_path.suffix == ".bak":
            as_path = as_path.with_suffix("")
        found = _saved_game(as_path)
        if found is None:
            read_save(as_path)  # raises the reason
        return found
    games = list_games()
    exact = [g for g in games if g.id == ref]
    if exact:
        return exact[0]
    prefixed = [g for g in games if g.id.startswith(ref)]
    if len(prefixed) == 1:
        return prefixed[0]
    if not prefixed:
        raise SaveError(f"no saved game {ref!r}: `patience resume --list` shows them")
    raise SaveError(f"{ref!r} names {len(prefixed)} games ({', '.join(g.id for g in prefixed[:4])}...): give more of the id")

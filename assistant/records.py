"""Every finished game, kept in SQLite in the player's data folder, for ``patience stats``.

The file is ``records.sqlite`` in the folder of the saved games (``$PATIENCE_LENS_HOME``, else the user data
folder: ``assistant.saves.save_dir``). Each game is written in one transaction with SQLite's rollback journal and
``synchronous=FULL``: a crash or a kill during a write leaves either the whole game or none of it, never a
damaged file (tests/test_records.py kills a writer mid-write). A game is recorded once: its key is a hash of
its saved state, so recording the same finished game again changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

DB_NAME = "records.sqlite"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    finished_at TEXT NOT NULL,
    game TEXT NOT NULL CHECK (game IN ('tommy', 'poker')),
    variant TEXT NOT NULL,
    seed INTEGER,
    won INTEGER NOT NULL CHECK (won IN (0, 1)),
    score INTEGER,
    foundation_cards INTEGER,
    cards_in_play INTEGER,
    threshold INTEGER,
    state TEXT NOT NULL
)
"""


def data_dir() -> Path:
    """The user's data folder, the same as the saved games' (``assistant.saves.save_dir``)."""
    from assistant.saves import save_dir

    return save_dir()


def db_path() -> Path:
    return data_dir() / DB_NAME


def connect(path: Path | None = None) -> sqlite3.Connection:
    """Open (and create) the records file; every write is durable once its transaction commits."""
    path = Path(path or db_path())
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), timeout=30)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute("PRAGMA synchronous=FULL")
    with conn:
        conn.execute(_SCHEMA)
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    return conn


@dataclass(frozen=True)
class GameRecord:
    id: int
    finished_at: str
    game: str
    variant: str
    seed: int | None
    won: bool
    score: int | None  # Poker points
    foundation_cards: int | None  # Sir Tommy: the progress score (002)
    cards_in_play: int | None
    threshold: int | None  # Poker: the points that count as a win (200 / 70, Poker Shuffle 310 / 120)


def record_game(game: str, variant: str, won: bool, state: dict, *, seed: int | None = None,
                score: int | None = None, foundation_cards: int | None = None, cards_in_play: int | None = None,
                threshold: int | None = None, finished_at: str | None = None, path: Path | None = None) -> bool:
    """Write one finished game (one transaction); False when this very game was recorded before."""
    text = json.dumps(state, sort_keys=True)
    key = hashlib.sha256(f"{game}|{text}".encode()).hexdigest()
    when = finished_at or datetime.now(timezone.utc).isoformat(timespec="seconds")
    conn = connect(path)
    try:
        with conn:
            cur = conn.execute(
                "INSERT OR IGNORE INTO games (key, finished_at, game, variant, seed, won, score, foundation_cards,"
                " cards_in_play, threshold, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (key, when, game, variant, seed, int(bool(won)), score, foundation_cards, cards_in_play, threshold,
                 text),
            )
            return cur.rowcount == 1
    finally:
        conn.close()


def record_finished_game(session, path: Path | None = None) -> bool:
    """Record ``session`` (an ``assistant.session.Session`` whose game is over); False if already recorded.
    ValueError when the game is not over yet."""
    if not session.is_over:
        raise ValueError("only finished games are recorded")
    return record_game(session.game, state=session.state.to_dict(), seed=session.seed, path=path,
                       **session.kind.record_fields(session))


def load_records(path: Path | None = None) -> list[GameRecord]:
    """Every recorded game, oldest first (an absent file: none)."""
    path = Path(path or db_path())
    if not path.exists():
        return []
    conn = connect(path)
    try:
        rows = conn.execute(
            "SELECT id, finished_at, game, variant, seed, won, score, foundation_cards, cards_in_play, threshold "
            "FROM games ORDER BY id").fetchall()
    finally:
        conn.close()
    return [GameRecord(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6], r[7], r[8], r[9]) for r in rows]


# -- figures ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Streaks:
    longest_won: int
    current: int  # > 0: won in a row, < 0: not won in a row, 0: no games


def streaks(won: list[bool]) -> Streaks:
    longest = run = 0
    for w in won:
        run = run + 1 if w else 0
        longest = max(longest, run)
    current = 0
    for w in reversed(won):
        if current == 0:
            current = 1 if w else -1
        elif (current > 0) == w:
            current += 1 if w else -1
        else:
            break
    return Streaks(longest, current)


def last_rate(won: list[bool], n: int) -> tuple[int, int]:
    """(wins, games) over the last ``n`` games (fewer when fewer were played)."""
    tail = won[-n:]
    return sum(tail), len(tail)


def rolling_rate(won: list[bool], n: int) -> list[float]:
    """The win rate over the last ``n`` games (or all so far) after each game."""
    out = []
    total = 0
    for i, w in enumerate(won):
        total += w
        if i >= n:
            total -= won[i - n]
        out.append(total / min(i + 1, n))
    return out

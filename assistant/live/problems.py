"""Telling the player when the table and the game disagree, without crying wolf.

A problem must persist for ``patience`` views in a row before it is reported, and is reported once until it
changes or goes away: one misread view never shows a warning.
"""

from __future__ import annotations

PATIENCE = 4  # views a problem must persist before it is reported


def settle(session, step, limit: int, after_end: bool = False) -> str | None:
    """A follower's changes in one view: ``step()`` applies the next one and returns True, None when nothing is
    left, or a text naming the problem that stops it. At most ``limit`` steps, none once the game is over (unless
    ``after_end``: a Poker Shuffle's arrangement may still change). Returns the problem, or None."""
    for _ in range(limit):
        if session.is_over and not after_end:
            return None
        done = step()
        if done is None:
            return None
        if isinstance(done, str):
            return done
    return None


class ProblemReport:
    def __init__(self, patience: int = PATIENCE):
        self.patience = patience
        self._problem: str | None = None
        self._views = 0
        self.reported: str | None = None  # the problem being reported now (for the panel), or None

    @property
    def current(self) -> str | None:
        """The problem of the latest view, reported yet or not."""
        return self._problem

    def update(self, problem: str | None) -> list[str]:
        """This view's problem (None: none); returns the warnings to show now."""
        if problem is None:
            self._problem, self._views, self.reported = None, 0, None
            return []
        if problem != self._problem:
            self._problem, self._views = problem, 0
        self._views += 1
        if self._views >= self.patience and self.reported != problem:
            self.reported = problem
            return [f"table differs from the game: {problem}"]
        return []

"""The one error both rules engines raise for a move the rules forbid (a ValueError, as python-chess does)."""


class IllegalMoveError(ValueError):
    """A move the rules do not allow in this position; the message is one line saying why."""

"""The tips of the rules as named checks: does a move follow or break the tip in this position?

A ``Tip`` has an id (``tommy.high-pile``), the rules files it comes from, and a check ``(position, move) ->
Verdict | None`` (None: the tip says nothing about this move here). Its text, in the rules' own words per
language, is the catalogue message ``tip.<game>.<id>``; each verdict's reason is a message too. The raw check
looks at one move; ``judge`` keeps only verdicts that reflect a choice: a move *breaks* a tip only where some
other legal move would not (a tip that every move breaks cannot be followed here, so it is not broken), and it
*follows* a tip only where some other legal move would not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from assistant.cards import Card
from assistant.coach.i18n import card_text, rank_text, tr


# -- values that are named differently in each language (formatted when the reason is written) -----------


@dataclass(frozen=True)
class RankName:
    rank: int


@dataclass(frozen=True)
class Pile:
    """A waste pile (``kind="waste"``) or foundation (``kind="foundation"``), numbered as in the move notation."""

    kind: str
    index: int


@dataclass(frozen=True)
class Line:
    """A Poker row or column, numbered from 1 as in ``r1c3``."""

    kind: str  # "row" | "column"
    index: int  # 0-based


@dataclass(frozen=True)
class Word:
    """A catalogue message used as a value (``hand.pair``)."""

    key: str


def localize(lang: str, value: Any) -> str:
    if isinstance(value, Card):
        return card_text(lang, value)
    if isinstance(value, RankName):
        return rank_text(lang, value.rank)
    if isinstance(value, Pile):
        return tr(lang, f"term.{value.kind}", n=value.index)
    if isinstance(value, Line):
        return tr(lang, f"term.{value.kind}", n=value.index + 1)
    if isinstance(value, Word):
        return tr(lang, value.key)
    if isinstance(value, (list, tuple)):
        return " ".join(localize(lang, v) for v in value)
    return str(value)


# -- tips and verdicts ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tip:
    game: str  # "tommy" | "poker"
    id: str
    sources: tuple[str, ...]  # the rules files that give it ("000", "001", ...)
    check: Callable[[Any, Any], "Verdict | None"] = field(compare=False, repr=False)

    @property
    def key(self) -> str:
        return f"tip.{self.game}.{self.id}"

    @property
    def name(self) -> str:
        return f"{self.game}.{self.id}"

    def text(self, lang: str) -> str:
        """The tip in the rules' own words in ``lang``."""
        return tr(lang, self.key)

    def title(self, lang: str) -> str:
        """A few words naming the tip (for lists and tables)."""
        return tr(lang, f"{self.key}.title")


@dataclass(frozen=True)
class Verdict:
    """A tip's judgement of one move: ``follows`` or not, and why (a catalogue message and its fields)."""

    follows: bool
    why: str
    fields: dict = field(default_factory=dict)
    tip: Tip | None = None

    def reason(self, lang: str) -> str:
        return tr(lang, self.why, **{k: localize(lang, v) for k, v in self.fields.items()})


def verdicts(tips: Sequence[Tip], position: Any, move: Any) -> dict[str, Verdict]:
    """Every tip's raw verdict on ``move`` (tips with nothing to say left out), by tip name."""
    out = {}
    for tip in tips:
        v = tip.check(position, move)
        if v is not None:
            out[tip.name] = Verdict(v.follows, v.why, v.fields, tip)
    return out


def judge(tips: Sequence[Tip], position: Any, move: Any, alternatives: Sequence[Any]) -> list[Verdict]:
    """The verdicts on ``move`` that reflect a choice among ``alternatives`` (the other legal moves): those where
    some alternative's verdict differs (follows where ``move`` breaks, breaks or says nothing where it follows...)."""
    mine = verdicts(tips, position, move)
    if not mine:
        return []
    others = [verdicts(tips, position, a) for a in alternatives if a != move]
    out = []
    for name, v in mine.items():
        theirs = [o[name].follows if name in o else None for o in others]
        if any(t is not v.follows for t in theirs):
            out.append(v)
    return out

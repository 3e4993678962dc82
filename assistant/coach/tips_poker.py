"""Poker Patience's tips (rule 004, "Tipps für Einsteiger" and "Spielablauf") as checks on a placement.

The position is a ``PokerState`` with a turned card waiting (``state.current``); the move is a ``Placement``.
Readings:

* "Halte eine oder zwei Spalten für Flushs frei: Dort sammelst du eine Farbe, in den Reihen dann Paare und Full
  Houses." -- two checks: ``flush-columns`` (a card joins a column holding only its suit; putting another suit
  into such a column spoils it) and ``pairs-rows`` (a card goes to a row holding its rank; also 004's
  "gleiche Werte in einer Reihe sammeln"; putting it into another row breaks the tip only where a row with its rank
  had room).
* "Paare und Drillinge kommen von selbst; plane lieber die selteneren Hände." (``plan-rare``): a placement keeps
  a flush or straight draw of two or more cards going; it breaks the tip when it takes a pair or three of a kind
  in one line at the cost of such a draw in the other.
* "Bei englischer Wertung sind Straßen viel wert – versuch es aber nur, wenn die Werte nah beieinanderliegen."
  (``straights``, English scoring only): a card extends a line of close, distinct ranks (a straight is still
  possible); it breaks the tip when it ends such a line's straight without pairing in it.
* "Füll nicht zu früh eine Reihe ganz auf: Freie Plätze sind dein „Mülleimer“ für Karten, die nirgends passen."
  (``bin``): completing a row while ten or more cells are still free breaks it; a card that fits nowhere (no
  pair in a row, no column of its suit) put into a column already holding two suits follows it.
"""

from __future__ import annotations

from assistant.cards import Card
from assistant.coach.tips import Line, Tip, Verdict, Word, judge, verdicts
from assistant.games.poker import Placement, PokerState
from assistant.games.poker_hands import Scoring

EARLY = 10  # free cells left after completing a row that make it "too early"


def _v(follows: bool, why: str, **fields) -> Verdict:
    return Verdict(follows, why, fields)


def _row(state: PokerState, p: Placement) -> list[Card]:
    return [c for i, c in enumerate(state.grid[p.row]) if i != p.col and c is not None]


def _col(state: PokerState, p: Placement) -> list[Card]:
    return [state.grid[r][p.col] for r in range(5) if r != p.row and state.grid[r][p.col] is not None]


def _one_suit(cards: list[Card]) -> bool:
    return bool(cards) and len({c.suit for c in cards}) == 1


def _straight_possible(ranks: list[int]) -> bool:
    """Distinct ranks that still fit in one straight (Ace high or low, never round the corner)."""
    if len(set(ranks)) != len(ranks):
        return False
    if not ranks:
        return True
    if max(ranks) - min(ranks) <= 4:
        return True
    high = [14 if r == 1 else r for r in ranks]
    return max(high) - min(high) <= 4


_HAND = {1: "hand.pair", 2: "hand.three", 3: "hand.four"}


def flush_columns(state: PokerState, p: Placement) -> Verdict | None:
    """004: "Halte eine oder zwei Spalten für Flushs frei: Dort sammelst du eine Farbe"."""
    card, col = state.current, _col(state, p)
    if not _one_suit(col):
        return None
    if col[0].suit == card.suit:
        return _v(True, "why.poker.flush-columns.joins", card=card, n=len(col), line=Line("column", p.col))
    return _v(False, "why.poker.flush-columns.spoils", card=card, other=col[0], line=Line("column", p.col))


def pairs_rows(state: PokerState, p: Placement) -> Verdict | None:
    """004: "in den Reihen dann Paare und Full Houses"; "gleiche Werte in einer Reihe sammeln"."""
    card, row = state.current, _row(state, p)
    same = sum(1 for c in row if c.rank == card.rank)
    if same:
        return _v(True, "why.poker.pairs-rows.pairs", card=card, hand=Word(_HAND[same]), line=Line("row", p.row))
    if row and any(c.rank == card.rank for q in state.legal_cells() for c in _row(state, q)):
        return _v(False, "why.poker.pairs-rows.alone", card=card, line=Line("row", p.row))  # a pair was possible
    return None


def _draw(cards: list[Card]) -> str | None:
    """"flush" / "straight" when two or more cards of a line still make one, else None."""
    if len(cards) < 2:
        return None
    if _one_suit(cards):
        return "flush"
    if _straight_possible([c.rank for c in cards]):
        return "straight"
    return None


def _keeps(cards: list[Card], card: Card, draw: str) -> bool:
    both = cards + [card]
    return _one_suit(both) if draw == "flush" else _straight_possible([c.rank for c in both])


def plan_rare(state: PokerState, p: Placement) -> Verdict | None:
    """004: "Paare und Drillinge kommen von selbst; plane lieber die selteneren Hände." """
    card = state.current
    lines = ((Line("row", p.row), _row(state, p)), (Line("column", p.col), _col(state, p)))
    for line, cards in lines:
        draw = _draw(cards)
        if draw and _keeps(cards, card, draw):
            return _v(True, "why.poker.plan-rare.keeps", card=card, hand=Word(f"hand.{draw}"), line=line)
    for (line, cards), (other_line, other) in (lines, lines[::-1]):
        same = sum(1 for c in cards if c.rank == card.rank)
        draw = _draw(other)
        if same and draw and not _keeps(other, card, draw):
            return _v(False, "why.poker.plan-rare.pair-over-draw", card=card, hand=Word(_HAND[same]), line=line,
                      draw=Word(f"hand.{draw}"), other=other_line)
    return None


def straights(state: PokerState, p: Placement) -> Verdict | None:
    """004: "Bei englischer Wertung sind Straßen viel wert – versuch es aber nur, wenn die Werte nah
    beieinanderliegen." """
    if state.rules.scoring != Scoring.ENGLISH:
        return None
    card = state.current
    for line, cards in ((Line("row", p.row), _row(state, p)), (Line("column", p.col), _col(state, p))):
        ranks = [c.rank for c in cards]
        if len(cards) >= 2 and _straight_possible(ranks) and not _one_suit(cards):
            if _straight_possible(ranks + [card.rank]):
                return _v(True, "why.poker.straights.close", card=card, line=line)
            if card.rank not in ranks:
                return _v(False, "why.poker.straights.ends", card=card, line=line)
    return None


def _fits_somewhere(state: PokerState, card: Card) -> bool:
    for q in state.legal_cells():
        if any(c.rank == card.rank for c in _row(state, q)):
            return True
        col = _col(state, q)
        if _one_suit(col) and col[0].suit == card.suit:
            return True
    return False


def bin_cells(state: PokerState, p: Placement) -> Verdict | None:
    """004: "Füll nicht zu früh eine Reihe ganz auf: Freie Plätze sind dein „Mülleimer“ für Karten, die nirgends
    passen." """
    card = state.current
    row = _row(state, p)
    free_after = sum(1 for c in state.cells if c is None) - 1
    if len(row) == 4 and free_after >= EARLY:
        return _v(False, "why.poker.bin.row-full", card=card, line=Line("row", p.row), n=free_after)
    col = _col(state, p)
    if len({c.suit for c in col}) >= 2 and not _fits_somewhere(state, card):
        return _v(True, "why.poker.bin.used", card=card, line=Line("column", p.col))
    return None


# The more specific tips first: the coach names the first tip a move follows.
TIPS: tuple[Tip, ...] = (
    Tip("poker", "flush-columns", ("004",), flush_columns),
    Tip("poker", "pairs-rows", ("004",), pairs_rows),
    Tip("poker", "straights", ("004",), straights),
    Tip("poker", "bin", ("004",), bin_cells),
    Tip("poker", "plan-rare", ("004",), plan_rare),
)
BY_NAME = {t.name: t for t in TIPS}


def judge_placement(state: PokerState, placement) -> list[Verdict]:
    """The tips the placement follows or breaks where the player had a choice (see ``tips.judge``)."""
    if state.current is None:
        raise ValueError("no turned card waits to be placed")
    p = Placement.coerce(placement)
    return judge(TIPS, state, p, state.legal_cells())


def raw_verdicts(state: PokerState, placement) -> dict[str, Verdict]:
    return verdicts(TIPS, state, Placement.coerce(placement))

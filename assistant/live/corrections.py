"""What the player corrected stays corrected. A card the reader misnames is usually misnamed the same way frame after
frame where it lies (its look there, the light on it); once the player has said what it is (``r Qh``), the name
the reader gives it at that spot is taken as the corrected card from then on, so the game goes on where it would
otherwise see an unknown card lying on a taken cell or pile."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from assistant.cards import Card
from assistant.live.table_view import Sighting, TableView

NEAR = 0.15  # a misreading within this many card sizes of the corrected card's spot is that card (a fanned pile's
# cards lie ~0.2 apart, a Poker grid's a card or more)


@dataclass
class Correction:
    """``card`` is read as ``read_as`` at ``spot`` (picture pixels; None until it is seen), followed as it drifts."""

    read_as: Card
    card: Card
    spot: np.ndarray | None = None
    waiting: int | None = None  # a card not in play yet: how many cards were in play when it was named


class Corrections:
    """The player's corrections of one game, applied to each still view before the follower sees it."""

    def __init__(self) -> None:
        self.items: list[Correction] = []

    def add(self, read_as: Card, card: Card, spot=None, waiting: int | None = None) -> None:
        """``card`` was read as ``read_as`` (lying at ``spot`` when known). ``waiting``: the card is not in play
        yet (a new card read as one in play), the number of cards in play now: it is to come next."""
        self.items = [c for c in self.items if c.card != read_as]  # a correction corrected again
        self.items.append(Correction(read_as, card, None if spot is None else np.asarray(spot, np.float64), waiting))

    def forget_places(self) -> None:
        """The camera or the cards moved (the layout is learned again): each misreading is found afresh."""
        for c in self.items:
            c.spot = None

    def apply(self, view: TableView, in_play: set[Card], known: dict, visible: set[Card]) -> TableView:
        """``view`` with each corrected card's misreading renamed. ``in_play``: the cards the game has turned;
        ``known``: where the follower last saw each card; ``visible``: the cards of the game whose face shows on
        the table (not covered). The misreading taken is the sighting of ``read_as`` nearest the card's spot
        (within ``NEAR`` card sizes); a card that may have moved (Sir Tommy: a pile's top played up) and is not
        read anywhere takes the one sighting of ``read_as`` left, away from where a real ``read_as`` lies; a
        covered card takes none.
        Corrections of cards no longer in play (undone) are dropped, and those of a card to come next once
        another came."""
        for c in self.items:
            if c.card in in_play:
                c.waiting = None
        self.items = [c for c in self.items if c.card in in_play or (c.waiting is not None
                                                                     and len(in_play) <= c.waiting)]
        for corr in self.items:
            if corr.card in in_play and corr.card not in visible:
                continue  # covered (a foundation's card under the next one): what is read there is another card
            seen = [s for s in (view.cards.get(corr.read_as), view.elsewhere.get(corr.read_as)) if s is not None]
            reach = NEAR * (view.card_size or max((s.long_side for s in seen), default=0.0))
            if corr.read_as in in_play and corr.read_as in known:  # the real one, lying where the game has it
                seen = [s for s in seen if _dist(s.xy, known[corr.read_as]) > reach]
            if not seen:
                continue
            near = [] if corr.spot is None else [s for s in seen if _dist(s.xy, corr.spot) <= reach]
            if near:
                s = min(near, key=lambda x: _dist(x.xy, corr.spot))
            elif len(seen) == 1 and corr.card not in view and corr.card in visible:
                s = seen[0]
            else:
                continue
            corr.spot = s.xy
            view = _renamed(view, s, corr.card)
        return view


def unplaced(view: TableView, in_play: set[Card], known: dict, card_size: float, problem: str | None):
    """``(name, spot)`` of a new card the game cannot place, or None: a card in play read steadily at a second spot
    away from its own (``known``: where the follower saw each card; a new card misread as it), else the card not in
    play read steadily and whole on the table (a pile's top, not a covered corner) that the follower has not taken:
    the one its ``problem`` of the moment names ("5c lies on a foundation where the rules do not allow it"), or the
    only one. What a player's correction names before the last card turned."""
    for c, second in view.elsewhere.items():
        if c not in known:
            continue
        s = max((x for x in (view.cards.get(c), second) if x is not None), key=lambda x: _dist(x.xy, known[c]))
        if _dist(s.xy, known[c]) > 0.5 * (view.card_size or s.long_side):
            return c, s.xy
    new = [c for c, s in view.cards.items() if c not in in_play and view.sure(c) and s.whole(card_size)]
    new = [c for c in new if str(c) in (problem or "").split()] or new
    return (new[0], view[new[0]].xy) if len(new) == 1 else None


def _dist(a, b) -> float:
    return float(np.hypot(*(np.asarray(a, np.float64) - np.asarray(b, np.float64))))


def _renamed(view: TableView, s: Sighting, card: Card) -> TableView:
    """``view`` with the sighting ``s`` (of its ``cards`` or ``elsewhere``) read as ``card`` instead."""
    cards, elsewhere = dict(view.cards), dict(view.elsewhere)
    if cards.get(s.card) is s:
        del cards[s.card]
        if s.card in elsewhere:
            cards[s.card] = elsewhere.pop(s.card)
    else:
        del elsewhere[s.card]
    mine = replace(s, card=card)
    if card not in cards:
        cards[card] = mine
    elif card not in elsewhere:
        elsewhere[card] = mine
    return replace(view, cards=cards, elsewhere=elsewhere)

"""The Sir Tommy game state: turn cards (chance), place them, play waste tops up, undo, save.

The stock is a chance element (OpenSpiel style): the player turns the real cards one at a time and the app
learns each card only then. ``needs_card()`` says the next card may be turned, ``turn(card)`` applies it
(``turn_next()`` takes it from a known ``order`` instead, for simulations). Every other action is a ``Move``
(see ``tommy_rules``): ``legal_moves()``, ``apply(move)``, ``undo()``.

Readings of the rules (where the texts leave a detail open), each tested in tests/test_tommy*.py:

* "You must place it straight away" (001) / "Na elke plaatsing mag je ook de huidige bovenkant van een
  aflegstapel naar een fundering spelen" (002: after each placement): while turned cards are in hand the only
  moves are placing them; waste tops move to the foundations (and, in Strategy, to other waste piles) only
  with an empty hand. With an empty hand the player may play waste tops up before or after turning.
* Nothing is forced: a card that fits a foundation may go on a waste pile instead ("If it doesn't fit, or
  you'd rather keep it"), and waste tops may be played up in any order, or not at all.
* Four at a time: the four cards (fewer at the end: "turn what remains") are turned together; no move is
  legal until all are turned; then they are placed in any order (``S0``..``S3`` index the cards still in
  hand, in the order turned, so ``S0`` is always the earliest).
* An empty foundation takes any Ace ("An Ace starts a new foundation"), on any empty foundation; Numerica
  allows only the leftmost empty one. In suit, a foundation keeps the suit of its Ace.
* Terminal: the stock and hand are empty, no redeal is possible, and no waste card can reach a foundation.
  Without Strategy that means no waste top fits. In Strategy any buried card can be dug out (any top may go
  on any other pile), so the game is over exactly when no card anywhere in the waste piles fits a foundation:
  waste-to-waste moves alone never keep a game alive. (With foundations built regardless of suit this means
  Strategy is always won once the stock is out; the rules say it makes the game "aanzienlijk eenvoudiger".)
  ``legal_moves()`` is empty in a terminal state.
* Redeal (``R``): legal once the stock and hand are empty and cards remain on the waste piles, while redeals
  are left; it may be taken even when waste tops still fit. In-suit shuffles the gathered cards (Cheney: "pick
  up the waste piles, shuffle them"), so their order is a chance outcome again; one-redeal (002 "samenvoegen",
  merge) does not shuffle: W0 bottom-to-top, then W1, W2, W3 is the new stock, known to the player, and
  ``turn(card)`` then accepts only the next card of it. Merging is the literal reading of the Dutch text and
  keeps the game one of skill: the player can plan the second pass.
* Puss in the Corner (002): the Aces start on the foundations and the Kings are out of the game, so 48 cards
  are in play, the stock holds 44 and each foundation runs A to Q (PySolFC's game of that name builds by colour
  with Kings; we follow the text, which keeps Sir Tommy's any-suit building).
* Calculation: base cards A, 2, 3, 4 on foundations 0-3 before play, as in PySolFC's Calculation. With an
  ``order`` of the whole deck the bases are the first A, 2, 3, 4 in it and are taken out (``bases=`` chooses
  them, e.g. the ones a player laid out); with no order and no bases the player is assumed to have laid out
  the spades A-4 (PySolFC's Hopscotch).
"""

from __future__ import annotations

import copy
from typing import Iterable, Sequence

import numpy as np

from assistant.cards import Card, CardError, Rank, check_distinct, full_deck, parse_cards
from assistant.games.tommy_contest import TommyResult, compare_results
from assistant.games.tommy_io import (
    _TEXT,
    SAVE_FORMAT,
    TommyView,
    player_view,
    state_from_dict,
    state_to_arrays,
    state_to_dict,
    text_of,
)
from assistant.games.tommy_rules import (
    ALIASES,
    PILES,
    PRESETS,
    REDEAL,
    IllegalMoveError,
    Move,
    MoveParseError,
    TommyRules,
)

__all__ = [
    "ALIASES", "PRESETS", "CardError", "IllegalMoveError", "Move", "MoveParseError", "TommyRules",
    "TommyState", "TommyView", "TommyResult", "compare_results", "SAVE_FORMAT",
]

_MOVES: dict[tuple, Move] = {}
_SORT_KEY = {c: (c.rank, c.suit) for c in full_deck()}.__getitem__  # sorted(cards) order, faster

_ACES = [Card.from_index(13 * s) for s in range(4)]


def _mv(source: str, i: int | None, target: str, j: int) -> Move:
    """A cached Move (legal_moves builds many)."""
    key = (source, i, target, j)
    move = _MOVES.get(key)
    if move is None:
        move = _MOVES[key] = Move(source, i, target, j)
    return move


def _seeded_rng(cards: Sequence[Card], salt: int) -> np.random.Generator:
    """A generator seeded from a card order (and a number), for redeals of a seeded deal."""
    return np.random.Generator(np.random.PCG64([salt] + [c.index for c in cards]))


def _piles(piles, what: str) -> list[list[Card]]:
    """Four piles from lists of cards or a text ``"As 2h | - | 3c | -"`` ('-' or nothing for an empty pile)."""
    if piles is None:
        return [[] for _ in range(PILES)]
    if isinstance(piles, str):
        piles = [p.replace("-", " ").split() for p in piles.split("|")]
    piles = [_cards(p) for p in piles]
    if len(piles) != PILES:
        raise ValueError(f"{what}: {PILES} piles are needed, got {len(piles)}")
    return piles


def _cards(cards: Iterable[Card | str] | str) -> list[Card]:
    if isinstance(cards, str):
        return parse_cards(cards)
    return [c if isinstance(c, Card) else Card.parse(c) for c in cards]


class TommyState:
    """A game of Sir Tommy in progress. ``TommyState(TommyRules.preset("standard"))`` starts one.

    ``order``: the stock order, first turned first (the whole deck, or just the stock); cards that are not in
    play (Kings in Puss in the Corner) and the base cards are taken out of a whole deck. ``bases``: the four
    cards put on the foundations before play (aces-out-first, puss-in-the-corner, calculation). ``rng``: a
    numpy Generator that shuffles the stock at a shuffled redeal, for ``turn_next()``; with an ``order`` and no
    ``rng`` one is seeded from the order, so a seeded deal (the app as caller, simulations) plays on after
    a redeal and replays identically.

    Public, read-only attributes: ``rules``, ``foundations`` and ``waste`` (lists of lists of Card, bottom
    first), ``hand`` (turned cards not yet placed, in the order turned), ``history`` (Card for a turn, Move
    for a move), ``redeals_left``.
    """

    def __init__(
        self,
        rules: TommyRules | str | None = None,
        order: Sequence[Card | str] | str | None = None,
        *,
        bases: Sequence[Card | str] | str | None = None,
        rng: np.random.Generator | None = None,
    ) -> None:
        if rules is None:
            rules = PRESETS["standard"]
        elif isinstance(rules, str):
            rules = TommyRules.preset(rules)
        self.rules: TommyRules = rules
        self.rng = rng
        deck = rules.deck()
        order_list = _cards(order) if order is not None else None
        if order_list is not None:
            check_distinct(order_list)
        self.bases: tuple[Card, ...] = self._choose_bases(bases, order_list)
        self.foundations: list[list[Card]] = [[b] for b in self.bases] if self.bases else [[] for _ in range(PILES)]
        self.waste: list[list[Card]] = [[] for _ in range(PILES)]
        self.hand: list[Card] = []
        self._stock: set[Card] = set(deck) - set(self.bases)
        self._seen: set[Card] = set(self.bases)
        self._order: list[Card] | None = None  # remaining stock order, next card first
        self._order_known = False  # the player knows the order (after an unshuffled redeal)
        self._batch_left = 0  # cards still to turn in the current batch (four at a time)
        self.redeals_left: int = rules.redeals
        self.history: list[Card | Move] = []
        self._history_text: list[str] = []  # str() of each history item, kept in step
        self._undo: list[tuple] = []
        self._start: dict | None = None  # the layout a game set up with from_layout() started from
        self._assumed: set[Card] = set()  # cards a game taken over from the table assumes under foundation tops
        if order_list is not None:
            in_play = set(deck)
            stock_order = [c for c in order_list if c in in_play and c not in self._seen]
            if set(stock_order) != self._stock or len(stock_order) != len(self._stock):
                missing = sorted(self._stock - set(stock_order))
                raise ValueError(
                    f"the order must hold the {len(self._stock)} stock cards (or the whole deck); "
                    f"missing: {' '.join(map(str, missing[:8]))}{' ...' if len(missing) > 8 else ''}"
                )
            self._order = stock_order
            if self.rng is None and rules.redeals and rules.shuffle_on_redeal:
                self.rng = _seeded_rng(order_list, 0)

    @classmethod
    def from_layout(
        cls,
        rules: TommyRules | str | None = None,
        foundations: Sequence[Sequence[Card | str]] | str | None = None,
        waste: Sequence[Sequence[Card | str]] | str | None = None,
        *,
        order: Sequence[Card | str] | str | None = None,
        redeals_left: int | None = None,
        rng: np.random.Generator | None = None,
    ) -> "TommyState":
        """A game joined in the middle, between turns: the given foundations and waste piles (bottom first;
        text like ``"As 2h 3h | Ac | - | -"`` works too), every other card in play in the stock.

        >>> s = TommyState.from_layout("standard", "As 2s 3s 4s | Ah 2h | Ac | -", "Jd 3d | - | - | -")
        >>> s.stock_count, str(s.legal_moves()[0])
        (43, 'W0>F1')
        """
        if rules is None:
            rules = PRESETS["standard"]
        elif isinstance(rules, str):
            rules = TommyRules.preset(rules)
        found = _piles(foundations, "foundations")
        piles = _piles(waste, "waste")
        everything = [c for p in found + piles for c in p]
        check_distinct(everything)
        for c in everything:
            if c.rank > rules.max_rank:
                raise CardError(f"{c} is not in play: the Kings are removed in {rules.name}")
        bases = None
        if rules.has_bases:
            if not all(found):
                raise ValueError(f"in {rules.name} every foundation starts with its base card")
            bases = [p[0] for p in found]
        state = cls(rules, bases=bases, rng=rng)
        for f, pile in enumerate(found):
            for card in pile[1:] if bases else pile:
                why = state._foundation_refusal(f, card)
                if why is not None:
                    raise ValueError(f"foundation {f} cannot hold {' '.join(map(str, pile))}: {why}")
                state.foundations[f].append(card)
        state.waste = [list(p) for p in piles]
        state._stock -= set(everything)
        state._seen |= set(everything)
        if redeals_left is not None:
            if not 0 <= redeals_left <= rules.redeals:
                raise ValueError(f"redeals_left must be 0..{rules.redeals}, got {redeals_left}")
            state.redeals_left = redeals_left
        state._start = {
            "foundations": [[str(c) for c in p] for p in state.foundations],
            "waste": [[str(c) for c in p] for p in state.waste],
            "redeals_left": state.redeals_left,
        }
        if order is not None:
            state.set_stock_order(order)
        return state

    @classmethod
    def from_table(
        cls,
        rules: TommyRules | str | None = None,
        tops: Sequence[Card | str | None] = (None, None, None, None),
        waste: Sequence[Sequence[Card | str]] | str | None = None,
        *,
        redeals_left: int | None = None,
    ) -> "TommyState":
        """A game taken over from a look at the table: each foundation's top card (None: empty) and the waste piles
        (bottom first); every other card in play in the stock. The cards under a top are not seen: the game
        assumes cards of the ranks it must hold from those not on the table (in suit: the very cards), and when
        an assumed card is turned later it takes another of that rank from the stock instead (on foundations
        built in any suit which card of a rank lies there makes no difference).

        >>> s = TommyState.from_table("standard", ["3h", None, "As", None], "Jd 2d | - | - | -")
        >>> [str(c) for c in s.foundations[0]], s.stock_count
        (['Ah', '2s', '3h'], 46)
        """
        if rules is None:
            rules = PRESETS["standard"]
        elif isinstance(rules, str):
            rules = TommyRules.preset(rules)
        if len(tops) != PILES:
            raise ValueError(f"foundations: {PILES} tops are needed (None for an empty one), got {len(tops)}")
        tops = [None if t is None else (t if isinstance(t, Card) else Card.parse(t)) for t in tops]
        piles = _piles(waste, "waste")
        shown = [t for t in tops if t is not None] + [c for p in piles for c in p]
        check_distinct(shown)
        free = {c for c in rules.deck()} - set(shown)
        found: list[list[Card]] = []
        assumed: set[Card] = set()
        for f, top in enumerate(tops):
            if top is None:
                if rules.has_bases:
                    raise ValueError(f"in {rules.name} every foundation has its base card: foundation {f} shows none")
                found.append([])
                continue
            ranks, rank = [], rules.next_rank(f, None)
            while rank is not None and rank != top.rank and len(ranks) < 13:
                ranks.append(rank)
                rank = rules.next_rank(f, rank)
            if rank != top.rank:
                raise ValueError(f"{top} cannot be the top of foundation {f}")
            under = []
            for r in ranks:
                pool = sorted((c for c in free if c.rank == r and (not rules.in_suit or c.suit == top.suit)),
                              key=_SORT_KEY)
                if not pool:
                    which = (f"the {Card(Rank(r), top.suit)}" if rules.in_suit
                             else f"a{'n' if r in (1, 8) else ''} {Rank(r).label}")
                    raise ValueError(f"foundation {f}'s top {top} needs {which} under it, and "
                                     f"{'it lies' if rules.in_suit else 'every one is'} elsewhere on the table")
                under.append(pool[0])
                free.discard(pool[0])
            found.append(under + [top])
            if not rules.in_suit:  # in suit the cards under a top are known exactly
                assumed.update(under)
        state = cls.from_layout(rules, found, piles, redeals_left=redeals_left)
        state._assumed = assumed
        state._start["assumed"] = sorted(str(c) for c in assumed)
        return state

    def _take_assumed(self, card: Card) -> None:
        """``card`` is turned, but the game assumed it under a foundation top: another card of its rank never seen
        takes its place there, in every state this game has had (the player saw neither)."""
        other = next((c for c in sorted(self._stock, key=_SORT_KEY) if c.rank == card.rank and c not in self._seen),
                     None)
        if other is None or self._order is not None:
            raise CardError(f"{card} was already seen ({self._where(card)}), and no other "
                            f"{card.rank.label} is left in the stock to lie there instead")

        def swap(c: Card) -> Card:
            return other if c == card else card if c == other else c

        def cards(pile):
            return [swap(c) for c in pile]

        self.foundations = [cards(p) for p in self.foundations]
        self.bases = tuple(cards(self.bases))
        self._stock, self._seen = set(cards(self._stock)), set(cards(self._seen))
        self._undo = [(tuple(tuple(cards(p)) for p in f), w, h, frozenset(cards(stock)), frozenset(cards(seen)),
                       *rest) for f, w, h, stock, seen, *rest in self._undo]
        self._assumed = set(cards(self._assumed))
        self._start = {**self._start, "foundations": [[str(swap(Card.parse(c))) for c in p]
                                                      for p in self._start["foundations"]],
                       "assumed": sorted(str(c) for c in self._assumed)}

    def _choose_bases(self, bases, order_list) -> tuple[Card, ...]:
        r = self.rules
        if not r.has_bases:
            if bases is not None:
                raise ValueError(f"the {r.name} rules put no base cards on the foundations")
            return ()
        if bases is not None:
            chosen = _cards(bases)
            check_distinct(chosen)
        elif r.calculation:
            # As PySolFC's Calculation takes them out of the shuffled deck: the first A, 2, 3, 4 of a whole-deck
            # order; the four missing cards of a stock-only order; the spades A-4 when no order is known.
            if order_list is None:
                chosen = [Card.from_index(rank - 1) for rank in (1, 2, 3, 4)]
            elif len(order_list) == 52:
                chosen = [next(c for c in order_list if c.rank == rank) for rank in (1, 2, 3, 4)]
            else:
                given = set(order_list)
                chosen = sorted((c for c in r.deck() if c not in given), key=lambda c: c.rank)
        else:
            chosen = [Card.from_index(13 * s) for s in range(4)]
        if len(chosen) != 4:
            raise ValueError(f"four base cards are needed, got {len(chosen)}")
        for k, c in enumerate(chosen):
            want = k + 1 if r.calculation else 1
            if c.rank != want:
                raise ValueError(f"base card {k} must be a{'n' if want == 1 else ''} {Rank(want).label}, got {c}")
        return tuple(chosen)

    # -- chance: the stock -------------------------------------------------------------------------------
    @property
    def stock_count(self) -> int:
        return len(self._stock)

    def needs_card(self) -> bool:
        """True when the next card may be turned from the stock (a chance outcome: ``turn`` / ``turn_next``)."""
        return bool(self._stock) and (self._batch_left > 0 or not self.hand)

    def chance_outcomes(self) -> list[Card]:
        """The cards that may be turned next, as far as the player knows (all equally likely)."""
        if not self.needs_card():
            return []
        if self._order_known:
            return [self._order[0]]
        return sorted(self._stock, key=_SORT_KEY)

    def stock_cards(self) -> list[Card]:
        """The cards in the stock (as a set the player may know them after a redeal), sorted."""
        return sorted(self._stock, key=_SORT_KEY)

    @property
    def assumed(self) -> frozenset[Card]:
        """The cards a game taken over from the table assumes under foundation tops (:meth:`from_table`): never
        seen, so any of them may still be turned (it then trades places with another of its rank)."""
        return frozenset(self._assumed)

    def unseen(self) -> list[Card]:
        """Cards in play never seen by the player (not yet turned), sorted. Buried cards under the old strict
        rule were seen when turned: the player has to remember them; ``player_view()`` hides them."""
        return sorted((c for c in self._stock if c not in self._seen), key=_SORT_KEY)

    def turn(self, card: Card | str) -> None:
        """Apply a chance outcome: ``card`` was turned from the stock. CardError if it cannot be next."""
        card = card if isinstance(card, Card) else Card.parse(card)
        if not self.needs_card():
            if not self._stock:
                raise CardError(f"cannot turn {card}: the stock is empty")
            raise CardError(f"cannot turn {card}: place the turned card{'s' if len(self.hand) > 1 else ''} first")
        if card in self._assumed:
            self._take_assumed(card)
        if card not in self._stock:
            raise CardError(self._why_not_in_stock(card))
        if self._order is not None and self._order[0] != card:
            if self._order_known:
                raise CardError(f"{card} cannot come next: the gathered stock turns {self._order[0]} next")
            raise CardError(f"{card} cannot come next: the deal order says {self._order[0]}")
        self._push()
        if self._batch_left == 0:
            self._batch_left = min(self.rules.turn_count, len(self._stock))
        self._batch_left -= 1
        self._stock.remove(card)
        if self._order is not None:
            self._order.pop(0)
            if not self._order:
                self._order, self._order_known = None, False
        self._seen.add(card)
        self.hand.append(card)
        self.history.append(card)
        self._history_text.append(_TEXT[card])

    def _why_not_in_stock(self, card: Card) -> str:
        if card.rank > self.rules.max_rank:
            return f"{card} is not in play: the Kings are removed in {self.rules.name}"
        where = self._where(card)
        return f"{card} was already seen ({where})"

    def _where(self, card: Card) -> str:
        for i, f in enumerate(self.foundations):
            if card in f:
                return f"on foundation {i}"
        for i, w in enumerate(self.waste):
            if card in w:
                return f"on waste pile {i}"
        return "in hand" if card in self.hand else "in the stock"

    def turn_next(self) -> Card:
        """Turn the next card of the known order (or, without one, a random stock card drawn with ``rng``)."""
        if not self.needs_card():
            raise CardError("no card to turn now" if self._stock else "the stock is empty")
        if self._order is not None:
            card = self._order[0]
        elif self.rng is not None:
            pool = sorted(self._stock, key=_SORT_KEY)
            card = pool[int(self.rng.integers(len(pool)))]
        else:
            raise CardError("the stock order is unknown: call turn(card) or set_stock_order(order)")
        self.turn(card)
        return card

    deal_next = turn_next

    def set_stock_order(self, order: Sequence[Card | str] | str) -> None:
        """Fix the order of the stock (a permutation of ``stock_cards()``), e.g. to play out a sampled deal."""
        cards = _cards(order)
        check_distinct(cards)
        if set(cards) != self._stock or len(cards) != len(self._stock):
            raise ValueError("the order must be a permutation of the stock cards")
        if self._order_known and cards != self._order:
            raise ValueError("the stock order is already known (an unshuffled redeal)")
        self._order = cards or None

    # -- moves --------------------------------------------------------------------------------------------
    def foundation_accepts(self, f: int, card: Card) -> bool:
        """Whether ``card`` may go on foundation ``f`` now."""
        return self._foundation_refusal(f, card) is None

    def foundation_needs(self, f: int) -> int | None:
        """The rank foundation ``f`` takes next (1 = Ace when empty), None when complete."""
        pile = self.foundations[f]
        return self.rules.next_rank(f, pile[-1].rank if pile else None)

    def _fits(self, f: int, card: Card) -> bool:
        """Fast ``foundation_accepts`` (no message); kept in step with ``_foundation_refusal``."""
        pile = self.foundations[f]
        r = self.rules
        if not pile:
            if r.calculation or card.rank != 1:
                return False
            return not r.foundations_in_order or f == 0 or bool(self.foundations[f - 1])
        top = pile[-1].rank
        if r.calculation:
            return top != 13 and card.rank == (top + f) % 13 + 1
        return card.rank == top + 1 and (not r.in_suit or card.suit == pile[0].suit)

    def _foundation_refusal(self, f: int, card: Card) -> str | None:
        r = self.rules
        pile = self.foundations[f]
        need = r.next_rank(f, pile[-1].rank if pile else None)
        if need is None:
            return f"foundation {f} is complete"
        if not pile:
            if card.rank != 1:
                return f"{card} cannot start foundation {f}: an empty foundation takes an Ace"
            if r.foundations_in_order:
                first_empty = next(i for i, p in enumerate(self.foundations) if not p)
                if first_empty != f:
                    return f"start foundation {first_empty} first: foundations are started left to right"
            return None
        if card.rank != need:
            how = f" (builds by {r.step(f)})" if r.calculation else ""
            return f"{card} does not fit on foundation {f}{how}: it needs a{'n' if need in (1, 8) else ''} {Rank(need).label}"
        if r.in_suit and card.suit != pile[0].suit:
            return f"{card} does not fit on foundation {f}: in suit it takes only {Card(Rank(need), pile[0].suit)}"
        return None

    def _refusal(self, move: Move) -> str | None:
        """Why ``move`` is illegal now (one line), or None when it is legal."""
        if self.is_terminal():
            return "the game is over"
        if self._batch_left > 0:
            return f"turn the rest of the {self.rules.turn_count} cards first"
        if move.is_redeal:
            if self.redeals_left <= 0:
                return "no redeal left" if self.rules.redeals else f"there is no redeal in {self.rules.name}"
            if self.hand:
                return "place the turned cards first"
            if self._stock:
                return "a redeal comes only when the stock is used up"
            if not any(self.waste):
                return "the waste piles are empty"
            return None
        if move.source == "S":
            if not self.hand:
                return "no turned card in hand: turn a card from the stock first" if self._stock else "no card in hand"
            k = move.source_index or 0
            if k >= len(self.hand):
                return f"S{k}: only {len(self.hand)} turned card{'s' if len(self.hand) > 1 else ''} in hand"
            card = self.hand[k]
        else:
            if self.hand:
                return f"place the turned card{'s' if len(self.hand) > 1 else ''} first: a turned card must be placed straight away"
            pile = self.waste[move.source_index]
            if not pile:
                return f"waste pile {move.source_index} is empty"
            card = pile[-1]
            if move.target == "W":
                if not self.rules.waste_to_waste:
                    return "cards never move from one waste pile to another (only in Strategy)"
                if move.target_index == move.source_index:
                    return "a card cannot move onto its own pile"
        if move.target == "F":
            return self._foundation_refusal(move.target_index, card)
        return None

    def legal_moves(self) -> list[Move]:
        """All legal moves, in a fixed order: hand cards (to foundations 0-3, then waste piles 0-3); with an
        empty hand waste tops to foundations, then waste-to-waste (Strategy), then ``R``. Empty when the game
        is over, while a batch is being turned, or when only a turn is possible."""
        if self._batch_left > 0 or self.is_terminal():
            return []
        moves: list[Move] = []
        if self.hand:
            one = self.rules.turn_count == 1
            for k, card in enumerate(self.hand):
                idx = None if one else k
                for f in range(PILES):
                    if self._fits(f, card):
                        moves.append(_mv("S", idx, "F", f))
                for w in range(PILES):
                    moves.append(_mv("S", idx, "W", w))
            return moves
        for i, pile in enumerate(self.waste):
            if pile:
                for f in range(PILES):
                    if self._fits(f, pile[-1]):
                        moves.append(_mv("W", i, "F", f))
        if self.rules.waste_to_waste:
            for i, pile in enumerate(self.waste):
                if pile:
                    moves.extend(_mv("W", i, "W", j) for j in range(PILES) if j != i)
        if self._refusal(REDEAL) is None:
            moves.append(REDEAL)
        return moves

    def is_legal(self, move: Move | str) -> bool:
        move = move if isinstance(move, Move) else Move.parse(move)
        return self._refusal(move) is None

    def apply(self, move: Move | str) -> None:
        """Make ``move`` (a Move or its text); IllegalMoveError says why not, and the state is unchanged."""
        move = move if isinstance(move, Move) else Move.parse(move)
        why = self._refusal(move)
        if why is not None:
            raise IllegalMoveError(f"{move}: {why}")
        self._push()
        if move.is_redeal:
            self._redeal()
        else:
            card = self.hand.pop(move.source_index or 0) if move.source == "S" else self.waste[move.source_index].pop()
            (self.foundations if move.target == "F" else self.waste)[move.target_index].append(card)
        self.history.append(move)
        self._history_text.append(text_of(move))

    push = apply

    def _redeal(self) -> None:
        gathered = [c for pile in self.waste for c in pile]
        self.waste = [[] for _ in range(PILES)]
        self.redeals_left -= 1
        self._stock = set(gathered)
        if self.rules.shuffle_on_redeal:
            self._order_known = False
            self._order = None
            if self.rng is not None:
                perm = self.rng.permutation(len(gathered))
                pool = sorted(gathered)
                self._order = [pool[i] for i in perm]
        else:
            self._order, self._order_known = gathered, True

    # -- undo, clone --------------------------------------------------------------------------------------
    def _snapshot(self) -> tuple:
        return (
            tuple(map(tuple, self.foundations)), tuple(map(tuple, self.waste)), tuple(self.hand),
            frozenset(self._stock), frozenset(self._seen), tuple(self._order) if self._order is not None else None,
            self._order_known, self._batch_left, self.redeals_left, len(self.history),
        )

    def _push(self) -> None:
        self._undo.append(self._snapshot())

    def undo(self) -> Card | Move:
        """Take back the last turn or move, restoring the exact previous state; returns it."""
        if not self._undo:
            raise IllegalMoveError("nothing to undo")
        f, w, h, stock, seen, order, known, batch, redeals, n = self._undo.pop()
        self.foundations = [list(p) for p in f]
        self.waste = [list(p) for p in w]
        self.hand = list(h)
        self._stock, self._seen = set(stock), set(seen)
        self._order = list(order) if order is not None else None
        self._order_known, self._batch_left, self.redeals_left = known, batch, redeals
        last = self.history[-1]
        del self.history[n:]
        del self._history_text[n:]
        return last

    pop = undo

    def with_bases(self, bases: Sequence[Card | str] | str) -> "TommyState":
        """The same rules before play, on the base cards the player laid out (Calculation: any A, 2, 3 and 4);
        ValueError for a wrong set."""
        return TommyState(self.rules, bases=bases, rng=self.rng)

    def clone(self) -> "TommyState":
        """An independent copy (the rng, if any, is copied too)."""
        new = copy.copy(self)
        new.foundations = [list(p) for p in self.foundations]
        new.waste = [list(p) for p in self.waste]
        new.hand = list(self.hand)
        new._stock, new._seen = set(self._stock), set(self._seen)
        new._assumed = set(self._assumed)
        new._order = list(self._order) if self._order is not None else None
        new.history = list(self.history)
        new._history_text = list(self._history_text)
        new._undo = list(self._undo)
        new.rng = copy.deepcopy(self.rng)
        return new

    # -- outcome ------------------------------------------------------------------------------------------
    def foundation_cards(self) -> int:
        """The progress score (002): cards on the foundations, of ``rules.cards_in_play``."""
        return sum(len(p) for p in self.foundations)

    def is_won(self) -> bool:
        return self.foundation_cards() == self.rules.cards_in_play

    def is_terminal(self) -> bool:
        if self.hand or self._stock:
            return False
        if self.is_won():
            return True
        if self.redeals_left > 0:
            return False  # waste is not empty (else won), so a redeal is possible
        if not self.rules.waste_to_waste:
            return not any(self._fits(f, p[-1]) for p in self.waste if p for f in range(PILES))
        ranks, cards = self._wanted()
        return not any(c.rank in ranks or c in cards for p in self.waste for c in p)

    def _wanted(self) -> tuple[set[int], set[Card]]:
        """What the foundations take now: ranks in any suit, and single cards (in suit)."""
        ranks: set[int] = set()
        cards: set[Card] = set()
        for f, pile in enumerate(self.foundations):
            need = self.rules.next_rank(f, pile[-1].rank if pile else None)
            if need is None or (not pile and (self.rules.calculation or not self._fits(f, _ACES[0]))):
                continue
            if pile and self.rules.in_suit:
                cards.add(Card(Rank(need), pile[0].suit))
            else:
                ranks.add(need)
        return ranks, cards

    def result(self) -> TommyResult:
        return TommyResult(self.is_won(), self.foundation_cards(), self.rules.cards_in_play)

    # -- views --------------------------------------------------------------------------------------------
    def player_view(self) -> TommyView:
        """The layout as the player sees it; under the old strict rule buried waste cards are None."""
        return player_view(self)

    view = player_view

    def __str__(self) -> str:
        f = " ".join(str(p[-1]) if p else "--" for p in self.foundations)
        w = " | ".join(" ".join(map(str, p)) or "--" for p in self.waste)
        h = " ".join(map(str, self.hand))
        return f"F: {f}   W: {w}   hand: {h or '-'}   stock: {self.stock_count}"

    def __repr__(self) -> str:
        return f"<TommyState {self.rules.name}: {self}>"

    # -- arrays and save files (assistant/games/tommy_io.py) ----------------------------------------------
    def to_arrays(self) -> dict[str, np.ndarray]:
        """The position as numpy arrays for compiled advisors; the layout is documented in
        ``tommy_io.state_to_arrays``: found int8[4,13], found_len, found_top, waste int8[4,52], waste_len,
        hand int8[4], hand_len, stock_mask bool[52], stock_order int8[52], unseen bool[52], scalars, params."""
        return state_to_arrays(self)

    def to_dict(self) -> dict:
        """A JSON-safe save: rules, bases, start layout, history, the engine's remaining deal order, layout."""
        return state_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict, *, rng: np.random.Generator | None = None) -> "TommyState":
        """Rebuild a game from ``to_dict()`` by replaying its history; ValueError says what is corrupt."""
        return state_from_dict(cls, data, rng)

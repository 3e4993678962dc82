"""Following a Sir Tommy game from still views of the table: where each place is, and which legal move happened.

No markers and no fixed coordinates: every place is where its cards were seen to land. A foundation is where its
top card lies (a card played up covers it); a waste pile is its top card, and the pile grows by a fan step
learned from the first card laid on a pile; the "turned" spot beside the stock is learned from where new cards
first lie before they are laid. Players lay these out in their own way (mirrored, rotated, piles beside the
foundations, a tilted camera): only distances in card sizes and the fan direction are used.

Each change of the still view is explained by the rules: a new card (never turned before) is turned, and laid
where it lies when that is a place; a turned card that moves goes where it lands; a waste top that moves goes to
a foundation; a card never turned whose corner shows one fan step beyond a pile's covered top (or a fan step
before a new card, on an empty spot, or where it was glimpsed lying whole a moment) was turned and laid there
unseen (hands in the way) before the card on it; such a card read only now and then, found under the last card
laid (a slot between that card and the one below) where it was seen before that card joined, was laid first: the
last card is taken back and both are laid in order. A card lying on a foundation one card too high lies on the one
card never turned that was glimpsed there and fits between; a waste card moved onto a foundation that takes it
only on a card seen nowhere (the turned card, gone from the turned spot, or the top above it) lies on that card,
which went up first. Two new cards joining in one view came in the order they were first glimpsed. Only legal
moves are applied (``Session.handle``); what cannot be explained for a while is reported ("table differs from the
game: ...") and nothing is guessed.

A card put down on its own at a new spot may be a new foundation or a new waste pile: an Ace goes up unless it
lines up with the waste piles and not with a foundation (the first Ace always goes up: waste piles laid beside the
foundations share their row); before the turned spot is known, a card at a new spot is taken as turned (in hand)
and placed there once the next card appears, a waste top is played up (no play with a card in hand) or a card is
laid exactly on it (it lies on a foundation); the deal's last card, with none to come, is placed at once. The
turned spot is learned from a card that moves from where it was first seen; a card held there and laid there when
the next comes shows it was a pile's place (an Ace laid on a waste pile and played up at once): it is learned
again. A foundation's one card, laid there from the stock, that moves away whole to a place of its own, or that
has a card laid on it the foundation does not take, lay on a waste pile: the game is told again (the actions since
taken back, published as undos, and played again with that card on a new waste pile). So too when the turned spot
was learned from one card alone and the next card, taken as laid on a new pile, moves to it: the first was laid on
a waste pile there and played up at once. The other way round, a waste pile holding only a card that could start
a foundation was a foundation when a card is laid right on it as on one (covering it, not a fan step on), or when
a card comes to a new place with no waste pile left empty. A new card lying where a waste top lay that has moved
came after that top's move. A card the player renames is placed again by where it lies
(``move_as``): read as an Ace it started a foundation, as itself it starts a waste pile. The card in hand gone
from the turned spot as its suit twin (its rank in the other suit of its colour) appears where it was laid, never
seen at the turned spot, is that card read anew (clubs and spades of a small index): the turn is told again under
the name it has where it lies.

Four at a time: the four new cards are turned first, then each is laid where it lies, from a row beside the stock
or straight from the hand (the player's way is learned from the first batch: ``_step_batch``; a card of it first
seen off the line of the row was laid before the reader saw it there). A card of the batch glimpsed on a foundation
and covered at once by the next card of the batch, which needs it there, was turned before it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assistant.cards import Card
from assistant.events import Play, Turn, TurnAndPlay, Undo
from assistant.games.tommy import Move
from assistant.games.tommy_rules import REDEAL
from assistant.live.follower import MOVED, Follower
from assistant.live.problems import settle
from assistant.live.table_shift import TableShift
from assistant.live.table_view import MIN_FRAMES, NEW_CARD_FRAMES, TableView
from vision.grouping import suit_twins

ON_TOP = 0.45  # a card this close (card sizes) to a foundation's top card lies on it
NEXT_IN_PILE = 0.45  # before the fan step is known, a card this close to a waste top (not on it) lies on that pile
# (fans are 0.15-0.3 of a card; neighbouring piles 0.7-0.9 apart)
AWAY = 1.2  # a card of the game read this far from its place is read somewhere else (not just nudged)
FREE = 0.6  # a new place is at least this far from every card on the table (neighbouring piles: ~0.75)
SAME_ROW = 0.5  # a place in line with a row of places (along the fan direction) is in that row
TURN_SPOT = 0.6  # a card this close to the turned spot is still in hand
OVERSIZE = 1.15  # a box this much longer than a card holds more than one card
LAST_CARDS = 3  # a pass's last cards may be laid unseen before the piles are gathered for a redeal
BASES_WAIT = 150  # Calculation: frames the game waits for base cards lying whole to be read steadily (10 s)
SAME_SLOT = 0.12  # a covered card's corner this close to where a pile's next slot shows its corner lies in it
DRIFT = 0.15  # a top read whole this close to its place is followed there; further in one view, its reading took the
# box of a card just laid on it and not read yet (the first card on a pile, a narrow fan: the Numerica video)


@dataclass(frozen=True)
class Target:
    """Where a card lies: ``"F"``/``"W"`` with an engine index (None: a new place of that kind); ``"H"`` in hand."""

    kind: str
    index: int | None = None


IN_HAND = Target("H")


class TommyFollower(Follower):
    """Turns still views into Sir Tommy events. ``apply(event) -> Outcome`` applies one (``Session.handle`` plus
    whatever the caller does with it); ``update(view)`` returns the warnings to show."""

    scores_photo = False  # no photo scoring key: that is Poker's
    # The reader's second look at whole cards settles the suit only: a fanned pair boxed together mixes the pips of
    # two cards (a 6h on a 7s read "8h" with the rank fused too; tommy-2, docs/BENCHMARKS.md).
    face_fuse = "suit"
    pips = False  # no pip look: a fanned pair boxed together would mix two cards' pips

    def __init__(self, session, apply):
        super().__init__(session, apply)
        self.first_pos: dict[Card, np.ndarray] = {}  # where a card in hand was first seen
        self.hand_spots: list[np.ndarray] = []  # where turned cards lie before they are laid (four at a time: a row)
        self.spot_from: Card | None = None  # the one card the turned spot was learned from (None: more than one)
        self.laid_from_hand = False  # four at a time: this player lays the turned cards straight from the hand
        self.moved_at: dict[Card, tuple[int, np.ndarray]] = {}  # four at a time: a card in hand seen moved (when, where)
        self.fan_step: np.ndarray | None = None
        self.read_under: dict[Card, Card] = {}  # a card never turned, read under a new card on a pile: the top there
        self.went_up: dict[Card, tuple[int, np.ndarray]] = {}  # four at a time: laid from the hand where first seen,
        # moved up since (when, where)
        self.off_row: list[Card] = []  # four at a time, the first batch: laid before it was seen in the row
        self.size = 0.0
        self.size_from_whole = False  # the size was measured on a whole card (not guessed from corner boxes)
        self.bases_read = False  # Calculation: the base cards were read from the table
        self.base_since: dict[Card, int] = {}  # Calculation, before the bases are read: when each low card lay still

    def rename(self, old: Card, new: Card) -> None:
        for where in (self.pos, self.first_pos, self.moved_at):
            if old in where:
                where[new] = where.pop(old)

    def typed_move(self, card: Card, move, where: np.ndarray | None) -> None:
        self.first_pos.pop(card, None)
        self.moved_at.pop(card, None)
        super().typed_move(card, move, where)

    def relearn(self) -> None:
        """Forget the learned places (the player moved the camera or the cards): they are learned again."""
        self.pos.clear()
        self.first_pos.clear()
        self.moved_at.clear()
        self.hand_spots = []
        self.spot_from = None
        self.laid_from_hand = False
        self.early.clear()
        self.read_under.clear()
        self.went_up.clear()
        self.off_row = []
        self.fan_step = None

    # -- the main step ------------------------------------------------------------------------------------------
    def update(self, view: TableView) -> list[str]:
        size = self._measured_size(view)
        if size:  # learned once, then followed slowly; a view with odd boxes (misreads, covers) is ignored
            whole = any(s.corners >= 2 for s in view.cards.values())
            if not self.size or (whole and not self.size_from_whole):  # a guess from corner boxes gives way
                self.size, self.size_from_whole = size, whole
            elif 0.8 <= size / self.size <= 1.25:
                self.size = 0.9 * self.size + 0.1 * size
        if not self.size:
            return []
        self._follow_shift(view)
        if self._read_bases(view):
            return []
        self._note_known(view)
        problem = settle(self.session, lambda: self._step(view), 8)  # several changes may show in one view
        self._follow_drift(view)
        problem = problem or self._inconsistency(view)
        return self._problems.update(problem)

    def _measured_size(self, view: TableView) -> float:
        """A card's long side in ``view``: the median over the cards read on both corners but those the game has
        covered. A covered card of a fanned pile shows both top corners in a strip as long as the card is wide;
        once piles are long those strips outnumber the whole cards in the view's own measure
        (:attr:`TableView.card_size`, kept where no other card is read on both corners)."""
        covered = self._covered()
        sides = [s.long_side for c, s in view.cards.items() if s.corners >= 2 and c not in covered]
        return float(np.median(sides)) if sides else view.card_size

    def _whole(self, s) -> bool:
        """Read whole and as long as a card (:meth:`Follower._long_as_a_card`): a covered card of a fanned pile
        shows both top corners in a strip as long as the card is wide (0.7 of its long side, at any turn)."""
        return self._long_as_a_card(s)

    def _covered(self) -> set[Card]:
        """The game's cards under another card of their pile."""
        return {c for pile in list(self.state.foundations) + list(self.state.waste) for c in pile[:-1]}

    def _read_bases(self, view: TableView) -> bool:
        """Calculation: the player lays out any A, 2, 3 and 4 as the base cards (the game has the spades until it
        sees them). Before the first card is turned, the one A, 2, 3 and 4 read steadily and whole on the table
        are the bases (not with a seeded deal: its order names them); of two of a rank, the one seen lying there
        first (the other is the first card turned, when hands kept the bases from being read before it came); a
        base seen a moment and covered at once by the first card played onto it counts. True while an A, 2, 3 and
        4 lie whole on the table but are not read steadily yet: the game waits for them (else a base read sooner
        than the others would be taken for a turned card), at most BASES_WAIT."""
        st = self.state
        if not st.rules.calculation or st.history or self.session.seed is not None or self.bases_read:
            return False
        low: dict[int, list[Card]] = {}
        for c, s in view.cards.items():
            if c.rank <= 4 and self._whole(s) and s.frames >= MIN_FRAMES:
                low.setdefault(c.rank, []).append(c)
                self.base_since.setdefault(c, view.frame)
        covered = [c for c in view.glimpsed if c in self.base_since and c not in view]  # the first card laid on it
        for c in covered:
            low.setdefault(c.rank, []).append(c)
        if sorted(low) != [1, 2, 3, 4]:
            return False
        by_rank = {rank: sorted((c for c in cards if view.sure(c) or c in covered), key=lambda c: self.base_since[c])
                   for rank, cards in low.items()}
        if not all(by_rank.values()):
            return view.frame - min(self.base_since.values()) < BASES_WAIT
        if any(len(cards) > 1 and self.base_since[cards[0]] == self.base_since[cards[1]] for cards in by_rank.values()):
            return False
        bases = tuple(by_rank[rank][0] for rank in (1, 2, 3, 4))
        self.bases_read = True
        if bases != st.bases:
            self.session.state = st.with_bases(bases)
            self.session.save()
            self.pos.clear()  # the old bases' places: the new ones are noted from this view
        for c in set(covered) & set(bases):
            self.pos[c] = view.glimpsed[c].xy
        return False

    def _step(self, view: TableView):
        """Apply the first change the view shows; True if one was applied, a text for a problem, None if none."""
        st = self.state
        on_table = self._on_table()
        stock = self._may_come()
        maybe_new = [c for c in view.cards if c not in on_table and c in stock and self._whole(view[c])]
        misread = {c for c in maybe_new if self._misread_of_hidden(c, self._xy(view, c), view)}
        self._note_early(view, [c for c in maybe_new if c not in misread], stock)
        if any(view[c].frames < NEW_CARD_FRAMES for c in maybe_new):
            if st.needs_card() and not st.hand:
                self._note_read_under(view, stock)
            return None  # a new card may be coming: wait for its evidence, so events keep the table's order
        new = [c for c in maybe_new if view.sure(c) and c not in misread]
        if any(self._seen_before([c], n) for c in maybe_new if c not in new and c not in misread for n in new):
            return None  # a card seen lying before a new one is not read steadily yet: it came first, so wait
        if st.rules.turn_count > 1:  # four at a time: cards of the batch seen gone up, then waste tops played up,
            if not st.hand and self.went_up:  # come before the next batch
                return self._play_up_moved(view)
            piles = self._step_piles(view, maybe_new)
            return piles if piles is not None else self._step_batch(view, new, stock)
        tops = [] if st.hand or not new else [pile[-1] for pile in st.waste if pile]
        moved = [t for t in tops if t in view and t in self.pos and self._dist(self._xy(view, t), self.pos[t]) > MOVED]
        if any(self._on_spot_of(self._xy(view, c), t) for c in new for t in moved):
            piles = self._step_piles(view, maybe_new)  # a new card where a waste top lay: the top moved first
            if piles is not None:
                return piles
        turned = self._step_turned(view, new, stock)
        if turned is not None:
            return turned
        return self._step_piles(view, maybe_new)

    def _step_piles(self, view: TableView, maybe_new: list[Card]):
        """A waste top played up (or over), or a redeal (``_step``'s answer, None: neither)."""
        st = self.state
        if st.hand and st.rules.turn_count > 1:
            return None
        for i, pile in enumerate(st.waste):  # a waste top that moved was played up (or, in Strategy, over)
            if not pile or pile[-1] not in view or pile[-1] not in self.pos or not self._whole(view[pile[-1]]):
                continue
            if maybe_new and view[pile[-1]].corners < 2:
                continue  # a new card may lie on it: a covered top can be read with its cover's box
            t = pile[-1]
            p = self._xy(view, t)
            if self._dist(p, self.pos[t]) <= MOVED or not self._anchored(t, p, view):
                continue
            if self._at_hand_spot(p) and self.spot_from is not None:
                spot = self._spot_was_pile(t, i, p)
                if spot is not None:
                    return spot
            if st.hand:  # the card taken as turned was laid first where it lies (no play with a card in hand)
                held_at = self.first_pos.get(st.hand[0])
                if held_at is not None and not self._at_hand_spot(held_at):
                    return self._lay_held(view)
                return self._went_up_first(st.hand[0], t, i, p, view)
            for u in [other[-1] for other in st.waste if other and other is not pile]:
                up = self._went_up_first(u, t, i, p, view)  # another pile's top went up first, unseen
                if up is not None:
                    return up
            up = self._foundation_went_under(t, p, view)
            if up is not None:
                return up
            target = self.locate(t, p, defer_new=False, from_pile=i, may_be_hand=False)
            return self._play(t, target, p, view, from_pile=i)
        for f, pile in enumerate(st.foundations):  # a foundation's one card moved: its place was a waste pile
            p = self._left_foundation(f, view)
            if p is not None and st.hand:  # no play with a card in hand: it was laid first where it lies
                return self._lay_held(view)
            up = None if p is None else self._up_from_pile(f, p)
            if up is not None:
                return up
        if st.hand:
            return None
        for i, pile in enumerate(st.waste):  # the card under a top seen nowhere moved up: the top went up first
            u = pile[-2] if len(pile) > 1 else None
            if u is not None and u in view and u in self.pos and self._whole(view[u]):
                p = self._xy(view, u)
                if self._dist(p, self.pos[u]) > MOVED:
                    up = self._went_up_first(pile[-1], u, i, p, view)
                    if up is not None:
                        return up
        redeal = REDEAL
        gathered = (st.redeals_left > 0 and any(st.waste)  # the game's waste piles are nowhere on the table
                    and not any(c in view for pile in st.waste for c in pile))
        if gathered and st.needs_card():
            return self._laid_before_redeal(view)
        if gathered and st.is_legal(redeal):
            out = self.apply(Play(redeal))
            if out.ok:
                for pile in st.waste:
                    for c in pile:
                        self.pos.pop(c, None)
                return True
        return None

    def _laid_before_redeal(self, view: TableView):
        """The waste piles were gathered for a redeal while the stock still had its last cards (at most
        LAST_CARDS): each was laid on a waste pile and glimpsed lying there (hands kept it from joining the game)
        before the piles were gathered. The first of them laid where it was glimpsed (``_step``'s answer; None
        unless every card left was seen lying there lately)."""
        stock = set(self.state.stock_cards())
        if len(stock) > LAST_CARDS or not stock <= set(view.glimpsed) or not stock <= set(self.early):
            return None
        for c in sorted(stock, key=lambda c: self.early.get(c, (view.frame,))[0]):
            p = view.glimpsed[c].xy
            target = self.locate(c, p, defer_new=False, may_be_hand=False)
            if isinstance(target, Target) and target.kind == "W" and target.index is not None:
                return self._lay_unseen(c, target, p)
        return None

    def _step_turned(self, view: TableView, new: list[Card], stock: set[Card]):
        """One card at a time: a card turned and laid, or one in hand laid (``_step``'s answer, None: neither)."""
        st = self.state
        if st.needs_card() and not st.hand:
            unseen = self._note_read_under(view, stock)
            if unseen is not None and view.sure(unseen[0]) and not self._seen_before(new, unseen[0]):
                return self._lay_unseen(*unseen)
            if unseen is not None and view[unseen[0]].frames < NEW_CARD_FRAMES:
                return None  # its evidence is still coming: it came before the card on it, so wait
            under = self._laid_under_last(view, stock)
            laid = None if under is None else self._lay_under_last(*under)
            if laid is not None:
                return laid
        for h in list(st.hand):  # a turned card that moved from where it was first seen has been laid
            if h not in view or not self._whole(view[h]):
                continue
            p = self._xy(view, h)
            first = self.first_pos.setdefault(h, p)
            if self._dist(p, first) > MOVED:
                self.spot_from = None if self.hand_spots else h
                self.hand_spots = [first if not self.hand_spots else 0.7 * self.hand_spots[0] + 0.3 * first]
                target = self.locate(h, p, defer_new=False)
                if target is IN_HAND:
                    self.first_pos[h] = p
                    continue
                return self._play(h, target, p, view)
        if new and st.hand and not st.needs_card():  # a new card came while this one was still in hand
            renamed = self._read_anew(view, new)
            if renamed is not None:
                return renamed
            laid = self._lay_held(view)
            if laid is not None:
                return laid
        if new and st.needs_card():
            for c in self._first_seen(new, view):
                p = self._xy(view, c)
                founded = self._onto_pile_as_foundation(c, p, view)
                if founded is not None:
                    return founded
                target = self.locate(c, p, defer_new=True)
                move = None if isinstance(target, str) or target is IN_HAND else self._move_after_turn(c, target)
                if (target is not IN_HAND and (move is None or target.index is None)
                        and self._up_unseen(c, p, target, view)):
                    return True  # it lies on a card played up unseen: placed there at the next step
                if isinstance(target, str):
                    founded = self._pile_was_foundation(c, p, turned=True)
                    return target if founded is None else founded
                if target is IN_HAND:
                    out = self.apply(Turn(c))
                    if out.ok:
                        self.first_pos[c] = p
                        self.pos[c] = p
                        return True
                    return out.error
                if move is None:
                    on_pile = self._on_pile_not_foundation(c, target, p, turned=True)
                    return f"{c} lies where no legal move puts it" if on_pile is None else on_pile
                out = self.apply(TurnAndPlay(c, move))
                if out.ok:
                    self._learn_fan(c, target, p)
                    self.pos[c] = p
                    return True
                return out.error
        return None

    def _read_anew(self, view: TableView, new: list[Card]):
        """The card in hand, gone from where it lay, read as its suit twin (its rank in the other suit of its colour)
        where it was laid, away from the turned spot and never seen there: one card, not a new one turned (clubs and
        spades of a small index are told apart now one way, now the other). The turn is told again with the name
        read where the card lies now (the player corrects it if that is the wrong one) and the card is laid at the
        next step (``_step``'s answer; None where the table does not show this)."""
        st = self.state
        h = st.hand[0]
        if len(new) != 1 or len(st.hand) != 1 or h in view or h not in self.first_pos or not _suit_twins(h, new[0]):
            return None
        c = new[0]
        first = self.first_pos[h]
        at = [self._xy(view, c)] + ([self.early[c][1]] if c in self.early else [])
        if any(self._dist(q, first) <= MOVED or self._at_hand_spot(q) for q in at):
            return None  # seen where turned cards lie: a card turned after it
        for event in (Undo(), Turn(c)):
            out = self.apply(event)
            if not out.ok:
                return out.error
        self.rename(h, c)
        return True

    def _anchored(self, card: Card, p: np.ndarray, view: TableView) -> bool:
        """Another card of the game is read whole in its place (or none lies on the table but those ``card``, now
        at ``p``, covers, where they lay or were glimpsed): ``card`` seen off its place moved on the table. With
        every other card hidden (hands over the table) the camera may have jolted instead."""
        def covered(c: Card) -> bool:  # under ``card`` now: where it lay, or where it was glimpsed
            at = [self.pos[c]] + ([view.glimpsed[c].xy] if c in view.glimpsed else [])
            return any(self._dist(q, p) < ON_TOP for q in at)
        others = [c for c in self._on_table() if c != card and c in self.pos and not covered(c)]
        return not others or any(c in view and self._whole(view[c]) and self._dist(self._xy(view, c), self.pos[c])
                                 <= MOVED for c in others)

    def _seen_before(self, cards: list[Card], card: Card) -> bool:
        """One of ``cards`` was seen lying still before ``card`` was (both glimpsed before joining the game): it
        was laid first."""
        if card not in self.early:
            return False
        return any(self.early[c][0] < self.early[card][0] for c in cards if c in self.early)

    def _lay_held(self, view: TableView):
        """The card in hand was laid where it was seen whole (now perhaps covered by a card laid on it), or where
        its corner is read now under the card laid on it, away from the turned spot: the table moved on without it
        being seen laid (``_step``'s answer; None where it was never seen whole)."""
        h = self.state.hand[0]
        p = self.first_pos.get(h)
        if p is None and h in view and self._whole(view[h]):
            p = self._xy(view, h)
        if p is None:
            return None
        if self._at_hand_spot(p) and h in view and not self._whole(view[h]):
            offset = self._corner_offset(view)
            if offset is not None and not self._at_hand_spot(view[h].xy - offset):
                p = view[h].xy - offset
        if self._at_hand_spot(p) and h not in view:
            hidden = self._top_hidden_by(h, view)
            if hidden is not None:
                return self._play(h, *hidden, view)
        target = self.locate(h, p, defer_new=False, may_be_hand=False)
        laid = self._play(h, target, p, view)
        if laid is True and self._at_hand_spot(p):  # it lay where turned cards were thought to lie: a place
            self.hand_spots = [q for q in self.hand_spots if self._dist(q, p) >= TURN_SPOT]
        return laid

    def _top_hidden_by(self, h: Card, view: TableView) -> tuple[Target, np.ndarray] | None:
        """The card in hand, seen only at the turned spot and now nowhere, was laid on the one pile top that a hand
        passed over since (glimpsed, not read again) while other cards of the table are read, and that no new card
        lies on: its reading was lost under the card laid on it (a queen on a fanned pile, read neither way). The
        place and where ``h`` lies there; None unless exactly one top is so hidden."""
        st = self.state
        on_table = self._on_table()
        new = [self._xy(view, c) for c in view.cards if c not in on_table]
        if not any(c in view for c in self.visible() if c != h):
            return None  # hands over the table: nothing tells a hidden top from an unread one
        hidden = []
        for kind, piles in (("W", st.waste), ("F", st.foundations)):
            for i, pile in enumerate(piles):
                t = pile[-1] if pile else None
                if t is None or t in view or t not in view.glimpsed or t not in self.pos:
                    continue
                if any(self._dist(q, self.pos[t]) < NEXT_IN_PILE for q in new):
                    continue  # a new card lies on it
                if kind == "F" and not st.foundation_accepts(i, h):
                    continue
                hidden.append((Target(kind, i), t))
        if len(hidden) != 1:
            return None
        target, t = hidden[0]
        step = self.fan_step if target.kind == "W" and self.fan_step is not None else np.zeros(2)
        return target, self.pos[t] + step * self.size

    def _went_up_first(self, first: Card, card: Card, w: int, p: np.ndarray, view: TableView):
        """``card`` (waste pile ``w``'s top, or the card under it) moved to ``p``, on a foundation that takes it only
        on ``first`` (the turned card, the top above it, or another pile's top), which is seen nowhere: ``first``
        went up there unseen (hands in the way), then ``card`` on it. ``first`` played up (``_step``'s answer); None
        where the rules do not have it so."""
        if first in view:
            return None
        target = self.locate(card, p, defer_new=False, from_pile=w, may_be_hand=False)
        if isinstance(target, str) or target == Target("W"):
            target = Target("F")  # at a new place, where no waste pile can be (an Ace went up there first)
        if target.kind != "F":
            return None
        if target.index is not None and self.state.foundation_accepts(target.index, card):
            return None  # ``card`` could go there without it
        first_from = next((j for j, pile in enumerate(self.state.waste) if pile and pile[-1] == first), None)
        if self._up_between(first, card, target.index, first_from) is None:
            return None
        at = p if target.index is None else self.pos[self.state.foundations[target.index][-1]]
        return self._play(first, target, at, view, first_from)

    def _left_foundation(self, f: int, view: TableView) -> np.ndarray | None:
        """Where foundation ``f``'s one card, laid there by a move, lies, seen whole and sure far from it at a place
        that is not the turned spot (None: not so). A foundation's cards never move: its place was a waste pile
        (:meth:`_up_from_pile`)."""
        pile = self.state.foundations[f]
        card = pile[0] if len(pile) == 1 else None
        if card is None or card not in view or card not in self.pos or card in view.elsewhere:
            return None
        p = self._xy(view, card)
        if (not view.sure(card) or not self._whole(view[card]) or self._at_hand_spot(p)
                or self._dist(p, self.pos[card]) <= AWAY):
            return None
        return None if self._laid_by(Target("F", f)) is None else p  # (not a base card, nor one of a game taken over)

    def _foundation_went_under(self, top: Card, p: np.ndarray, view: TableView):
        """Waste top ``top`` moved to ``p``, where a foundation's one card, laid there from the stock, was glimpsed
        far from its place and is no longer seen whole: that card moved there first and ``top`` went onto it (an Ace
        laid on a waste pile, taken for a foundation, played up and covered at once). The foundation's place was
        a waste pile (:meth:`_up_from_pile`; ``_step``'s answer, None: not so)."""
        for f, pile in enumerate(self.state.foundations):
            card = pile[0] if len(pile) == 1 else None
            seen = view.glimpsed.get(card)
            if (seen is None or card in view.cards or card not in self.pos or self._dist(seen.xy, p) >= ON_TOP
                    or self._dist(seen.xy, self.pos[card]) <= AWAY or not self._builds_on(card, top)):
                continue
            up = self._up_from_pile(f, seen.xy)
            if up is not None:
                return up
        return None

    def _up_from_pile(self, f: int, p: np.ndarray):
        """Foundation ``f``'s one card, laid there from the stock, lies at ``p``, a new foundation's place
        (:meth:`_left_foundation`): it was laid on a new waste pile (an Ace laid on a waste pile and played up
        later). The game is told again so, the card played up to where it lies (``_step``'s answer; None where the
        rules do not have it so)."""
        card = self.state.foundations[f][0]
        told = self._told_again(card, Target("F", f))
        if told is None:
            return None
        undone, events, new, at = told
        target = self.locate(card, p, defer_new=False, from_pile=at.index, may_be_hand=False, state=new)
        up = None if target != Target("F") else self._find_move(new, card, target, at.index)
        if up is None:
            return None
        return self._tell_again(undone, events + [Play(up)], {card: p})

    def _spot_was_pile(self, card: Card, w: int, p: np.ndarray):
        """``card``, taken as laid on a new waste pile ``w`` the moment it was turned, moved to the turned spot,
        which was learned from one card alone: that card (now its foundation's top) was laid where it was first
        seen, a waste pile's place, and played up at once (an Ace laid on a waste pile); ``card`` lay at the turned
        spot, and has now been laid on that place. The game is told again so (``_step``'s answer; None where the
        rules do not have it so, or the game went on since)."""
        st = self.state
        first = self.spot_from
        f = next((i for i, pile in enumerate(st.foundations) if pile and pile[-1] == first), None)
        if f is None or st.waste[w] != [card] or st.history[-2:] != [card, Move("S", None, "W", w)]:
            return None
        told = self._told_again(first, Target("F", f), up_first=True, upto=len(st.history) - 1)
        if told is None or told[0] != 3:  # the card was the next one turned
            return None
        undone, events, new, _ = told
        target = self.locate(card, p, defer_new=False, may_be_hand=False, state=new)
        laying = self._laying(card, target, new, turned=False) if isinstance(target, Target) else None
        if laying is None:
            return None
        turned_at = self.pos[card]
        laid = self._tell_again(undone, events + [laying], {card: p})
        if laid is True:
            self.hand_spots, self.spot_from = [turned_at], card
        return laid

    def _on_pile_not_foundation(self, card: Card, target: Target, p: np.ndarray, turned: bool):
        """``card`` (in hand, or ``turned`` now) lies on foundation ``target``'s one card, laid there from the stock,
        and the foundation does not take it: that place was a new waste pile (an Ace laid on a waste pile). The game
        is told again with that card on a waste pile and ``card`` laid on it (``_step``'s answer; None where the
        rules do not have it so)."""
        f = target.index
        if target.kind != "F" or f is None or len(self.state.foundations[f]) != 1:
            return None
        under = self.state.foundations[f][0]
        told = self._told_again(under, Target("F", f))
        if told is None:
            return None
        undone, events, new, at = told
        laid = self._laying(card, at, new, turned)
        return None if laid is None else self._tell_again(undone, events + [laid], {card: p})

    def _foundation_taken_for_pile(self, pile: list[Card], card: Card | None = None) -> bool:
        """Waste pile ``pile`` holds only a card that could start a foundation (on which ``card`` builds): it may be a
        foundation taken for a waste pile (an Ace in line with the waste piles)."""
        st = self.state
        return (len(pile) == 1 and (card is None or self._builds_on(pile[0], card))
                and any(not f and st.foundation_accepts(i, pile[0]) for i, f in enumerate(st.foundations)))

    def _onto_pile_as_foundation(self, card: Card, p: np.ndarray, view: TableView):
        """``card``, turned now, lies right on a waste pile's only card, covering it, and builds on it as on a
        foundation: that pile was a foundation (:meth:`_foundation_taken_for_pile`). The game is told again so, and
        ``card`` played onto it (``_step``'s answer; None where the rules do not have it so)."""
        for w, pile in enumerate(self.state.waste):
            if not self._foundation_taken_for_pile(pile, card) or pile[0] in view or not self._on_spot_of(p, pile[0]):
                continue
            told = self._told_again(pile[0], Target("W", w))
            if told is None:
                continue
            undone, events, new, at = told
            laid = self._laying(card, at, new, turned=True)
            if laid is not None:
                return self._tell_again(undone, events + [laid], {card: p})
        return None

    def _pile_was_foundation(self, card: Card, p: np.ndarray, turned: bool):
        """``card`` (in hand, or ``turned`` now) lies at a new place, and no waste pile is empty: a waste pile that
        holds only the card laid there from the stock, which could start a foundation, was a foundation (an Ace that
        lined up with the waste piles). The game is told again so, and ``card`` laid at its place (``_step``'s
        answer; None where the rules do not have it so)."""
        st = self.state
        if any(not pile for pile in st.waste):
            return None
        for w, pile in enumerate(st.waste):
            if not self._foundation_taken_for_pile(pile):
                continue
            told = self._told_again(pile[0], Target("W", w))
            if told is None:
                continue
            undone, events, new, _ = told
            target = self.locate(card, p, defer_new=False, may_be_hand=False, state=new)
            laid = self._laying(card, target, new, turned) if getattr(target, "kind", None) == "W" else None
            if laid is not None:
                return self._tell_again(undone, events + [laid], {card: p})
        return None

    def _told_again(self, card: Card, was: Target, up_first: bool = False, upto: int | None = None):
        """The game taken back to ``card``'s move from the hand onto ``was`` (a foundation or a waste pile it lies on
        alone) and told again with the card laid at a new place of the other kind instead (a waste pile: played up
        to its foundation at once with ``up_first``), then the same turns and moves as before, to history item
        ``upto``: (the number of actions taken back, the events, the game after them, where the card lies in it); None
        where the rules do not have it so."""
        st = self.state
        k = self._laid_by(was)
        laid = None if k is None else st.history[k]
        if laid is None or laid.source != "S":
            return None
        old, new = st.clone(), st.clone()
        for _ in range(len(st.history) - k):
            old.undo()
            new.undo()
        lay = self._find_move(new, card, Target("W" if was.kind == "F" else "F"))
        if lay is None:
            return None
        new.apply(lay)
        events: list = [Play(lay)]
        if up_first:
            up = self._find_move(new, card, was, lay.target_index)
            if up is None:
                return None
            new.apply(up)
            events.append(Play(up))
        at = Target(events[-1].move.target, events[-1].move.target_index)
        old.apply(laid)
        for item in st.history[k + 1:upto]:  # the same turns, the same cards to the same piles
            if isinstance(item, Card):
                old.turn(item)
                new.turn(item)
                events.append(Turn(item))
                continue
            move = None if item.is_redeal else self._same_move(old, new, item)
            if move is None:
                return None
            old.apply(item)
            new.apply(move)
            events.append(Play(move))
        return len(st.history) - k, events, new, at

    def _laid_by(self, pile: Target) -> int | None:
        """Where in the history the last move onto ``pile`` is (the move that laid a pile's one card there); None
        where no move did (a base card, a card of a game taken over)."""
        history = self.state.history
        return next((i for i in range(len(history) - 1, -1, -1) if isinstance(history[i], Move)
                     and Target(history[i].target, history[i].target_index) == pile), None)

    def _laying(self, card: Card, target: Target, state, turned: bool):
        """The event laying ``card`` (in hand, or ``turned`` now) at ``target`` in ``state``; None where no legal
        move does."""
        move = self._move_after_turn(card, target, state) if turned else self._find_move(state, card, target)
        return None if move is None else TurnAndPlay(card, move) if turned else Play(move)

    def _tell_again(self, undone: int, events: list, where: dict):
        """Take back ``undone`` actions, apply ``events`` (:meth:`_told_again`); the cards lie ``where`` given
        (``_step``'s answer)."""
        for event in [Undo()] * undone + events:
            out = self.apply(event)
            if not out.ok:
                return out.error
        self.pos.update(where)
        return True

    def _same_move(self, old, new, move: Move) -> Move | None:
        """``move`` of the game ``old`` in the game ``new``, whose piles may have other indices: the same card to
        the pile with the same bottom card (a new pile to a new pile)."""
        card = self.session.kind.moved_card(old, move)
        piles, new_piles = (old.foundations, new.foundations) if move.target == "F" else (old.waste, new.waste)
        bottom = piles[move.target_index][0] if piles[move.target_index] else None
        index = None if bottom is None else next((i for i, p in enumerate(new_piles) if p and p[0] == bottom), -1)
        source = None
        if move.source == "W":
            source = next((i for i, p in enumerate(new.waste) if p and p[0] == old.waste[move.source_index][0]), -1)
        if index == -1 or source == -1:
            return None
        return self._find_move(new, card, Target(move.target, index), source)

    def _step_batch(self, view: TableView, new: list[Card], stock: set[Card]):
        """Four at a time: each new card is turned (all four come before any is placed); once all are turned, each
        is laid where it lies. How the player lays them is learned from the first batch: from a row of the four
        face up beside the stock (a card moves from where it was first seen to a waste pile: the row's slots are then
        where turned cards lie), or straight from the hand (the next batch's first card comes while the first
        batch's cards still lie where they were first seen: each was laid there, and a card that moved since went
        up from its pile). Until then a card first seen at a new place waits, and so does one moved to a
        foundation (from a row, or up from a pile)."""
        st = self.state
        for h in st.hand:  # a card named by the player: its place is where it is first seen whole
            if h not in self.first_pos and h in view and self._whole(view[h]):
                self.first_pos[h] = self._xy(view, h)
        self._note_moved(view)
        if st.needs_card():
            unseen = self._laid_unseen(view, stock)
            if unseen is not None and view[unseen[0]].frames < NEW_CARD_FRAMES:
                return None  # its evidence is still coming: it came before the card on it, so wait
            if unseen is not None and view.sure(unseen[0]):
                turned, p = unseen[0], unseen[2]
            elif new:
                turned = self._first_seen(new, view)[0]  # a row covered by hands: the first seen was turned first
                p = self.early.get(turned, (0, self._xy(view, turned)))[1]
                target = self.locate(turned, p, defer_new=False, may_be_hand=False)
                under = None
                if isinstance(target, Target) and target.kind == "F" and target.index is not None:
                    under = self._glimpsed_in_batch(turned, target.index, view)
                if under is not None:  # laid on a card of its batch glimpsed there: that card came first
                    turned, p = under, view.glimpsed[under].xy
                else:
                    self.early.pop(turned, None)
            else:
                turned = self._glimpsed_under_moved_top(view)
                if turned is None:
                    return None
                p = view.glimpsed[turned].xy
            out = self.apply(Turn(turned))
            if not out.ok:
                return out.error
            self.first_pos[turned] = self.pos[turned] = p
            return True
        if not st.hand or st.needs_card():
            return None
        if new and not self.hand_spots:
            self.laid_from_hand = True
        # moved from where first seen: as seen now, or where last seen whole (covered since by a card laid on it)
        fan = self._fan_dir() if self.fan_step is not None else np.zeros(2)  # seen moved in one view: deeper first
        by_time = sorted(self.moved_at, key=lambda h: (self.moved_at[h][0], float(self.moved_at[h][1] @ fan)))
        moved = {h: self.moved_at[h][1] for h in by_time if h in st.hand}
        order = list(st.hand)  # from the hand: laid in the order turned
        if not self.laid_from_hand:  # from a row: in the order moved from it
            order = list(moved) + [h for h in st.hand if h not in moved]
        if moved and not self.hand_spots and not self.laid_from_hand:
            ups = [h for h, p in moved.items()  # onto a card of the batch laid up there (or moved up there)
                   if getattr(self.locate(h, p, defer_new=False, may_be_hand=False), "kind", None) == "F"
                   or any(g != h and self._builds_on(g, h) and self._dist(p, q) < 0.2
                          for g in st.hand for q in (self.first_pos.get(g), moved.get(g)) if q is not None)]
            if len(ups) == len(moved):
                return None  # put up from a row, or played up from the piles they were laid on: not told yet
            row = [h for h in st.hand if h in self.first_pos]
            self.off_row = self._off_row(row)  # laid before the row was read: each where first seen, first
            self.hand_spots = [self.first_pos[h] for h in row if h not in self.off_row]
            order = self.off_row + ups + [h for h in order if h not in ups and h not in self.off_row]
        waiting, problem = False, None
        for h in order:
            first = self.first_pos.get(h)
            if first is None:
                waiting = True
                continue
            if self.laid_from_hand or h in self.off_row:  # laid where first seen (it may have gone up since)
                p, target = first, self.locate(h, first, defer_new=False, may_be_hand=False)
                if h in moved:
                    self.went_up[h] = self.moved_at[h]
            elif h in moved:
                p = moved[h]
                if not self._at_hand_spot(first) and self._dist(first, p) > MOVED:
                    self.hand_spots.append(first)
                target = self.locate(h, p, defer_new=False)
            else:
                p = self._xy(view, h) if h in view and self._whole(view[h]) else first
                target = IN_HAND if self._at_hand_spot(p) else self.locate(h, p, defer_new=False, may_be_hand=False)
                if target == Target("W") or target == Target("F"):
                    target = IN_HAND  # a new place, or a slot of a row beside the stock: not told yet
            if target is IN_HAND:
                self.first_pos[h] = p
                waiting = True
            elif isinstance(target, str):
                founded = self._pile_was_foundation(h, p, turned=False)  # an Ace laid on its own taken for a pile
                if founded is not None:
                    return founded
                problem = problem or target  # it may lie on a card of the batch not laid yet
            else:
                return self._play(h, target, p, view)
        return None if waiting else problem

    def _off_row(self, cards: list[Card]) -> list[Card]:
        """Cards of the first batch first seen off the line of the others' first places (a row beside the stock,
        the others lying in line): laid before the reader saw them in the row."""
        pts = {h: self.first_pos[h] for h in cards}
        off = []
        for h, q in pts.items():
            others = np.array([p for g, p in pts.items() if g != h])
            if len(others) < 2:
                continue
            centre = others.mean(axis=0)
            direction = np.linalg.svd(others - centre)[2][0]
            normal = np.array([-direction[1], direction[0]])
            in_line = np.abs((others - centre) @ normal).max() < 0.25 * self.size
            if in_line and abs((q - centre) @ normal) > 0.5 * self.size:
                off.append(h)
        return off

    def _play_up_moved(self, view: TableView):
        """Four at a time from the hand, the first batch: a card seen moved from where it was laid onto a foundation
        before the batch was placed (the player's way not told yet) went up from its waste pile once the batch was
        laid: played up now, though the card laid on it since may hide it."""
        h = min(self.went_up, key=lambda c: self.went_up[c][0])  # in the order they moved
        p = self.went_up.pop(h)[1]
        w = next((w for w, pile in enumerate(self.state.waste) if pile and pile[-1] == h), None)
        target = None if w is None else self.locate(h, p, defer_new=False, from_pile=w, may_be_hand=False)
        if not isinstance(target, Target) or target.kind != "F":
            return True  # (not a waste top any more, or not onto a foundation: nothing to do)
        return self._play(h, target, p, view, from_pile=w)

    def _short_batch(self) -> bool:
        """Four at a time: the player is placing the turned cards (one has moved) while the batch still needs a
        card: one was never read."""
        st = self.state
        return bool(st.hand) and st.needs_card() and any(h in self.moved_at for h in st.hand)

    def _note_moved(self, view: TableView) -> None:
        """Four at a time: when and where each card in hand was seen whole away from where it was first seen, or read
        by its corner a fan step under such a card (laid before it: noted as moved with it, at its centre). Once the
        batch is complete the cards are placed in that order (of cards seen moved in one view, the one deeper in a
        fan first), from there: a card laid while the batch was not complete (a card of it not read yet) may be
        covered by the next before they can be placed."""
        for h in self.state.hand:
            if h in view and self._whole(view[h]) and h in self.first_pos:
                p = self._xy(view, h)
                if self._dist(p, self.first_pos[h]) > MOVED:
                    self.moved_at[h] = (self.moved_at.get(h, (view.frame,))[0], p)
                else:
                    self.moved_at.pop(h, None)  # put back
        covered = [h for h in self.state.hand if h not in self.moved_at and h in view and not self._whole(view[h])]
        offset = None if self.fan_step is None or not covered else self._corner_offset(view)
        for h in covered if offset is not None else ():  # under a moved card of the batch, a fan step: laid before it
            centre = view[h].xy - offset
            on = [g for g in self.moved_at if g in self.state.hand
                  and self._dist(self.moved_at[g][1], centre + self.fan_step * self.size) < SAME_SLOT]
            if on:
                self.moved_at[h] = (self.moved_at[on[0]][0], centre)

    def _at_hand_spot(self, p: np.ndarray) -> bool:
        return any(self._dist(p, q) < TURN_SPOT for q in self.hand_spots)

    def _up_unseen(self, card: Card, p: np.ndarray, target, view: TableView) -> bool:
        """``card`` lies at ``p`` on a foundation that cannot take it yet (or at a new place where no foundation
        is known): the card under it was turned and played up there unseen (hands kept it from lying still long
        enough to join the game) when exactly one card never turned was glimpsed lying there and fits between.
        That card is played up; True if so."""
        st = self.state
        if st.hand or not st.needs_card() or not view.glimpsed:
            return False
        f = target.index if isinstance(target, Target) and target.kind == "F" else None
        top = st.foundations[f][-1] if f is not None and st.foundations[f] else None
        if f is not None and top not in self.pos:
            return False
        spot = self.pos[top] if top is not None else p
        fits = self._glimpsed_between(card, spot, f, view)
        if len(fits) != 1 or not self.apply(TurnAndPlay(*fits[0])).ok:
            return False
        self.pos[fits[0][0]] = spot  # the card on it covers it
        return True

    def _glimpsed_between(self, card: Card, spot: np.ndarray, f: int | None, view: TableView) -> list:
        """(card, move) for each card never turned, glimpsed lying at ``spot``, that can go up on foundation ``f``
        (None: a new one) and then take ``card``."""
        stock = self._may_come()
        fits = [(c, self._up_between(c, card, f)) for c, s in view.glimpsed.items()
                if c in stock and self._dist(s.xy, spot) < ON_TOP]
        return [(c, move) for c, move in fits if move is not None]

    def _glimpsed_in_batch(self, card: Card, f: int, view: TableView) -> Card | None:
        """Four at a time, a batch being turned: the card never turned glimpsed lying on foundation ``f``'s top
        (or on the cards of the batch first seen there, laid on it from the hand), which builds on it, and ``card``
        on it (laid from the hand onto the foundation, then the next card of the batch, or a waste top, onto it);
        None if none."""
        st = self.state
        top = st.foundations[f][-1] if st.foundations[f] else None
        if st.rules.turn_count == 1 or not st.needs_card() or top not in self.pos:
            return None
        spot = self.pos[top]
        for _ in st.hand:  # the batch's cards laid there first
            laid = [h for h in st.hand if h != card and self._builds_on(top, h) and h in self.first_pos
                    and self._dist(self.first_pos[h], spot) < ON_TOP]
            if not laid:
                break
            top = laid[0]
        stock = self._may_come()
        fits = [c for c, s in view.glimpsed.items() if c in stock and c not in st.hand and c != card
                and self._dist(s.xy, spot) < ON_TOP and self._builds_on(top, c) and self._builds_on(c, card)]
        return fits[0] if len(fits) == 1 else None

    def _glimpsed_under_moved_top(self, view: TableView) -> Card | None:
        """Four at a time, a batch being turned: a waste top, or a card of the batch, seen moved onto a foundation
        that cannot take it yet, and one card never turned glimpsed lying there that fits between (the batch's
        card laid there from the hand and covered at once by the one played onto it): that card; None if none."""
        st = self.state
        moved = [(h, p) for h, (_, p) in self.moved_at.items() if h in st.hand]
        tops = [pile[-1] for pile in st.waste if pile and pile[-1] in view and pile[-1] in self.pos]
        moved += [(t, self._xy(view, t)) for t in tops
                  if self._whole(view[t]) and self._dist(self._xy(view, t), self.pos[t]) > MOVED]
        for c, p in moved:
            target = self.locate(c, p, defer_new=False, may_be_hand=False)
            if isinstance(target, Target) and target.kind == "F" and target.index is not None:
                under = self._glimpsed_in_batch(c, target.index, view)
                if under is not None:
                    return under
        return None

    def _up_between(self, card: Card, above: Card, f: int | None, from_pile: int | None = None) -> Move | None:
        """The move putting ``card`` up onto foundation ``f`` (None: a new one) when ``above`` fits on it there:
        ``card`` turned first, unless it is the card in hand or waste pile ``from_pile``'s top."""
        probe = self.state.clone()
        if from_pile is None and card not in probe.hand:
            try:
                probe.turn(card)
            except ValueError:
                return None
        move = self._find_move(probe, card, Target("F", f), from_pile)
        if move is None:
            return None
        probe.apply(move)
        return move if probe.foundation_accepts(move.target_index, above) else None

    def unseen_card(self, card: Card, view: TableView) -> str | None:
        """The player names ``card`` (held up, or ``r``) while a card of the game (a waste top) lies on a
        foundation one card too high for it: ``card`` went up there unseen, under it. Played up; the text for the
        panel, or None. (A new card lying there is taken as misread instead: the correction renames it.) Four at
        a time, while the player is placing a batch that still needs a card (``_short_batch``), it is that card:
        turned, and placed once seen where it lies."""
        st = self.state
        if not st.needs_card() or card not in self._may_come():
            return None
        if st.hand:
            if not self._short_batch() or not self.apply(Turn(card)).ok:
                return None  # (turning: a card of it misread is renamed instead)
            return f"{card} turned: {len(st.hand)} of the batch known"
        tops = {pile[-1] for pile in st.waste if pile}
        for f, pile in enumerate(st.foundations):
            top = pile[-1] if pile else None
            if top not in self.pos:
                continue
            for above, s in view.cards.items():
                if (above not in tops or self._dist(s.xy, self.pos[top]) >= ON_TOP
                        or st.foundation_accepts(f, above)):
                    continue
                move = self._up_between(card, above, f)
                if move is not None and self.apply(TurnAndPlay(card, move)).ok:
                    self.pos[card] = self.pos[top]
                    return f"{card} went up unseen under {above}"
        return None

    def _laid_unseen(self, view: TableView, stock: set[Card]) -> tuple[Card, Target, np.ndarray] | None:
        """A card never turned, read under another card (its corner only) where a waste pile's next card lies:
        it was turned and laid there while hands kept it from lying still in view (a quick player), and the card
        on it came after. On a pile, its corner lies a fan step from the covered top's corner; on an empty spot
        (a new pile), its centre (the corner less the corner's offset seen on covered cards) lies a fan step
        before a new card's; or it was glimpsed lying whole where it lies (:meth:`_laid_where_glimpsed`). Returns
        the card, its place and its centre."""
        glimpsed = self._laid_where_glimpsed(view, stock)
        if glimpsed is not None or self.fan_step is None:
            return glimpsed
        step = self.fan_step * self.size
        offset = None
        for c, s in view.cards.items():
            if c not in stock or self._whole(s):
                continue
            for w, pile in enumerate(self.state.waste):
                top = view.cards.get(pile[-1]) if pile else None
                if top is None or self._whole(top) or pile[-1] not in self.pos:
                    continue
                centre = self.pos[pile[-1]] + step
                if self._dist(s.xy, top.xy + step) < SAME_SLOT and self._covered_by_whole(c, centre + step, view):
                    return c, Target("W", w), centre
            offset = self._corner_offset(view) if offset is None else offset
            if offset is None or not any(not pile for pile in self.state.waste):
                continue
            centre = s.xy - offset
            if (self._covered_by_whole(c, centre + step, view)
                    and self.locate(c, centre, defer_new=False, may_be_hand=False) == Target("W")):
                return c, Target("W"), centre
        return None

    def _note_read_under(self, view: TableView, stock: set[Card]) -> tuple[Card, Target, np.ndarray] | None:
        """:meth:`_laid_unseen`, noting a card read under the card coming onto a pile (the pile's top then): should
        the card on it join the game first, it is laid under it later (:meth:`_laid_under_last`)."""
        unseen = self._laid_unseen(view, stock)
        if unseen is not None and unseen[1].kind == "W" and unseen[1].index is not None:
            self.read_under[unseen[0]] = self.state.waste[unseen[1].index][-1]
        if any(c not in stock for c in self.read_under):  # those in the game since: forgotten
            self.read_under = {c: top for c, top in self.read_under.items() if c in stock}
        return unseen

    def _laid_under_last(self, view: TableView, stock: set[Card]) -> tuple[Card, int, np.ndarray] | None:
        """A card never turned, read (its corner only) one fan step beyond the card under the last card laid, the
        last card lying two fan steps beyond the card under it, and seen there before that card joined the game
        (read under it as it came, too few frames to join first: :meth:`_note_read_under`; or glimpsed lying whole
        there): it was laid there and covered at once (a quick player; a corner read in some frames only). The
        card, the waste pile's index and its centre."""
        last = self.session.kind.last_turn(self.state)
        if self.fan_step is None or last is None or len(last[1]) != 1 or not (self.read_under or self.early):
            return None
        top, (move,) = last
        pile = self.state.waste[move.target_index] if move.source == "S" and move.target == "W" else []
        if len(pile) < 2 or pile[-1] != top or top not in self.pos or pile[-2] not in self.pos:
            return None
        under = view.cards.get(pile[-2])
        step = self.fan_step * self.size
        if (under is None or self._whole(under)
                or self._dist(self.pos[top], self.pos[pile[-2]] + 2 * step) > SAME_SLOT):
            return None  # the last card lies in the pile's next slot: nothing between
        centre = self.pos[pile[-2]] + step
        for c, s in view.cards.items():
            seen_there = (self.read_under.get(c) == pile[-2]
                          or (c in self.early and self._dist(self.early[c][1], centre) < SAME_SLOT))
            if (seen_there and c in stock and not self._whole(s) and s.frames >= MIN_FRAMES
                    and self._dist(s.xy, under.xy + step) < SAME_SLOT):
                return c, move.target_index, centre
        return None

    def _lay_under_last(self, card: Card, w: int, centre: np.ndarray):
        """Take back the last card's turn and move, turn ``card`` and lay it on waste pile ``w``, then the last card
        on it again (:meth:`_laid_under_last`); None (nothing done) where the rules do not allow it so."""
        top = self.state.waste[w][-1]
        probe = self.state.clone()
        probe.undo()
        probe.undo()
        moves = []
        for c in (card, top):
            move = self._move_after_turn(c, Target("W", w), probe)
            if move is None:
                return None
            probe.turn(c)
            probe.apply(move)
            moves.append(move)
        return self._tell_again(2, [TurnAndPlay(card, moves[0]), TurnAndPlay(top, moves[1])], {card: centre})

    def _laid_where_glimpsed(self, view: TableView, stock: set[Card]) -> tuple[Card, Target, np.ndarray] | None:
        """A card never turned, seen whole a moment (:meth:`_note_early`) and now read under a new card (its corner
        only), which lies a fan step from where it lay: it was turned and laid there, and the card on it came after
        (a quick player; also the game's first card, before the fan step is known). The card, its place, its
        centre."""
        if not self.early:
            return None  # nearly always: nothing to work out on the frame path
        on_table = self._on_table()
        for c, (_, p) in self.early.items():
            if c not in stock or c not in view or self._whole(view[c]):
                continue
            if self.fan_step is not None:
                covered = self._covered_by_whole(c, p + self.fan_step * self.size, view, on_table)
            else:
                covered = any(n != c and n not in on_table and self._whole(t)
                              and 0.08 < self._dist(t.xy, p) < NEXT_IN_PILE for n, t in view.cards.items())
            if covered and self.state.rules.turn_count > 1:
                return c, IN_HAND, p  # four at a time: one of the batch, placed with it where it lies
            target = self.locate(c, p, defer_new=False, may_be_hand=False) if covered else None
            if isinstance(target, Target):
                return c, target, p
        return None

    def _covered_by_whole(self, card: Card, slot: np.ndarray, view: TableView, but: set[Card] = frozenset()) -> bool:
        """A card other than ``card`` (and not in ``but``) lies whole in ``slot``, the next one of a pile: the card
        laid on it. (Without it, the corner may be the whole card's own corner misread, where that card lies one
        slot nearer.)"""
        return any(n != card and n not in but and self._whole(t) and self._dist(t.xy, slot) < SAME_SLOT
                   for n, t in view.cards.items())

    def _corner_offset(self, view: TableView) -> np.ndarray | None:
        """Where a covered card's corner is read from its centre: the median over the waste piles' covered cards
        read now whose centre was seen (None without one)."""
        d = [view[c].xy - self.pos[c] for pile in self.state.waste for c in pile[:-1]
             if c in view and c in self.pos and not self._whole(view[c])]
        return np.median(np.array(d), axis=0) if d else None

    def _lay_unseen(self, card: Card, target: Target, centre: np.ndarray):
        """Turn ``card`` and lay it at ``target``, its centre at ``centre`` (:meth:`_laid_unseen`)."""
        move = self._move_after_turn(card, target)
        if move is None:
            return f"{card} lies on a waste pile where the rules do not allow it"
        out = self.apply(TurnAndPlay(card, move))
        if not out.ok:
            return out.error
        self.pos[card] = centre
        return True

    def _play(self, card: Card, target, p: np.ndarray, view: TableView, from_pile: int | None = None):
        if target is IN_HAND:
            return None
        move = None if isinstance(target, str) else self._find_move(self.state, card, target, from_pile)
        if (move is None or target.index is None) and self._up_unseen(card, p, target, view):
            return True  # it lies on a card played up unseen: placed there at the next step
        if isinstance(target, str):
            founded = None if from_pile is not None else self._pile_was_foundation(card, p, turned=False)
            return target if founded is None else founded
        if move is None:
            if target.kind == "W":
                return f"{card} lies on a waste pile where the rules do not allow it"
            on_pile = None if from_pile is not None else self._on_pile_not_foundation(card, target, p, turned=False)
            if on_pile is not None:
                return on_pile
            return (f"{card} lies on a foundation where the rules do not allow it (if a card went up under it "
                    f"unseen, hold that card up to the camera)")
        out = self.apply(Play(move))
        if not out.ok:
            return out.error
        self._learn_fan(card, target, p)
        self.pos[card] = p
        self.first_pos.pop(card, None)
        self.moved_at.pop(card, None)
        return True

    # -- where a card lies ------------------------------------------------------------------------------------
    def locate(self, card: Card, p: np.ndarray, *, defer_new: bool, from_pile: int | None = None,
               may_be_hand: bool = True, state=None):
        """The place ``p`` is on (in ``state``, the game's by default): a Target, IN_HAND, or a text saying why it
        cannot be told."""
        st = state or self.state
        if may_be_hand and self._at_hand_spot(p):
            return IN_HAND
        best: tuple[float, Target] | None = None
        for f, pile in enumerate(st.foundations):
            if pile and pile[-1] in self.pos and pile[-1] != card:
                d = self._dist(p, self.pos[pile[-1]])
                if d < ON_TOP and (best is None or d < best[0]):
                    best = (d, Target("F", f))
        for w, pile in enumerate(st.waste):
            if w == from_pile or not pile or pile[-1] not in self.pos:
                continue
            top = self.pos[pile[-1]]
            d_top = self._dist(p, top)
            if self.fan_step is not None:  # the next slot from the top card, or counted from the pile's bottom card
                d = self._dist(p, top + self.fan_step * self.size)
                if pile[0] in self.pos:
                    d = min(d, self._dist(p, self.pos[pile[0]] + len(pile) * self.fan_step * self.size))
                ok = d < 0.4
            else:
                d, ok = d_top, 0.08 < d_top < NEXT_IN_PILE
            if ok and (best is None or d < best[0]):
                best = (d, Target("W", w))
        if best is not None:
            return best[1]
        ends = {pile[k] for pile in list(st.foundations) + list(st.waste) if pile for k in (0, -1)}
        others = [q for c, q in self.pos.items() if c != card and c in ends]  # each place's top and bottom
        if from_pile is not None and card in self.pos:
            others.append(self.pos[card])  # a waste top read just off its place: the camera jolted, it was not moved
        if any(self._dist(p, q) < FREE for q in others):
            return f"{card} lies between places (not on a pile, not clear of them)"
        if defer_new and not self.hand_spots and self._may_come() - {card}:
            return IN_HAND  # the turned spot is not known yet: take it as turned; placed when it moves or the next comes
        can_found = any(not pile and st.foundation_accepts(f, card) for f, pile in enumerate(st.foundations))
        can_waste = any(not pile for pile in st.waste) and (from_pile is None or st.rules.waste_to_waste)
        if not can_found and not can_waste:
            return f"{card} lies at a new place, but there is no empty foundation or waste pile left"
        found_rows = self._rows(st.foundations)
        waste_rows = self._rows(st.waste)
        d = self._fan_dir()
        row = float(p @ d)
        near_f = any(abs(row - r) < SAME_ROW * self.size for r in found_rows)
        near_w = any(abs(row - r) < SAME_ROW * self.size for r in waste_rows)
        if can_found and can_waste:
            return Target("W") if near_w and found_rows and not near_f else Target("F")
        return Target("F") if can_found else Target("W")

    def _rows(self, piles) -> list[float]:
        """Positions along the fan direction of the bottom card of each of ``piles`` (foundations or waste) seen."""
        d = self._fan_dir()
        return [float(self.pos[pile[0]] @ d) for pile in piles if pile and pile[0] in self.pos]

    def _fan_dir(self) -> np.ndarray:
        if self.fan_step is not None and np.linalg.norm(self.fan_step) > 0:
            return self.fan_step / np.linalg.norm(self.fan_step)
        return np.array([0.0, 1.0])

    def _learn_fan(self, card: Card, target, p: np.ndarray) -> None:
        """How this player fans the piles, learned again each time a card is laid on a waste pile: the median step
        from a card to the one laid on it, over every waste pile (players fan unevenly: a first step of a tenth of
        a card, where the next ones are a quarter, must not set the slots of the whole game)."""
        if target.kind != "W":
            return
        pos = {**self.pos, card: p}
        steps = []
        for pile in self.state.waste:
            for under, over in zip(pile, pile[1:]):
                if under in pos and over in pos:
                    step = pos[over] - pos[under]
                    if 0.08 * self.size < np.linalg.norm(step) < NEXT_IN_PILE * self.size:
                        steps.append(step)
        if steps:
            self.fan_step = np.median(np.array(steps), axis=0) / self.size

    # -- moves -------------------------------------------------------------------------------------------------
    def _find_move(self, state, card: Card, target: Target, from_pile: int | None = None) -> Move | None:
        """The legal move taking ``card`` to ``target`` (a new place: the lowest empty index of that kind)."""
        fits = []
        for m in state.legal_moves():
            if m.is_redeal or m.target != target.kind:
                continue
            if self.session.kind.moved_card(state, m) != card:
                continue
            if from_pile is not None and (m.source != "W" or m.source_index != from_pile):
                continue
            pile = (state.foundations if m.target == "F" else state.waste)[m.target_index]
            if target.index is None:
                if not pile:
                    fits.append(m)
            elif m.target_index == target.index:
                fits.append(m)
        return min(fits, key=lambda m: m.target_index) if fits else None

    def move_as(self, state, old: Card, card: Card, move: Move) -> Move:
        """The move laying ``card`` (in hand in ``state``) where ``move`` laid ``old``, the card the player has
        renamed ``card``: the spot may mean another place for the right name (an Ace read as a 4 on a spot of its
        own starts a foundation, a 6 read as an Ace a waste pile). ``move`` itself when ``old`` has moved since."""
        p = self.pos.get(old)
        if p is None or move.source != "S" or move.target not in ("F", "W"):
            return move
        piles = self.state.foundations if move.target == "F" else self.state.waste
        if old not in piles[move.target_index]:
            return move
        target = self.locate(card, p, defer_new=False, may_be_hand=False, state=state)
        if not isinstance(target, Target) or target is IN_HAND:
            return move
        return self._find_move(state, card, target) or move

    def _move_after_turn(self, card: Card, target: Target, state=None) -> Move | None:
        """The move laying ``card`` at ``target`` once turned (in ``state``, the game's by default), or None."""
        probe = (state or self.state).clone()
        try:
            probe.turn(card)
        except ValueError:
            return None
        return self._find_move(probe, card, target)

    # -- bookkeeping ---------------------------------------------------------------------------------------------
    @property
    def card_size(self) -> float:
        return self.size

    def visible(self) -> set[Card]:
        """The game's cards whose face may show on the table: the card in hand, the waste piles' (fanned, each
        shows its corner) and the foundations' tops."""
        st = self.state
        cards = set(st.hand) | {c for pile in st.waste for c in pile}
        return cards | {pile[-1] for pile in st.foundations if pile}

    def _on_table(self) -> set[Card]:
        st = self.state
        cards = set(st.hand)
        for pile in list(st.foundations) + list(st.waste):
            cards.update(pile)
        return cards - st.assumed

    def _may_come(self) -> set[Card]:
        """The cards that may be turned: the stock's, and those a game taken over assumes under foundation tops."""
        return set(self.state.stock_cards()) | self.state.assumed

    def _note_known(self, view: TableView) -> None:
        """Cards the game already has on the table but whose place was never seen (a resumed game, base cards)."""
        for c in self._on_table():
            if c in view and c not in self.pos:
                self.pos[c] = view[c].xy
                if c in self.state.hand:
                    self.first_pos.setdefault(c, view[c].xy)

    def _follow_drift(self, view: TableView) -> None:
        """Top cards nudged a little (a pile straightened, the camera drifting) are where they are now. Only tops,
        read whole (both corners, a card-sized box): a covered card's reading can take its cover's box, or a
        corner of the cover misread as it; and only a little at a time (``DRIFT``)."""
        st = self.state
        stock = self._may_come()
        if st.hand or any(c in stock for c in view.cards):
            return  # a card is on its way: a top it lands on is read with the newcomer's corners
        tops = {pile[-1] for pile in list(st.foundations) + list(st.waste) if pile}
        for c in tops:
            s = view.cards.get(c)
            if s is None or c not in self.pos or s.corners < 2:
                continue
            if 0.8 * self.size <= s.long_side <= 1.2 * self.size and self._dist(s.xy, self.pos[c]) <= DRIFT:
                self.pos[c] = s.xy

    def _follow_shift(self, view: TableView) -> TableShift | None:
        shift = super()._follow_shift(view)
        if shift is not None:
            self.first_pos = {c: shift.point(p) for c, p in self.first_pos.items()}
            self.hand_spots = [shift.point(q) for q in self.hand_spots]
            for where in (self.moved_at, self.went_up):
                for c, (frame, p) in list(where.items()):
                    where[c] = (frame, shift.point(p))
            if self.fan_step is not None:
                self.fan_step = shift.direction(self.fan_step)
            self.size *= shift.scale
        return shift

    def _misread_of_hidden(self, card: Card, p: np.ndarray, view: TableView) -> bool:
        """A 'new' card right where a known top card lies, while that card is not read: a misreading of it --
        unless it is a card played onto that foundation (which covers the old top exactly) or one laid in the pile's
        next fan slot. Also a 'new' card on a covered card of a waste pile: nothing is laid under a pile's top.
        And always one read right where a card of the game was read steadily, nothing moving there since: no hand
        laid a card there."""
        st = self.state
        if any(c not in view and self._undisturbed_at_spot(c, view) and self._on_spot_of(p, c) for c in self.visible()):
            return True
        held = {h: self.moved_at[h][1] if h in self.moved_at else self.pos[h] for h in st.hand if h in self.pos}
        if any(self._dist(p, q) < 0.2 and self._builds_on(h, card)
               and (st.rules.turn_count > 1 or not self._at_hand_spot(q)) for h, q in held.items()):
            return False  # laid on a card in hand that lies on a foundation (four at a time: one of the batch)
        for f, pile in enumerate(st.foundations):
            top = pile[-1] if pile else None
            if top is not None and top not in view and top in self.pos and self._dist(p, self.pos[top]) < 0.2:
                return not (st.foundation_accepts(f, card) or self._glimpsed_between(card, self.pos[top], f, view)
                            or self._glimpsed_in_batch(card, f, view) is not None)
        for pile in st.waste:  # a card in the next slot of a pile (closer to it than to the top) was laid on it
            top = pile[-1] if pile else None
            if top is None or top not in self.pos:
                continue
            if top not in view and self._on_spot_of(p, top):
                return not self._foundation_taken_for_pile(pile, card)
            next_slot = None if self.fan_step is None else self._dist(p, self.pos[top] + self.fan_step * self.size)
            for c in pile[:-1]:  # nothing is laid under a pile's top: a covered card misread
                if c in view or c not in self.pos:
                    continue
                d = self._dist(p, self.pos[c])
                if d < 0.3 and (next_slot is None or d < next_slot):
                    return True
        return any(c not in view and self._on_spot_of(p, c) for c in st.hand)

    def _undisturbed_at_spot(self, card: Card, view: TableView) -> bool:
        """Nothing has moved where ``card`` was last read steadily, and that was its place in the game (a
        misreading of another card under its name, read steadily a moment elsewhere, says nothing of its spot)."""
        box = view.undisturbed.get(card)
        if box is None:
            return False
        x1, y1, x2, y2 = box
        return self._on_spot_of(np.array(((x1 + x2) / 2, (y1 + y2) / 2)), card)

    def _on_spot_of(self, p: np.ndarray, card: Card) -> bool:
        """``p`` is right where ``card`` of the game lies, not in the next fan slot beyond it (a narrow fan's slots
        lie less than a fifth of a card apart): a new card there is a misreading of it (pile tops, batch cards)."""
        if card not in self.pos:
            return False
        d = self._dist(p, self.pos[card])
        return d < 0.2 and (self.fan_step is None or d < self._dist(p, self.pos[card] + self.fan_step * self.size))

    def _builds_on(self, under: Card, card: Card) -> bool:
        """``card`` may lie on ``under`` on a foundation (four at a time: cards laid from the hand, both turned in
        one batch, one on the other)."""
        rules = self.state.rules
        return (any(rules.next_rank(f, under.rank) == card.rank for f in range(4))
                and (not rules.in_suit or under.suit == card.suit))

    def _inconsistency(self, view: TableView) -> str | None:
        """A card seen where the game cannot have it, for a while: the table differs from the game."""
        st = self.state
        stock = self._may_come()
        on_table = self._on_table()
        movable = {pile[-1] for pile in list(st.foundations) + list(st.waste) if pile} | set(st.hand)
        if self._short_batch():
            return (f"four at a time: {len(st.hand)} turned cards read ({' '.join(map(str, st.hand))}), the next one "
                    "not: hold it up to the camera (or type r and its name)")
        for c, s in view.cards.items():
            if c in on_table:
                if c not in movable and s.long_side < 0.8 * self.size:
                    continue  # a covered card read by a corner far from it: another card's index misread
                if c in self.pos and self._dist(s.xy, self.pos[c]) > AWAY:
                    return f"{c} is seen away from its place ({st._where(c)})"
            elif c not in stock:
                return f"{c} is seen on the table, but it is not in play here"
        if st.needs_card() and not st.hand:
            for c, s in view.elsewhere.items():
                if self._misread_elsewhere(c, s, on_table):
                    return (f"{c} is read in two places: the card just turned is misread as {c}; "
                            f"straighten it or hold it up to the camera")
        return None

    def _misread_elsewhere(self, c: Card, s, on_table: set[Card]) -> bool:
        """A card of the game read steadily, whole, at a second spot away from its own, while the game waits for
        the next card: a card exists once, so that spot holds the newly turned card misread. Not when the card is
        a pile's top and the spot is a place it may go to (a move under way: its old spot is still being read)."""
        st = self.state
        if c not in on_table or c not in self.pos or not self._whole(s) or self._dist(s.xy, self.pos[c]) <= AWAY:
            return False
        pile = next((i for i, w in enumerate(st.waste) if w and w[-1] == c), None)
        if pile is None:
            return True  # covered, or on a foundation: it cannot be moved
        target = self.locate(c, np.asarray(s.xy), defer_new=False, from_pile=pile, may_be_hand=False)
        return isinstance(target, str) or self._find_move(st, c, target, pile) is None

    def _xy(self, view: TableView, card: Card) -> np.ndarray:
        """Where ``card`` lies. A box longer than a card is the card and the pile top it overlaps read as one (the
        reader boxed a fanned pair together): such a box is the union of the two, so its centre lies halfway
        between theirs, and the card lies as far beyond the middle as the known top lies before it (the top's centre
        then lies well inside the box: a quarter card from its edges at least)."""
        s = view[card]
        if s.long_side <= OVERSIZE * self.size:
            return s.xy
        st = self.state
        tops = [pile[-1] for pile in list(st.foundations) + list(st.waste) if pile]
        m = 0.25 * self.size
        inside = [self.pos[c] for c in tops if c != card and c in self.pos and c not in view
                  and s.box[0] + m <= self.pos[c][0] <= s.box[2] - m and s.box[1] + m <= self.pos[c][1] <= s.box[3] - m]
        if len(inside) != 1:
            return s.xy
        return 2 * s.xy - inside[0]

    def _dist(self, a: np.ndarray, b: np.ndarray) -> float:
        """Distance in card sizes."""
        return float(np.hypot(*(np.asarray(a) - np.asarray(b)))) / self.size

    # -- for the loop and the overlay ---------------------------------------------------------------------------
    def hinted_position(self, move) -> np.ndarray | None:
        return self.place_position(move if isinstance(move, Move) else Move.parse(str(move)))

    def place_position(self, move: Move) -> np.ndarray | None:
        """Where ``move`` would put its card on the image (for highlighting a hint), if the place is known."""
        st = self.state
        pile = (st.foundations if move.target == "F" else st.waste)[move.target_index] if move.target else None
        if pile:
            q = self.pos.get(pile[-1])
            if q is not None and move.target == "W" and self.fan_step is not None:
                return q + self.fan_step * self.size
            return q
        return None


def _suit_twins(a: Card, b: Card) -> bool:
    """One rank in the two suits of one colour (Ac and As): what a card's hard-to-tell suit is read as."""
    return suit_twins(str(a), str(b))

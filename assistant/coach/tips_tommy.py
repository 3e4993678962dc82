"""Sir Tommy's tips (rules 000-003, "Tipps für Einsteiger" / "Tips for beginners" / "Tips en strategieën" /
"Consigli e strategie") as checks on a decision: the turned card's placement plus the plays up that follow it.

The position is a ``TommyState`` with the turned card in hand (one card at a time); the move is a tuple of
``Move`` (``S>W2``, then any ``W1>F0``). Readings where the texts leave a detail open:

* "high cards" (000/001: Kings and other high cards; 002/003: Jacks, Queens, Kings) are J, Q, K; "the pile kept
  for high cards" is a non-empty waste pile holding only such cards. "One" pile: a high card follows the tip on
  that pile, or on an empty pile while there is none yet; opening a second one is neither.
* "bury all four cards of one rank under higher cards" (000/001): every card of a rank that is not yet on the
  foundations lies in a waste pile under a higher card (with some of the four already up, the rest block just as
  well); a move breaks the tip when it makes that true for a rank.
* "Spread the low cards (Twos, Threes, Fours)" (002/003): a 2, 3 or 4 goes on a pile that holds no other.
* "Never bury a 2 under a 3 [...] until both Aces are already on the foundations" (002/003): a 3 on a pile
  holding a 2 while fewer than two foundations are started.
* "Watch which cards have already appeared" (002/003): covering a lower card is cheap while other cards of its
  rank are still to come (unseen), and breaks the tip when it was the last one free.
* "prefer the pile that already has a card of the same rank or one rank higher on top" (002/003): a preference:
  followed on such a pile, otherwise silent.
"""

from __future__ import annotations

from assistant.cards import Card
from assistant.coach.tips import Pile, RankName, Tip, Verdict, judge, verdicts
from assistant.games.tommy import Move, TommyState

HIGH = 11  # Jack


def _v(follows: bool, why: str, **fields) -> Verdict:
    return Verdict(follows, why, fields)


def _card(state: TommyState) -> Card:
    return state.hand[0]


def _waste_target(moves) -> int | None:
    m = moves[0]
    return m.target_index if m.source == "S" and m.target == "W" else None


def _is_high_pile(pile) -> bool:
    return bool(pile) and all(c.rank >= HIGH for c in pile)


# -- the checks ---------------------------------------------------------------------------------------------


def high_pile(state: TommyState, moves) -> Verdict | None:
    """000/001: "Keep one waste pile for Kings and other high cards, so they don't bury the low cards you need
    soon." 002/003: "Reserve one waste pile for high cards (Jacks, Queens, Kings)"."""
    j = _waste_target(moves)
    if j is None:
        return None
    card, pile = _card(state), state.waste[j]
    if card.rank >= HIGH:
        if _is_high_pile(pile) or (not pile and not any(_is_high_pile(p) for p in state.waste)):
            return _v(True, "why.tommy.high-pile.kept", card=card, pile=Pile("waste", j))
        if not pile:
            return None  # a second pile for high cards: not what the tip asks, not against it
        return _v(False, "why.tommy.high-pile.buries", card=card, top=pile[-1])
    if _is_high_pile(pile):
        return _v(False, "why.tommy.high-pile.spoils", card=card, pile=Pile("waste", j))
    if any(_is_high_pile(p) for p in state.waste):
        return _v(True, "why.tommy.high-pile.clean", card=card)
    return None


def higher_not_lower(state: TommyState, moves) -> Verdict | None:
    """000/001: "If you can, put a card on a higher card rather than a lower one: then the piles come off in the
    right order." """
    j = _waste_target(moves)
    if j is None or not state.waste[j]:
        return None
    card, top = _card(state), state.waste[j][-1]
    if top.rank > card.rank:
        return _v(True, "why.tommy.higher-not-lower.higher", card=card, top=top)
    if top.rank < card.rank:
        return _v(False, "why.tommy.higher-not-lower.lower", card=card, top=top)
    return None


def same_rank(state: TommyState, moves) -> Verdict | None:
    """000/001: "Try not to put two cards of the same rank on one pile"."""
    j = _waste_target(moves)
    if j is None:
        return None
    card, pile = _card(state), state.waste[j]
    twin = next((c for c in pile if c.rank == card.rank), None)
    if twin is not None:
        return _v(False, "why.tommy.same-rank.twice", card=card, twin=twin, pile=Pile("waste", j))
    return _v(True, "why.tommy.same-rank.apart", card=card, rank=RankName(card.rank))


def _blocked_ranks(foundations, waste, hand) -> set[int]:
    """Ranks whose every card not yet on the foundations lies in a waste pile under a higher card."""
    up = {}
    for f in foundations:
        for c in f:
            up[c.rank] = up.get(c.rank, 0) + 1
    buried: dict[int, int] = {}
    free: set[int] = set()
    for pile in waste:
        highest_above = 0
        for c in reversed(pile):
            if highest_above > c.rank:
                buried[c.rank] = buried.get(c.rank, 0) + 1
            else:
                free.add(c.rank)
            highest_above = max(highest_above, c.rank)
    for c in hand:
        free.add(c.rank)
    return {r for r, n in buried.items() if r not in free and n + up.get(r, 0) == 4}


def bury_all_four(state: TommyState, moves) -> Verdict | None:
    """000/001: "above all don't bury all four cards of one rank under higher cards – that blocks every
    foundation." """
    j = _waste_target(moves)
    if j is None:
        return None
    card = _card(state)
    before = _blocked_ranks(state.foundations, state.waste, state.hand)
    waste = [list(p) for p in state.waste]
    waste[j].append(card)
    after = _blocked_ranks(state.foundations, waste, [])
    new = sorted(after - before)
    if new:
        return _v(False, "why.tommy.bury-all-four.buried", card=card, rank=RankName(new[0]))
    return _v(True, "why.tommy.bury-all-four.free", card=card)


def spread_low(state: TommyState, moves) -> Verdict | None:
    """002/003: "Spread low cards (Twos, Threes, Fours) over several waste piles to keep options open for the
    next layer of the foundations." """
    j = _waste_target(moves)
    card = _card(state)
    if j is None or not 2 <= card.rank <= 4:
        return None
    other = next((c for c in state.waste[j] if 2 <= c.rank <= 4), None)
    if other is not None:
        return _v(False, "why.tommy.spread-low.together", card=card, other=other, pile=Pile("waste", j))
    return _v(True, "why.tommy.spread-low.apart", card=card, pile=Pile("waste", j))


def play_up_at_once(state: TommyState, moves) -> Verdict | None:
    """002/003: "Play to the foundations as soon as a card fits. There is almost never a reason to delay a
    foundation move." """
    card = _card(state)
    fits = any(state.foundation_accepts(f, card) for f in range(4))
    after = state.clone()
    for m in moves:
        after.apply(m)
    if fits and any(card in pile for pile in after.waste):  # judged on where the card ends, not the route
        return _v(False, "why.tommy.play-up.kept-card", card=card)
    for pile in after.waste:
        if pile and any(after.foundation_accepts(f, pile[-1]) for f in range(4)):
            return _v(False, "why.tommy.play-up.kept-top", top=pile[-1])
    played = sum(1 for m in moves if m.target == "F")
    if played:
        return _v(True, "why.tommy.play-up.played", n=played)
    return None


def watch_seen(state: TommyState, moves) -> Verdict | None:
    """002/003: "Watch which cards have already appeared. If three Aces are out and the fourth is still in the
    stock, plan accordingly for the Twos of the second layer." Covering a lower card matters by how many of its
    rank are still to come: covering the last free card of a rank breaks the tip; every other placement on a
    waste pile keeps it."""
    j = _waste_target(moves)
    if j is None:
        return None
    card = _card(state)
    if not state.waste[j] or state.waste[j][-1].rank >= card.rank:
        return _v(True, "why.tommy.watch-seen.safe", card=card)
    top = state.waste[j][-1]
    to_come = sum(1 for c in state.unseen() if c.rank == top.rank)
    free_tops = sum(1 for i, p in enumerate(state.waste) if p and i != j and p[-1].rank == top.rank)
    if to_come == 0 and free_tops == 0:
        return _v(False, "why.tommy.watch-seen.last", card=card, top=top, rank=RankName(top.rank))
    if to_come:
        return _v(True, "why.tommy.watch-seen.more", card=card, top=top, n=to_come, rank=RankName(top.rank))
    return _v(True, "why.tommy.watch-seen.safe", card=card)


def two_under_three(state: TommyState, moves) -> Verdict | None:
    """002/003: "Never bury a 2 under a 3 in the same waste pile until both Aces are already on the foundations;
    otherwise the 2 gets locked in." """
    j = _waste_target(moves)
    card = _card(state)
    if j is None or card.rank != 3:
        return None
    aces = sum(1 for f in state.foundations if f)
    if aces >= 2:
        return None
    two = next((c for c in state.waste[j] if c.rank == 2), None)
    if two is not None:
        return _v(False, "why.tommy.two-under-three.buries", card=card, two=two, aces=aces)
    return _v(True, "why.tommy.two-under-three.free", card=card)


def same_or_one_higher(state: TommyState, moves) -> Verdict | None:
    """002/003: "When two waste piles are roughly equal in their high cards, prefer the pile that already has a
    card of the same rank or one rank higher on top (so the new card builds a useful late-game pile)." A
    preference, not a prohibition: a move follows it or says nothing (never breaks it)."""
    j = _waste_target(moves)
    if j is None or not state.waste[j]:
        return None
    card, top = _card(state), state.waste[j][-1]
    if 0 <= top.rank - card.rank <= 1:
        return _v(True, "why.tommy.same-or-one-higher.close", card=card, top=top)
    return None


TIPS: tuple[Tip, ...] = (
    Tip("tommy", "high-pile", ("000", "001", "002", "003"), high_pile),
    Tip("tommy", "higher-not-lower", ("000", "001"), higher_not_lower),
    Tip("tommy", "same-rank", ("000", "001"), same_rank),
    Tip("tommy", "bury-all-four", ("000", "001"), bury_all_four),
    Tip("tommy", "spread-low", ("002", "003"), spread_low),
    Tip("tommy", "play-up", ("002", "003"), play_up_at_once),
    Tip("tommy", "watch-seen", ("002", "003"), watch_seen),
    Tip("tommy", "two-under-three", ("002", "003"), two_under_three),
    Tip("tommy", "same-or-one-higher", ("002", "003"), same_or_one_higher),
)
BY_NAME = {t.name: t for t in TIPS}


# -- decisions ----------------------------------------------------------------------------------------------


def as_moves(moves) -> tuple[Move, ...]:
    """A decision from text (``"S>W2 W1>F0"``), a Move, or a sequence of either."""
    if isinstance(moves, Move):
        return (moves,)
    if isinstance(moves, str):
        moves = moves.split()
    return tuple(m if isinstance(m, Move) else Move.parse(str(m)) for m in moves)


def play_up(state: TommyState) -> tuple[Move, ...]:
    """Every play to the foundations, first fitting top first, until none fits (the greedy closure)."""
    probe = state.clone()
    out = []
    while True:
        up = next((m for m in probe.legal_moves() if m.source == "W" and m.target == "F"), None)
        if up is None:
            return tuple(out)
        probe.apply(up)
        out.append(up)


def alternatives(state: TommyState) -> list[tuple[Move, ...]]:
    """The choices a player has: each legal placement of the turned card, alone and followed by every play up."""
    out = []
    for m in state.legal_moves():
        if m.source != "S":
            continue
        probe = state.clone()
        probe.apply(m)
        plays = play_up(probe)
        out.append((m,) + plays)
        if plays:
            out.append((m,))
    return out


def judge_decision(state: TommyState, moves) -> list[Verdict]:
    """The tips the decision follows or breaks where the player had a choice (see ``tips.judge``)."""
    if len(state.hand) != 1:
        raise ValueError("a Sir Tommy decision needs exactly one turned card in hand")
    return judge(TIPS, state, as_moves(moves), alternatives(state))


def raw_verdicts(state: TommyState, moves) -> dict[str, Verdict]:
    return verdicts(TIPS, state, as_moves(moves))

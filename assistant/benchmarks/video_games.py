"""Games for the rendered camera videos: a seeded deal played by a fallible player, as a script of table actions.

The renderer (``vision.training.game_video``) knows no rules; it draws what this script says. The player follows
a simple heuristic and deviates from it at random (legal moves only), as a person does: Sir Tommy cards go up
when they fit (mostly), else on a waste pile whose top is just above them, an empty one, or anywhere; waste tops
are played up at once or some turns later (four at a time: the four turned cards are placed in an order of the
player's own, then tops go up). Poker cards go where their rank or suit already lies, or anywhere; in Poker
Shuffle all 25 are laid out open first, then moved one by one into the arrangement the shuffle solver finds.

Convention (so that engine indices are the order in which places first appear on the table): a card put on an
EMPTY waste pile, or an Ace on an EMPTY foundation, always takes the lowest-index empty pile / foundation.

Script steps (engine indices; plain data, JSON-ready):

    Sir Tommy: {"kind": "turn", "card": "Qh"}                              the next stock card is turned
               {"kind": "move", "card": "Qh", "move": "S>W2"}              a move (S>Wi, S>Fj, Wi>Fj; four at
                                                                           a time: S0..S3, the hand position)
               {"kind": "redeal"}                                          the waste piles gathered into a new
                                                                           stock (the variants with redeals)
               and, beside the steps, "bases" (the cards set out on foundations 0-3 before play: Aces out
               first, Calculation's A 2 3 4; empty in the other variants) and "stock" (the cards in the stock
               at the start: 48 with bases, 44 in Puss in the Corner, its Kings out of play)
    Poker:     {"kind": "place", "card": "Qh", "cell": [r, c]}             the caller's next card into a cell
    Shuffle:   {"kind": "open", "card": "Qh"}, ... x 25                    laid out open, apart from the grid
               {"kind": "place", "card": "Qh", "cell": [r, c]}, ... x 25   then moved into its cell
"""

from __future__ import annotations

import numpy as np

from assistant.cards import Card
from assistant.deals import deal_order
from assistant.games.tommy_rules import PRESETS

TOMMY_VARIANTS = tuple(PRESETS)
POKER_VARIANTS = ("american", "english", "american-adjacent", "english-adjacent", "american-shuffle",
                  "english-shuffle")


def play_tommy(seed: int, turns: int | None = None, variant: str = "standard", *, player_seed: int | None = None,
               follow: float = 0.8) -> dict:
    """Play the deal ``deal_order(seed)``; stop after ``turns`` turned cards (None: the whole game, every redeal
    the rules allow taken, waste tops played up at the end). ``follow``: how often the player takes the
    heuristic's choice."""
    from assistant.games.tommy import TommyRules, TommyState
    from assistant.games.tommy_rules import REDEAL, Move

    if variant not in TOMMY_VARIANTS:
        raise ValueError(f"Sir Tommy videos support {', '.join(TOMMY_VARIANTS)}, not {variant!r}")
    rng = np.random.default_rng([seed, 9001 if player_seed is None else player_seed])
    state = TommyState(TommyRules.preset(variant), deal_order(seed))
    steps: list[dict] = []

    def do(move: Move) -> None:
        card = state.hand[move.source_index or 0] if move.source == "S" else state.waste[move.source_index][-1]
        state.apply(move)
        steps.append({"kind": "move", "card": str(card), "move": str(move)})

    def play_up(eager: float) -> None:
        """Play waste tops to the foundations, each with probability ``eager`` (1: all, until none fits)."""
        while True:
            ups = [m for m in state.legal_moves() if m.source == "W" and m.target == "F"]
            ups = [_lowest_empty_foundation(state, m) for m in ups]
            ups = [m for m in dict.fromkeys(ups) if state.is_legal(m)]
            if not ups or rng.random() >= eager:
                return
            do(ups[int(rng.integers(len(ups)))])

    bases, stock = [str(c) for c in state.bases], len(state.stock_cards())
    turned = 0
    while True:
        while state.needs_card() and (turns is None or turned < turns):
            while state.needs_card():  # one card, or four at a time
                steps.append({"kind": "turn", "card": str(state.turn_next())})
                turned += 1
            while state.hand:  # placed in an order of the player's own
                k = int(rng.integers(len(state.hand))) if len(state.hand) > 1 else 0
                do(_tommy_choice(state, k, rng, follow))
            play_up(0.55)
        if turns is not None:
            break
        play_up(1.0)
        if not state.is_legal(REDEAL):
            break
        state.apply(REDEAL)
        steps.append({"kind": "redeal"})
    finished = state.is_terminal()
    return {"game": "tommy", "variant": variant, "seed": seed, "steps": steps, "bases": bases, "stock": stock,
            "result": {"won": state.is_won(), "foundation_cards": state.foundation_cards(), "finished": finished}}


def _lowest_empty_foundation(state, move):
    """The same move, but an Ace onto an empty foundation goes to the lowest-index empty one (the convention)."""
    from assistant.games.tommy_rules import Move

    if move.target == "F" and not state.foundations[move.target_index]:
        first = next(i for i, f in enumerate(state.foundations) if not f)
        return Move(move.source, move.source_index, "F", first)
    return move


def _tommy_choice(state, k: int, rng: np.random.Generator, follow: float):
    """The move for the ``k``-th turned card: up if it fits (mostly), else a waste pile by a simple heuristic."""
    card = state.hand[k]
    legal = [m for m in state.legal_moves() if m.source == "S" and (m.source_index or 0) == k]
    ups = [_lowest_empty_foundation(state, m) for m in legal if m.target == "F"]
    if ups and rng.random() < 0.9:
        return ups[int(rng.integers(len(ups)))]
    empty = [i for i, w in enumerate(state.waste) if not w]
    lowest_empty = empty[0] if empty else None
    piles = list(range(4))
    if rng.random() < follow:
        above = [i for i in piles if state.waste[i] and state.waste[i][-1].rank > card.rank]
        if above:
            best = min(above, key=lambda i: state.waste[i][-1].rank - card.rank)
        elif lowest_empty is not None:
            best = lowest_empty
        else:
            best = max(piles, key=lambda i: state.waste[i][-1].rank)
    else:
        best = int(rng.integers(4))
    if not state.waste[best]:
        best = lowest_empty  # an empty pile: always the lowest-index one
    return next(m for m in legal if m.target == "W" and m.target_index == best)


def play_poker(seed: int, cards: int = 25, variant: str = "american", *, player_seed: int | None = None,
               follow: float = 0.75) -> dict:
    """Place the caller's first ``cards`` cards of ``deal_order(seed)``; ``follow``: how often the heuristic's
    cell is taken (else a random legal cell)."""
    from assistant.games.poker import PokerRules, PokerState

    if variant not in POKER_VARIANTS:
        raise ValueError(f"Poker videos support {', '.join(POKER_VARIANTS)}, not {variant!r}")
    rng = np.random.default_rng([seed, 9002 if player_seed is None else player_seed])
    state = PokerState(PokerRules.preset(variant))
    if state.rules.shuffle:
        if cards != 25:
            raise ValueError("a Poker Shuffle video lays out all 25 cards")
        return _play_shuffle(seed, state, rng, variant)
    steps: list[dict] = []
    for card in deal_order(seed)[: max(0, min(cards, 25))]:
        state.turn(card)
        legal = state.legal_cells()
        if rng.random() < follow and state.placed_count:
            scores = [_poker_cell_score(state, card, p.row, p.col) + rng.random() * 0.5 for p in legal]
            cell = legal[int(np.argmax(scores))]
        else:
            cell = legal[int(rng.integers(len(legal)))]
        state.place(cell)
        steps.append({"kind": "place", "card": str(card), "cell": [cell.row, cell.col]})
    complete = state.is_terminal()
    return {"game": "poker", "variant": variant, "seed": seed, "steps": steps,
            "result": {"grid": [str(c) if c else None for c in state.cells],
                       "american": state.score("american").total, "english": state.score("english").total,
                       "finished": complete}}


def _play_shuffle(seed: int, state, rng: np.random.Generator, variant: str) -> dict:
    """Poker Shuffle: all 25 cards laid out open, then moved one by one, in a random order, into the arrangement
    the shuffle solver finds (a fixed amount of work: the same script on any machine)."""
    from assistant.advisors.shuffle_solver import solve
    from assistant.games.poker import Placement

    cards = deal_order(seed)[:25]
    steps: list[dict] = [{"kind": "open", "card": str(state.turn(c))} for c in cards]
    arrangement = solve(cards, state.rules.scoring, rng, restarts=4).cells
    for i in rng.permutation(25):
        cell = Placement.from_cell(int(i))
        state.place(cell, arrangement[int(i)])
        steps.append({"kind": "place", "card": str(arrangement[int(i)]), "cell": [cell.row, cell.col]})
    return {"game": "poker", "variant": variant, "seed": seed, "steps": steps,
            "result": {"grid": [str(c) if c else None for c in state.cells],
                       "american": state.score("american").total, "english": state.score("english").total,
                       "finished": state.is_terminal()}}


def _poker_cell_score(state, card: Card, r: int, c: int) -> float:
    """Rows collect ranks (pairs, trips), columns collect suits (flushes); a full mixed line is worth little."""
    row = [x for x in state.grid[r] if x is not None]
    col = [state.grid[i][c] for i in range(5) if state.grid[i][c] is not None]
    score = 3.0 * sum(x.rank == card.rank for x in row)
    score += 2.0 * sum(x.suit == card.suit for x in col) - 1.5 * sum(x.suit != card.suit for x in col)
    score += 0.5 * sum(abs(int(x.rank) - int(card.rank)) <= 2 and x.rank != card.rank for x in row)
    return score

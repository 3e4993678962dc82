"""A finished (or stopped) game, decision by decision: what each of the player's choices cost, and why.

Every decision of the saved game is valued again by the advisor with a fixed number of sampled orders of the
cards the player had not seen (``samples``) and a generator seeded by the decision's number, so the review is
the same every time and on every machine (no clock budget). A decision's cost is the advisor's value of its best
option minus that of the option the player chose (Sir Tommy: the ranking score, reported as win chance and cards
on the foundations; Poker: expected points). For Sir Tommy the whole deck order is known once every card was
turned, so the perfect-information solver also says whether the deal could be won, how, and the last decision
after which the player's own game could still be won. For Poker the 25 cards of the deal are also arranged with
all of them known (the Poker Shuffle solver): the ceiling of that deal.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

import numpy as np

from assistant.coach import tips_poker, tips_tommy
from assistant.coach.coach import poker_move_text, tip_value_text, tommy_move_text
from assistant.coach.i18n import card_text, number, percent, tr
from assistant.coach.tips import Verdict

TOMMY_SAMPLES = 200
POKER_SAMPLES = 256
SOLVER_NODES = 100_000
ARRANGEMENT_RESTARTS = 4  # Poker: annealing runs of the arrangement with all 25 cards known
TOP = 5
MIN_SCORE_COST = 0.005  # Sir Tommy: win + cards/52; below this a decision is not a mistake worth naming
MIN_POINT_COST = 0.5  # Poker: expected points


@dataclass(frozen=True)
class Decision:
    """One choice of the player: ``number`` counts the cards turned so far (1 = the first card)."""

    number: int
    card: str
    played: tuple[str, ...]
    best: tuple[str, ...]
    cost: float  # in the advisor's ranking unit (Sir Tommy score, Poker points)
    played_value: dict
    best_value: dict
    tip: str | None = None  # the tip involved (its name), and the verdict's reason per language
    text: str = ""
    tip_text: str = ""


@dataclass
class Review:
    game: str
    variant: str
    lang: str
    title: str
    decisions: int
    samples: int
    mistakes: list[Decision] = field(default_factory=list)
    solver: dict | None = None
    lines: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "game": self.game, "variant": self.variant, "lang": self.lang, "title": self.title,
            "decisions": self.decisions, "samples": self.samples,
            "mistakes": [m.__dict__ | {"played": list(m.played), "best": list(m.best)} for m in self.mistakes],
            "solver": self.solver, "text": self.lines,
        }


# -- Sir Tommy ---------------------------------------------------------------------------------------------


def _tommy_start(data: dict):
    """The game's first position (the save's rules, bases and start layout, no history)."""
    from assistant.games.tommy import TommyState

    first = dict(data, history=[], order=None, layout=None)
    return TommyState.from_dict(first)


def tommy_decisions(data: dict):
    """Yield ``(number, state before, moves)`` for each placement of a single turned card, with the plays
    up that the player made before turning the next card; ``number`` counts the cards turned."""
    state = _tommy_start(data)
    history = list(data.get("history", []))
    turned = 0
    i = 0
    while i < len(history):
        item = history[i]
        if ">" in item or item.strip().upper() == "R":
            state.apply(item)
            i += 1
            continue
        state.turn(item)
        turned += 1
        i += 1
        if state.rules.turn_count != 1 or i >= len(history) or not history[i].upper().startswith("S"):
            continue
        before = state.clone()
        moves = [history[i]]
        state.apply(history[i])
        i += 1
        while i < len(history) and history[i].upper().startswith("W"):
            state.apply(history[i])
            moves.append(history[i])
            i += 1
        yield turned, before, tuple(moves)


def _end_key(state, moves) -> tuple:
    probe = state.clone()
    for m in moves:
        probe.apply(m)
    same = not state.rules.in_suit and not state.rules.calculation
    found = tuple(sorted(len(p) for p in probe.foundations)) if same else tuple(tuple(p) for p in probe.foundations)
    return tuple(sorted(tuple(p) for p in probe.waste)), found


@contextlib.contextmanager
def _hold_options():
    """Let the advisor list hold-back options everywhere (a player may keep a fitting card; value it too)."""
    from assistant.advisors import tommy_advisor

    old = tommy_advisor.HOLD_OPTIONS
    tommy_advisor.HOLD_OPTIONS = True
    try:
        yield
    finally:
        tommy_advisor.HOLD_OPTIONS = old


def _tommy_value(o) -> dict:
    return {"win": round(o.win_prob, 4), "cards": round(o.expected_foundation, 2), "score": round(o.score, 4)}


def _tip_for(verdicts_played: list[Verdict], raw_best: dict[str, Verdict]) -> Verdict | None:
    """The tip involved: one the played move breaks and the best follows, else any the played move breaks."""
    broken = [v for v in verdicts_played if not v.follows]
    for v in broken:
        b = raw_best.get(v.tip.name)
        if b is not None and b.follows:
            return v
    return broken[0] if broken else None


def review_tommy(data: dict, lang: str, samples: int = TOMMY_SAMPLES, top: int = TOP,
                 solver_nodes: int = SOLVER_NODES) -> Review:
    from assistant.advisors.tommy_advisor import UnsupportedVariant, advise
    from assistant.games.tommy import TommyState

    final = TommyState.from_dict(data["state"])
    rules = final.rules
    if rules.turn_count != 1:
        raise ValueError(f"the review covers one card at a time; {rules.name} turns {rules.turn_count}")
    decisions = list(tommy_decisions(data["state"]))
    found: list[Decision] = []
    for number_, before, moves in decisions:
        rng = np.random.Generator(np.random.PCG64(1_000_003 + number_))
        try:
            advice = advise(before, rng, budget_ms=None, samples=samples)
        except UnsupportedVariant as exc:
            raise ValueError(str(exc)) from None
        target = _end_key(before, moves)
        mine = next((o for o in advice.options if _end_key(before, o.moves) == target), None)
        if mine is None:
            with _hold_options():
                advice = advise(before, np.random.Generator(np.random.PCG64(1_000_003 + number_)),
                                budget_ms=None, samples=samples)
            mine = next((o for o in advice.options if _end_key(before, o.moves) == target), None)
        if mine is None:
            continue
        best = advice.options[0]
        cost = best.score - mine.score
        if cost < MIN_SCORE_COST or _end_key(before, best.moves) == target:
            continue
        played_v = tips_tommy.judge_decision(before, moves)
        tip = _tip_for(played_v, tips_tommy.raw_verdicts(before, best.moves))
        found.append(_tommy_decision(lang, number_, before, moves, best, mine, cost, tip))
    found.sort(key=lambda d: -d.cost)
    r = final.result()
    if r.won:
        result = tr(lang, "review.result.won")
    else:
        key = "review.result.lost" if final.is_terminal() else "review.result.open"
        result = tr(lang, key, n=r.foundation_cards, total=r.cards_in_play)
    title = tr(lang, "review.title.tommy", variant=rules.name, result=result)
    review = Review("tommy", rules.name, lang, title, len(decisions), samples, found[:top])
    review.solver = _tommy_solver(data["state"], final, decisions, solver_nodes, lang)
    review.lines = _lines(review, lang, percent(lang, MIN_SCORE_COST))
    return review


def _tip_text(lang: str, tip: Verdict | None, scoring: str = "american") -> str:
    """The tip in the rules' words, why it applies here, and what it is worth where that was measured."""
    if tip is None:
        return ""
    text = tr(lang, "review.tip", tip=tip.tip.text(lang), why=tip.reason(lang))
    value = tip_value_text(lang, tip.tip, scoring)
    return f"{text} {value}" if value else text


def _tommy_decision(lang, number_, before, moves, best, mine, cost, tip) -> Decision:
    played_text = tommy_move_text(lang, before, moves)
    best_text = tommy_move_text(lang, before, best.moves)
    text = tommy_cost_text(lang, played_text, best_text, best.win_prob, mine.win_prob, best.expected_foundation,
                           mine.expected_foundation)
    tip_text = _tip_text(lang, tip)
    return Decision(number_, card_text(lang, before.hand[0]), tuple(str(m) for m in moves),
                    tuple(str(m) for m in best.moves), round(cost, 4), _tommy_value(mine), _tommy_value(best),
                    tip.tip.name if tip else None, text, tip_text)


def _tommy_solver(data: dict, final, decisions, nodes: int, lang: str) -> dict | None:
    """Was the deal winnable with the order known, how, and until when in the player's own game?"""
    from assistant.advisors.tommy_advisor import UnsupportedVariant
    from assistant.advisors.tommy_solver import solve
    from assistant.cards import Card

    rules = final.rules
    turned = [Card.parse(h) for h in data.get("history", []) if ">" not in h and h.strip().upper() != "R"]
    start = _tommy_start(data)
    if rules.redeals or final.stock_count or len(turned) != start.stock_count:
        return {"status": "unknown", "text": tr(lang, "review.unknown-order")}
    try:
        result = solve(start, turned, nodes)
    except (UnsupportedVariant, ValueError):
        return {"status": "unknown", "text": tr(lang, "review.unknown-order")}
    out: dict = {"status": result.status, "nodes": nodes}
    if result.status == "won":
        line = " ".join(str(m) for m in result.moves[:12]) + (" ..." if len(result.moves) > 12 else "")
        out["moves"] = [str(m) for m in result.moves]
        out["text"] = tr(lang, "review.winnable.won", n=len(result.moves), line=line)
        if not final.is_won():
            out["until"] = _winnable_until(data, decisions, turned, nodes, lang)
    elif result.status == "lost":
        out["text"] = tr(lang, "review.winnable.lost")
    else:
        out["text"] = tr(lang, "review.winnable.undecided")
    return out


def _winnable_until(data, decisions, turned, nodes, lang) -> dict | None:
    """The player's own line: the last decision after which the rest could still be won with the order known.

    Winnability along one line only ever goes from yes to no, so a binary search over the decisions needs about
    six solver runs; "won" is a proof, anything else (lost, or undecided within ``nodes``) counts as no."""
    from assistant.advisors.tommy_solver import solve

    def after(i):
        number_, before, moves = decisions[i]
        state = before.clone()
        for m in moves:
            state.apply(m)
        return state

    def status(i) -> str:
        state = after(i)
        if state.is_won():
            return "won"
        return solve(state, turned[decisions[i][0]:], nodes).status

    if not decisions:
        return None
    last = len(decisions) - 1
    if status(last) == "won":
        return None  # the player's game was won (or could still be won at the end)
    lo, hi, hi_status = -1, last, "lost" if after(last).is_terminal() else "undecided"  # -1: the start (solved)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        st = status(mid)
        if st == "won":
            lo = mid
        else:
            hi, hi_status = mid, st
    k2, before, moves = decisions[hi]
    played = tommy_move_text(lang, before, moves)
    if lo < 0:
        key = "review.winnable.first" if hi_status == "lost" else "review.winnable.first-open"
        return {"after_card": 0, "decision_card": k2, "status": hi_status, "text": tr(lang, key, k2=k2, played=played)}
    k, prev, _ = decisions[lo]
    key = "review.winnable.until" if hi_status == "lost" else "review.winnable.until-open"
    return {"after_card": k, "decision_card": k2, "status": hi_status,
            "text": tr(lang, key, k=k, card=card_text(lang, prev.hand[0]), k2=k2, played=played)}


def tommy_cost_text(lang, played_text, best_text, best_win, win, best_cards, cards) -> str:
    """The cost in win chance, with the cards on the foundations when they fall too, or in cards alone."""
    if best_win - win >= 0.001:
        key = "cost.tommy" if best_cards - cards >= 0.05 else "cost.tommy-win"
        return tr(lang, key, played=played_text, best=best_text, cost=number(lang, 100 * (best_win - win)),
                  played_p=percent(lang, win), best_p=percent(lang, best_win), cards=number(lang, best_cards - cards))
    return tr(lang, "cost.tommy-cards", played=played_text, best=best_text, cost=number(lang, best_cards - cards),
              played_c=number(lang, cards), best_c=number(lang, best_cards))


# -- Poker -------------------------------------------------------------------------------------------------


def poker_decisions(data: dict):
    """Yield ``(number, state before, placement)`` for each card placed, in order."""
    from assistant.games.poker import Placement, PokerState

    state = PokerState(PokerState.from_dict(data).rules)
    for k, (card, cell) in enumerate(data.get("placements", []), start=1):
        state.turn(card)
        before = state.clone()
        state.place(Placement.parse(cell))
        yield k, before, Placement.parse(cell)


def review_poker(data: dict, lang: str, samples: int = POKER_SAMPLES, top: int = TOP) -> Review:
    from assistant.advisors.poker_advisor import advise
    from assistant.games.poker import PokerState

    final = PokerState.from_dict(data["state"])
    if final.rules.shuffle:
        raise ValueError("the review does not cover Poker Shuffle (all 25 cards are open: no hidden choice to value)")
    decisions = list(poker_decisions(data["state"]))
    found: list[Decision] = []
    for number_, before, placement in decisions:
        if len(before.legal_cells()) < 2:
            continue
        rng = np.random.Generator(np.random.PCG64(2_000_003 + number_))
        advice = advise(before, rng, samples=samples)
        best = advice.best
        mine = advice.option(placement)
        cost = best.expected - mine.expected
        if cost < MIN_POINT_COST or best.placement == placement:
            continue
        tip = _tip_for(tips_poker.judge_placement(before, placement), tips_poker.raw_verdicts(before, best.placement))
        text = tr(lang, "cost.poker", played=poker_move_text(lang, before, placement),
                  best=poker_move_text(lang, before, best.placement), cost=number(lang, cost),
                  played_x=number(lang, mine.expected), best_x=number(lang, best.expected))
        tip_text = _tip_text(lang, tip, before.rules.scoring.value)
        found.append(Decision(number_, card_text(lang, before.current), (str(placement),), (str(best.placement),),
                              round(cost, 2), {"points": round(mine.expected, 2)}, {"points": round(best.expected, 2)},
                              tip.tip.name if tip else None, text, tip_text))
    found.sort(key=lambda d: -d.cost)
    score = final.score().total
    rules = final.rules
    variant = rules.name or rules.scoring.value  # the variant's id, as the player names it with --variant
    title = tr(lang, "review.title.poker", variant=variant, score=score)
    review = Review("poker", variant, lang, title, len(decisions), samples, found[:top])
    if final.is_terminal():
        review.solver = _poker_arrangement(final, score, lang)
    review.lines = _lines(review, lang, tr(lang, "value.points", x=number(lang, MIN_POINT_COST)))
    return review


def _poker_arrangement(final, score: int, lang: str) -> dict:
    """The ceiling of the deal: the 25 cards arranged with all of them known (the Poker Shuffle solver, a fixed
    number of seeded annealing runs)."""
    from assistant.advisors.shuffle_solver import solve

    cards = [c for c in final.cells if c is not None]
    result = solve(cards, final.rules.scoring, np.random.Generator(np.random.PCG64(3_000_017)),
                   restarts=ARRANGEMENT_RESTARTS)
    return {"status": "arranged", "score": int(result.score), "restarts": ARRANGEMENT_RESTARTS,
            "text": tr(lang, "review.poker.arrangement", best=result.score, score=score)}


# -- both --------------------------------------------------------------------------------------------------


def _lines(review: Review, lang: str, threshold: str) -> list[str]:
    """The review as text lines; ``threshold``: the least cost reported, in the game's measure."""
    lines = [review.title, tr(lang, "review.decisions", n=review.decisions, k=review.samples)]
    if review.mistakes:
        lines.append(tr(lang, "review.costliest"))
        for i, m in enumerate(review.mistakes, start=1):
            lines.append(tr(lang, "review.mistake", i=i, k=m.number, card=m.card, cost=m.text))
            if m.tip_text:
                lines.append("   " + m.tip_text)
    else:
        lines.append(tr(lang, "review.none", threshold=threshold))
    if review.solver:
        lines.append(review.solver["text"])  # Sir Tommy: the solver; Poker: the best arrangement
        until = review.solver.get("until")
        if until:
            lines.append(until["text"])
    return lines


def review_save(data: dict, lang: str, samples: int | None = None, top: int = TOP,
                solver_nodes: int = SOLVER_NODES) -> Review:
    """Review a save (``{"format", "game", "state", "meta"}`` as ``assistant.saves.read_save`` returns it)."""
    from assistant.games.kinds import game_kind

    return game_kind(data["game"]).review(data, lang, samples, top, solver_nodes)

"""The coach: with every hint, the tips behind it; after every move that differs from the hint, its cost.

``coach_notes(session, hint, lang)`` names the tips the recommended move follows and one a tempting alternative
(the best other placement the advisor ranked) would break; where the recommended move itself breaks a tip, it
says why with the advisor's numbers (win chance for Sir Tommy, expected points for Poker) of the best option that
follows the tip. ``move_cost(session, hint, played, lang)`` says what a different move cost, from the same hint.
Both read only the hint and the position: no simulation of their own, so they cost nothing on top of the hint.
Each game's own part (``tommy_notes`` / ``poker_notes``, ``tommy_move_cost`` / ``poker_move_cost``) is reached
through the game's kind (``assistant.games.kinds``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from assistant.coach import tips_poker, tips_tommy
from assistant.coach.i18n import card_text, check_lang, number, percent, tr
from assistant.coach.tips import Pile, Verdict, localize
from assistant.games.kinds import GAME_KINDS

MAX_FOLLOWS = 1
MAX_ALT = 1
MAX_BREAKS = 1
MIN_WIN_COST = 0.001  # below this difference in win chance (and in cards) a different move costs nothing worth saying
MIN_CARD_COST = 0.05
MIN_POINT_COST = 0.05


@dataclass(frozen=True)
class OptionValue:
    """An option's numbers read from a hint: win chance (0-1) and cards up (Sir Tommy), or expected points."""

    win: float | None = None
    cards: float | None = None
    points: float | None = None


def _float(text) -> float | None:
    if text is None:
        return None
    try:
        return float(str(text).replace("%", "").replace(",", ".").strip())
    except ValueError:
        return None


def option_value(hint, option) -> OptionValue:
    """The numbers of ``option`` by the hint's column names ("win chance", "cards up", "expected score")."""
    for attr in ("win_prob", "expected_foundation", "expected"):
        if hasattr(option, attr):  # hints that carry the advisor's numbers
            return OptionValue(getattr(option, "win_prob", None), getattr(option, "expected_foundation", None),
                               getattr(option, "expected", None))
    values = dict(zip(hint.columns, option.values))
    win = _float(values.get("win chance"))
    return OptionValue(None if win is None else win / 100.0, _float(values.get("cards up")),
                       _float(values.get("expected score")))


def option_moves(option) -> tuple[str, ...]:
    moves = getattr(option, "moves", None)
    if moves is None:
        moves = (option.move,)
    return tuple(str(m) for m in moves)


def value_text(lang: str, v: OptionValue) -> str:
    if v.win is not None:
        return tr(lang, "value.win", p=percent(lang, v.win))
    return tr(lang, "value.points", x=number(lang, v.points or 0.0))


# -- how moves are named ------------------------------------------------------------------------------------


def tommy_move_text(lang: str, state, moves) -> str:
    """``K♠ auf Abwurfstapel 2 (+1 hoch) (S>W2 W1>F0)``: the placement in words, the plays counted, the notation."""
    moves = tips_tommy.as_moves(moves)
    first = moves[0]
    card = state.hand[first.source_index or 0] if first.source == "S" and state.hand else None
    kind = "waste" if first.target == "W" else "foundation"
    if card is None:
        text = str(first)
    else:
        text = tr(lang, f"move.{kind}", card=card_text(lang, card), pile=localize(lang, Pile(kind, first.target_index)))
    plays = sum(1 for m in moves[1:] if m.target == "F")
    if plays:
        text = tr(lang, "move.plays", move=text, n=plays)
    return tr(lang, "move.coded", move=text, code=" ".join(str(m) for m in moves))


def poker_move_text(lang: str, state, placement) -> str:
    card = state.current
    cell = str(placement).split()[-1]
    return tr(lang, "move.poker", card=card_text(lang, card), cell=cell) if card is not None else cell


# -- notes with a hint --------------------------------------------------------------------------------------


def coach_notes(session, hint, lang: str | None = None) -> list[str]:
    """One or two plain sentences per tip involved in the hint's recommendation (empty when no tip applies,
    or when the hint is not about placing one turned card: endgame lines, four at a time, Poker Shuffle)."""
    if hint is None or not getattr(hint, "options", None):
        return []
    lang = check_lang(lang)
    try:
        return GAME_KINDS[session.game].coach_notes(lang, hint, session.state)
    except ValueError:  # a hint that no longer matches the position: say nothing rather than something wrong
        return []


def tommy_notes(lang: str, hint, state) -> list[str]:
    """Sir Tommy: the tips behind placing the one turned card (none for four at a time or an endgame line)."""
    if len(state.hand) != 1 or not option_moves(hint.options[0])[0].startswith("S"):
        return []
    return _notes(lang, hint, state, tips_tommy.judge_decision, tips_tommy.raw_verdicts,
                  lambda mv: tips_tommy.as_moves(mv), tommy_move_text, _first_of)


def poker_notes(lang: str, hint, state) -> list[str]:
    """Poker: the tips behind placing the card to place (none in Poker Shuffle)."""
    if state.rules.shuffle or state.current is None:
        return []
    return _notes(lang, hint, state, tips_poker.judge_placement, tips_poker.raw_verdicts,
                  lambda mv: mv[-1].split()[-1], poker_move_text, lambda mv: mv[-1])


def _first_of(moves: tuple[str, ...]) -> str:
    return moves[0]


def _notes(lang, hint, state, judge, raw, as_move, move_text, placement_of) -> list[str]:
    opts = list(hint.options)
    best_mv = as_move(option_moves(opts[0]))
    best_text = move_text(lang, state, best_mv)
    mine = judge(state, best_mv)
    notes: list[str] = []
    follows = sorted((v for v in mine if v.follows), key=lambda v: v.why.endswith(".clean"))  # "stays clean" last
    breaks = [v for v in mine if not v.follows]
    # the tempting alternative: the best-ranked option that places the card elsewhere
    best_place = placement_of(option_moves(opts[0]))
    alt = next((o for o in opts[1:] if placement_of(option_moves(o)) != best_place), None)
    alt_breaks: list[Verdict] = []
    if alt is not None:
        alt_mv = as_move(option_moves(alt))
        broken_by_best = {v.tip.name for v in breaks}
        alt_breaks = [v for v in judge(state, alt_mv) if not v.follows and v.tip.name not in broken_by_best]
    # prefer a tip that the recommendation follows and the alternative breaks: the two sentences then explain
    # the choice between them
    followed = {v.tip.name for v in follows}
    pair = next((v for v in alt_breaks if v.tip.name in followed), None)
    if pair is not None:
        follows.sort(key=lambda v: v.tip.name != pair.tip.name)
        alt_breaks.sort(key=lambda v: v is not pair)
    for v in follows[:MAX_FOLLOWS]:
        notes.append(tr(lang, "coach.follows", move=best_text, tip=v.tip.title(lang), why=v.reason(lang)))
    for v in alt_breaks[:MAX_ALT]:
        notes.append(tr(lang, "coach.alt-breaks", alt=move_text(lang, state, as_move(option_moves(alt))),
                        tip=v.tip.title(lang), why=v.reason(lang)))
    for v in breaks[:MAX_BREAKS]:
        notes.append(_why_break(lang, hint, state, v, opts, best_text, raw, as_move, move_text))
    return notes


def _why_break(lang, hint, state, v: Verdict, opts, best_text, raw, as_move, move_text) -> str:
    """The recommendation breaks a tip: compare with the best-ranked option that follows it."""
    for o in opts[1:]:
        mv = as_move(option_moves(o))
        other = raw(state, mv).get(v.tip.name)
        if other is not None and other.follows:
            return tr(lang, "coach.best-breaks", move=best_text, tip=v.tip.title(lang), why=v.reason(lang),
                      value=value_text(lang, option_value(hint, opts[0])),
                      alt_value=value_text(lang, option_value(hint, o)), alt=move_text(lang, state, mv))
    return tr(lang, "coach.best-breaks-plain", move=best_text, tip=v.tip.title(lang), why=v.reason(lang))


# -- the cost of a move that differs from the hint ----------------------------------------------------------


def move_cost(session_before, hint, played_move, lang: str | None = None) -> str | None:
    """What ``played_move`` cost against the hint's best option, or None when it is the hint's move (or as good).

    ``session_before``: the session *before* the move was applied, or anything with its ``game`` and ``state`` (the
    state still holds the turned card);
    ``played_move``: Sir Tommy ``"S>W2"`` (or the whole decision ``"S>W2 W1>F0"``, a Move, a tuple of Moves),
    Poker ``"r1c3"`` or a Placement."""
    if hint is None or not getattr(hint, "options", None):
        return None
    lang = check_lang(lang)
    return GAME_KINDS[session_before.game].move_cost(lang, hint, session_before.state, played_move)


def tommy_move_cost(lang: str, hint, state, played_move) -> str | None:
    """Sir Tommy: the played decision against the hint's best, in win chance (and cards up)."""
    opts = list(hint.options)
    best = opts[0]
    try:
        played = tuple(str(m) for m in tips_tommy.as_moves(played_move))
    except ValueError:
        return None
    exact = next((o for o in opts if option_moves(o) == played), None)
    same_place = [o for o in opts if option_moves(o)[0] == played[0]]
    mine = exact or (same_place[0] if same_place else None)
    if mine is None or mine is best:
        return None
    b, p = option_value(hint, best), option_value(hint, mine)
    if b.win is None or p.win is None:
        return None
    best_text = tommy_move_text(lang, state, option_moves(best))
    played_text = tommy_move_text(lang, state, option_moves(mine) if exact is None else played)
    if b.win - p.win >= MIN_WIN_COST or (b.cards is not None and p.cards is not None
                                         and b.cards - p.cards >= MIN_CARD_COST):
        from assistant.coach.review import tommy_cost_text

        return tommy_cost_text(lang, played_text, best_text, b.win, p.win, b.cards or 0.0, p.cards or 0.0)
    return None


def poker_move_cost(lang: str, hint, state, played_move) -> str | None:
    """Poker: the played cell against the hint's best, in expected points."""
    opts = list(hint.options)
    best = opts[0]
    cell = str(played_move).split()[-1].lower()
    mine = next((o for o in opts if option_moves(o)[-1].split()[-1].lower() == cell), None)
    if mine is None or mine is best:
        return None
    b, p = option_value(hint, best), option_value(hint, mine)
    if b.points is None or p.points is None or b.points - p.points < MIN_POINT_COST:
        return None
    return tr(lang, "cost.poker", played=poker_move_text(lang, state, cell),
              best=poker_move_text(lang, state, option_moves(best)[-1]), cost=number(lang, b.points - p.points),
              played_x=number(lang, p.points), best_x=number(lang, b.points))


# -- what a tip is worth (patience bench tips --save) -------------------------------------------------------

TIP_VALUES = Path(__file__).with_name("tip_values.json")


@lru_cache(maxsize=1)
def _tip_values() -> dict:
    try:
        return json.loads(TIP_VALUES.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def tip_value_text(lang: str, tip, scoring: str = "american") -> str:
    """What the benchmark measured for ``tip`` ("" when not measured). Sir Tommy: with the advisor's simple rule
    breaking the tips' ties where measured (the tips alone, ties at random, win almost nothing), else alone."""
    values = _tip_values()
    kind = GAME_KINDS[tip.game]
    keys = kind.tip_value_keys(scoring)
    key = next((k for k in keys if k in values), keys[-1])
    entry = values.get(key, {})
    mine = entry.get("tips", {}).get(tip.name, {})
    if not {"alone", "without"} <= set(mine) or "all" not in entry:
        return ""
    fmt = lambda x: kind.measure_text(lang, x)  # noqa: E731
    message = {"tommy_rule": "coach.tip-value.tommy-rule", "tommy": "coach.tip-value.tommy"}.get(key, "coach.tip-value.poker")
    return tr(lang, message, deals=entry.get("deals", 0), alone=fmt(mine["alone"]), all=fmt(entry["all"]),
              without=fmt(mine["without"]), none=fmt(entry.get("none", 0.0)))

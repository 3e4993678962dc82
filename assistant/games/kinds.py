"""The two games behind one interface, so the session, the panel, the contest and the camera path never branch
on a name.

``GAME_KINDS["tommy"]`` and ``GAME_KINDS["poker"]`` make states, read moves, apply them and describe results, and
hold everything else that differs between the games, so each game's specifics are in its class here, in the same
order in both: help lines; states and moves; the panel; records, statistics and the warm-up; the coach; game
videos; contests. Longer parts (rendering, the coach's judgement, the review) stay in their own modules and are
reached through the kind's methods. The rules themselves stay in the engines (``tommy.py``, ``poker.py``).
Callers ask ``session.kind`` (or ``GAME_KINDS[game]`` for a name read from a file) instead of comparing names.
"""

from __future__ import annotations

from assistant.cards import Card, CardError
from assistant.deals import deal_order
from assistant.games.poker import Placement, PokerRules, PokerState
from assistant.games.tommy import Move, MoveParseError, TommyRules, TommyState, compare_results


class TommyKind:
    """Sir Tommy: moves are ``Move`` values (``S>W2``, ``W1>F0``, ``R``)."""

    name = "tommy"
    title = "Sir Tommy"
    move_help = "S>W2 puts the turned card on waste pile 2, W1>F0 plays a waste top up (w2 / f0 for the turned card)"
    #: The moves named when typed input is not understood (assistant.help_texts).
    move_examples = "w2 / f0 / W1>F0"

    def play_help(self, shuffle: bool = False) -> str:
        """The play prompt's help line: piles and foundations, no cells."""
        return ("type the card you turned (Qh, 10s, T♣) - then where it goes: w2 (waste pile 2) or f0 (foundation 0), "
                "piles and foundations 0-3; W1>F0 plays the top of waste pile 1 up")

    def is_shuffle(self, state: TommyState) -> bool:
        """Poker Shuffle only: every card open from the start."""
        return False

    def new_state(self, variant: str | None, seed: int | None) -> tuple[TommyState, str]:
        rules = TommyRules.preset(variant or "standard")
        return TommyState(rules, order=deal_order(seed) if seed is not None else None), rules.name

    def load_state(self, data: dict) -> TommyState:
        return TommyState.from_dict(data)

    def parse_move(self, text: str, state: TommyState) -> Move:
        return Move.parse(expand_tommy_shorthand(text, state))

    def apply(self, state: TommyState, move: Move, card: Card | None = None) -> str:
        state.apply(move)
        return str(move)

    def hand(self, state: TommyState) -> tuple[Card, ...]:
        return tuple(state.hand)

    def called_card(self, state: TommyState, seed: int | None) -> Card | None:
        if seed is None or not state.needs_card():
            return None
        outcomes = state.chance_outcomes()
        return outcomes[0] if len(outcomes) == 1 else None

    def caller_turn(self, state: TommyState, seed: int | None) -> Card:
        if seed is None:
            raise CardError("type the card you turned")
        return state.turn_next()

    def result_line(self, state: TommyState, variant: str) -> str:
        r = state.result()
        verdict = "won" if r.won else ("lost" if state.is_terminal() else "in progress")
        return f"Sir Tommy ({variant}): {verdict}, {r.foundation_cards} of {r.cards_in_play} cards on the foundations"

    def result_json(self, state: TommyState) -> dict:
        r = state.result()
        return {"won": bool(r.won), "foundation_cards": int(r.foundation_cards)}

    def last_turn(self, state: TommyState) -> tuple[Card, list] | None:
        """The last card turned and the moves made after it (None before the first turn)."""
        history = list(state.history)
        k = max((i for i, h in enumerate(history) if isinstance(h, Card)), default=None)
        return None if k is None else (history[k], history[k + 1:])

    def moved_card(self, state: TommyState, move: Move) -> Card | None:
        """The card ``move`` would move in ``state`` (None for a redeal)."""
        if move.source == "S":
            return state.hand[move.source_index or 0] if state.hand else None
        if move.source == "W":
            pile = state.waste[move.source_index]
            return pile[-1] if pile else None
        return None

    # -- the panel (assistant.panel) -----------------------------------------------------------------------------
    def describe(self, state: TommyState, variant: str) -> str:
        """The rules in a panel's title."""
        return variant

    def layout(self, state: TommyState, hint=None):
        """The position as a rich renderable (foundations, then the waste piles)."""
        from assistant.panel.tommy_view import tommy_layout

        return tommy_layout(state)

    def seat_layout(self, state: TommyState):
        """A contest player's position."""
        from assistant.panel.tommy_view import tommy_layout

        return tommy_layout(state)

    # -- records, statistics and the warm-up (assistant.records, patience stats, assistant.warmup) -----------------
    def record_fields(self, session) -> dict:
        """What ``records.record_game`` keeps of a finished game: the variant, won, the cards on the foundations."""
        r = session.state.result()
        return {"variant": session.variant, "won": r.won, "foundation_cards": r.foundation_cards,
                "cards_in_play": r.cards_in_play}

    def record_summary(self, rows) -> dict:
        """Figures of a group of recorded games: the win rate over the last 50 and 100 deals (002/003: "Spelers
        houden soms het winstpercentage bij over 50 tot 100 giften") and the mean cards on the foundations."""
        from assistant.records import last_rate

        won = [r.won for r in rows]
        out = {}
        for n in (50, 100):
            w, k = last_rate(won, n)
            out[f"last_{n}"] = {"wins": w, "games": k, "rate": w / k}
        out["mean_foundation_cards"] = sum(r.foundation_cards or 0 for r in rows) / len(rows)
        return out

    def summary_lines(self, lang: str, g: dict) -> list[str]:
        """``record_summary``'s figures as text lines."""
        from assistant.coach.i18n import number, percent, tr

        lines = []
        for n in (50, 100):
            x = g[f"last_{n}"]
            lines.append(tr(lang, "stats.last", n=n, rate=percent(lang, x["rate"]), wins=x["wins"], games=x["games"]))
        lines.append(tr(lang, "stats.foundation", x=number(lang, g["mean_foundation_cards"])))
        return lines

    def plot_history(self, ax, rows, lang: str) -> None:
        """The win rate over the last 50 deals, game by game, on a matplotlib axis."""
        from assistant.coach.i18n import tr
        from assistant.records import rolling_rate

        ax.plot(range(1, len(rows) + 1), [100 * x for x in rolling_rate([r.won for r in rows], 50)])
        ax.set_ylabel(tr(lang, "stats.plot.winrate") + " (%)")
        ax.set_title(tr(lang, "game.tommy"))

    def warmup_stages(self, state: TommyState) -> tuple[str, ...]:
        """The advisor's stages a hint needs: the rollouts, and near the end (few unseen cards, or the stock used
        up) the solver too."""
        try:
            near_end = len(state.unseen()) <= 12
        except (AttributeError, TypeError):
            near_end = True
        return ("tommy", "tommy-endgame") if near_end else ("tommy",)

    # -- the coach (assistant.coach) ------------------------------------------------------------------------------
    def coach_notes(self, lang: str, hint, state: TommyState) -> list[str]:
        """The tips behind the hint's move (``coach.coach_notes``)."""
        from assistant.coach.coach import tommy_notes

        return tommy_notes(lang, hint, state)

    def move_cost(self, lang: str, hint, state: TommyState, played) -> str | None:
        """What a move other than the hint's cost, in win chance (``coach.move_cost``)."""
        from assistant.coach.coach import tommy_move_cost

        return tommy_move_cost(lang, hint, state, played)

    def review(self, data: dict, lang: str, samples: int | None, top: int, solver_nodes: int):
        """A saved game, decision by decision, and whether the deal was winnable (``coach.review.review_save``)."""
        from assistant.coach.review import TOMMY_SAMPLES, review_tommy

        return review_tommy(data, lang, samples or TOMMY_SAMPLES, top, solver_nodes)

    def tip_value_keys(self, scoring: str) -> tuple[str, ...]:
        """The tips' measured values in ``coach/tip_values.json``: with the advisor's rule breaking ties where
        measured, else the tips alone."""
        return ("tommy_rule", "tommy")

    def measure_text(self, lang: str, x: float) -> str:
        """A measured value: a win rate."""
        from assistant.coach.i18n import percent

        return percent(lang, x)

    # -- game videos (patience dataset video) ---------------------------------------------------------------------
    #: The cards' height in the frame (fraction of its height); None: the renderer's default.
    video_card_height = None

    def video_script(self, seed: int, variant: str | None, *, turns: int | None = None, cards: int = 25) -> dict:
        """A seeded game by a fallible player, for ``vision.training.game_video``: stopped after ``turns`` turned
        cards (None: the whole game)."""
        from assistant.benchmarks.video_games import play_tommy

        return play_tommy(seed, turns, variant or "standard")

    # -- contests (assistant.contest) -----------------------------------------------------------------------------
    #: A turn is placing the called card(s), then playing waste tops up as the player likes, ended by "done" (002).
    caller_waits = False
    #: After the last call each player plays the game out on their own stock (redeals differ), and may stop.
    plays_out = True
    #: Moves name piles, never the card to place.
    move_names_card = False
    #: The variant changes what the caller calls (the bases set out before play are not called).
    variant_sets_out = True
    #: How a contest player places the called card.
    place_help = "w0-w3 or f0-f3"

    def caller_order(self, seed: int, variant: str | None = None) -> tuple[list[Card], list[Card]]:
        """(cards set out before play, the cards the caller calls, in order): the same for every player."""
        order = deal_order(seed)
        rules = TommyRules.preset(variant or "standard")
        bases = list(TommyState(rules, order=order).bases)
        in_play = set(rules.deck()) - set(bases)
        return bases, [c for c in order if c in in_play]

    def cards_per_call(self, state: TommyState, to_call: int) -> int:
        """One card (four at a time: four)."""
        return state.rules.turn_count

    def turned_cards(self, state: TommyState) -> list[Card]:
        return [x for x in state.history if isinstance(x, Card)]

    def actions_since_call(self, state: TommyState, called: int, call_start: int) -> int:
        """The player's own actions after the ``called``-th card was turned (turns are in the history)."""
        turns = [i for i, x in enumerate(state.history) if isinstance(x, Card)]
        return len(state.history) - turns[called - 1] - 1

    def contest_play(self, session, move: str, card=None) -> str:
        if card is not None:
            from assistant.contest import ContestError  # (assistant.contest imports this module)

            raise ContestError("in Sir Tommy a move names piles, not cards: S>W2, W1>F0")
        return session.play(move)

    def contest_prompt(self, name: str, state: TommyState, all_called: bool) -> str:
        hand = " ".join(str(c) for c in state.hand)
        if len(state.hand) > 1:
            return f"{name}, place {hand} (S0>W2 puts the first of them on waste pile 2, S1>F0 ...)> "
        if hand:
            return f"{name}, place {hand} (w0-w3 or f0-f3)> "
        if all_called:
            if state.needs_card():
                known = len(state.chance_outcomes()) == 1
                return f"{name}, {'Enter to turn' if known else 'type'} your next card (or a move, done)> "
            return f"{name}, play up (W1>F0) or Enter to end your game> "
        return f"{name}, play up (W1>F0) or Enter when done> "

    def contest_result(self, state: TommyState) -> str:
        r = state.result()
        return f"{'won, ' if r.won else ''}{r.foundation_cards} of {r.cards_in_play} cards on the foundations"

    def compare(self, a: TommyState, b: TommyState) -> int:
        """002: a win beats a loss, else more foundation cards (+1: ``a`` is better, 0: a tie)."""
        return compare_results(a, b)

    def standing(self, state: TommyState) -> tuple[bool, int, int | None]:
        """(won, points, out of) for the ranking: the cards on the foundations, of the cards in play."""
        r = state.result()
        return r.won, r.foundation_cards, r.cards_in_play

    def standing_fields(self, points: int, out_of: int | None) -> dict:
        return {"foundation_cards": points, "cards_in_play": out_of}

    def result_columns(self, state: TommyState) -> tuple[str, str]:
        """The ranking table's points and win columns."""
        return f"on foundations (of {state.rules.cards_in_play})", "won"


class PokerKind:
    """Poker Patience: moves are ``Placement`` values (``r1c3``); Poker Shuffle names the open card too."""

    name = "poker"
    title = "Poker Patience"
    move_help = "r1c3 (or 13) puts the card in row 1, column 3"
    move_examples = "r1c3 or 13"

    def play_help(self, shuffle: bool = False) -> str:
        """The play prompt's help line: cells, no piles (Poker Shuffle: name the card too)."""
        if shuffle:
            return "type the 25 cards you laid out (Qh, 10s, T♣) - then place each: Qh r1c3 (card, then its cell)"
        return "type the card you turned (Qh, 10s, T♣) - then its cell: r1c3 (row 1, column 3) or 13"

    def is_shuffle(self, state: PokerState) -> bool:
        return bool(state.rules.shuffle)

    def new_state(self, variant: str | None, seed: int | None) -> tuple[PokerState, str]:
        rules = PokerRules.preset(variant or "american")
        return PokerState(rules), rules.name or (variant or "american")

    def load_state(self, data: dict) -> PokerState:
        return PokerState.from_dict(data)

    def parse_move(self, text: str, state: PokerState) -> tuple[Placement, Card | None]:
        parts = str(text).split()
        if len(parts) == 2 and not parts[0].isdigit():  # Poker Shuffle: "Qh r1c3" names the open card to place
            return parse_cell(parts[1]), Card.parse(parts[0])
        return parse_cell(str(text)), None

    def apply(self, state: PokerState, move: Placement, card: Card | None = None) -> str:
        return str(state.place(move, card))

    def hand(self, state: PokerState) -> tuple[Card, ...]:
        return tuple(state.pending)

    def called_card(self, state: PokerState, seed: int | None) -> Card | None:
        if seed is None or not state.needs_card():
            return None
        return deal_order(seed)[len(state.dealt)]

    def caller_turn(self, state: PokerState, seed: int | None) -> Card:
        card = self.called_card(state, seed)
        if card is None:
            raise CardError("type the card you turned")
        return state.turn(card)

    def result_line(self, state: PokerState, variant: str) -> str:
        score = state.score()
        rules = state.rules
        verdict = "" if not state.is_terminal() else (
            " - won!" if score.total >= rules.win_threshold else f" (a win needs {rules.win_threshold})")
        return f"Poker Patience ({rules.describe()}): {score.total} points{verdict}"

    def result_json(self, state: PokerState) -> dict:
        rows = [[str(c) if c is not None else None for c in row] for row in state.grid]
        return {"rows": rows, "american": state.score("american").total, "english": state.score("english").total}

    def last_turn(self, state: PokerState) -> tuple[Card, list] | None:
        if not state.dealt:
            return None
        card = state.dealt[-1]
        return card, [s.placement for s in state.history if s.card == card]

    def moved_card(self, state: PokerState, move: Placement) -> Card | None:
        return state.current

    # -- the panel (assistant.panel) -----------------------------------------------------------------------------
    def describe(self, state: PokerState, variant: str) -> str:
        return state.rules.describe()

    def layout(self, state: PokerState, hint=None):
        """The square (the hint's cell marked while the game goes on), under the card to place."""
        from assistant.panel.poker_view import poker_panel_layout

        return poker_panel_layout(state, hint)

    def seat_layout(self, state: PokerState):
        """A contest player's square, under the called card(s) still to place."""
        from assistant.panel.poker_view import poker_seat_layout

        return poker_seat_layout(state)

    # -- records, statistics and the warm-up (assistant.records, patience stats, assistant.warmup) -----------------
    def record_fields(self, session) -> dict:
        """The variant as its rules name it, the score, and whether it reached the win mark."""
        state = session.state
        score = state.score()
        threshold = state.rules.win_threshold
        return {"variant": state.rules.name or session.variant, "won": score.total >= threshold,
                "score": score.total, "threshold": threshold}

    def record_summary(self, rows) -> dict:
        """Mean, best and last score, and how often the win mark was reached."""
        scores = [r.score or 0 for r in rows]
        return {"mean_score": sum(scores) / len(scores), "best_score": max(scores), "last_score": scores[-1],
                "threshold": rows[-1].threshold, "reached": sum(r.won for r in rows)}

    def summary_lines(self, lang: str, g: dict) -> list[str]:
        from assistant.coach.i18n import number, percent, tr

        return [tr(lang, "stats.scores", mean=number(lang, g["mean_score"]), best=g["best_score"],
                   last=g["last_score"]),
                tr(lang, "stats.threshold", threshold=g["threshold"], n=g["reached"], games=g["games"],
                   rate=percent(lang, g["win_rate"]))]

    def plot_history(self, ax, rows, lang: str) -> None:
        """The scores, game by game, with the win marks as dashed lines."""
        from assistant.coach.i18n import tr

        ax.plot(range(1, len(rows) + 1), [r.score or 0 for r in rows], marker=".")
        for t in sorted({r.threshold for r in rows if r.threshold}):
            ax.axhline(t, linestyle="--", linewidth=0.8)
        ax.set_ylabel(tr(lang, "stats.plot.score"))
        ax.set_title(tr(lang, "game.poker"))

    def warmup_stages(self, state: PokerState) -> tuple[str, ...]:
        """The advisor's stages a hint needs: Poker Shuffle's annealer, else the Poker advisor."""
        return ("shuffle",) if state.rules.shuffle else ("poker",)

    # -- the coach (assistant.coach) ------------------------------------------------------------------------------
    def coach_notes(self, lang: str, hint, state: PokerState) -> list[str]:
        from assistant.coach.coach import poker_notes

        return poker_notes(lang, hint, state)

    def move_cost(self, lang: str, hint, state: PokerState, played) -> str | None:
        """What a cell other than the hint's cost, in expected points."""
        from assistant.coach.coach import poker_move_cost

        return poker_move_cost(lang, hint, state, played)

    def review(self, data: dict, lang: str, samples: int | None, top: int, solver_nodes: int):
        """A saved game, placement by placement, and the best arrangement of its 25 cards."""
        from assistant.coach.review import POKER_SAMPLES, review_poker

        return review_poker(data, lang, samples or POKER_SAMPLES, top)

    def tip_value_keys(self, scoring: str) -> tuple[str, ...]:
        return (f"poker_{scoring}",)

    def measure_text(self, lang: str, x: float) -> str:
        """A measured value: mean points."""
        from assistant.coach.i18n import number

        return number(lang, x)

    # -- game videos (patience dataset video) ---------------------------------------------------------------------
    #: Smaller cards, so that the whole square fits in the frame.
    video_card_height = (0.13, 0.15)

    def video_script(self, seed: int, variant: str | None, *, turns: int | None = None, cards: int = 25) -> dict:
        """The caller's first ``cards`` cards placed by a fallible player."""
        from assistant.benchmarks.video_games import play_poker

        return play_poker(seed, cards, variant or "american")

    # -- contests (assistant.contest) -----------------------------------------------------------------------------
    #: Placing the called card ends the turn ("Eine gelegte Karte bleibt, wo sie ist"); once everyone has placed,
    #: the caller turns the next card when asked, and until then any placement since the call can be taken back.
    caller_waits = True
    plays_out = False
    #: Poker Shuffle: a move may name which open card to place (``Qh r1c3``).
    move_names_card = True
    #: Every variant calls the same 25 cards.
    variant_sets_out = False
    place_help = "type a cell like r1c3 or 13"

    def caller_order(self, seed: int, variant: str | None = None) -> tuple[list[Card], list[Card]]:
        return [], deal_order(seed)[:25]

    def cards_per_call(self, state: PokerState, to_call: int) -> int:
        """One card (Poker Shuffle: all of them at once)."""
        return to_call if state.rules.shuffle else 1

    def turned_cards(self, state: PokerState) -> list[Card]:
        return list(state.dealt)

    def actions_since_call(self, state: PokerState, called: int, call_start: int) -> int:
        """Placements after the ``call_start`` cards called before the latest call (turns are not in the history)."""
        return len(state.history) - call_start

    def contest_play(self, session, move: str, card=None) -> str:
        state = session.state
        cell = parse_cell(str(move))
        if card is not None and not isinstance(card, Card):
            card = Card.parse(card)
        placed = card if card is not None else state.current
        return f"{placed} to {state.place(cell, card)}"

    def contest_prompt(self, name: str, state: PokerState, all_called: bool) -> str:
        if len(state.pending) > 1:
            return f"{name}, card and cell (Qh r1c3; {len(state.pending)} to place)> "
        return f"{name}, where does {' '.join(str(c) for c in state.pending)} go (r1c3 or 13)> "

    def contest_result(self, state: PokerState) -> str:
        score = state.score()
        return f"{score.total} points" + (" (a win)" if score.total >= state.rules.win_threshold else "")

    def compare(self, a: PokerState, b: PokerState) -> int:
        """004: "Die höchste Summe gewinnt"."""
        ta, tb = a.score().total, b.score().total
        return (ta > tb) - (ta < tb)

    def standing(self, state: PokerState) -> tuple[bool, int, int | None]:
        total = state.score().total
        return total >= state.rules.win_threshold, total, None

    def standing_fields(self, points: int, out_of: int | None) -> dict:
        return {"score": points}

    def result_columns(self, state: PokerState) -> tuple[str, str]:
        return "points", f"win ({state.rules.win_threshold}+)"


GAME_KINDS = {"tommy": TommyKind(), "poker": PokerKind()}


def game_kind(name: str):
    """The kind for ``name``; ValueError listing the choices."""
    try:
        return GAME_KINDS[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}: choose {' or '.join(GAME_KINDS)}") from None


def expand_tommy_shorthand(text: str, state: TommyState) -> str:
    """Let players type ``w2`` / ``f1`` for the single turned card (``S>W2``), and ``2`` for ``S>W2``; a turned
    card by name as the hints write it, ``Qd>W0`` (``S1>W0`` when the Qd is second in the hand)."""
    t = text.strip().upper().replace(" ", "")
    name, _, target = t.partition(">")
    if target:
        try:
            card = Card.parse(name)
        except ValueError:
            card = None
        if card is not None and card in state.hand:
            k = state.hand.index(card)
            return f"S>{target}" if len(state.hand) == 1 else f"S{k}>{target}"
        if card is not None:
            turned = " ".join(str(c) for c in state.hand) or "none"
            raise MoveParseError(f"{card} is not a turned card to place (turned: {turned})")
    if len(state.hand) == 1 and (t[:1] in ("W", "F") and t[1:].isdigit()):
        return f"S>{t}"
    if len(state.hand) == 1 and t.isdigit() and len(t) == 1:
        return f"S>W{t}"
    return t


def parse_cell(text: str) -> Placement:
    """``r1c3``, or two digits ``13`` / ``1 3`` (row, column, 1-based)."""
    t = text.strip().replace(",", " ")
    digits = t.replace(" ", "")
    if digits.isdigit() and len(digits) == 2:
        return Placement(int(digits[0]) - 1, int(digits[1]) - 1)
    return Placement.parse(t)

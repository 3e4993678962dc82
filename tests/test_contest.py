"""Contests, as the rules texts describe them.

002 (Sir Tommy): "Soms gespeeld als wedstrijd tussen twee spelers met identiek geschudde stokken; de eerste die de
gift wint (of de speler met de meeste kaarten op de funderingen wanneer beiden vastlopen) wint de ronde."
004 (Poker Patience): "Mehrere Spieler: Jeder hat ein eigenes Blatt. Einer mischt und sagt jede aufgedeckte Karte
an; die anderen suchen dieselbe Karte aus ihrem Blatt und legen sie in ihr eigenes Quadrat. Die höchste Summe
gewinnt."
"""

from __future__ import annotations

import json

import pytest

from assistant.cards import Card
from assistant.contest import Contest, ContestError, caller_order, rank_by, tommy_ranking
from assistant.deals import deal_order
from assistant.games.tommy import TommyResult, TommyState, compare_results


def roundtrip(contest: Contest) -> Contest:
    return Contest.from_dict(json.loads(json.dumps(contest.to_dict())))


def turned(seat) -> list[str]:
    st = seat.state
    if isinstance(st, TommyState):
        return [str(x) for x in st.history if isinstance(x, Card)]
    return [str(c) for c in st.dealt]


def play_tommy(contest: Contest, style: dict[str, str]) -> Contest:
    """Play every seat to the end: "up" plays every card to a foundation when it fits, "bury" puts every card
    on waste pile 0 and never plays up."""
    while not contest.is_over:
        seat = contest.current
        st = seat.state
        up = style[seat.name] == "up"
        if st.hand:
            fits = [m for m in st.legal_moves() if m.target == "F"]
            contest.play(str(fits[0]) if up and fits else "S>W0")
            continue
        ups = [m for m in st.legal_moves() if m.source == "W" and m.target == "F"]
        if up and ups:
            contest.play(str(ups[0]))
            continue
        contest.done()
    return contest


def play_poker(contest: Contest, cells: dict[str, list[str]]) -> Contest:
    """Each player fills the square in their own cell order."""
    while not contest.is_over:
        seat = contest.current
        if seat is None:
            contest.call_next()  # everyone has placed: the caller turns the next card
            continue
        contest.play(cells[seat.name][seat.state.placed_count])
    return contest


ROW_MAJOR = [f"r{r}c{c}" for r in range(1, 6) for c in range(1, 6)]
COLUMN_MAJOR = [f"r{r}c{c}" for c in range(1, 6) for r in range(1, 6)]


# -- the same shuffle for everyone ------------------------------------------------------------------------------

def test_two_players_on_one_shuffle_see_the_same_cards_in_the_same_order():
    """002: "identiek geschudde stokken": the caller calls the seeded order, and both players get every card."""
    c = play_tommy(Contest.new("tommy", ["Ann", "Bob"], seed=11), {"Ann": "up", "Bob": "bury"})
    order = [str(x) for x in deal_order(11)]
    assert turned(c.seat("Ann")) == turned(c.seat("Bob")) == order
    assert [str(x) for x in c.order] == order


def test_poker_players_place_the_same_called_cards():
    """004: "die anderen suchen dieselbe Karte aus ihrem Blatt": the first 25 cards of the caller's shuffle."""
    c = play_poker(Contest.new("poker", ["Ann", "Bob", "Cy"], seed=5),
                   {"Ann": ROW_MAJOR, "Bob": COLUMN_MAJOR, "Cy": ROW_MAJOR[::-1]})
    called = [str(x) for x in deal_order(5)[:25]]
    assert turned(c.seat("Ann")) == turned(c.seat("Bob")) == turned(c.seat("Cy")) == called
    assert sorted(map(str, c.seat("Ann").state.cells)) == sorted(map(str, c.seat("Bob").state.cells))


def test_cards_set_out_before_play_are_not_called():
    """Aces out first: the four Aces start on the foundations for everyone; the caller calls the other 48."""
    set_out, order = caller_order("tommy", 3, "aces-out-first")
    assert sorted(map(str, set_out)) == ["Ac", "Ad", "Ah", "As"] and len(order) == 48
    c = Contest.new("tommy", ["Ann", "Bob"], seed=3, variant="aces-out-first")
    assert c.last_call() == order[:1] and c.calls_total == 48


def test_the_caller_waits_until_every_player_has_placed_the_card():
    """The next card is called once every player has placed the current one and ended the turn."""
    c = Contest.new("tommy", ["Ann", "Bob"], seed=7)
    first, second = deal_order(7)[:2]
    assert c.last_call() == [first] and c.current.name == "Ann"
    c.play("w0")
    with pytest.raises(ContestError, match="Sir Tommy|caller"):
        c.turn_own()
    c.done()
    assert c.current.name == "Bob" and c.last_call() == [first]  # Ann waits for Bob
    with pytest.raises(ContestError, match="place"):
        c.done()  # Bob has not placed the card yet
    c.play("S>W3")
    c.done()
    assert c.last_call() == [second] and c.current.name == "Ann" and c.call_number == 2
    assert c.seat("Ann").state.hand == [second] == c.seat("Bob").state.hand


def test_a_player_may_play_waste_tops_up_before_ending_the_turn():
    """002: "Na elke plaatsing mag je ook de huidige bovenkant van een aflegstapel naar een fundering spelen"."""
    seed = 225
    assert [c.rank for c in deal_order(seed)[:2]] == [2, 1]  # a 2, then an Ace
    c = Contest.new("tommy", ["Ann", "Bob"], seed=seed)
    for _ in range(2):  # the 2 on a waste pile
        c.play("w0")
        c.done()
    c.play("f0")  # the Ace starts a foundation
    assert c.play("W0>F0") == "W0>F0"  # and the 2 goes up from the waste pile
    assert c.seat("Ann").state.foundation_cards() == 2
    c.done()
    assert c.current.name == "Bob"


def test_four_at_a_time_calls_four_cards_and_poker_shuffle_all_25():
    """000/001 "Vier auf einmal" and 004 "Poker Shuffle: Alle 25 Karten liegen zuerst offen aus"."""
    c = Contest.new("tommy", ["Ann", "Bob"], seed=2, variant="four-at-a-time")
    assert c.last_call() == deal_order(2)[:4] and c.calls_total == 13
    p = Contest.new("poker", ["Ann", "Bob"], seed=2, variant="american-shuffle")
    assert p.last_call() == deal_order(2)[:25] and len(p.seat("Bob").state.pending) == 25
    last = deal_order(2)[24]
    assert p.play("r5c5", card=last) == f"{last} to r5c5"
    assert p.seat("Ann").state.at("r5c5") == last


# -- undo and bad input -------------------------------------------------------------------------------------

def test_undo_takes_back_only_the_current_players_actions_since_the_call():
    c = Contest.new("poker", ["Ann", "Bob"], seed=4)
    with pytest.raises(ContestError, match="nothing of yours to undo"):
        c.undo()  # the called card stays called
    t = Contest.new("tommy", ["Ann", "Bob"], seed=4)
    t.play("w2")
    assert str(t.undo()) == "S>W2"
    assert t.seat("Ann").state.hand == deal_order(4)[:1]
    with pytest.raises(ContestError):
        t.undo()


def test_a_poker_placement_can_be_taken_back_until_the_caller_turns_the_next_card():
    """Issue 11: a typed cell passed the turn at once, and a typo could never be undone."""
    c = Contest.new("poker", ["Ann", "Bob", "Cy"], seed=4)
    c.play("r1c1")  # Ann's typo: she meant r1c2
    assert c.current.name == "Bob"
    assert str(c.undo()) .startswith(f"{deal_order(4)[0]}")  # Bob has placed nothing: Ann's placement is taken back
    assert c.current.name == "Ann" and c.seat("Ann").state.placed_count == 0
    c.play("r1c2")
    c.play("r5c5")
    c.play("r3c3")
    assert c.waiting_for_call and c.current is None and c.called == 1  # the caller waits
    c.undo("Bob")  # any player who placed may still take it back
    assert c.current.name == "Bob" and not c.waiting_for_call
    with pytest.raises(ContestError, match="has not placed"):
        c.call_next()
    c.play("r4c4")
    assert "turns" in c.call_next() and c.called == 2
    assert [s.state.at(p) for s, p in zip(c.seats, ("r1c2", "r4c4", "r3c3"))] == [deal_order(4)[0]] * 3
    with pytest.raises(ContestError, match="nothing of"):
        c.undo("Ann")  # the next card is out: the placements stay
    assert roundtrip(c).to_dict() == c.to_dict()


def test_a_refused_move_changes_nothing():
    c = Contest.new("tommy", ["Ann", "Bob"], seed=9)
    before = c.to_dict()
    for bad in ("W0>F0", "S>W9", "nonsense", "f3" if c.last_call()[0].rank != 1 else "W1>F0"):
        with pytest.raises(ValueError):
            c.play(bad)
        assert c.to_dict() == before
    p = Contest.new("poker", ["Ann", "Bob"], seed=9)
    p.play("r1c1")
    p.play("r1c1")  # Bob's own square
    p.call_next()
    before = p.to_dict()
    for bad in ("r1c1", "r6c1", "99", ""):
        with pytest.raises(ValueError):
            p.play(bad)
        assert p.to_dict() == before


def test_names_must_be_two_or_more_and_distinct():
    for names in (["Ann"], ["Ann", "ann"], ["Ann", ""]):
        with pytest.raises(ValueError):
            Contest.new("tommy", names, seed=1)
    with pytest.raises(ValueError, match="variant"):
        Contest.new("tommy", ["Ann", "Bob"], seed=1, variant="nope")


# -- results ------------------------------------------------------------------------------------------------

def test_more_foundation_cards_win_when_both_are_stuck():
    """002: "de speler met de meeste kaarten op de funderingen wanneer beiden vastlopen"."""
    c = play_tommy(Contest.new("tommy", ["Ann", "Bob"], seed=11), {"Ann": "up", "Bob": "bury"})
    ann, bob = c.seat("Ann").state, c.seat("Bob").state
    assert ann.foundation_cards() > bob.foundation_cards() and not ann.is_won()
    assert compare_results(ann, bob) == 1
    assert c.winners() == ["Ann"]
    assert [(s.place, s.name) for s in c.standings()] == [(1, "Ann"), (2, "Bob")]
    assert c.result()["complete"] and c.result()["standings"][0]["foundation_cards"] == ann.foundation_cards()


def test_a_win_beats_a_loss_and_equal_results_share_a_place():
    """002: "de eerste die de gift wint" - a won game beats any lost one; two wins (or two equal losses) tie:
    players taking turns at one app do not race, so who was first is not known."""
    won, near, far = TommyResult(True, 52), TommyResult(False, 51), TommyResult(False, 20)
    assert tommy_ranking({"Ann": near, "Bob": won}) == [(1, "Bob", won), (2, "Ann", near)]
    ranking = tommy_ranking({"Dan": far, "Cy": won, "Bob": near, "Ann": won, "Eve": TommyResult(False, 20)})
    assert [(p, n) for p, n, _ in ranking] == [(1, "Ann"), (1, "Cy"), (3, "Bob"), (4, "Dan"), (4, "Eve")]


def test_the_tommy_ranking_agrees_with_compare_results_for_two_players():
    for a in (TommyResult(True, 52), TommyResult(False, 30), TommyResult(False, 12)):
        for b in (TommyResult(True, 52), TommyResult(False, 30), TommyResult(False, 12)):
            (pa, _, _), (pb, _, _) = sorted(tommy_ranking({"a": a, "b": b}), key=lambda row: row[1])
            assert (pa < pb) - (pa > pb) == compare_results(a, b)


def test_poker_the_highest_sum_wins_and_ties_share_a_place():
    """004: "Die höchste Summe gewinnt." Equal totals share a place, the next place is skipped (1, 1, 3)."""
    diagonal = [f"r{k % 5 + 1}c{(k + k // 5) % 5 + 1}" for k in range(25)]
    c = play_poker(Contest.new("poker", ["Ann", "Bob", "Cy"], seed=6, variant="english"),
                   {"Ann": ROW_MAJOR, "Bob": ROW_MAJOR, "Cy": diagonal})
    scores = {s.name: s.state.score().total for s in c.seats}
    assert scores == {"Ann": 8, "Bob": 8, "Cy": 3}
    assert [(s.place, s.name, s.points) for s in c.standings()] == [(1, "Ann", 8), (1, "Bob", 8), (3, "Cy", 3)]
    assert c.winners() == ["Ann", "Bob"]
    assert all(s.finished for s in c.seats) and c.current is None
    c = play_poker(Contest.new("poker", ["Ann", "Bob", "Cy"], seed=8, variant="english"),
                   {"Ann": ROW_MAJOR, "Bob": ROW_MAJOR, "Cy": diagonal})
    assert [(s.place, s.name) for s in c.standings()] == [(1, "Cy"), (2, "Ann"), (2, "Bob")]


def test_rank_by_is_standard_competition_ranking():
    cmp = lambda a, b: (a > b) - (a < b)  # noqa: E731
    assert rank_by({"a": 5, "b": 9, "c": 5, "d": 1}, cmp) == [(1, "b", 9), (2, "a", 5), (2, "c", 5), (4, "d", 1)]


# -- after the last call, saves -------------------------------------------------------------------------------

def test_after_the_last_call_each_player_plays_the_game_out_in_turn():
    """002: "Zodra de stok leeg is, blijf je de bovenste kaarten van de aflegstapels naar de funderingen spelen"."""
    c = Contest.new("tommy", ["Ann", "Bob"], seed=11)
    while not c.all_called:
        seat = c.current
        if seat.state.hand:
            c.play("S>W0" if seat.name == "Ann" else f"S>W{c.called % 4}")
        else:
            c.done()
    assert c.current.name == "Ann"
    while c.current is not None and c.current.name == "Ann":
        st = c.current.state
        if st.hand:
            c.play("S>W0")
        else:
            c.done()  # with no card in hand "done" ends Ann's game
    assert c.seat("Ann").finished and not c.seat("Bob").finished and c.current.name == "Bob"


def test_one_redeal_turns_the_players_own_gathered_stock():
    """002 "Sir Tommy met hertrek": after the last call each player gathers their own waste piles."""
    c = Contest.new("tommy", ["Ann", "Bob"], seed=6, variant="one-redeal")
    while not c.all_called:
        c.play("S>W0") if c.current.state.hand else c.done()
    c.play("S>W0")
    c.play("R")
    st = c.current.state
    nxt = st.chance_outcomes()
    assert len(nxt) == 1 and c.turn_own() == nxt[0]  # the gathered order is known: W0 bottom first
    assert str(c.undo()) == str(nxt[0])


def test_a_saved_contest_reads_back_the_same_and_a_tampered_one_is_refused():
    c = Contest.new("tommy", ["Ann", "Bob"], seed=8, variant="four-at-a-time")
    c.play("S>W0"), c.play("S>W1")
    again = roundtrip(c)
    assert again.to_dict() == c.to_dict() and again.current.name == "Ann" and again.current.since_call == 2
    data = c.to_dict()
    data["seed"] = 9
    with pytest.raises(ValueError, match="corrupt contest save"):
        Contest.from_dict(data)
    data = c.to_dict()
    data["players"][0]["since_call"] = 5
    with pytest.raises(ValueError, match="since_call"):
        Contest.from_dict(data)
    data = c.to_dict()
    data["players"][1]["name"] = "ann"
    with pytest.raises(ValueError, match="twice"):
        Contest.from_dict(data)


def test_every_action_is_saved():
    saves = []
    c = Contest.new("poker", ["Ann", "Bob"], seed=1, saver=lambda contest: saves.append(contest.to_dict()))
    c.play("11")
    c.play("22")
    c.call_next()
    assert len(saves) == 4 and saves[-1] == c.to_dict()
    assert roundtrip(c).last_call() == deal_order(1)[1:2]

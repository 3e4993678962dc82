"""A correction holds: a card the reader misnames where it lies is misnamed there frame after frame, so once the
player has said what it is (``r Qh``), the game goes on with it (before, it stalled on "a placed card never
moves" for the rest of the game). Holding the right card up to the camera makes the same correction without a
keyboard, and a correction names the new card the game cannot place before the last card turned."""

from __future__ import annotations

import numpy as np
import pytest

from live_sim import hands_while_it_lies, hold_up, misread_steadily, pause, poker_script, run_script, tommy_script

from assistant.cards import Card
from assistant.deals import deal_order
from assistant.live.corrections import Corrections
from assistant.live.table_view import Sighting, TableView
from assistant.session import Session


def _first(script, kind: str, card: str) -> dict:
    return next(e for e in script.truth if e["event"] == kind and e["card"] == card)


def _events(events, misread: str, card: str):
    """The card and move events, those decided before the player's correction under the name it gave."""
    fixed = min(e["frame"] for e in events if e["event"] == "warning" and "renamed" in e["message"])
    return [(e["event"], card if e["card"] == misread and e["frame"] < fixed else e["card"], e.get("move"))
            for e in events if e["event"] in ("card", "move")]


def test_a_poker_card_misread_where_it_lies_and_corrected_lets_every_later_card_be_placed():
    script, rows = poker_script(0, cards=12)
    order = deal_order(0)
    card, misread = str(order[3]), str(order[40])  # read as a card still in the deck
    laid = _first(script, "move", card)["still_frame"]
    misread_steadily(script, card, misread, laid)
    next_card = [e for e in script.truth if e["event"] == "move"][4]["still_frame"]
    session = Session.new("poker", "american")
    events = run_script(session, script, commands={next_card - 3: f"r {card}"})
    assert _events(events, misread, card) == [(e["event"], e["card"], None) for e in script.truth]
    (result,) = [e for e in events if e["event"] == "result"]
    assert result["rows"] == rows
    assert not any("differs" in e.get("message", "") for e in events)


@pytest.mark.parametrize("seed, index", [(0, 5), (1, 10), (2, 3), (4, 30), (7, 25)])
def test_a_sir_tommy_card_misread_and_corrected_is_followed_to_the_end(seed, index):
    """Among them: the corrected card later played up to a foundation (read there the same wrong way), a card
    corrected after it went up, and the wrong name's own card turned later in the deal (seed 2: 2c read as 2s)."""
    script, final = tommy_script(seed)
    order = deal_order(seed)
    card, misread = str(order[index]), str(order[51])
    turned = _first(script, "card", card)["still_frame"]
    misread_steadily(script, card, misread, turned)
    typed = _first(script, "move", card)["still_frame"] + 8
    session = Session.new("tommy", "standard")
    events = run_script(session, script, commands={typed: f"r {card}"})
    assert session.state.foundations == final.foundations and session.state.waste == final.waste
    assert _events(events, misread, card) == [(e["event"], e["card"], e.get("move")) for e in script.truth]


def _view(*sightings, elsewhere=()) -> TableView:
    return TableView(frame=0, cards={s.card: s for s in sightings}, card_size=140.0, frames=8,
                     elsewhere={s.card: s for s in elsewhere})


def _seen(card: str, x: float, y: float) -> Sighting:
    return Sighting(Card.parse(card), (x, y), (x - 50, y - 70, x + 50, y + 70), 1.0, 0.9, 2, 8)


def test_only_the_misreading_at_the_corrected_cards_spot_is_renamed():
    js, ah = Card.parse("Js"), Card.parse("Ah")
    fixes = Corrections()
    fixes.add(ah, js, (100.0, 100.0))
    in_play = {js}
    view = fixes.apply(_view(_seen("Ah", 104, 98)), in_play, {}, in_play)
    assert list(view.cards) == [js] and view[js].center == (104, 98)
    far = fixes.apply(_view(_seen("Ah", 600, 400), _seen("Js", 104, 98)), in_play, {}, in_play)
    assert set(far.cards) == {js, ah}  # the card reads right now, and a real Ah was laid elsewhere


def test_the_real_card_of_the_wrong_name_keeps_its_name():
    js, ah = Card.parse("Js"), Card.parse("Ah")
    fixes = Corrections()
    fixes.add(ah, js, (100.0, 100.0))
    in_play = {js, ah}  # the real Ah came later and lies at (600, 400)
    view = fixes.apply(_view(_seen("Ah", 600, 400), elsewhere=[_seen("Ah", 101, 100)]), in_play,
                       {ah: np.array([600.0, 400.0])}, in_play)
    assert view[ah].center == (600, 400) and view[js].center == (101, 100) and not view.elsewhere


def test_a_correction_is_forgotten_when_its_card_is_taken_back():
    js, ah = Card.parse("Js"), Card.parse("Ah")
    fixes = Corrections()
    fixes.add(ah, js, (100.0, 100.0))
    view = fixes.apply(_view(_seen("Ah", 100, 100)), set(), {}, set())
    assert list(view.cards) == [ah] and not fixes.items


# -- a card held up to the camera: the same correction without a keyboard ------------------------------------------
def test_a_poker_card_misread_as_one_already_placed_is_named_by_holding_it_up():
    """The new card is read as a card already on the grid (read in two places): the game waits; the player holds
    the card up to the camera and puts it back, and it is placed under the name it showed."""
    script, rows = poker_script(3, cards=10)
    moves = [e for e in script.truth if e["event"] == "move"]
    card, placed = moves[5]["card"], moves[1]["card"]
    misread_steadily(script, card, placed, moves[5]["still_frame"])
    lifted = next(i for i in range(moves[5]["still_frame"], len(script.frames)) if script.frames[i].moving)
    hold_up(script, card, lifted)  # the player sees the game wait, then holds the card up
    session = Session.new("poker", "american")
    events = run_script(session, script)
    assert [e["card"] for e in events if e["event"] == "move"] == [e["card"] for e in moves]
    (result,) = [e for e in events if e["event"] == "result"]
    assert result["rows"] == rows
    assert any(f"{card} held up" in e.get("message", "") for e in events)


def test_a_poker_card_placed_under_a_wrong_name_is_renamed_by_holding_it_up():
    script, rows = poker_script(0, cards=12)
    order = deal_order(0)
    card, misread = str(order[3]), str(order[40])
    misread_steadily(script, card, misread, _first(script, "move", card)["still_frame"])
    hold_up(script, card, [e for e in script.truth if e["event"] == "move"][4]["still_frame"] - 4)
    events = run_script(Session.new("poker", "american"), script)
    assert _events(events, misread, card) == [(e["event"], e["card"], None) for e in script.truth]
    (result,) = [e for e in events if e["event"] == "result"]
    assert result["rows"] == rows


def test_a_sir_tommy_card_misread_is_renamed_by_holding_it_up():
    script, final = tommy_script(1)
    order = deal_order(1)
    card, misread = str(order[10]), str(order[51])
    misread_steadily(script, card, misread, _first(script, "card", card)["still_frame"])
    hold_up(script, card, _first(script, "move", card)["still_frame"] + 8)
    session = Session.new("tommy", "standard")
    events = run_script(session, script)
    assert session.state.foundations == final.foundations and session.state.waste == final.waste
    assert _events(events, misread, card) == [(e["event"], e["card"], e.get("move")) for e in script.truth]


def test_holding_up_a_card_the_game_has_changes_nothing():
    script, rows = poker_script(0, cards=8)
    moves = [e for e in script.truth if e["event"] == "move"]
    hold_up(script, moves[2]["card"], moves[4]["still_frame"] - 4)
    session = Session.new("poker", "american")
    events = run_script(session, script)
    assert [e["card"] for e in events if e["event"] == "move"] == [e["card"] for e in moves]
    assert any("in the game already" in e.get("message", "") for e in events)


def test_a_card_is_shown_once_when_read_large_in_most_of_the_last_frames():
    from assistant.live.held_up import FRAMES, HeldUpCard
    from live_sim import Seen

    held = HeldUpCard()
    big, small = Seen("Qh", 0.9, (0, 0, 300, 420), 2), Seen("Qh", 0.9, (0, 0, 100, 140), 2)
    assert held.update([small], 140.0) == (False, None)  # a card on the table
    got = [held.update([big], 140.0) for _ in range(FRAMES + 3)]
    assert [g[1] for g in got] == [None] * (FRAMES - 1) + [Card.parse("Qh")] + [None] * 3
    assert all(g[0] for g in got)
    for _ in range(3):
        held.update([], 140.0)  # lowered
    assert [held.update([big], 140.0)[1] for _ in range(FRAMES)][-1] == Card.parse("Qh")  # shown again
    assert held.update([big], 0.0) == (False, None)  # no card on the table yet to compare with


@pytest.mark.parametrize("looks", [10, 0])
def test_a_wrong_card_held_up_is_undone_by_holding_up_the_right_one(looks):
    """Also straight after it, before the table was seen again with the wrong correction (looks 0)."""
    script, rows = poker_script(0, cards=8)
    order = deal_order(0)
    moves = [e for e in script.truth if e["event"] == "move"]
    hold_up(script, str(order[40]), moves[4]["still_frame"] - 4, looks=looks)  # a card shown by mistake ...
    hold_up(script, moves[3]["card"], moves[4]["still_frame"] - 4)  # ... then the one the game had
    events = run_script(Session.new("poker", "american"), script)
    (result,) = [e for e in events if e["event"] == "result"]
    assert result["rows"] == rows
    assert [e["card"] for e in events if e["event"] == "move"] == [e["card"] for e in moves]


@pytest.mark.parametrize("seed", [0, 1, 6])
def test_a_card_played_up_under_a_name_the_foundation_refuses_is_named_by_the_correction(seed):
    """A 2 laid on its Ace but read as a card the foundation does not take is never applied (seeds 0 and 6: the
    game waits for it) or is turned and kept in hand (seed 1); either way ``r`` names that card."""
    script, final = tommy_script(seed)
    order = deal_order(seed)
    up = next(e for e in script.truth
              if e["event"] == "move" and e["move"].startswith("S>F") and not e["card"].startswith("A"))
    card, misread = up["card"], str(order[51])
    misread_steadily(script, card, misread, _first(script, "card", card)["still_frame"])
    looked = next(i for i in range(up["still_frame"], len(script.frames)) if script.frames[i].moving)
    pause(script, looked)
    session = Session.new("tommy", "standard")
    run_script(session, script, commands={looked + 15: f"r {card}"})
    assert session.state.foundations == final.foundations and session.state.waste == final.waste


def _laid_on_a_new_waste_pile_before_an_ace(script, order: list[str]) -> tuple[dict, str]:
    """The first card (not an Ace) laid on an empty waste pile while an Ace is still to come, and that Ace."""
    piles = set()
    for e in script.truth:
        if e["event"] == "move" and e["move"].startswith("S>W") and e["move"] not in piles:
            piles.add(e["move"])
            aces = [c for c in order[order.index(e["card"]) + 1:] if c.startswith("A")]
            if aces and not e["card"].startswith("A"):
                return e, aces[-1]
    raise AssertionError("no such card")


def _correct_after_it_is_laid(script, laid: dict, misread: str) -> Session:
    card = laid["card"]
    misread_steadily(script, card, misread, _first(script, "card", card)["still_frame"])
    looked = next(i for i in range(laid["still_frame"], len(script.frames)) if script.frames[i].moving)
    pause(script, looked)
    session = Session.new("tommy", "standard")
    run_script(session, script, commands={looked + 15: f"r {card}"})
    return session


@pytest.mark.parametrize("seed, beside", [(0, False), (4, False), (6, True)])
def test_a_card_misread_as_an_ace_on_a_spot_of_its_own_is_a_new_waste_pile_once_renamed(seed, beside):
    """Read as an Ace, the card on a new spot was taken to start a foundation; renamed, it could not be laid there
    ("cannot rename"): where it lies is read again under its right name, a new waste pile."""
    script, final = tommy_script(seed, piles_beside=beside)
    laid, ace = _laid_on_a_new_waste_pile_before_an_ace(script, [str(c) for c in deal_order(seed)])
    session = _correct_after_it_is_laid(script, laid, ace)
    assert session.state.foundations == final.foundations and session.state.waste == final.waste


def test_an_ace_misread_as_another_card_starts_a_foundation_once_renamed():
    """Read as a 3, the Ace on a new spot in the foundations' row was laid on a new waste pile; renamed, it stayed
    there (legal, and wrong: its 2 was then taken as laid on a waste pile). Now it goes up where it lies."""
    script, final = tommy_script(8)
    order = [str(c) for c in deal_order(8)]
    laid = [e for e in script.truth if e["event"] == "move" and e["move"].startswith("S>F") and e["card"][0] == "A"][1]
    session = _correct_after_it_is_laid(script, laid, next(c for c in reversed(order) if c[0] != "A"))
    assert session.state.foundations == final.foundations and session.state.waste == final.waste


def test_a_card_played_up_unseen_is_named_by_the_correction_and_goes_up_under_the_card_on_it():
    """Turned, played up and covered by a waste top at once, never lying still in view for three frames: the game
    cannot explain the Jh on the foundation of the 9 until the player names the card between (``r 10d``, or
    holding it up); before, that renamed the last card turned."""
    script, final = tommy_script(2)
    moves = [e for e in script.truth if e["event"] == "move"]
    up, onto = next((a, b) for a, b in zip(moves, moves[1:]) if a["move"].startswith("S>F")
                    and b["move"].startswith("W") and a["move"][-2:] == b["move"][-2:])
    hands_while_it_lies(script, up["still_frame"], still=2)
    looked = next(i for i in range(onto["still_frame"], len(script.frames)) if script.frames[i].moving)
    pause(script, looked)
    session = Session.new("tommy", "standard")
    events = run_script(session, script, commands={looked + 15: f"r {up['card']}"})
    stalled = [e["message"] for e in events if e["event"] == "warning" and e["frame"] < looked + 15]
    assert any(f"{onto['card']} lies on a foundation" in m for m in stalled)
    assert session.state.foundations == final.foundations and session.state.waste == final.waste


def test_after_the_layout_is_learned_again_the_misreading_is_found_where_it_now_lies():
    js, ah = Card.parse("Js"), Card.parse("Ah")
    fixes = Corrections()
    fixes.add(ah, js, (100.0, 100.0))
    fixes.forget_places()  # the camera was moved: the card now shows at (400, 300)
    view = fixes.apply(_view(_seen("Ah", 400, 300)), {js}, {}, {js})
    assert list(view.cards) == [js] and view[js].center == (400, 300)

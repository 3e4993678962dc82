"""The camera's event logic without a model: scripted tables (tests/live_sim.py) played through the live pipeline.

The issue's rules for the camera: "A hand over the table, a blurred frame, a light change or one misread frame
never adds, moves or renames a card"; "accept only events that the rules allow"; places are learned "from where
the cards land" whatever the player's layout and camera.
"""

from __future__ import annotations

from dataclasses import replace

import re

import numpy as np
import pytest

from live_sim import (H, Camera, Script, Seen, drop_frames, four_at_a_time_script, halfway_motion, hands_over_it,
                      hands_over_still_table, hands_while_it_lies, jolted_alone, lift_and_put_back,
                      misread_single_frames, pause, poker_script, poker_shuffle_script, run_script, table_moved,
                      tommy_script)

from assistant.benchmarks.camera import standing
from assistant.cards import Card
from assistant.deals import deal_order
from assistant.events import Play, Turn, TurnAndPlay, Undo
from assistant.games.poker import Placement
from assistant.games.tommy import Move, TommyRules, TommyState
from assistant.live.loop import rename_last_card
from assistant.live.poker_follower import PokerFollower
from assistant.live.table_view import Sighting, TableTracker, TableView
from assistant.live.tommy_follower import Target, TommyFollower
from assistant.session import Session

ALL_FAULTS = (misread_single_frames, drop_frames, hands_over_still_table, lift_and_put_back)


def events_of(events, kinds=("card", "move")):
    """The card and move events (``kinds``) that stand (each undo takes back the last) as (event, card, move)."""
    return [(e["event"], e["card"], e.get("move")) for e in standing(events) if e["event"] in kinds]


def truth_of(script):
    return [(e["event"], e["card"], e.get("move")) for e in script.truth]


def assert_followed_exactly(script, final, variant: str = "standard") -> None:
    """A Sir Tommy script fed to the live pipeline gives its card and move events as they happened and ends with
    the table's foundations and waste piles."""
    session = Session.new("tommy", variant)
    events = run_script(session, script)
    assert events_of(events) == truth_of(script)
    assert session.state.foundations == final.foundations and session.state.waste == final.waste


@pytest.mark.parametrize("seed, cam, faults, beside", [
    (0, Camera(), (), False),
    (1, Camera(angle_deg=180, mirror=True), ALL_FAULTS, False),
    (2, Camera(angle_deg=90, scale=0.7), ALL_FAULTS, True),
    (3, Camera(angle_deg=-25, scale=0.8), (misread_single_frames, hands_over_still_table), False),
])
def test_a_whole_sir_tommy_game_is_followed_card_by_card_and_move_by_move(seed, cam, faults, beside):
    script, final = tommy_script(seed, cam=cam, piles_beside=beside)
    rng = np.random.default_rng(seed + 100)
    for fault in faults:
        fault(script, rng)
    session = Session.new("tommy", "standard")
    events = run_script(session, script)
    assert events_of(events) == truth_of(script)
    result = [e for e in events if e["event"] == "result"]
    assert session.state.foundations == final.foundations and session.state.waste == final.waste
    assert result and result[0]["foundation_cards"] == final.foundation_cards()


@pytest.mark.parametrize("seed", [5, 7, 8])
def test_the_first_ace_starts_a_foundation_where_the_waste_piles_lie_in_the_foundations_row(seed):
    """Waste piles laid beside the foundations share their row: before a foundation is seen, an Ace at a new spot
    in that row starts a foundation (it was taken for a new waste pile, and the game went wrong from there)."""
    script, final = tommy_script(seed, piles_beside=True)
    assert_followed_exactly(script, final)


@pytest.mark.parametrize("seed", [0, 1])
def test_calculation_is_played_on_the_base_cards_the_player_laid_out(seed):
    """Calculation's bases are any A, 2, 3 and 4; the game had the spades until it saw them, so any other set
    (nearly every game) went wrong from the first card."""
    script, final = tommy_script(seed, variant="calculation")
    assert final.bases != Session.new("tommy", "calculation").state.bases  # not the spades A-4
    assert_followed_exactly(script, final, "calculation")


def test_calculation_bases_read_only_as_the_first_card_comes_are_not_taken_for_turned_cards():
    """With the suite's faults, hands keep the base cards (Ad 2h 3s 4h) from being read steadily before the first
    card (the 5s) is turned beside them. Cards lying whole as A, 2, 3 and 4 are waited for as the bases, not taken
    for the first cards turned."""
    script, final = tommy_script(14, cam=Camera(scale=0.98), variant="calculation")
    assert truth_of(script)[:2] == [("card", "5s", None), ("move", "5s", "S>W0")]
    assert_followed_exactly(with_faults(script, 114), final, "calculation")


def test_calculation_of_two_cards_of_a_base_rank_the_one_laid_out_first_is_the_base():
    """With the suite's faults, the bases As 2h 3h 4h are read steadily only once the first card turned, the 2s,
    lies beside them: two 2s lie whole on the table. The 2h lay there first: it is the base, the 2s the card
    turned (played up onto the Ace)."""
    script, final = tommy_script(8, cam=Camera(angle_deg=-25, scale=0.83), variant="calculation")
    assert final.bases[1] == Card.parse("2h")
    assert truth_of(script)[:2] == [("card", "2s", None), ("move", "2s", "S>F0")]
    assert_followed_exactly(with_faults(script, 108), final, "calculation")


def test_calculation_a_base_covered_at_once_by_the_first_card_played_onto_it_is_a_base():
    """Piles beside the foundations, with the suite's faults: the bases Ah 2c 3h 4s are seen a moment, never
    steadily, before the first card, the 8h, is played onto the 4s and covers it. The glimpsed 4s is the fourth
    base, and the 8h went onto it (not onto a waste pile)."""
    script, final = tommy_script(118, cam=Camera(angle_deg=180, scale=0.81), piles_beside=True,
                                 variant="calculation")
    assert truth_of(script)[:2] == [("card", "8h", None), ("move", "8h", "S>F3")]
    assert_followed_exactly(with_faults(script, 218), final, "calculation")


@pytest.mark.parametrize("seed, cam, variant", [(11, Camera(scale=0.94), "calculation"),
                                                (13, Camera(angle_deg=15, scale=1.02), "aces-out-first")])
def test_the_first_card_laid_on_a_pile_and_played_onto_a_base_card_at_once_does_not_teach_the_turned_spot(
        seed, cam, variant):
    """Piles beside the foundations, with the suite's faults: the first card turned is laid on a waste pile's place
    and played up at once onto a foundation that already holds a card (a base card, an Ace put out first). Taken
    as turned there, it taught the turned spot; when the next card moves onto that place, the game is told
    again: the first card laid on a waste pile and played up, the next one laid on that pile."""
    script, final = tommy_script(seed, cam=cam, piles_beside=True, variant=variant)
    first = truth_of(script)[:4]
    assert [e[0] for e in first] == ["card", "move", "move", "card"] and first[1][2] == "S>W0"
    assert_followed_exactly(with_faults(script, seed + 100), final, variant)


@pytest.mark.parametrize("seed, cam, variant", [(3, Camera(angle_deg=90, scale=0.8), "one-redeal"),
                                                (4, Camera(angle_deg=180, mirror=True), "in-suit")])
def test_a_game_with_redeals_is_followed_through_every_pass(seed, cam, variant):
    """With the suite's faults: once the stock is out, the player gathers the waste piles (one redeal merged in
    order; in suit two, shuffled) and turns them again. The table showing no waste pile is the redeal, and the
    cards turned again are followed as in the first pass."""
    script, final = tommy_script(seed, cam=cam, variant=variant, redeals=True)
    assert [e for e in truth_of(script) if e[2] == "R"] == [("move", None, "R")] * final.rules.redeals
    assert_followed_exactly(with_faults(script, seed + 100), final, variant)


def test_the_last_card_glimpsed_on_its_pile_before_the_piles_are_gathered_for_a_redeal_is_laid_there():
    """In suit, with the suite's faults: the first pass's last card, the Qs, lies on its pile only a moment before
    the player gathers the waste piles for the redeal. The game still wanted that card: it was laid where it was
    glimpsed, then the redeal came, and the second pass is followed."""
    script, final = tommy_script(53, cam=Camera(angle_deg=-25, scale=0.83), variant="in-suit", redeals=True)
    assert truth_of(script)[104:107] == [("card", "Qs", None), ("move", "Qs", "S>W2"), ("move", None, "R")]
    assert_followed_exactly(with_faults(script, 153), final, "in-suit")


def batches_of(events):
    """Card and move events as a four-at-a-time game has them: a batch's cards turned together (in no order the
    camera can tell when they lie in a row), a turned card placed from the hand whatever its slot in it (S0-S3)."""
    out, turned = [], []
    for kind, card, move in events + [(None, None, None)]:
        if kind == "card":
            turned.append(card)
            continue
        out += [("card", c, None) for c in sorted(turned)]
        turned = []
        if kind is not None:
            out.append((kind, card, re.sub(r"^S\d", "S", move)))
    return out


def assert_batches_followed(script, final) -> list:
    """A four-at-a-time script fed to the live pipeline gives its batches as they happened (:func:`batches_of`) and
    ends with the table's foundations and waste piles; its card and move events."""
    session = Session.new("tommy", "four-at-a-time")
    events = events_of(run_script(session, script))
    assert batches_of(events) == batches_of(truth_of(script))
    assert session.state.foundations == final.foundations and session.state.waste == final.waste
    return events


def with_faults(script, seed: int):
    """The suite's faults (misread and dropped frames, hands over the table, a card lifted and put back) at their
    rates, drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    for fault in ALL_FAULTS:
        fault(script, rng)
    return script


@pytest.mark.parametrize("seed, cam, faults, in_row, beside", [
    (0, Camera(), (), True, False),
    (1, Camera(angle_deg=180, mirror=True), ALL_FAULTS, True, False),
    (2, Camera(angle_deg=90, scale=0.7), ALL_FAULTS, True, True),
    (0, Camera(), (), False, False),
    (1, Camera(angle_deg=-25, scale=0.8), ALL_FAULTS, False, False),
    (4, Camera(angle_deg=90, scale=0.7), ALL_FAULTS, False, True),
])
def test_four_at_a_time_is_followed_from_a_row_beside_the_stock_or_straight_from_the_hand(seed, cam, faults, in_row,
                                                                                         beside):
    """Four at a time: all four cards are turned before any is placed. Laid face up in a row first, each is placed
    when it moves from its slot; held in the hand, each is first seen where it is laid (the game could turn none
    of them: the engine refused a move before the batch was complete)."""
    script, final = four_at_a_time_script(seed, cam=cam, in_row=in_row, piles_beside=beside)
    rng = np.random.default_rng(seed + 100)
    for fault in faults:
        fault(script, rng)
    session = Session.new("tommy", "four-at-a-time")
    events = run_script(session, script)
    assert batches_of(events_of(events)) == batches_of(truth_of(script))
    assert session.state.foundations == final.foundations and session.state.waste == final.waste


def test_four_at_a_time_an_ace_laid_on_a_pile_beside_the_foundations_and_played_up_later_is_told_again():
    """Piles laid beside the foundations share their row: the Ac laid on a new waste pile is taken for a new
    foundation. Four moves later it moves up to a place of its own; a foundation's card never moves, so the game
    is told again with the Ac on that pile, and the Qc laid there next is a waste pile's card."""
    script, final = four_at_a_time_script(28, cam=Camera(angle_deg=270), in_row=True, piles_beside=True)
    truth = batches_of(truth_of(script))
    assert ("move", "Ac", "S>W3") in truth and ("move", "Ac", "W3>F1") in truth
    assert_batches_followed(script, final)


def test_four_at_a_time_from_the_hand_cards_played_up_one_onto_the_other_before_the_next_batch_are_followed():
    """The first batch laid from the hand: 9d, 3c and 2h fanned on one new pile, the Ah on a foundation; then the
    2h goes up onto the Ah and the 3c onto the 2h, before the next batch. Both went up (the 3c onto a card of its
    batch where that card moved to): the player's way is not told until the next batch comes, and then each card
    is laid where it was first seen and played up in the order it moved."""
    script, final = four_at_a_time_script(76, cam=Camera(angle_deg=270, scale=0.97))
    truth = batches_of(truth_of(script))
    assert truth[4:10] == [("move", "9d", "S>W0"), ("move", "3c", "S>W0"), ("move", "2h", "S>W0"),
                           ("move", "Ah", "S>F0"), ("move", "2h", "W0>F0"), ("move", "3c", "W0>F0")]
    assert_batches_followed(script, final)


def test_four_at_a_time_a_card_laid_on_an_ace_taken_for_a_foundation_tells_the_game_again_with_a_pile_there():
    """The Ad laid from the hand on a place of its own is taken for a new foundation; the next batch's Jd is laid on
    it. No foundation takes a Jd on an Ad: the Ad's place was a waste pile, and the game is told again so."""
    script, final = four_at_a_time_script(69, cam=Camera(scale=1.05))
    truth = batches_of(truth_of(script))
    assert ("move", "Ad", "S>W3") in truth and ("move", "Jd", "S>W3") in truth
    assert_batches_followed(script, final)


def test_four_at_a_time_a_batch_card_glimpsed_on_a_foundation_and_covered_by_the_next_of_its_batch_comes_first():
    """From the hand, the 4s goes onto the foundation's 3s and the 5d onto it at once: the 4s lay still only a
    moment (a glimpse), and the 5d alone cannot go on the 3s. The glimpsed 4s, which fits between, was turned
    first; the batch is 4s, 5d, 8c, Ac, not a card of the next batch in the 4s's stead."""
    script, final = four_at_a_time_script(45, cam=Camera(angle_deg=15))
    truth = batches_of(truth_of(script))
    assert truth[87:93] == [("card", "4s", None), ("card", "5d", None), ("card", "8c", None), ("card", "Ac", None),
                            ("move", "4s", "S>F1"), ("move", "5d", "S>F1")]
    with_faults(script, 145)
    assert_batches_followed(script, final)


@pytest.mark.parametrize("seed, cam, card", [(54, Camera(angle_deg=90, scale=0.73), "7h"),
                                             (68, Camera(angle_deg=180, scale=0.97), "10c")])
def test_four_at_a_time_a_batch_card_glimpsed_on_a_pile_and_covered_at_once_by_the_next_of_its_batch_is_turned(
        seed, cam, card):
    """From the hand, with the suite's faults: a card of the batch lies still on its pile only a moment before the
    next card of the batch covers it (its corner read under that card from then on). It was turned before the card
    on it, and the next batch's first card is not taken in its stead."""
    script, final = four_at_a_time_script(seed, cam=cam)
    events = assert_batches_followed(with_faults(script, seed + 100), final)
    assert ("card", card, None) in events


def test_four_at_a_time_from_the_hand_cards_seen_gone_up_before_the_batch_was_placed_go_up_before_the_next_batch():
    """From the hand, with the suite's faults: the first batch is Ac, 9c, 2h, 3c; the 2h and the 3c go up onto the Ac
    before the next batch's first card shows the player's way. Once the batch is laid, the 3c lies on the
    foundation, not where it was laid: both went up, in the order they moved, before the next batch (7s 8c 8h Qs)
    is turned, and that batch is read, not taken over by the one after it."""
    script, final = four_at_a_time_script(120, cam=Camera(angle_deg=90, mirror=True, scale=0.8))
    truth = batches_of(truth_of(script))
    assert truth[8:14] == [("move", "2h", "W0>F0"), ("move", "3c", "W1>F0"), ("card", "7s", None),
                           ("card", "8c", None), ("card", "8h", None), ("card", "Qs", None)]
    assert_batches_followed(with_faults(script, 220), final)


def test_four_at_a_time_a_batch_card_glimpsed_on_a_foundation_under_a_waste_top_played_onto_it_is_turned():
    """From the hand, with the suite's faults: the batch's 2c goes onto the foundation's Ah and lies still only a
    moment before the 3h is played up onto it from its waste pile. The 3h cannot go on the Ah: the glimpsed 2c,
    which fits between, was the batch's card, not the next batch's first card."""
    script, final = four_at_a_time_script(9, cam=Camera(angle_deg=180, mirror=True, scale=0.94))
    truth = batches_of(truth_of(script))
    assert truth[48:57] == [("card", "2c", None), ("card", "8h", None), ("card", "8s", None), ("card", "Ks", None),
                            ("move", "8h", "S>W2"), ("move", "8s", "S>W0"), ("move", "Ks", "S>W0"),
                            ("move", "2c", "S>F0"), ("move", "3h", "W1>F0")]
    assert_batches_followed(with_faults(script, 109), final)


def test_four_at_a_time_a_batch_card_glimpsed_over_its_batch_on_a_foundation_under_a_waste_top_is_turned():
    """From the hand, piles beside the foundations, with the suite's faults: the batch's 3c and 4d go onto the
    foundation's 2c, the 4d lies still only a moment before the 5d is played onto it from its waste pile. The
    glimpsed 4d fits between the 3c (in hand, first seen there) and the 5d: it is the batch's fourth card."""
    script, final = four_at_a_time_script(164, cam=Camera(angle_deg=270, scale=0.85), piles_beside=True)
    truth = batches_of(truth_of(script))
    assert truth[89:92] == [("move", "3c", "S>F1"), ("move", "4d", "S>F1"), ("move", "5d", "W2>F1")]
    assert_batches_followed(with_faults(script, 264), final)


def test_four_at_a_time_a_batch_card_glimpsed_on_a_foundation_under_a_card_of_its_batch_moved_up_is_turned():
    """From the hand, with the suite's faults: the 8h is laid on a waste pile, the 6s onto the foundation's 5c,
    the 7h onto the 6s (a glimpse: covered at once), and the 8h moved up onto it. The glimpsed 7h fits between:
    it is the batch's fourth card, and the 8h went up from its pile once the batch was laid."""
    script, final = four_at_a_time_script(186, cam=Camera(scale=1.05))
    truth = batches_of(truth_of(script))
    assert truth[103:108] == [("move", "10s", "S>W2"), ("move", "8h", "S>W1"), ("move", "6s", "S>F0"),
                              ("move", "7h", "S>F0"), ("move", "8h", "W1>F0")]
    assert_batches_followed(with_faults(script, 286), final)


def test_four_at_a_time_an_ace_taken_for_a_waste_pile_is_told_again_as_a_foundation_when_no_pile_is_left():
    """In a row beside the stock, with the suite's faults: the Ah goes to a place of its own, taken for the fourth
    waste pile, and the 10s then to a new place. No waste pile is left empty, so the Ah's place was a foundation:
    the game is told again with the Ah played up, and the 10s starts the fourth waste pile."""
    script, final = four_at_a_time_script(178, cam=Camera(angle_deg=270, mirror=True, scale=0.7), in_row=True)
    truth = batches_of(truth_of(script))
    assert truth[12:14] == [("move", "Ah", "S>F1"), ("move", "10s", "S>W3")]
    assert_batches_followed(with_faults(script, 278), final)


def test_four_at_a_time_in_a_row_a_card_covered_on_its_pile_by_a_moved_card_of_its_batch_is_placed_first():
    """A row beside the stock, with the suite's faults: the 9d, first seen on its pile (never in the row), is covered
    by the 8h from the row before the batch is placed, and then read only by its corner a fan step before it. It
    lies under the 8h, so it was laid first: 9d, 8h, 6s on the pile in that order."""
    script, final = four_at_a_time_script(156, cam=Camera(angle_deg=15, mirror=True, scale=0.74), in_row=True,
                                          piles_beside=True)
    truth = batches_of(truth_of(script))
    assert truth[54:57] == [("move", "9d", "S>W0"), ("move", "8h", "S>W0"), ("move", "6s", "S>W0")]
    with_faults(script, 256)
    assert_batches_followed(script, final)


def test_four_at_a_time_from_the_hand_a_card_played_up_before_the_next_batch_was_first_laid_on_its_pile():
    """The first batch cannot tell a row beside the stock from cards laid straight from the hand until a card
    moves to a waste pile (a row) or the next batch comes (the hand). A card that went to a foundation in between
    was laid on its pile first and played up from it, not put up from a row."""
    script, final = four_at_a_time_script(5)
    first_batch = script.truth[:12]
    assert ("move", "Ac", "W0>F0") in [(e["event"], e["card"], e.get("move")) for e in first_batch]
    events = run_script(Session.new("tommy", "four-at-a-time"), script)
    assert batches_of(events_of(events)) == batches_of(truth_of(script))


def test_four_at_a_time_from_the_hand_a_card_played_up_onto_its_batchs_ace_and_covered_by_the_next_is_followed():
    """The same, the card (a 2) played up onto an Ace of its own batch, and the next batch's first card laid on it
    at once. It moved onto a card of its batch it builds on: up, not a row (taken for a row, the game waited); the
    next card on it is no misreading of the hidden Ace; and once the batch is laid where each was first seen, the 2
    goes up from its pile though covered by then (it stayed on its pile, and the next card fitted nowhere)."""
    script, final = four_at_a_time_script(37)
    first_batch = [(e["event"], e["card"], e.get("move")) for e in script.truth[:9]]
    assert ("move", "2s", "W0>F0") in first_batch and ("move", "Ad", "S0>F0") in first_batch
    assert script.truth[9]["card"] == "3h" and script.truth[13]["move"] == "S2>F0"  # on the 2s, laid first
    session = Session.new("tommy", "four-at-a-time")
    events = run_script(session, script)
    assert batches_of(events_of(events)) == batches_of(truth_of(script))
    assert session.state.foundations == final.foundations and session.state.waste == final.waste


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_four_at_a_time_a_first_batch_card_never_read_in_the_row_is_laid_where_it_was_first_seen(seed):
    """The first batch laid in a row, the card placed first never read there (only once on its pile): the row is
    learned when the next card leaves it, and that card, first seen off the line of the others, was laid before
    (its place was taken for a slot of the row, and the next card for the first one laid: four-row seed 30)."""
    script, final = four_at_a_time_script(seed, in_row=True)
    first = next(e for e in script.truth if e["event"] == "move")
    for f in script.frames[script.truth[0]["still_frame"]:first["still_frame"]]:
        f.cards = [s for s in f.cards if s.card != first["card"]]
    session = Session.new("tommy", "four-at-a-time")
    assert batches_of(events_of(run_script(session, script))) == batches_of(truth_of(script))
    assert session.state.foundations == final.foundations and session.state.waste == final.waste


@pytest.mark.parametrize("seed, batch", [(0, 1), (1, 3), (3, 2)])
def test_four_at_a_time_cards_moved_from_the_row_before_the_batch_was_read_whole_are_placed_in_the_order_laid(
        seed, batch):
    """A batch's last card is not read in the row (only once on its pile): the player has meanwhile moved the
    others from the row, two onto one pile, the second covering the first. Once the batch is complete they are
    placed in the order they left the row, from where each was last seen whole (the covered one was placed last,
    or not at all: tommy4-13)."""
    script, final = four_at_a_time_script(seed, in_row=True)
    starts = [i for i, e in enumerate(script.truth)
              if e["event"] == "card" and (i == 0 or script.truth[i - 1]["event"] == "move")]
    events = script.truth[starts[batch]:starts[batch + 1]]
    moves = [e for e in events if e["event"] == "move" and e["move"].startswith("S")]
    targets = [e["move"].split(">")[1] for e in moves[:-1]]
    assert len(set(targets)) < len(targets), "two of the others go onto one pile"
    first_seen = min(e["still_frame"] for e in events if e["event"] == "card")
    for frame in script.frames[first_seen:moves[-1]["still_frame"]]:  # the last one placed: not read in the row
        frame.cards = [s for s in frame.cards if s.card != moves[-1]["card"]]
    session = Session.new("tommy", "four-at-a-time")
    assert batches_of(events_of(run_script(session, script))) == batches_of(truth_of(script))
    assert session.state.foundations == final.foundations and session.state.waste == final.waste


def test_four_at_a_time_a_batch_card_never_read_in_the_row_is_named_by_the_player_not_renamed_over_another():
    """A batch's card not read in the row: the game says the batch is short once the player moves the others, and
    the card held up (or ``r``) is that card, turned; it is placed once seen where it lies. (Before, the
    correction renamed the last card turned, and the game went wrong from there.)"""
    script, final = four_at_a_time_script(0, in_row=True)
    starts = [i for i, e in enumerate(script.truth)
              if e["event"] == "card" and (i == 0 or script.truth[i - 1]["event"] == "move")]
    events = script.truth[starts[1]:starts[2]]
    moves = [e for e in events if e["event"] == "move" and e["move"].startswith("S")]
    missing = moves[-1]["card"]
    for frame in script.frames[events[0]["still_frame"]:moves[-1]["still_frame"]]:
        frame.cards = [s for s in frame.cards if s.card != missing]
    session = Session.new("tommy", "four-at-a-time")
    said = run_script(session, script, commands={moves[0]["still_frame"] + 12: f"r {missing}"})
    warnings = [e["message"] for e in said if e["event"] == "warning"]
    assert any("the next one not: hold it up" in w for w in warnings)
    assert any(w.startswith(f"{missing} turned") for w in warnings)
    assert session.state.foundations == final.foundations and session.state.waste == final.waste


def test_four_at_a_time_the_games_first_card_read_on_one_corner_does_not_set_the_card_size():
    """The first card laid, read on one corner only (its box the whole card), was taken for a corner box: the card
    size was guessed five times too big and kept, no card was whole after it, and no card joined the game."""
    script, final = four_at_a_time_script(1)
    first = script.truth[0]["card"]
    placed = [e["move"] for e in script.truth if e["event"] == "move"]
    assert placed[0] != placed[1], "the second card is laid beside the first, which shows whole a while"
    for frame in script.frames:
        frame.cards = [replace(s, corners=1) if s.card == first else s for s in frame.cards]
    events = run_script(Session.new("tommy", "four-at-a-time"), script)
    assert batches_of(events_of(events)) == batches_of(truth_of(script))


def test_a_foundation_top_read_steadily_as_the_next_card_with_no_hand_over_it_is_not_a_card_played_onto_it():
    """A card the rules let go up on a foundation, read right where the top lies: a card played there, or the top
    misread. No hand came near it since the top was read: misread (it was taken as played up, and the real card
    came later to a game that had it already)."""
    script, final = tommy_script(0)
    up = next(e for e in script.truth if e["event"] == "move" and ">F" in e["move"])
    top = Card.parse(up["card"])
    later = [c for c in deal_order(0) if c.rank == top.rank + 1]
    name = str(later[-1])  # still in the stock then
    at = next(i for i in range(up["still_frame"], len(script.frames)) if script.frames[i + 1].moving)
    misread = [replace(s, card=name) if s.card == up["card"] else s for s in script.frames[at].cards]
    script.frames[at + 1:at + 1] = [replace(script.frames[at], cards=misread) for _ in range(30)]
    for e in script.truth:
        e["still_frame"] += 30 if e["still_frame"] > at else 0
    assert_followed_exactly(script, final)


@pytest.mark.parametrize("seed", [0, 3, 7])
def test_a_card_laid_and_covered_before_it_was_seen_lying_still_joins_the_game_from_its_corner(seed):
    """A quick player: hands kept the card from lying still in view, and the next card was laid straight onto it.
    Its corner shows one fan step beyond the pile's top: it was turned and laid there first (it was left out, and
    the game went on a card short without a word)."""
    script, final = tommy_script(seed)
    moves = [e for e in script.truth if e["event"] == "move" and e["move"].startswith("S>W")]
    cards = {e["card"]: e for e in script.truth if e["event"] == "card"}
    laid = next(a for a, b in zip(moves[3:], moves[4:]) if a["move"] == b["move"]
                and cards[b["card"]]["still_frame"] == b["still_frame"])  # the next laid on it at once
    hands_while_it_lies(script, laid["still_frame"])
    assert_followed_exactly(script, final)


def _laid_then_covered_at_once(script):
    """The first card laid on a waste pile (after the third) with the next laid straight onto it: both moves."""
    moves = [e for e in script.truth if e["event"] == "move" and e["move"].startswith("S>W")]
    cards = {e["card"]: e for e in script.truth if e["event"] == "card"}
    return next((a, b) for a, b in zip(moves[3:], moves[4:]) if a["move"] == b["move"]
                and cards[b["card"]]["still_frame"] == b["still_frame"])


def _longer_still(script, frame: int, frames: int) -> tuple[int, int]:
    """The still run starting at ``frame`` made ``frames`` frames longer (the player looks a while); its ends."""
    end = next(i for i in range(frame, len(script.frames)) if script.frames[i].moving)
    pause(script, end, frames)
    return frame, end + frames


@pytest.mark.parametrize("seed, glimpsed", [(0, True), (3, True), (7, False), (0, False)])
def test_a_card_covered_at_once_and_read_under_the_next_only_now_and_then_is_laid_under_it(seed, glimpsed):
    """As above, but the covered card's corner is read in some frames only (kde-penguins in tommy-2s): read as the
    next card comes, lost while that card joins the game, then read now and then. It was seen there before the
    next card joined (glimpsed lying whole, or only read under it as it came), and that card lies a slot further
    on: the next card is taken back and both are laid in order (it was left out, "between places" to the end of
    the game)."""
    script, final = tommy_script(seed)
    laid, following = _laid_then_covered_at_once(script)
    hands_while_it_lies(script, laid["still_frame"], still=3 if glimpsed else 2)
    start, end = _longer_still(script, following["still_frame"], 24)
    for i, f in enumerate(script.frames[start:end]):
        if 3 <= i < 9 or (i >= 9 and i % 3 == 2):
            f.cards = [s for s in f.cards if s.card != laid["card"]]
    assert_followed_exactly(script, final)


def test_a_corner_misread_under_a_card_laid_wide_is_not_a_card_laid_under_it():
    """A card laid on a pile a little further on than the fan step (a slot and a bit), and the corner of the card
    under it misread, once it joined the game, as a card never turned in the slot between: no card was read there
    as it came, so none was laid under it (the card misread would be taken out of the stock)."""
    script, final = tommy_script(0)
    order = [str(c) for c in deal_order(0)]
    laid, _ = _laid_then_covered_at_once(script)
    start, end = _longer_still(script, laid["still_frame"], 12)
    fan = script.cam.point((0, 30.0)) - script.cam.point((0, 0))
    for i, f in enumerate(script.frames[start:end]):
        new = next(s for s in f.cards if s.card == laid["card"])
        x1, y1, x2, y2 = new.box
        f.cards = [replace(s, box=(x1 + fan[0], y1 + fan[1], x2 + fan[0], y2 + fan[1])) if s is new else s
                   for s in f.cards]
        if i >= 8:  # a slot on from the corner of the card under it
            f.cards.append(Seen(order[-1], 0.8, (x1 + 2, y1 + 2, x1 + 22, y1 + 32), 1))
    assert_followed_exactly(script, final)


def test_a_whole_cards_own_corner_misread_as_a_card_never_turned_is_not_a_card_laid_under_it():
    """Where a card laid on a pile shows its corner, a card missed under it would show its corner too; the one
    missed has the card laid on it a slot further on. A corner misread steadily as a card still in the stock,
    with nothing beyond it, is the whole card's own."""
    script, final = tommy_script(0)
    order = [str(c) for c in deal_order(0)]
    on_pile = [e for e in script.truth if e["event"] == "move" and e["move"].startswith("S>W")][6]
    end = next(i for i in range(on_pile["still_frame"], len(script.frames)) if script.frames[i].moving)
    for f in script.frames[on_pile["still_frame"]:end]:
        (own,) = [s for s in f.cards if s.card == on_pile["card"]]
        x1, y1 = own.box[:2]
        f.cards.append(Seen(order[-1], 0.8, (x1 + 2, y1 + 2, x1 + 22, y1 + 32), 1))  # its corner, misread
    assert_followed_exactly(script, final)


@pytest.mark.parametrize("seed", [2, 25])
def test_a_card_laid_on_an_empty_pile_and_covered_before_it_was_seen_lying_still_joins_from_its_corner(seed):
    """The same on an emptied waste pile, late in the deal: no top to count the fan step from; the card's corner,
    less the offset the covered cards' corners show from their centres, lies a fan step before the card on it."""
    script, final = tommy_script(seed)
    moves = [e for e in script.truth if e["event"] == "move"]
    turned_at = {e["card"]: e["still_frame"] for e in script.truth if e["event"] == "card"}
    state = TommyState(TommyRules.preset("standard"), order=deal_order(seed))
    for i, e in enumerate(moves):
        move = Move.parse(e["move"])
        onto_empty = move.source == "S" and move.target == "W" and not state.waste[move.target_index]
        following = moves[i + 1]
        if (i > 12 and onto_empty and following["move"] == e["move"]
                and turned_at[following["card"]] == following["still_frame"]):  # laid on it at once
            break
        if move.source == "S":
            state.turn_next()
        state.apply(move)
    hands_while_it_lies(script, e["still_frame"])
    assert_followed_exactly(script, final)


@pytest.mark.parametrize("seed, first, then", [(2, "S", "W"), (3, "S", "W"), (7, "S", "S")])
def test_a_card_played_up_and_covered_before_it_joined_the_game_is_the_one_glimpsed_there(seed, first, then):
    """A quick player turns a card, plays it up, and at once plays the next card up onto it (from a waste pile,
    or turned); hands kept the first from lying still long enough to join the game. It was glimpsed lying there,
    and it is the one card never turned that fits between: it went up first (seed 3: an Ace, so the foundation
    itself was never seen). Before, the game stalled ("lies on a foundation where the rules do not allow it")."""
    script, final = tommy_script(seed)
    moves = [e for e in script.truth if e["event"] == "move"]
    up = next(a for a, b in zip(moves, moves[1:]) if a["move"].startswith(first + ">F")
              and b["move"].startswith(then) and a["move"][-2:] == b["move"][-2:])
    hands_while_it_lies(script, up["still_frame"])
    assert_followed_exactly(script, final)


@pytest.mark.parametrize("seed", [0, 1, 4])
def test_a_turned_card_played_up_under_hands_then_covered_by_a_waste_top_went_up_first(seed):
    """A card shown at the turned spot goes up while hands are over the table, and a waste top is played onto it
    at once: the turned card is never seen on its foundation. The top moved onto a foundation that takes it only
    on the turned card, which is gone from the turned spot: it went up first (the game waited for it to be laid,
    and no later play was followed)."""
    script, final = tommy_script(seed)
    truth = script.truth
    up = next(b for a, b, c in zip(truth, truth[1:], truth[2:]) if a["event"] == "card"
              and a["still_frame"] < b["still_frame"] and b["move"].startswith("S>F")
              and c["event"] == "move" and c["move"].startswith("W") and c["move"][-2:] == b["move"][-2:])
    hands_over_it(script, up["still_frame"])
    assert_followed_exactly(script, final)


@pytest.mark.parametrize("seed", [1, 2, 9, 10])
def test_a_waste_top_played_up_under_hands_then_the_card_under_it_onto_it_went_up_first(seed):
    """The same from a waste pile: its top goes up while hands are over the table, then the card under it onto it
    at once. The top is seen nowhere, and the card under it moved onto a foundation that takes it only on the top:
    the top went up first (only tops were looked at, so neither move was taken)."""
    script, final = tommy_script(seed)
    moves = [e for e in script.truth if e["event"] == "move"]
    up = next(a for a, b in zip(moves, moves[1:]) if a["move"].startswith("W") and a["move"] == b["move"]
              and ">F" in a["move"])
    hands_over_it(script, up["still_frame"])
    assert_followed_exactly(script, final)


@pytest.mark.parametrize("seed", [2, 3, 7, 40])
def test_the_games_first_card_glimpsed_then_covered_at_once_by_the_second_joins_before_it(seed):
    """The first card laid, seen whole only a moment (hands over it), and the second laid on it at once: no fan
    step is known yet to find it from its corner, but it was glimpsed lying where it now shows only its corner,
    a fan step from the card on it (it was left out and the game went on a card short)."""
    script, final = tommy_script(seed)
    moves = [e for e in script.truth if e["event"] == "move"]
    turned_at = {e["card"]: e["still_frame"] for e in script.truth if e["event"] == "card"}
    first, second = moves[:2]
    assert first["move"].startswith("S>W") and second["move"] == first["move"]
    assert turned_at[second["card"]] == second["still_frame"], "the second is laid at once"
    hands_while_it_lies(script, first["still_frame"])
    assert_followed_exactly(script, final)


@pytest.mark.parametrize("seed", [1, 4, 8, 15])
def test_a_card_that_never_lay_still_long_enough_comes_before_the_next_one_laid_elsewhere(seed):
    """A quick player: hands kept a card from lying still long enough to join the game, and the next card was laid
    at once on another place; both join in one view. The one glimpsed lying there first was turned first (they
    were taken in the order the reader lists them, and a card on a foundation or an earlier pile came first)."""
    script, final = tommy_script(seed)
    moves = [e for e in script.truth if e["event"] == "move"]
    turned_at = {e["card"]: e["still_frame"] for e in script.truth if e["event"] == "card"}
    laid, following = next((a, b) for a, b in zip(moves, moves[1:])
                           if a["move"].startswith("S>W") and b["move"].startswith("S>") and b["move"] != a["move"]
                           and turned_at[b["card"]] == b["still_frame"]  # turned and laid at once
                           and (b["move"][2] == "F" or b["move"][3] < a["move"][3]))  # listed before it
    hands_while_it_lies(script, laid["still_frame"])
    assert_followed_exactly(script, final)


@pytest.mark.parametrize("seed", [1, 2, 8, 16, 27, 36])
def test_a_player_who_lays_every_card_straight_from_the_stock_is_followed(seed):
    """No card is ever shown at a turned spot: each is laid where it goes at once. Until the next card comes a
    card at a new place may still be in the hand; but a waste top played up means it was laid (the rules allow no
    play with a card in hand), a card laid exactly on it builds on it on a foundation (seeds 16: an Ace, then its
    2), and the deal's last card has no next one to wait for. Before, most such games went wrong at the first
    play from a waste pile, and the last card was never placed."""
    script, final = tommy_script(seed, quick_share=1.0)
    assert all(e["still_frame"] == m["still_frame"] for e, m in zip(script.truth, script.truth[1:])
               if e["event"] == "card"), "every card is seen first where it is laid"
    assert_followed_exactly(script, final)


def test_a_quick_players_ace_laid_on_a_waste_pile_and_played_up_does_not_make_that_place_the_turned_spot():
    """A player who lays every card straight from the stock lays an Ace on an empty waste pile and plays it up at
    once: it moved from where it was first seen, so that place was taken for the turned spot, and the cards laid
    there later for cards still in hand. A card held there is laid as a pile when the next card comes: the place
    is a pile's, not the turned spot (the game went wrong at the first waste top played up with a card there). The
    Ace's own route cannot be seen (read only on its foundation: the end is the table's)."""
    script, final = tommy_script(158, quick_share=1.0)
    first = [(e["card"], e.get("move")) for e in script.truth[:3]]
    assert first == [("As", None), ("As", "S>W0"), ("As", "W0>F0")]
    session = Session.new("tommy", "standard")
    run_script(session, script)
    assert session.state.foundations == final.foundations and session.state.waste == final.waste


def test_an_ace_laid_on_a_waste_pile_and_played_up_later_tells_the_game_again_with_that_place_a_pile():
    """The As goes to a new place of its own (taken for a new foundation); two cards later it moves up to another
    new place. A foundation's card never moves: its first place was a waste pile. The game is told again (the
    last moves taken back, published as undos) with the As laid on that pile and played up from it, so the 8c
    laid there next is a waste pile's card."""
    script, final = tommy_script(210)
    assert truth_of(script)[4:6] == [("card", "As", None), ("move", "As", "S>W2")]
    assert ("move", "As", "W2>F0") in truth_of(script)
    session = Session.new("tommy", "standard")
    events = run_script(session, script)
    assert [e["undone"] for e in events if e["event"] == "undo"] == ["S>W1", "Qd", "S>W0", "Jc", "S>F0"]
    assert events_of(events) == truth_of(script)
    assert session.state.foundations == final.foundations and session.state.waste == final.waste


def test_an_ace_taken_for_a_foundation_played_up_elsewhere_and_covered_at_once_tells_the_game_again():
    """One redeal: the As is laid on a waste pile (taken for a new foundation), the 2c on the next pile; then, in
    one view, the As goes up to a new place and the 2c onto it, so the As is only glimpsed there (the suite's
    faults cut short the view where the As lay up alone). The 2c moved onto the As's glimpse: the As moved first,
    so its first place was a waste pile. The game is told again with the As on that pile, played up, and the 2c
    played onto it (before, the 2c found "no empty pile left")."""
    script, final = tommy_script(60, cam=Camera(angle_deg=90, mirror=True, scale=0.72), variant="one-redeal",
                                 redeals=True)
    assert truth_of(script)[:6] == [("card", "As", None), ("move", "As", "S>W0"), ("card", "2c", None),
                                    ("move", "2c", "S>W1"), ("move", "As", "W0>F0"), ("move", "2c", "W1>F0")]
    assert_followed_exactly(with_faults(script, 160), final, "one-redeal")


def test_a_card_glimpsed_before_a_card_read_under_another_is_laid_first():
    """With the suite's faults: the 6h is laid straight from the stock and seen lying a moment, then the Kd is laid
    on a new pile and the 5h on it, before either joined the game. All join in one view, the Kd read by its
    corner under the 5h: the 6h, seen lying first, came first (before, the Kd read under its cover was laid at
    once, ahead of it)."""
    script, final = tommy_script(93, cam=Camera(angle_deg=15, scale=0.88), variant="one-redeal", redeals=True)
    assert truth_of(script)[6:12] == [("card", "6h", None), ("move", "6h", "S>W2"), ("card", "Kd", None),
                                      ("move", "Kd", "S>W3"), ("card", "5h", None), ("move", "5h", "S>W3")]
    assert_followed_exactly(with_faults(script, 193), final, "one-redeal")


def test_a_card_seen_lying_before_the_turned_card_but_not_yet_read_steadily_comes_first():
    """With the suite's faults: the 7c is laid on the 10d and seen a moment before hands cover the table; then the
    4s is turned. When the view clears, the 4s is read steadily at the turned spot while the 7c is not yet: the
    7c, seen lying first, is waited for and laid first (before, the 4s was taken as turned, then laid as a pile of
    its own when the 7c came)."""
    script, final = tommy_script(95, cam=Camera(angle_deg=180, scale=0.79), variant="one-redeal", redeals=True)
    assert truth_of(script)[4:8] == [("card", "7c", None), ("move", "7c", "S>W0"), ("card", "4s", None),
                                     ("move", "4s", "S>W0")]
    assert_followed_exactly(with_faults(script, 195), final, "one-redeal")


@pytest.mark.parametrize("direction", [(1, 0), (0, 1)], ids=["towards-the-next-pile", "down-the-pile"])
def test_strategy_a_waste_top_read_alone_just_off_its_place_while_hands_hide_the_rest_is_not_moved(direction):
    """Strategy lets a waste top go onto another waste pile, an empty one too. Hands hide every card but the 3d
    just laid, read a little over half a card off its place (the camera jolted as they passed): with no other card
    of the game read in its place, nothing shows that the 3d moved rather than the camera, and half a card from
    its place is no new place. Before, it was moved onto the next pile, or to a new pile."""
    script, final = tommy_script(0, variant="strategy")
    laid = [e for e in script.truth if e["event"] == "move" and e["move"].startswith("S>W")][5]
    assert (laid["card"], laid["move"]) == ("3d", "S>W1")
    jolted_alone(script, laid["still_frame"], "3d", 0.55 * H * script.cam.scale * np.array(direction))
    assert_followed_exactly(script, final, "strategy")


@pytest.mark.parametrize("seed, variant", [(0, "standard"), (1, "standard"), (2, "in-suit")])
def test_a_turned_card_read_as_its_suit_twin_in_hand_and_as_itself_once_laid_is_one_card(seed, variant):
    """Clubs and spades of a small index told apart now one way, now the other: the turned card is read steadily
    as its rank in the other suit of its colour while it lies beside the stock, and as itself once laid. One card,
    named as it lies: before, the twin was taken as turned, the card as a second new one, and the game went astray
    (the in-suit video of session 39: its first card, the Ac, read As in hand)."""
    script, final = tommy_script(seed, variant=variant)
    turned = [e for e in script.truth if e["event"] == "card"]
    laid: dict[str, int] = {}  # when each card was first laid
    for e in script.truth:
        if e["event"] == "move":
            laid.setdefault(e["card"], e["still_frame"])
    order = deal_order(seed)

    def twin(c: Card) -> Card:
        return next(Card(c.rank, s) for s in type(c.suit) if s != c.suit and s.is_red == c.suit.is_red)

    held = [e for e in turned if laid[e["card"]] > e["still_frame"]  # lay beside the stock a while, its twin to come
            and order.index(twin(Card.parse(e["card"]))) > order.index(Card.parse(e["card"]))]
    card = Card.parse(held[2]["card"])
    for f in script.frames[held[2]["still_frame"]:laid[str(card)]]:
        f.cards = [replace(s, card=str(twin(card))) if s.card == str(card) else s for s in f.cards]
    assert_followed_exactly(script, final, variant)


def test_a_quick_players_ace_taken_for_a_foundation_moving_up_with_the_next_card_held_lays_that_card_first():
    """Every card laid straight from the stock, the piles beside the foundations: the Ac laid on a waste pile is
    taken for a new foundation, and the Qs after it (the turned spot not known) for a card still in hand. The Ac
    moves up: no play with a card in hand, so the Qs was laid where it lies, then the game is told again with the
    Ac on a waste pile, played up from it."""
    script, final = tommy_script(94, quick_share=1.0, piles_beside=True)
    truth = truth_of(script)
    assert truth[14:18] == [("move", "Ac", "S>W1"), ("card", "Qs", None), ("move", "Qs", "S>W2"),
                            ("move", "Ac", "W1>F3")]
    assert_followed_exactly(script, final)


def test_an_ace_taken_for_a_waste_pile_is_told_again_as_a_foundation_when_a_card_finds_no_empty_pile_left():
    """The Ah goes up at a new place in line with the waste piles: taken for a new waste pile. When a later card
    is laid at a new place with no waste pile left empty, the pile holding only that Ah was a foundation: the game
    is told again with the Ah on a foundation, and the card starts a waste pile."""
    script, final = tommy_script(231, cam=Camera(angle_deg=90, scale=0.76))
    assert truth_of(script)[6:10] == [("card", "Ah", None), ("move", "Ah", "S>F1"), ("card", "9h", None),
                                      ("move", "9h", "S>W2")]
    assert_followed_exactly(script, final)


def test_a_card_laid_right_on_an_ace_taken_for_a_waste_pile_tells_the_game_again_with_a_foundation_there():
    """The Ad goes up at a new place in line with the waste piles: taken for a waste pile. The 2h is then laid
    right on it, covering it as on a foundation (a card on a pile lies a fan step on): not a misreading of the Ad,
    but a foundation play. The game is told again with the Ad on a foundation and the 2h played onto it."""
    script, final = tommy_script(281, cam=Camera(angle_deg=270, scale=0.79))
    truth = truth_of(script)
    assert truth[4:6] == [("card", "Ad", None), ("move", "Ad", "S>F1")]
    assert truth[10:12] == [("card", "2h", None), ("move", "2h", "S>F1")]
    assert_followed_exactly(script, final)


def test_a_waste_top_gone_up_as_the_next_card_is_laid_where_it_lay_moves_first():
    """With the suite's faults: the 10d goes up from its waste pile onto the 9s and the 8s is laid at once where the
    10d lay. Seen in one view, the 8s is not laid on the 10d: the top moved first, then the 8s came."""
    script, final = tommy_script(311, cam=Camera(angle_deg=180, scale=0.96))
    assert truth_of(script)[111:115] == [("move", "10d", "W3>F1"), ("card", "8s", None), ("move", "8s", "S>W3"),
                                         ("card", "10c", None)]
    assert_followed_exactly(with_faults(script, 411), final)


def test_a_turned_card_covered_on_its_pile_by_the_next_card_at_once_is_laid_where_its_corner_is_read():
    """Piles beside the foundations, with the suite's faults: the Kc lies at the turned spot, is laid on the 4d's
    pile and covered at once by the 8d before it lay still there. Its corner, read under the 8d, shows where it
    went (no new place was left for it): Kc to that pile, then the 8d on it."""
    script, final = tommy_script(62, cam=Camera(angle_deg=180, scale=1.01), piles_beside=True)
    assert truth_of(script)[18:22] == [("card", "Kc", None), ("move", "Kc", "S>W1"), ("card", "8d", None),
                                       ("move", "8d", "S>W1")]
    assert_followed_exactly(with_faults(script, 162), final)


def test_a_waste_top_gone_up_unseen_before_another_pile_s_top_went_onto_it_is_played_up_first():
    """With the suite's faults: the 5s (a pile's only card) and then the 6c from another pile go up onto the 4h
    while hands hide the table. The 6c is seen on the 4h, which cannot take it, and the 5s is seen nowhere: it
    went up first."""
    script, final = tommy_script(83, cam=Camera(angle_deg=-25, mirror=True, scale=0.95))
    assert truth_of(script)[93:96] == [("move", "4h", "S>F1"), ("move", "5s", "W3>F1"), ("move", "6c", "W1>F1")]
    assert_followed_exactly(with_faults(script, 183), final)


def test_the_first_card_laid_on_a_waste_pile_and_played_up_at_once_does_not_teach_the_turned_spot():
    """The game's first card, the Ac, lies a moment at a place of its own, then moves up: taken as turned and laid
    from the turned spot. The 9h then comes at another place and moves to the Ac's first place: no waste top can go
    to the turned spot, so the Ac was laid on a waste pile there and played up, and the 9h turned at its own spot."""
    script, final = tommy_script(144)
    assert truth_of(script)[:5] == [("card", "Ac", None), ("move", "Ac", "S>W0"), ("move", "Ac", "W0>F0"),
                                    ("card", "9h", None), ("move", "9h", "S>W0")]
    assert_followed_exactly(script, final)


@pytest.mark.parametrize("seed, cam", [(4, Camera()), (5, Camera(angle_deg=90, scale=0.7))])
def test_a_fanned_pair_read_in_one_box_and_a_covered_card_misread_steadily_do_not_derail_the_game(seed, cam):
    """What a real reader does (kde-penguins at 72 px): a pile's top boxed together with the card under it, whose
    corner is not read; a covered card's corner read as a card still in the stock, frame after frame."""
    script, final = tommy_script(seed, cam=cam, boxed_pairs=True, misread_covered=True)
    assert_followed_exactly(script, final)


@pytest.mark.parametrize("seed, cam, gap, variant", [
    (0, Camera(), 1.15, "american"),
    (1, Camera(angle_deg=90, scale=0.7), 1.4, "english"),
    (2, Camera(angle_deg=180, mirror=True), 1.05, "american-adjacent"),
    (3, Camera(angle_deg=-25, scale=0.8), 1.15, "american"),
])
def test_a_poker_grid_emerges_as_the_cards_arrive_and_is_scored_as_seen(seed, cam, gap, variant):
    script, rows = poker_script(seed, cam=cam, gap=gap, adjacent=variant.endswith("adjacent"))
    rng = np.random.default_rng(seed)
    for fault in ALL_FAULTS:
        fault(script, rng)
    session = Session.new("poker", variant)
    events = run_script(session, script)
    assert [e["card"] for e in events if e["event"] == "move"] == [e["card"] for e in script.truth if e["event"] == "move"]
    (result,) = [e for e in events if e["event"] == "result"]
    assert result["rows"] == rows
    from assistant.games.poker import Scoring, score_grid, parse_grid

    cells = parse_grid(" / ".join(" ".join(r) for r in rows))
    assert result["american"] == score_grid(cells, Scoring.AMERICAN).total
    assert result["english"] == score_grid(cells, Scoring.ENGLISH).total


@pytest.mark.parametrize("seed, cam, overlap, corners, variant", [
    (0, Camera(), 0.35, 2, "american"),
    (1, Camera(angle_deg=90, scale=0.7), 0.2, 1, "english"),
    (2, Camera(angle_deg=180, mirror=True), 0.43, 1, "american-adjacent"),
    (3, Camera(angle_deg=-25, scale=0.8), 0.35, 2, "american"),
])
def test_a_poker_grid_laid_with_its_rows_over_each_other_is_followed(seed, cam, overlap, corners, variant):
    """A player short of table lays each row over the edge of its neighbour (0.57-0.8 of a card apart): a covered
    card shows one corner, or (four indices) two in a strip, whose centre is not the card's. The cells come from
    where the cards were laid; the strips neither move the table nor set the card size."""
    script, rows = poker_script(seed, cam=cam, adjacent=variant.endswith("adjacent"), rows_overlap=overlap,
                                covered_corners=corners)
    with_faults(script, seed + 100)
    events = run_script(Session.new("poker", variant), script)
    placed = [e["card"] for e in events if e["event"] == "move"]
    assert placed == [e["card"] for e in script.truth if e["event"] == "move"]
    assert [e for e in events if e["event"] == "result"][0]["rows"] == rows


@pytest.mark.parametrize("seed, cam, gap, overlap, corners, variant", [
    (80, Camera(angle_deg=15, mirror=True, scale=0.51), 1.26, 0.35, 1, "american-adjacent"),  # a sweep's seed 80
    (1, Camera(angle_deg=90, scale=0.7), 1.15, 0.2, 2, "english"),
    (2, Camera(angle_deg=180), 1.15, 0.45, 1, "american"),
    (3, Camera(angle_deg=-25, scale=0.8), 1.15, 0.35, 2, "american"),
])
def test_a_poker_grid_laid_with_its_columns_over_each_other_is_followed(seed, cam, gap, overlap, corners, variant):
    """Each card laid over the edge of its neighbour across the cards' short side (0.55-0.8 of a card apart): a
    covered card shows its left or right edge. Once two cards are seen lying over each other side by side, cells
    narrower than a card are allowed across, and the gaps down need not be alike (else two rows a card apart read
    as four half-rows, every other one empty)."""
    script, rows = poker_script(seed, cam=cam, gap=gap, adjacent=variant.endswith("adjacent"),
                                columns_overlap=overlap, covered_corners=corners)
    with_faults(script, seed + 100)
    events = run_script(Session.new("poker", variant), script)
    placed = [e["card"] for e in events if e["event"] == "move"]
    assert placed == [e["card"] for e in script.truth if e["event"] == "move"]
    assert [e for e in events if e["event"] == "result"][0]["rows"] == rows


def test_cells_narrower_than_a_card_across_its_short_side_only_where_cards_are_seen_to_overlap():
    """A row of three cards 1.2 card widths apart with a card a card height above the middle one: read as whole
    cells, not as cells 0.6 wide with every other one empty; the same cards 0.6 apart are cells 0.6 wide."""
    from assistant.live.poker_follower import fit_cells

    wh = np.array([50.0, 70.0])
    upright = [(0.0, 0.0)]
    for step, want in ((1.2, [[1, 0], [1, 1], [1, 2], [0, 1]]), (0.6, [[1, 0], [1, 1], [1, 2], [0, 1]])):
        points = np.array([[0, 84], [step * 50, 84], [2 * step * 50, 84], [step * 50, 0]], float)
        cells, _, _ = fit_cells(points, wh, upright)
        assert cells.tolist() == want


def test_two_upright_cards_a_row_apart_and_under_a_card_across_are_diagonal_neighbours_of_overlapping_columns():
    """What a quick player's first cards showed (sweep seed 46): two upright cards 1.2 card heights apart down and
    0.65 of a card width across. No upright grid with whole-card columns holds them, and a grid tilted 24 degrees
    did (its cells a column off from then on); they are diagonal neighbours of columns laid over each other. Cards
    in one column, or a row with gaps, show no such thing."""
    from assistant.live.poker_follower import TILT_COST, TILTS, fit_cells

    wh = np.array([50.0, 70.0])
    tilts = [(a, TILT_COST * (a / np.deg2rad(6.0)) ** 2) for a in TILTS]
    cells, _, tilt = fit_cells(np.array([[0.0, 0.0], [32.5, 84.0]]), wh, tilts)
    assert tilt == 0.0 and cells.tolist() == [[0, 0], [1, 1]]
    same_column = np.array([[0.0, 0.0], [3.0, 84.0], [60.0, 0.0]])  # one a little crooked, one beside
    cells, _, _ = fit_cells(same_column, wh, tilts)
    assert cells.tolist() == [[0, 0], [1, 0], [0, 1]]


@pytest.mark.parametrize("seed, cam, corners, variant", [
    (6, Camera(angle_deg=180, scale=0.65), 2, "english"),  # a sweep's seed 6
    (1, Camera(angle_deg=90, mirror=True, scale=0.7), 1, "american"),
    (2, Camera(angle_deg=15, scale=0.8), 1, "american-adjacent"),
])
def test_a_poker_grid_laid_with_its_rows_and_columns_over_each_other_is_followed(seed, cam, corners, variant):
    """Rows and columns laid over each other at once (0.35 of a card each): a card covered on two edges that meet
    shows one corner (a deck with two indices: only its top-left or bottom-right one), on two opposite edges
    nothing. The first cards laid apart show the grid only as diagonal neighbours nearer than a card across."""
    script, rows = poker_script(seed, cam=cam, adjacent=variant.endswith("adjacent"), rows_overlap=0.35,
                                columns_overlap=0.35, covered_corners=corners)
    with_faults(script, seed + 100)
    events = run_script(Session.new("poker", variant), script)
    placed = [e["card"] for e in events if e["event"] == "move"]
    assert placed == [e["card"] for e in script.truth if e["event"] == "move"]
    assert [e for e in events if e["event"] == "result"][0]["rows"] == rows


def test_a_corner_read_beside_a_placed_card_does_not_make_the_cells_narrower():
    """What poker-3 showed: the first card's own corner, read as another card while the first was not read for a
    moment, lies within a card of it; had it counted as two cards lying over each other, the cells would have
    become narrow enough to give it a cell of its own. Only cards read whole show that the columns overlap."""
    from assistant.live.poker_follower import fit_cells

    wh = np.array([50.0, 70.0])
    points = np.array([[100.0, 100.0], [130.0, 80.0]])  # a placed card, and a corner read 0.6 of a card beside it
    assert fit_cells(points, wh, [(0.0, 0.0)], shows_overlap=[True, False]) is None
    assert fit_cells(points, wh, [(0.0, 0.0)]) is not None  # as two whole cards, side by side over each other


@pytest.mark.parametrize("corners", [1, 2])
def test_a_poker_card_covered_before_it_joined_the_game_is_placed_by_what_shows_of_it(corners):
    """A quick player laid the next card over the edge of one that never lay still long enough to join the game:
    it is read only on a corner (or a strip) from then on, and goes to the cell of the card that part belongs to,
    not to where the part's own centre lies (between cells)."""
    script, rows = poker_script(5, cam=Camera(angle_deg=-25, scale=0.7), adjacent=True, rows_overlap=0.35,
                                covered_corners=corners)
    moves = [e for e in script.truth if e["event"] == "move"]
    laid = next(m for m, nxt in zip(moves[3:], moves[4:])  # a card laid with the grid under way, then one below it
                if nxt["final_cell"] == [m["final_cell"][0] + 1, m["final_cell"][1]])
    hands_while_it_lies(script, laid["still_frame"], still=2)
    events = run_script(Session.new("poker", "american-adjacent"), script)
    assert [e["card"] for e in events if e["event"] == "move"] == [e["card"] for e in moves]
    assert [e for e in events if e["event"] == "result"][0]["rows"] == rows


def test_a_poker_card_covered_before_it_joined_at_a_tilt_not_yet_seen_is_placed_where_it_lay_whole():
    """A quick player at a camera turned 15 degrees, the columns over each other: the second card never lay still
    long enough to join the game before the third covered its edge. What shows of it, a strip, is as long as a card
    at the tilt the grid has not shown yet; it was seen whole a moment where it lay, so that is its place (before,
    the strip's centre: the first step measured a third too short, and "only next to a card" refused the third)."""
    script, rows = poker_script(55, cam=Camera(angle_deg=15, scale=0.59), adjacent=True, columns_overlap=0.35)
    moves = [e for e in script.truth if e["event"] == "move"]
    hands_while_it_lies(script, moves[1]["still_frame"])
    events = run_script(Session.new("poker", "american-adjacent"), script)
    assert [e["card"] for e in events if e["event"] == "move"] == [e["card"] for e in moves]
    assert [e for e in events if e["event"] == "result"][0]["rows"] == rows


def test_a_corner_read_on_a_new_poker_card_is_its_misread_not_a_card_it_covers():
    """What the reader did on poker-3 (kde-tigullio-international): the first card's bottom corner read steadily as
    another card while both were new (in fewer frames). What a card covers shows beside it, not on it: a corner
    read on a card's face does not come first as a card laid before it; a corner beside the card does."""
    follower = PokerFollower(Session.new("poker", "american"), lambda event: None)
    follower.card_wh = np.array([100.0, 140.0])
    qd = Sighting(Card.parse("Qd"), (500.0, 400.0), (450.0, 330.0, 550.0, 470.0), 1.0, 0.9, 2, 8)
    on_it = Sighting(Card.parse("10d"), (535.0, 450.0), (525.0, 440.0, 545.0, 462.0), 0.8, 0.9, 1, 8)
    beside = Sighting(Card.parse("10d"), (465.0, 300.0), (455.0, 290.0, 475.0, 312.0), 0.8, 0.9, 1, 8)
    for corner, first in ((on_it, qd.card), (beside, beside.card)):
        view = TableView(40, {qd.card: qd, corner.card: corner})
        assert follower._first_seen([corner.card, qd.card], view)[0] == first
        assert follower._first_seen([qd.card, corner.card], view)[0] == first


NUDGES = [((70.0, -70.0), 0.0, 1.0), ((30.0, 20.0), 8.0, 1.08), ((-150.0, 60.0), -5.0, 0.93)]


@pytest.mark.parametrize("seed, cam, nudge", [(2, Camera(), NUDGES[0]), (5, Camera(angle_deg=90, scale=0.8), NUDGES[1]),
                                              (7, Camera(angle_deg=180, mirror=True), NUDGES[2])])
def test_a_sir_tommy_game_goes_on_when_the_camera_is_nudged_halfway(seed, cam, nudge):
    """With the suite's faults, the camera (or the table) is nudged halfway through the game: every card lies half
    a card or more from where it lay (turned a little, nearer or further). No card moved: the game goes on,
    every place moved with the table, and no move is read into it."""
    script, final = tommy_script(seed, cam=cam)
    with_faults(script, seed + 100)
    offset, angle, scale = nudge
    table_moved(script, halfway_motion(script), offset, angle, scale)
    assert_followed_exactly(script, final)


@pytest.mark.parametrize("seed, cam, nudge, overlap, corners", [
    (0, Camera(scale=0.7), NUDGES[0], 0.0, 2), (4, Camera(angle_deg=-25), NUDGES[1], 0.0, 2),
    (6, Camera(angle_deg=90, scale=0.8), NUDGES[2], 0.0, 2),
    (4, Camera(angle_deg=-25, scale=0.89), ((-85.0, -20.0), 5.0, 1.02), 0.35, 1),  # a sweep's seed 4
    (14, Camera(scale=0.78), ((63.0, 43.0), -1.3, 0.94), 0.35, 1),  # a sweep's seed 14
    (3, Camera(angle_deg=90, scale=0.7), ((-60.0, 50.0), 3.0, 1.0), 0.35, 2),
])
def test_a_poker_grid_goes_on_when_the_camera_is_nudged_halfway(seed, cam, nudge, overlap, corners):
    """With the suite's faults, the camera is nudged halfway through placing the grid: the cards already placed
    keep their cells, and the later ones go into the cells where they lie. With rows and columns laid ``overlap``
    over each other few placed cards show whole, too few to show the table moved; the corners of the covered ones
    move with it as their centres do, and show it."""
    variant = "american-adjacent" if overlap else "american"
    script, rows = poker_script(seed, cam=cam, adjacent=bool(overlap), rows_overlap=overlap, columns_overlap=overlap,
                                covered_corners=corners)
    with_faults(script, seed + 100)
    offset, angle, scale = nudge
    table_moved(script, halfway_motion(script), offset, angle, scale)
    events = run_script(Session.new("poker", variant), script)
    placed = [e["card"] for e in events if e["event"] == "move"]
    assert placed == [e["card"] for e in script.truth if e["event"] == "move"]
    (result,) = [e for e in events if e["event"] == "result"]
    assert result["rows"] == rows


@pytest.mark.parametrize("seed, k, variant", [(0, 3, "american"), (1, 10, "american-adjacent"), (2, 0, "english")])
def test_a_poker_card_that_never_lay_still_long_enough_is_placed_before_the_next_one(seed, k, variant):
    """A quick player: hands kept the ``k``-th card from lying still long enough to join the game, the next was laid
    at once, and in the first still frame after it the earlier card was not read. The card glimpsed first was
    placed first (before, the card read more often joined first: the order the player laid them, which a caller
    or "only next to a card" checks, was lost)."""
    script, rows = poker_script(seed, adjacent=variant.endswith("adjacent"))
    moves = [e for e in script.truth if e["event"] == "move"]
    laid, following = moves[k], moves[k + 1]
    hands_while_it_lies(script, laid["still_frame"])
    first = script.frames[following["still_frame"]]
    first.cards = [s for s in first.cards if s.card != laid["card"]]
    session = Session.new("poker", variant)
    events = run_script(session, script)
    assert [e["card"] for e in events if e["event"] == "move"] == [e["card"] for e in moves]
    assert [e for e in events if e["event"] == "result"][0]["rows"] == rows


@pytest.mark.parametrize("seed, cam, dealt_in_grid", [
    (0, Camera(scale=0.5), False),
    (1, Camera(angle_deg=90, mirror=True, scale=0.5), False),
    (2, Camera(scale=0.5), True),
    (3, Camera(angle_deg=-20, scale=0.5), True),
])
def test_poker_shuffle_takes_the_25_cards_laid_out_open_then_scores_the_grid_the_player_arranges(seed, cam,
                                                                                              dealt_in_grid):
    """Poker Shuffle: all 25 cards lie open first (in rows, or dealt as a grid), then the player arranges them. The
    camera takes each open card, and the arrangement once the cards have moved into one 5x5 grid; cards swapped
    within the grid later change the arrangement and its result (the game had refused every card before)."""
    script, rows = poker_shuffle_script(seed, cam=cam, dealt_in_grid=dealt_in_grid)
    rng = np.random.default_rng(seed)
    for fault in ALL_FAULTS:
        fault(script, rng)
    session = Session.new("poker", "american-shuffle")
    events = run_script(session, script)
    assert sorted(c for kind, c, _ in events_of(events, ("card",))) == sorted(c for kind, c, _ in truth_of(script)
                                                                              if kind == "card")
    results = [e for e in events if e["event"] == "result"]
    assert results[-1]["rows"] == rows and session.is_over
    assert results[-1]["american"] == session.state.score("american").total
    first_move = min(e["frame"] for e in events if e["event"] == "move")
    assert first_move > max(e["frame"] for e in events if e["event"] == "card")  # nothing placed while laying out
    if not dealt_in_grid:
        assert len(results) == 1  # moved card by card from the spread: no 5x5 grid before the last card


def test_every_event_names_the_frame_it_was_decided_on_after_the_card_lay_still():
    script, _ = poker_script(5, cards=6)
    events = run_script(Session.new("poker"), script)
    moves = [e for e in events if e["event"] == "move"]
    truth = [e for e in script.truth if e["event"] == "move"]
    for got, want in zip(moves, truth):
        assert want["still_frame"] <= got["frame"] <= want["still_frame"] + 6  # five still frames of evidence


def test_one_misread_frame_never_adds_or_renames_a_card():
    tracker = TableTracker()
    qh = Seen("Qh", 0.9, (100, 100, 200, 240), 2)
    wrong = Seen("Qd", 0.9, (100, 100, 200, 240), 2)
    views = [tracker.update(i, [wrong if i == 3 else qh]) for i in range(8)]
    for view in views[2:]:
        assert list(view.cards) == [Card.parse("Qh")]


def test_a_card_seen_in_only_one_frame_does_not_exist():
    tracker = TableTracker()
    ghost = Seen("7c", 0.9, (400, 100, 500, 240), 2)
    views = [tracker.update(i, [ghost] if i == 4 else []) for i in range(8)]
    assert all(v is None or not v.cards for v in views)


def test_a_card_in_a_narrow_fans_next_slot_is_not_a_misreading_of_the_card_it_lies_on():
    """A card laid from the hand (four at a time, not placed yet) and the next card laid on it a narrow fan step
    further (a seventh of a card): the new card is in the next slot, not a misreading of the one under it (the
    batch never completed: tommy4-14). Read right on the covered card's spot, it is."""
    session = Session.new("tommy", "four-at-a-time")
    follower = TommyFollower(session, session.handle)
    for name in ("Qd", "Jd", "5s"):
        assert follower.apply(Turn(Card.parse(name))).ok
    follower.size, follower.fan_step = 81.0, np.array([0.03, -0.14])
    follower.pos[Card.parse("Jd")] = np.array([540.0, 380.0])  # laid on its pile from the hand, now covered
    view = TableView(frame=1, cards={}, card_size=81.0)
    assert not follower._misread_of_hidden(Card.parse("8c"), np.array([540.0, 368.0]), view)
    assert follower._misread_of_hidden(Card.parse("8c"), np.array([541.0, 379.0]), view)


def test_a_foundation_top_misread_a_moment_elsewhere_still_lets_the_next_card_be_played_onto_it():
    """The 4c on a foundation, its name read steadily a moment on another pile's covered corner: nothing moved
    there since, but a hand did lay the 5s on the 4c. The 5s read where the 4c lay is that card, not a misreading
    of the 4c (tommy-2 with a retrained reader: the 5s held back 17 frames, and a misread Qs taken meanwhile).
    Where the 4c itself was last read steadily, undisturbed, it is a misreading."""
    session = Session.new("tommy", "standard")
    for name in ("Ac", "2d", "3h", "4c"):
        session.handle(Turn(Card.parse(name)))
        session.handle(Play(Move.parse("S>F0")))
    follower = TommyFollower(session, session.handle)
    follower.size = 80.0
    four = Card.parse("4c")
    follower.pos[four] = np.array([534.0, 311.0])
    elsewhere = (625.0, 236.0, 690.0, 314.0)  # a covered corner of a waste pile, 1.5 cards away
    at_its_spot = (502.0, 272.0, 566.0, 350.0)
    five, on_four = Card.parse("5s"), np.array([533.0, 311.5])
    view = TableView(frame=1, cards={}, card_size=80.0, undisturbed={four: elsewhere})
    assert not follower._misread_of_hidden(five, on_four, view)
    view = TableView(frame=1, cards={}, card_size=80.0, undisturbed={four: at_its_spot})
    assert follower._misread_of_hidden(five, on_four, view)


def test_the_fan_step_is_the_usual_step_of_the_piles_not_the_first_one_laid():
    """Players fan unevenly: the first card laid on a pile a tenth of a card on, the next ones a quarter. The slots
    follow the usual step (the median over the piles), so a covered card's corner misread beside a pile's bottom
    card is not taken for a card laid one slot on (tommy-2: a Qs "laid" on a pile of four)."""
    session = Session.new("tommy", "standard")
    follower = TommyFollower(session, session.handle)
    follower.size = 80.0
    steps = {0: [8.0, 20.0, 21.0], 1: [19.0, 22.0], 2: [20.0, 21.0]}
    names = iter(["8d", "6s", "10c", "6c", "9h", "8s", "7d", "Kc", "Qd", "Jh"])
    for w, gaps in steps.items():
        x = 600.0
        for k, gap in enumerate([0.0] + gaps):
            card = Card.parse(next(names))
            x += gap
            p = np.array([x, 100.0 + 150 * w])
            session.handle(Turn(card))
            session.handle(Play(Move.parse(f"S>W{w}")))
            if k:
                follower._learn_fan(card, Target("W", w), p)
            follower.pos[card] = p
    assert follower.fan_step.tolist() == pytest.approx([20.0 / 80, 0.0])  # of 8, 19, 20, 20, 21, 21, 22 px
    bottom = follower.pos[Card.parse("8d")]
    beside_the_bottom = bottom + np.array([27.0, -10.0])  # the 6s's corner, misread
    assert follower.locate(Card.parse("Qs"), beside_the_bottom, defer_new=True) != Target("W", 0)


def _queen_in_hand_follower():
    """tommy-nudge-25's table at frame 421 (80 px cards, piles fanned up and to the right): 4h on W0, 7s 6s on W1,
    Js on W2; the Qs turned and shown at the turned spot, then laid on the 4h and never read there; the 9d laid
    straight onto the Js."""
    session = Session.new("tommy", "standard")
    follower = TommyFollower(session, session.handle)
    follower.size = 80.0
    for name, w, xy in (("4h", 0, (495.0, 446.0)), ("7s", 1, (548.0, 442.0)), ("6s", 1, (553.0, 431.0)),
                        ("Js", 2, (604.0, 457.0))):
        session.handle(Turn(Card.parse(name)))
        session.handle(Play(Move.parse(f"S>W{w}")))
        follower.pos[Card.parse(name)] = np.array(xy)
    follower.fan_step = np.array([0.1, -0.29])
    session.handle(Turn(Card.parse("Qs")))
    follower.hand_spots = [np.array([720.0, 552.0])]
    follower.first_pos[Card.parse("Qs")] = np.array([720.0, 552.0])
    return session, follower


def _seen_at(name: str, xy) -> Sighting:
    x, y = xy
    return Sighting(Card.parse(name), (x, y), (x - 28.0, y - 40.0, x + 28.0, y + 40.0), 1.0, 0.6, 2, 8)


def test_a_card_never_seen_laid_went_onto_the_one_top_a_hand_passed_over_and_that_is_not_read_since():
    """The Qs was read only at the turned spot; the 9d came. The 4h, W0's top, was lost under a hand and never read
    again while the 6s was; the Js lies under the 9d. The Qs was laid on the 4h (not at the turned spot as a new
    pile: the game then had no place left for a later card)."""
    session, follower = _queen_in_hand_follower()
    glimpsed = {Card.parse(n): _seen_at(n, xy) for n, xy in (("4h", (495.0, 446.0)), ("Js", (604.0, 457.0)))}
    cards = {Card.parse(n): _seen_at(n, xy) for n, xy in (("6s", (553.0, 431.0)), ("9d", (607.0, 440.0)))}
    assert follower._lay_held(TableView(frame=421, cards=cards, card_size=80.0, glimpsed=glimpsed)) is True
    assert session.state.waste[0][-1] == Card.parse("Qs")


@pytest.mark.parametrize("why", ["no hand passed over the 4h", "two tops hidden", "hands over the table"])
def test_a_card_never_seen_laid_is_not_put_on_a_top_that_is_merely_unread(why):
    """A top missing from the view without a hand having passed over it (a weak reading), or two such tops, or
    nothing of the table read at all: nothing says where the card went; it is laid where it was seen."""
    session, follower = _queen_in_hand_follower()
    glimpsed = {} if why == "no hand passed over the 4h" else {Card.parse("4h"): _seen_at("4h", (495.0, 446.0))}
    cards = {Card.parse(n): _seen_at(n, xy) for n, xy in (("6s", (553.0, 431.0)), ("9d", (607.0, 440.0)))}
    if why == "two tops hidden":
        glimpsed[Card.parse("6s")] = cards.pop(Card.parse("6s"))
        cards[Card.parse("7s")] = _seen_at("7s", (548.0, 442.0))  # the covered 7s's corner: the table is read
    if why == "hands over the table":
        del cards[Card.parse("6s")]
    follower._lay_held(TableView(frame=421, cards=cards, card_size=80.0, glimpsed=glimpsed))
    assert session.state.waste[0][-1] == Card.parse("4h")


def test_a_box_a_little_longer_than_a_card_reaching_a_pile_top_at_its_edge_is_one_card_not_a_fanned_pair():
    """A box longer than a card around a pile's top (not read itself) is the card and that top boxed together,
    the card lying beyond their middle. A top at the box's very edge is not inside such a pair: a tilted card's
    box is a little longer than a card (its place was taken half a card off: tommy4-14)."""
    session = Session.new("tommy", "standard")
    follower = TommyFollower(session, session.handle)
    for name in ("Ks", "Qd"):
        assert follower.apply(TurnAndPlay(Card.parse(name), Move.parse("S>W0"))).ok
    follower.size = 70.0
    follower.pos[Card.parse("Qd")] = np.array([537.0, 408.0])
    card = Card.parse("8c")
    at_edge = TableView(frame=1, cards={card: Sighting(card, (540.5, 368.5), (513.0, 328.0, 568.0, 409.0), 1.0, 0.9, 2, 8)})
    assert follower._xy(at_edge, card).tolist() == [540.5, 368.5]
    pair = TableView(frame=1, cards={card: Sighting(card, (540.5, 388.5), (513.0, 328.0, 568.0, 449.0), 1.0, 0.9, 2, 8)})
    assert follower._xy(pair, card).tolist() == [544.0, 369.0]  # as far beyond the middle as the top lies before it


def test_two_corners_read_in_a_box_far_smaller_than_a_card_are_not_a_whole_card():
    """A sighting keeps the most corners any one frame read; in a box of a third of a card those were two cards'
    corners (a covered card's misread index taken for a new card in the row: tommy4-12)."""
    odd = Sighting(Card.parse("9c"), (620.0, 474.0), (615.0, 461.0, 624.0, 486.0), 1.0, 0.5, 2, 7)
    card = Sighting(Card.parse("7s"), (830.0, 549.0), (796.0, 502.0, 863.0, 595.0), 1.0, 0.8, 2, 8)
    assert card.whole(82.0) and not odd.whole(82.0)
    assert odd.whole(0.0)  # before any card size is known, the corners are all there is to go by


def test_a_hand_in_view_resets_the_evidence():
    tracker = TableTracker()
    qh = Seen("Qh", 0.9, (100, 100, 200, 240), 2)
    assert tracker.update(0, [qh]) is None and tracker.update(1, [qh]) is None
    tracker.moving()
    assert tracker.update(2, [qh]) is None  # two frames before the hand do not count after it


def test_a_card_read_still_for_a_moment_and_lost_under_a_hand_is_remembered_as_glimpsed():
    tracker = TableTracker()
    qh, seven = Seen("Qh", 0.9, (100, 100, 200, 240), 2), Seen("7c", 0.9, (400, 100, 500, 240), 2)
    for i in range(3):
        tracker.update(i, [qh, seven] if i else [qh])  # the 7c read in two frames: not a glimpse
    tracker.moving()
    view = next(v for v in (tracker.update(i, [seven]) for i in range(3, 6)) if v is not None)
    assert list(view.glimpsed) == [Card.parse("Qh")] and view.glimpsed[Card.parse("Qh")].center == (150, 170)
    later = [tracker.update(i, [qh, seven]) for i in range(200, 203)][-1]
    assert not later.glimpsed and Card.parse("Qh") in later  # read steadily again, and old glimpses fade


def test_a_turned_and_laid_card_is_applied_whole_or_not_at_all():
    session = Session.new("tommy", "standard")
    session.handle(TurnAndPlay(Card.parse("Ah"), Move.parse("S>F0")))
    refused = session.handle(TurnAndPlay(Card.parse("5c"), Move.parse("S>F0")))  # 5c does not fit on the Ace
    assert not refused.ok and "5c" in refused.error
    assert session.state.stock_count == 51 and not session.state.hand  # the 5c was not turned either
    assert session.handle(TurnAndPlay(Card.parse("5c"), Move.parse("S>W1"))).ok


def test_the_session_refuses_a_card_that_was_already_turned():
    session = Session.new("poker")
    assert session.handle(TurnAndPlay(Card.parse("Qh"), Placement(0, 0))).ok
    out = session.handle(Turn(Card.parse("Qh")))
    assert not out.ok and "already" in out.error


def test_undo_and_play_go_through_the_same_entry():
    session = Session.new("poker")
    session.handle(Turn(Card.parse("Qh")))
    session.handle(Play(Placement(2, 3)))
    assert session.handle(Undo()).ok
    assert session.state.current == Card.parse("Qh")


def test_the_players_undo_is_published_and_the_card_still_on_the_table_joins_again():
    """``u`` takes back the last move in the JSON lines too (an undo event); the card the table still shows where
    it was laid is then seen as a card to place, and joins the game again there."""
    script, final = tommy_script(0)
    laid = [e for e in script.truth if e["event"] == "move"][5]
    session = Session.new("tommy", "standard")
    events = run_script(session, script, commands={laid["still_frame"] + 10: "u"})
    undone = [e for e in events if e["event"] == "undo"]
    assert len(undone) == 1 and undone[0]["undone"] == laid["move"]
    again = [e for e in events if e["event"] == "move" and e["card"] == laid["card"]]
    assert len(again) == 2 and again[1]["frame"] > undone[0]["frame"]
    assert events_of(events) == truth_of(script)
    assert session.state.foundations == final.foundations and session.state.waste == final.waste


def test_renaming_the_last_card_replays_its_move_with_the_right_name():
    session = Session.new("tommy", "standard")
    session.handle(TurnAndPlay(Card.parse("9h"), Move.parse("S>W0")))
    session.handle(TurnAndPlay(Card.parse("6h"), Move.parse("S>W0")))  # it was a 9c, not a 6h
    out = rename_last_card(session, Card.parse("9c"))
    assert out.ok
    assert session.state.waste[0] == [Card.parse("9h"), Card.parse("9c")]
    assert not rename_last_card(session, Card.parse("9h")).ok  # a card exists once in a deck


def test_a_poker_card_laid_above_and_left_of_all_others_relabels_the_grid():
    script, rows = poker_script(11, cards=25)
    session = Session.new("poker")
    events = run_script(session, script)
    assert [[str(c) if c else None for c in row] for row in session.state.grid] == rows
    assert [e for e in events if e["event"] == "result"]


def test_cached_detections_replay_the_same_reader_results_without_the_model(tmp_path):
    from assistant.live.detection_cache import CachedReader

    frame = np.zeros((48, 64, 3), np.uint8)
    other = frame.copy()
    other[10:20, 10:20] = 255
    calls = []

    def reader(image, previous):
        calls.append(1)
        return type("R", (), {"cards": [Seen("Qh", 0.9, (1.0, 2.0, 30.0, 40.0), 2)]})()

    CachedReader(tmp_path / "cache.jsonl", reader)(frame, None)
    replay = CachedReader(tmp_path / "cache.jsonl")
    (card,) = replay(frame, None).cards
    assert (card.card, card.box, card.corners, len(calls)) == ("Qh", (1.0, 2.0, 30.0, 40.0), 2, 1)
    with pytest.raises(KeyError):
        replay(other, None)  # a frame never read is an error, never a guess


def test_training_mode_on_the_camera_explains_hints_and_prices_other_moves():
    script, _ = poker_script(3, cards=8)
    events = run_script(Session.new("poker"), script, hints=True, budget_ms=20, train=True, lang="en")
    hints = [e for e in events if e["event"] == "hint"]
    assert len(hints) == 8 and all("notes" in h for h in hints)
    coach = [e for e in events if e["event"] == "coach"]
    assert all(e["card"] in {h["card"] for h in hints} and "cost" in e["message"] for e in coach)
    # the scripted player lays cards at random: some of its moves are not the hint's and are priced
    assert coach


def test_a_new_poker_card_misread_steadily_as_a_placed_card_is_reported_not_merged():
    """A card exists once: the name of a card on its cell, read steadily on another cell too, means the newly laid
    card there is misread. It is said plainly, and the game does not move until the card reads right."""
    script, _ = poker_script(4, cards=4)
    first, last = script.truth[1]["card"], script.truth[-1]["card"]
    for frame in script.frames[script.truth[-1]["still_frame"]:]:
        frame.cards = [replace(s, card=first) if s.card == last else s for s in frame.cards]
    session = Session.new("poker")
    events = run_script(session, script)
    laid = [e["card"] for e in script.truth if e["event"] == "move"]
    assert [e["card"] for e in events if e["event"] == "move"] == laid[:3]
    assert len(session.state.dealt) == 3
    warnings = [e["message"] for e in events if e["event"] == "warning"]
    assert any(f"{first} is read in two places" in w for w in warnings)


def test_a_turned_sir_tommy_card_misread_steadily_as_a_covered_card_is_reported_not_applied():
    """A card exists once: a covered card's name read steadily, whole, away from its pile means the card just
    turned is misread. It is said plainly, and the game waits for that card to read right."""
    script, final = tommy_script(6, turns=14)
    turned = [e for e in script.truth if e["event"] == "card"]
    last = turned[-1]
    landed = next((i for i, w in enumerate(final.waste) if w and str(w[-1]) == last["card"]), None)
    # covered before the last card came too (not the card it was laid on)
    covered = [c for i, w in enumerate(final.waste) for c in w[:-1] if not (i == landed and c == w[-2])]
    assert covered, "the scripted deal must leave a covered waste card"
    name = str(covered[0])
    for frame in script.frames[last["still_frame"]:]:
        frame.cards = [replace(s, card=name) if s.card == last["card"] else s for s in frame.cards]
    session = Session.new("tommy", "standard")
    events = run_script(session, script)
    assert last["card"] not in [e["card"] for e in events if e["event"] in ("card", "move")]
    assert Card.parse(last["card"]) not in session.state.hand and len(session.state.stock_cards()) == 52 - 13
    warnings = [e["message"] for e in events if e["event"] == "warning"]
    assert any(f"{name} is read in two places" in w for w in warnings)


def _one_pile_follower(name: str):
    """A Sir Tommy follower whose game has one card, ``name``, laid on a waste pile at (300, 200), cards 80 px long."""
    session = Session.new("tommy", "standard")
    session.handle(Turn(Card.parse(name)))
    session.handle(Play(Move.parse("S>W0")))
    follower = TommyFollower(session, session.handle)
    follower.size = 80.0
    top = Card.parse(name)
    follower.pos[top] = np.array([300.0, 200.0])
    return follower, top


def test_a_pile_top_read_only_as_a_corner_sized_box_keeps_its_remembered_place():
    """A top's remembered place follows the top when it is nudged, read whole: both corners in a card-sized box.
    Two readings of one corner (a small box, as when a card is being laid on the top) say nothing of where the
    card lies, and must not move it: the next card laid on that pile is looked for one fan step from the top."""
    follower, top = _one_pile_follower("9s")

    def view(center, box):
        return TableView(frame=1, cards={top: Sighting(top, center, box, 1.0, 0.9, 2, 10)}, card_size=80.0)

    follower._follow_drift(view((318.0, 190.0), (308.0, 180.0, 328.0, 200.0)))  # one corner read twice: 20 px
    assert follower.pos[top].tolist() == [300.0, 200.0]
    follower._follow_drift(view((310.0, 205.0), (282.0, 165.0, 338.0, 245.0)))  # the whole card, nudged
    assert follower.pos[top].tolist() == [310.0, 205.0]


def test_a_pile_top_read_a_jump_away_in_one_view_keeps_its_place_until_the_card_on_it_is_read():
    """The first card laid on a pile, in a narrow fan, before it is read: the top's reading takes the newcomer's box
    (a quarter card on). Followed there, the top's place would be where the newcomer lies, and the newcomer, once
    read, a misreading of the top under it (the Numerica video of session 40). A camera drifts a little at a time:
    a top is followed only so far in one view."""
    follower, top = _one_pile_follower("Kd")

    def view(x, y):
        return TableView(frame=1, cards={top: Sighting(top, (x, y), (x - 28, y - 40, x + 28, y + 40), 1.0, 0.9, 2, 10)},
                         card_size=80.0)

    follower._follow_drift(view(322.0, 196.0))  # the box of the Js laid on it, a quarter card on
    assert follower.pos[top].tolist() == [300.0, 200.0]
    follower._follow_drift(view(306.0, 203.0))  # drifted a little
    assert follower.pos[top].tolist() == [306.0, 203.0]


def _fanned_piles_follower():
    """A Sir Tommy follower whose four waste piles hold two cards each, fanned downwards (80 px cards, piles 100 px
    apart): covered Kd Qh Js 10h at y = 100, their tops 9c 7s 5d 4c a fan step (22 px) below."""
    session = Session.new("tommy", "standard")
    follower = TommyFollower(session, session.handle)
    follower.size = 80.0
    for w, (under, top) in enumerate([("Kd", "9c"), ("Qh", "7s"), ("Js", "5d"), ("10h", "4c")]):
        for k, name in enumerate((under, top)):
            session.handle(Turn(Card.parse(name)))
            session.handle(Play(Move.parse(f"S>W{w}")))
            follower.pos[Card.parse(name)] = np.array([100.0 + 100 * w, 100.0 + 22 * k])
    return follower


def _seen(name: str, x: float, y: float, long: float, corners: int) -> Sighting:
    """A card read at (x, y) in a box ``long`` px wide (a strip when shorter than a card) and 0.7 of it high."""
    return Sighting(Card.parse(name), (x, y), (x - long / 2, y - 0.35 * long, x + long / 2, y + 0.35 * long), 1.0,
                    0.9, corners, 10)


def test_covered_cards_of_fanned_piles_read_on_both_top_corners_do_not_move_the_table():
    """A covered card of a fanned pile shows both its top corners in a strip: read "whole", its centre is not the
    card's. Three such readings agreeing on one offset once carried every learned place with them, a tenth of a turn
    and back (the Strategy video of session 41); only uncovered cards (tops, the hand) may show the table moved."""
    follower = _fanned_piles_follower()
    before = {c: p.copy() for c, p in follower.pos.items()}
    strips = [_seen(n, x - 25, 130.0, 56.0, 2) for n, x in (("Kd", 100), ("Qh", 200), ("Js", 300))]  # 0.5 card off
    cards = {s.card: s for s in strips}
    cards[Card.parse("9c")] = _seen("9c", 100.0, 122.0, 80.0, 4)
    assert follower._follow_shift(TableView(frame=1, cards=cards, card_size=56.0)) is None
    assert all(np.array_equal(follower.pos[c], p) for c, p in before.items())


@pytest.mark.parametrize("seed, cam", [(0, Camera()), (0, Camera(angle_deg=90, scale=0.7))])
def test_a_game_whose_covered_cards_show_both_top_corners_is_followed_exactly(seed, cam):
    """A deck with an index in every corner: each covered card of a fanned pile is read on both top corners in a
    strip as wide as the card. It is no card read whole: its centre is not the card's, nor its length a card's."""
    script, final = tommy_script(seed, cam=cam, strips=True)
    assert_followed_exactly(script, final)


def test_a_card_covered_as_it_is_laid_read_as_a_strip_is_laid_under_the_card_on_it():
    """The sweep's game 8 with strips (its camera and faults): the 4h laid and covered by the 2s before it was read
    alone; read as a strip, its place was taken at the strip's centre, and the 2s then lay "between places"."""
    from live_sweep import play

    exact, ended, what = play("tommy", 8, strips=True)
    assert exact, what


def test_a_card_is_measured_on_the_uncovered_cards_when_the_strips_of_covered_ones_outnumber_them():
    """The strips of covered cards read on both top corners are as long as a card is wide: with more of them in view
    than tops the view's median is a card's width, and every distance measured in cards would grow by half."""
    follower = _fanned_piles_follower()
    strips = [_seen(n, 100.0 * w + 100, 100.0, 56.0, 2) for w, n in enumerate(["Kd", "Qh", "Js", "10h"])]
    tops = [_seen(n, 100.0 * w + 100, 122.0, 80.0, 2) for w, n in enumerate(["9c", "7s", "5d"])]
    cards = {s.card: s for s in strips + tops}
    view = TableView(frame=1, cards=cards, card_size=56.0)
    assert follower._measured_size(view) == 80.0


@pytest.mark.parametrize("seed, angle, gap, faults", [
    (2, -7, 1.15, ()), (5, -4, 1.35, ()), (12, 7, 1.35, ()), (5, 12, 1.35, ()), (1, 12, 1.05, ALL_FAULTS),
])
def test_a_poker_grid_first_guessed_a_column_off_is_corrected_when_more_cards_show_it(seed, angle, gap, faults):
    """Two cards far apart leave the grid's tilt and gaps open: a camera turned a few degrees, or gaps wider than
    usual, make the second card's cell a guess. Later cards show the grid; every card then lies in its real cell,
    and the game is the one on the table (the grid fitted to all the cards at once, the game replayed)."""
    script, rows = poker_script(seed, cam=Camera(angle_deg=angle, scale=0.8), gap=gap)
    rng = np.random.default_rng(seed)
    for fault in faults:
        fault(script, rng)
    session = Session.new("poker")
    events = run_script(session, script)
    assert [e["card"] for e in events if e["event"] == "move"] == [e["card"] for e in script.truth if e["event"] == "move"]
    (result,) = [e for e in events if e["event"] == "result"]
    assert result["rows"] == rows


def test_a_placed_poker_card_read_only_at_a_new_spot_is_said_to_be_moved_or_a_misread_new_card():
    """The new card is misread as a placed card while the placed card itself is not read (a hand passed over it):
    from the picture alone that is a moved card or a misread new one, and the warning names both (the game's
    video with gnome-plastic's clubs showed it)."""
    script, _ = poker_script(4, cards=4)
    first, last = script.truth[1]["card"], script.truth[-1]["card"]
    for frame in script.frames[script.truth[-3]["still_frame"] + 1:]:  # the first card unread from here on ...
        frame.cards = [s for s in frame.cards if s.card != first]
    for frame in script.frames[script.truth[-1]["still_frame"]:]:  # ... and the last one misread as it
        frame.cards = [replace(s, card=first) if s.card == last else s for s in frame.cards]
    session = Session.new("poker")
    events = run_script(session, script)
    assert len(session.state.dealt) == 3
    warnings = [e["message"] for e in events if e["event"] == "warning"]
    assert any(f"{first} is read off its cell: if it was moved, put it back; if a new card lies there" in w
               for w in warnings), warnings


def test_a_poker_shuffle_resumed_with_all_25_cards_open_still_takes_the_arrangement():
    """A game saved with the 25 cards laid out and resumed with the camera: where they lie at the restart is where
    they were laid out, so the grid they are moved into is still taken as the arrangement."""
    script, rows = poker_shuffle_script(1)
    laid_out = max(e["still_frame"] for e in script.truth if e["event"] == "card") + 12
    rest = Script(script.rng, script.cam)
    rest.frames, script.frames = script.frames[laid_out:], script.frames[:laid_out]
    session = Session.new("poker", "american-shuffle")
    run_script(session, script)
    assert len(session.state.pending) == 25 and not session.state.history
    events = run_script(session, rest)  # a new LiveGame on the saved game: nothing learned yet
    assert [e["rows"] for e in events if e["event"] == "result"][-1] == rows

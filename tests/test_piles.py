"""Cards on a table grouped into piles, bottom to top (``vision.piles``; ``patience detect --table``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from vision.piles import group_piles
from vision.results import SeenCard

H = 100.0  # a card's long side in pixels
W = 70.0
INDEX = (8.0, 18.0)  # a corner index's box


def whole(name, x, y):
    """A card seen whole: its box, both corners read."""
    return SeenCard(name, 0.9, (x, y, x + W, y + H), corners=2)


def corner(name, x, y):
    """A covered card: only its top-left corner index shows, at (x, y)."""
    return SeenCard(name, 0.8, (x, y, x + INDEX[0], y + INDEX[1]), corners=1)


def fanned_down(names, x, y, step=22.0):
    """A pile fanned downwards: each covered card's top-left index shows above the next card; the last is whole."""
    cards = [corner(n, x + 3, y + 3 + k * step) for k, n in enumerate(names[:-1])]
    return cards + [whole(names[-1], x, y + (len(names) - 1) * step)]


def names(pile):
    return [c.card for c in pile.cards]


def test_a_pile_fanned_downwards_reads_from_its_bottom_card_to_the_top_card_that_shows_whole():
    piles = group_piles(fanned_down(["Kh", "4s", "3c", "2s"], 100, 50))
    assert [names(p) for p in piles] == [["Kh", "4s", "3c", "2s"]]
    assert piles[0].top.card == "2s" and piles[0].top_known


def test_neighbouring_piles_stay_apart_and_come_in_reading_order():
    table = (fanned_down(["Qh", "10c", "9c"], 300, 50) + fanned_down(["4d", "6c"], 220, 50)
             + fanned_down(["Kh", "4s", "3c"], 140, 50) + [whole("Ad", 140, 250)])
    piles = group_piles(table)
    assert [names(p) for p in piles] == [["Kh", "4s", "3c"], ["4d", "6c"], ["Qh", "10c", "9c"], ["Ad"]]


def test_a_run_of_corners_with_no_card_seen_whole_is_a_pile_whose_top_is_not_known():
    piles = group_piles([whole("Ad", 400, 300)] + [corner(n, 100, 50 + 22 * k) for k, n in enumerate(["5h", "6h", "7h"])],
                        size=H)
    run = [p for p in piles if not p.top_known]
    assert len(run) == 1 and sorted(names(run[0])) == ["5h", "6h", "7h"]
    assert run[0].to_json()["top"] is None


def test_an_empty_table_has_no_piles():
    assert group_piles([]) == []


def test_detect_table_groups_a_rendered_sir_tommy_table_into_piles():
    image = Path(__file__).parent / "fixtures" / "rendered_tommy.jpg"
    truth = json.loads(image.with_suffix(".json").read_text())
    out = subprocess.run([sys.executable, "-m", "assistant.cli", "detect", "--table", "--json", str(image)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    piles = json.loads(out.stdout)["piles"]
    tops = {p["top"] for p in piles if p["top"]}
    assert len(tops) >= 6 and tops <= set(truth["card_boxes"])  # the whole cards of the table are the piles' tops
    seen = [c for p in piles for c in p["cards"]]
    assert len(seen) == len(set(seen))  # each card in one pile only

"""Scripted games by the hundred through the camera's event logic (no model): how many it follows wrong.

    .venv/bin/python tests/live_sweep.py tommy 100 220        # seeds 100-219
    .venv/bin/python tests/live_sweep.py tommy-quick 0 100    # every card laid straight from the stock
    .venv/bin/python tests/live_sweep.py tommy 0 40 --variant calculation    # another Sir Tommy variant
    .venv/bin/python tests/live_sweep.py poker 0 60 --nudge 0.7    # the camera nudged halfway through each game
    .venv/bin/python tests/live_sweep.py poker 0 100 --columns-overlap 0.35    # each card over its neighbour's edge

Each seed draws its own camera (a quarter or slight turn, a mirror, a scale) and, for the faulty kinds, the
suite's faults at their rates (tests/live_sim.py). A game counts wrong when its card and move events are not the
table's; "same end" when the end position (Poker: the grid) is the table's all the same (Sir Tommy: a card laid
on a waste pile and played up at once, read only on its foundation; Poker: two cards placed in the other order).
Kinds: tommy (one card at a time), tommy-quick (no card shown at a turned spot, no faults), four-row and four-hand
(four at a time, a row beside the stock or from the hand), poker, poker-quick (hands over every third card until
the next is laid); ``--variant`` plays tommy and tommy-quick by another one-card-at-a-time Sir Tommy variant
(its redeals too: the waste piles gathered and turned again); ``--nudge D`` moves the camera halfway through each
game, D card sizes in a direction drawn from the seed, turned by up to 8 degrees and 7 % nearer or further. A
sweep, not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from live_sim import (H, Camera, four_at_a_time_script, halfway_motion, hands_while_it_lies, poker_script,  # noqa: E402
                      run_script, table_moved, tommy_script)
from test_live_events import ALL_FAULTS, batches_of, events_of, truth_of  # noqa: E402

from assistant.session import Session  # noqa: E402

KINDS = ("tommy", "tommy-quick", "four-row", "four-hand", "poker", "poker-quick")


def _camera(rng, scale: tuple[float, float]) -> Camera:
    return Camera(angle_deg=float(rng.choice([0, 90, 180, 270, -25, 15])), mirror=bool(rng.random() < 0.3),
                  scale=float(rng.uniform(*scale)))


def play(kind: str, seed: int, tommy_variant: str = "standard", nudge: float = 0.0,
         strips: bool = False, rows_overlap: float = 0.0, columns_overlap: float = 0.0) -> tuple[bool, bool, str]:
    """(followed exactly, ended right, what differed first) for one scripted game of ``kind``."""
    rng = np.random.default_rng(seed)
    if kind.startswith("poker"):
        cam = _camera(rng, (0.5, 0.9))
        variant = str(rng.choice(["american", "english", "american-adjacent"]))
        corners = 1 + int(np.random.default_rng(seed + 300).random() < 0.5)  # the deck's indices: 2 or 4
        script, rows = poker_script(seed, cam=cam, gap=float(rng.uniform(1.05, 1.4)),
                                    adjacent=variant.endswith("adjacent"), rows_overlap=rows_overlap,
                                    covered_corners=corners, columns_overlap=columns_overlap)
        if kind == "poker-quick":
            for e in script.truth[2:-2:6]:
                hands_while_it_lies(script, e["still_frame"])
    else:
        cam = _camera(rng, (0.7, 1.1))
        beside = bool(rng.random() < 0.3)
        variant = tommy_variant if kind.startswith("tommy") else "four-at-a-time"
        if kind.startswith("four"):
            script, final = four_at_a_time_script(seed, cam=cam, in_row=kind == "four-row", piles_beside=beside)
        else:
            script, final = tommy_script(seed, cam=cam, piles_beside=beside,
                                         quick_share=1.0 if kind == "tommy-quick" else 0.5, variant=variant,
                                         redeals=True, strips=strips)
    if kind != "tommy-quick":
        faults = np.random.default_rng(seed + 100)
        for fault in ALL_FAULTS:
            fault(script, faults)
    if nudge:
        rng = np.random.default_rng(seed + 200)
        turn = rng.uniform(0, 2 * np.pi)
        offset = nudge * H * script.cam.scale * np.array([np.cos(turn), np.sin(turn)])
        table_moved(script, halfway_motion(script), offset, rng.uniform(-8.0, 8.0), rng.uniform(0.93, 1.07))
    session = Session.new("poker" if kind.startswith("poker") else "tommy", variant)
    events = run_script(session, script)
    if kind.startswith("poker"):
        got = [e["card"] for e in events if e["event"] == "move"]
        want = [e["card"] for e in script.truth if e["event"] == "move"]
        result = [e for e in events if e["event"] == "result"]
        ended = bool(result) and result[0]["rows"] == rows
    else:
        shape = batches_of if kind.startswith("four") else (lambda x: x)
        got, want = shape(events_of(events)), shape(truth_of(script))
        ended = session.state.foundations == final.foundations and session.state.waste == final.waste
    i = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    return got == want and ended, ended, f"at {i}: got {got[i:i + 2]}, table {want[i:i + 2]}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=KINDS)
    parser.add_argument("first", type=int)
    parser.add_argument("end", type=int, help="seeds first..end-1")
    parser.add_argument("--variant", default="standard", help="Sir Tommy variant of tommy and tommy-quick")
    parser.add_argument("--nudge", type=float, default=0.0, help="card sizes the camera moves halfway (default 0)")
    parser.add_argument("--strips", action="store_true",
                        help="Sir Tommy: covered cards read on both top corners, in a strip (a corner index each)")
    parser.add_argument("--rows-overlap", type=float, default=0.0,
                        help="Poker: the rows overlap by this share of a card height (covered cards read on one "
                        "corner or, a deck with four indices, on two in a strip)")
    parser.add_argument("--columns-overlap", type=float, default=0.0,
                        help="Poker: the columns overlap by this share of a card width (covered cards read on one "
                        "corner or, a deck with four indices, on two in a strip)")
    args = parser.parse_args(argv)
    if args.variant != "standard" and not args.kind.startswith("tommy"):
        parser.error("--variant goes with tommy and tommy-quick")
    if args.variant == "four-at-a-time":
        parser.error("four at a time: the kinds four-row and four-hand")
    wrong, same_end = [], []
    for seed in range(args.first, args.end):
        exact, ended, what = play(args.kind, seed, args.variant, args.nudge, args.strips, args.rows_overlap,
                                  args.columns_overlap)
        if not exact:
            (same_end if ended else wrong).append(seed)
            print(f"seed {seed}: {'same end' if ended else 'WRONG'} {what}", flush=True)
    n = args.end - args.first
    kind = args.kind if args.variant == "standard" else f"{args.kind} {args.variant}"
    kind += f" nudged {args.nudge}" if args.nudge else ""
    kind += " strips" if args.strips else ""
    kind += f" rows overlapping {args.rows_overlap}" if args.rows_overlap else ""
    kind += f" columns overlapping {args.columns_overlap}" if args.columns_overlap else ""
    print(f"{kind} seeds {args.first}-{args.end - 1}: {n - len(wrong) - len(same_end)} of {n} exact, "
          f"{len(same_end)} with the same end {same_end}, {len(wrong)} wrong {wrong}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

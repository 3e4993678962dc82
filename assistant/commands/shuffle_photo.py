"""``patience shuffle-photo``: photograph 25 cards, get the best Poker Shuffle arrangement (rules/004, "Varianten").

004: "Poker Shuffle: Alle 25 Karten liegen zuerst offen aus, dann ordnest du sie beliebig an. Gewonnen ist ab 310
Punkten (amerikanisch) oder 120 (englisch)."

``patience shuffle-photo IMAGE`` reads the cards in the photo (any layout: a heap, rows, a fan, as long as each
card's corner index shows; cards laid out in a 5x5 grid are read cell by cell, as ``score-photo`` does), arranges
them with the Poker Shuffle solver (simulated annealing, assistant/advisors/shuffle_solver.py; a fixed, seeded
amount of work, so the same photo always gives the same arrangement) and prints the arrangement as a grid with its
hands and score against the thresholds (310 / 120). ``--scoring both`` (the default) arranges for each scoring on
its own.

``--json``: ``{"image": ..., "cards": [25 names], "arrangements": {"american": {"rows": [[5] x 5], "score": int,
"threshold": 310, "won": bool}, ...}, "warnings": [...]}``.

Exit code: 0 with an arrangement; 1 when the photo does not show exactly 25 cards (it says how many it read);
2 for a missing or unreadable file.
"""

from __future__ import annotations

import argparse
import json

from assistant.cli import UserError

THRESHOLDS = {"american": 310, "english": 120}
# Fixed work: this many annealing runs (ITERATIONS swaps each), seeded: ~1 s a scoring on one core.
RESTARTS = 8
SEED = 2024


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "shuffle-photo",
        help="the best Poker Shuffle arrangement of the 25 cards in a photo",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("image", metavar="IMAGE", help="a photo of the 25 cards, in any layout")
    from assistant.commands.score_photo import add_common_arguments

    add_common_arguments(parser)
    parser.add_argument("--restarts", type=int, default=RESTARTS, metavar="N",
                        help=f"annealing runs per scoring (default {RESTARTS}; more finds better arrangements, slower)")
    parser.set_defaults(func=run)


def arrange(names: list[str], scoring: str, restarts: int = RESTARTS, seed: int = SEED) -> dict:
    """The best arrangement found for 25 card names under ``scoring``: rows, score, threshold, won."""
    import numpy as np

    from assistant.advisors.shuffle_solver import solve
    from assistant.cards import Card

    result = solve([Card.parse(n) for n in names], scoring, np.random.default_rng(seed), restarts=restarts)
    t = THRESHOLDS[scoring]
    return {"rows": [[str(c) for c in row] for row in result.rows()], "score": result.score, "threshold": t,
            "won": result.score >= t}


def run(args) -> int:
    from pathlib import Path

    from assistant.commands.score_photo import load_detector, read_photo, report_error

    if args.restarts < 1:
        raise UserError(f"--restarts {args.restarts}: give 1 or more")
    path = Path(args.image)
    if not path.exists():
        report_error(args, "shuffle-photo", args.image, "no such file: check the path")
        return 2
    if path.is_dir():
        report_error(args, "shuffle-photo", args.image, "is a folder: give one photo")
        return 2
    try:
        image = read_photo(path)
    except ValueError as exc:
        report_error(args, "shuffle-photo", args.image, str(exc))
        return 2
    from assistant.commands.score_photo import read_grid

    detector = load_detector(args)
    # cards laid in rows are read cell by cell (with the deck rule); any other layout card by card
    reading, result = read_grid(detector, image)
    grid_cards = [n for n in reading.cells if n is not None]
    if len(grid_cards) == 25 and not reading.warnings:
        names = grid_cards
    else:
        names = list({c.card for c in result.cards})
    names = sorted(names, key=_card_index)
    obj: dict = {"image": args.image, "cards": names, "arrangements": {}, "warnings": []}
    if len(names) != 25:
        obj["warnings"].append(f"{len(names)} cards read, Poker Shuffle arranges 25: "
                               + ("lay out or uncover the missing cards" if len(names) < 25 else
                                  "take away the extra cards") + " and take the photo again")
    else:
        scorings = ("american", "english") if args.scoring == "both" else (args.scoring,)
        for s in scorings:
            obj["arrangements"][s] = arrange(names, s, args.restarts)
    if args.json:
        print(json.dumps(obj), flush=True)
    else:
        _print(obj)
    return 1 if obj["warnings"] else 0


def _card_index(name: str) -> int:
    from assistant.cards import Card

    return Card.parse(name).index


def _print(obj: dict) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from assistant.cards import Card
    from assistant.commands.score_photo import score_reading

    def card_text(name) -> Text:
        c = Card.parse(name)
        return Text(c.pretty, style="red" if c.suit.is_red else "bold")

    console = Console()
    cards = Text(" ").join(card_text(n) for n in obj["cards"])
    console.print(Text(f"{obj['image']}: {len(obj['cards'])} cards read: ") + cards)
    for scoring, arr in obj["arrangements"].items():
        grid = Table(title=f"Best arrangement found, {scoring.capitalize()} scoring", header_style="dim")
        grid.add_column("")
        for c in range(1, 6):
            grid.add_column(f"col {c}", justify="center")
        grid.add_column("hand")
        lines = score_reading(arr["rows"])["lines"]
        for r, row in enumerate(arr["rows"]):
            grid.add_row(f"row {r + 1}", *[card_text(n) for n in row], f"{lines[r]['hand']} ({lines[r][scoring]})")
        grid.add_row("", *[f"{lines[5 + c]['hand']} ({lines[5 + c][scoring]})" for c in range(5)], "")
        console.print(grid)
        verdict = "[green]won[/]" if arr["won"] else "[yellow]not reached[/]"
        console.print(f"{scoring.capitalize()}: {arr['score']} points, Poker Shuffle win at {arr['threshold']}: "
                      f"{verdict}")
    for w in obj["warnings"]:
        console.print(f"[yellow]warning:[/] {w}")

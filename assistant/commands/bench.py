"""``patience bench tommy|poker|shuffle``: play many games with the advisors and print figures;
``patience bench score-photo``: read labelled photos of dealt grids; ``patience bench camera``: follow rendered
game videos with the live assistant; ``patience bench typefaces``: corner indices printed in other typefaces."""

from __future__ import annotations

import importlib

BENCHMARKS = {
    "tommy": ("assistant.benchmarks.tommy", "Sir Tommy: win rate of the advisor (and the perfect-information ceiling)"),
    "poker": ("assistant.benchmarks.poker", "Poker Patience: mean score of the advisor, American or English"),
    "shuffle": ("assistant.benchmarks.shuffle", "Poker Shuffle: mean score of the best arrangement found per set"),
    "score-photo": ("assistant.benchmarks.score_photo",
                    "Poker Patience photos: grids and cells read right, ms per photo (labelled photos)"),
    "take-over": ("assistant.benchmarks.take_over",
                  "Sir Tommy tables under way read from photos: tables, tops and pile cards right (labelled photos)"),
    "tips": ("assistant.benchmarks.tips", "the rules' tips alone: win rate / mean score of players who follow only tips"),
    "camera": ("assistant.benchmarks.camera",
               "the live camera assistant on rendered game videos: games recovered, moves, latency, ms a frame"),
    "typefaces": ("assistant.benchmarks.typefaces",
                  "corner indices in typefaces and court letters of no trained design: how many are read"),
    "replay": ("assistant.benchmarks.replay", "check benchmark logs: every move legal, results as recorded"),
}


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("bench", help="measure the advisors' strength and speed", description=__doc__)
    inner = parser.add_subparsers(dest="benchmark", metavar="GAME", required=True)
    for name, (module_name, help_text) in BENCHMARKS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue  # not built yet
            raise
        sub = inner.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(sub)
        sub.set_defaults(func=module.run)

"""Labelled photos of Sir Tommy tables under way, for measuring how a game is taken over from one look.

Each photo is the last frame of a rendered game video (``vision.training.game_video``: a seeded player turned
12-40 cards, the table still, no card in hand) of a card design held out of training, at 1280x720 or 1920x1080,
cards 12-20 % of the picture's height, with the videos' camera, light and noise. ``NAME.jpg.json`` holds the truth
as ``assistant.take_over`` reads a table: ``foundations``, the tops (None: empty) in reading order (along the row,
or down a column beside the waste piles), and ``waste``, the waste piles left to right, each bottom card first
(empty ones last), as the piles lie on the image.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np

SIZES = ((1280, 720), (1920, 1080))


def write_table_set(folder: Path, n: int, seed: int = 0) -> list[Path]:
    """Render ``n`` labelled table photos into ``folder``; FileNotFoundError without the artwork."""
    import cv2

    from assistant.games.kinds import GAME_KINDS
    from vision.training import artwork
    from vision.training.game_video import VideoOptions, deck_faces, render_game

    index = artwork.CACHE / "cards" / "decks.json"
    if not index.exists():
        raise FileNotFoundError("no card artwork yet: run `patience dataset fetch` first")
    info = json.loads(index.read_text())
    decks = sorted(name for name, meta in info.items() if meta["held_out"] and not meta.get("procedural"))
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng([seed, 2024])
    written = []
    for i in range(n):
        deck = decks[i % len(decks)]
        game_seed = seed * 1000 + i
        turns = int(rng.integers(12, 41))
        width, height = SIZES[int(rng.integers(len(SIZES)))]
        lo = float(rng.uniform(0.12, 0.17))
        options = VideoOptions(width=width, height=height, fps=6.0, speed=2.0, card_height=(lo, lo + 0.03))
        script = GAME_KINDS["tommy"].video_script(game_seed, "standard", turns=turns)
        with tempfile.TemporaryDirectory() as tmp:
            truth = render_game(script, deck_faces(deck), Path(tmp) / "game", seed=game_seed, options=options,
                                meta={"deck": deck})
            capture = cv2.VideoCapture(str(Path(tmp) / "game.mp4"))
            capture.set(cv2.CAP_PROP_POS_FRAMES, truth["frames"] - 1)
            ok, image = capture.read()
            capture.release()
        if not ok:
            raise RuntimeError(f"table {i}: the rendered video could not be read back")
        name = f"table_{i:03d}.jpg"
        cv2.imwrite(str(folder / name), image, [cv2.IMWRITE_JPEG_QUALITY, 88])
        label = {"deck": deck, "turns": turns, "size": [width, height], **table_truth(truth)}
        (folder / (name + ".json")).write_text(json.dumps(label, indent=1))
        written.append(folder / name)
    return written


def table_truth(truth: dict) -> dict:
    """The foundations' tops and the waste piles of a rendered game's end, in the order they lie on the image."""
    from assistant.games.tommy import TommyState

    state = TommyState("standard")
    for event in truth["events"]:
        state.turn(event["card"]) if event["event"] == "card" else state.apply(event["move"])
    layout = truth["layout"]
    down = np.asarray(layout["fan_step"], dtype=np.float64)
    down /= np.hypot(*down)
    across = np.array([down[1], -down[0]])

    width = 0.5 * layout["camera"]["card_height_px"]

    def order(places):  # along the row; places within half a card's width across are one column, read downwards
        xy = np.asarray(places, dtype=np.float64)
        columns: list[list[int]] = []
        for i in sorted(range(len(places)), key=lambda i: float(xy[i] @ across)):
            if columns and float((xy[i] - xy[columns[-1][-1]]) @ across) <= width:
                columns[-1].append(i)
            else:
                columns.append([i])
        return [i for column in columns for i in sorted(column, key=lambda i: float(xy[i] @ down))]

    tops = [str(state.foundations[i][-1]) if state.foundations[i] else None for i in order(layout["foundations"])]
    waste = [[str(c) for c in state.waste[i]] for i in order(layout["waste"])]
    return {"arrangement": layout["camera"]["arrangement"],
            "foundations": [t for t in tops if t] + [None] * tops.count(None),
            "waste": [p for p in waste if p] + [[] for p in waste if not p]}

"""``--show``: the camera picture with the cards of the still view boxed and named, and the hinted place ringed."""

from __future__ import annotations

import numpy as np


def draw_overlay(image: np.ndarray, game) -> np.ndarray:
    import cv2

    out = image.copy()
    view = game.view
    if view is not None:
        for card, s in view.cards.items():
            x1, y1, x2, y2 = (int(round(v)) for v in s.box)
            colour = (40, 40, 230) if card.suit.is_red else (230, 120, 0)
            cv2.rectangle(out, (x1, y1), (x2, y2), colour, 2)
            cv2.putText(out, str(card), (x1, max(12, y1 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2, cv2.LINE_AA)
    target = hinted_position(game)
    if target is not None:
        r = int(max(12, 0.4 * getattr(game.follower, "size", 0) or 30))
        cv2.circle(out, (int(target[0]), int(target[1])), r, (0, 220, 0), 3, cv2.LINE_AA)
    status = game.status
    text = f"{status.fps:.1f} fps  {'moving' if status.moving else 'still'}  {status.message}"
    cv2.putText(out, text, (10, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 3, cv2.LINE_AA)
    cv2.putText(out, text, (10, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (20, 20, 20), 1, cv2.LINE_AA)
    return out


def hinted_position(game):
    """Where the best option of the current hint puts its card on the image, if that place is known."""
    hint = game.published.hint
    if hint is None or not hint.options:
        return None
    try:
        return game.follower.hinted_position(hint.options[0].moves[0])
    except ValueError:
        return None

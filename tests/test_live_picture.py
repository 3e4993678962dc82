"""The camera panel says when the reader brightens a dim picture or sharpens a soft one: the player can fix the light
or hold a card further away."""
import cv2
import numpy as np
from types import SimpleNamespace

from assistant.live.loop import PICTURE_EVERY, LiveGame, picture_condition
from assistant.session import Session


def table(light=1.0, blur=0.0) -> np.ndarray:
    image = np.empty((480, 640, 3), np.uint8)
    image[:] = (40, 110, 30)
    image[100:300, 200:350] = 240
    image[120:150, 210:230] = 20
    image = (image * light).astype(np.uint8)
    return cv2.GaussianBlur(image, (0, 0), blur) if blur else image


def test_a_well_lit_crisp_frame_has_nothing_to_say():
    assert picture_condition(table()) == ""


def test_dim_light_and_soft_focus_are_named_with_what_helps():
    assert picture_condition(table(0.35)).startswith("dim light: brightened (more light")
    assert picture_condition(table(blur=2.5)).startswith("soft focus: sharpened")
    assert picture_condition(table(0.35, blur=2.5)).count(":") == 2


def test_the_panel_status_follows_the_light_about_once_a_second():
    read = lambda image, previous: SimpleNamespace(cards=[])  # noqa: E731 - no model: no cards
    game = LiveGame(Session.new("tommy", "standard"), read=read, publish=lambda e: None, hints=False)
    game.process(0, table(0.35))
    assert game.status.picture.startswith("dim light")
    for i in range(1, PICTURE_EVERY + 1):
        game.process(i, table())
    assert game.status.picture == ""


def test_a_grey_camera_is_named_because_red_suits_then_read_as_black():
    grey = cv2.cvtColor(cv2.cvtColor(table(), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert picture_condition(grey).startswith("no colour: red suits may be read as black")
    assert "no colour" not in picture_condition(table())

"""``patience bench typefaces``: drawn corner indices go to the reader exactly as drawn, and are counted fairly."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from assistant.benchmarks import typefaces as B  # noqa: E402
from assistant.cli import UserError  # noqa: E402
from vision.crops import index_crop  # noqa: E402


@pytest.mark.parametrize("pad", [0.15, 0.04])
def test_the_reader_cuts_each_drawn_index_back_out_of_the_mosaic_unchanged(pad):
    rng = np.random.default_rng(3)
    crops = [rng.integers(0, 256, (64, 64, 3), dtype=np.uint8) for _ in range(7)]
    image, boxes = B.mosaic(crops, pad)
    assert image.shape == (3 * 64, 3 * 64, 3) and len(boxes) == 7
    for crop, box in zip(crops, boxes):
        assert np.array_equal(index_crop(image, box, 64, pad), crop)


def test_right_wrong_and_no_index_are_counted_by_whole_name_and_ranks_by_rank():
    result = B.score(["Js", "Js", "Qh", "10d"], ["Js", "Jc", None, "10d"])
    assert (result["cards"], result["right"], result["wrong"], result["none"]) == (4, 2, 1, 1)
    assert result["rank_right"]["J"] == 2 and result["rank_right"]["Q"] == 0 and result["rank_right"]["10"] == 1


def _args(**kw):
    base = dict(per_card=1, seed=0, letters="en", fonts="held-out", model=None, threads=1, json=True)
    return argparse.Namespace(**{**base, **kw})


@pytest.mark.parametrize("kw, message", [({"letters": "en,xx"}, "choose from"), ({"per_card": 0}, "1 or more")])
def test_bad_options_are_refused_plainly(kw, message):
    pytest.importorskip("PIL")
    with pytest.raises(UserError, match=message):
        B.run(_args(**kw))

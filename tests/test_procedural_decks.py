"""Procedurally drawn decks (vision/training/procedural_decks.py): faces in the artwork cache's form, an exact
index box, seeded, declared suit colours; written into a cache that artwork.load_decks and the scene builder read.
Needs no Debian artwork and no font cache (ranks in cv2's Hershey fonts; DejaVu when the system has it)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PIL")
cv2 = pytest.importorskip("cv2")

from vision.card_names import CARD_NAMES  # noqa: E402
from vision.training import procedural_decks as pd  # noqa: E402


def _system_fonts() -> list[Path]:
    found = sorted(Path("/usr/share/fonts").rglob("DejaVuSans*.ttf")) if Path("/usr/share/fonts").is_dir() else []
    return found[:2]


@pytest.fixture(scope="module")
def hershey_deck():
    return pd.draw_deck(np.random.default_rng([5, pd.PROC_STREAM, 0]), [])


@pytest.fixture(scope="module")
def four_colour_deck():
    return pd.draw_deck(np.random.default_rng([6, pd.PROC_STREAM, 1]), _system_fonts(), four_colour=True)


def _ink(face: np.ndarray, thresh: float = 60) -> np.ndarray:
    """Pixels far from the paper (the commonest colour of the card)."""
    cols, counts = np.unique(face[:, :, :3][face[:, :, 3] == 255].reshape(-1, 3) // 8, axis=0, return_counts=True)
    paper = cols[counts.argmax()] * 8 + 4
    diff = np.abs(face[:, :, :3].astype(np.int16) - paper.astype(np.int16)).max(axis=2)
    return (diff > thresh) & (face[:, :, 3] == 255)


def _box_px(face, box):
    h, w = face.shape[:2]
    return int(np.floor(box[0] * w)), int(np.floor(box[1] * h)), int(np.ceil(box[2] * w)), int(np.ceil(box[3] * h))


@pytest.mark.parametrize("deck", ["hershey_deck", "four_colour_deck"])
def test_52_distinct_faces_in_the_cache_form(deck, request):
    faces, meta = request.getfixturevalue(deck)
    assert sorted(faces) == sorted(CARD_NAMES)
    shapes = {f.shape for f in faces.values()}
    assert len(shapes) == 1
    h, w, c = shapes.pop()
    assert (w, c) == (pd.RASTER_WIDTH, 4) and 1.36 <= h / w <= 1.47
    for f in faces.values():
        assert f.dtype == np.uint8
        assert f[0, 0, 3] < 64 and f[-1, -1, 3] < 64 and f[0, -1, 3] < 64  # rounded transparent corners
        assert (f[h // 4 : 3 * h // 4, w // 4 : 3 * w // 4, 3] == 255).all()
    flat = {f.tobytes() for f in faces.values()}
    assert len(flat) == 52


@pytest.mark.parametrize("deck", ["hershey_deck", "four_colour_deck"])
def test_index_box_holds_all_index_ink_of_both_corners_and_nothing_else_near(deck, request):
    faces, meta = request.getfixturevalue(deck)
    box = meta["index_box"]
    assert 0 <= box[0] < box[2] < 0.5 and 0 <= box[1] < box[3] < 0.5
    margin = 5
    for name, face in faces.items():
        for f in (face, face[::-1, ::-1]):  # the bottom-right corner is the top-left one turned by 180 degrees
            ink = _ink(f)
            x0, y0, x1, y1 = _box_px(f, box)
            near = ink[max(0, y0 - margin) : y1 + margin, max(0, x0 - margin) : x1 + margin].copy()
            near[y0 - max(0, y0 - margin) : y1 - max(0, y0 - margin), x0 - max(0, x0 - margin) : x1 - max(0, x0 - margin)] = False
            assert near.sum() == 0, f"{name}: ink outside the index box but next to it"
            assert ink[y0:y1, x0:x1].sum() > 20, f"{name}: no index in the box"
    lo = np.array([1e9, 1e9])
    hi = np.array([-1, -1])
    for face in faces.values():
        x0, y0, x1, y1 = _box_px(face, box)
        ys, xs = np.nonzero(_ink(face)[y0:y1, x0:x1])
        lo = np.minimum(lo, [xs.min(), ys.min()])
        hi = np.maximum(hi, [xs.max(), ys.max()])
    assert lo.max() <= 2 and (np.array([x1 - x0, y1 - y0]) - 1 - hi).max() <= 2  # tight on all four sides


def test_same_seed_same_pixels_other_seed_other_style():
    a, ma = pd.draw_deck(np.random.default_rng([1, pd.PROC_STREAM, 3]), [])
    b, mb = pd.draw_deck(np.random.default_rng([1, pd.PROC_STREAM, 3]), [])
    assert ma == mb and all(np.array_equal(a[n], b[n]) for n in CARD_NAMES)
    others = [pd.draw_deck(np.random.default_rng([1, pd.PROC_STREAM, k]), [])[1] for k in (4, 5)]
    for m in others:
        assert m["index_box"] != ma["index_box"] or m["suit_colours"] != ma["suit_colours"]


def _index_colour(face, box):
    return pd.ink_colour_of(face, box).astype(float)


def test_classic_deck_prints_red_and_black_as_declared(hershey_deck):
    faces, meta = hershey_deck
    assert not meta["style"]["four_colour"]
    cols = meta["suit_colours"]
    assert cols["s"] == cols["c"] and cols["h"] == cols["d"]
    for name in ("Ah", "7d", "Qh", "10d"):
        b, g, r = _index_colour(faces[name], meta["index_box"])
        assert r > 100 and r > g + 60 and r > b + 30, name
    for name in ("As", "7c", "Qs", "10c"):
        assert _index_colour(faces[name], meta["index_box"]).max() < 130, name
    for name in CARD_NAMES:
        got = _index_colour(faces[name], meta["index_box"])
        assert np.abs(got - np.array(cols[name[-1]])).max() < 40, name


def test_four_colour_deck_gives_each_suit_its_own_colour(four_colour_deck):
    faces, meta = four_colour_deck
    cols = {s: np.array(v) for s, v in meta["suit_colours"].items()}
    assert meta["style"]["four_colour"]
    for a in "shdc":
        for b in "shdc":
            if a < b:
                assert np.abs(cols[a] - cols[b]).max() > 60, (a, b)
    for name in ("2c", "9c", "Kd", "5d", "Ah", "Js"):
        got = _index_colour(faces[name], meta["index_box"])
        assert np.abs(got - cols[name[-1]]).max() < 40, name


def test_written_decks_are_listed_loaded_and_kept_apart(tmp_path):
    cache = tmp_path / "cache"
    (cache / "cards" / "art-deck").mkdir(parents=True)
    art, _ = pd.draw_deck(np.random.default_rng(9), [])
    for n, f in art.items():  # a stand-in artwork deck, held out
        cv2.imwrite(str(cache / "cards" / "art-deck" / f"{n}.png"), f)
    (cache / "cards" / "decks.json").write_text(json.dumps({"art-deck": {"index_box": [0.05, 0.05, 0.2, 0.2],
                                                                         "held_out": True}}))
    done = []
    made = pd.write_procedural_decks(2, seed=3, cache=cache, fonts=[], progress=done.append)
    assert done == [1, 2] and sorted(made) == ["proc-s3-000", "proc-s3-001"]
    info = json.loads((cache / "cards" / "decks.json").read_text())
    assert info["art-deck"] == {"index_box": [0.05, 0.05, 0.2, 0.2], "held_out": True}
    assert all(info[n]["procedural"] and not info[n]["held_out"] for n in made)
    from vision.training.artwork import load_decks

    assert sorted(load_decks(cache)) == ["art-deck"]  # default: artwork decks only
    assert sorted(load_decks(cache, held_out=True, procedural=None)) == ["art-deck"]  # never held out
    proc = load_decks(cache, held_out=False, procedural=True)
    assert sorted(proc) == sorted(made)
    face = proc["proc-s3-000"][0]
    assert face.image.shape[1] == pd.RASTER_WIDTH and face.index_box == tuple(made["proc-s3-000"]["index_box"])

    from vision.training import synth

    decks = load_decks(cache, held_out=True)
    rng = [np.random.default_rng(k) for k in range(40)]
    picked = [{f.deck for f in synth.pick_faces(decks, r, proc, share=0.5)} for r in rng]
    assert any(p <= set(made) for p in picked) and any(p == {"art-deck"} for p in picked)
    # share 0 uses the generator exactly as before the procedural decks existed
    a = synth.pick_faces(decks, np.random.default_rng(1), proc, share=0.0)
    b = synth.pick_faces(decks, np.random.default_rng(1))
    assert [f.name for f in a] == [f.name for f in b]
    assert all(f.deck == "art-deck" for f in synth.pick_faces(decks, np.random.default_rng(2), proc, share=0.0))
    assert all(f.deck in made for f in synth.pick_faces(decks, np.random.default_rng(2), proc, share=1.0))


def test_validation_tables_never_use_procedural_decks(tmp_path):
    cache = tmp_path / "cache"
    pd.write_procedural_decks(1, seed=4, cache=cache, fonts=[])
    info = json.loads((cache / "cards" / "decks.json").read_text())
    info["held"] = {"index_box": info["proc-s4-000"]["index_box"], "held_out": True}
    (cache / "cards" / "held").symlink_to(cache / "cards" / "proc-s4-000")
    (cache / "cards" / "decks.json").write_text(json.dumps(info))
    from vision.training import synth

    synth._init(str(cache), "val", procedural_share=1.0)
    assert synth._SHARE == 0.0 and sorted(synth._DECKS) == ["held"]
    synth._init(str(cache), "train", procedural_share=0.3)
    assert synth._SHARE == 0.3 and sorted(synth._PROCEDURAL) == ["proc-s4-000"] and synth._DECKS == {}
    synth._init(str(cache), "train", 0.0)  # leave the module as the default build has it

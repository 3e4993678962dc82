"""The stream trainer's parts that need no artwork: the crop buffer, the scene jobs, the GPU-side variety and the
classifier shapes (the torch parts are skipped where torch is not installed, as in CI)."""

from pathlib import Path

import numpy as np
import pytest

from vision.training.stream_train import ARCHS, CROP, NONE_ID, CropBuffer, _jobs


def test_the_buffer_keeps_the_newest_crops_when_full():
    buf = CropBuffer(capacity=5)
    for k in range(3):
        x = np.full((3, CROP, CROP, 3), k, np.uint8)
        buf.add(x, np.array([k, k, NONE_ID], np.int16), "fan" if k else "tommy")
    assert buf.n == 5 and buf.written == 9 and buf.scenes == 3
    assert buf.layouts == {"tommy": 1, "fan": 2}
    # slots 0..4 were written by crops 5..8 and 4: the first scene's crops are gone
    assert set(buf.x[:, 0, 0, 0].tolist()) == {1, 2}
    xb, yb = buf.sample(np.random.default_rng(0), 64)
    assert xb.shape == (64, CROP, CROP, 3) and set(yb.tolist()) <= {1, 2, NONE_ID}


def test_scene_jobs_are_numbered_and_a_share_are_fanned_hands():
    jobs = list(_jobs(3, "train", 10, 0.3, 12.0, 0.7, count=2000))
    assert [j[2] for j in jobs[:3]] == [10, 11, 12] and len(jobs) == 2000
    fans = sum(j[3] == "fan" for j in jobs)
    assert 0.25 < fans / len(jobs) < 0.35
    assert {j[3] for j in jobs} == {"fan", None}
    assert jobs == list(_jobs(3, "train", 10, 0.3, 12.0, 0.7, count=2000))  # seeded: the same jobs again


def test_a_share_of_the_jobs_draw_indices_in_fonts_and_the_other_jobs_stay_the_scenes_they_were():
    plain = list(_jobs(3, "train", 10, 0.3, 12.0, 0.7, count=2000))
    mixed = list(_jobs(3, "train", 10, 0.3, 12.0, 0.7, count=2000, glyph_share=0.25))
    glyphs = [m for m in mixed if m[3] == "glyphs"]
    assert 0.2 < len(glyphs) / len(mixed) < 0.3
    assert all(m == p for m, p in zip(mixed, plain) if m[3] != "glyphs")


def test_a_glyph_job_draws_its_cards_in_the_fonts_of_its_split_the_same_each_time(monkeypatch):
    pytest.importorskip("PIL")
    from test_index_glyphs import FONT

    from vision.training import stream_train

    if FONT is None:
        pytest.skip("no DejaVu Sans TTF on this system")
    monkeypatch.setattr(stream_train, "_FONTS", {"train": [FONT], "val": [FONT]})
    cards, texts = stream_train.GLYPH_CROPS, stream_train.GLYPH_NEGATIVES
    x, y, layout = stream_train.scene_crops((4, "train", 7, "glyphs", 12.0, 0.7))
    assert layout == "glyphs" and x.shape == (cards + texts, CROP, CROP, 3) and x.dtype == np.uint8
    assert y[:cards].min() >= 0 and y[:cards].max() < NONE_ID  # indices of cards, then text that is no index
    assert (y[cards:] == NONE_ID).all()
    x2, y2, _ = stream_train.scene_crops((4, "train", 7, "glyphs", 12.0, 0.7))
    assert np.array_equal(x, x2) and np.array_equal(y, y2)
    xv, yv, _ = stream_train.scene_crops((4, "val", 7, "glyphs", 12.0, 0.7))  # the checks: indices only
    assert len(yv) == cards and (yv < NONE_ID).all()


def test_the_held_out_typefaces_are_whole_lineages_apart_from_the_training_ones():
    from vision.training.index_glyphs import typeface_split

    fonts = [Path(f"/f/{n}.ttf") for n in ("DejaVuSans-Bold", "DejaVuSerifCondensed", "P052-Roman", "texgyrepagella-bold",
                                          "NimbusSans-Regular", "LiberationSans-Bold", "Lato-Black")]
    train, held = typeface_split(fonts)
    assert [f.stem for f in held] == ["DejaVuSans-Bold", "DejaVuSerifCondensed", "P052-Roman", "texgyrepagella-bold"]
    assert [f.stem for f in train] == ["NimbusSans-Regular", "LiberationSans-Bold", "Lato-Black"]


def test_every_card_shape_names_53_classes_and_every_suit_look_4_from_its_own_input():
    torch = pytest.importorskip("torch")
    from vision.training.stream_train import make_shape, shape_classes
    from vision.training.train import make_cropnet

    for cfg in ARCHS.values():
        model = make_shape(cfg).eval()
        with torch.no_grad():
            out = model(torch.zeros(2, 3, cfg["input_size"], cfg["input_size"]))
        n = 4 if cfg.get("target") == "suit" else NONE_ID + 1
        assert out.shape == (2, n) and len(shape_classes(cfg)) == n
    assert shape_classes(ARCHS["suit_w1_64"]) == ("s", "h", "d", "c")
    # without a stem the layers are those of the committed classifiers (their checkpoints still load)
    assert make_cropnet(53, width=3)[0].stride == (1, 1)
    assert make_cropnet(53, width=3, input_size=64, stem=32)[0].stride == (2, 2)


def test_gpu_variety_keeps_the_crop_and_turns_it():
    torch = pytest.importorskip("torch")
    from vision.training.stream_train import gpu_augment, plain_input, to_input

    x = np.zeros((256, CROP, CROP, 3), np.uint8)
    x[:, :8, :8] = (255, 0, 0)  # a blue (BGR) mark in the top-left corner
    gen = torch.Generator().manual_seed(1)
    out = gpu_augment(torch.from_numpy(x), gen)
    assert out.shape == (256, 3, CROP, CROP) and out.dtype == torch.float32
    assert float(out.min()) >= 0.0 and float(out.max()) <= 1.0
    # the mark stays blue (RGB: the third channel) and lands in each of the four corners (quarter turns)
    corners = torch.stack([out[:, 2, :6, :6].mean((1, 2)), out[:, 2, :6, -6:].mean((1, 2)),
                           out[:, 2, -6:, -6:].mean((1, 2)), out[:, 2, -6:, :6].mean((1, 2))], 1)
    where = corners.argmax(1)
    assert set(where.tolist()) == {0, 1, 2, 3}
    assert float((corners.max(1).values > 0.3).float().mean()) > 0.4  # half are also turned by up to 25 degrees
    again = gpu_augment(torch.from_numpy(x), torch.Generator().manual_seed(1))
    assert torch.equal(out, again)  # seeded
    plain = plain_input(torch.from_numpy(x))
    assert float(plain[0, 2, 0, 0]) == 1.0 and float(plain[0, 0, 0, 0]) == 0.0
    assert to_input(plain, 32).shape == (256, 3, 32, 32)
    assert float(to_input(plain, 32)[0, 2, 0, 0]) == 1.0  # 2x2 averaging inside the mark


def test_a_suit_look_learns_the_suit_of_the_card_crops_only():
    torch = pytest.importorskip("torch")
    from vision.training.stream_train import shape_targets

    y = torch.tensor([0, 13, NONE_ID, 26, 51, NONE_ID, 12])  # As, Ah, none, Ad, Kc, none, Ks
    rows, target = shape_targets(ARCHS["suit_w2s_64"], y)
    assert rows.tolist() == [0, 1, 3, 4, 6] and target.tolist() == [0, 1, 2, 3, 0]
    rows, target = shape_targets(ARCHS["w2_32"], y)
    assert rows is None and torch.equal(target, y)


def test_a_short_cpu_run_writes_a_suit_look_checkpoint_the_exporter_reads(tmp_path, monkeypatch):
    """A few seconds on the CPU with made-up crops instead of rendered scenes (no artwork, no worker processes):
    the checkpoint names s h d c and exports to an ONNX suit look that gives four probabilities."""
    import multiprocessing
    from types import SimpleNamespace

    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from vision.onnx_backend import OnnxClassifier
    from vision.training import stream_train
    from vision.training.train import export_classifier

    rng = np.random.default_rng(0)

    def made_up_scene(job):
        y = rng.integers(0, NONE_ID + 1, 12).astype(np.int16)
        x = np.zeros((12, CROP, CROP, 3), np.uint8)
        x[:] = ((y % 4) * 60).astype(np.uint8)[:, None, None, None]  # something to learn from
        return x, y, "tommy"

    class InlinePool:
        def __init__(self, *args, **kwargs):
            pass

        def imap(self, fn, jobs, chunksize=1):
            return (made_up_scene(job) for job in jobs)

        imap_unordered = imap

        def terminate(self):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(multiprocessing, "get_context", lambda *_: SimpleNamespace(Pool=InlinePool))
    summary = stream_train.train_stream(tmp_path, seconds=3, workers=1, archs={"suit_w1_64": ARCHS["suit_w1_64"]},
                                        batch=32, device="cpu", check_scenes=4, check_fan_scenes=0, min_buffer=64,
                                        check_every=1.0, log=lambda *_: None)
    assert 0.0 <= summary["best"]["suit_w1_64"] <= 1.0
    state = torch.load(tmp_path / "suit_w1_64.pt", weights_only=False)
    assert state["classes"] == ["s", "h", "d", "c"] and state["target"] == "suit"
    # fine-tuning from a checkpoint: checked once before the first step, from where it starts
    again = stream_train.train_stream(tmp_path / "again", seconds=1, workers=1,
                                      archs={"suit_w1_64": ARCHS["suit_w1_64"]}, batch=32, device="cpu",
                                      check_scenes=4, check_fan_scenes=0, min_buffer=64, check_every=5.0,
                                      init=tmp_path / "suit_w1_64.pt", log=lambda *_: None)
    assert again["history"][0]["step"] == 0 and again["history"][0]["suit_w1_64"]["loss"] is None
    export_classifier(tmp_path, out=tmp_path / "models", checkpoint="suit_w1_64.pt", filename="suitlook",
                      description="test suit look")
    look = OnnxClassifier(tmp_path / "models" / "suitlook.onnx", ["s", "h", "d", "c"], threads=1)
    p = look.probabilities(np.zeros((2, 3, 64, 64), np.float32))
    assert p.shape == (2, 4) and np.allclose(p.sum(1), 1.0, atol=1e-4)


def test_the_cli_names_the_same_shapes_without_loading_training_code():
    import subprocess
    import sys

    from assistant.commands.train import STREAM_SHAPES

    assert STREAM_SHAPES == tuple(ARCHS)
    probe = ("import sys; from assistant.cli import build_parser; build_parser(); "
             "print(any(m.startswith('vision.training') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_ink_made_bolder_or_lighter_by_half_a_pixel():
    torch = pytest.importorskip("torch")
    from vision.training.stream_train import ink_weight

    x = torch.ones(2, 3, 32, 32)
    x[:, :, 8:24, 14:18] = 0.0  # a dark stroke 4 px wide on white paper
    out = ink_weight(x, torch.tensor([True, False]))
    ink = (1 - out).sum((1, 2, 3)) / 3 / 16  # the stroke's width, in pixels, from its ink
    assert out.shape == x.shape
    assert 4.5 <= float(ink[0]) <= 5.5  # bolder: about a pixel wider (half a pixel each side)
    assert 2.5 <= float(ink[1]) <= 3.5  # lighter: about a pixel narrower


@pytest.mark.parametrize("shares,says", [
    (["--procedural-share", "0.9"], "at most 1 together"),  # with the default npm share 0.2
    (["--procedural-share", "-0.1"], "each from 0 to 1"),
    (["--procedural-share", "0.3"], "no procedural decks in the cache"),
])
def test_train_stream_refuses_impossible_deck_shares_before_it_starts(tmp_path, capsys, shares, says):
    pytest.importorskip("torch")  # `patience train` asks for it first
    from assistant.cli import main

    (tmp_path / "cache" / "cards").mkdir(parents=True)
    (tmp_path / "cache" / "cards" / "decks.json").write_text("{}")
    code = main(["train", "stream", "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "cache"),
                 "--device", "cpu", "--registry-share", "0.2", *shares])
    assert code == 2 and says in capsys.readouterr().err
    assert not (tmp_path / "out").exists()  # nothing rendered, nothing trained

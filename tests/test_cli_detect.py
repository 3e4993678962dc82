"""``patience detect`` through the real console script: JSON lines, the table, folders, and bad input
(missing, unreadable or non-image files, empty folders, missing models) reported in one line naming the file
while the other images are still processed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from test_detector import FAKE, fake_scene  # tests/ is on sys.path (pytest's prepend import mode)
from vision.detector import Detector, default_model_dir
from vision.onnx_backend import ModelFileError

PATIENCE = shutil.which("patience", path=str(Path(sys.executable).parent)) or shutil.which("patience")


def run(args, cwd=None):
    env = {**os.environ, "COLUMNS": "120", "OMP_NUM_THREADS": "1"}
    return subprocess.run([PATIENCE, "detect", *args], capture_output=True, text=True, env=env, timeout=300, cwd=cwd)


@pytest.fixture(scope="module")
def scene_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("scenes")
    cv2.imwrite(str(d / "table.png"), fake_scene(1.0))
    cv2.imwrite(str(d / "photo.jpg"), fake_scene(2.0), [cv2.IMWRITE_JPEG_QUALITY, 95])
    return d


def test_the_console_script_is_installed():
    assert PATIENCE, "the `patience` console script is not on PATH; install with pip install -e ."


def test_json_one_line_per_image_with_cards_and_raw_detections(scene_dir):
    out = run([str(scene_dir / "table.png"), str(scene_dir / "photo.jpg"), "--json", "--model", str(FAKE)])
    assert out.returncode == 0, out.stderr
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert [Path(x["image"]).name for x in lines] == ["table.png", "photo.jpg"]
    for obj in lines:
        assert sorted(c["card"] for c in obj["cards"]) == ["10d", "9s", "Qh"]
        assert all(0 < c["confidence"] <= 1 and len(c["box"]) == 4 for c in obj["cards"])
        assert sum(d["label"] == "index" for d in obj["detections"]) == 4
    qh = next(c for c in lines[1]["cards"] if c["card"] == "Qh")
    assert qh["box"] == pytest.approx([170, 140, 430, 540], abs=3)  # photo.jpg is the scene at twice the size


def test_a_folder_stands_for_its_images_and_the_table_shows_the_cards(scene_dir, tmp_path):
    out = run([str(scene_dir), "--model", str(FAKE), "--draw", str(tmp_path / "drawn")])
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in (tmp_path / "drawn").iterdir()) == ["photo.detect.jpg", "table.detect.jpg"]
    assert out.stdout.count("3 cards") == 2
    assert "Q♥" in out.stdout and "9♠" in out.stdout and "10♦" in out.stdout


def test_bad_files_are_reported_one_line_each_and_the_good_ones_still_processed(scene_dir, tmp_path):
    (tmp_path / "notes.jpg").write_text("not a photo")
    (tmp_path / "empty.png").write_bytes(b"")
    empty_dir = tmp_path / "nothing_here"
    empty_dir.mkdir()
    args = [str(tmp_path / "missing.jpg"), str(tmp_path / "notes.jpg"), str(scene_dir / "table.png"),
            str(tmp_path / "empty.png"), str(empty_dir), "--json", "--model", str(FAKE)]
    out = run(args)
    assert out.returncode == 2
    err = out.stderr.strip().splitlines()
    assert len(err) == 4, out.stderr
    assert any("missing.jpg" in e and "no such file" in e for e in err)
    assert any("notes.jpg" in e and "not an image" in e for e in err)
    assert any("empty.png" in e and "empty" in e for e in err)
    assert any("nothing_here" in e and "no images" in e for e in err)
    assert all(e.startswith("patience detect: ") for e in err)
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    good = [x for x in lines if "cards" in x]
    assert len(good) == 1 and Path(good[0]["image"]).name == "table.png"
    assert sum("error" in x for x in lines) == 4


def test_a_missing_model_is_one_line_naming_the_file(scene_dir, tmp_path):
    out = run([str(scene_dir / "table.png"), "--model", str(tmp_path)])
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "detector.onnx" in out.stderr and "--model" in out.stderr
    assert "Traceback" not in out.stderr


def test_no_images_given_and_bad_options():
    out = run([])
    assert out.returncode == 2 and "give one or more images" in out.stderr
    out = run(["x.jpg", "--min-confidence", "7"])
    assert out.returncode == 2 and "--min-confidence 7.0: give a number from 0 to 1" in out.stderr
    out = run(["x.jpg", "--threads", "0"])
    assert out.returncode == 2 and "--threads 0: give 1 or more" in out.stderr
    out = run(["x.jpg", "--zoom", "0.5"])
    assert out.returncode == 2 and "--zoom 0.5: give a number from 1 (off) to 4" in out.stderr


def test_bench_prints_median_and_p95(scene_dir):
    out = run(["--bench", "--frames", "5", "--threads", "1", "--model", str(FAKE), str(scene_dir / "table.png")])
    assert out.returncode == 0, out.stderr
    assert "median" in out.stdout and "p95" in out.stdout and "machine:" in out.stdout


from test_detector import FIXTURES, MIN_TOMMY_FOUND, TOMMY, real_model  # noqa: E402


@real_model
def test_the_committed_sample_through_the_console_script_with_the_default_model():
    out = run([str(FIXTURES / TOMMY["image"]), "--json"], cwd="/")  # the default models/ is found from any folder
    assert out.returncode == 0, out.stderr
    (obj,) = [json.loads(x) for x in out.stdout.splitlines()]
    names = [c["card"] for c in obj["cards"]]
    assert len(names) == len(set(names))
    assert len(set(names) & set(TOMMY["cards"])) >= MIN_TOMMY_FOUND
    assert obj["detections"] and all(d["label"] in ("index", "card") for d in obj["detections"])
    table = run([str(FIXTURES / TOMMY["image"])])
    assert table.returncode == 0 and "cards" in table.stdout


def test_a_photo_read_in_many_passes_reports_progress_on_stderr(tmp_path):
    """Issue 11: a 6000x6000 photo took 10 s with no sign of life. Off a terminal: plain lines on stderr."""
    big = cv2.resize(fake_scene(1.0), (1920, 1080))
    cv2.imwrite(str(tmp_path / "big.png"), big)
    out = run([str(tmp_path / "big.png"), "--json", "--model", str(FAKE)])
    assert out.returncode == 0, out.stderr
    lines = [x for x in out.stderr.splitlines() if "detector pass" in x]
    assert lines and lines[-1].startswith(f"{tmp_path / 'big.png'}: 1920x1080, detector pass")
    done, total = lines[-1].split("pass ")[1].split(" of ")
    assert int(done) == int(total) > 1
    assert len(out.stdout.splitlines()) == 1  # stdout stays one JSON line


def test_the_table_reading_uses_the_table_models_where_the_folder_has_them(tmp_path):
    """`detect --table` reads with <models>/table/ (tuned on fanned hands); a folder without one is used as it is."""
    from vision.model_files import MANIFEST, ModelSpec, table_model_dir

    assert table_model_dir(tmp_path) == tmp_path
    (tmp_path / "table").mkdir()
    assert table_model_dir(tmp_path) == tmp_path, "a table/ folder without a manifest is not a model folder"
    (tmp_path / "table" / MANIFEST).write_text("{}")
    assert table_model_dir(tmp_path) == tmp_path / "table"
    spec = ModelSpec.from_dir(table_model_dir())  # the committed ones: every file they name is there
    assert table_model_dir().name == "table"
    for f in (spec.detector, spec.classifier, spec.face, spec.suit):
        assert f is not None and f.is_file(), f


def test_a_dim_photo_is_read_brightened_and_the_notes_say_so(tmp_path):
    dim = tmp_path / "dim.png"
    cv2.imwrite(str(dim), (fake_scene(1.0) * 0.3).astype("uint8"))
    out = run([str(dim), "--json", "--model", str(FAKE)])
    assert out.returncode == 0, out.stderr
    notes = json.loads(out.stdout)["notes"]
    assert any(n.startswith("the photo is dim") and "read brightened" in n for n in notes)
    bright = tmp_path / "bright.png"
    cv2.imwrite(str(bright), fake_scene(1.0))
    assert "notes" not in json.loads(run([str(bright), "--json", "--model", str(FAKE)]).stdout)


def test_a_photo_reads_every_corner_on_its_own_and_the_bench_times_the_cameras_way():
    """A card box may hold two cards (a fan boxed as one): photos give no corner its partner's name unread; the
    camera does (it was measured exact with it), and --bench times the camera."""
    from argparse import Namespace

    from assistant.commands.detect import load_detector

    common = dict(model=FAKE, box_threshold=0.1, min_confidence=0.3, tile="auto", imgsz=None, threads=1)
    assert load_detector(Namespace(**common, bench=False)).share_confidence > 1
    assert load_detector(Namespace(**common, bench=True)).share_confidence < 1


def test_reading_a_table_looks_closer_and_asks_more_of_a_name_unless_told_otherwise():
    """``--table`` also reads the photo enlarged 1.5x in tiles (the small corners of covered cards) and reports
    cards from confidence 0.4 (the small corners' names are less sure); plain photos neither."""
    from argparse import Namespace

    from assistant.commands.detect import load_detector

    common = dict(model=FAKE, box_threshold=0.1, tile="auto", imgsz=None, threads=1, bench=False)
    photo = load_detector(Namespace(**common, min_confidence=None))
    assert (photo.zoom, photo.min_card_confidence) == (1.0, 0.3)
    table = load_detector(Namespace(**common, min_confidence=None, table=True))
    assert (table.zoom, table.min_card_confidence) == (1.5, 0.4)
    told = load_detector(Namespace(**common, min_confidence=0.2, table=True, zoom=1.0))
    assert (told.zoom, told.min_card_confidence) == (1.0, 0.2)


def test_a_photo_is_read_with_the_table_folders_models_and_the_camera_with_the_folders_own(tmp_path):
    """A photo read at leisure (detect, --eval, score-photo) uses the table folder's detector (it knows fanned hands)
    and its 64 px classifier; --bench times the camera's way, with the folder's own; a folder without a table/
    keeps its own everywhere."""
    from argparse import Namespace

    from assistant.commands import score_photo
    from assistant.commands.detect import load_detector

    models = default_model_dir()  # the committed folder, with its table/
    common = dict(model=models, box_threshold=0.1, min_confidence=None, tile="auto", imgsz=None, threads=1)
    photo = load_detector(Namespace(**common, bench=False))
    bench = load_detector(Namespace(**common, bench=True))
    table_bench = load_detector(Namespace(**common, bench=True, table=True))
    assert photo.spec.detector == models / "table" / "detector.onnx"
    assert photo.classifier.path == models / "table" / "classifier.onnx" and photo.classifier.size == 64
    assert bench.spec.detector == models / "detector.onnx"
    assert bench.classifier.path == models / "classifier.onnx" and bench.classifier.size == 32
    assert table_bench.spec.detector == models / "table" / "detector.onnx"
    grid = score_photo.load_detector(Namespace(model=models, threads=1))
    assert grid.spec.detector == models / "table" / "detector.onnx"
    assert grid.classifier.path == models / "table" / "classifier.onnx"
    lone = load_detector(Namespace(**{**common, "model": FAKE}, bench=False))  # no table/ folder: its own models
    assert lone.model_dir == FAKE
    with pytest.raises(ModelFileError):
        Detector(model_dir=FAKE, classifier_model=tmp_path / "missing.onnx")

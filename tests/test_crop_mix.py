"""Mixing builds into one classifier crop folder: readable crops only, each build as often as its weight."""

from __future__ import annotations

import json

import pytest

from vision.training.crop_mix import mix_crops, mix_faces, parse_source


def _build(root, crops: dict[str, list[str]], indices: list[dict]):
    """A minimal `dataset build` folder: crops/train/<class>/<stem>.png and the scene meta they refer to."""
    for name, stems in crops.items():
        (root / "crops" / "train" / name).mkdir(parents=True, exist_ok=True)
        for stem in stems:
            (root / "crops" / "train" / name / f"{stem}.png").write_bytes(b"png")
    meta = root / "detect" / "meta" / "train"
    meta.mkdir(parents=True)
    (meta / "000000.json").write_text(json.dumps({"indices": indices}))
    return root


def test_only_readable_scene_crops_and_every_none_crop_are_linked_weight_times(tmp_path):
    quad = lambda side: [[0, 0], [side, 0], [side, side], [0, side]]
    fans = _build(tmp_path / "fans", {"Qs": ["000000_0", "000000_1", "000000_2"], "none": ["n000000_0"]}, [
        {"card": "Qs", "visible": 1.0, "quad": quad(20)},   # readable
        {"card": "Qs", "visible": 0.5, "quad": quad(20)},   # half covered: left out
        {"card": "Qs", "visible": 1.0, "quad": quad(6)},    # tiny: left out
    ])
    flat = _build(tmp_path / "flat", {"7h": ["000000_0"]}, [{"card": "7h", "visible": 0.9, "quad": quad(30)}])
    made = mix_crops([(flat, 1), (fans, 2)], tmp_path / "mix", val=flat / "crops" / "train")
    assert made == {str(flat): 1, str(fans): 4}
    assert sorted(p.name for p in (tmp_path / "mix" / "train" / "Qs").iterdir()) == [
        "m1r0_000000_0.png", "m1r1_000000_0.png"]
    assert len(list((tmp_path / "mix" / "train" / "none").iterdir())) == 2
    assert (tmp_path / "mix" / "val" / "7h").is_dir()


def test_face_crops_of_several_builds_are_linked_weight_times(tmp_path):
    for build, stems in (("flat", ["000001_3_0", "000001_3_1"]), ("npm", ["000002_0_0"])):
        (tmp_path / build / "faces" / "train" / "Kc").mkdir(parents=True)
        for stem in stems:
            (tmp_path / build / "faces" / "train" / "Kc" / f"{stem}.png").write_bytes(b"png")
    made = mix_faces([(tmp_path / "flat", 1), (tmp_path / "npm", 3)], tmp_path / "mix", val=tmp_path / "flat" / "faces")
    assert made == {str(tmp_path / "flat"): 2, str(tmp_path / "npm"): 3}
    assert len(list((tmp_path / "mix" / "train" / "Kc").iterdir())) == 5
    assert (tmp_path / "mix" / "val" / "train").is_dir()
    with pytest.raises(FileNotFoundError, match="dataset faces"):
        mix_faces([(tmp_path / "nothing", 1)], tmp_path / "mix2")


def test_a_source_names_its_weight_after_a_colon():
    assert parse_source("datasets/fanbuild:3")[1] == 3
    assert parse_source("datasets/build") == (parse_source("datasets/build:1")[0], 1)
    with pytest.raises(ValueError):
        parse_source("datasets/fanbuild:0")


def test_scenes_of_several_builds_make_one_detector_folder_with_its_data_yaml(tmp_path):
    from vision.training.crop_mix import mix_scenes

    def build(root, split, stems, labelled):
        for stem in stems:
            (root / "detect" / "images" / split).mkdir(parents=True, exist_ok=True)
            (root / "detect" / "labels" / split).mkdir(parents=True, exist_ok=True)
            (root / "detect" / "images" / split / f"{stem}.jpg").write_bytes(b"jpg")
            if stem in labelled:
                (root / "detect" / "labels" / split / f"{stem}.txt").write_text("0 0.5 0.5 0.1 0.1\n")
        return root

    a = build(tmp_path / "a", "train", ["000000", "000001"], {"000000", "000001"})
    fans = build(tmp_path / "fans", "train", ["000000", "000001"], {"000000"})  # 000001 still rendering
    tune = build(tmp_path / "tune", "val", ["000000"], {"000000"})
    made = mix_scenes([(a, 1), (fans, 2)], tmp_path / "det", tune)
    assert list(made.values()) == [2, 1, 1]
    out = tmp_path / "det"
    assert sorted(p.name for p in (out / "images" / "train").iterdir()) == [
        "m0_000000.jpg", "m0_000001.jpg", "m1_000000.jpg"]
    assert (out / "labels" / "train" / "m1_000000.txt").read_text().startswith("0 ")
    assert (out / "labels" / "val" / "v_000000.txt").is_file()
    assert "train: images/train" in (out / "data.yaml").read_text()

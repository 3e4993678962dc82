"""One classifier crop folder from several builds: the readable index crops of each (and its ``none`` crops),
linked under ``<out>/train/<class>/``, a build repeated ``weight`` times to count more in the random epochs.

Why: the default build's scenes hold no fanned hands (``--layout fan`` is rendered apart), and the classifier
trains on one crop folder; mixing by links keeps each build as it was rendered (resumable, seeded) and the mix
reproducible from the command line: ``patience dataset mix --out datasets/mix datasets/build datasets/fanbuild:2``.
"""

from __future__ import annotations

import os
from pathlib import Path

from vision.card_names import CARD_NAMES, NONE_CLASS


def parse_source(text: str) -> tuple[Path, int]:
    """``FOLDER`` or ``FOLDER:WEIGHT`` (a whole number >= 1)."""
    folder, _, weight = text.rpartition(":") if ":" in text else (text, "", "1")
    if not weight.isdigit() or int(weight) < 1:
        raise ValueError(f"{text}: the weight after ':' must be a whole number >= 1")
    return Path(folder), int(weight)


def mix_crops(sources: list[tuple[Path, int]], out: Path, val: Path | None = None, min_px: float = 12.0,
              min_visible: float = 0.7) -> dict[str, int]:
    """Link the training crops of each build (``<build>/crops/train``) into ``out/train``: scene crops of indices
    at least ``min_px`` long and ``min_visible`` uncovered (by the build's meta), every ``none``/glyph crop; each
    source ``weight`` times. ``val``: a crop folder linked as ``out/val`` (the per-epoch check). Returns crops
    linked per source."""
    from vision.training.train import _readable

    out = Path(out)
    made: dict[str, int] = {}
    for k, (build, weight) in enumerate(sources):
        train = Path(build) / "crops" / "train"
        if not train.is_dir():
            raise FileNotFoundError(f"{train} not found: give folders that `patience dataset build` wrote")
        keep = _readable(train, min_px, min_visible)
        n = 0
        for name in (*CARD_NAMES, NONE_CLASS):
            src_dir = train / name
            if not src_dir.is_dir():
                continue
            dst_dir = out / "train" / name
            dst_dir.mkdir(parents=True, exist_ok=True)
            files = [p for p in sorted(src_dir.glob("*.png"))
                     if keep is None or not p.stem[0].isdigit() or p.stem in keep]
            n += _link(files, dst_dir, k, weight)
        made[str(build)] = n
    _link_val(out, val)
    return made


def _link(files: list[Path], dst_dir: Path, source: int, weight: int) -> int:
    """Link each file ``weight`` times into ``dst_dir`` as ``m<source>r<r>_<name>`` (a letter first: the
    classifier's loader keeps such crops without looking for meta); returns links made or already there."""
    n = 0
    for p in files:
        for r in range(weight):
            link = dst_dir / f"m{source}r{r}_{p.name}"
            if not link.exists():
                os.symlink(p.resolve(), link)
            n += 1
    return n


def _link_val(out: Path, val: Path | None) -> None:
    """``val`` (a crop folder for the per-epoch check) linked as ``out/val``."""
    if val is not None and not (out / "val").exists():
        os.symlink(Path(val).resolve(), out / "val")


def mix_faces(sources: list[tuple[Path, int]], out: Path, val: Path | None = None) -> dict[str, int]:
    """Link the whole-card face crops of each build (``<build>/faces/train``, `patience dataset faces`) into
    ``out/train``, each source ``weight`` times; ``val`` as ``out/val``. Returns crops linked per source."""
    out = Path(out)
    made: dict[str, int] = {}
    for k, (build, weight) in enumerate(sources):
        train = Path(build) / "faces" / "train"
        if not train.is_dir():
            raise FileNotFoundError(f"{train} not found: run `patience dataset faces --out {build}` first")
        n = 0
        for name in CARD_NAMES:
            dst_dir = out / "train" / name
            dst_dir.mkdir(parents=True, exist_ok=True)
            n += _link(sorted((train / name).glob("*.png")), dst_dir, k, weight)
        made[str(build)] = n
    _link_val(out, val)
    return made


def mix_scenes(sources: list[tuple[Path, int]], out: Path, val: Path) -> dict[str, int]:
    """A detector training folder of links (``out/images|labels/{train,val}`` + ``out/data.yaml``): the labelled
    training scenes of each build (``<build>/detect``; ``weight`` is ignored: a scene is not repeated), the val
    scenes of ``val`` (a build; use a tuning set, not a reported one). Returns scenes linked per source."""
    out = Path(out)
    made: dict[str, int] = {}

    def link(detect: Path, split: str, prefix: str, dst: str) -> int:
        n = 0
        for img in sorted((detect / "images" / split).glob("*.jpg")):
            lab = detect / "labels" / split / f"{img.stem}.txt"
            if not lab.is_file():
                continue  # still being rendered: its label file is written last
            for src, kind, name in ((img, "images", img.name), (lab, "labels", lab.name)):
                target = out / kind / dst / f"{prefix}{name}"
                target.parent.mkdir(parents=True, exist_ok=True)
                if not target.exists():
                    os.symlink(src.resolve(), target)
            n += 1
        return n

    for k, (build, _) in enumerate(sources):
        detect = Path(build) / "detect"
        if not (detect / "images" / "train").is_dir():
            raise FileNotFoundError(f"{detect}/images/train not found: give folders that `patience dataset build` wrote")
        made[str(build)] = link(detect, "train", f"m{k}_", "train")
    made[f"{val} (val)"] = link(Path(val) / "detect", "val", "v_", "val")
    (out / "data.yaml").write_text(f"path: {out.resolve()}\ntrain: images/train\nval: images/val\n"
                                   "names:\n  0: index\n  1: card\n")
    return made

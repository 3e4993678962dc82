"""Build the synthetic training sets from the rasterised decks (``patience dataset build``).

Writes, under ``out`` (default ``datasets/build``):

- ``detect/images/{train,val}/NNNNNN.jpg`` + ``detect/labels/{train,val}/NNNNNN.txt`` (YOLO: ``class cx cy w h``,
  classes ``0 index``, ``1 card``) + ``detect/meta/{split}/NNNNNN.json`` (per index: card, corner, quad) and
  ``detect/data.yaml`` (absolute path, ASCII class names);
- ``crops/{train,val}/<card>/NNNNNN_K.png``: 64x64 crops around every readable index of the same scenes, cut
  with ``vision.training.scenes.crop_index`` (random jitter), for the crop classifier.

``train`` scenes use the training designs only, ``val`` scenes the held-out designs only (``artwork.HELD_OUT``).
Image ``i`` of split ``s`` is rendered from ``numpy.random.default_rng([seed, s, i])``: the same arguments give
the same files, and a build that was stopped resumes where it stopped (an image counts as done once its label
file exists, which is written last).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from vision.card_names import CARD_NAMES
from vision.training import scenes
from vision.training.artwork import CACHE
from vision.training.recipes import load_recipe

SPLITS = {"train": 0, "val": 1}
_MIX = load_recipe("scene_mix.json")  # datasets/scene_mix.json: the recipe of the rendered scenes
OUT_SIZES: tuple[tuple[int, int], ...] = tuple(tuple(s) for s in _MIX["out_sizes"])
MIN_CROP_PX: float = float(_MIX["min_crop_px"])  # smaller indices (longest side, px) give no classifier crop
TWO_DECK_SHARE: float = float(_MIX["two_deck_share"])

_DECKS: dict | None = None
_PROCEDURAL: dict = {}  # the other pools of decks (training split, their share > 0 only): procedural decks ...
_SHARE = 0.0
_REGISTRY: dict = {}  # ... and the npm decks
_REGISTRY_SHARE = 0.0


def check_shares(procedural_share: float, registry_share: float) -> None:
    """ValueError unless each share of the training tables drawn from another pool is 0..1 and both together <= 1."""
    if not (0.0 <= procedural_share <= 1.0 and 0.0 <= registry_share <= 1.0):
        raise ValueError(f"procedural share {procedural_share}, npm share {registry_share}: each from 0 to 1")
    if procedural_share + registry_share > 1.0:
        raise ValueError(f"procedural share {procedural_share} + npm share {registry_share}: at most 1 together")


def _init(cache: str, split: str, procedural_share: float = 0.0, registry_share: float = 0.0) -> None:
    global _DECKS, _PROCEDURAL, _SHARE, _REGISTRY, _REGISTRY_SHARE
    from vision.training.artwork import load_decks

    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import cv2

    cv2.setNumThreads(1)
    _DECKS = load_decks(Path(cache), held_out=(split == "val"))
    # val scenes are made of the held-out designs only: never of procedural or npm decks
    check_shares(procedural_share, registry_share)
    train = split == "train"
    _SHARE = procedural_share if train else 0.0
    _REGISTRY_SHARE = registry_share if train else 0.0
    _PROCEDURAL = load_decks(Path(cache), held_out=False, procedural=True) if _SHARE > 0 else {}
    _REGISTRY = load_decks(Path(cache), held_out=False, procedural=False, registry=True) if _REGISTRY_SHARE > 0 else {}
    if _SHARE > 0 and not _PROCEDURAL:
        raise FileNotFoundError("no procedural decks in the cache: run `patience dataset procedural` first")
    if _REGISTRY_SHARE > 0 and not _REGISTRY:
        raise FileNotFoundError("no npm decks in the cache: run `patience dataset fetch` with the registry reachable")


def pick_faces(decks: dict, rng: np.random.Generator, procedural: dict | None = None, share: float = 0.0,
               registry: dict | None = None, registry_share: float = 0.0) -> list:
    """52 distinct cards, usually all from one deck (a real table), sometimes from two. With ``share`` > 0 the
    table's decks come from ``procedural`` with that probability, else with ``registry_share`` from ``registry``
    (one more draw of ``rng`` for both; with both shares 0 the generator is used exactly as before, so older
    builds' seeds give the same scenes)."""
    if (share > 0 and procedural) or (registry_share > 0 and registry):
        r = rng.random()
        if procedural and r < share:
            decks = procedural
        elif registry and share <= r < share + registry_share:
            decks = registry
    names = sorted(decks)
    main = names[rng.integers(len(names))]
    faces = list(decks[main])
    if len(names) > 1 and rng.random() < TWO_DECK_SHARE:
        other = decks[names[rng.integers(len(names))]]
        swap = rng.random(52) < 0.5
        faces = [other[i] if swap[i] else faces[i] for i in range(52)]
    return faces


def render_one(seed: int, split: str, i: int, layout: str | None = None):
    rng = np.random.default_rng([seed, SPLITS[split], i])
    faces = pick_faces(_DECKS, rng, _PROCEDURAL, _SHARE, _REGISTRY, _REGISTRY_SHARE)
    size = OUT_SIZES[rng.integers(len(OUT_SIZES))]
    return scenes.render_scene(faces, rng, out_size=size, layout=layout), rng


def _work(job) -> int:
    import cv2

    seed, split, i, out, layout = job
    out = Path(out)
    stem = f"{i:06d}"
    label = out / "detect" / "labels" / split / f"{stem}.txt"
    if label.exists():
        return 0
    scene, rng = render_one(seed, split, i, layout)
    cv2.imwrite(str(out / "detect" / "images" / split / f"{stem}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    meta = {
        "layout": scene.layout,
        "size": [scene.image.shape[1], scene.image.shape[0]],
        "indices": [
            {"card": ix.card, "corner": ix.corner, "visible": round(ix.visible, 3), "quad": np.round(ix.quad, 2).tolist()}
            for ix in scene.indices
        ],
        "cards": [{"card": n, "box": [round(v, 2) for v in b]} for n, b in scene.cards],
    }
    (out / "detect" / "meta" / split / f"{stem}.json").write_text(json.dumps(meta))
    for k, ix in enumerate(scene.indices):
        x0, y0, x1, y1 = ix.box
        if max(x1 - x0, y1 - y0) < MIN_CROP_PX:
            continue
        crop = scenes.crop_index(scene.image, ix.box, jitter=(rng, 0.08, 1.1, 1.6))
        d = out / "crops" / split / ix.card
        cv2.imwrite(str(d / f"{stem}_{k}.png"), crop)
    tmp = label.with_suffix(".tmp")
    tmp.write_text("\n".join(scene.yolo_lines()) + "\n")
    tmp.replace(label)
    return 1


def prepare_dirs(out: Path) -> None:
    for split in SPLITS:
        for sub in ("images", "labels", "meta"):
            (out / "detect" / sub / split).mkdir(parents=True, exist_ok=True)
        for c in CARD_NAMES:
            (out / "crops" / split / c).mkdir(parents=True, exist_ok=True)
    data = {
        "path": str((out / "detect").resolve()),
        "train": "images/train",
        "val": "images/val",
        "names": {i: n for i, n in enumerate(scenes.CLASS_NAMES)},
    }
    lines = [f"path: {data['path']}", "train: images/train", "val: images/val", "names:"]
    lines += [f"  {i}: {n}" for i, n in data["names"].items()]
    (out / "detect" / "data.yaml").write_text("\n".join(lines) + "\n")


def build(out: Path, n_train: int, n_val: int, seed: int = 0, workers: int = 1, cache: Path = CACHE, progress=None,
          layout: str | None = None, procedural_share: float = 0.0, registry_share: float = 0.0) -> dict:
    """Render the missing images of both splits; returns counts. ``progress(split, done, total)`` is called.
    ``layout``: every scene of this one layout (e.g. ``"fan"``) instead of the default mix.
    ``procedural_share``: the share of training tables drawn with procedural decks (0 = none, 1 = all);
    ``registry_share`` the same for the npm decks (both together at most 1)."""
    import multiprocessing as mp

    out = Path(out)
    prepare_dirs(out)
    made = {}
    for split, n in (("val", n_val), ("train", n_train)):
        jobs = [(seed, split, i, str(out), layout) for i in range(n)]
        todo = [j for j in jobs if not (out / "detect" / "labels" / split / f"{j[2]:06d}.txt").exists()]
        done = n - len(todo)
        if progress:
            progress(split, done, n)
        if not todo:
            made[split] = 0
            continue
        if workers <= 1:
            _init(str(cache), split, procedural_share, registry_share)
            it = map(_work, todo)
            pool = None
        else:
            pool = mp.get_context("fork").Pool(workers, initializer=_init, initargs=(str(cache), split, procedural_share,
                                                                                  registry_share))
            it = pool.imap_unordered(_work, todo, chunksize=4)
        k = 0
        for r in it:
            k += r
            done += 1
            if progress:
                progress(split, done, n)
        if pool:
            pool.close()
            pool.join()
        made[split] = k
    return made


def move_quad(quad, corner: int, face_hw: tuple[int, int], old_box, new_box) -> np.ndarray:
    """Where index ``corner`` of a face (h, w) lands in the picture with ``new_box``, given where it landed with
    ``old_box`` (``quad``, 4x2): the face->picture homography is fixed by the four old corners, exactly."""
    import cv2

    h, w = face_hw
    blank = np.zeros((h, w, 4), np.uint8)
    src = scenes.Face("", blank, tuple(old_box)).index_quads()[corner]
    dst = scenes.Face("", blank, tuple(new_box)).index_quads()[corner]
    hm = cv2.getPerspectiveTransform(src.astype(np.float32), np.asarray(quad, np.float32))
    return cv2.perspectiveTransform(dst.reshape(1, 4, 2).astype(np.float32), hm)[0]


def relabel(out: Path, old_info: dict, new_info: dict, seed: int = 0, log=print) -> dict:
    """Move already rendered index labels to corrected deck index boxes without rendering again.

    For each labelled index of a deck whose box changed, the face->picture homography is recovered exactly from the
    four corners of the old box and the stored quad, and the new box is mapped through it. The deck of each card
    is recomputed by replaying ``pick_faces`` on the scene's seeded generator (it is the generator's first use).
    Visibility decisions are kept. Crops of moved indices are cut again from the saved picture. Labels, meta and
    crops are rewritten in place.
    """
    import cv2

    from vision.training.artwork import load_face

    changed = {d for d in new_info if d in old_info and old_info[d]["index_box"] != new_info[d]["index_box"]}
    sizes = {}
    for d in changed:
        f = load_face(CACHE / "cards" / d / "As.png")
        sizes[d] = f.shape[:2]
    names = list(CARD_NAMES)
    stats = {"images": 0, "moved": 0}
    for split in SPLITS:
        held = split == "val"
        decks = {d: [(d, n) for n in names] for d, m in new_info.items()
                 if bool(m["held_out"]) == held and not m.get("procedural")}
        if not changed & set(decks):
            continue
        for mf in sorted((out / "detect" / "meta" / split).glob("*.json")):
            i = int(mf.stem)
            rng = np.random.default_rng([seed, SPLITS[split], i])
            faces = pick_faces(decks, rng)
            deck_of = {n: d for d, n in faces}
            meta = json.loads(mf.read_text())
            moved = False
            img = None
            crng = np.random.default_rng([seed, SPLITS[split], i, 99])
            for k, ix in enumerate(meta["indices"]):
                d = deck_of[ix["card"]]
                if d not in changed:
                    continue
                q = move_quad(ix["quad"], ix["corner"], sizes[d], old_info[d]["index_box"], new_info[d]["index_box"])
                ix["quad"] = np.round(q, 2).tolist()
                moved = True
                stats["moved"] += 1
                x0, y0 = q.min(0)
                x1, y1 = q.max(0)
                crop_file = out / "crops" / split / ix["card"] / f"{mf.stem}_{k}.png"
                if max(x1 - x0, y1 - y0) >= MIN_CROP_PX:
                    if img is None:
                        img = cv2.imread(str(out / "detect" / "images" / split / f"{mf.stem}.jpg"))
                    crop = scenes.crop_index(img, (x0, y0, x1, y1), jitter=(crng, 0.08, 1.1, 1.6))
                    cv2.imwrite(str(crop_file), crop)
                elif crop_file.exists():
                    crop_file.unlink()
            if not moved:
                continue
            stats["images"] += 1
            mf.write_text(json.dumps(meta))
            scene = scenes.Scene(image=np.zeros((meta["size"][1], meta["size"][0], 3), np.uint8), layout=meta["layout"])
            scene.indices = [scenes.IndexLabel(ix["card"], ix["corner"], np.array(ix["quad"], np.float32), ix["visible"])
                             for ix in meta["indices"]]
            scene.cards = [(c["card"], tuple(c["box"])) for c in meta["cards"]]
            lab = out / "detect" / "labels" / split / f"{mf.stem}.txt"
            lab.write_text("\n".join(scene.yolo_lines()) + "\n")
    log(f"relabelled {stats['moved']} indices in {stats['images']} pictures")
    return stats


def named_index_dataset(detect: Path, out: Path) -> Path:
    """The same scenes labelled for a SINGLE-STAGE detector: one class per card (52, ``CARD_NAMES`` order) on every
    labelled corner index, no whole-card class; images are linked, not copied. Used to measure a 52-class detector
    against the two-stage design (detector + crop classifier). Returns the data.yaml."""
    from vision.card_names import card_index

    for split in SPLITS:
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
        for meta_file in sorted((detect / "meta" / split).glob("*.json")):
            label_file = detect / "labels" / split / (meta_file.stem + ".txt")
            image = detect / "images" / split / (meta_file.stem + ".jpg")
            if not label_file.exists() or not image.exists():
                continue
            indices = json.loads(meta_file.read_text())["indices"]
            rows = [ln for ln in label_file.read_text().splitlines() if ln.startswith("0 ")]
            if len(rows) != len(indices):  # a label was clipped away: the order no longer pairs them up
                continue
            lines = [f"{card_index(ix['card'])} {row[2:]}" for ix, row in zip(indices, rows)]
            (out / "labels" / split / label_file.name).write_text("\n".join(lines) + ("\n" if lines else ""))
            link = out / "images" / split / image.name
            if not link.exists():
                link.symlink_to(image.resolve())
    names = "\n".join(f"  {i}: {n}" for i, n in enumerate(CARD_NAMES))
    data = out / "data.yaml"
    data.write_text(f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n{names}\n")
    return data

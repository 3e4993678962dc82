"""Card artwork for the training data: fetch free decks from Debian, rasterise them, find the corner indices.

Sources (all free software / public domain, fetched with ``apt-get download`` + ``dpkg -x``, no root needed; every
deck with its package, path and licence is listed in ``datasets/decks.json``):

- ``gnome-cards-data``: the aisleriot SVG decks (one ``.svgz`` sheet per deck, element ids ``club_1`` .. ``spade_king``);
- ``kdegames-card-data-kf5``: the KDE decks (one ``.svgz`` per deck, ids ``1_club`` .. ``king_spade``);
- ``openclipart-svg``: four public-domain decks by Nicu Buculei (one ``.svg`` per card, ``white_h_q.svg``).
- ``FONT_PACKAGES``: free fonts (URW base35, Liberation, TeX Gyre, ...) for the classifier's synthetic corner
  indices (``vision.training.index_glyphs``), unpacked under ``cache/fonts`` (``fetch_fonts``, ``glyph_fonts``).

Rasterising needs ``rsvg-convert`` (Debian package ``librsvg2-bin``; it renders one element with ``--export-id``).

Only decks with French suits and the J/Q/K court letters are used; a few are held out of training entirely
(``HELD_OUT``, from ``datasets/held_out.json``) so that the metrics say something about designs the models never saw.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.card_names import CARD_NAMES, RANKS
from vision.training.recipes import REPO, load_recipe

CACHE = REPO / "datasets" / "cache"
RASTER_WIDTH = 240  # px; cards are rendered once at this width and scaled in scenes

_RANK_WORD = {1: "1", 11: "jack", 12: "queen", 13: "king"}
_SUIT_WORD = {"s": "spade", "h": "heart", "d": "diamond", "c": "club"}


@dataclass(frozen=True)
class DeckSource:
    name: str  # our name: "<origin>-<deck>"
    kind: str  # "kde" (ids 1_club), "aisleriot" (ids club_1), "clipart" or "files" (one file per card)
    path: str  # relative to the extraction root
    files: str = ""  # "files" kind: the file name pattern, fields n (1..13), r (A 2..10 J Q K), s (s h d c), S (S H D C)
    registry: bool = False  # from a package registry (npm), not Debian; left out of builds unless asked


# The recipes are files (``datasets/decks.json``, ``datasets/held_out.json``): deck sources with their Debian
# package and licence, the decks left out after a look at their contact sheets (with the reason), the index boxes
# measured by hand where the automatic one is wrong (the Nicu Buculei family prints a big suit under a big rank
# reaching 42 % down the card), the font packages, and the designs held out of training.
_DECKS_RECIPE = load_recipe("decks.json")
DECKS: tuple[DeckSource, ...] = tuple(
    DeckSource(d["name"], d["kind"], d["path"], d.get("files", ""), bool(d.get("registry")))
    for d in _DECKS_RECIPE["decks"])
DEB_PACKAGES: tuple[str, ...] = tuple(_DECKS_RECIPE["packages"])
# npm packages (pinned version, tarball, sha512 integrity, licence), unpacked under ``cache/root/npm``
REGISTRY_PACKAGES: dict[str, dict] = dict(_DECKS_RECIPE.get("registry_packages", {}))
DECK_LICENCES: dict[str, str] = {d["name"]: d["licence"] for d in _DECKS_RECIPE["decks"]}
DECKS_EXCLUDED: dict[str, str] = {d["name"]: d["excluded"] for d in _DECKS_RECIPE["decks"] if "excluded" in d}
INDEX_BOX_OVERRIDES: dict[str, tuple[float, float, float, float]] = {
    d["name"]: tuple(d["index_box"]) for d in _DECKS_RECIPE["decks"] if "index_box" in d}
# Free fonts for the classifier's synthetic corner indices (``vision.training.index_glyphs``): a design source of
# their own (printed ranks in many typefaces), unpacked under ``cache/fonts``; a package missing is skipped.
FONT_PACKAGES: tuple[str, ...] = tuple(_DECKS_RECIPE["font_packages"])
# Designs never used for training: the rendered val sets and the camera-benchmark videos are made of these only.
HELD_OUT: tuple[str, ...] = tuple(load_recipe("held_out.json")["held_out"])


def card_id(source: DeckSource, card: str) -> str:
    """The SVG element id (or file name) of ``card`` (a name such as ``"Qh"``) in ``source``."""
    r, s = RANKS.index(card[:-1]) + 1, card[-1]
    rank_word = _RANK_WORD.get(r, str(r))
    if source.kind == "kde":
        return f"{rank_word}_{_SUIT_WORD[s]}"
    if source.kind == "aisleriot":
        return f"{_SUIT_WORD[s]}_{rank_word}"
    if source.kind == "files":
        return source.files.format(n=r, r=RANKS[r - 1], s=s, S=s.upper())
    letter = {1: "a", 11: "j", 12: "q", 13: "k"}.get(r, str(r))
    style = Path(source.path).name
    return f"{style}_{s}_{letter}.svg"


def fetch(cache: Path = CACHE, log=print) -> Path:
    """Download the Debian packages and the npm decks (if not there yet) and unpack them under ``cache/root``."""
    debs = cache / "debs"
    root = cache / "root"
    debs.mkdir(parents=True, exist_ok=True)
    if not shutil.which("apt-get") or not shutil.which("dpkg"):
        raise RuntimeError("apt-get and dpkg are needed to fetch the card artwork (a Debian/Ubuntu system)")
    for pkg in DEB_PACKAGES:
        if not list(debs.glob(f"{pkg}_*.deb")):
            log(f"apt-get download {pkg}")
            subprocess.run(["apt-get", "download", pkg], cwd=debs, check=True)
    root.mkdir(parents=True, exist_ok=True)
    for deb in sorted(debs.glob("*.deb")):
        stamp = root / f".{deb.name}.done"
        if not stamp.exists():
            log(f"dpkg -x {deb.name}")
            subprocess.run(["dpkg", "-x", str(deb), str(root)], check=True)
            stamp.touch()
    from vision.training.registry_decks import fetch_package

    for pkg, meta in REGISTRY_PACKAGES.items():
        try:
            fetch_package(pkg, meta, cache / "npm", root, log)
        except (OSError, ValueError, tarfile.TarError) as exc:  # no network, a bad checksum: the other decks work
            log(f"warning: {pkg} not fetched ({exc}); its decks are left out")
    return root


def fetch_fonts(cache: Path = CACHE, log=print) -> Path:
    """Download the ``FONT_PACKAGES`` (if not there yet; a package apt cannot find is skipped with a warning) and
    unpack them under ``cache/fonts``. Returns that folder."""
    debs = cache / "debs-fonts"
    root = cache / "fonts"
    debs.mkdir(parents=True, exist_ok=True)
    missing = [pkg for pkg in FONT_PACKAGES if not list(debs.glob(f"{pkg}_*.deb"))]
    if missing and (not shutil.which("apt-get") or not shutil.which("dpkg")):
        raise RuntimeError("apt-get and dpkg are needed to fetch the fonts (a Debian/Ubuntu system)")
    for pkg in missing:
        log(f"apt-get download {pkg}")
        done = subprocess.run(["apt-get", "download", pkg], cwd=debs, capture_output=True, text=True)
        if done.returncode != 0:
            why = (done.stderr.strip().splitlines() or ["?"])[-1]
            log(f"warning: {pkg} not downloaded ({why}), skipped")
    root.mkdir(parents=True, exist_ok=True)
    for deb in sorted(debs.glob("*.deb")):
        stamp = root / f".{deb.name}.done"
        if not stamp.exists():
            subprocess.run(["dpkg", "-x", str(deb), str(root)], check=True)
            stamp.touch()
    return root


# Font files left out by name: italics (the glyph renderer shears a little on its own), hairline weights (gone at
# 32 px), symbol/dingbat/math fonts (URW D050000L maps letters to dingbats) and Biolinum Keyboard (keycap boxes).
_GLYPH_FONT_SKIP = re.compile(
    r"italic|oblique|slanted|[-_](r?b?z?i|bdita)$|hairline|thin|symbol|dingbat|d050000l|math|emoji|biolinum_k", re.I
)


def glyph_fonts(cache: Path = CACHE) -> list[Path]:
    """The usable font files under ``cache/fonts`` (after ``fetch_fonts``), sorted: TrueType/OpenType, upright,
    not hairline, not symbols (``_GLYPH_FONT_SKIP``), one copy of each file name, and only fonts that draw real
    Latin capitals and digits (``vision.training.index_glyphs.font_renders_ranks``)."""
    from vision.training.index_glyphs import font_renders_ranks

    root = cache / "fonts"
    seen, out = set(), []
    for p in sorted(root.rglob("*")):
        if p.suffix.lower() not in (".ttf", ".otf") or not p.is_file():  # is_file: broken symlinks drop out
            continue
        if _GLYPH_FONT_SKIP.search(p.stem):
            continue
        real = p.resolve()
        if real in seen or p.name in {q.name for q in out}:
            continue
        seen.add(real)
        if font_renders_ranks(p):
            out.append(p)
    return out


def _svg_text(path: Path) -> Path:
    """Uncompressed copy of an .svgz (rsvg-convert reads .svgz too, but each call would gunzip again)."""
    if path.suffix != ".svgz":
        return path
    out = CACHE / "svg" / (path.parent.name + "-" + path.stem + ".svg")
    if not out.exists():
        import gzip

        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(gzip.decompress(path.read_bytes()))
    return out


def _render(exe: str, source: DeckSource, card: str, out: Path, zoom: float) -> None:
    src = CACHE / "root" / source.path
    if source.kind in ("clipart", "files"):
        cmd = [exe, "-z", f"{zoom:.4f}", str(src / card_id(source, card)), "-o", str(out)]
    else:
        cmd = [exe, f"--export-id={card_id(source, card)}", "-z", f"{zoom:.4f}", str(_svg_text(src)), "-o", str(out)]
    subprocess.run(cmd, check=True, capture_output=True)


def rasterise_deck(source: DeckSource, cache: Path = CACHE, width: int = RASTER_WIDTH) -> Path:
    """Render the 52 cards of ``source`` to ``cache/cards/<deck>/<card>.png`` (skips files already there).

    ``rsvg-convert --export-id`` sizes its canvas from a bounding box that is sometimes far too large (KDE decks),
    so ``-w`` would shrink the card; instead each card is rendered at a zoom that makes the *card* about
    ``1.5 * width`` wide (probed on the ace of spades), trimmed to its opaque pixels and resized to ``width``.
    """
    import cv2

    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise RuntimeError("rsvg-convert is missing: install it with `apt-get install librsvg2-bin`")
    out_dir = cache / "cards" / source.name
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = out_dir / "_probe.png"
    zoom = None
    for card in CARD_NAMES:
        out = out_dir / f"{card}.png"
        if out.exists():
            continue
        if zoom is None:
            _render(exe, source, "As", tmp, 1.0)
            zoom = 1.5 * width / load_face(tmp).shape[1]
        _render(exe, source, card, tmp, zoom)
        face = load_face(tmp)
        h = round(face.shape[0] * width / face.shape[1])
        cv2.imwrite(str(out), cv2.resize(face, (width, h), interpolation=cv2.INTER_AREA))
    tmp.unlink(missing_ok=True)
    return out_dir


# ---------------------------------------------------------------------------------------------------------------
# Card faces and their corner index boxes
# ---------------------------------------------------------------------------------------------------------------


def load_face(path: Path) -> np.ndarray:
    """A card face as BGRA uint8 with its transparent margin trimmed (rounded corners stay transparent)."""
    import cv2

    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise FileNotFoundError(path)
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA)
    if img.shape[2] == 3:
        img = np.dstack([img, np.full(img.shape[:2], 255, np.uint8)])
    alpha = img[:, :, 3] > 128
    ys, xs = np.nonzero(alpha)
    if len(xs) == 0:
        raise ValueError(f"{path} is empty")
    return img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].copy()


def ink_index_box(face: np.ndarray, region=(0.28, 0.36)) -> tuple[int, int, int, int] | None:
    """Box (x0, y0, x1, y1) of the ink in the top-left corner of a face: the printed index (rank + suit).

    Ink = pixels far from the card's paper colour inside the card (the border line is cut away); connected
    components that lie wholly inside the corner region are kept, components that merely reach into it
    (big central pips, the court picture frame) are dropped.
    """
    import cv2

    h, w = face.shape[:2]
    rw, rh = int(w * region[0]), int(h * region[1])
    bgr = face[:, :, :3].astype(np.int16)
    alpha = face[:, :, 3] > 128
    inner = cv2.erode(alpha.astype(np.uint8), np.ones((3, 3), np.uint8), iterations=max(2, w // 60)) > 0
    paper = np.median(bgr[inner], axis=0)  # the commonest colour of a number card is its paper
    diff = np.abs(bgr - paper).max(axis=2)
    ink = (diff > 60) & inner
    sub = ink[:rh, :rw].astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8)[: rh + 40, : rw + 40], connectivity=8)
    boxes = []
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area < max(4, (w * h) // 40000):
            continue
        if x + bw > rw or y + bh > rh:
            continue  # reaches out of the corner: a pip or the picture
        if bw > 0.9 * rw and bh > 0.9 * rh:
            continue
        boxes.append((x, y, x + bw, y + bh))
    del sub
    if not boxes:
        return None
    b = np.array(boxes)
    return int(b[:, 0].min()), int(b[:, 1].min()), int(b[:, 2].max()), int(b[:, 3].max())


def deck_index_box(faces: dict[str, np.ndarray]) -> tuple[float, float, float, float] | None:
    """The deck's corner index box as fractions of the card (x0, y0, x1, y1), from its number cards 2..10.

    Per-card boxes vary (``10`` is wider than ``7``); the deck box takes the median top/bottom edge and the
    10th/90th percentile left/right edges (``10``), so one odd card (a pip touching the index) cannot blow it up. Court cards and aces use the deck box (their picture often touches the corner).
    """
    fr = []
    for name, face in faces.items():
        if name[:-1] in ("A", "J", "Q", "K"):
            continue
        b = ink_index_box(face)
        if b is None:
            continue
        h, w = face.shape[:2]
        fr.append((b[0] / w, b[1] / h, b[2] / w, b[3] / h))
    if len(fr) < 20:
        return None
    a = np.array(fr)
    y0, y1 = np.median(a[:, 1]), np.median(a[:, 3])
    x0, x1 = np.percentile(a[:, 0], 10), np.percentile(a[:, 2], 90)  # "10" is the widest index
    return float(x0), float(y0), float(x1), float(y1)


def prepare_all(cache: Path = CACHE, log=print) -> dict:
    """Fetch, rasterise and measure every deck; write ``cache/cards/decks.json`` (deck -> index box)."""
    import cv2  # noqa: F401

    fetch(cache, log)
    fetch_fonts(cache, log)
    info = {}
    for src in DECKS:
        if src.name in DECKS_EXCLUDED:
            continue
        if src.registry and not (cache / "root" / src.path).is_dir():
            continue  # its package could not be fetched (warned above)
        try:
            out_dir = rasterise_deck(src, cache)
        except subprocess.CalledProcessError as exc:
            log(f"{src.name}: rasterising failed ({exc.stderr.decode(errors='replace')[:100]}), left out")
            continue
        faces = {p.stem: load_face(p) for p in sorted(out_dir.glob("*.png"))}
        box = INDEX_BOX_OVERRIDES.get(src.name) or deck_index_box(faces)
        if box is None:
            log(f"{src.name}: no corner index found, left out")
            continue
        info[src.name] = {"index_box": [round(v, 4) for v in box], "held_out": src.name in HELD_OUT}
        if src.registry:
            info[src.name]["registry"] = True
        log(f"{src.name}: index box {info[src.name]['index_box']}")
    index = cache / "cards" / "decks.json"
    if index.exists():  # the procedural decks (``patience dataset procedural``) stay listed
        info.update({n: m for n, m in json.loads(index.read_text()).items() if m.get("procedural")})
    index.write_text(json.dumps(info, indent=1))
    return info


def load_decks(cache: Path = CACHE, held_out: bool | None = None, procedural: bool | None = False,
               registry: bool | None = False) -> dict[str, list]:
    """Deck name -> list of ``vision.training.scenes.Face`` (52 each) from the rasterised cache and ``decks.json``.

    ``held_out``: None = all decks, True = only the held-out designs, False = only the training designs.
    ``procedural``: False (default) = the artwork decks only, True = only the procedural decks
    (``vision.training.procedural_decks``, never held out), None = both. The default keeps every seeded scene of
    the builds made before the procedural decks existed as it was. ``registry``: the same for the npm decks
    (``False`` = left out, ``True`` = only they, ``None`` = with the others).
    """
    from vision.training.scenes import Face

    info = json.loads((cache / "cards" / "decks.json").read_text())
    out = {}
    for name, meta in sorted(info.items()):
        if held_out is not None and bool(meta["held_out"]) != held_out:
            continue
        if procedural is not None and bool(meta.get("procedural")) != procedural:
            continue
        if registry is not None and bool(meta.get("registry")) != registry:
            continue
        box = tuple(meta["index_box"])
        out[name] = [Face(c, load_face(cache / "cards" / name / f"{c}.png"), box, name) for c in CARD_NAMES]
    return out


def contact_sheets(cache: Path = CACHE) -> Path:
    """One row per deck (A, 10, J, Q, K, 6, 9) with the detected (green) and deck (red) index boxes."""
    import cv2

    out = cache / "sheets"
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    index = cache / "cards" / "decks.json"
    listed = json.loads(index.read_text()) if index.exists() else {}
    procedural = sorted(n for n, m in listed.items() if m.get("procedural"))
    for name in [src.name for src in DECKS] + procedural:
        d = cache / "cards" / name
        if not (d / "Ks.png").exists():
            continue
        faces = {p.stem: load_face(p) for p in d.glob("*.png") if not p.stem.startswith("_")}
        # the procedural decks' box is known exactly (red); the artwork decks' is measured from the ink
        db = tuple(listed[name]["index_box"]) if name in procedural else deck_index_box(faces)
        tiles = []
        for n in ("Ah", "10s", "Jh", "Qs", "Kd", "6c", "9d"):
            f = faces[n]
            h, w = f.shape[:2]
            al = f[:, :, 3:4] / 255.0
            im = (f[:, :, :3] * al + 128 * (1 - al)).astype(np.uint8)
            b = ink_index_box(f)
            if b:
                cv2.rectangle(im, b[:2], b[2:], (0, 200, 0), 1)
            if db:
                cv2.rectangle(im, (int(db[0] * w), int(db[1] * h)), (int(db[2] * w), int(db[3] * h)), (0, 0, 255), 1)
            tiles.append(cv2.resize(im, (160, 240)))
        row = np.hstack(tiles)
        label = name + (" (excluded)" if name in DECKS_EXCLUDED else "") + (" (held out)" if name in HELD_OUT else "")
        cv2.putText(row, label, (5, 235), 0, 0.6, (255, 0, 255), 2)
        rows.append(row)
    for i in range(0, len(rows), 6):
        cv2.imwrite(str(out / f"decks_{i // 6}.png"), np.vstack(rows[i : i + 6]))
    return out

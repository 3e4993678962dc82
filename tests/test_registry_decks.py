"""Decks from the npm registry (vision/training/registry_decks.py): a pinned download is checked, React components
compiled by svgr are read back into SVG, and the npm decks stay out of builds unless asked."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from vision.training import registry_decks as rd

# The shape of svgr + babel output (as in @letele/playing-cards' dist/index.esm.js): every component opens alike.
def component(name: str, body: str) -> str:
    return f"""const Svg{name} = _ref => {{
  let {{
    title,
    titleId,
    ...props
  }} = _ref;
  return /*#__PURE__*/React.createElement("svg", _extends({body});
}};
"""


COMPONENT = "import * as React from 'react';\n\n" + component("CA", '''{
    xmlns: "http://www.w3.org/2000/svg",
    xmlnsXlink: "http://www.w3.org/1999/xlink",
    className: "C-A_svg__card",
    height: 336,
    preserveAspectRatio: "none",
    viewBox: "-120 -168 240 336",
    width: 240,
    "aria-labelledby": titleId
  }, props), title ? /*#__PURE__*/React.createElement("title", {
    id: titleId
  }, title) : null, /*#__PURE__*/React.createElement("defs", null, /*#__PURE__*/React.createElement("symbol", {
    id: "C-A_svg__b",
    viewBox: "-600 -600 1200 1200"
  }, /*#__PURE__*/React.createElement("path", {
    d: "M30 150c5 235 55 250 100 350h-260Z"
  }))), /*#__PURE__*/React.createElement("rect", {
    width: 239,
    height: 335,
    x: -119.5,
    y: -167.5,
    rx: 12,
    fill: "#fff",
    stroke: "#000"
  }), /*#__PURE__*/React.createElement("use", {
    xlinkHref: "#C-A_svg__b",
    height: 70,
    x: -35,
    y: -35
  }), /*#__PURE__*/React.createElement("path", {
    d: "M0 0h1",
    strokeWidth: 80,
    strokeLinecap: "square"
  })''') + "\n" + component("H10", '''{
    viewBox: "0 0 10 10"
  }, props), /*#__PURE__*/React.createElement("text", {
    fontSize: 8
  }, "10")''')

SVG = "{http://www.w3.org/2000/svg}"


def test_react_components_become_svg_with_svg_attribute_names():
    comps = rd.react_components(COMPONENT)
    assert sorted(comps) == ["SvgCA", "SvgH10"]
    root = ET.fromstring(comps["SvgCA"])
    assert root.tag == SVG + "svg"
    assert root.get("viewBox") == "-120 -168 240 336" and root.get("preserveAspectRatio") == "none"  # kept camelCase
    assert root.get("class") == "C-A_svg__card" and root.get("aria-labelledby") is None
    assert root.find(SVG + "title") is None  # no title given
    symbol = root.find(f"{SVG}defs/{SVG}symbol")
    assert symbol.get("viewBox") == "-600 -600 1200 1200"
    use = root.find(SVG + "use")
    assert use.get("{http://www.w3.org/1999/xlink}href") == "#C-A_svg__b" and use.get("x") == "-35"
    path = root.findall(SVG + "path")[-1]
    assert path.get("stroke-width") == "80" and path.get("stroke-linecap") == "square"  # presentation: kebab-case
    text = ET.fromstring(comps["SvgH10"]).find(SVG + "text")
    assert text.text == "10" and text.get("font-size") == "8"


def test_components_are_written_one_file_per_card(tmp_path):
    assert rd.write_react_svgs(COMPONENT, tmp_path / "svg") == 2
    assert sorted(p.name for p in (tmp_path / "svg").iterdir()) == ["CA.svg", "H10.svg"]
    with pytest.raises(ValueError, match="no SVG components"):
        rd.write_react_svgs("const x = 1;", tmp_path / "none")
    with pytest.raises(ValueError, match="SvgH10: unread code"):  # code the reader does not know is not skipped
        rd.react_components(COMPONENT.replace('}, "10"));', '}, "10")), 1);'))
    with pytest.raises(ValueError, match="expected"):
        rd.react_components(COMPONENT.replace('}, "10"));', '}, "10"), extra());'))


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def test_a_download_must_match_its_pinned_checksum():
    rd.check_integrity(b"cards", _integrity(b"cards"), "pkg")
    with pytest.raises(ValueError, match="pinned sha512"):
        rd.check_integrity(b"cards!", _integrity(b"cards"), "pkg")


def test_a_fetched_package_is_unpacked_and_its_components_written(tmp_path, monkeypatch):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        data = COMPONENT.encode()
        info = tarfile.TarInfo("package/dist/index.esm.js")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    tgz = buf.getvalue()
    meta = {"version": "0.1.0", "tarball": "https://registry.example/-/cards-0.1.0.tgz", "integrity": _integrity(tgz),
            "react_svg": "package/dist/index.esm.js"}
    calls = []

    def npm_pack(spec, into):  # npm's tool writes the tarball under its own name
        calls.append(spec)
        (into / "someone-cards-0.1.0.tgz").write_bytes(tgz)
        return "someone-cards-0.1.0.tgz"

    monkeypatch.setattr(rd, "npm_pack", npm_pack)
    out = rd.fetch_package("@someone/cards", meta, tmp_path / "npm", tmp_path / "root", log=lambda *_: None)
    assert out == tmp_path / "root" / "npm" / "someone__cards"
    assert sorted(p.name for p in (out / "svg").iterdir()) == ["CA.svg", "H10.svg"]
    rd.fetch_package("@someone/cards", meta, tmp_path / "npm", tmp_path / "root", log=lambda *_: None)
    assert calls == ["@someone/cards@0.1.0"]  # downloaded once, then taken from the cache
    bad = dict(meta, integrity=_integrity(b"other"))
    (tmp_path / "npm" / "cards-0.1.0.tgz").unlink()
    with pytest.raises(ValueError, match="checksum"):
        rd.fetch_package("@someone/other", bad, tmp_path / "npm", tmp_path / "root", log=lambda *_: None)
    assert not (tmp_path / "npm" / "cards-0.1.0.tgz").exists()  # a bad download is not kept
    assert not (tmp_path / "npm" / "someone-cards-0.1.0.tgz").exists()


def test_without_npm_the_npm_decks_cannot_be_fetched_and_say_why(tmp_path, monkeypatch):
    monkeypatch.setattr(rd.shutil, "which", lambda name: None)
    with pytest.raises(OSError, match="npm is needed"):
        rd.npm_pack("@someone/cards@0.1.0", tmp_path)


def test_no_code_of_the_project_opens_a_network_connection():
    """Downloads go through the package tools (apt-get download, npm pack), never through Python code."""
    import re

    root = Path(__file__).resolve().parents[1]
    found = [str(f.relative_to(root)) for d in ("vision", "assistant") for f in (root / d).rglob("*.py")
             if re.search(r"^\s*(?:import|from)\s+(?:urllib|http\.client|requests|socket|ftplib)\b",
                               f.read_text(encoding="utf-8"), re.M)]
    assert found == []


def blank_cache(tmp_path, decks: dict[str, dict]):
    """An artwork cache of blank decks, ``{name: extra decks.json fields}`` (not held out unless they say so)."""
    cv2 = pytest.importorskip("cv2")
    from vision.card_names import CARD_NAMES

    cache = tmp_path / "cache"
    face = np.full((84, 60, 3), 255, np.uint8)
    info = {}
    for name, meta in decks.items():
        (cache / "cards" / name).mkdir(parents=True)
        for c in CARD_NAMES:
            cv2.imwrite(str(cache / "cards" / name / f"{c}.png"), face)
        info[name] = {"index_box": [0.05, 0.05, 0.2, 0.2], "held_out": False, **meta}
    (cache / "cards" / "decks.json").write_text(json.dumps(info))
    return cache


def test_npm_decks_stay_out_of_builds_unless_asked(tmp_path):
    from vision.training import synth
    from vision.training.artwork import load_decks

    cache = blank_cache(tmp_path, {"art": {}, "held": {"held_out": True}, "npm-x": {"registry": True}})
    assert sorted(load_decks(cache, held_out=False)) == ["art"]
    assert sorted(load_decks(cache, held_out=False, registry=True)) == ["npm-x"]
    assert sorted(load_decks(cache, registry=None)) == ["art", "held", "npm-x"]
    synth._init(str(cache), "train", registry_share=1.0)
    try:
        assert synth._REGISTRY_SHARE == 1.0 and sorted(synth._REGISTRY) == ["npm-x"] and sorted(synth._DECKS) == ["art"]
        assert synth._SHARE == 0.0 and synth._PROCEDURAL == {}
        assert all(f.deck == "npm-x" for f in synth.pick_faces(synth._DECKS, np.random.default_rng(0),
                                                                registry=synth._REGISTRY, registry_share=1.0))
        synth._init(str(cache), "val", registry_share=1.0)
        assert synth._REGISTRY_SHARE == 0.0 and sorted(synth._DECKS) == ["held"]  # val: held-out designs only
        with pytest.raises(ValueError, match="at most 1"):
            synth._init(str(cache), "train", procedural_share=0.6, registry_share=0.5)
    finally:
        synth._init(str(cache), "train", 0.0)  # leave the module as the default build has it


def test_a_build_can_draw_tables_from_procedural_and_npm_decks_together(tmp_path):
    from vision.training import synth

    cache = blank_cache(tmp_path, {"art": {}, "npm-x": {"registry": True}, "proc-y": {"procedural": True}})
    synth._init(str(cache), "train", procedural_share=0.3, registry_share=0.3)
    try:
        assert sorted(synth._PROCEDURAL) == ["proc-y"] and sorted(synth._REGISTRY) == ["npm-x"]
        tables = [synth.pick_faces(synth._DECKS, np.random.default_rng(k), synth._PROCEDURAL, synth._SHARE,
                                   synth._REGISTRY, synth._REGISTRY_SHARE)[0].deck for k in range(300)]
        share = {d: tables.count(d) / len(tables) for d in ("art", "npm-x", "proc-y")}
        assert 0.2 < share["proc-y"] < 0.4 and 0.2 < share["npm-x"] < 0.4 and 0.3 < share["art"] < 0.5
        # an npm-only build draws as when the npm decks were the one other pool: its seeds keep their scenes
        for k in range(20):
            old = synth.pick_faces(synth._DECKS, np.random.default_rng(k), synth._REGISTRY, 0.3)
            new = synth.pick_faces(synth._DECKS, np.random.default_rng(k), registry=synth._REGISTRY,
                                   registry_share=0.3)
            assert [f.deck for f in old] == [f.deck for f in new]
    finally:
        synth._init(str(cache), "train", 0.0)

"""Card decks from the npm registry: download a pinned package tarball, check it, unpack it, and turn decks that
ship as React components into plain SVG files, one per card.

Why: the Debian decks are mostly computer-game designs; the two npm decks are the classic casino look of real
decks (Chris Aguilar's vectorized playing cards; Adrian Kennard's English-pattern cards). Every package is pinned
by version and sha512 in ``datasets/decks.json`` (``registry_packages``) with its licence. The tarball is fetched
by npm's own tool (``npm pack``), as the Debian decks are by ``apt-get download``: no Python code here opens a
network connection. Nothing of Node.js runs: the compiled React code is read by the small parser below.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

# ---------------------------------------------------------------------------------------------------------------
# Fetching
# ---------------------------------------------------------------------------------------------------------------


def package_dir(root: Path, package: str) -> Path:
    """Where ``package`` (an npm name such as ``@letele/playing-cards``) is unpacked under ``root``."""
    return root / "npm" / package.lstrip("@").replace("/", "__")


def fetch_package(package: str, meta: dict, downloads: Path, root: Path, log=print) -> Path:
    """Download ``package@meta["version"]`` with ``npm pack`` into ``downloads`` once, check ``meta["integrity"]``
    (sha512, npm's format), unpack it into ``package_dir(root, package)`` and, for ``meta["react_svg"]``, write the
    card SVGs. Returns the folder. Raises OSError when npm is missing or cannot fetch it, ValueError on a bad
    checksum (the download is not kept)."""
    name = meta["tarball"].rsplit("/", 1)[1]  # the registry's file name, kept as the cache's
    tgz = downloads / name
    if not tgz.exists():
        downloads.mkdir(parents=True, exist_ok=True)
        log(f"npm pack {package}@{meta['version']}")
        packed = downloads / npm_pack(f"{package}@{meta['version']}", downloads)
        data = packed.read_bytes()
        packed.unlink()  # kept under the registry's name once checked
        check_integrity(data, meta["integrity"], package)
        tgz.write_bytes(data)
    out = package_dir(root, package)
    stamp = out / ".done"
    if not stamp.exists():
        data = tgz.read_bytes()
        check_integrity(data, meta["integrity"], package)
        out.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            if hasattr(tarfile, "data_filter"):  # Python 3.10.12+ / 3.11.4+: plain files inside ``out`` only
                tar.extractall(out, filter="data")
            else:
                for m in tar.getmembers():
                    if m.name.startswith(("/", "\\")) or ".." in Path(m.name).parts or not (m.isfile() or m.isdir()):
                        raise tarfile.TarError(f"{package}: unsafe member {m.name!r} in the tarball")
                tar.extractall(out)
        if meta.get("react_svg"):
            module = out / meta["react_svg"]
            write_react_svgs(module.read_text(encoding="utf-8"), out / "svg")
        stamp.touch()
    return out


def npm_pack(spec: str, into: Path) -> str:
    """Run ``npm pack SPEC`` in ``into`` (npm fetches the registry's tarball; no scripts run) and return the file
    name it wrote. Raises OSError when npm is missing or fails."""
    npm = shutil.which("npm")
    if not npm:
        raise OSError("npm is needed to fetch the npm decks (apt-get install npm)")
    try:
        done = subprocess.run([npm, "pack", spec, "--json", "--ignore-scripts", "--pack-destination", str(into)],
                              cwd=into, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired as exc:
        raise OSError(f"npm pack {spec} took over {exc.timeout:.0f} s") from exc
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or ["?"])[-1]
        raise OSError(f"npm pack {spec} failed: {why}")
    return json.loads(done.stdout)[0]["filename"]


def check_integrity(data: bytes, integrity: str, what: str) -> None:
    """Raise ValueError unless ``data`` has the npm ``integrity`` string (``sha512-<base64>``)."""
    algo, _, want = integrity.partition("-")
    got = base64.b64encode(hashlib.new(algo, data).digest()).decode()
    if got != want:
        raise ValueError(f"{what}: the download does not match its pinned {algo} checksum")


# ---------------------------------------------------------------------------------------------------------------
# React components (compiled by svgr + babel) -> SVG
# ---------------------------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"""\s*(?:(/\*.*?\*/)|("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(-?\d*\.?\d+(?:e-?\d+)?)|"""
                    r"""([A-Za-z_$][\w$.]*)|(\.\.\.|[{}(),:?]))""", re.S)
_ATTR_NAMES = {"className": "class", "xlinkHref": "xlink:href", "xmlnsXlink": "xmlns:xlink",
               "xmlSpace": "xml:space"}
# SVG's own camelCase attributes (React passes these through; its presentation attributes become kebab-case)
_SVG_CAMEL = {"viewBox", "preserveAspectRatio", "patternUnits", "patternContentUnits", "patternTransform",
              "gradientUnits", "gradientTransform", "clipPathUnits", "maskUnits", "maskContentUnits",
              "spreadMethod", "startOffset", "textLength", "lengthAdjust", "markerWidth", "markerHeight",
              "markerUnits", "refX", "refY", "stdDeviation", "baseProfile"}


def _tokens(src: str) -> list[str]:
    out, pos = [], 0
    while pos < len(src):
        m = _TOKEN.match(src, pos)
        if m is None:
            if src[pos:].strip() == "":
                break
            raise ValueError(f"cannot read the component near {src[pos:pos + 40]!r}")
        pos = m.end()
        if m.group(1) is None:
            out.append(m.group(0).strip())
    return out


class _Reader:
    """Recursive descent over the subset the svgr output uses: ``React.createElement(tag, props, ...children)``,
    props an object literal, ``null`` or ``_extends({...}, props)``, and ``title ? ... : null`` children."""

    def __init__(self, tokens: list[str]):
        self.t, self.i = tokens, 0

    def peek(self) -> str:
        return self.t[self.i]

    def take(self, want: str | None = None) -> str:
        tok = self.t[self.i]
        if want is not None and tok != want:
            raise ValueError(f"expected {want!r}, found {tok!r}")
        self.i += 1
        return tok

    def value(self):
        tok = self.take()
        if tok == "React.createElement":
            self.take("(")
            tag = self.value()
            self.take(",")
            props = self.value()
            children = []
            while self.peek() == ",":
                self.take(",")
                children.append(self.value())
            self.take(")")
            node = (tag, props or {}, [c for c in children if c is not None])
        elif tok == "_extends":
            self.take("(")
            node = self.value()
            while self.peek() == ",":
                self.take(",")
                self.value()  # the caller's props: none here
            self.take(")")
        elif tok == "{":
            node = {}
            while self.peek() != "}":
                if self.peek() == "...":
                    self.take("...")
                    self.value()
                else:
                    key = self.take().strip("\"'")
                    self.take(":")
                    node[key] = self.value()
                if self.peek() == ",":
                    self.take(",")
            self.take("}")
        elif tok[0] in "\"'":
            node = bytes(tok[1:-1], "utf-8").decode("unicode_escape") if "\\" in tok else tok[1:-1]
        elif re.fullmatch(r"-?\d*\.?\d+(?:e-?\d+)?", tok):
            node = tok
        else:  # an identifier: null, titleId, props, ... (the caller's values: none here)
            node = None
        if self.i < len(self.t) and self.peek() == "?":  # title ? <title> : null -> no title
            self.take("?")
            self.value()
            self.take(":")
            node = self.value()
        return node


def _attr(key: str) -> str:
    key = _ATTR_NAMES.get(key, key)
    if key in _SVG_CAMEL or key.startswith("aria") or ":" in key or "-" in key:
        return key
    return re.sub(r"[A-Z]", lambda m: "-" + m.group(0).lower(), key)


def _xml(node) -> str:
    from xml.sax.saxutils import escape, quoteattr

    if isinstance(node, str):
        return escape(node)
    tag, props, children = node
    named = ((_attr(k), v) for k, v in props.items() if v is not None)
    attrs = "".join(f" {k}={quoteattr(str(v))}" for k, v in named if not k.startswith("aria"))
    inner = "".join(_xml(c) for c in children)
    return f"<{tag}{attrs}>{inner}</{tag}>" if inner else f"<{tag}{attrs}/>"


def react_components(module: str) -> dict[str, str]:
    """Component name (``SvgCA``) -> SVG text, for every ``const SvgX = _ref => {... return <element>; };``."""
    out = {}
    for m in re.finditer(r"const (Svg\w+) = _ref => \{.*?return (/\*#__PURE__\*/React\.createElement\(.*?)\;\n\};",
                         module, re.S):
        reader = _Reader(_tokens(m.group(2)))
        root = reader.value()
        if reader.i != len(reader.t):
            raise ValueError(f"{m.group(1)}: unread code after the element ({' '.join(reader.t[reader.i:][:5])})")
        tag, props, children = root
        props.setdefault("xmlns", "http://www.w3.org/2000/svg")
        props.setdefault("xmlnsXlink", "http://www.w3.org/1999/xlink")
        out[m.group(1)] = _xml((tag, props, children))
    return out


def write_react_svgs(module: str, out: Path) -> int:
    """Write every component of ``module`` to ``out/<name without Svg>.svg`` (``CA.svg``, ``H10.svg``)."""
    out.mkdir(parents=True, exist_ok=True)
    comps = react_components(module)
    if not comps:
        raise ValueError("no SVG components found in the package's module")
    for name, svg in comps.items():
        (out / f"{name[3:]}.svg").write_text(svg, encoding="utf-8")
    return len(comps)

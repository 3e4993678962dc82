"""Compile gettext catalogues (.po -> .mo) with the standard library only, so the package needs no Babel.

The committed .mo files are what the app reads; ``python -m assistant.coach.mo`` rebuilds them after a .po edit,
and tests/test_coach_i18n.py fails when a committed .mo differs from its .po. Only what the catalogues use is
supported: ``msgctxt``-free entries, ``msgid``/``msgstr`` with continued string lines, ``#`` comments, ``fuzzy``
entries skipped (as msgfmt does).
"""

from __future__ import annotations

import ast
import struct
import sys
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "patience"


class PoError(ValueError):
    """A .po file this reader cannot parse; the message names the file and line."""


def read_po(path: Path) -> dict[str, str]:
    """The entries of a .po file as {msgid: msgstr}; the header (msgid "") included, fuzzy entries left out."""
    entries: dict[str, str] = {}
    msgid = msgstr = None
    fuzzy = False
    section = None

    def flush():
        nonlocal msgid, msgstr, fuzzy
        if msgid is not None and msgstr is not None and not fuzzy:
            if msgid in entries:
                raise PoError(f"{path}: msgid {msgid!r} appears twice")
            entries[msgid] = msgstr
        msgid = msgstr = None
        fuzzy = False

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line:
            flush()
            section = None
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                if msgstr is not None:
                    flush()
                fuzzy = True
            continue
        try:
            if line.startswith("msgid "):
                if msgstr is not None:
                    flush()
                msgid, section = ast.literal_eval(line[6:].strip()), "id"
            elif line.startswith("msgstr "):
                msgstr, section = ast.literal_eval(line[7:].strip()), "str"
            elif line.startswith('"'):
                piece = ast.literal_eval(line)
                if section == "id":
                    msgid += piece
                elif section == "str":
                    msgstr += piece
                else:
                    raise PoError(f"{path}:{number}: a string outside an entry")
            else:
                raise PoError(f"{path}:{number}: cannot read {raw!r}")
        except (SyntaxError, ValueError) as exc:
            if isinstance(exc, PoError):
                raise
            raise PoError(f"{path}:{number}: bad string {raw!r}") from None
    flush()
    return entries


def mo_bytes(entries: dict[str, str]) -> bytes:
    """The GNU .mo image of ``entries`` (little-endian, no hash table: gettext reads it as msgfmt's)."""
    keys = sorted(entries)
    ids = b""
    strs = b""
    offsets = []
    for k in keys:
        kb, vb = k.encode("utf-8"), entries[k].encode("utf-8")
        offsets.append((len(ids), len(kb), len(strs), len(vb)))
        ids += kb + b"\0"
        strs += vb + b"\0"
    n = len(keys)
    keystart = 7 * 4 + 16 * n
    valuestart = keystart + len(ids)
    koffsets, voffsets = [], []
    for o1, l1, o2, l2 in offsets:
        koffsets += [l1, o1 + keystart]
        voffsets += [l2, o2 + valuestart]
    header = struct.pack("<Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + n * 8, 0, 0)
    return header + struct.pack(f"<{2 * n}i", *koffsets) + struct.pack(f"<{2 * n}i", *voffsets) + ids + strs


def po_files(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    return sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def compile_all(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Write every ``<lang>/LC_MESSAGES/patience.mo`` next to its .po; returns the files written."""
    written = []
    for po in po_files(locale_dir):
        mo = po.with_suffix(".mo")
        mo.write_bytes(mo_bytes(read_po(po)))
        written.append(mo)
    return written


if __name__ == "__main__":  # pragma: no cover - maintenance
    for path in compile_all():
        print(path)
    sys.exit(0)

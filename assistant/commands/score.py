"""``patience score``: score a full Poker Patience square, American and English (rules/004, "Wertung").

``patience score GRID`` prints a table for people: the square, each row and column with its hand and points under
both scorings, the totals and whether they reach the win thresholds (200 American / 70 English; ``--shuffle``:
Poker Shuffle's 310 / 120). ``--json`` prints one JSON object instead (a bad grid: ``{"error": "<reason>"}``, the
reason on stderr too, exit code 2).

GRID is 25 cards, rows separated by ``/``: ``patience score AH AD JS JC JH / 9H 7D 9S 9C 7H / 8H 8D 8S 8C 4D /
QH TD TS TC 4C / 6H 5D 6S 5C 2D`` (quoted or not; 25 cards without ``/`` are read as 5 rows of 5).

``patience score -`` reads one grid per line from stdin and writes one JSON object per input grid to stdout:

    {"line": 1, "american": 197, "english": 66,
     "rows": [{"cards": ["Ah", "Ad", "Js", "Jc", "Jh"], "hand": "full house", "american": 25, "english": 10}, ...],
     "columns": [...same shape, columns 1-5...]}

"line" is the 1-based input line number. Blank lines and lines starting with ``#`` are skipped (no output).
A bad line does not stop the run: it is reported on stderr as ``patience score: line N: <reason>``, marked on stdout
as ``{"line": N, "error": "<reason>"}`` (so every grid line has exactly one output line), and the command exits
with code 2 once all lines are done (0 if every line was good).
"""

from __future__ import annotations

import json
import sys

from assistant.cli import UserError

_STREAM_CHUNK = 4096


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score a full Poker Patience square (American and English points)",
        description=__doc__,
        formatter_class=__import__("argparse").RawDescriptionHelpFormatter,
    )
    parser.add_argument("grid", nargs="+", metavar="GRID",
                        help="25 cards, rows separated by '/', or '-' to read one grid per line from stdin")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    parser.add_argument("--shuffle", action="store_true",
                        help="judge the win with Poker Shuffle's thresholds (310 American / 120 English)")
    parser.set_defaults(func=run)


def run(args) -> int:
    if args.grid == ["-"]:
        try:  # a stray byte that is not UTF-8 becomes a bad card on its line, not a crash
            sys.stdin.reconfigure(errors="replace")
        except (AttributeError, ValueError):
            pass
        return _stream(sys.stdin, sys.stdout, sys.stderr)
    text = " ".join(args.grid)
    from assistant.games.poker import parse_grid

    try:
        cells = parse_grid(text)
    except ValueError as exc:
        if args.json:  # a JSON reader gets an object on stdout, as the stream mode's bad lines do
            print(json.dumps({"error": str(exc)}))
        raise UserError(str(exc)) from None
    from assistant.games.poker import PokerRules

    thresholds = {s: PokerRules(s, shuffle=args.shuffle).win_threshold for s in ("american", "english")}
    if args.json:
        obj = _grid_object([c.index for c in cells])
        obj["thresholds"] = thresholds
        obj["won"] = {s: obj[s] >= t for s, t in thresholds.items()}
        print(json.dumps(obj))
        return 0
    _print_table(cells, thresholds, args.shuffle)
    return 0


# --------------------------------------------------------------------------------------------------- JSON


def _tables():
    from assistant.cards import Card, Rank, Suit
    from assistant.games.poker_hands import AMERICAN_POINTS, ENGLISH_POINTS, HandCategory

    token_index: dict[str, int] = {}
    for suit in Suit:
        for rank in Rank:
            idx = suit * 13 + rank - 1
            labels = [rank.label] + (["T"] if rank == Rank.TEN else [])
            for lab in labels:
                for s in (suit.letter, suit.symbol):
                    token_index[(lab + s).upper()] = idx
    card_text = [str(Card.from_index(i)) for i in range(52)]
    cat_info = {int(c): (c.label, int(AMERICAN_POINTS[c]), int(ENGLISH_POINTS[c])) for c in HandCategory}
    return token_index, card_text, cat_info


def _grid_object(indices, cats=None, tables=None) -> dict:
    """The per-grid JSON object (without "line") for 25 row-major card indices."""
    import numpy as np

    from assistant.games.poker_hands import LINES, score_grids

    if tables is None:
        tables = _tables()
    _, card_text, cat_info = tables
    if cats is None:
        cats = score_grids(np.array([indices], dtype=np.int8), check=False)[0][0]
    lines = []
    am = en = 0
    for li, cells in enumerate(LINES):
        label, a, e = cat_info[int(cats[li])]
        am += a
        en += e
        lines.append({"cards": [card_text[indices[i]] for i in cells], "hand": label, "american": a, "english": e})
    return {"american": am, "english": en, "rows": lines[:5], "columns": lines[5:]}


def _fast_parse(line: str, token_index: dict[str, int]) -> list[int] | None:
    """25 card indices for a well-formed line, None for anything else (then parse_grid gives the reason)."""
    rows = line.split("/")
    if len(rows) != 5:
        return None
    out: list[int] = []
    for row in rows:
        toks = row.replace(",", " ").split()
        if len(toks) != 5:
            return None
        for t in toks:
            i = token_index.get(t.upper())
            if i is None:
                return None
            out.append(i)
    if len(set(out)) != 25:
        return None
    return out


def _stream(inp, out, err) -> int:
    import itertools

    import numpy as np

    from assistant.games.poker import parse_grid
    from assistant.games.poker_hands import score_grids

    tables = _tables()
    token_index = tables[0]
    chunk = 1 if getattr(inp, "isatty", lambda: False)() else _STREAM_CHUNK
    bad = 0
    numbered = enumerate(inp, 1)
    while True:
        batch = list(itertools.islice(numbered, chunk))
        if not batch:
            break
        items: list[tuple[int, list[int] | None, str | None]] = []
        for n, raw in batch:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            idx = _fast_parse(line, token_index)
            if idx is None:
                try:
                    idx = [c.index for c in parse_grid(line)]
                except ValueError as exc:
                    items.append((n, None, str(exc)))
                    continue
            items.append((n, idx, None))
        good = [idx for _, idx, e in items if e is None]
        cats = score_grids(np.array(good, dtype=np.int8).reshape(-1, 25), check=False)[0] if good else None
        k = 0
        parts = []
        for n, idx, error in items:
            if error is not None:
                bad += 1
                print(f"patience score: line {n}: {error}", file=err)
                parts.append(json.dumps({"line": n, "error": error}))
                continue
            obj = {"line": n}
            obj.update(_grid_object(idx, cats[k], tables))
            k += 1
            parts.append(json.dumps(obj))
        if parts:
            out.write("\n".join(parts) + "\n")
            out.flush()
    return 2 if bad else 0


# --------------------------------------------------------------------------------------------------- table


def _print_table(cells, thresholds: dict[str, int], shuffle: bool) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from assistant.games.poker import score_grid

    am = score_grid(cells, "american", thresholds["american"])
    en = score_grid(cells, "english", thresholds["english"])

    def card_text(c) -> Text:
        return Text(c.pretty, style="red" if c.suit.is_red else "bold")

    square = Table(title="Poker Patience square", show_header=True, header_style="dim")
    square.add_column("")
    for c in range(1, 6):
        square.add_column(f"col {c}", justify="center")
    for r in range(5):
        square.add_row(f"row {r + 1}", *[card_text(cells[r * 5 + c]) for c in range(5)])

    lines = Table(title="Hands", show_footer=True)
    lines.add_column("line", footer="total")
    lines.add_column("cards")
    lines.add_column("hand")
    lines.add_column("American", justify="right", footer=str(am.total))
    lines.add_column("English", justify="right", footer=str(en.total))
    for a, e in zip(am.lines, en.lines):
        cards = Text(" ").join(card_text(c) for c in a.cards)
        lines.add_row(a.name, cards, a.category.label, str(a.points), str(e.points))
        if a.name == "row 5":
            lines.add_section()

    console = Console()
    console.print(square)
    console.print(lines)
    game = "Poker Shuffle" if shuffle else "Poker Patience"
    for sc in (am, en):
        verdict = "[green]won[/]" if sc.won else "[yellow]not reached[/]"
        console.print(f"{sc.scoring.value.capitalize()}: {sc.total} points, {game} win at {sc.threshold}: {verdict}")

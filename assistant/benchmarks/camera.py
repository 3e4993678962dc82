"""``patience bench camera VIDEO...``: the live assistant on rendered game videos with ground truth.

Each VIDEO.mp4 has VIDEO.json beside it (``patience dataset video`` writes both): the game, its true card and
move events with the frame where the card came to rest, and the result. Every frame is processed in order, as
``patience play --source VIDEO --headless --json`` does, and the events are compared with the truth:

- games recovered exactly (every card, every move, the result);
- move accuracy, and wrong / missed / extra events (aligned in order);
- latency from the card lying still to its card event and to its hint, in video seconds (the hint's own
  thinking time added), median and p95;
- ms per frame of the whole pipeline (wall clock).
"""

from __future__ import annotations

import difflib
import json
import re
import sys
import time
from pathlib import Path

import numpy as np


def add_arguments(p) -> None:
    p.add_argument("videos", nargs="+", metavar="VIDEO", help="rendered game videos (VIDEO.json beside each)")
    p.add_argument("--no-hints", action="store_true", help="follow the games without the advisor")
    p.add_argument("--budget-ms", type=float, default=250.0, help="the hint's thinking time (default 250 ms, as "
                   "patience play --source)")
    p.add_argument("--threads", type=int, help="card reader threads (default 2)")
    p.add_argument("--json", action="store_true", help="one JSON object per video, then the totals")
    p.add_argument("--events", metavar="DIR", help="write each video's events (JSON lines) into DIR")
    p.add_argument("--cache", metavar="DIR", help="keep the card reader's results per frame in DIR and reuse them "
                   "(replays the event logic without the model; ms a frame then leaves the reader out)")


def run(args) -> int:
    from assistant.cli import UserError

    reports = []
    for name in args.videos:
        video = Path(name)
        truth_file = video.with_suffix(".json")
        if not video.is_file() or not truth_file.is_file():
            raise UserError(f"{video} (and {truth_file.name} beside it) not found")
        truth = json.loads(truth_file.read_text())
        print(f"{video.name}: {truth['game']}, {truth['frames']} frames ...", file=sys.stderr, flush=True)
        events, seconds = follow(video, truth, hints=not args.no_hints, budget_ms=args.budget_ms, threads=args.threads,
                                 cache=Path(args.cache) / f"{video.stem}.jsonl" if args.cache else None)
        if args.events:
            out = Path(args.events)
            out.mkdir(parents=True, exist_ok=True)
            (out / f"{video.stem}.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
        report = compare(truth, events)
        report.update(video=video.name, ms_per_frame=round(1000.0 * seconds / max(1, truth["frames"]), 1),
                      fps=round(truth["frames"] / seconds, 1))
        reports.append(report)
        print(json.dumps(report) if args.json else line(report), flush=True)
    total = totals(reports)
    print(json.dumps(total) if args.json else line(total), flush=True)
    return 0


def follow(video: Path, truth: dict, hints: bool, budget_ms: float, threads: int | None, cache: Path | None = None):
    """The events of ``patience play --source VIDEO --headless --json``, and the wall seconds it took."""
    from assistant.live.app import _reader, run_live
    from assistant.live.detection_cache import CachedReader
    from assistant.session import Session

    read = None
    if cache is not None:
        read = CachedReader(cache, _reader(None, threads, game=truth["game"]))  # frames not in the cache yet are read and added

    events: list[dict] = []

    class Sink:
        def write(self, text: str) -> None:
            for part in text.splitlines():
                if part.strip():
                    events.append(json.loads(part))

        def flush(self) -> None:
            pass

    session = Session.new(truth["game"], truth.get("variant"))
    start = time.perf_counter()
    run_live(session, str(video), as_json=True, headless=True, hints=hints, budget_ms=budget_ms, threads=threads,
             out=Sink(), read_keys=False, read=read)
    return events, time.perf_counter() - start


def _key(e: dict, final_cells: dict | None = None) -> tuple:
    if e["event"] == "card":
        return ("card", e["card"])
    if "move" in e:  # four at a time: the card names the hand position (S2>W0 is S>W0 of that card)
        return ("move", e["card"], re.sub(r"^S\d", "S", e["move"]))
    return ("move", e["card"], tuple(final_cells.get(e["card"], ())) if final_cells is not None else None)


def standing(events: list[dict]) -> list[dict]:
    """The card and move events that stand: each undo takes back the last of them."""
    out: list[dict] = []
    for e in events:
        if e["event"] in ("card", "move"):
            out.append(e)
        elif e["event"] == "undo" and out:
            out.pop()
    return out


def compare(truth: dict, events: list[dict]) -> dict:
    """Events against the truth, aligned in order (Poker moves judged by where the card is in the final grid;
    Poker Shuffle's cards and moves in any order; four at a time's batches as in ``_batches_in_order``)."""
    fps = float(truth["fps"])
    got = standing(events)
    want = [e for e in truth["events"] if e["event"] in ("card", "move")]
    shuffle = "shuffle" in (truth.get("variant") or "")
    if shuffle:  # Poker Shuffle: laid out and placed in any order
        got, want = (sorted(x, key=lambda e: (e["event"] == "move", e["card"])) for x in (got, want))
    elif truth["game"] == "tommy":
        got, want = _batches_in_order(got), _batches_in_order(want)
    result = next((e for e in reversed(events) if e["event"] == "result"), None)  # the last word on the game
    poker = truth["game"] == "poker"
    got_cells = _cells(_trim(result["rows"])) if poker and result else {}
    want_cells = _cells(_trim(truth["result"]["rows"])) if poker else {}
    a = [_key(e, got_cells if poker else None) for e in got]
    b = [_key(e, want_cells if poker else None) for e in want]
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    matched, wrong, missed, extra = [], 0, 0, 0
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            matched += list(zip(range(i1, i2), range(j1, j2)))
        elif op == "replace":
            wrong += min(i2 - i1, j2 - j1)
            extra += max(0, (i2 - i1) - (j2 - j1))
            missed += max(0, (j2 - j1) - (i2 - i1))
        elif op == "delete":
            extra += i2 - i1
        elif op == "insert":
            missed += j2 - j1
    card_latency, hint_latency = [], []
    hints = [e for e in events if e["event"] == "hint"]
    last_laid = max((e["still_frame"] for e in want if e["event"] == "card"), default=None)
    for i, j in matched:
        if got[i]["event"] != "card":
            continue
        still = want[j]["still_frame"]
        card_latency.append((got[i]["frame"] - still) / fps)
        if shuffle and still != last_laid:
            continue  # Poker Shuffle: one hint, the arrangement, once the last card is laid out
        hint = next((h for h in hints if h["frame"] >= got[i]["frame"] and (shuffle or h.get("card") == got[i]["card"])),
                    None)
        if hint is not None:
            hint_latency.append((hint["frame"] - still) / fps + hint.get("ms", 0.0) / 1000.0)
    moves_true = sum(1 for e in want if e["event"] == "move")
    moves_right = sum(1 for _, j in matched if want[j]["event"] == "move")
    result_right = result is not None and _result_matches(truth, result)
    exact = result_right and wrong == missed == extra == 0
    return {"game": truth["game"], "deck": truth.get("deck"), "exact": exact, "result_right": result_right,
            "moves": moves_true, "moves_right": moves_right, "events": len(want), "wrong": wrong, "missed": missed,
            "extra": extra, "warnings": sum(1 for e in events if e["event"] == "warning"),
            "card_latency_s": _stats(card_latency), "hint_latency_s": _stats(hint_latency),
            "_card_latencies": card_latency, "_hint_latencies": hint_latency}


def _batches_in_order(events: list[dict]) -> list[dict]:
    """Four at a time: the cards of a batch are turned in any order, and its cards laid on different places
    commute: each run of card events sorted by card, each run of placements by place (in order within a place)."""
    out, run = [], []
    for e in events + [{"event": "end"}]:
        kind = e["event"] if e["event"] == "card" or e.get("move", "").startswith("S") else None
        if run and kind != run[0]["event"]:
            out += sorted(run, key=(lambda x: x["card"]) if run[0]["event"] == "card" else
                          (lambda x: x["move"].split(">")[1]))
            run = []
        (run if kind else out).append(e)
    return out[:-1]


def _cells(rows) -> dict:
    return {c: (r, k) for r, row in enumerate(rows) for k, c in enumerate(row) if c}


def _trim(rows) -> list:
    """A grid without its empty outer rows and columns (a partial grid is known only up to a shift)."""
    rows = [list(r) for r in rows if any(r)]
    if not rows:
        return rows
    keep = [k for k in range(len(rows[0])) if any(r[k] for r in rows)]
    return [[r[k] for k in range(keep[0], keep[-1] + 1)] for r in rows]


def _result_matches(truth: dict, result: dict) -> bool:
    want = truth["result"]
    if truth["game"] == "poker":
        return _trim(result.get("rows") or []) == _trim(want["rows"]) and result.get("american") == want["american"]
    return result.get("won") == want["won"] and result.get("foundation_cards") == want["foundation_cards"]


def _stats(values) -> dict:
    if not values:
        return {"median": None, "p95": None, "n": 0}
    v = np.asarray(values, dtype=np.float64)
    return {"median": round(float(np.median(v)), 2), "p95": round(float(np.percentile(v, 95)), 2), "n": len(v)}


def totals(reports: list[dict]) -> dict:
    card = [x for r in reports for x in r["_card_latencies"]]
    hint = [x for r in reports for x in r["_hint_latencies"]]
    for r in reports:
        r.pop("_card_latencies", None)
        r.pop("_hint_latencies", None)
    moves = sum(r["moves"] for r in reports)
    return {"video": "all", "games": len(reports), "exact": sum(r["exact"] for r in reports),
            "move_accuracy": round(sum(r["moves_right"] for r in reports) / max(1, moves), 4),
            "wrong": sum(r["wrong"] for r in reports), "missed": sum(r["missed"] for r in reports),
            "extra": sum(r["extra"] for r in reports), "card_latency_s": _stats(card), "hint_latency_s": _stats(hint),
            "ms_per_frame": round(float(np.median([r["ms_per_frame"] for r in reports])), 1) if reports else None}


def line(r: dict) -> str:
    c, h = r["card_latency_s"], r["hint_latency_s"]
    if r["video"] == "all":
        head = (f"ALL {r['games']} games: {r['exact']} recovered exactly, move accuracy {100 * r['move_accuracy']:.1f} %, "
                f"wrong {r['wrong']} / missed {r['missed']} / extra {r['extra']}")
    else:
        head = (f"{r['video']} ({r['game']}, {r['deck']}): {'EXACT' if r['exact'] else 'not exact'}, result "
                f"{'right' if r['result_right'] else 'wrong'}, moves {r['moves_right']}/{r['moves']}, wrong {r['wrong']} / "
                f"missed {r['missed']} / extra {r['extra']}, {r['warnings']} warnings")
    return (f"{head}; still->card median {c['median']} s p95 {c['p95']} s; still->hint median {h['median']} s "
            f"p95 {h['p95']} s; {r['ms_per_frame']} ms a frame")

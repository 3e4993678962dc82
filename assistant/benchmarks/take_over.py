"""``patience bench take-over FOLDER``: take over labelled photos of Sir Tommy tables under way; how much is right.

FOLDER holds photos each with ``<photo>.json`` = ``{"foundations": [tops], "waste": [[bottom .. top], x 4]}`` in the
order ``assistant.take_over`` reads a table (``assistant.benchmarks.tommy_tables``). Each photo is read as ``patience
play tommy --take-over PHOTO`` reads it (the photo models, ``assistant.take_over.read_layout``). Printed: tables
read exactly (the foundations' tops, in any order, and every waste pile card for card), the foundations' tops
right, the waste piles' cards right (in their own pile, in order), wrong (a card read into a pile it is not in)
and missed, how many of the missed cards a note points at (it names a card next to it in its pile), tables
refused (a reading that is not a Sir Tommy table), and the time a photo takes.

``--render N`` first renders N photos into FOLDER from the card designs held out of training (needs the artwork:
``patience dataset fetch``); the recorded set is ``patience bench take-over datasets/tableval --render 24``.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

from assistant.cli import UserError


def add_arguments(parser) -> None:
    parser.add_argument("folder", metavar="FOLDER", help="labelled photos: IMAGE + IMAGE.json with the truth")
    parser.add_argument("--render", type=int, default=0, metavar="N",
                        help="first render N labelled table photos of held-out designs into FOLDER")
    parser.add_argument("--seed", type=int, default=0, help="seed of --render (default 0)")
    parser.add_argument("--threads", type=int, default=None, metavar="N", help="ONNX Runtime threads (default 2)")
    parser.add_argument("--model", metavar="DIR", help="model folder (default: the committed models/)")
    parser.add_argument("--no-second-look", action="store_true",
                        help="no second look where a pile's corner index was not found (as before it)")
    parser.add_argument("--json", action="store_true", help="one JSON object per photo, then the summary")
    parser.add_argument("--verbose", action="store_true", help="print each photo's reading against the truth")


def in_order(read: list[str], truth: list[str]) -> int:
    """How many of ``read`` lie in ``truth`` in the same order (the longest common subsequence)."""
    best = [0] * (len(truth) + 1)
    for r in read:
        prev = 0
        for j, t in enumerate(truth):
            prev, best[j + 1] = best[j + 1], max(best[j + 1], best[j], prev + 1 if r == t else 0)
    return best[-1]


def compare(layout, truth: dict) -> dict:
    """The reading of one table against its truth (counts)."""
    tops = Counter(str(c) for c in layout.tops if c)
    true_tops = Counter(c for c in truth["foundations"] if c)
    right = wrong = missed = pointed = 0
    for k, pile in enumerate(truth["waste"]):
        read = [str(c) for c in layout.waste[k]] if k < len(layout.waste) else []
        good = in_order(read, pile)
        right += good
        wrong += len(read) - good
        lost = [j for j, c in enumerate(pile) if c not in read]
        missed += len(lost)
        for j in lost:  # a note naming the card under or over it in its pile points at it
            near = {pile[i] for i in (j - 1, j + 1) if 0 <= i < len(pile) and pile[i] in read}
            pointed += any(any(c in note.split() or f"{c})" in note for c in near) for note in layout.notes)
    exact = tops == true_tops and [[str(c) for c in p] for p in layout.waste] == truth["waste"]
    return {"exact": exact, "tops_right": sum((tops & true_tops).values()), "tops": sum(true_tops.values()),
            "cards_right": right, "cards_wrong": wrong, "cards_missed": missed, "missed_pointed": pointed,
            "cards": sum(len(p) for p in truth["waste"])}


def run(args) -> int:
    import numpy as np

    from assistant.commands.detect import read_image, table_reader
    from assistant.take_over import read_layout
    from vision.benchmark import load_average, machine

    folder = Path(args.folder)
    if args.render:
        from assistant.benchmarks.tommy_tables import write_table_set

        try:
            write_table_set(folder, args.render, args.seed)
        except FileNotFoundError as exc:
            raise UserError(str(exc)) from None
    if not folder.is_dir():
        raise UserError(f"{folder}: no such folder (render one with --render 24)")
    photos = [p for p in sorted(folder.iterdir())
              if p.suffix.lower() in (".jpg", ".jpeg", ".png") and (folder / (p.name + ".json")).is_file()]
    if not photos:
        raise UserError(f"{folder}: no labelled photos (IMAGE + IMAGE.json); render some with --render 24")
    reader = table_reader(args.model, args.threads)
    reader.detect(np.zeros((480, 640, 3), np.uint8))  # warm up the sessions
    total: Counter = Counter()
    refused, ms = 0, []
    for path in photos:
        truth = json.loads((folder / (path.name + ".json")).read_text())
        image = read_image(path)
        t0 = time.perf_counter()
        try:
            layout = read_layout(reader, image, second_look=not args.no_second_look)
        except ValueError as exc:
            layout, why = None, str(exc)
        ms.append((time.perf_counter() - t0) * 1e3)
        if layout is None:
            refused += 1
            line = {"image": path.name, "refused": why}
        else:
            counts = compare(layout, truth)
            total.update(counts)
            line = {"image": path.name, **counts, "read": layout.text(), "notes": layout.notes}
        line["truth"] = truth["foundations"], truth["waste"]
        if args.json:
            print(json.dumps(line), flush=True)
        elif args.verbose and not line.get("exact"):
            print(f"{path.name} ({truth.get('deck', '')}, {truth.get('arrangement', '')}): "
                  f"{line.get('read', line.get('refused'))}")
            print("   truth: " + " ".join(c or "-" for c in truth["foundations"]) + " / "
                  + " | ".join(" ".join(p) or "-" for p in truth["waste"]))
    summary = {"photos": len(photos), "exact": int(total["exact"]), "refused": refused,
               "tops_right": int(total["tops_right"]), "tops": int(total["tops"]),
               "cards_right": int(total["cards_right"]), "cards_wrong": int(total["cards_wrong"]),
               "cards_missed": int(total["cards_missed"]), "missed_pointed": int(total["missed_pointed"]),
               "cards": int(total["cards"]), "ms_median": round(float(np.median(ms)), 1),
               "ms_p95": round(float(np.percentile(ms, 95)), 1), "machine": machine(), "load": load_average()}
    if args.json:
        print(json.dumps({"summary": summary}))
        return 0
    cards = max(summary["cards"], 1)
    print(f"machine: {summary['machine']}; {summary['load']}")
    print(f"{folder}: {len(photos)} tables")
    print(f"tables read exactly:  {summary['exact']}/{len(photos)} ({refused} refused as not a Sir Tommy table)")
    print(f"foundation tops:      {summary['tops_right']}/{summary['tops']} right")
    print(f"waste pile cards:     {summary['cards_right']}/{summary['cards']} right "
          f"({100 * summary['cards_right'] / cards:.1f} %), {summary['cards_wrong']} wrong, "
          f"{summary['cards_missed']} missed ({summary['missed_pointed']} of them pointed at by a note)")
    print(f"ms per photo:         median {summary['ms_median']:.0f}, p95 {summary['ms_p95']:.0f}")
    return 0

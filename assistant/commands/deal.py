"""``patience deal tommy|poker --seed N``: the caller. Prints the seeded order of the cards to turn.

Give every player the same seed and they play the same shuffle: the Sir Tommy contest on one
shuffle (002: "wedstrijd tussen twee spelers met identiek geschudde stokken") and Poker Patience
with several players and a caller (004: "Einer mischt und sagt jede aufgedeckte Karte an").
"""

from __future__ import annotations

import json


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("deal", help="call a seeded order of cards (contests, several players)", description=__doc__)
    p.add_argument("game", choices=["tommy", "poker"])
    p.add_argument("--seed", type=int, required=True, help="the shuffle's number: same seed, same order")
    p.add_argument("--variant", help="Sir Tommy variant (cards set out before play are listed apart)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args) -> int:
    from assistant.cli import UserError
    from assistant.games.kinds import game_kind

    kind = game_kind(args.game)
    if args.seed < 0:
        raise UserError(f"the seed must be 0 or more, got {args.seed}")
    if args.variant and not kind.variant_sets_out:
        raise UserError("--variant is for Sir Tommy; every Poker Patience variant uses the same 25 called cards")
    try:
        bases, cards = kind.caller_order(args.seed, args.variant)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        print(json.dumps({"game": args.game, "seed": args.seed, "variant": args.variant, "set_out": [str(c) for c in bases],
                          "order": [str(c) for c in cards]}))
        return 0
    from rich.console import Console
    from rich.text import Text

    from assistant.panel.cards_text import cards_text

    console = Console()
    console.print(Text(f"{kind.title}, seed {args.seed}: {len(cards)} cards in the order the caller turns them", style="bold"))
    if bases:
        console.print(Text("set out before play: ").append_text(cards_text(bases)))
    for i in range(0, len(cards), 13):
        console.print(Text(f"{i + 1:>2}. ").append_text(cards_text(cards[i:i + 13])))
    return 0

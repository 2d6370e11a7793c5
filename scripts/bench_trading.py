"""A scripted buyer against three greedy Captains bots: its win share over many games.

A scripted buyer (``bots/captains_buyer.py``; ``--buyer province``, the default: ducats for a
province, every turn; ``--buyer card``: a look at a rival's hand whenever it holds one, and
ducats for the treachery, assassination, captains and looks it saw) sits at a four-seat
Condottieri Captains table with three greedy bots; seats rotate from game to game and game
``i`` is dealt from seed ``seed + i``. ``--buyer greedy`` seats a greedy bot in its place: the
same seeds' share of a seat that does not buy. Printed: the buyer's win share with a 95%
interval (an equal seat's share is 25%), the provinces the greedy bots sold it, the cards, and
the ducats paid.

The buyer is loaded from this repository's file, but the game and the greedy bot are those of
the Python that runs the script, so the same script measures another checkout's bots:
``/work/main/.venv/bin/python scripts/bench_trading.py`` (before) against
``.venv/bin/python scripts/bench_trading.py`` (after).

    .venv/bin/python scripts/bench_trading.py --games 200 [--buyer province|card|greedy]
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import sys
from pathlib import Path
from typing import Any

from condottiere.bots.captains_greedy import CaptainsGreedy
from condottiere.games.captains import Game, Verb

Z_95 = 1.959964
SEATS = 4


BUYERS = {"province": "ProvinceBuyer", "card": "CardBuyer"}
"""The buyers by ``--buyer``, as classes of ``bots/captains_buyer.py``."""


def _buyer_class(kind: str) -> Any:
    if kind == "greedy":
        return CaptainsGreedy
    path = Path(__file__).resolve().parent.parent / "bots" / "captains_buyer.py"
    spec = importlib.util.spec_from_file_location("bench_province_buyer", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, BUYERS[kind])


def play(index: int, seed: int, buyer_class: Any) -> tuple[float, int, int, int]:
    """Game ``index``: the buyer's share of the victory, provinces, cards and ducats it
    traded."""
    buyer_seat = index % SEATS
    game = Game.new(SEATS, seed=seed + index)
    bots: list[Any] = [CaptainsGreedy(seed=(seed + index) * 101 + s) for s in range(SEATS)]
    bots[buyer_seat] = buyer_class(seed=(seed + index) * 101 + buyer_seat)
    bought = cards = paid = 0
    while (seat := game.to_act) is not None:
        move = bots[seat].choose(game, seat)
        offer = game.offer
        if move.verb is Verb.ACCEPT and offer is not None and game.active == buyer_seat:
            assert offer.give is not None and offer.get is not None
            bought += offer.get.provinces
            cards += len(offer.get.cards)
            paid += offer.give.ducats
        game.play(move)
    winners = game.winners
    return (1 / len(winners) if buyer_seat in winners else 0.0), bought, cards, paid


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--buyer", choices=[*BUYERS, "greedy"], default="province",
                        help="the scripted buyer (default province), or greedy: no buyer")
    args = parser.parse_args()
    buyer = _buyer_class(args.buyer)
    shares, bought, cards, paid = [], 0, 0, 0
    for index in range(args.games):
        share, provinces, bought_cards, ducats = play(index, args.seed, buyer)
        shares.append(share)
        bought += provinces
        cards += bought_cards
        paid += ducats
    games = len(shares)
    mean = sum(shares) / games
    spread = math.sqrt(sum((x - mean) ** 2 for x in shares) / max(games - 1, 1))
    margin = Z_95 * spread / math.sqrt(games)
    label = "greedy (no buyer)" if args.buyer == "greedy" else f"{args.buyer} buyer"
    print(f"condottiere from {Path(sys.modules['condottiere'].__path__[0]).parent}")
    print(
        f"{label} vs 3 greedy, {games} games from seed {args.seed}: win share "
        f"{mean:.1%} [{max(0.0, mean - margin):.1%}, {min(1.0, mean + margin):.1%}] "
        f"(equal seat 25.0%); provinces bought {bought / games:.2f} a game, "
        f"cards {cards / games:.2f}, for {paid / games:.1f} ducats"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

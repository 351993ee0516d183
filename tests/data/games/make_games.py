#!/usr/bin/env python3
"""Makes the recorded games tests/it/replay.rs replays: games played by the Python `diplomacy`
package (pip install diplomacy; 1.1.2 made these) with seeded random orders, saved in its own
format (python/game-SEED.json), and the same games written as godip game files
(godip/game-SEED.txt) by `godip_text` below.

The orders are random but purposeful: each unit moves or holds, then some units support an order
another unit was given, and fleets convoy armies that were ordered to move by convoy, so that
supports, cuts, convoys, dislodgements and retreats happen.

    python3 tests/data/games/make_games.py 1 2      # from the repository root
"""
import json
import random
import sys

from diplomacy import Game
from diplomacy.utils.export import to_saved_game_format


def orders_for(game, power, possible, rng):
    locs = [l for l in game.get_orderable_locations(power) if possible.get(l)]
    chosen = {}
    for loc in locs:
        opts = possible[loc]
        moves = [o for o in opts if " - " in o or o.endswith(" H") or " R " in o or o.endswith(" D")
                 or o.endswith(" B") or o == "WAIVE"]
        chosen[loc] = rng.choice(moves or opts)
    # Supports of what was chosen, and convoys of armies moved by convoy.
    planned = list(chosen.values())
    for loc in locs:
        if rng.random() < 0.4:
            matching = [o for o in possible[loc]
                        if (" S " in o or " C " in o)
                        and any(o.split(" ", 3)[-1] == q.replace(" VIA", "") for q in planned)]
            if matching:
                chosen[loc] = rng.choice(matching)
    return list(chosen.values())


def godip_text(saved):
    """The game in godip's text format (PHASE / POSITIONS / ORDERS)."""
    kinds = {"M": "Movement", "R": "Retreat", "A": "Adjustment"}
    seasons = {"S": "Spring", "F": "Fall", "W": "Winter"}
    out = []
    for ph in saved["phases"]:
        name = ph["name"]
        if name in ("COMPLETED", "FORMING"):
            continue
        out.append(f"PHASE {name[1:-1]} {seasons[name[0]]} {kinds[name[-1]]}")
        out.append("POSITIONS")
        st = ph["state"]
        for power, units in st["units"].items():
            for u in units:
                star = u.startswith("*")
                kind, at = u.lstrip("*").split(" ", 1)
                word = "army" if kind == "A" else "fleet"
                out.append(f"\t{power.title()}: {word}{'/dislodged' if star else ''} {at.lower()}")
        for power, centres in st["centers"].items():
            for c in centres:
                out.append(f"\t{power.title()}: supply {c.lower()}")
        out.append("ORDERS")
        for power, orders in (ph.get("orders") or {}).items():
            for o in orders or []:
                w = o.replace(" VIA", "").split()
                if w == ["WAIVE"]:
                    continue
                at = w[1].lower()
                if w[-1] == "B":
                    out.append(f"\tbuild {'Army' if w[0] == 'A' else 'Fleet'} {at}")
                elif w[-1] == "D" and name.endswith("A"):
                    out.append(f"\tremove {at}")
                elif w[-1] == "D":
                    out.append(f"\t{at} disband")
                elif w[2] == "H":
                    out.append(f"\t{at} hold")
                elif w[2] in ("-", "R"):
                    out.append(f"\t{at} move {w[3].lower()}")
                elif w[2] == "S" and len(w) == 5:
                    out.append(f"\t{at} support {w[4].lower()}")
                elif w[2] == "S":
                    out.append(f"\t{at} support {w[4].lower()} move {w[6].lower()}")
                elif w[2] == "C":
                    out.append(f"\t{at} convoy {w[4].lower()} move {w[6].lower()}")
    return "\n".join(out) + "\n"


def main():
    for seed in [int(a) for a in sys.argv[1:]] or [1]:
        rng = random.Random(seed)
        game = Game()
        while not game.is_game_done and len(game.state_history) < 30:
            possible = game.get_all_possible_orders()
            for power in game.powers:
                game.set_orders(power, orders_for(game, power, possible, rng))
            game.process()
        saved = to_saved_game_format(game)
        for ph in saved["phases"]:
            ph.pop("messages", None)
            ph["state"].pop("timestamp", None)
            ph["state"].pop("zobrist_hash", None)
        saved.pop("id", None)
        with open(f"tests/data/games/python/game-{seed}.json", "w") as f:
            json.dump(saved, f, indent=1, sort_keys=True)
            f.write("\n")
        with open(f"tests/data/games/godip/game-{seed}.txt", "w") as f:
            f.write(godip_text(saved))


if __name__ == "__main__":
    main()

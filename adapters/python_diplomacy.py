#!/usr/bin/env python3
"""An outside adjudicator for dipsandbox: the Python `diplomacy` package (pip install diplomacy)
behind the JSON protocol of docs/json.md ("The outside-adjudicator protocol").

    dipsandbox engine-check 'cmd:python3 adapters/python_diplomacy.py'

Line-delimited: one request per line on standard input, one answer per line on standard output.
Movement phases of the standard map are adjudicated by a fresh `diplomacy.Game`; retreat and
adjustment phases are left to dipsandbox's own adjudicators ("shared": true). Orders the game
refuses (it drops them) are answered "illegal"; an order it keeps is judged from the game's
results for its unit ("bounce", "cut", "dislodged", "void", "no convoy", "disrupted").
"""

import json
import sys

from diplomacy import Game

FAILS = {
    "move": {"bounce", "no convoy", "void", "dislodged"},
    "support": {"cut", "void", "dislodged"},
    "convoy": {"disrupted", "void", "dislodged", "no convoy"},
    "hold": {"dislodged", "void"},
}


def place(p):
    """`Spa(nc)` -> `SPA/NC`."""
    return p.replace("(", "/").replace(")", "").upper()


def unit(written, board):
    """`A Par` -> `A PAR`; a unit written without its letter takes the board's."""
    parts = written.split(" ")
    where = place(parts[-1])
    if len(parts) == 2:
        return parts[0].upper() + " " + where
    letter = board.get(where.split("/")[0])
    return None if letter is None else letter + " " + where


def their_order(o, board):
    """One order in the game's notation, or None."""
    if o["unit"] is None:
        return None
    head = unit(o["unit"], board)
    if head is None:
        return None
    kind = o["kind"]
    if kind == "hold":
        return head + " H"
    if kind == "move":
        return head + " - " + place(o["to"]) + (" VIA" if o["via_convoy"] else "")
    target = unit(o["target"], board) if o["target"] else None
    if target is None:
        return None
    if kind == "support":
        return head + " S " + target + (" - " + place(o["to"]) if o["to"] else "")
    if kind == "convoy":
        return head + " C " + target + " - " + place(o["to"])
    return None


def answer(req):
    rid = req.get("id")
    if req.get("protocol") != 1:
        return {"protocol": 1, "id": rid, "error": "this adapter speaks protocol 1"}
    if req.get("map") != "standard":
        return {"protocol": 1, "id": rid, "error": "only the standard map"}
    if req.get("kind") != "movement":
        return {"protocol": 1, "id": rid, "shared": True}
    game = Game(map_name="standard")
    game.clear_units()
    board = {}
    by_power = {}
    for u in req["units"]:
        letter, where = u["unit"].split(" ")
        board[place(where).split("/")[0]] = letter.upper()
        by_power.setdefault(u["power"].upper(), []).append(letter.upper() + " " + place(where))
    for power, units in by_power.items():
        game.set_units(power, units)
    theirs = [their_order(o, board) for o in req["orders"]]
    orders_of = {}
    for o, t in zip(req["orders"], theirs):
        if t is not None:
            orders_of.setdefault(o["power"].upper(), []).append(t)
    for power, orders in orders_of.items():
        game.set_orders(power, orders)
    kept = {p: set(os) for p, os in game.get_orders().items()}
    game.process()
    results = game.get_phase_history()[-1].results
    out = []
    for o, t in zip(req["orders"], theirs):
        power = o["power"].upper()
        if t is None or t not in kept.get(power, set()):
            out.append({"id": o["id"], "result": "illegal", "reason": "the game refused the order"})
            continue
        who = " ".join(t.split(" ")[:2])
        codes = {str(r) for r in results.get(who, [])}
        if "void" in codes:
            verdict = "void"
        elif codes & FAILS.get(o["kind"], set()):
            verdict = "fails"
        else:
            verdict = "succeeds"
        out.append({"id": o["id"], "result": verdict, "reason": ", ".join(sorted(codes)) or "ok"})
    dislodged = [
        {"unit": u, "attacker_from": src.title()} for u, src in game.dislodged.items()
    ]
    return {"protocol": 1, "id": rid, "results": out, "dislodged": dislodged}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            reply = answer(json.loads(line))
        except Exception as e:  # an answer, never a crash: dipsandbox reports it for the phase
            reply = {"protocol": 1, "id": 0, "error": "adapter failed: %r" % (e,)}
            try:
                reply["id"] = json.loads(line).get("id", 0)
            except Exception:
                pass
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

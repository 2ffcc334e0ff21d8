"""Applies commands to a campaign in a loop until it is killed: the crash test's victim.

    python crash_worker.py SQLITE_URL CAMPAIGN SEED

After each command is applied (the transaction committed, `apply` returned) it prints `ack <seq> …`, the seqs
of the events that command logged, and flushes: a printed seq is one the store promised to keep. Snapshots
are taken every few events, so a kill can also land while one is written. It stops by itself after ten
minutes, in case the test that should kill it is gone.
"""

from __future__ import annotations

import random
import sys
import time

from furnace.campaign import commands as cmd
from furnace.campaign import fightedit
from furnace.campaign import store as store_module
from furnace.campaign.store import Applied, Store
from furnace.characters.character import Character
from furnace.errors import FurnaceError

LIFETIME = 600.0                    # a safety net only: the test kills it long before


def main(url: str, name: str, seed: int) -> int:
    store_module.SNAPSHOT_EVERY = 7
    rng = random.Random(seed)
    store = Store(url)
    roster = sorted(store.open(name).roster)
    stop = time.monotonic() + LIFETIME
    while time.monotonic() < stop:
        pick = rng.random()
        try:
            applied = step(store, name, roster, rng, pick)
        except FurnaceError:                 # e.g. nothing left to undo: a refused command logs nothing
            continue
        roster = sorted(applied.state.roster)
        print("ack", *(e.seq for e in applied.events), flush=True)
    return 0


def step(store: Store, name: str, roster: list[str], rng: random.Random, pick: float) -> Applied:
    if not roster:                           # undo walked back past the joins
        return store.apply(name, "join", cmd.join(Character(name="Stand-in", scores=dict.fromkeys(
            ("STR", "DEX", "CON", "INT", "WIS", "CHA"), 10), hp=1000, hp_max=1000)))
    who = rng.choice(roster)
    if pick < 0.4:
        return store.apply(name, f"damage {who}", fightedit.damage(who, rng.randint(1, 3)))
    if pick < 0.7:
        return store.apply(name, f"heal {who}", fightedit.heal(who, rng.randint(1, 3)))
    if pick < 0.9:
        return store.apply(name, "roll", cmd.roll("3d6+1", rng, who=who))
    return store.undo(name)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))

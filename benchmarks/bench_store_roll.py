"""The store's side of a console roll, in this process: two `Store`s on one database stand for two workers.

A campaign of 5 characters (a funnel) with `--history` commands that changed its state (damage and healing) is
rolled on from its sheets, each roll by the store of the other "worker" than the roll before (so every write meets
a state another store wrote last), and after each roll both stores read the new events as a live feed does
(`Store.events` from the last event read). Reports the CPU per roll (this process: the store's own work, SQLAlchemy
and the driver) and, on PostgreSQL, the transactions and statements per roll as the engines sent them.

Run: scripts/with-postgres .venv/bin/python benchmarks/bench_store_roll.py [--db URL] [--rolls 400]
     [--history 300] [--profile FILE (cProfile, pstats)]
The URL defaults to FURNACE_TEST_POSTGRES_URL (scripts/with-postgres sets it), else a SQLite file.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from furnace.campaign import table as tables
from furnace.campaign.fightedit import damage, heal
from furnace.campaign.roster import Funnel
from furnace.campaign.store import Store


def counting(store: Store, tally: dict[str, int]) -> None:
    """Count the transactions and statements the store's engine sends."""
    from sqlalchemy import event

    event.listen(store.engine, "begin", lambda conn: tally.__setitem__("transactions", tally["transactions"] + 1))
    event.listen(store.engine, "before_cursor_execute",
                 lambda *a: tally.__setitem__("statements", tally["statements"] + 1))


def grown(store: Store, name: str, history: int, rng: random.Random) -> list[str]:
    store.create(name)
    store.apply(name, "funnel", Funnel([f"P{i}" for i in range(5)], 1, rng))
    ids = sorted(store.open(name).roster)
    for i in range(history):
        who = ids[i % len(ids)]
        hurt = i % (2 * len(ids)) < len(ids)        # each is hurt by 1, then healed by 1, in turn
        store.apply(name, "damage" if hurt else "heal", damage(who, 1, rng=rng) if hurt else heal(who, 1))
    return ids


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db")
    parser.add_argument("--rolls", type=int, default=400)
    parser.add_argument("--history", type=int, default=300)
    parser.add_argument("--profile", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.db or os.environ.get("FURNACE_TEST_POSTGRES_URL") or f"sqlite:///{folder}/bench.db"
        workers = [Store(url), Store(url)]
        name = f"roll{os.getpid()}"
        rng = random.Random(7)
        ids = grown(workers[0], name, args.history, rng)
        tally = {"transactions": 0, "statements": 0}
        if url.startswith("postgresql"):
            for w in workers:
                counting(w, tally)
        read = [len(w.events(name)) for w in workers]
        profile = cProfile.Profile() if args.profile else None
        start = time.process_time()
        if profile:
            profile.enable()
        for i in range(args.rolls):
            writer = workers[i % 2]
            writer.apply(name, "roll check", tables.sheet_roll(ids[i % len(ids)], "check", rng))
            for k, w in enumerate(workers):
                fresh = w.events(name, since=read[k])
                read[k] = fresh[-1].seq if fresh else read[k]
        if profile:
            profile.disable()
            profile.dump_stats(str(args.profile))
        cpu = time.process_time() - start
        print(f"{args.rolls} rolls after {args.history} commands on {url.split(':')[0]}: "
              f"{1000 * cpu / args.rolls:.2f} ms CPU per roll (the store's and the engine's, in this process)"
              + (f"; {tally['transactions'] / args.rolls:.1f} transactions, {tally['statements'] / args.rolls:.1f} "
                 "statements per roll" if tally["transactions"] else ""))
        if url.startswith("postgresql"):
            workers[0].delete(name)
        for w in workers:
            w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How a long campaign opens and grows: SQLite, up to 1,000,000 events.

    python benchmarks/bench_campaign.py            # 10k, 100k, 1M events (a few minutes)
    python benchmarks/bench_campaign.py --quick    # 10k and 100k
    python benchmarks/bench_campaign.py --sizes 1000,5000

A campaign of four characters is grown in batches the way play grows it — nine rolls to one state change
(damage or healing), each event chained to the one before by its hash, a snapshot every SNAPSHOT_EVERY
events, as `Store.apply` writes them — then, at each size, a fresh process-like `Store` opens the campaign
to its current state and appends one more roll through the ordinary command path. Goals at 1,000,000
events: open ≤ 100 ms, append ≤ 5 ms.
"""

from __future__ import annotations

import hashlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import insert, update

from furnace import dice
from furnace.campaign import commands
from furnace.campaign.schema import campaigns, events, snapshots
from furnace.campaign.state import apply_changes, canonical
from furnace.campaign.store import SNAPSHOT_EVERY, Store, chain_hash
from furnace.characters.character import Character

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "characters"
BATCH = 10_000


def grow(store: Store, name: str, target: int) -> None:
    """Append events until the campaign holds `target`, in batches of BATCH rows per transaction."""
    state = store.open(name)
    entities = state.entities()
    with store.transaction() as conn:
        camp = store.row(conn, name)
    seq, prev, version = camp.event_count, camp.last_hash, camp.version
    ids = sorted(state.roster)
    while seq < target:
        rows: list[dict[str, Any]] = []
        snaps: list[dict[str, Any]] = []
        for _ in range(min(BATCH, target - seq)):
            seq += 1
            changed = None
            if seq % 10 == 0:   # one state change in ten: a character's HP moves
                path = f"member/{ids[seq % len(ids)]}"
                before = entities[path]
                after = json.loads(json.dumps(before))
                after["character"]["hp"] = max(1, before["character"]["hp"] + (1 if seq % 20 else -1))
                changed = [{"path": path, "before": before, "after": after}]
                apply_changes(entities, changed)
            body = {"seq": seq, "command_id": seq, "command": "roll" if changed is None else "damage",
                    "kind": "roll", "who": "", "what": f"rolls d20 → {seq % 20 + 1}",
                    "rolls": [{"expression": "d20", "total": seq % 20 + 1}], "data": {}, "changes": changed,
                    "undoes": None, "created_at": "2026-12-01T00:00:00.000+00:00"}
            digest = chain_hash(prev, body)
            rows.append({**body, "campaign_id": camp.id, "rolls": json.dumps(body["rolls"]), "data": "{}",
                         "changes": json.dumps(changed) if changed else None, "prev_hash": prev, "hash": digest})
            prev = digest
            if seq % SNAPSHOT_EVERY == 0:
                text = canonical(entities)
                snaps.append({"campaign_id": camp.id, "seq": seq, "event_hash": digest, "state": text,
                              "state_hash": hashlib.sha256((digest + text).encode()).hexdigest(),
                              "created_at": body["created_at"]})
        with store.transaction(write=True) as conn:
            conn.execute(insert(events), rows)
            if snaps:
                conn.execute(insert(snapshots), snaps)
            version += 1
            conn.execute(update(campaigns).where(campaigns.c.id == camp.id)
                         .values(event_count=seq, last_hash=prev, version=version))


def timed(fn: Any, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


def measure(url: str, name: str) -> tuple[float, float]:
    def open_fresh() -> None:
        store = Store(url)
        store.open(name)
        store.close()

    store = Store(url)
    rng = dice.seeded(1)
    open_ms, _ = timed(open_fresh, 7)
    append_ms, _ = timed(lambda: store.apply(name, "roll", commands.roll("d20+2", rng, label="bench")), 21)
    store.close()
    return open_ms, append_ms


def main() -> None:
    sizes = [10_000, 100_000] if "--quick" in sys.argv else [10_000, 100_000, 1_000_000]
    if "--sizes" in sys.argv:                   # e.g. --sizes 1000,5000: the CI's small share
        sizes = [int(n) for n in sys.argv[sys.argv.index("--sizes") + 1].split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.db"
        store = Store(url)
        store.create("bench")
        for path in sorted(EXAMPLES.glob("*.json"))[:4]:
            store.apply("bench", "join", commands.join(Character.from_json(path.read_text(encoding="utf-8"))))
        print("Campaign store on SQLite (WAL, synchronous=FULL): open = a new Store opening the campaign to its")
        print(f"current state (median of 7); append = one roll command (median of 21); snapshot every "
              f"{SNAPSHOT_EVERY} events")
        print(f"{'events':>10} {'grow (s)':>9} {'open (ms)':>10} {'append (ms)':>12} {'db (MB)':>8}")
        results = {}
        for size in sizes:
            start = time.perf_counter()
            grow(store, "bench", size)
            took = time.perf_counter() - start
            open_ms, append_ms = measure(url, "bench")
            results[size] = (open_ms, append_ms)
            mb = sum(p.stat().st_size for p in Path(tmp).glob("bench.db*")) / 1e6
            print(f"{size:>10,} {took:>9.1f} {open_ms:>10.1f} {append_ms:>12.2f} {mb:>8.1f}")
        store.close()
        last = max(results)
        open_ms, append_ms = results[last]
        print(f"at {last:,} events: open {open_ms:.1f} ms (goal ≤ 100), append {append_ms:.2f} ms (goal ≤ 5); "
              f"open grew {open_ms / results[min(results)][0]:.2f}× from {min(results):,} events")


if __name__ == "__main__":
    main()

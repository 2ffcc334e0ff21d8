"""One of the concurrency test's writers: damage of known amounts to one character, racing the others.

    python concurrent_worker.py URL CAMPAIGN WHO AMOUNT …

It opens the store, prints `ready`, and waits for a line on stdin before it starts, so all the writers start
together; after its first command it waits for a second line, sent once every writer has made its first, so the
writers overlap however the machine schedules them (the other commands race freely). Between commands it pauses
a few milliseconds, as a person at the table would; without that, SQLite (whose lock is not a queue) lets one
writer run all its commands before the next gets a turn. After each command it prints `ok <amount> <version>`
once `apply` has returned, or `failed <amount> <error>` when it raised, and flushes.
"""

from __future__ import annotations

import random
import sys
import time

from furnace.campaign import fightedit
from furnace.campaign.store import Store


def main(url: str, name: str, who: str, amounts: list[int]) -> int:
    store = Store(url)
    store.version(name)                      # connected, and the schema is current
    print("ready", flush=True)
    sys.stdin.readline()
    pause = random.Random(f"{who} {amounts}")
    for n, amount in enumerate(amounts):
        if n == 1:
            sys.stdin.readline()             # every writer has made its first command
        time.sleep(pause.uniform(0.002, 0.02))
        try:
            applied = store.apply(name, f"damage {who} {amount}", fightedit.damage(who, amount))
        except Exception as exc:
            print("failed", amount, type(exc).__name__, str(exc).replace("\n", " ")[:300], flush=True)
        else:
            print("ok", amount, applied.version, flush=True)
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], [int(a) for a in sys.argv[4:]]))

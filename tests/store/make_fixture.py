"""Build tests/store/fixtures/rev0001.db: a campaign database at the FIRST schema revision (0001).

    .venv/bin/python -m tests.store.make_fixture [OUT]

The migration tests upgrade a copy of it to the newest revision and back, so the file must stay what an
early Furnace wrote: run this once and keep the .db (committed). Rebuild it only when the fixture's content
has to change; its rows are then new (times, hashes), which the tests do not depend on.

The rows are written by the store's own code (the same `_append`, hashes and undo), on a database brought
to revision 0001 by `furnace.campaign.migrate.upgrade(store, "0001")`. Revision 0001 has no snapshots table,
so the store reads its state from the log alone here, as it did before snapshots existed.
"""

from __future__ import annotations

import random
import sqlite3
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import Connection

from furnace.campaign import commands as cmd
from furnace.campaign import fightedit, migrate
from furnace.campaign import store as store_module
from furnace.campaign.state import CampaignState
from furnace.campaign.store import Store
from tests.helpers.factories import example

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "rev0001.db"
REVISION = "0001"

# What the fixture holds, for the tests: the campaigns, and the hit points their logs leave.
CAMPAIGNS = ("Old Keep", "Old Tomb")
EXPECTED_HP = {"Old Keep": {"brak1": 19, "wren1": 17}, "Old Tomb": {"edda1": 3}}
EXPECTED_EVENTS = {"Old Keep": 8, "Old Tomb": 2}


class Rev0001Store(Store):
    """The store on a revision-0001 database: no snapshots table, so the state comes from the log alone."""

    def _state(self, conn: Connection, camp: Any, *, snapshots_on: bool = True) -> CampaignState:
        return super()._state(conn, camp, snapshots_on=False)


def build(out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    work = out.with_name(out.name + ".building")
    for stale in work.parent.glob(work.name + "*"):
        stale.unlink()
    assert store_module.SNAPSHOT_EVERY > 100, "the fixture must hold no snapshot (revision 0001 has none)"
    store = Rev0001Store(f"sqlite:///{work}", migrate=False)
    try:
        migrate.upgrade(store, REVISION)
        assert migrate.current(store) == REVISION
        rng = random.Random(1)
        keep, tomb = CAMPAIGNS
        store.create(keep)
        store.apply(keep, "join brakka", cmd.join(example("brakka"), "Ann"))
        store.apply(keep, "join wren", cmd.join(example("wren"), "Bo"))
        store.apply(keep, "damage brak1 5", fightedit.damage("brak1", 5, "a falling portcullis"))
        store.apply(keep, "heal brak1 2", fightedit.heal("brak1", 2, "a poultice"))
        store.apply(keep, "roll", cmd.roll("d20+1", rng, label="listening at the door", who="Wren"))
        store.apply(keep, "damage wren1 4", fightedit.damage("wren1", 4, "a goblin's arrow"))
        store.undo(keep)                                           # the arrow missed after all
        store.create(tomb, options={"death_model": "hazards"})
        store.apply(tomb, "join edda", cmd.join(example("edda")))
        for name in CAMPAIGNS:
            state = store.replay(name)
            assert {k: m.character.hp for k, m in state.roster.items()} == EXPECTED_HP[name], name
            assert store.count(name) == EXPECTED_EVENTS[name], name
    finally:
        store.close()
    # one self-contained file: the WAL folded in, the rollback journal of old, no free pages
    with sqlite3.connect(work) as db:
        db.execute("PRAGMA journal_mode=DELETE")
        db.execute("VACUUM")
    db.close()
    work.replace(out)
    return out


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else FIXTURE
    print(f"wrote {build(out)} at revision {REVISION}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""A state known to one Store (one worker of the console) is stepped on by what another Store (the other worker, the
CLI) logged after it, not rebuilt — and the stepped state is the state a full rebuild of the log gives."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from furnace.campaign import commands as cmd
from furnace.campaign import fightedit
from furnace.campaign import table as tables
from furnace.campaign.state import CampaignState
from furnace.campaign.store import Store
from furnace.characters.character import Character
from tests.helpers.factories import stored_campaign
from tests.store.util import hp, rebuild

Chars = dict[str, Character]


@pytest.fixture
def other(store: Store) -> Iterator[Store]:
    """A second Store on the same database: another worker."""
    s = Store(store.url, migrate=False)
    try:
        yield s
    finally:
        s.close()


def rebuilt(store: Store, name: str) -> CampaignState:
    """The state as a Store that knows nothing (a new process) reads it: from the snapshot and the log."""
    fresh = Store(store.url, migrate=False)
    try:
        return fresh.open(name)
    finally:
        fresh.close()


def agrees(store: Store, name: str) -> CampaignState:
    """The store's state, checked against every full rebuild: a new Store's, replay's, the log's by hand."""
    state = store.open(name)
    assert state == rebuilt(store, name) == store.replay(name) == rebuild(store, name)
    return state


def test_writes_of_another_store_step_the_known_state_on(store: Store, other: Store, characters: Chars) -> None:
    stored_campaign(store, characters["brakka"], characters["wren"], name="Ashes")
    other.open("Ashes")                                        # the other worker knows the campaign: rebuilt once
    assert (other.rebuilds, other.steps) == (1, 0)
    store.apply("Ashes", "damage brak1 5", fightedit.damage("brak1", 5, "a falling stone"))
    store.apply("Ashes", "roll", tables.sheet_roll("wren1", "check", random.Random(3)))
    store.apply("Ashes", "damage wren1 4", fightedit.damage("wren1", 4, "a dart"))

    state = agrees(other, "Ashes")
    assert (other.rebuilds, other.steps) == (1, 1)            # three commands later: stepped on, not rebuilt
    assert (hp(state, "brak1"), hp(state, "wren1")) == (17, 13)

    # and back the other way, rolls only: the same state, stepped on without a change
    other.apply("Ashes", "heal brak1 2", fightedit.heal("brak1", 2))
    for seed in range(3):
        other.apply("Ashes", "roll", cmd.roll("d20", random.Random(seed)))
    before = store.steps
    assert hp(agrees(store, "Ashes"), "brak1") == 19
    assert store.steps == before + 1 and store.rebuilds == 0   # the writer never rebuilt: it made and stepped it


def test_an_undo_by_another_store_is_stepped_on_too(store: Store, other: Store, characters: Chars) -> None:
    stored_campaign(store, characters["brakka"], characters["wren"], name="Ashes")
    store.apply("Ashes", "damage wren1 4", fightedit.damage("wren1", 4, "a dart"))
    assert hp(other.open("Ashes"), "wren1") == 13
    store.undo("Ashes")                                         # the damage, undone by the other worker
    assert hp(agrees(other, "Ashes"), "wren1") == 17
    store.undo("Ashes")                                         # Wren's join
    store.redo("Ashes")                                         # and back
    store.apply("Ashes", "roll", cmd.roll("d20", random.Random(1)))
    state = agrees(other, "Ashes")
    assert state.roster.keys() == {"brak1", "wren1"} and hp(state, "wren1") == 17
    assert other.rebuilds == 1 and other.steps == 2

    other.undo("Ashes")                                         # the roll, undone by this worker: nothing changes
    other.undo("Ashes")                                         # the redo: Wren is gone again
    assert agrees(store, "Ashes").roster.keys() == {"brak1"}


def test_a_log_that_does_not_run_on_from_the_known_state_is_rebuilt(store: Store, other: Store,
                                                                       characters: Chars) -> None:
    """The campaign deleted and made anew under its name (on SQLite under its id too): the known state's last
    event is not the first new one's predecessor, and the state is rebuilt from the new log."""
    stored_campaign(store, characters["brakka"], name="Ashes")
    assert other.open("Ashes").roster.keys() == {"brak1"}
    store.delete("Ashes")
    stored_campaign(store, characters["wren"], characters["brakka"], name="Ashes")
    store.apply("Ashes", "damage wren1 2", fightedit.damage("wren1", 2, "a dart"))
    state = agrees(other, "Ashes")
    assert hp(state, "wren1") == 15 and state.roster.keys() == {"wren1", "brak1"}
    assert (other.rebuilds, other.steps) == (2, 0)


def test_a_state_known_too_far_back_is_rebuilt(store: Store, other: Store, characters: Chars,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Further back than a snapshot's span, a rebuild from the latest snapshot reads less than a step would."""
    from furnace.campaign import store as store_module

    monkeypatch.setattr(store_module, "STEP_MOST", 3)
    stored_campaign(store, characters["brakka"], name="Ashes")
    other.open("Ashes")
    for seed in range(4):
        store.apply("Ashes", "roll", cmd.roll("d20", random.Random(seed)))
    agrees(other, "Ashes")
    assert (other.rebuilds, other.steps) == (2, 0)

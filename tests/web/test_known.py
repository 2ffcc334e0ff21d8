"""The sessions a worker keeps in memory on PostgreSQL (`web.known`): read once, not at every request; forgotten
when any session ends (told by the listener); and the worker that ends one answers only once every worker did."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from furnace.campaign import access
from furnace.campaign.store import Store
from furnace.web import known, watch
from tests.store.conftest import clean_postgres, postgres_url

WAIT = 60.0          # a generous bound for a busy machine (never asserted)


@pytest.fixture
def store(request: pytest.FixtureRequest) -> Iterator[Store]:
    url = postgres_url(request.node.nodeid)
    clean_postgres(url)
    made = Store(url)
    try:
        yield made
    finally:
        made.close()


class Reads:
    """Counts the sessions read from the database."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls, wrapped = 0, access.session_for

        def session_for(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return wrapped(*args, **kwargs)

        monkeypatch.setattr(access, "session_for", session_for)


@pytest.mark.postgres
def test_a_kept_session_is_read_once_and_again_after_any_session_ended(store: Store,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    token, session = access.new_session(store, "referee")
    reads = Reads(monkeypatch)

    async def table() -> list[Any]:
        listener = watch.listener(store, 0.05)
        assert listener is not None and await asyncio.to_thread(listener.wait_connected, WAIT)
        seen = [await known.session_of(store, token, 0.05, True) for _ in range(3)]
        counted = reads.calls
        await asyncio.to_thread(access.revoke, store, session.id)       # as the CLI would: a notification only
        for _ in range(int(WAIT / 0.05)):                                # until the listener heard it
            if await known.session_of(store, token, 0.05, True) is None:
                break
            await asyncio.sleep(0.05)
        return [seen, counted, await known.session_of(store, token, 0.05, True)]

    seen, counted, after = asyncio.run(table())
    assert [s.id if s else None for s in seen] == [session.id] * 3
    assert counted == 1                     # the first request read it; the next two found it kept
    assert after is None


@pytest.mark.postgres
def test_the_worker_ending_a_session_is_told_when_every_worker_forgot_theirs(store: Store) -> None:
    """One listener (this process) answers the ack: asked for one worker's answer it is done; asked for two (a
    worker that does not exist never answers) it is not, at the end of its wait."""

    async def table() -> tuple[bool, bool, bool]:
        listener = watch.listener(store, 0.05)
        assert listener is not None and await asyncio.to_thread(listener.wait_connected, WAIT)
        one = await asyncio.to_thread(known.everywhere, store, 1, WAIT)
        two = await asyncio.to_thread(known.everywhere, store, 2, 0.5)
        return one, two, bool(listener.acks)

    assert asyncio.run(table()) == (True, False, True)


def test_on_sqlite_every_request_reads_its_session(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(f"sqlite:///{tmp_path / 'console.db'}")
    token, session = access.new_session(store, "referee")
    reads = Reads(monkeypatch)

    async def table() -> list[Any]:
        return [await known.session_of(store, token, 0.05, False) for _ in range(3)]

    assert [s.id if s else None for s in asyncio.run(table())] == [session.id] * 3
    assert reads.calls == 3
    assert not known.everywhere(store, 1, 0.1)        # no listener on SQLite: nothing to wait for

"""The table console's access library: single-use expiring invites, hashed revocable sessions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from furnace.campaign import access
from furnace.campaign.store import Store
from tests.helpers.factories import stored_campaign


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(f"sqlite:///{tmp_path / 'web.db'}")
    stored_campaign(s)
    return s


def test_invite_is_single_use_and_makes_a_player_session(store: Store) -> None:
    token = access.create_invite(store, "keep", "player", "Ann")
    cookie, session = access.redeem_invite(store, token)
    assert (session.role, session.campaign, session.player) == ("player", "keep", "Ann")
    assert access.session_for(store, cookie) == session
    with pytest.raises(access.AccessError, match="used or expired"):
        access.redeem_invite(store, token)


def test_invite_expires(store: Store) -> None:
    start = datetime(2026, 12, 1, tzinfo=UTC)
    token = access.create_invite(store, "keep", "observer", hours=24, now=start)
    with pytest.raises(access.AccessError):
        access.redeem_invite(store, token, now=start + timedelta(hours=24, seconds=1))


def test_referee_invite_refused(store: Store) -> None:
    with pytest.raises(access.AccessError, match="start link"):
        access.create_invite(store, "keep", "referee")


def test_tokens_are_stored_hashed_and_sessions_revocable(store: Store) -> None:
    cookie, session = access.new_session(store, "referee")
    with store.transaction() as conn:
        stored = list(conn.scalars(select(access.web_sessions.c.token_hash)))
    assert cookie not in stored and access.hash_token(cookie) in stored
    access.revoke(store, session.id)
    assert access.session_for(store, cookie) is None
    with pytest.raises(access.AccessError):
        access.revoke(store, session.id)


def test_deleting_a_campaign_drops_its_sessions(store: Store) -> None:
    cookie, _ = access.new_session(store, "player", "keep", "Ann")
    store.delete("keep")
    assert access.session_for(store, cookie) is None

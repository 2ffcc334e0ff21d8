"""Who may use the table console: single-use invites and revocable sessions, stored hashed.

A token is `secrets.token_urlsafe(32)`, given once to its holder; the database keeps only its SHA-256, so a
copy of the database opens no door. An invite (`create_invite`) names a role, a campaign and a player, expires
(24 hours by default) and is used once (`redeem_invite`); a session (`new_session`) is found by its token
(`session_for`) until it expires or the referee revokes it (`revoke`); every live session is listed
(`all_sessions`), the referee's too.

The referee signs in with a sign-in link (`mint_signin`: `furnace serve` makes one at start, `furnace signin-link`
another, beside a running server, in the same database): it works once (`use_signin`) and within minutes. A
sign-in link is kept as a row of `web_sessions` whose role is `signin`, its use stamped as `revoked_at`: it
never opens anything itself, and needs no table of its own.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from sqlalchemy import Column, ForeignKey, String, Table, insert, select, update

from furnace.campaign.schema import ID, campaigns, metadata
from furnace.campaign.state import CampaignError
from furnace.campaign.store import Store

Role = Literal["referee", "player", "observer"]
ROLES: tuple[Role, ...] = ("referee", "player", "observer")
INVITE_HOURS = 24
SESSION_DAYS = 30
SIGNIN_MINUTES = 15
SIGNIN = "signin"          # the role of a sign-in link's row

web_sessions = Table(
    "web_sessions", metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("role", String(16), nullable=False),
    Column("campaign_id", ID, ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=True),
    Column("player", String(64), nullable=False, default=""),
    Column("created_at", String(32), nullable=False),
    Column("expires_at", String(32), nullable=False),
    Column("revoked_at", String(32), nullable=True),
)

invites = Table(
    "invites", metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("role", String(16), nullable=False),
    Column("campaign_id", ID, ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False),
    Column("player", String(64), nullable=False, default=""),
    Column("created_at", String(32), nullable=False),
    Column("expires_at", String(32), nullable=False),
    Column("used_at", String(32), nullable=True),
)


class AccessError(CampaignError):
    """An invite or session that is unknown, used, expired or revoked."""

    http_status = 403


@dataclass(frozen=True)
class Session:
    """A signed-in browser: its role, and for a player or observer the campaign (and player) it belongs to; when
    it began and when it ends."""

    id: int
    role: Role
    campaign: str | None
    player: str
    created_at: str = ""
    expires_at: str = ""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def _stamp(at: datetime) -> str:
    return at.astimezone(UTC).isoformat(timespec="milliseconds")


def _role(role: str) -> Role:
    for known in ROLES:
        if role == known:
            return known
    raise AccessError(f"the role is referee, player or observer, not {role!r}")


def _campaign_id(store: Store, name: str) -> int:
    with store.transaction() as conn:
        return int(store.row(conn, name).id)


def create_invite(store: Store, campaign: str, role: str, player: str = "", *, hours: float = INVITE_HOURS,
                  now: datetime | None = None) -> str:
    """A single-use invite to `campaign` for `role` (and `player`); returns the token, which is stored hashed."""
    checked = _role(role)
    if checked == "referee":
        raise AccessError("an invite is for a player or an observer; the referee signs in with the start link")
    if checked == "player" and not player.strip():
        raise AccessError("a player's invite names the player")
    if not 0 < hours <= 24 * 30:
        raise AccessError(f"an invite lasts from a moment to 30 days, not {hours} hours")
    at, token = now or datetime.now(UTC), new_token()
    cid = _campaign_id(store, campaign)
    with store.transaction(write=True) as conn:
        conn.execute(insert(invites).values(token_hash=hash_token(token), role=checked, campaign_id=cid,
                                            player=player.strip()[:64], created_at=_stamp(at),
                                            expires_at=_stamp(at + timedelta(hours=hours))))
    return token


def invite_for(store: Store, token: str, *, now: datetime | None = None) -> tuple[Role, str, str]:
    """What a live invite is for (its role, campaign and player), without using it: the join page shows it."""
    with store.transaction() as conn:
        row = conn.execute(select(invites, campaigns.c.name).join(campaigns, campaigns.c.id == invites.c.campaign_id)
                           .where(invites.c.token_hash == hash_token(token))).first()
    if row is None or row.used_at is not None or row.expires_at <= _stamp(now or datetime.now(UTC)):
        raise AccessError("this invite is unknown, used or expired: ask the referee for a new one")
    return _role(row.role), row.name, row.player


def redeem_invite(store: Store, token: str, *, now: datetime | None = None) -> tuple[str, Session]:
    """Use an invite once: a new session (its token and what it is) for the invite's role, campaign and player."""
    at = now or datetime.now(UTC)
    with store.transaction(write=True) as conn:
        row = conn.execute(select(invites, campaigns.c.name).join(campaigns, campaigns.c.id == invites.c.campaign_id)
                           .where(invites.c.token_hash == hash_token(token))).first()
        if row is None or row.used_at is not None or row.expires_at <= _stamp(at):
            raise AccessError("this invite is unknown, used or expired: ask the referee for a new one")
        done = conn.execute(update(invites).where(invites.c.id == row.id, invites.c.used_at.is_(None))
                            .values(used_at=_stamp(at)))
        if done.rowcount != 1:
            raise AccessError("this invite is unknown, used or expired: ask the referee for a new one")
    return new_session(store, row.role, row.name, row.player, now=at)


def new_session(store: Store, role: str, campaign: str | None = None, player: str = "", *,
                days: float = SESSION_DAYS, now: datetime | None = None) -> tuple[str, Session]:
    """A session for `role`; returns its token (kept hashed) and the session."""
    checked, at, token = _role(role), now or datetime.now(UTC), new_token()
    if checked != "referee" and campaign is None:
        raise AccessError("a player's or observer's session belongs to a campaign")
    cid = _campaign_id(store, campaign) if campaign is not None else None
    with store.transaction(write=True) as conn:
        sid = conn.execute(insert(web_sessions).values(
            token_hash=hash_token(token), role=checked, campaign_id=cid, player=player, created_at=_stamp(at),
            expires_at=_stamp(at + timedelta(days=days)))).inserted_primary_key
    assert sid is not None
    return token, Session(int(sid[0]), checked, campaign, player, _stamp(at), _stamp(at + timedelta(days=days)))


def session_for(store: Store, token: str, *, now: datetime | None = None) -> Session | None:
    """The live session of a token, or None (unknown, expired or revoked)."""
    at = _stamp(now or datetime.now(UTC))
    with store.transaction() as conn:
        row = conn.execute(select(web_sessions, campaigns.c.name)
                           .outerjoin(campaigns, campaigns.c.id == web_sessions.c.campaign_id)
                           .where(web_sessions.c.token_hash == hash_token(token))).first()
    if row is None or row.role == SIGNIN or row.revoked_at is not None or row.expires_at <= at:
        return None
    return Session(int(row.id), _role(row.role), row.name, row.player, row.created_at, row.expires_at)


def sessions(store: Store, campaign: str) -> list[Session]:
    """The live sessions of a campaign's players and observers."""
    return [s for s in all_sessions(store) if s.campaign == campaign]


def all_sessions(store: Store, *, now: datetime | None = None) -> list[Session]:
    """Every live session, the referee's too, oldest first."""
    at = _stamp(now or datetime.now(UTC))
    with store.transaction() as conn:
        rows = conn.execute(select(web_sessions, campaigns.c.name)
                            .outerjoin(campaigns, campaigns.c.id == web_sessions.c.campaign_id)
                            .where(web_sessions.c.role != SIGNIN, web_sessions.c.revoked_at.is_(None),
                                   web_sessions.c.expires_at > at).order_by(web_sessions.c.id)).all()
    return [Session(int(r.id), _role(r.role), r.name, r.player, r.created_at, r.expires_at) for r in rows]


def mint_signin(store: Store, *, minutes: float = SIGNIN_MINUTES, token: str | None = None,
                now: datetime | None = None) -> str:
    """A referee's sign-in link's token: it works once, within `minutes`; kept hashed."""
    if not 0 < minutes <= 24 * 60:
        raise AccessError(f"a sign-in link lasts from a moment to a day (1440 minutes), not {minutes} minutes")
    at, token = now or datetime.now(UTC), token or new_token()
    with store.transaction(write=True) as conn:
        conn.execute(insert(web_sessions).values(token_hash=hash_token(token), role=SIGNIN, campaign_id=None,
                                                 player="", created_at=_stamp(at),
                                                 expires_at=_stamp(at + timedelta(minutes=minutes))))
    return token


def use_signin(store: Store, token: str, *, days: float = SESSION_DAYS,
               now: datetime | None = None) -> tuple[str, Session]:
    """Spend a sign-in link: a new referee session (its token and what it is). A link used, expired or unknown
    opens nothing."""
    at = now or datetime.now(UTC)
    refused = CampaignError("this sign-in link is used, expired or not this console's: run `furnace signin-link` "
                          "for a new one")
    with store.transaction(write=True) as conn:
        done = conn.execute(update(web_sessions).where(
            web_sessions.c.token_hash == hash_token(token), web_sessions.c.role == SIGNIN,
            web_sessions.c.revoked_at.is_(None), web_sessions.c.expires_at > _stamp(at))
            .values(revoked_at=_stamp(at)))
        if done.rowcount != 1:
            raise refused
    return new_session(store, "referee", days=days, now=at)


def revoke(store: Store, session_id: int, *, now: datetime | None = None) -> None:
    """End a session at once; its cookie opens nothing after this."""
    with store.transaction(write=True) as conn:
        done = conn.execute(update(web_sessions).where(web_sessions.c.id == session_id, web_sessions.c.role != SIGNIN,
                                                       web_sessions.c.revoked_at.is_(None))
                            .values(revoked_at=_stamp(now or datetime.now(UTC))))
    if done.rowcount != 1:
        raise AccessError(f"there is no live session {session_id}")


__all__ = [
    "ROLES",
    "AccessError",
    "Role",
    "Session",
    "all_sessions",
    "create_invite",
    "hash_token",
    "invite_for",
    "invites",
    "mint_signin",
    "new_session",
    "new_token",
    "redeem_invite",
    "revoke",
    "session_for",
    "sessions",
    "use_signin",
    "web_sessions",
]

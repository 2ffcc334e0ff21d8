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

A host serving many tables: the start link (and `furnace signin-link` without `--campaign`) makes the *host's*
session, which runs every campaign (`host` is true). A referee's sign-in link that names campaigns (a referee
invite: `furnace signin-link --campaign A --campaign B`, or the form on the campaigns page) makes a session
scoped to them (`runs`), kept as rows of `session_campaigns` beside the link's row and copied to the session it
makes. A scoped referee runs those campaigns alone (`Session.runs_campaign`), sees and ends only the sessions of
her campaigns (`Session.oversees`), and names only her campaigns in a referee invite; creating a campaign is the
host's (`furnace.web.auth.HOST_ONLY`). `host` is a column, not "no campaigns": a scoped referee whose campaigns
were all deleted runs none, never every one.

Ending a session (`revoke`) tells every console process on PostgreSQL in the same transaction
(`furnace.campaign.notify`), so a session ended from the CLI ends its live streams on every worker at once.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlalchemy import Boolean, Column, Connection, ForeignKey, Row, String, Table, false, insert, select, update

from furnace.campaign.notify import notify_sessions_ended
from furnace.campaign.schema import ID, campaigns, metadata
from furnace.campaign.state import CampaignError
from furnace.campaign.store import Store

Role = Literal["referee", "player", "observer"]
ROLES: tuple[Role, ...] = ("referee", "player", "observer")
INVITE_HOURS = 24
SESSION_DAYS = 30
SIGNIN_MINUTES = 15
SIGNIN = "signin"          # the role of a sign-in link's row
MAX_SCOPE = 100            # campaigns one referee invite may name

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
    # the host's session (and its sign-in link): every campaign; a referee's other session runs `session_campaigns`
    Column("host", Boolean, nullable=False, default=False, server_default=false()),
)

session_campaigns = Table(
    "session_campaigns", metadata,
    Column("session_id", ID, ForeignKey("web_sessions.id", ondelete="CASCADE"), primary_key=True),
    Column("campaign_id", ID, ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True),
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
    it began and when it ends; for a referee, whether she is the host (every campaign) or the campaigns she runs."""

    id: int
    role: Role
    campaign: str | None
    player: str
    created_at: str = ""
    expires_at: str = ""
    host: bool = False
    runs: tuple[str, ...] = ()

    def runs_campaign(self, name: str) -> bool:
        """A referee's session that runs `name`: the host's, or one scoped to it."""
        return self.role == "referee" and (self.host or name in self.runs)

    def oversees(self, other: Session) -> bool:
        """Whether this session sees and may end `other`: the host every one; a scoped referee her own, her
        campaigns' players and observers, and the referees scoped within her campaigns (never the host's)."""
        if self.role != "referee":
            return other.id == self.id
        if self.host or other.id == self.id:
            return True
        if other.role != "referee":
            return other.campaign is not None and other.campaign in self.runs
        return not other.host and bool(other.runs) and set(other.runs) <= set(self.runs)


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
                runs: Iterable[str] | None = None, days: float = SESSION_DAYS,
                now: datetime | None = None) -> tuple[str, Session]:
    """A session for `role`; returns its token (kept hashed) and the session. A referee's session runs the
    campaigns `runs` names; without them it is the host's (every campaign)."""
    checked, at, token = _role(role), now or datetime.now(UTC), new_token()
    if checked != "referee" and campaign is None:
        raise AccessError("a player's or observer's session belongs to a campaign")
    scope = None if checked != "referee" or runs is None else _scope(store, runs)
    cid = _campaign_id(store, campaign) if campaign is not None else None
    with store.transaction(write=True) as conn:
        sid = conn.execute(insert(web_sessions).values(
            token_hash=hash_token(token), role=checked, campaign_id=cid, player=player, created_at=_stamp(at),
            expires_at=_stamp(at + timedelta(days=days)), host=checked == "referee" and scope is None)
        ).inserted_primary_key
        assert sid is not None
        _keep_scope(conn, int(sid[0]), scope or {})
    return token, Session(int(sid[0]), checked, campaign, player, _stamp(at), _stamp(at + timedelta(days=days)),
                          host=checked == "referee" and scope is None, runs=tuple(sorted(scope or {})))


def _scope(store: Store, names: Iterable[str]) -> dict[str, int]:
    """The campaigns a referee's session or invite runs, by name and id: at least one, each existing."""
    wanted = list(dict.fromkeys(n for n in names))
    if not wanted:
        raise AccessError("a referee's invite names the campaigns she runs (at least one)")
    if len(wanted) > MAX_SCOPE:
        raise AccessError(f"a referee's invite names at most {MAX_SCOPE} campaigns, not {len(wanted)}")
    return {name: _campaign_id(store, name) for name in wanted}


def _keep_scope(conn: Connection, sid: int, scope: dict[str, int]) -> None:
    if scope:
        conn.execute(insert(session_campaigns), [{"session_id": sid, "campaign_id": cid} for cid in scope.values()])


def _runs(conn: Connection, ids: list[int]) -> dict[int, tuple[str, ...]]:
    """The campaigns each of these sessions (or sign-in links) runs, by session id."""
    found: dict[int, list[str]] = {}
    if ids:
        rows = conn.execute(select(session_campaigns.c.session_id, campaigns.c.name)
                            .join(campaigns, campaigns.c.id == session_campaigns.c.campaign_id)
                            .where(session_campaigns.c.session_id.in_(ids)))
        for sid, name in rows:
            found.setdefault(int(sid), []).append(str(name))
    return {sid: tuple(sorted(names)) for sid, names in found.items()}


def _session(r: Row[Any], runs: dict[int, tuple[str, ...]]) -> Session:
    sid = int(r.id)
    return Session(sid, _role(r.role), r.name, r.player, r.created_at, r.expires_at,
                   host=bool(r.host) and r.role == "referee", runs=runs.get(sid, ()))


def session_for(store: Store, token: str, *, now: datetime | None = None) -> Session | None:
    """The live session of a token, or None (unknown, expired or revoked)."""
    at = _stamp(now or datetime.now(UTC))
    with store.transaction() as conn:
        row = conn.execute(select(web_sessions, campaigns.c.name)
                           .outerjoin(campaigns, campaigns.c.id == web_sessions.c.campaign_id)
                           .where(web_sessions.c.token_hash == hash_token(token))).first()
        if row is None or row.role == SIGNIN or row.revoked_at is not None or row.expires_at <= at:
            return None
        runs = _runs(conn, [int(row.id)]) if row.role == "referee" and not row.host else {}
    return _session(row, runs)


def sessions(store: Store, campaign: str) -> list[Session]:
    """The live sessions of a campaign's players and observers."""
    return [s for s in all_sessions(store) if s.campaign == campaign]


def all_sessions(store: Store, *, now: datetime | None = None) -> list[Session]:
    """Every live session, the referees' too, oldest first."""
    at = _stamp(now or datetime.now(UTC))
    with store.transaction() as conn:
        rows = conn.execute(select(web_sessions, campaigns.c.name)
                            .outerjoin(campaigns, campaigns.c.id == web_sessions.c.campaign_id)
                            .where(web_sessions.c.role != SIGNIN, web_sessions.c.revoked_at.is_(None),
                                   web_sessions.c.expires_at > at).order_by(web_sessions.c.id)).all()
        runs = _runs(conn, [int(r.id) for r in rows if r.role == "referee" and not r.host])
    return [_session(r, runs) for r in rows]


def sessions_seen_by(store: Store, viewer: Session | None, *, now: datetime | None = None) -> list[Session]:
    """The live sessions `viewer` sees and may end (`Session.oversees`); None (the CLI, beside the database):
    every one."""
    return [s for s in all_sessions(store, now=now) if viewer is None or viewer.oversees(s)]


def mint_signin(store: Store, *, minutes: float = SIGNIN_MINUTES, token: str | None = None,
                campaigns: Iterable[str] | None = None, by: Session | None = None,
                now: datetime | None = None) -> str:
    """A referee's sign-in link's token: it works once, within `minutes`; kept hashed. Without `campaigns` it
    makes the host's session; naming them (a referee invite), a referee's session that runs those alone. `by`:
    the referee who asks (None: the CLI, beside the database), who names only campaigns she runs herself and
    makes the host's link only if she is the host."""
    if not 0 < minutes <= 24 * 60:
        raise AccessError(f"a sign-in link lasts from a moment to a day (1440 minutes), not {minutes} minutes")
    names = None if campaigns is None else list(campaigns)
    if by is not None:
        _may_invite(by, names)
    scope = None if names is None else _scope(store, names)
    at, token = now or datetime.now(UTC), token or new_token()
    with store.transaction(write=True) as conn:
        sid = conn.execute(insert(web_sessions).values(
            token_hash=hash_token(token), role=SIGNIN, campaign_id=None, player="", created_at=_stamp(at),
            expires_at=_stamp(at + timedelta(minutes=minutes)), host=scope is None)).inserted_primary_key
        assert sid is not None
        _keep_scope(conn, int(sid[0]), scope or {})
    return token


def _may_invite(by: Session, names: list[str] | None) -> None:
    """A referee invites another only to campaigns she runs; the host's link is the host's to make."""
    if by.role != "referee":
        raise AccessError(f"a {by.role} makes no referee's invite")
    if by.host:
        return
    if names is None:
        raise AccessError("only the host makes a sign-in link for every campaign: name the campaigns")
    outside = [n for n in dict.fromkeys(names) if n not in by.runs]
    if outside:
        raise AccessError(f"you do not run {outside[0]!r}: a referee's invite names only campaigns you run")


def use_signin(store: Store, token: str, *, days: float = SESSION_DAYS,
               now: datetime | None = None) -> tuple[str, Session]:
    """Spend a sign-in link: a new referee session (its token and what it is). A link used, expired or unknown
    opens nothing."""
    at = now or datetime.now(UTC)
    refused = CampaignError("this sign-in link is used, expired or not this console's: run `furnace signin-link` "
                          "for a new one")
    with store.transaction(write=True) as conn:
        row = conn.execute(select(web_sessions.c.id, web_sessions.c.host).where(
            web_sessions.c.token_hash == hash_token(token), web_sessions.c.role == SIGNIN,
            web_sessions.c.revoked_at.is_(None), web_sessions.c.expires_at > _stamp(at))).first()
        done = conn.execute(update(web_sessions).where(
            web_sessions.c.id == row.id, web_sessions.c.revoked_at.is_(None))
            .values(revoked_at=_stamp(at))) if row is not None else None
        if row is None or done is None or done.rowcount != 1:
            raise refused
        runs = None if row.host else _runs(conn, [int(row.id)]).get(int(row.id), ())
    if runs == ():
        raise AccessError("the campaigns this referee's invite named are gone: ask the host for a new one")
    return new_session(store, "referee", runs=runs, days=days, now=at)


def revoke(store: Store, session_id: int, *, by: Session | None = None, now: datetime | None = None) -> None:
    """End a session at once; its cookie opens nothing after this. `by`: the referee who asks, who ends only the
    sessions she oversees (None: the CLI, beside the database). On PostgreSQL every console process is told in
    the same transaction (`notify_sessions_ended`): their streams of it end at once, whoever ended it."""
    if by is not None and session_id not in {s.id for s in sessions_seen_by(store, by, now=now)}:
        raise AccessError(f"there is no live session {session_id} that you may end")
    with store.transaction(write=True) as conn:
        done = conn.execute(update(web_sessions).where(web_sessions.c.id == session_id, web_sessions.c.role != SIGNIN,
                                                       web_sessions.c.revoked_at.is_(None))
                            .values(revoked_at=_stamp(now or datetime.now(UTC))))
        if done.rowcount == 1:
            notify_sessions_ended(conn)
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
    "session_campaigns",
    "session_for",
    "sessions",
    "sessions_seen_by",
    "use_signin",
    "web_sessions",
]

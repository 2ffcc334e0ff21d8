"""The PostgreSQL channel of the live feed: every commit that appends events notifies it, and each console process
listens (`furnace.web.watch`). SQLite has none: its console watches `PRAGMA data_version`."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy import Connection

# the PostgreSQL channel every commit that appends events notifies (payload: {"campaign": name, "seq": newest}):
# each console process listens on it (`furnace.web.watch`), so a roll written by one worker, or by the CLI, wakes
# the live streams of every other
CHANNEL = "furnace_events"


def payload(campaign: str, seq: int) -> str:
    """The notice that `campaign` has events up to `seq` (the `notice` parameter of `notice()`)."""
    return json.dumps({"campaign": campaign, "seq": seq})


def notice() -> Any:
    """On PostgreSQL, what tells the listeners of `CHANNEL` the `payload` bound as `notice`: an expression the
    statement that bumps the campaign's row returns (`UPDATE … RETURNING`), so the notice costs no statement of its
    own. It is sent when the transaction commits (never for one rolled back), once per distinct payload."""
    from sqlalchemy import String, bindparam, func, literal

    return func.pg_notify(literal(CHANNEL), bindparam("notice", type_=String))


SESSIONS_ENDED = "sessions ended"


def notify_sessions_ended(conn: Connection) -> None:
    """On PostgreSQL, tell every console process that a session was ended (its live streams end at once): sent
    when the transaction that ended it commits (`furnace.campaign.access.revoke`, whether a worker or the CLI
    ended it)."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy import text

        conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                     {"channel": CHANNEL, "payload": json.dumps({"sessions": SESSIONS_ENDED})})

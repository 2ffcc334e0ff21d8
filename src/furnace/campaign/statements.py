"""The statements of a console's every roll, built once with bound parameters: a statement built anew each time costs
more CPU than running it (SQLAlchemy builds it, then derives its cache key). `furnace.campaign.store` runs them."""

from __future__ import annotations

from functools import cache
from typing import Any

from furnace.campaign.notify import notice


@cache
def row_query(lock: bool) -> Any:
    from sqlalchemy import bindparam, select

    from furnace.campaign.schema import campaigns

    query = select(campaigns).where(campaigns.c.name == bindparam("name"))
    return query.with_for_update() if lock else query


@cache
def events_query(limited: bool) -> Any:
    """The events of the campaign named `name` after `since` (at most `limit`)."""
    from sqlalchemy import bindparam, select

    from furnace.campaign.schema import campaigns, events

    query = select(events).join(campaigns, campaigns.c.id == events.c.campaign_id).where(
        campaigns.c.name == bindparam("name"), events.c.seq > bindparam("since")).order_by(events.c.seq)
    return query.limit(bindparam("limit")) if limited else query


@cache
def locked_query() -> Any:
    """PostgreSQL: the campaign named `name`, locked, beside each row of its log after `since` up to `until`."""
    from sqlalchemy import and_, bindparam, select

    from furnace.campaign.schema import campaigns, events

    after = and_(events.c.campaign_id == campaigns.c.id, events.c.seq > bindparam("since"),
                 events.c.seq <= campaigns.c.event_count, events.c.seq <= bindparam("until"))
    return (select(campaigns, events.c.seq.label("link_seq"), events.c.prev_hash.label("link_prev"),
                   events.c.hash.label("link_hash"), events.c.changes.label("link_changes"))
            .select_from(campaigns.outerjoin(events, after)).where(campaigns.c.name == bindparam("name"))
            .order_by(events.c.seq).with_for_update(of=campaigns))


@cache
def bump_query(notifies: bool) -> Any:
    """The campaign's row moved on to its next version if it is still at the one read; on PostgreSQL returning the
    live feed's notice (`notify.notice`)."""
    from sqlalchemy import bindparam, update

    from furnace.campaign.schema import campaigns

    bump = update(campaigns).where(campaigns.c.id == bindparam("campaign"), campaigns.c.version == bindparam("was"))
    bump = bump.values(version=bindparam("now"), event_count=bindparam("count"), last_hash=bindparam("head"))
    return bump.returning(notice()) if notifies else bump


@cache
def insert_events() -> Any:
    from sqlalchemy import insert

    from furnace.campaign.schema import events

    return insert(events)

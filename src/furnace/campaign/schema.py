"""The tables of the campaign store (SQLAlchemy Core), as the newest migration leaves them.

- `campaigns`: one row a campaign, with the version that guards concurrent writers and the count and hash
  of its last event, so deleting events from the end is noticed;
- `events`: the append-only log. One row a logged event, with its rolls (full trees) and, on a command's
  last row, the entities the command changed (before and after). Each row carries the hash of the one
  before it in the campaign;
- `snapshots`: the whole state as of an event, taken every `SNAPSHOT_EVERY` events so a long campaign
  opens fast; each carries the hash of the event it stands for.

Migrations (Alembic, `furnace/campaign/migrations/`) create these; the store never calls `create_all`.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, ForeignKey, Index, Integer, MetaData, String, Table, Text, UniqueConstraint

metadata = MetaData()
ID = BigInteger().with_variant(Integer(), "sqlite")   # SQLite's rowid alias must be INTEGER

campaigns = Table(
    "campaigns", metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False, unique=True),
    Column("created_at", String(32), nullable=False),
    Column("version", Integer, nullable=False, default=0),
    Column("event_count", Integer, nullable=False, default=0),
    Column("last_hash", String(64), nullable=False),
)

events = Table(
    "events", metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    Column("campaign_id", ID, ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("command_id", Integer, nullable=False),     # the seq of the command's first event
    Column("command", String(64), nullable=False),
    Column("kind", String(64), nullable=False),
    Column("who", Text, nullable=False),
    Column("what", Text, nullable=False),
    Column("rolls", Text, nullable=False),             # JSON: each roll's expression, faces, total and tree
    Column("data", Text, nullable=False),              # JSON: the event's structured data
    Column("changes", Text, nullable=True),            # JSON: [{path, before, after}] on a command's last row
    Column("undoes", Integer, nullable=True),          # an undo: the command_id it reverses
    Column("created_at", String(32), nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
    UniqueConstraint("campaign_id", "seq", name="uq_events_campaign_seq"),
)

snapshots = Table(
    "snapshots", metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    Column("campaign_id", ID, ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("event_hash", String(64), nullable=False),
    Column("state", Text, nullable=False),
    Column("state_hash", String(64), nullable=False),
    Column("created_at", String(32), nullable=False),
    Index("ix_snapshots_campaign_seq", "campaign_id", "seq"),
)

Index("ix_events_campaign_command", events.c.campaign_id, events.c.command_id)

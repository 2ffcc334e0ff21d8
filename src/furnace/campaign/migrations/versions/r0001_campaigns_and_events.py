"""The first schema: campaigns and their append-only, hash-chained event log.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "campaigns",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("event_count", sa.Integer, nullable=False),
        sa.Column("last_hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("campaign_id", ID, sa.ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("command_id", sa.Integer, nullable=False),
        sa.Column("command", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("who", sa.Text, nullable=False),
        sa.Column("what", sa.Text, nullable=False),
        sa.Column("rolls", sa.Text, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("changes", sa.Text, nullable=True),
        sa.Column("undoes", sa.Integer, nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.UniqueConstraint("campaign_id", "seq", name="uq_events_campaign_seq"),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_table("campaigns")

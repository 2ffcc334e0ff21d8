"""Snapshots, so a long campaign opens fast, and an index to find a command's events for undo.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("campaign_id", ID, sa.ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("event_hash", sa.String(64), nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("state_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
    )
    op.create_index("ix_snapshots_campaign_seq", "snapshots", ["campaign_id", "seq"])
    op.create_index("ix_events_campaign_command", "events", ["campaign_id", "command_id"])


def downgrade() -> None:
    op.drop_index("ix_events_campaign_command", table_name="events")
    op.drop_index("ix_snapshots_campaign_seq", table_name="snapshots")
    op.drop_table("snapshots")

"""A referee's scope, for a host serving many tables (furnace.campaign.access): `web_sessions.host` marks the host's
session and sign-in link (every campaign), and `session_campaigns` holds the campaigns a scoped referee's session
(or her invite) runs. The referee sessions and sign-in links made before were every campaign's: they become the
host's.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("web_sessions") as batch:
        batch.add_column(sa.Column("host", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.execute(sa.text("UPDATE web_sessions SET host = :yes WHERE role IN ('referee', 'signin')")
               .bindparams(yes=True))
    op.create_table(
        "session_campaigns",
        sa.Column("session_id", ID, sa.ForeignKey("web_sessions.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("campaign_id", ID, sa.ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True),
    )


def downgrade() -> None:
    # a scoped referee's session would run every campaign without its scope: it ends, as do its unused links
    op.execute(sa.text("DELETE FROM web_sessions WHERE role IN ('referee', 'signin') AND host = :no")
               .bindparams(no=False))
    op.drop_table("session_campaigns")
    with op.batch_alter_table("web_sessions") as batch:
        batch.drop_column("host")

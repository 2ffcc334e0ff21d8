"""Alembic migrations of the campaign store (run by `furnace.campaign.migrate`)."""

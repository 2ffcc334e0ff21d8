"""Alembic's entry point: run the migrations on the store's own engine (never a URL from a config file)."""

from __future__ import annotations

from alembic import context

engine = context.config.attributes["engine"]
with engine.connect() as connection:
    context.configure(connection=connection, render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()

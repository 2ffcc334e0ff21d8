"""What every command shares: the database and the campaign chosen, and the global flags.

The database: `--db` > FURNACE_DATABASE_URL > the SQLite file in the user's data directory. The campaign:
`--campaign` > FURNACE_CAMPAIGN > the one chosen by `furnace campaign use` (a small file in the user's
config directory; FURNACE_CONFIG_DIR overrides it). The store is imported only when a command needs a
campaign, so commands that only roll or print start fast.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from furnace.errors import FurnaceError

if TYPE_CHECKING:   # pathlib costs start-up time on the roll path
    from pathlib import Path

    from furnace.campaign.store import Store

HOW_TO_CHOOSE = ("choose a campaign: `furnace campaign new NAME` then `furnace campaign use NAME`, or pass "
                 "`--campaign NAME` (or set FURNACE_CAMPAIGN)")


@dataclass
class Settings:
    """The group's options for one run (`furnace --db … --campaign … --debug --force …`), as ctx.obj."""

    db: str | None = None
    campaign: str | None = None
    debug: bool = False
    force: bool = False
    explain: bool = False      # `--explain`: rule ids (and the notes behind a row) in the output
    _store: Store | None = None

    def store(self) -> Store:
        if self._store is None:
            from furnace.campaign.store import Store, resolve_url

            self._store = Store(resolve_url(self.db))
        return self._store

    def chosen(self) -> str | None:
        """The campaign chosen by flag, environment or `campaign use`, if any."""
        return self.campaign or os.environ.get("FURNACE_CAMPAIGN") or _used()

    def need_campaign(self) -> str:
        name = self.chosen()
        if not name:
            raise FurnaceError(f"this command needs a campaign: {HOW_TO_CHOOSE}")
        return name


def settings() -> Settings:
    """The settings of the running `furnace` command (defaults when a command runs on its own)."""
    ctx = click.get_current_context(silent=True)
    return ctx.ensure_object(Settings) if ctx is not None else Settings()


def config_dir() -> Path:
    from pathlib import Path

    if os.environ.get("FURNACE_CONFIG_DIR"):
        return Path(os.environ["FURNACE_CONFIG_DIR"])
    import platformdirs

    return Path(platformdirs.user_config_dir("furnace", appauthor=False))


def _used() -> str | None:
    path = config_dir() / "campaign.json"
    try:
        value = json.loads(path.read_text(encoding="utf-8")).get("campaign")
    except (OSError, ValueError, AttributeError):
        return None
    return value if isinstance(value, str) and value else None


def use(name: str | None) -> Path:
    """Remember `name` as the campaign to use (None forgets it); written whole, then renamed into place."""
    folder = config_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "campaign.json"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"campaign": name}), encoding="utf-8")
    os.replace(tmp, path)
    return path

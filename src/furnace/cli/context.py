"""What every command shares: the database and the campaign chosen, and the global flags.

The database: `--db` > FURNACE_DATABASE_URL > the SQLite file in the user's data directory. The campaign:
`--campaign` > FURNACE_CAMPAIGN > the one chosen by `furnace campaign use` (a small file in the user's
config directory; FURNACE_CONFIG_DIR overrides it). The store is imported only when a command needs a
campaign, so commands that only roll or print start fast.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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
    choosing: bool = False     # `campaign use`: the campaign in use is replaced, not read
    _store: Store | None = None

    def store(self) -> Store:
        """The campaign store. The campaign in use is read first: a config that cannot be read is refused before
        the database is made or opened, so a refused command changes nothing."""
        if self._store is None:
            from furnace.campaign.store import Store, resolve_url
            from furnace.rules.cache import keep_latest

            if not self.choosing:
                self.chosen()
            keep_latest()       # each command a new process: the next one reads the state this one made
            self._store = Store(resolve_url(self.db))
        return self._store

    def close(self) -> None:
        """Close the store when the command ends (its last connection folds SQLite's log into the file)."""
        if self._store is not None:
            self._store.close()
            self._store = None

    def database_files(self) -> list[str]:
        """The files of this run's SQLite database (found without opening it), the inputs of every command."""
        from furnace.campaign.location import database_files

        return database_files(self.db)

    def chosen(self) -> str | None:
        """The campaign chosen by flag, environment or `campaign use`, if any."""
        return self.campaign or os.environ.get("FURNACE_CAMPAIGN") or _used()

    def in_use(self) -> tuple[Store, str]:
        """The store and the campaign in use, the campaign found first: with none chosen, the command is refused
        before the database is made or opened."""
        name = self.need_campaign()
        return self.store(), name

    def need_campaign(self) -> str:
        name = self.chosen()
        if not name:
            raise FurnaceError(f"this command needs a campaign: {HOW_TO_CHOOSE}")
        return name


def settings() -> Settings:
    """The settings of the running `furnace` command (defaults when a command runs on its own)."""
    ctx = click.get_current_context(silent=True)
    return ctx.ensure_object(Settings) if ctx is not None else Settings()


CONFIG_LIMIT = 64 * 1024      # campaign.json holds one name


def config_dir() -> Path:
    """The user's config folder (platformdirs), or FURNACE_CONFIG_DIR; refused when it cannot be a folder."""
    from pathlib import Path

    from furnace.files import folder_problem

    if os.environ.get("FURNACE_CONFIG_DIR"):
        folder = Path(os.environ["FURNACE_CONFIG_DIR"])
    else:
        from furnace.files import user_folder

        folder = Path(user_folder("config"))
    if (problem := folder_problem(folder)) is not None:
        raise FurnaceError(f"{_config_named(folder)} cannot hold the campaign in use: {problem}; point "
                           "FURNACE_CONFIG_DIR at a folder, or pass --campaign NAME")
    return folder


def _config_named(folder: Path) -> str:
    from furnace.files import shown

    return f"FURNACE_CONFIG_DIR {shown(folder)}" if os.environ.get("FURNACE_CONFIG_DIR") else \
        f"the config folder {shown(folder)}"


def remembered() -> str | None:
    """The campaign `furnace campaign use` remembered, if any."""
    return _used()


def _used() -> str | None:
    from furnace import files

    path = config_dir() / "campaign.json"
    if not os.path.lexists(path):
        return None
    text = files.read_text(path, limit=CONFIG_LIMIT, what="the campaign in use")
    try:
        import json  # here, not at the top: `furnace roll` reads no config

        value = json.loads(text).get("campaign")
    except (ValueError, AttributeError, RecursionError):
        raise FurnaceError(f"{files.shown(path)} does not hold the campaign in use (it is not what `furnace campaign "
                           "use NAME` writes): choose again with `furnace campaign use NAME`") from None
    return value if isinstance(value, str) and value else None


def can_remember() -> None:
    """Refuse, before a command changes anything, when the campaign in use could not be remembered after it."""
    from furnace.files import cannot_write

    folder = config_dir()
    target = folder if folder.is_dir() else next((p for p in folder.parents if p.is_dir()), folder)
    if cannot_write(target):
        raise FurnaceError(f"{_config_named(folder)} cannot be written, so the campaign in use cannot be "
                           "remembered: point FURNACE_CONFIG_DIR at a folder that can be, or pass --campaign NAME")


def use(name: str | None) -> Path:
    """Remember `name` as the campaign to use (None forgets it); written whole, then renamed into place."""
    import json

    from furnace import files

    can_remember()
    folder = config_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FurnaceError(f"cannot make {_config_named(folder)}: {files.os_reason(exc, folder)}") from None
    path = folder / "campaign.json"
    files.write_text(path, json.dumps({"campaign": name}), in_place=True, what="the campaign in use")
    return path


def confirm(question: str, flag: str) -> bool:
    """Ask the referee `question` at the terminal; without one to answer (standard input closed, or at its
    end) refuse naming `flag`, the option that answers yes."""
    return bool(_asked(lambda: click.confirm(question), question, flag))


def ask(question: str, kind: click.ParamType[Any], flag: str) -> Any:
    """Ask the referee for a value at the terminal; without one to answer, refuse naming `flag`, the option
    that gives it."""
    return _asked(lambda: click.prompt(question, type=kind), question, flag)


def _asked(prompt: Callable[[], Any], question: str, flag: str) -> Any:
    import sys

    stream = sys.stdin
    if stream is None or stream.closed:
        raise FurnaceError(f"{question.rstrip('?')}: there is no terminal to answer; pass {flag}")
    try:
        return prompt()
    except (click.exceptions.Abort, EOFError, RuntimeError, OSError):   # end of input, no stdin, a captured one
        raise FurnaceError(f"{question.rstrip('?')}: no answer came; pass {flag}") from None

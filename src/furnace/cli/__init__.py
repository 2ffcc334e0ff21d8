"""The `furnace` command line: one module per command group, each command a few lines over the library.

`main` is the entry point; commands in other modules load only when named, so `furnace roll` starts fast.
"""

from furnace.cli.startup import (
    collect_nothing_at_exit,
    collect_seldom,
    keep_dataclass_code,
    keep_dice_code,
    read_pydantic_plugins_cheaply,
)

collect_seldom()
collect_nothing_at_exit()
read_pydantic_plugins_cheaply()
keep_dice_code()

import furnace.files  # noqa: E402, F401  (every command's: its dataclass made before the others')
from furnace.cli.app import cli, main  # noqa: E402  (after the plug-in look-up is answered)

# the dataclasses of `furnace roll` are made (the dice's, the command line's, the files'): those made from here on
# (the engine's, a campaign's) are made of the methods' code kept
keep_dataclass_code()

__all__ = ["cli", "main"]

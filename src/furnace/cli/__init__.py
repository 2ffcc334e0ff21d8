"""The `furnace` command line: one module per command group, each command a few lines over the library.

`main` is the entry point; commands in other modules load only when named, so `furnace roll` starts fast.
"""

from furnace.cli.startup import collect_nothing_at_exit, collect_seldom, keep_dice_code, read_pydantic_plugins_cheaply

collect_seldom()
collect_nothing_at_exit()
read_pydantic_plugins_cheaply()
keep_dice_code()

from furnace.cli.app import cli, main  # noqa: E402  (after the plug-in look-up is answered)

__all__ = ["cli", "main"]

"""The `furnace` command line: one module per command group, each command a few lines over the library.

`main` is the entry point; commands in other modules load only when named, so `furnace roll` starts fast.
"""

from furnace.cli.app import cli, main

__all__ = ["cli", "main"]

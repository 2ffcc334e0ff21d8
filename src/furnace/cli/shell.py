"""`furnace shell`: one process for an evening at the terminal.

Each line is a furnace command as it would be typed after `furnace` (`damage Brakka 3`, `encounter next`), run by
the same `main` in this process: the modules, the rules and the data are loaded once, so a command answers at
once. The global options given to `furnace … shell` (`--db`, `--campaign`, `--explain`, `--force`) hold for every
line. At a terminal: tab completion of commands, sub-commands and the campaign's names, and a history kept in the
config folder; fed on standard input (a file of commands), it runs each line and echoes it first. A mistake
prints its one `error:` line and the shell goes on; `exit` or end of input ends it, with the last failing
command's exit code.
"""

from __future__ import annotations

import contextlib
import shlex
import sys
from collections.abc import Callable, Sequence
from typing import Any

import click

from furnace.cli.app import LAZY_COMMANDS, cli
from furnace.errors import FurnaceError

PROMPT = "furnace> "
HISTORY = 1_000          # lines of history kept


@cli.command("shell")
@click.pass_context
def shell(ctx: click.Context) -> None:
    """Run furnace commands one per line in one process: completion, history, each answered at once.

    Example: furnace shell < examples/evening.txt
    """
    root = ctx.find_root().params
    given = [*(["--db", root["db"]] if root.get("db") else []),
             *(["--campaign", root["campaign"]] if root.get("campaign") else []),
             *(["--explain"] if root.get("explain") else []), *(["--force"] if root.get("force") else [])]
    interactive = sys.stdin.isatty()
    if interactive:
        _readline(given)
    code = run_lines(_lines(interactive), given, echo=not interactive)
    if code:
        failed = FurnaceError("")      # each error was told on its line; the shell ends with the last one's code
        failed.exit_code = code
        raise failed


def run_lines(lines: Any, given: Sequence[str], *, echo: bool,
              out: Callable[[str], None] = click.echo) -> int:
    """Run each line as a command with the `given` global options; the last failing command's exit code."""
    from furnace.cli.app import main

    last = 0
    for line in lines:
        try:
            words = _words(line)
        except FurnaceError as exc:
            out(f"error: {exc}")
            last = 2
            continue
        if words is None:
            continue
        if words in (["exit"], ["quit"]):
            break
        if echo:
            out(f"{PROMPT}{line.strip()}")
        if words and words[0] in ("shell", "serve"):
            out(f"error: {words[0]} does not run inside the shell")
            last = 2
            continue
        code = main([*given, *words])
        last = code or last
    return last


def _words(line: str) -> list[str] | None:
    """The words of a line (None for a blank line or a comment); a line that cannot be split is one error."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    if text.startswith("furnace "):       # a line copied from the README or a help's Example
        text = text[len("furnace "):]
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise FurnaceError(f"the line {text!r} cannot be read: {exc}") from None


def _lines(interactive: bool) -> Any:
    if not interactive:
        yield from sys.stdin
        return
    while True:
        try:
            yield input(PROMPT)
        except EOFError:
            click.echo("")
            return
        except KeyboardInterrupt:        # a Ctrl-C drops the line being typed, not the evening
            click.echo("")


# -- at a terminal: completion and history -------------------------------------------------------------------------
def _readline(given: Sequence[str]) -> None:
    try:
        import readline
    except ImportError:                  # no readline on this platform: the shell still runs
        return
    import atexit

    from furnace.cli.context import config_dir

    history = config_dir() / "shell_history"
    with contextlib.suppress(OSError):      # no history yet
        readline.read_history_file(history)
    readline.set_history_length(HISTORY)
    atexit.register(_save_history, readline, history)
    names = _names(given)
    readline.set_completer(lambda text, state: _complete(readline.get_line_buffer(), text, names, state))
    readline.parse_and_bind("tab: complete")


def _save_history(readline: Any, history: Any) -> None:
    with contextlib.suppress(OSError):      # a config folder that cannot be written loses the history only
        readline.write_history_file(history)


def _names(given: Sequence[str]) -> list[str]:
    """The campaign's names to complete (its members' names and ids), read once when the shell starts."""
    from furnace.cli.context import Settings

    db = given[given.index("--db") + 1] if "--db" in given else None
    campaign = given[given.index("--campaign") + 1] if "--campaign" in given else None
    settings = Settings(db=db, campaign=campaign)
    try:
        store, name = settings.in_use()
        state = store.open(name)
    except FurnaceError:
        return []
    finally:
        settings.close()
    return sorted({m.character.name for m in state.roster.values()} | set(state.roster))


def completions(line: str, text: str, names: Sequence[str]) -> list[str]:
    """What the word being typed may become: a command first, then a group's sub-command, then a name."""
    words = line.split()
    done = words if line.endswith(" ") or not words else words[:-1]
    if not done:
        options = sorted({*cli.commands, *LAZY_COMMANDS})
    else:
        command = cli.get_command(click.Context(cli), done[0])
        group = isinstance(command, click.Group) and len(done) == 1
        options = (command.list_commands(click.Context(command)) if isinstance(command, click.Group) and group
                   else list(names))
    return [o for o in options if o.startswith(text)]


def _complete(line: str, text: str, names: Sequence[str], state: int) -> str | None:
    found = completions(line, text, names)
    return found[state] if state < len(found) else None

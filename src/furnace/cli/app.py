"""The `furnace` command: a thin layer over the library, and the one edge where errors are reported.

A user's error (`FurnaceError`: bad input, a file that cannot be read or written) is one line `error: …`
and exit code 2; anything else is a bug: one line asking for a report and exit code 1, the traceback
only with `furnace --debug …`. Files are read and written through `furnace.files`; a command that writes
a file refuses to overwrite one unless `furnace --force …` (or the command's own `--force`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from itertools import takewhile
from typing import Any, TypeVar

import click

from furnace import dice
from furnace.cli.context import Settings as RunOptions
from furnace.cli.dice_options import faces_option, finish, rng_from
from furnace.cli.numbers import WHOLE
from furnace.cli.output import emit, explain_option, explaining, no_roll_option
from furnace.errors import FurnaceError
from furnace.public import entered

F = TypeVar("F", bound=Callable[..., Any])


def _parse_vars(pairs: Sequence[str]) -> dict[str, int | str]:
    """`--var NAME=VALUE`, read by the library's own rules: a name is a word (STR, ROOM_DC), bound once whatever
    its case; a value is a whole number in ASCII digits or a die (d8), checked as the library checks it."""
    from furnace.dice.values import DieValue, binding, variable_name

    out: dict[str, int | str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise FurnaceError(f"--var takes NAME=VALUE, not {pair!r}")
        key = variable_name(name.strip())
        if key in out:
            raise FurnaceError(f"--var binds {key} twice (names ignore case): {pair!r}")
        bound = binding(key, value.strip())
        out[key] = value.strip() if isinstance(bound, DieValue) else bound      # a die such as d8, for 5HD
    return out


def _rng(seed: int | None) -> dice.DiceSource:
    return dice.seeded(seed) if seed is not None else dice.system()


_emit = emit      # the commands' name for it (`furnace.cli.output.emit`)


def json_option(fn: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")(fn)


def seed_option(fn: F) -> F:
    return click.option("--seed", type=WHOLE, default=None,
                        help="Seed the dice for a repeatable result (default: system randomness).")(fn)


def var_option(fn: F) -> F:
    return click.option("--var", "variables", multiple=True, metavar="NAME=VALUE",
                        help="Bind a variable of the expression (repeatable), e.g. --var STR=2 --var HD=d8.")(fn)


def html_option(fn: F) -> F:
    return click.option("--html", metavar="FILE", default=None,
                        help="Also write a printable HTML sheet to FILE.")(fn)


def _run_options() -> RunOptions:
    ctx = click.get_current_context(silent=True)
    found = ctx.find_object(RunOptions) if ctx is not None else None
    return found if found is not None else RunOptions()


def _set_force(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.ensure_object(RunOptions).force = True


def force_option(fn: F) -> F:
    """The command's own --force (the same as `furnace --force`)."""
    return click.option("--force", is_flag=True, expose_value=False, callback=_set_force,
                        help="Overwrite an existing output file (never one of the command's inputs).")(fn)


def _write(path: str, text: str, *, inputs: Iterable[str | None] = ()) -> None:
    """Write an output file: whole or not at all, an existing one only with --force, never an input."""
    from furnace import files

    files.write_text(path, text, force=_run_options().force, inputs=inputs)


def _write_back(path: str, text: str, *, inputs: Iterable[str | None] = ()) -> None:
    """Save a file the command was asked to update in place (a character, the campaign state): whole or not at all."""
    from furnace import files

    files.write_text(path, text, in_place=True, inputs=inputs)


def _profile_file(profile: str) -> str | None:
    """The profile's path when it is a referee's file rather than a built-in profile (an input of the command)."""
    from furnace.rules.ruleset import builtin_profiles

    return None if profile in builtin_profiles() else profile


def option_option(fn: F) -> F:
    return click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
                        help="Override one rule option for this run (repeatable), e.g. --option enemy_morale=true.")(fn)


def load_rules(profile: str, options: Sequence[str] = ()) -> Any:
    """The profile's ruleset with `--option NAME=VALUE` overrides, each read by its option's declared type
    (`furnace.rules.ruleset.parse_override`): an unknown name or a wrong value is refused saying what it takes."""
    from furnace.play.registry import in_force
    from furnace.rules.ruleset import load_ruleset, parse_overrides

    rules = load_ruleset(profile)
    overrides = parse_overrides(options, tables=rules.tables)
    return in_force(rules.with_options(overrides, "override") if overrides else rules)   # its chapters only


def profile_option(fn: F) -> F:
    return click.option("--profile", default="furnace", show_default=True,
                        help="furnace, hazards, middle-sea, or a referee's profile file.")(fn)


class ExpressionCommand(click.Command):
    """A command whose argument is a dice expression, which may start with '-' (`furnace roll "-d6"`, `-1+d20`)
    without a `--` before it: the first word that starts with '-' and is no option of the command is taken as the
    expression (a word after an option that takes a value is that option's value)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, _expression_last(self, ctx, args))


def _expression_last(command: click.Command, ctx: click.Context, args: list[str]) -> list[str]:
    known, valued = set(ctx.help_option_names), set()
    for param in command.get_params(ctx):
        if isinstance(param, click.Option):
            known.update(param.opts + param.secondary_opts)
            if not param.is_flag and not param.count:
                valued.update(param.opts)
    out: list[str] = []
    expression = None
    words = iter(args)
    for word in words:
        if word == "--":
            out += [word, *words]
            break
        if word in valued:
            out += [word, next(words, "")]
        elif expression is None and _dashed_expression(word, known):
            expression = word
        else:
            out.append(word)
    if expression is None:
        return out
    if "--" not in out:
        return [*out, "--", expression]
    at = out.index("--") + 1
    return [*out[:at], expression, *out[at:]]


def _dashed_expression(word: str, known: set[str]) -> bool:
    """'-d6', '-1+d20', '--1': a word that starts with '-' and is no option ('--seed', '-h', '--seed=3')."""
    if not word.startswith("-") or len(word) < 2 or word.split("=", 1)[0] in known:
        return False
    return not (word.startswith("--") and word[2:3].isalpha())    # --bogus stays an unknown option


# Commands that live in their own modules, imported only when used, so `furnace roll` starts fast.
LAZY_COMMANDS = {
    **dict.fromkeys(("fight", "crit", "fumble", "check", "reaction", "morale", "stabilise"),
                    "furnace.cli.play"),
    **dict.fromkeys(("contest", "effort", "challenge", "stunt", "pc-morale"), "furnace.cli.tests_of_skill"),
    **dict.fromkeys(("spellcheck", "spell", "item"), "furnace.cli.magic"),
    **dict.fromkeys(("clock",), "furnace.cli.clock"),
    **dict.fromkeys(("equip", "unequip"), "furnace.cli.gear"),
    **dict.fromkeys(("travel", "fall", "disease", "light", "language", "age"), "furnace.cli.hazards"),
    **dict.fromkeys(("poison", "sleep", "map", "surprise", "scene"), "furnace.cli.hazards_session"),
    **dict.fromkeys(("grievous", "weapon-mishap", "armor-hit", "coins"), "furnace.cli.middle_sea"),
    **dict.fromkeys(("campaign", "damage", "heal"), "furnace.cli.campaign"),
    **dict.fromkeys(("encounter",), "furnace.cli.encounter"),
    **dict.fromkeys(("standing",), "furnace.cli.answer"),
    **dict.fromkeys(("simulate",), "furnace.cli.simulate"),
    **dict.fromkeys(("serve", "signin-link", "sessions", "signout"), "furnace.cli.serve"),
    **dict.fromkeys(("lay-on-hands",), "furnace.cli.prayers"),
    **dict.fromkeys(("odds",), "furnace.cli.odds"),
    **dict.fromkeys(("chapters",), "furnace.cli.chapters"),
    **dict.fromkeys(("shell",), "furnace.cli.shell"),
    **dict.fromkeys(("funnel", "character"), "furnace.cli.characters"),
    **dict.fromkeys(("luck",), "furnace.cli.character_luck"),
    **dict.fromkeys(("rest", "xp", "give", "take", "purse", "loot", "repair", "rations", "place", "save", "drink",
                     "orison"), "furnace.cli.session"),
}


class LazySubgroup(click.Group):
    """A command group some of whose subcommands live in another module (`lazy`: name → module), imported when
    named (or when help lists them): `campaign recap` is furnace.cli.session's, and `campaign show` loads not it."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            import importlib

            importlib.import_module(self.lazy[cmd_name])   # its decorators add it to this group
        return super().get_command(ctx, cmd_name)


class LazyGroup(click.Group):
    """A group whose commands in other modules are imported when named (or when help lists them)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in LAZY_COMMANDS:
            import importlib

            importlib.import_module(LAZY_COMMANDS[cmd_name])   # its decorators register it on `cli`
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="furnace-rpg")
@click.option("--db", metavar="PATH_OR_URL", default=None,
              help="The campaign database: a SQLite file or a URL (default: FURNACE_DATABASE_URL, else a file in "
                   "the user's data folder).")
@click.option("--campaign", metavar="NAME", default=None,
              help="The campaign to work on (default: FURNACE_CAMPAIGN, else the one `campaign use` chose).")
@click.option("--debug", is_flag=True, help="On an internal error, show the traceback (for a bug report).")
@click.option("--force", is_flag=True, help="Let commands overwrite existing output files (never their inputs).")
@click.option("--explain", is_flag=True, help="Show the RULES.md ids behind each step of a command's output.")
@click.pass_context
def cli(ctx: click.Context, db: str | None, campaign: str | None, debug: bool, force: bool, explain: bool) -> None:
    """Furnace: dice, tables and rules for the Furnace tabletop RPG.

    Example: furnace roll 4d6kh3 --seed 7
    """
    run = ctx.ensure_object(RunOptions)
    run.debug, run.force, run.explain = run.debug or debug, run.force or force, run.explain or explain
    run.db, run.campaign = db or run.db, campaign or run.campaign
    from furnace import files

    # the files the command reads and the campaign database are its inputs: no output of it may replace one
    ctx.with_resource(files.command_inputs())
    files.protect(run.database_files, "part of the campaign database, an input of every command")
    ctx.call_on_close(run.close)


@cli.command(cls=ExpressionCommand)
@click.argument("expression")
@seed_option
@faces_option
@var_option
@click.option("--times", type=click.IntRange(1, 1000), default=1, help="Roll this many times.")
@click.option("--label", default="", help="Why it is rolled, kept with the result.")
@json_option
def roll(expression: str, seed: int | None, faces: str | None, variables: Sequence[str], times: int, label: str,
         as_json: bool) -> None:
    """Roll a dice expression and show every die.

    Notation: NdM, dM, d%, + - * / // %, comparisons (== < >= …), ceil() floor() max() min() abs(),
    keep/drop (4d6kh3, 2d20kl1, 4d6dl1, 4d6k>4), advantage (d20adv, d20dis), d20's operators (4d6rr1,
    2d6ro<3, 2d6ra6, 8d6e6, 10d6mi2, 10d6ma5), sets ((1d4, 2+2, 3d6kl1)kh1), annotations (3d6 [fire]),
    variables bound with --var (d20+STR+PROF, 5HD+3). An expression may start with '-' (-d6).

    Example: furnace roll "d20+STR+PROF" --var STR=2 --var PROF=1 --seed 3
    """
    expr = dice.parse(expression)
    rng, bound = rng_from(seed, faces), _parse_vars(variables)
    # rolled by the general roller, as compiled (`furnace.dice.compiled`) it gives the same faces, total and tree:
    # compiling costs a few hundred microseconds, more than a command's few rolls
    results = [expr.roll_any(rng, bound, label) for _ in range(times)]
    finish(rng)
    if as_json:
        _emit([r.to_dict() for r in results] if times > 1 else results[0].to_dict())
        return
    for r in results:
        click.echo(r.explain())


@cli.group()
def table() -> None:
    """List, show and roll the rule tables (by short name or RULES.md id).

    Example: furnace table roll crit-fighter --level 7
    """


@table.command("list")
@json_option
def table_list(as_json: bool) -> None:
    """Every table with its id, short name and how it is rolled.

    Example: furnace table list
    """
    from furnace.render.text import table_list as render_list
    from furnace.rules.tables import TableSet

    tables = list(TableSet.packaged())
    if as_json:
        _emit([{"id": t.id, "name": t.name, "title": t.title, "kind": t.kind, "roll": t.roll,
                "die_table": t.die_table, "rows": len(t.rows)} for t in tables])
        return
    render_list(tables)


@table.command("show")
@click.argument("name")
@explain_option
@json_option
def table_show(name: str, as_json: bool) -> None:
    """Show a table's rows, their effects and the readings chosen (its RULES.md ids with --explain).

    Example: furnace table show fumble --explain
    """
    from furnace.render.text import table_show as render_show
    from furnace.rules.tables import TableSet

    t = TableSet.packaged().get(name)
    if as_json:
        _emit(t.model_dump(mode="json", exclude_defaults=True))
        return
    render_show(t, explaining())


@table.command("roll")
@click.argument("name")
@click.option("--die", default=None, help="Roll with this expression instead of the table's own die.")
@click.option("--level", type=WHOLE, default=None, help="Character level, for tables whose die depends on it.")
@click.option("--armor", default=None, help="none, light or heavy, for the fumble table.")
@var_option
@seed_option
@faces_option
@no_roll_option
@explain_option
@json_option
def table_roll(name: str, die: str | None, level: int | None, armor: str | None, variables: Sequence[str],
               seed: int | None, faces: str | None, no_roll: bool, as_json: bool) -> None:
    """Roll on a table: the die (and why), the roll and the row, with its effects.

    Example: furnace table roll crit-fighter --level 7 --seed 1
    """
    from furnace.rules.tables import TableSet

    tables = TableSet.packaged()
    key: int | str | None = level if level is not None else armor
    rng = rng_from(seed, faces)
    show_table_roll(tables.roll(name, rng, key=key, die=die, variables=_parse_vars(variables)), as_json,
                    None if no_roll else rng)


def show_table_roll(result: Any, as_json: bool, rng: dice.DiceSource | None = None) -> None:
    """A roll on a table: the die and why, the roll, the row, and the row's effects with the dice they name
    rolled on `rng` (as written when `rng` is None: --no-roll). Entered faces left over are refused first."""
    from furnace.cli.output import table_roll_lines

    lines, rolls = table_roll_lines(result, rng)
    finish(rng)
    if as_json:
        _emit({**result.to_dict(), "effect_rolls": [r.to_dict() for r in rolls]})
        return
    click.echo("\n".join(lines))


@cli.group()
def rules() -> None:
    """The rule options in force and where each value comes from: the campaign's, or a profile's.

    Example: furnace rules list --profile middle-sea
    """


def _rules_profile_option(fn: F) -> F:
    return click.option("--profile", default=None,
                        help="furnace, hazards, middle-sea, or a referee's profile file (default: the rules of the "
                             "campaign in use, else furnace).")(fn)


def _rules_in_force(profile: str | None) -> tuple[Any, str | None]:
    """The rules to show and the campaign they are of: a profile when named, else the campaign chosen (its
    profile, then its overrides and override files), else the furnace profile. A campaign and a profile both
    named is refused: the campaign plays by its own rules."""
    from furnace.rules.ruleset import load_ruleset

    run = _run_options()
    if profile is not None:
        if run.campaign:
            raise FurnaceError("name --campaign or --profile, not both: a campaign plays by its own rules (its "
                               "profile and overrides)")
        return load_ruleset(profile), None
    name = run.chosen()
    if name is None:
        return load_ruleset("furnace"), None
    from furnace.campaign.overrides import campaign_ruleset

    return campaign_ruleset(run.store().open(name)), name


@rules.command("list")
@_rules_profile_option
@json_option
def rules_list(profile: str | None, as_json: bool) -> None:
    """Every option with its value, where it comes from (the default, the profile, a campaign's override file
    or `campaign override set`) and the RULES.md ids behind it.

    Example: furnace rules list --profile hazards
    Example: furnace --campaign keep rules list
    """
    from furnace.render.text import rules_table

    ruleset, campaign = _rules_in_force(profile)
    if as_json:
        _emit({**ruleset.to_dict(), **({"campaign": campaign} if campaign else {})})
        return
    rules_table(ruleset, campaign)


@rules.command("show")
@click.argument("option")
@_rules_profile_option
@json_option
def rules_show(option: str, profile: str | None, as_json: bool) -> None:
    """One option: its value, where it comes from, its choices and sources.

    Example: furnace rules show death_model --profile middle-sea
    Example: furnace --campaign keep rules show hazards_light
    """
    ruleset, campaign = _rules_in_force(profile)
    value = ruleset.option(option)
    spec = value.spec
    if as_json:
        _emit({"name": spec.name, "value": value.value, "source": value.source, "default": spec.default,
               "choices": spec.choices, "sources": spec.sources, "title": spec.title,
               "description": spec.description, "read_by": spec.read_by,
               **({"campaign": campaign, "profile": ruleset.profile} if campaign else {})})
        return
    click.echo(f"{spec.name} = {_value_text(value.value)}   ({value.source}; default {_value_text(spec.default)})")
    if campaign:
        click.echo(f"  in the campaign {campaign} (profile {ruleset.profile})")
    click.echo(f"  {spec.title}")
    if spec.choices:
        click.echo(f"  choices: {', '.join(map(str, spec.choices))}")
    if spec.description:
        click.echo(f"  {spec.description}")
    click.echo(f"  sources: {', '.join(spec.sources)}")


def _value_text(value: Any) -> str:
    """An option's value as the referee writes it in `--option NAME=VALUE` (true, none, 3, furnace), not a repr."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list | tuple):
        return ", ".join(map(_value_text, value)) or "none"
    return str(value)


def _load_character(path: str) -> Any:
    from furnace.characters.character import Character

    return Character.from_file(path)


@cli.command()
@seed_option
@faces_option
@click.option("--count", type=click.IntRange(1, 40), default=4, help="How many 0-level characters.")
def demo(seed: int | None, faces: str | None, count: int) -> None:
    """Roll a handful of 0-level characters and a sample roll.

    Example: furnace demo --seed 1
    """
    from furnace.render.text import demo_output

    rng = rng_from(seed, faces)
    demo_output(rng, count)
    finish(rng)


BUG = "furnace: internal error ({}); please report it — run with --debug for the traceback"


def _usage_line(exc: click.ClickException) -> str:
    """A usage error of click's as one line, with where to read the command's help."""
    ctx = getattr(exc, "ctx", None)
    if ctx is None:
        return " ".join(exc.format_message().split())
    see = f"(see {ctx.command_path} --help)"
    if isinstance(exc, getattr(click.exceptions, "NoArgsIsHelpError", ())) and isinstance(ctx.command, click.Group):
        return f"{ctx.command_path} needs a command: {', '.join(ctx.command.list_commands(ctx))} {see}"
    return f"{' '.join(exc.format_message().split()).removesuffix('.')} {see}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI: 0 when done, 2 and one line `error: …` for a user's error, 1 and a request to report a bug."""
    args = list(argv) if argv is not None else sys.argv[1:]
    run = RunOptions(debug="--debug" in takewhile(lambda a: a.startswith("-"), args))
    try:
        with entered("cli", " ".join(a for a in args[:3] if not a.startswith("-"))):
            cli.main(args=args, prog_name="furnace", standalone_mode=False, obj=run)
    except FurnaceError as exc:
        if str(exc):          # an error already told (the shell's last failing command) is only its exit code
            click.echo(f"error: {' '.join(str(exc).splitlines())}", err=True)
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 1
    except click.ClickException as exc:    # click's own usage errors: one line too, exit code 2
        click.echo(f"error: {_usage_line(exc)}", err=True)
        return 2
    except BrokenPipeError:
        return 0
    except Exception as exc:   # anything else is a bug: one line, the traceback only when asked for
        click.echo(BUG.format(type(exc).__name__), err=True)
        if run.debug:
            raise
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

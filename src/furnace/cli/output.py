"""What a command prints for the referee: rule ids only under `--explain`, a row's dice rolled unless `--no-roll`.

    @explain_option               # `furnace crit … --explain` (or `furnace --explain crit …`)
    @no_roll_option               # the parameter `no_roll`
    def crit(...):
        say(result.explain())     # without its rule ids unless --explain

`table_roll_lines` is the one way a rolled row is shown (table roll, crit, fumble, spell and mishap rows).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import click

from furnace.cli.context import Settings

F = TypeVar("F", bound=Callable[..., Any])


def _set_explain(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.ensure_object(Settings).explain = True


def explain_option(fn: F) -> F:
    """The command's own --explain (the same as `furnace --explain`)."""
    return click.option("--explain", is_flag=True, expose_value=False, callback=_set_explain,
                        help="Show the RULES.md ids behind each step (and the notes of a row).")(fn)


def no_roll_option(fn: F) -> F:
    return click.option("--no-roll", "no_roll", is_flag=True,
                        help="Show the row's effects as written, without rolling the dice they name.")(fn)


def explaining() -> bool:
    ctx = click.get_current_context(silent=True)
    found = ctx.find_object(Settings) if ctx is not None else None
    return bool(found and found.explain)


def plain(text: str, names: Iterable[str] = ()) -> str:
    """The text as the referee reads it: its rule ids only under --explain (`names` are kept, even one such as
    D-1 that looks like an id)."""
    from furnace.rules.ids import without_rule_ids

    return text if explaining() else without_rule_ids(text, names)


def emit(data: Any) -> None:
    """Print a command's result as JSON."""
    import json

    click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def shown(result: Any, rng: object, as_json: bool) -> None:
    """The end of a command that rolls and does not log: entered faces it did not use refused, then the result as
    JSON (`to_dict`) or in words (`explain`)."""
    from furnace.cli.dice_options import finish

    finish(rng)
    if as_json:
        emit(result.to_dict())
        return
    say(result.explain())


def say(text: str, names: Iterable[str] = ()) -> None:
    click.echo(plain(text, names))


def table_roll_lines(result: Any, rng: Any) -> tuple[list[str], list[Any]]:
    """A roll on a table: the die and why, the roll and the row; then each effect, its dice rolled on `rng`
    (`None`: as written). Also the effect rolls, for the JSON output."""
    from furnace.render.referee import effect_lines

    effects, rolls = effect_lines(result.row.effects, rng)
    return [plain(result.explain()), *(f"  · {plain(e)}" for e in effects)], rolls


def tell(events: Iterable[Any], *, rolls: bool = True, seq: bool = False, stamp: bool = False) -> None:
    """Print events (facts, or rows of the campaign's log) as the referee reads them: rule ids only under
    --explain; `seq`: each row's number first; `stamp`: the game time a clock fact fell due. Nothing to tell (a
    funnel outside a campaign): neither the tellers nor the clock are imported."""
    events = list(events)
    if not events:
        return
    from furnace.render import story

    view = story.View(explain=explaining())
    for e in events:
        lines = story.stored(e, view, rolls=rolls) if hasattr(e, "seq") else _told(e, view, rolls)
        if not lines:
            continue
        head = lines[0]
        if stamp and isinstance(e.data.get("at"), int):
            from furnace.play.clock import Clock

            head = f"[{Clock().describe(e.data['at'])}] {head}"
        if e.data.get("hidden"):
            head = f"[referee only] {head}"
        if seq:
            head = f"[{e.seq}] {head}"
        click.echo("\n".join([head, *lines[1:]]))


def _told(e: Any, view: Any, rolls: bool) -> list[str]:
    from furnace.render import story

    told = story.tell(e, view)
    if told is None:
        return []
    said = told.render(view.explain)
    return said if rolls else said[:1]


def show(events: Sequence[Any], as_json: bool, *, stamp: bool = True) -> None:
    """The events a command logged: its number, the game time of what fell due on the clock (`stamp`), who and
    what, and every roll (entered or not)."""
    if as_json:
        import dataclasses

        emit([dataclasses.asdict(e) for e in events])
        return
    tell(events, seq=True, stamp=stamp)


def apply(command: str, fn: Any, as_json: bool, rng: Any = None) -> None:
    """Run a command on the campaign chosen (its entered faces checked inside the transaction) and show it."""
    from furnace.campaign.session import with_faces
    from furnace.cli.context import settings

    store, name = settings().in_use()
    applied = store.apply(name, command, with_faces(fn, rng) if rng is not None else fn)
    show(applied.events, as_json)

"""`furnace simulate`: many fights of one encounter, to see how deadly it is (furnace.play.simulate)."""

from __future__ import annotations

import secrets
import sys
from dataclasses import replace
from typing import Any

import click

from furnace.cli.app import _emit, _write, cli, force_option, json_option, option_option, profile_option
from furnace.cli.numbers import WHOLE
from furnace.cli.standing import policy_line, policy_option, policy_pairs


@cli.command()
@click.argument("file", required=False)
@click.option("--fights", type=click.IntRange(1, 1_000_000), default=1000, show_default=True,
              help="How many fights.")
@profile_option
@option_option
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes (the results are the same for any number).")
@click.option("--seed", type=WHOLE, default=None, help="Seed of the run (default: drawn and printed).")
@click.option("--rounds", type=click.IntRange(1, 100), default=20, show_default=True, help="At most this many rounds.")
@click.option("--party", multiple=True, metavar="all|WHO", help="The campaign's characters (with --monsters).")
@click.option("--monsters", default=None, metavar='"goblin x6"', help="The bestiary's monsters, for the campaign form.")
@click.option("--room-dc", type=click.IntRange(1, 40), default=None, help="The ROOM DC (default: the file's).")
@click.option("--allow-outside", is_flag=True, help="Let the fight file name party files outside its folder.")
@click.option("--plot", metavar="FILE.svg", default=None,
              help="Also write an SVG of the outcomes and rounds (of a sweep: a heat map of P(TPK)).")
@click.option("--vary", multiple=True, metavar="NAME=VALUES",
              help="Sweep a fight field (room_dc=10..16, rounds, initiative=group,simultaneous), a monster's count "
                   "(goblin=2..8) or a rule option (option:enemy_morale=true,false); repeatable: every combination.")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Run the fights on this Dask scheduler (tcp://host:8786; the cluster extra), same results.")
@policy_option
@force_option
@json_option
def simulate(file: str | None, fights: int, profile: str, options: tuple[str, ...], workers: int,
             seed: int | None, rounds: int, party: tuple[str, ...], monsters: str | None, room_dc: int | None,
             allow_outside: bool, plot: str | None, vary: tuple[str, ...], scheduler: str | None,
             policies: tuple[str, ...], as_json: bool) -> None:
    """Fight FILE many times and count: P(the party wins), P(each character dies), P(a total party kill),
    rounds, injuries and Luck Dice spent. Fight i replays with `furnace fight FILE --seed <its seed>`.
    With --vary, a table of P(TPK) and P(victory) for every combination, --fights in each; a cell replays alone
    with the same seed and its own values.

    Example: furnace simulate examples/funnel-vs-goblins.yaml --fights 2000 --workers 2 --seed 1

    Example: furnace simulate examples/funnel-vs-goblins.yaml --fights 50 --seed 1 --vary room_dc=10..12
    --vary goblin=4,6 --vary option:enemy_morale=true,false
    """
    from furnace.play import simulate as sim
    from furnace.render.plots import simulation_svg, text_histogram

    # before any fight: a bad address, fight file or plot path is one line, at once
    if scheduler is not None:
        sim.check_scheduler(scheduler)
    inputs = _fight_files(file, allow_outside)
    if plot:
        _check_plot(plot, inputs)
    source = _source(file, profile, options, rounds, party, monsters, room_dc, allow_outside)
    standing = policy_pairs(policies)
    source = replace(source, policies=standing)
    seed = secrets.randbits(32) if seed is None else seed
    if vary:
        _sweep(source, vary, profile, fights, seed, workers, scheduler, plot, inputs, as_json)
        return
    with click.progressbar(length=fights, label="fighting", file=sys.stderr) as bar:
        summary = sim.simulate(source, fights, seed, workers=workers, progress=bar.update, scheduler=scheduler)
    if plot:
        _write(plot, simulation_svg(f"{summary.fights:,} fights of {file or monsters}, seed {seed}",
                                    summary.outcomes_count(), summary.rounds(), summary.p_dies()), inputs=inputs)
    if as_json:
        shown = {"policies": dict(standing), "default_policy": source.rules()["default_policy"]} if standing else {}
        _emit({**summary.to_dict(), **shown})
        return
    click.echo(summary.explain())
    if standing:
        click.echo(policy_line(standing, source.rules()))
    click.echo(text_histogram(summary.rounds()))
    first = summary.outcomes[0]
    click.echo(f"Fight 0 replays with --seed {first.seed}.")


def _check_plot(plot: str, inputs: list[str]) -> None:
    """The plot's path, refused before the fights if it could not be written after them."""
    from furnace import files
    from furnace.cli.context import settings

    files.check_output(plot, force=settings().force, inputs=inputs)


def _fight_files(file: str | None, allow_outside: bool) -> list[str]:
    """The fight file and its party's character files: inputs, never outputs."""
    from furnace.play.fightfile import party_files

    return [] if file is None else [file, *map(str, party_files(file, allow_outside))]


def _sweep(source: Any, vary: tuple[str, ...], profile: str, fights: int, seed: int, workers: int,
           scheduler: str | None, plot: str | None, inputs: list[str], as_json: bool) -> None:
    from furnace.play import simulate as sim
    from furnace.render.plots import heat_map_svg

    rules = source.rules()
    parameters = [sim.parameter(text, source, rules) for text in vary]
    cells = sim.grid(parameters)
    sim.check_size(len(cells), fights)
    with click.progressbar(length=len(cells) * fights, label=f"fighting {len(cells)} cells", file=sys.stderr) as bar:
        found = sim.sweep(source, parameters, fights, seed, workers=workers, progress=bar.update, scheduler=scheduler)
    if plot:
        first = parameters[0]
        rows = [sim.label(c.settings[1:]) or "all" for c in found.cells]
        shares = {(row, sim.label(c.settings[:1])): c.summary.p_tpk() for row, c in zip(rows, found.cells, strict=True)}
        title = f"{fights:,} fights per cell of {inputs[0] if inputs else source.monsters}, seed {seed}"
        _write(plot, heat_map_svg(title, list(dict.fromkeys(rows)), [sim.label(((first, v),)) for v in first.values],
                                  shares), inputs=inputs)
    if as_json:
        _emit(found.to_dict())
        return
    click.echo(f"{len(cells)} cells × {fights:,} fights (seed {seed}):")
    click.echo(found.table())
    click.echo("A cell replays alone: the same --seed with its values, one each.")


def _source(file: str | None, profile: str, options: tuple[str, ...], rounds: int, party: tuple[str, ...],
            monsters: str | None, room_dc: int | None, allow_outside: bool) -> Any:
    from furnace.errors import FurnaceError
    from furnace.rules.ruleset import load_ruleset, parse_overrides

    if party or monsters:
        if file or not monsters:
            raise FurnaceError('the campaign form takes --monsters "goblin x6" (and --party), not a FILE')
        from furnace.cli.context import settings

        s = settings()
        store, name = s.in_use()
        state = store.open(name)
        from furnace.campaign.commands import rules_of

        pairs = tuple(parse_overrides(options, tables=rules_of(state).tables).items())
        from furnace.campaign.planning import CampaignSource

        return CampaignSource(state, party or ("all",), monsters, room_dc, rounds, pairs)
    if file is None:
        raise FurnaceError('give a fight FILE, or --monsters "goblin x6" (and --party) for the campaign form')
    from furnace.play.simulate import FightFileSource

    pairs = tuple(parse_overrides(options, tables=load_ruleset(profile).tables).items())
    return FightFileSource(file, profile, pairs, rounds, room_dc, allow_outside)

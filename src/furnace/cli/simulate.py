"""`furnace simulate`: many fights of one encounter, to see how deadly it is (furnace.play.simulate)."""

from __future__ import annotations

import secrets
import sys
from dataclasses import dataclass
from typing import Any

import click

from furnace.cli.app import _emit, _write, cli, force_option, json_option, option_option, profile_option
from furnace.play.simulate import Fighter, Fought


@dataclass(frozen=True)
class CampaignSource:
    """The campaign's living characters against the bestiary's monsters, laid out as `furnace fight --party
    … --monsters …` lays them out (campaign.encounters), and never written back."""

    state: Any                       # the CampaignState, read once
    who: tuple[str, ...]
    monsters: str
    room_dc: int | None = None
    rounds: int = 20
    options: tuple[tuple[str, Any], ...] = ()

    def prepare(self) -> Fighter:
        from furnace import dice
        from furnace.campaign import encounters
        from furnace.campaign.commands import rules_of
        from furnace.play.encounter import run_fight

        rules = rules_of(self.state)
        rules = rules.with_options(dict(self.options), "this fight") if self.options else rules
        members = encounters.party(self.state, self.who)

        def fight(seed: int) -> Fought:
            rng = dice.seeded(seed)
            lineup = encounters.line_up(self.state, members, rng, rules, monsters=self.monsters,
                                        room_dc=self.room_dc)
            after, events = run_fight(lineup.encounter, rng, rules, self.rounds)
            return lineup.encounter, after, events

        return fight


@cli.command()
@click.argument("file", required=False)
@click.option("--fights", type=click.IntRange(1, 1_000_000), default=1000, show_default=True,
              help="How many fights.")
@profile_option
@option_option
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes (the results are the same for any number).")
@click.option("--seed", type=int, default=None, help="Seed of the run (default: drawn and printed).")
@click.option("--rounds", type=click.IntRange(1, 100), default=20, show_default=True, help="At most this many rounds.")
@click.option("--party", multiple=True, metavar="all|WHO", help="The campaign's characters (with --monsters).")
@click.option("--monsters", default=None, metavar='"goblin x6"', help="The bestiary's monsters, for the campaign form.")
@click.option("--room-dc", type=click.IntRange(1, 40), default=None, help="The ROOM DC (default: the file's).")
@click.option("--allow-outside", is_flag=True, help="Let the fight file name party files outside its folder.")
@click.option("--plot", metavar="FILE.svg", default=None, help="Also write an SVG of the outcomes and rounds.")
@force_option
@json_option
def simulate(file: str | None, fights: int, profile: str, options: tuple[str, ...], workers: int,
             seed: int | None, rounds: int, party: tuple[str, ...], monsters: str | None, room_dc: int | None,
             allow_outside: bool, plot: str | None, as_json: bool) -> None:
    """Fight FILE many times and count: P(the party wins), P(each character dies), P(a total party kill),
    rounds, injuries and Luck Dice spent. Fight i replays with `furnace fight FILE --seed <its seed>`.

    Example: furnace simulate examples/funnel-vs-goblins.yaml --fights 2000 --workers 2 --seed 1
    """
    from furnace.play import simulate as sim
    from furnace.render.plots import simulation_svg, text_histogram

    source = _source(file, profile, options, rounds, party, monsters, room_dc, allow_outside)
    seed = secrets.randbits(32) if seed is None else seed
    with click.progressbar(length=fights, label="fighting", file=sys.stderr) as bar:
        summary = sim.simulate(source, fights, seed, workers=workers, progress=bar.update)
    if plot:
        _write(plot, simulation_svg(f"{summary.fights:,} fights of {file or monsters}, seed {seed}",
                                    summary.outcomes_count(), summary.rounds()), inputs=(file,))
    if as_json:
        _emit(summary.to_dict())
        return
    click.echo(summary.explain())
    click.echo(text_histogram(summary.rounds()))
    first = summary.outcomes[0]
    click.echo(f"Fight 0 replays with --seed {first.seed}.")


def _source(file: str | None, profile: str, options: tuple[str, ...], rounds: int, party: tuple[str, ...],
            monsters: str | None, room_dc: int | None, allow_outside: bool) -> Any:
    from furnace.errors import FurnaceError
    from furnace.rules.ruleset import load_ruleset, parse_overrides

    if party or monsters:
        if file or not monsters:
            raise FurnaceError('the campaign form takes --monsters "goblin x6" (and --party), not a FILE')
        from furnace.cli.context import settings

        s = settings()
        state = s.store().open(s.need_campaign())
        from furnace.campaign.commands import rules_of

        pairs = tuple(parse_overrides(options, tables=rules_of(state).tables).items())
        return CampaignSource(state, party or ("all",), monsters, room_dc, rounds, pairs)
    if file is None:
        raise FurnaceError('give a fight FILE, or --monsters "goblin x6" (and --party) for the campaign form')
    from furnace.play.simulate import FightFileSource

    pairs = tuple(parse_overrides(options, tables=load_ruleset(profile).tables).items())
    return FightFileSource(file, profile, pairs, rounds, room_dc, allow_outside)

"""The Hazards commands of the `furnace` CLI: travel, fall, disease, light, language, age (RULES.md PART H).

They default to the `hazards` profile; `--profile` picks another (a module switched off is refused).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from furnace.cli.app import _emit, cli, json_option, load_rules, option_option, seed_option
from furnace.cli.dice_options import faces_option, finish, rng_from
from furnace.cli.output import tell
from furnace.errors import FurnaceError

if TYPE_CHECKING:
    from furnace.characters.character import Character
    from furnace.events import Event

F = TypeVar("F", bound=Callable[..., Any])
SCORE_FOR_MOD = {-3: 3, -2: 5, -1: 7, 0: 10, 1: 13, 2: 16, 3: 18, 4: 20}


def hazards_profile(fn: F) -> F:
    return click.option("--profile", default="hazards", show_default=True,
                        help="hazards, furnace, middle-sea, or a referee's profile file.")(fn)


def _sample(name: str, *, race: str = "Human", age: int | None = None, **mods: int) -> Character:
    """A character with every score 10 but the modifiers asked for (--con 1 → CON 13)."""
    from furnace.characters.character import Character

    scores = {a: SCORE_FOR_MOD[mods.get(a.lower(), 0)] for a in ("STR", "DEX", "CON", "INT", "WIS", "CHA")}
    return Character(name=name, race=race, age=age, scores=scores, hp_max=4, hp=4)


def _log(events: Sequence[Event]) -> None:
    tell(events, stamp=True)


def _mod_option(name: str, what: str) -> Callable[[F], F]:
    return click.option(f"--{name}", f"{name}_", type=click.IntRange(-3, 4), default=0, show_default=True,
                        help=f"The {what} modifier (−3 … +4).")


@cli.command()
@click.option("--days", type=click.IntRange(0, 365), default=1, show_default=True, help="Days of travel.")
@click.option("--trail", is_flag=True, help="Along a trail, road or known landmark: no lost roll (H-TRAV-01).")
@click.option("--heading", default="N", show_default=True, help="The intended heading: N, NE, E, SE, S, SW, W, NW.")
@seed_option
@faces_option
@hazards_profile
@option_option
@json_option
def travel(days: int, trail: bool, heading: str, seed: int | None, faces: str | None, profile: str,
           options: tuple[str, ...],
           as_json: bool) -> None:
    """Travel for some days: the referee's secret 1-in-6 lost roll each wilderness day (H-TRAV-01..03).

    Example: furnace travel --days 5 --heading S --seed 3
    """
    from furnace.hazards import TravelState
    from furnace.hazards import travel as run

    rng = rng_from(seed, faces)
    party, events = run(TravelState.toward(heading), days, rng, load_rules(profile, options), wilderness=not trail)
    finish(rng)
    if as_json:
        _emit({"party": party.model_dump(), "lost": party.lost, "events": [e.to_dict() for e in events]})
        return
    _log(events)
    where = f"off course, really heading {party.actual}" if party.lost else "on course"
    span = f"{days} {'day' if days == 1 else 'days'}"
    click.echo(f"after {span}: the party believes it heads {party.intended}; [referee only] {where}")


@cli.command()
@click.argument("feet", type=click.IntRange(0, 100_000))
@seed_option
@faces_option
@hazards_profile
@option_option
@json_option
def fall(feet: int, seed: int | None, faces: str | None, profile: str, options: tuple[str, ...], as_json: bool) -> None:
    """Falling damage: 1d6 per full 10 feet, at most 20d6 (H-FALL-01).

    Example: furnace fall 250 --seed 1
    """
    from furnace.events import Event
    from furnace.hazards import fall_damage, fall_dice
    from furnace.hazards.falling import FALL

    rules = load_rules(profile, options)
    rng = rng_from(seed, faces)
    roll = fall_damage(feet, rng, rules)
    finish(rng)
    if as_json:
        _emit({"feet": feet, "dice": fall_dice(feet, rules), "damage": roll.total if roll else 0,
               "roll": roll.to_dict() if roll else None})
        return
    if roll is None:
        _log([Event(FALL, "", (), (), {"feet": feet, "dice": "", "damage": 0}, ("H-FALL-01", "AMB-74"))])
    else:
        _log([Event(FALL, "", (), (roll,), {"feet": feet, "dice": roll.expression, "damage": roll.total},
                    ("H-FALL-01",))])


@cli.command()
@click.argument("disease")
@click.option("--days", type=click.IntRange(1, 3650), default=None,
              help="Also roll the saves of the first N days after infection for a sample patient.")
@_mod_option("con", "patient's CON")
@click.option("--resting", is_flag=True, help="The patient rests through the infection (no −2, H-DIS-05).")
@seed_option
@faces_option
@hazards_profile
@option_option
@json_option
def disease(disease: str, days: int | None, con_: int, resting: bool, seed: int | None, faces: str | None, profile: str,
            options: tuple[str, ...], as_json: bool) -> None:
    """A disease's course: its saves, when each falls due after infection (H-DIS-02..06). DISEASE is a YAML file
    (name, incubation, interval, infection_time, effect) or a disease of H-TAB-04 by name.

    Example: furnace disease "Green River Fever" --days 8 --seed 2
    """
    from furnace.hazards import find_disease
    from furnace.play.clock import HOUR, Clock

    rules = load_rules(profile, options)
    sick = find_disease(disease, rules)
    schedule = [{"number": i, "hours_after_infection": t // HOUR, "due": Clock().describe(t)}
                for i, t in enumerate(sick.save_times(rules), 1)]
    rng = rng_from(seed, faces)
    events = _disease_course(sick, days, con_, resting, rng, rules) if days else []
    finish(rng)
    if as_json:
        _emit({"disease": sick.model_dump(), "saves": schedule, "events": [e.to_dict() for e in events]})
        return
    click.echo(f"{sick.name}: incubation {sick.incubation}, a save every {sick.interval} for {sick.infection_time}; "
               f"each failure: {sick.effect.ability} −{sick.effect.amount or rules['disease_loss_per_failure']}")
    click.echo(f"{len(schedule)} saves (infected at day 1, 00:00):")
    for row in schedule:
        click.echo(f"  save {row['number']:>2}: {row['due']} ({row['hours_after_infection']} h after infection)")
    _log(events)


def _disease_course(sick: Any, days: int, con: int, resting: bool, rng: Any, rules: Any) -> list[Event]:
    from furnace.hazards import infect
    from furnace.play.clock import Campaign, advance

    patient = _sample("patient", con=con)
    campaign = Campaign(characters={"patient": patient}, flags={"resting": resting})
    campaign, events = infect(campaign, "patient", sick, rules)
    campaign, fired = advance(campaign, days, "day", rng, rules)
    return events + fired


@cli.command()
@click.argument("source")
@click.option("--turns", type=click.IntRange(1, 10_000), default=None,
              help="Let this many exploration turns pass and show what burns out.")
@click.option("--flasks", type=click.IntRange(0, 100), default=0, help="Spare flasks of oil for a lantern.")
@seed_option
@faces_option
@hazards_profile
@option_option
@json_option
def light(source: str, turns: int | None, flasks: int, seed: int | None, faces: str | None, profile: str,
          options: tuple[str, ...],
          as_json: bool) -> None:
    """A light source's radius and burn time in exploration turns (H-LIGHT-02, H-TAB-02).

    Example: furnace light lantern --turns 50 --flasks 1
    """
    from furnace.hazards import light as light_up
    from furnace.hazards import light_source, party_lit
    from furnace.play.clock import Campaign, advance

    rules = load_rules(profile, options)
    lit = light_source(source, rules)
    minutes = lit.turns * int(rules["exploration_turn_minutes"])
    per = " per flask of oil" if lit.fuel else ""
    head = f"{lit.name}: {lit.radius_ft}' radius, burns {lit.turns} exploration turns ({minutes} minutes){per}"
    events: list[Event] = []
    rng = rng_from(seed, faces)
    if turns:
        carrier = _sample("carrier").model_copy(update={"items": ["flask of oil"] * flasks})
        campaign = Campaign(characters={"carrier": carrier})
        campaign, events = light_up(campaign, "carrier", lit.name, rules)
        campaign, fired = advance(campaign, turns, "exploration_turn", rng, rules)
        events += fired
        still = party_lit(campaign)
    finish(rng)
    if as_json:
        _emit({**lit._asdict(), "minutes": minutes, "events": [e.to_dict() for e in events],
               "lit_after": still if turns else None})
        return
    click.echo(head)
    if turns:
        _log(events)
        click.echo(f"after {turns} {'turn' if turns == 1 else 'turns'}: {'still burning' if still else 'dark'}")


@cli.command()
@_mod_option("int", "character's INT")
@click.option("--kind", required=True, type=click.Choice(["local", "not-local", "exotic", "ancient", "magical"]),
              help="How the referee classes the language (REF-36).")
@click.option("--language", "name", default="the language", help="The language's name, for the log.")
@click.option("--who", default=None, help="A character of the campaign meets it: her INT, race and tongues, and "
                                          "her one attempt kept (H-LANG-01..03); --int and --profile do not apply.")
@click.option("--local", default="Common", show_default=True,
              help="With --who: the local human tongue, which she speaks from the start (H-LANG-02).")
@seed_option
@faces_option
@hazards_profile
@option_option
@json_option
def language(int_: int, kind: str, name: str, who: str | None, local: str, seed: int | None, faces: str | None,
             profile: str, options: tuple[str, ...], as_json: bool) -> None:
    """Does a character know a language met in play? 1d6 ≤ 1 + INT + the class's modifier, once ever (H-LANG-03).

    Example: furnace language --int 2 --kind exotic --seed 4
    """
    from furnace.hazards import chance_in_6, know_language

    rng = rng_from(seed, faces)
    if who is not None:
        from furnace.campaign.hazards import speaking
        from furnace.cli.output import apply

        if options or int_:
            raise FurnaceError("with --who her own INT and the campaign's rules apply: no --int or --option")
        apply("language", speaking(who, name, kind, rng, local), as_json, rng)
        return
    rules = load_rules(profile, options)
    speaker = _sample("speaker", int=int_)
    after, events = know_language(speaker, name, kind, rng, rules)
    finish(rng)
    chance = chance_in_6(int_, kind, rules)
    if as_json:
        _emit({"chance_in_6": chance, "known": name in after.languages, "events": [e.to_dict() for e in events]})
        return
    click.echo(f"chance: {'never (magical)' if chance is None else f'{chance} in 6'}")
    _log(events)


@cli.command()
@click.option("--race", required=True, help="Human, Dwarf, Elf, Halfling or Half-orc (H-TAB-01).")
@click.option("--from", "old", type=click.IntRange(0, 5000), required=True, help="The age before.")
@click.option("--to", "new", type=click.IntRange(0, 5000), required=True, help="The age after.")
@_mod_option("con", "character's CON")
@seed_option
@faces_option
@hazards_profile
@option_option
@json_option
def age(race: str, old: int, new: int, con_: int, seed: int | None, faces: str | None, profile: str,
        options: tuple[str, ...],
        as_json: bool) -> None:
    """The aging saves that fall due between two ages, rolled at once as for magical aging (H-AGE-01..03).

    Example: furnace age --race Human --from 38 --to 45 --con 1 --seed 5
    """
    from furnace.hazards import age_character

    if new < old:
        raise FurnaceError(f"--to ({new}) must not be below --from ({old})")
    rng = rng_from(seed, faces)
    after, events = age_character(_sample("elder", race=race, age=old, con=con_), new - old, rng,
                                  load_rules(profile, options), magical=True)
    finish(rng)
    if as_json:
        _emit({"race": race, "from": old, "to": new, "scores": after.scores, "dead": after.dead,
               "events": [e.to_dict() for e in events]})
        return
    from furnace.render.story.words import death_cause

    _log(events)
    click.echo("scores after: " + ", ".join(f"{a} {s}" for a, s in after.scores.items())
               + (f"; dead: {death_cause(after.dead)}" if after.dead else ""))

"""The play commands of the `furnace` CLI: fights, crits, fumbles (registered on the main group)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from furnace.cli.app import (
    _emit,
    _rng,
    cli,
    json_option,
    load_rules,
    option_option,
    profile_option,
    seed_option,
    show_table_roll,
)


@cli.command()
@click.argument("file")
@seed_option
@click.option("--rounds", type=click.IntRange(1, 100), default=20, show_default=True, help="At most this many rounds.")
@profile_option
@option_option
@click.option("--quiet", is_flag=True, help="Leave the dice out of the log.")
@click.option("--allow-outside", is_flag=True,
              help="Let the fight file name party files outside its own folder (absolute paths, ../).")
@json_option
def fight(file: str, seed: int | None, rounds: int, profile: str, options: tuple[str, ...], quiet: bool,
          allow_outside: bool, as_json: bool) -> None:
    """Resolve a fight file round by round (each side attacks the nearest enemy) and print the log.

    Party files are read from the fight file's folder (and its subfolders) unless --allow-outside.

    Example: furnace fight examples/funnel-vs-goblins.yaml --seed 1 --option enemy_morale=true
    """
    from furnace.play.encounter import log_text, run_fight
    from furnace.play.fightfile import build, load_fight

    rules, rng = load_rules(profile, options), _rng(seed)
    spec = load_fight(file)
    encounter = build(spec, Path(file).parent, rng, rules, allow_outside=allow_outside)
    enc, events = run_fight(encounter, rng, rules, rounds)
    if as_json:
        _emit({"fight": spec.name, "profile": rules.profile, "winner": enc.winner, "rounds": enc.round,
               "over": enc.over, "combatants": [c.model_dump(mode="json") for c in enc.combatants],
               "events": [e.to_dict() for e in events]})
        return
    click.echo(f"{spec.name} (ROOM DC {spec.room_dc}, profile {rules.profile})")
    click.echo(log_text(events, rolls=not quiet))
    fallen = [c.name for c in enc.combatants if c.status == "dead"]
    click.echo(f"\nAfter {enc.round} round(s): {enc.winner or 'no side'} "
               f"{'wins' if enc.over else 'still standing (round limit)'}; dead: {', '.join(fallen) or 'none'}")


@cli.command()
@click.option("--class", "char_class", required=True,
              type=click.Choice(["Fighter", "Cleric", "Rogue", "Magic-user", "0-level"], case_sensitive=False))
@click.option("--level", type=click.IntRange(0, 30), default=1, show_default=True)
@seed_option
@profile_option
@json_option
def crit(char_class: str, level: int, seed: int | None, profile: str, as_json: bool) -> None:
    """Roll a crit: the class crit table with the crit die for the level (F-CRIT-01/02).

    Example: furnace crit --class Fighter --level 7 --seed 2
    """
    from furnace.play.combatant import Combatant
    from furnace.play.crit import crit_level, crit_table
    from furnace.rules.ruleset import load_ruleset

    rules = load_ruleset(profile)
    cls = {"fighter": "Fighter", "cleric": "Cleric", "rogue": "Rogue", "magic-user": "Magic-user"}.get(
        char_class.lower())
    who = Combatant(id="pc", name="pc", side="a", kind="pc", level=0 if cls is None else level,
                    char_class=cls, hp=1, hp_max=1, ac=10, attack_bonus=0)
    table = crit_table(who, rules)
    assert table is not None
    show_table_roll(rules.tables.roll(table, _rng(seed), key=crit_level(who, rules)), as_json)


@cli.command()
@click.option("--armor", type=click.Choice(["none", "light", "heavy"]), required=True,
              help="The fumbler's armor: the fumble die is d4, d8 or d12 (a shield alone is none).")
@seed_option
@profile_option
@json_option
def fumble(armor: str, seed: int | None, profile: str, as_json: bool) -> None:
    """Roll a fumble with the die for the armor (F-FUMB-01/02).

    Example: furnace fumble --armor heavy --seed 4
    """
    from furnace.rules.ruleset import load_ruleset

    show_table_roll(load_ruleset(profile).tables.roll("fumble", _rng(seed), key=armor), as_json)


def _modifiers(mods: tuple[str, ...]) -> list[Any]:
    """`2`, `-1` or `STR=2` (a named source) → checks.Modifier values."""
    from furnace.errors import FurnaceError
    from furnace.play.checks import Modifier

    out = []
    for text in mods:
        name, _, value = text.rpartition("=")
        try:
            out.append(Modifier(int(value), name or f"modifier {text}"))
        except ValueError:
            raise FurnaceError(f"a modifier is a number or NAME=NUMBER, not {text!r}") from None
    return out


@cli.command(context_settings={"ignore_unknown_options": True})
@click.argument("mods", nargs=-1)
@click.option("--dc", type=int, default=12, show_default=True, help="The ROOM DC (or the DC to meet).")
@click.option("--easy", type=click.IntRange(0, 10), default=0, help="How many EASY (−3 each) apply.")
@click.option("--hard", type=click.IntRange(0, 10), default=0, help="How many HARD (+3 each) apply.")
@click.option("--kind", type=click.Choice(["CHECK", "SAVE", "ATK"]), default="CHECK", show_default=True)
@click.option("--adv", "advantage", flag_value="adv", default=None, help="Advantage (when the option is on).")
@click.option("--dis", "advantage", flag_value="dis", help="Disadvantage (when the option is on).")
@seed_option
@profile_option
@json_option
def check(mods: tuple[str, ...], dc: int, easy: int, hard: int, kind: str, advantage: str | None,
          seed: int | None, profile: str, as_json: bool) -> None:
    """A CHECK, SAVE or ATK: d20 + modifiers against the ROOM DC moved by EASY/HARD (meet or beat).

    Example: furnace check STR=2 PROF=1 --dc 14 --hard 1 --seed 5
    """
    from furnace.play.checks import check as run_check
    from furnace.play.checks import make_dc
    from furnace.rules.ruleset import load_ruleset

    rules = load_ruleset(profile)
    target = make_dc(dc, [f"EASY #{i}" for i in range(1, easy + 1)], [f"HARD #{i}" for i in range(1, hard + 1)],
                     rules)
    result = run_check(_rng(seed), target, _modifiers(mods), kind=kind, advantage=advantage,  # type: ignore[arg-type]
                       rules=rules)
    if as_json:
        _emit(result.to_dict())
        return
    click.echo(result.explain())


@cli.command()
@click.option("--cha", type=int, default=0, show_default=True, help="The speaker's CHA modifier.")
@seed_option
@profile_option
@json_option
def reaction(cha: int, seed: int | None, profile: str, as_json: bool) -> None:
    """Meeting NPCs: 2d6 + CHA on the reaction table (F-NPC-01, F-TAB-29).

    Example: furnace reaction --cha 2 --seed 8
    """
    from furnace.play.reaction import reaction as run_reaction
    from furnace.rules.ruleset import load_ruleset

    result = run_reaction(_rng(seed), cha, load_ruleset(profile))
    if as_json:
        _emit(result.to_dict())
        return
    click.echo(result.explain())


@cli.command()
@click.option("--room-dc", type=int, required=True, help="The ROOM DC: enemy morale is half of it.")
@click.option("--morale", "value", type=int, default=None, help="The enemy's own morale score, if it has one.")
@seed_option
@profile_option
@json_option
def morale(room_dc: int, value: int | None, seed: int | None, profile: str, as_json: bool) -> None:
    """Enemy morale: 2d6 against half the ROOM DC (F-OPT-04; an optional rule, switched on here).

    Example: furnace morale --room-dc 14 --seed 2
    """
    from furnace.play.reaction import enemy_morale
    from furnace.rules.ruleset import load_ruleset

    rules = load_ruleset(profile)
    if not rules["enemy_morale"]:
        rules = rules.with_options({"enemy_morale": True}, "the morale command")
    result = enemy_morale(_rng(seed), room_dc, rules, morale=value)
    if as_json:
        _emit(result.to_dict())
        return
    click.echo(result.explain())

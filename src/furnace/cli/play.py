"""The play commands of the `furnace` CLI: fights, crits, fumbles (registered on the main group)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from furnace.cli.app import (
    _emit,
    cli,
    json_option,
    load_rules,
    option_option,
    profile_option,
    seed_option,
    show_table_roll,
)
from furnace.cli.dice_options import faces_option, finish, rng_from
from furnace.cli.numbers import WHOLE
from furnace.cli.output import explain_option, explaining, no_roll_option, shown
from furnace.cli.standing import luck_ahead, policy_line, policy_option, policy_pairs


@cli.command()
@click.argument("file", required=False)
@seed_option
@faces_option
@explain_option
@click.option("--rounds", type=click.IntRange(1, 100), default=20, show_default=True, help="At most this many rounds.")
@profile_option
@option_option
@click.option("--party", multiple=True, metavar="all|WHO",
              help="A fight of the campaign: who fights, all (the roster's living characters) or ids and names.")
@click.option("--monsters", default=None, metavar='"goblin x4, ogre"',
              help="A fight of the campaign against these monsters of the bestiary (and the campaign's overrides).")
@click.option("--room-dc", type=click.IntRange(1, 40), default=None,
              help="The ROOM DC (default: the fight file's, or the monsters' highest typical ROOM DC).")
@click.option("--quiet", is_flag=True, help="Leave the dice out of the log.")
@click.option("--allow-outside", is_flag=True,
              help="Let the fight file name party files outside its own folder (absolute paths, ../).")
@policy_option
@json_option
def fight(file: str | None, seed: int | None, faces: str | None, rounds: int, profile: str, options: tuple[str, ...],
          party: tuple[str, ...], monsters: str | None, room_dc: int | None, quiet: bool, allow_outside: bool,
          policies: tuple[str, ...], as_json: bool) -> None:
    """Resolve a fight round by round (each side attacks the nearest enemy) and print the log.

    With a fight FILE alone, nothing is stored: party files are read from the file's folder (and its
    subfolders) unless --allow-outside. With --party or --monsters, it is a fight of the campaign chosen: the
    roster's living characters against the monsters (or the FILE's), written back in one logged command — HP,
    deaths with cause and round, injuries, luck, gear, XP.

    Example: furnace fight examples/funnel-vs-goblins.yaml --seed 1 --option enemy_morale=true

    Example: furnace --campaign keep fight --party all --monsters "goblin x4, ogre" --seed 2
    """
    standing = policy_pairs(policies)
    if party or monsters:
        if standing:
            from furnace.errors import FurnaceError

            raise FurnaceError("--policy goes with a fight FILE; a fight of the campaign asks its players "
                               "(`furnace encounter start`)")
        _campaign_fight(file, rng_from(seed, faces), rounds, profile, options, party, monsters, room_dc, quiet, as_json)
        return
    if file is None:
        from furnace.errors import FurnaceError

        raise FurnaceError('give a fight FILE, or --monsters "goblin x4" (and --party) for a fight of the campaign')
    from furnace.play.combatant import flat
    from furnace.play.encounter import run_fight
    from furnace.play.fightfile import build, load_fight
    from furnace.render import story

    rules, rng = load_rules(profile, options), rng_from(seed, faces)
    spec = load_fight(file)
    if room_dc is not None:
        spec = spec.model_copy(update={"room_dc": room_dc})
    encounter = build(spec, Path(file).parent, rng, rules, allow_outside=allow_outside)
    if standing:      # (here: a fight with no standing answers loads no turn-by-turn play, `furnace.play.turns`)
        from furnace.play.answering import standing_in

        encounter = standing_in(encounter, dict(standing))
    enc, events = run_fight(encounter, rng, rules, rounds)
    finish(rng)
    if as_json:
        _emit({"fight": spec.name, "profile": rules.profile, "winner": enc.winner, "rounds": enc.round,
               "over": enc.over, "combatants": [flat(c) for c in enc.combatants],
               "events": [e.to_dict() for e in events],
               **({"policies": dict(standing), "default_policy": rules["default_policy"]} if standing else {})})
        return
    click.echo(f"{spec.name} (ROOM DC {spec.room_dc}, profile {rules.profile})")
    click.echo(story.log(events, story.View(explain=explaining()), rolls=not quiet))
    fallen = [c.name for c in enc.combatants if c.status == "dead"]
    click.echo(f"\nAfter {enc.round} round(s): {enc.winner or 'no side'} "
               f"{'wins' if enc.over else 'still standing (round limit)'}; dead: {', '.join(fallen) or 'none'}")
    if standing:
        click.echo(policy_line(standing, rules))


def _campaign_fight(file: str | None, rng: Any, rounds: int, profile: str, options: tuple[str, ...],
                    party: tuple[str, ...], monsters: str | None, room_dc: int | None, quiet: bool,
                    as_json: bool) -> None:
    """`fight --party … --monsters …`: the automatic fight on the campaign, settled in one command."""
    from furnace.campaign import encounters
    from furnace.campaign.session import with_faces
    from furnace.cli.context import settings
    from furnace.cli.encounter import fight_overrides, show_log
    from furnace.errors import FurnaceError
    from furnace.play.fightfile import load_fight

    s = settings()
    store, name = s.in_use()
    state = store.open(name)
    ctx = click.get_current_context()
    if ctx.get_parameter_source("profile") != click.core.ParameterSource.DEFAULT and profile != state.profile:
        raise FurnaceError(f"the campaign {name!r} plays by the profile {state.profile}, not {profile}: a fight of "
                           "the campaign uses the campaign's rules (--option changes one for this fight)")
    if file and monsters:
        raise FurnaceError("name the monsters once: a fight FILE or --monsters, not both")
    spec = load_fight(file) if file else None
    command = encounters.fight(party, rng, monsters=monsters, fight_file=spec, room_dc=room_dc,
                               rounds=rounds, options=fight_overrides(options, store, name))
    applied = store.apply(name, "fight", with_faces(command, rng))
    roster = {k: {"hp": m.character.hp, "status": m.status, "death": m.death.model_dump() if m.death else None}
              for k, m in applied.state.roster.items()}
    show_log(applied.events, as_json, rolls=not quiet, extra={"campaign": name, "roster": roster})


@cli.command(name="stabilise")
@click.argument("who")
@click.option("--by", "healer", default=None, metavar="HEALER",
              help="Who stabilises her: a Medicine CHECK (WIS + PROF in Medicine) vs the ROOM DC.")
@click.option("--referee", is_flag=True, help="The referee declares her stabilised, with no CHECK (AMB-28 c).")
@seed_option
@faces_option
@explain_option
@json_option
def stabilise(who: str, healer: str | None, referee: bool, seed: int | None, faces: str | None,
              as_json: bool) -> None:
    """Stabilise a dying character of the campaign (F-DEATH-01, AMB-28, REF-25): her death timer stops (as the
    option stabilize_methods allows) and she rolls on the Injuries table (F-INJ-01; a natural 1 kills, F-DEATH-02).
    In the encounter in progress it is the healer's action on her turn (or the referee's word at any time).

    Example: furnace stabilise Brakka --by "Sister Ilse" --seed 7
    """
    from furnace.campaign.fightedit import stabilise as run
    from furnace.cli.output import apply

    rng = rng_from(seed, faces)
    apply("stabilise", run(who, rng, by=healer, referee=referee), as_json, rng)


@cli.command()
@click.option("--class", "char_class", required=True,
              type=click.Choice(["Fighter", "Cleric", "Rogue", "Magic-user", "0-level"], case_sensitive=False))
@click.option("--level", type=click.IntRange(0, 30), default=1, show_default=True)
@seed_option
@faces_option
@no_roll_option
@explain_option
@profile_option
@json_option
def crit(char_class: str, level: int, seed: int | None, faces: str | None, no_roll: bool, profile: str,
         as_json: bool) -> None:
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
    rng = rng_from(seed, faces)
    show_table_roll(rules.tables.roll(table, rng, key=crit_level(who, rules)), as_json, None if no_roll else rng)


@cli.command()
@click.option("--armor", type=click.Choice(["none", "light", "heavy"]), required=True,
              help="The fumbler's armor: the fumble die is d4, d8 or d12 (a shield alone is none).")
@seed_option
@faces_option
@no_roll_option
@explain_option
@profile_option
@json_option
def fumble(armor: str, seed: int | None, faces: str | None, no_roll: bool, profile: str, as_json: bool) -> None:
    """Roll a fumble with the die for the armor (F-FUMB-01/02).

    Example: furnace fumble --armor heavy --seed 4
    """
    from furnace.rules.ruleset import load_ruleset

    rng = rng_from(seed, faces)
    show_table_roll(load_ruleset(profile).tables.roll("fumble", rng, key=armor), as_json, None if no_roll else rng)


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
@click.option("--dc", type=WHOLE, default=12, show_default=True, help="The ROOM DC (or the DC to meet).")
@click.option("--easy", type=click.IntRange(0, 10), default=0, help="How many EASY (−3 each) apply.")
@click.option("--hard", type=click.IntRange(0, 10), default=0, help="How many HARD (+3 each) apply.")
@click.option("--kind", type=click.Choice(["CHECK", "SAVE", "ATK"]), default="CHECK", show_default=True)
@click.option("--adv", "advantage", flag_value="adv", default=None, help="Advantage (when the option is on).")
@click.option("--dis", "advantage", flag_value="dis", help="Disadvantage (when the option is on).")
@click.option("--who", default=None, metavar="NAME",
              help="A character of the campaign in use rolls it from her sheet (her modifiers, markers and Luck "
                   "Dice), logged: no MODS, EASY or HARD.")
@click.option("--ability", default=None, help="With --who: the ability of the CHECK or SAVE (default STR, CON).")
@click.option("--skill", default=None, help="With --who: the skill of the CHECK.")
@luck_ahead
@seed_option
@faces_option
@explain_option
@profile_option
@json_option
def check(mods: tuple[str, ...], dc: int, easy: int, hard: int, kind: str, advantage: str | None, who: str | None,
          ability: str | None, skill: str | None, luck: int | None, seed: int | None, faces: str | None,
          profile: str, as_json: bool) -> None:
    """A CHECK, SAVE or ATK: d20 + modifiers against the ROOM DC moved by EASY/HARD (meet or beat); with --who, a
    campaign character's, on which she may spend her player's Luck Dice once seen (F-LUCK-03).

    Example: furnace check STR=2 PROF=1 --dc 14 --hard 1 --seed 5
    """
    from furnace.play.checks import check as run_check
    from furnace.play.checks import make_dc
    from furnace.rules.ruleset import load_ruleset

    if who is not None:
        _sheet_check(who, kind, ability, skill, dc, luck, rng_from(seed, faces), as_json,
                     unused=bool(mods or easy or hard or advantage))
        return
    if luck is not None or ability or skill:
        from furnace.errors import FurnaceError

        raise FurnaceError("--luck, --no-luck, --ability and --skill are for a campaign character's roll: add --who")

    rules = load_ruleset(profile)
    target = make_dc(dc, [f"EASY #{i}" for i in range(1, easy + 1)], [f"HARD #{i}" for i in range(1, hard + 1)],
                     rules)
    rng = rng_from(seed, faces)
    result = run_check(rng, target, _modifiers(mods), kind=kind, advantage=advantage,  # type: ignore[arg-type]
                       rules=rules)
    shown(result, rng, as_json)


@cli.command()
@click.option("--cha", type=WHOLE, default=0, show_default=True, help="The speaker's CHA modifier.")
@seed_option
@faces_option
@explain_option
@profile_option
@json_option
def reaction(cha: int, seed: int | None, faces: str | None, profile: str, as_json: bool) -> None:
    """Meeting NPCs: 2d6 + CHA on the reaction table (F-NPC-01, F-TAB-29).

    Example: furnace reaction --cha 2 --seed 8
    """
    from furnace.play.reaction import reaction as run_reaction
    from furnace.rules.ruleset import load_ruleset

    rng = rng_from(seed, faces)
    result = run_reaction(rng, cha, load_ruleset(profile))
    shown(result, rng, as_json)


@cli.command()
@click.option("--room-dc", type=WHOLE, required=True, help="The ROOM DC: enemy morale is half of it.")
@click.option("--morale", "value", type=WHOLE, default=None, help="The enemy's own morale score, if it has one.")
@seed_option
@faces_option
@explain_option
@profile_option
@json_option
def morale(room_dc: int, value: int | None, seed: int | None, faces: str | None, profile: str,
           as_json: bool) -> None:
    """Enemy morale: 2d6 against half the ROOM DC (F-OPT-04; an optional rule, switched on here).

    Example: furnace morale --room-dc 14 --seed 2
    """
    from furnace.play.reaction import enemy_morale
    from furnace.rules.ruleset import load_ruleset

    rules = load_ruleset(profile)
    if not rules["enemy_morale"]:
        rules = rules.with_options({"enemy_morale": True}, "the morale command")
    rng = rng_from(seed, faces)
    result = enemy_morale(rng, room_dc, rules, morale=value)
    shown(result, rng, as_json)


def _sheet_check(who: str, kind: str, ability: str | None, skill: str | None, dc: int, luck: int | None, rng: Any,
                 as_json: bool, *, unused: bool) -> None:
    """`check --who`: the roll from her sheet on the campaign in use (`campaign.table.sheet_roll`), logged."""
    from furnace.campaign.table import sheet_roll
    from furnace.cli.output import apply
    from furnace.cli.standing import seen_first
    from furnace.errors import FurnaceError

    if unused:
        raise FurnaceError("with --who her sheet gives the modifiers, EASY and HARD: no MODS, --easy, --hard, --adv "
                           "or --dis")
    roll = {"CHECK": "check", "SAVE": "save", "ATK": "attack"}[kind]
    command, rng = seen_first(lambda dice, n: sheet_roll(who, roll, dice, ability=ability, skill=skill, dc=dc,
                                                         luck=n), rng, luck, as_json)
    apply(f"check {roll}", command, as_json, rng)

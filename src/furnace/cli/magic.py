"""The magic commands of the `furnace` CLI: SPELLCHECKs, spells, the spell builder, magic items."""

from __future__ import annotations

from typing import Any

import click

from furnace.cli.app import (
    _emit,
    _load_character,
    _profile_file,
    _write,
    _write_back,
    cli,
    force_option,
    json_option,
    profile_option,
    seed_option,
)
from furnace.cli.dice_options import faces_option, finish, rng_from
from furnace.cli.numbers import WHOLE
from furnace.cli.output import explain_option, explaining, no_roll_option, say, tell
from furnace.cli.standing import luck_ahead
from furnace.render.referee import effect_lines


@cli.command()
@click.option("--mod", type=WHOLE, default=None, help="The casting modifier: INT (arcane) or WIS (divine).")
@click.option("--prof", type=WHOLE, default=None, help="The caster's PROF.")
@click.option("--who", default=None, metavar="NAME",
              help="A caster of the campaign in use rolls it from her sheet (her modifier, PROF, state and her "
                   "player's Luck Dice), logged: no --mod, --prof or --spell.")
@click.option("--dc", type=WHOLE, default=12, show_default=True, help="The ROOM DC the total must also reach.")
@click.option("--spell", "spell_name", default=None, help="Also show what this spell does at the SL bought.")
@luck_ahead
@seed_option
@faces_option
@no_roll_option
@explain_option
@profile_option
@json_option
def spellcheck(mod: int | None, prof: int | None, who: str | None, dc: int, spell_name: str | None, luck: int | None,
               seed: int | None, faces: str | None, no_roll: bool, profile: str, as_json: bool) -> None:
    """A SPELLCHECK: d20 + modifier + PROF → Success Level and Spell Dice (F-SPELL-02…09); Luck Dice spent on it
    move the SL at most one step (F-SPELL-09). With --who, a campaign caster's, logged.

    Example: furnace spellcheck --mod 3 --prof 2 --dc 14 --spell Fireball --seed 9
    """
    from furnace.errors import FurnaceError
    from furnace.magic.spellcheck import spellcheck as run
    from furnace.magic.spells import cast, get_spell
    from furnace.rules.ruleset import load_ruleset

    if who is not None:
        if mod is not None or prof is not None or spell_name:
            raise FurnaceError("with --who her sheet gives the modifier and PROF: no --mod, --prof or --spell")
        _sheet_spellcheck(who, dc, luck, rng_from(seed, faces), as_json)
        return
    if mod is None or prof is None:
        raise FurnaceError("give --mod and --prof, or --who for a caster of the campaign")
    rules, rng = load_ruleset(profile), rng_from(seed, faces)
    check = run(rng, mod, prof, dc, rules, luck_dice=luck or 0)
    done = cast(get_spell(rules, spell_name), check) if spell_name else None
    lines, rolls = effect_lines(done.effects if done else (), None if no_roll else rng)
    finish(rng)
    if as_json:
        _emit({**(done.to_dict() if done else check.to_dict()), "effect_rolls": [r.to_dict() for r in rolls]})
        return
    say(done.explain() if done else check.explain())
    for line in lines:
        say(f"  · {line}")


def _sheet_spellcheck(who: str, dc: int, luck: int | None, rng: Any, as_json: bool) -> None:
    """`spellcheck --who`: the SPELLCHECK from her sheet on the campaign in use (`campaign.table.sheet_roll`)."""
    from furnace.campaign.table import sheet_roll
    from furnace.cli.output import apply
    from furnace.cli.standing import seen_first

    command, rng = seen_first(lambda dice, n: sheet_roll(who, "spellcheck", dice, dc=dc, luck=n), rng, luck, as_json)
    apply("spellcheck", command, as_json, rng)


@cli.group()
def spell() -> None:
    """List, show, cast and build spells (spells are data: one row per Success Level).

    Example: furnace spell show Fireball
    """


@spell.command("learn")
@click.argument("who")
@click.argument("spell_name", metavar="SPELL")
@json_option
def spell_learn(who: str, spell_name: str, as_json: bool) -> None:
    """A caster of the campaign learns a spell (within 1 + LVL, or 1 + LVL + INT for a Magic-user).

    Example: furnace spell learn Maelis "Flame Shield"
    """
    from furnace.campaign.session import learn_spell
    from furnace.cli.output import apply

    apply("spell learn", learn_spell(who, spell_name), as_json)


@spell.command("list")
@profile_option
@json_option
def spell_list(profile: str, as_json: bool) -> None:
    """Every spell with its kind and Spell Die.

    Example: furnace spell list
    """
    from furnace.magic.spells import all_spells
    from furnace.rules.ruleset import load_ruleset

    spells = all_spells(load_ruleset(profile))
    if as_json:
        _emit([{"name": s.name, "kind": s.kind, "die": s.die, "levels": sorted(s.levels), "table": s.table.id,
                "mishap_table": s.mishap_table} for s in spells])
        return
    for s in spells:
        click.echo(f"{s.name:<14} {s.kind:<7} {s.die:<3} SL {', '.join(map(str, sorted(s.levels)))}  ({s.table.id})")


@spell.command("show")
@click.argument("name")
@click.option("--player", is_flag=True, help="Only what the player is told (F-SPELL-01).")
@profile_option
@explain_option
@json_option
def spell_show(name: str, player: bool, profile: str, as_json: bool) -> None:
    """A spell's rows: what each Success Level buys and what each part costs.

    Example: furnace spell show "Chill Touch"
    """
    from furnace.magic.spells import get_spell
    from furnace.rules.ruleset import load_ruleset

    s = get_spell(load_ruleset(profile), name)
    if player:
        click.echo(s.player_view())
        return
    if as_json:
        _emit(s.table.model_dump(mode="json", exclude_defaults=True))
        return
    from furnace.render.text import table_show

    table_show(s.table, explaining())


@spell.command("cast")
@click.argument("name")
@click.option("--caster", "caster_file", required=True, help="The caster's character file.")
@click.option("--dc", type=WHOLE, default=12, show_default=True, help="The ROOM DC.")
@click.option("--scroll", is_flag=True, help="Cast from a scroll (EASY for a Wizard, HARD for an Arcane Trickster).")
@click.option("--write/--no-write", default=False, show_default=True,
              help="Save the caster back (depletion, disapproval, lockouts).")
@seed_option
@faces_option
@no_roll_option
@explain_option
@profile_option
@json_option
def spell_cast(name: str, caster_file: str, dc: int, scroll: bool, write: bool, seed: int | None, faces: str | None,
               no_roll: bool, profile: str, as_json: bool) -> None:
    """Cast a spell the caster knows: SPELLCHECK, SL, effects, mishap or disapproval, depletion.

    Example: furnace spell cast Fireball --caster examples/characters/maelis.json --dc 12 --seed 4
    """
    from furnace.magic.casting import cast_spell
    from furnace.rules.ruleset import load_ruleset

    caster, rng = _load_character(caster_file), rng_from(seed, faces)
    result = cast_spell(caster, name, rng, dc, load_ruleset(profile), scroll=scroll)
    effects = [*result.cast.effects, *(result.mishap.row.effects if result.mishap else ())]
    lines, rolls = effect_lines(effects, None if no_roll else rng)
    finish(rng)
    if write:
        _write_back(caster_file, result.character.to_json())
    if as_json:
        _emit({**result.cast.to_dict(), "events": [e.to_dict() for e in result.events],
               "mishap": result.mishap.to_dict() if result.mishap else None,
               "effect_rolls": [r.to_dict() for r in rolls]})
        return
    tell(result.events)
    for line in lines:
        say(f"  · {line}")


@spell.command("new")
@click.option("--name", default=None, help="The spell's name (default: rolled on the two word tables).")
@click.option("--kind", type=click.Choice(["effect", "ranged", "melee"]), default=None,
              help="Its Spell Die: effect d4, ranged d6, melee d8 (default: what the name suggests).")
@click.option("--base", "base_effect", default=None,
              type=click.Choice(["damage", "condition", "protection", "summon", "area", "movement"]),
              help="The base effect the rows grow from (default: what the name suggests).")
@click.option("--out", default=None, help="Write the spell file here (YAML) to edit and load as a table file.")
@force_option
@seed_option
@faces_option
@profile_option
def spell_new(name: str | None, kind: str | None, base_effect: str | None, out: str | None, seed: int | None,
              faces: str | None, profile: str) -> None:
    """Build a spell with the player: a random name and proposed rows under the dice budget.

    Example: furnace spell new --seed 4 --out ember-swarm.yaml
    """
    from furnace.magic.spellbuilder import build, propose, random_name, to_yaml
    from furnace.rules.ruleset import load_ruleset

    rules = load_ruleset(profile)
    rng = rng_from(seed, faces)
    rolled = random_name(rng, rules)
    finish(rng)
    hint = {"d4": "effect", "d6": "ranged", "d8": "melee"}
    kind = kind or hint.get(str(rolled.element.get("spell_die_hint")), "ranged")
    base_effect = base_effect or str(rolled.form.get("base_effect", "damage"))
    data = propose(name or rolled.name, kind, base_effect, rules, rolled.element.get("damage_type"))
    build(data, rules)
    text = to_yaml(data)
    if out:
        _write(out, text, inputs=[_profile_file(profile)])
        click.echo(f"wrote {out}: {data['title']}, rows for SL1–SL5 under the 1/2/4/7/11 budget and a WONDER")
        return
    click.echo(text)


@cli.group()
def item() -> None:
    """Magic items: tiers, Magic Item Dice and their budget.

    Example: furnace item show Mjolnir
    """


@item.command("show")
@click.argument("name")
@profile_option
@json_option
def item_show(name: str, profile: str, as_json: bool) -> None:
    """An item's tier, its Magic Item Dice and how they are spent (F-MAGIC-01…04).

    Example: furnace item show shield-of-shielding
    """
    from furnace.magic.items import get_item
    from furnace.rules.ruleset import load_ruleset

    found = get_item(load_ruleset(profile), name)
    if as_json:
        _emit(found.to_dict())
        return
    click.echo(found.explain())


@item.command("list")
@profile_option
def item_list(profile: str) -> None:
    """Every magic item and its tier.

    Example: furnace item list
    """
    from furnace.magic.items import all_items
    from furnace.rules.ruleset import load_ruleset

    for found in all_items(load_ruleset(profile)):
        click.echo(f"{found.name:<22} {found.tier:<9} {found.item_type:<10} {found.budget} dice")


@item.command("new")
@click.argument("name")
@click.option("--type", "item_type", default="weapon", show_default=True, help="What the item is.")
@click.option("--tier", type=click.Choice(["common", "uncommon", "rare", "epic"]), default="uncommon",
              show_default=True)
@click.option("--kind", type=click.Choice(["effect", "ranged", "melee"]), default="melee", show_default=True,
              help="Its Magic Item Die: effect d4, ranged d6, melee d8.")
@click.option("--cursed", is_flag=True, help="Add a curse entry for the referee to write.")
@click.option("--out", default=None, help="Write the item file here (YAML).")
@force_option
@profile_option
def item_new(name: str, item_type: str, tier: str, kind: str, cursed: bool, out: str | None, profile: str) -> None:
    """Build a magic item: entries that spend exactly the tier's Magic Item Dice (1/3/5).

    Example: furnace item new "Frost Brand" --tier rare --kind melee --out frost-brand.yaml
    """
    from furnace.magic.items import build_item, propose_item
    from furnace.magic.spellbuilder import to_yaml
    from furnace.rules.ruleset import load_ruleset

    rules = load_ruleset(profile)
    data = propose_item(name, item_type, tier, kind, rules, cursed=cursed)
    built = build_item(data, rules)
    if out:
        _write(out, to_yaml(data), inputs=[_profile_file(profile)])
        click.echo(f"wrote {out}: {built.explain()}")
        return
    click.echo(to_yaml(data))

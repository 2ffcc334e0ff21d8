"""The Hazards chapter at the table, on the campaign chosen: poison and drugs, drink, sleep, mapping, the scene the
referee describes, and the surprise roll (RULES.md PART H; `furnace.campaign.hazards`).

Each command acts on a member of the campaign (by name or id) under the campaign's own rules, and is logged;
the ones that roll take `--seed` or `--faces`. A module of the chapter that the campaign has switched off is
refused with the option that turns it on.
"""

from __future__ import annotations

import click

from furnace.cli.app import cli, json_option, seed_option
from furnace.cli.dice_options import faces_option, rng_from
from furnace.cli.numbers import Finite
from furnace.cli.output import apply

FEET = click.IntRange(1, 100_000)


@cli.command()
@click.argument("who")
@click.argument("toxin", metavar="POISON_FILE")
@click.option("--taken", is_flag=True, help="A drug taken on purpose: no save (H-DRUG-01).")
@seed_option
@faces_option
@json_option
def poison(who: str, toxin: str, taken: bool, seed: int | None, faces: str | None, as_json: bool) -> None:
    """A character meets a poison or a drug, a referee's YAML file (name, effect, drug, dc): a save vs. poison, or
    its whole effect (H-POIS-01, H-DRUG-01).

    Example: furnace poison Agna examples/poisons/asp-venom.yaml --seed 3
    """
    from furnace.campaign.hazards import poisoning
    from furnace.hazards.poison import load_toxin

    rng = rng_from(seed, faces)
    apply("poison", poisoning(who, load_toxin(toxin), rng, taken=taken), as_json, rng)


@cli.command()
@click.argument("who")
@click.argument("hours", type=Finite(0, 24))
@json_option
def sleep(who: str, hours: float, as_json: bool) -> None:
    """How many hours a character sleeps each day from now; under 4 costs −1 to all rolls a day (H-SLEEP-01).

    Example: furnace sleep Agna 3
    """
    from furnace.campaign.hazards import sleeping

    apply("sleep", sleeping(who, hours), as_json)


@cli.command("map")
@click.argument("who")
@click.option("--holding", multiple=True, help="What she holds (repeatable): a torch, a sword …")
@json_option
def map_(who: str, holding: tuple[str, ...], as_json: bool) -> None:
    """Can a character map: paper and ink among her items, and two free hands (H-MAP-01)?

    Example: furnace map Agna --holding torch
    """
    from furnace.campaign.hazards import mapping

    apply("map", mapping(who, holding), as_json)


@cli.command()
@seed_option
@faces_option
@click.option("--enemies-lit", is_flag=True, help="The enemies carry light: the party cannot be surprised.")
@json_option
def surprise(seed: int | None, faces: str | None, enemies_lit: bool, as_json: bool) -> None:
    """The surprise roll (option surprise_roll): each side's d6, surprised on surprise_chance or less; a side
    carrying light cannot surprise (the party's lights are on the clock, H-LIGHT-03).

    Example: furnace surprise --seed 2
    """
    from furnace.campaign.hazards import surprising

    rng = rng_from(seed, faces)
    apply("surprise", surprising(rng, enemies_lit=enemies_lit), as_json, rng)


@cli.group()
def scene() -> None:
    """What the referee tells the players: the terrain, how far they see, a room's size (H-TRAV-04, H-LIGHT-04,
    H-MAP-02).

    Example: furnace scene sight
    """


@scene.command("terrain")
@click.argument("entered")
@click.option("--around", multiple=True, help="What lies around (repeatable).")
@click.option("--hides-view", is_flag=True, help="The terrain hides what lies around (a fog, a dense wood).")
@json_option
def scene_terrain(entered: str, around: tuple[str, ...], hides_view: bool, as_json: bool) -> None:
    """On the road: the terrain the party enters and what lies around, unless it hides the view (H-TRAV-04).

    Example: furnace scene terrain "a pine wood" --around "hills to the north"
    """
    from furnace.campaign.hazards import describing
    from furnace.hazards.scene import terrain

    apply("scene terrain", describing(lambda _view, rules: terrain(entered, around, hides_view, rules)), as_json)


@scene.command("sight")
@click.option("--visibility", type=click.IntRange(0, 100_000), default=None,
              help="How far the party sees where there is other light, in feet (the referee's call, H-LIGHT-04); "
                   "without it, the place is dark.")
@json_option
def scene_sight(visibility: int | None, as_json: bool) -> None:
    """How far the party sees: by its brightest burning light in the dark, nothing without one (H-LIGHT-01).

    Example: furnace scene sight --visibility 60
    """
    from furnace.campaign.hazards import describing
    from furnace.hazards.scene import sight

    apply("scene sight", describing(lambda view, rules: sight(view, visibility, rules)), as_json)


@scene.command("room")
@click.argument("width", type=FEET)
@click.argument("length", type=FEET)
@click.option("--speed", default="exploration", show_default=True,
              help="The party's speed: exploration gives exact feet, any other the nearest 10.")
@click.option("--irregular", is_flag=True, help="A natural cave or other irregular area: rough only.")
@json_option
def scene_room(width: int, length: int, speed: str, irregular: bool, as_json: bool) -> None:
    """A room's dimensions as the referee gives them while the party maps (H-MAP-02).

    Example: furnace scene room 32 47 --speed running
    """
    from furnace.campaign.hazards import describing
    from furnace.hazards.scene import room

    apply("scene room", describing(lambda _view, rules: room(width, length, speed.strip().lower(), irregular,
                                                             rules)), as_json)

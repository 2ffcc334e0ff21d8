"""`furnace lay-on-hands`: a Cleric's Lay on Hands out of a fight, on the campaign's characters (F-CLR-05/06).
In a fight it is an action: `furnace encounter act CLERIC lay ALLY [--cure CONDITION]`."""

from __future__ import annotations

import click

from furnace.cli.app import cli, json_option, seed_option
from furnace.cli.dice_options import faces_option, rng_from
from furnace.cli.output import explain_option


@cli.command("lay-on-hands")
@click.argument("cleric")
@click.argument("recipient")
@click.option("--cure", default=None, metavar="CONDITION",
              help="Cure this condition instead of healing (F-CLR-06); the referee approves it with --approve.")
@click.option("--approve", is_flag=True, help="The referee approves the cure (REF-06): the SPELLCHECK is rolled.")
@click.option("--room-dc", type=click.IntRange(1, 40), default=None,
              help="The ROOM DC (default: the option hazard_save_dc, outside a fight, AMB-15).")
@seed_option
@faces_option
@explain_option
@json_option
def lay_on_hands(cleric: str, recipient: str, cure: str | None, approve: bool, room_dc: int | None,
                 seed: int | None, faces: str | None, as_json: bool) -> None:
    """CLERIC lays hands on RECIPIENT: a SPELLCHECK read on F-TAB-06 for the Hit Dice she spends from her own pool
    (within her daily cap), or a condition cured.

    Example: furnace lay-on-hands "Sister Ilse" Brakka --seed 3
    """
    from furnace.campaign.prayers import lay_on_hands as command
    from furnace.campaign.session import with_faces
    from furnace.cli.context import settings
    from furnace.cli.encounter import show_log

    store, name = settings().in_use()
    rng = rng_from(seed, faces)
    done = store.apply(name, "lay-on-hands", with_faces(command(cleric, recipient, rng, room_dc=room_dc, cure=cure,
                                                                approved=approve), rng))
    show_log(done.events, as_json)

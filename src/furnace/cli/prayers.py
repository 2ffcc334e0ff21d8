"""`furnace lay-on-hands`: a Cleric of the campaign lays hands on a member out of a fight (F-CLR-05..08).

The command is `furnace.campaign.prayers.lay_on_hands` run on the campaign in use; the campaign's rules decide
self-healing (loh_self), the natural 20's extra Hit Dice, the level-0 cap and the optional extra Hit Die.
"""

from __future__ import annotations

import click

from furnace.cli.app import cli, json_option, seed_option
from furnace.cli.dice_options import faces_option, rng_from
from furnace.cli.numbers import whole


@cli.command("lay-on-hands")
@click.argument("cleric")
@click.argument("recipient")
@click.option("--room-dc", type=whole(1, 60), default=12, show_default=True,
              help="The ROOM DC the SPELLCHECK must also reach (AMB-15).")
@click.option("--cure", default=None, metavar="CONDITION",
              help="Cure this condition instead of healing HP (F-CLR-06): a broken bone, disease, poison …")
@click.option("--approved", is_flag=True, help="The referee approves the cure (CF-47); without it she is asked.")
@click.option("--extra-hd", is_flag=True,
              help="After a healing, the recipient's CON SAVE for one more Hit Die (F-CLR-08, option "
                   "loh_extra_hd_recovery).")
@seed_option
@faces_option
@json_option
def lay_on_hands(cleric: str, recipient: str, room_dc: int, cure: str | None, approved: bool, extra_hd: bool,
                 seed: int | None, faces: str | None, as_json: bool) -> None:
    """Lay on Hands (F-CLR-05): the Cleric's SPELLCHECK (d20 + WIS + PROF) read on F-TAB-06 gives Hit Dice the
    recipient spends from her own pool, no more a day than her level (F-CLR-07).

    Example: furnace lay-on-hands "Sister Ilse" Brakka --room-dc 12 --seed 2
    """
    from furnace.campaign.prayers import lay_on_hands as command
    from furnace.cli.output import apply

    rng = rng_from(seed, faces)
    apply("lay-on-hands", command(cleric, recipient, rng, room_dc, cure=cure, approved=approved, extra_hd=extra_hd),
          as_json, rng)

"""The session's commands from the referee's page: damage and heal, XP, gear (give, take, purse, loot, repair,
equip, unequip), travel, snuffing a light, the roster (a new character, a new name, retiring), and the reaction
roll.

Each route is the campaign command the CLI runs (`furnace damage`, `heal`, `xp award`, `give`, `take`, `purse`,
`loot share`, `repair`, `equip`, `unequip`, `clock travel`, `clock snuff`, `character new --join`, `character
rename`, `character retire`, and `reaction` logged on the campaign), nothing added: the store logs it as one
command, undone by `campaign undo`. All are the referee's (`auth.ALLOW`). A body's `faces` ("3,4") are the faces
rolled at the table, checked inside the command's transaction; without them the server rolls.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request
from pydantic import Field

from furnace.campaign import gear, roster
from furnace.campaign import table as tables
from furnace.campaign import timekeeping as tk
from furnace.web.api import Body, dice_for, run, run_rolled
from furnace.web.auth import Asker

router = APIRouter(prefix="/api/campaigns/{campaign}")
W = "/characters/{who}"
NAME = Field(min_length=1, max_length=100)
ITEM = Field(min_length=1, max_length=100)
ITEMS = Field(min_length=1, max_length=gear.MAX_ITEMS)
FACES = Field(None, max_length=200, pattern=r"^[0-9 ,]*$")


class HurtBody(Body):
    amount: int = Field(ge=1, le=10_000)
    source: str = Field("the referee", min_length=1, max_length=100)
    faces: str | None = FACES


class XpBody(Body):
    amount: int = Field(ge=-1_000_000, le=1_000_000)
    who: list[str] = Field(default_factory=list, max_length=50)
    reason: str = Field("the referee's award", min_length=1, max_length=200)
    each: bool = False


class ItemsBody(Body):
    items: list[str] = ITEMS


class PurseBody(Body):
    change: int = Field(ge=-gear.MAX_COINS, le=gear.MAX_COINS)


class LootBody(Body):
    items: list[str] = Field(default_factory=list, max_length=gear.MAX_ITEMS)
    coins: int = Field(0, ge=0, le=gear.MAX_COINS)
    among: list[str] = Field(default_factory=list, max_length=50)


class RepairBody(Body):
    item: str = ITEM
    days: int = Field(ge=0, le=3650)
    cost: int = Field(ge=0, le=gear.MAX_COINS)
    wait: bool = False
    faces: str | None = FACES


class EquipBody(Body):
    item: str = ITEM
    arm: Literal["left", "right"] | None = None
    row: str | None = Field(None, max_length=40)


class TravelBody(Body):
    days: int = Field(1, ge=0, le=365)
    trail: bool = False
    heading: Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"] | None = None
    faces: str | None = FACES


class NewCharacterBody(Body):
    player: str = Field("", max_length=60)
    name: str = Field("", max_length=100)
    char_class: Literal["Fighter", "Cleric", "Rogue", "Magic-user"] | None = None
    archetype: str | None = Field(None, max_length=60)
    race: Literal["Human", "Dwarf", "Elf", "Halfling", "Half-orc"] | None = None
    level: int = Field(1, ge=1, le=10)
    skills: list[str] = Field(default_factory=list, max_length=12)
    save: str | None = Field(None, max_length=3)
    style: str | None = Field(None, max_length=40)
    spells: list[str] = Field(default_factory=list, max_length=12)
    kit: list[Annotated[str, Field(min_length=1, max_length=60)]] = Field(default_factory=list, max_length=12)
    swap: str | None = Field(None, max_length=20)
    random: bool = True
    faces: str | None = FACES


class RenameBody(Body):
    name: str = NAME


class RetireBody(Body):
    reason: str = Field("", max_length=200)


class ReactionBody(Body):
    cha: int = Field(0, ge=-10, le=10)
    speaker: str = Field("", max_length=100)
    hidden: bool = False
    faces: str | None = FACES


# -- hurt and healed --------------------------------------------------------------------------------------------------
@router.post(W + "/damage")
def damage(campaign: str, who: str, body: HurtBody, request: Request, caller: Asker) -> dict[str, Any]:
    """`furnace damage WHO AMOUNT`: damage by the campaign's death model (a dying timer, unconscious, a grievous
    injury), to her combatant in the fight in progress."""
    from furnace.campaign import fightedit

    rng = dice_for(request, caller, campaign, body.faces)
    return run_rolled(request, caller, campaign, "damage", fightedit.damage(who, body.amount, body.source, rng), rng)


@router.post(W + "/heal")
def heal(campaign: str, who: str, body: HurtBody, request: Request, caller: Asker) -> dict[str, Any]:
    """`furnace heal WHO AMOUNT`: HP back up to her maximum; above 0 she is no longer dying or unconscious."""
    from furnace.campaign import fightedit

    rng = dice_for(request, caller, campaign, body.faces)
    return run_rolled(request, caller, campaign, "heal", fightedit.heal(who, body.amount, body.source, rng), rng)


@router.post("/xp")
def xp_award(campaign: str, body: XpBody, request: Request, caller: Asker) -> dict[str, Any]:
    """`furnace xp award AMOUNT [WHO…]`: XP shared evenly among those named (none named: the party), the
    remainder stated, or the whole amount to `each`."""
    from furnace.campaign.session import award_xp

    fn = award_xp(body.amount, body.who, party=not body.who, reason=body.reason, each=body.each)
    return run(request, caller, campaign, "xp award", fn)


# -- gear -------------------------------------------------------------------------------------------------------------
@router.post(W + "/give")
def give(campaign: str, who: str, body: ItemsBody, request: Request, caller: Asker) -> dict[str, Any]:
    """`furnace give WHO ITEM…`: items into her pack, and the load she carries."""
    return run(request, caller, campaign, "give", gear.give(who, body.items))


@router.post(W + "/take")
def take(campaign: str, who: str, body: ItemsBody, request: Request, caller: Asker) -> dict[str, Any]:
    """`furnace take WHO ITEM…`: items out of her pack (each must be there)."""
    return run(request, caller, campaign, "take", gear.take(who, body.items))


@router.post(W + "/purse")
def purse(campaign: str, who: str, body: PurseBody, request: Request, caller: Asker) -> dict[str, Any]:
    """`furnace purse WHO +N|-N`: coins into or out of her purse (never below 0)."""
    return run(request, caller, campaign, "purse", gear.purse(who, body.change))


@router.post("/loot")
def loot(campaign: str, body: LootBody, request: Request, caller: Asker) -> dict[str, Any]:
    """`furnace loot share [ITEM…] --coins N [--among WHO…]`: coins shared evenly, items dealt in turn."""
    return run(request, caller, campaign, "loot share", gear.share_loot(body.items, body.coins, body.among))


@router.post(W + "/repair")
def repair(campaign: str, who: str, body: RepairBody, request: Request, caller: Asker) -> dict[str, Any]:
    """`furnace repair WHO ITEM --days D --cost C --yes [--wait]`: the days and cost the referee confirms (REF-22),
    paid from her purse; with `wait` the clock moves on by the days."""
    from furnace.campaign.session import chain

    rng = dice_for(request, caller, campaign, body.faces)
    fn = gear.repair(who, body.item, days=body.days, cost=body.cost)
    fn = chain(fn, tk.on_clock(tk.advancing(body.days, "day", rng))) if body.wait else fn
    return run_rolled(request, caller, campaign, "repair", fn, rng)


@router.post(W + "/equip")
def equip(campaign: str, who: str, body: EquipBody, request: Request, caller: Asker) -> dict[str, Any]:
    """`furnace equip WHO ITEM [--arm left|right] [--as ROW]`: armor, a shield, a helmet or a weapon from her pack
    worn or wielded; AC, ATK, Stealth and load follow (a broken arm holds none, M-BONE-01)."""
    return run(request, caller, campaign, "equip", gear.equip(who, body.item, arm=body.arm, row=body.row or None))


@router.post(W + "/unequip")
def unequip(campaign: str, who: str, body: EquipBody, request: Request, caller: Asker) -> dict[str, Any]:
    """`furnace unequip WHO ITEM`: a piece she wears or wields into her pack, as it is ('armor': her body armor)."""
    return run(request, caller, campaign, "unequip", gear.unequip(who, body.item))


# -- the road and the clock -----------------------------------------------------------------------------------------
@router.post("/travel")
def travel(campaign: str, body: TravelBody, request: Request, caller: Asker) -> dict[str, Any]:
    """`furnace clock travel --days N [--trail] [--heading H]`: each morning the referee's secret lost roll, then a
    day on the clock (H-TRAV-01..03)."""
    rng = dice_for(request, caller, campaign, body.faces)
    fn = tk.on_clock(tk.travelling(body.days, rng, trail=body.trail, heading=body.heading))
    return run_rolled(request, caller, campaign, "clock travel", fn, rng)


@router.post("/clock/entries/{entry}/snuff")
def snuff(campaign: str, request: Request, caller: Asker, entry: int = Path(ge=1, le=2**62)) -> dict[str, Any]:
    """`furnace clock snuff ENTRY`: a light put out keeps the turns it has left (AMB-81)."""
    return run(request, caller, campaign, "clock snuff", tk.on_clock(tk.snuffing(entry)))


# -- the roster -----------------------------------------------------------------------------------------------------
@router.post("/characters")
def character_new(campaign: str, body: NewCharacterBody, request: Request, caller: Asker) -> dict[str, Any]:
    """`furnace character new … --join PLAYER`: a character of a class and level made by the campaign's rules
    (3d6 in order, race, occupation, promoted and levelled, each choice given or, with `random`, picked and said)
    joins the roster with her player. As the CLI's `--archetype`, `--kit` (each pick's alternative, repeatable)
    and `--swap` (a Human's two scores as STR,CHA, or none): `archetype`, `kit`, `swap`."""
    from furnace.campaign.choices import Choices, parse_swap

    choices = Choices(char_class=body.char_class, archetype=body.archetype or None, skills=tuple(body.skills),
                      save=body.save or None, style=body.style or None, spells=tuple(body.spells),
                      kit=tuple(body.kit), swap=parse_swap(body.swap) if body.swap else None, random=body.random)
    rng = dice_for(request, caller, campaign, body.faces)
    fn = roster.new_member(rng, choices, player=body.player, level=body.level, name=body.name, race=body.race)
    return run_rolled(request, caller, campaign, "character new", fn, rng)


@router.post(W + "/rename")
def rename(campaign: str, who: str, body: RenameBody, request: Request, caller: Asker) -> dict[str, Any]:
    """`furnace character rename WHO NEW`: a new name, unique in the campaign; her id stays."""
    return run(request, caller, campaign, "character rename", roster.rename(who, body.name))


@router.post(W + "/retire")
def retire(campaign: str, who: str, body: RetireBody, request: Request, caller: Asker) -> dict[str, Any]:
    """`furnace character retire WHO [--reason …]`: she stays on the roster, out of play."""
    return run(request, caller, campaign, "character retire", roster.retire(who, body.reason))


# -- meeting NPCs ---------------------------------------------------------------------------------------------------
@router.post("/reaction")
def reaction(campaign: str, body: ReactionBody, request: Request, caller: Asker) -> dict[str, Any]:
    """`furnace reaction --cha N`: 2d6 + the speaker's CHA modifier on the reaction table (F-NPC-01, F-TAB-29),
    logged on the campaign; `hidden`: the referee's alone until she shows it."""
    rng = dice_for(request, caller, campaign, body.faces)
    fn = tables.reaction(body.cha, rng, speaker=body.speaker, hidden=body.hidden)
    return run_rolled(request, caller, campaign, "reaction", fn, rng)

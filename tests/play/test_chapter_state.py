"""Chapter state kept by the chapter (issue 27): magic's count toward Spell Depletion, a Cleric's disapproval range
and the magic items' uses live in the combatant's `chapters["magic"]` (`furnace.magic.state`), the wear on her gear
in `chapters["wear"]` (`furnace.play.wear`) and the rest of what the fight left on her (Rages begun, a weapon lost,
a temporary ability loss, the injuries healed) in `chapters["marks"]` (`furnace.play.marks`), not among her own
fields; the engine core names none of magic's, and only the wear's and the marks' own modules, the effects that
write them and the write-back name theirs; an encounter stored before (its combatants with the old flat fields)
still loads, fights on and settles; the JSON views print her as always.
"""

from __future__ import annotations

import io
import json
import tokenize
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from furnace.campaign import encounters
from furnace.campaign.kept_fight import current
from furnace.dice import seeded
from furnace.magic.state import MagicState, magic_state
from furnace.play.combatant import Combatant, flat
from furnace.play.marks import Marks, marks
from furnace.play.registry import chapter_states
from furnace.play.state import Encounter
from furnace.play.wear import Wear, wear
from tests.helpers.factories import campaign_state, example, member, pc

ROOT = Path(__file__).resolve().parents[2]
PLAY = ROOT / "src" / "furnace" / "play"
MOVED = ("spell_mod", "spells", "spells_cast", "disapproval", "item_uses")   # magic's, kept in `MagicState`
WORN = ("armor_lost", "weapon_notches", "weapon_cracked")   # the engine's own, kept in `Wear`
# the engine's modules that name the wear: its owner, the weapon and armor effects (their facts keep `armor_lost`
# as ever), the write-back to the character, and the marks' module (its `weapon_lost` was held after `weapon_cracked`)
WEARING = {"wear.py", "apply.py", "aftermath.py", "marks.py"}
MARKED = ("rages_spent", "weapon_lost", "temporary_loss", "healed_injuries")   # the engine's own, kept in `Marks`
# the engine's modules that name the marks: their owner, the effects that leave them (a weapon lost, an ability
# loss, a wound closed: `apply`; a Rage begun: `attacks`), the write-back to the character, and the wear's module
# (its `armor_lost` was held after `rages_spent`)
MARKING = {"marks.py", "apply.py", "attacks.py", "aftermath.py", "wear.py"}
# the one module of the engine that names one: a rest resets the *character's* count (D-7, AMB-41) and logs it; the
# combatant's count is the chapter's
CHARACTER_ONLY = {"rest.py": {"spells_cast"}}


def named(path: Path, names: tuple[str, ...] = MOVED) -> set[str]:
    """The names a module's code says of these: as a name, or as a whole string (a field's key)."""
    said = set()
    for token in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
        text = token.string.strip("\"'") if token.type == tokenize.STRING else token.string
        if token.type in (tokenize.NAME, tokenize.STRING) and text in names:
            said.add(text)
    return said


def test_the_engine_core_names_no_chapter_field() -> None:
    assert not {*MOVED, *WORN, *MARKED} & {f.name for f in fields(Combatant)}
    naming = {p.name: named(p) for p in sorted(PLAY.glob("*.py"))}
    assert {name: said for name, said in naming.items() if said - CHARACTER_ONLY.get(name, set())} == {}
    assert named(ROOT / "src" / "furnace" / "magic" / "state.py") == set(MOVED)     # (the check sees them)


def test_only_the_wear_module_and_what_wears_gear_name_the_wear() -> None:
    assert {p.name for p in PLAY.glob("*.py") if named(p, WORN)} == WEARING


def test_only_the_marks_module_and_what_leaves_marks_name_them() -> None:
    assert {p.name for p in PLAY.glob("*.py") if named(p, MARKED)} == MARKING
    assert named(PLAY / "marks.py", MARKED) == set(MARKED)                          # (the check sees them)


def test_the_chapter_states_are_registered_with_their_old_places() -> None:
    assert chapter_states()["magic"] is MagicState and chapter_states()["wear"] is Wear
    assert chapter_states()["marks"] is Marks
    assert Marks.FLAT == {"rages_spent": "rages_left", "weapon_lost": "weapon_cracked",
                          "temporary_loss": "weapon_lost", "healed_injuries": "temporary_loss"}
    assert Wear.FLAT == {"armor_lost": "rages_spent", "weapon_notches": "armor_lost",
                         "weapon_cracked": "weapon_notches"}
    assert MagicState.FLAT == {"spell_mod": "scores", "spells": "spell_mod", "spells_cast": "spells",
                               "disapproval": "spells_cast", "item_uses": "powers"}


OLD_FLAT = {"spells_cast": 2, "disapproval": 3, "item_uses": {"Shield of Shielding": 0}}


def test_a_combatant_with_the_old_flat_fields_validates_into_her_magic_state() -> None:
    c = pc("c", OLD_FLAT, char_class="Cleric", spell_mod=1, spells=("Chill Touch",))
    assert magic_state(c) == MagicState(spell_mod=1, spells=("Chill Touch",), spells_cast=2, disapproval=3,
                                        item_uses={"Shield of Shielding": 0})
    assert magic_state(pc("f")) == MagicState() and pc("f").chapters == {}
    kept = c.model_dump(mode="json")
    assert kept["chapters"] == {"magic": {"spell_mod": 1, "spells": ["Chill Touch"], **OLD_FLAT}}
    assert not set(MOVED) & set(kept)
    assert Combatant.model_validate(kept) == c                       # the new stored form reads back the same
    printed = flat(c)
    assert {k: printed[k] for k in OLD_FLAT} == OLD_FLAT and "chapters" not in printed
    order = list(printed)
    at = order.index("scores")
    assert order[at: at + 6] == ["scores", "spell_mod", "spells", "spells_cast", "disapproval", "luck_dice"]
    assert order[order.index("powers") + 1] == "item_uses"


def test_a_combatant_with_the_old_wear_fields_validates_into_her_wear() -> None:
    c = pc("c", armor_lost=1, weapon_notches=2, weapon_cracked=True)
    assert wear(c) == Wear(armor_lost=1, weapon_notches=2, weapon_cracked=True) and list(c.chapters) == ["wear"]
    printed = list(flat(c))
    at = printed.index("rages_spent")
    assert printed[at: at + 5] == ["rages_spent", "armor_lost", "weapon_notches", "weapon_cracked", "weapon_lost"]
    assert {k: flat(c)[k] for k in WORN} == {"armor_lost": 1, "weapon_notches": 2, "weapon_cracked": True}


OLD_MARKS = {"rages_spent": 1, "weapon_lost": "mace", "temporary_loss": {"STR": 3}, "healed_injuries": ["open wound"]}
IN_PLACE = ["rages_left", "rages_spent", "armor_lost", "weapon_notches", "weapon_cracked", "weapon_lost",
            "temporary_loss", "healed_injuries", "cause_of_death"]


def test_a_combatant_with_the_old_flat_marks_validates_into_her_marks() -> None:
    """Rages begun, a weapon lost, a temporary loss and a healed wound held as her own fields (a combatant stored
    before) are her marks; stored again they are among her chapters alone; printed, each is where it was."""
    c = pc("c", OLD_MARKS, rages_left=0, weapon_notches=1)
    assert marks(c) == Marks(rages_spent=1, weapon_lost="mace", temporary_loss={"STR": 3},
                             healed_injuries=("open wound",))
    assert set(c.chapters) == {"marks", "wear"} and marks(pc("f")) == Marks() and pc("f").chapters == {}
    kept = c.model_dump(mode="json")
    assert kept["chapters"]["marks"] == OLD_MARKS and not set(MARKED) & set(kept)
    assert Combatant.model_validate(kept) == c                       # the new stored form reads back the same
    printed = flat(c)
    at = list(printed).index("rages_left")
    assert list(printed)[at: at + len(IN_PLACE)] == IN_PLACE
    assert {k: printed[k] for k in OLD_MARKS} == OLD_MARKS and printed["weapon_notches"] == 1
    fresh = flat(pc("f"))
    assert {k: fresh[k] for k in MARKED} == {"rages_spent": 0, "weapon_lost": None, "temporary_loss": {},
                                             "healed_injuries": []}
    assert list(fresh)[list(fresh).index("rages_left"):][:len(IN_PLACE)] == IN_PLACE


def test_an_unknown_field_is_still_refused() -> None:
    with pytest.raises(ValueError, match="spels_cast"):
        Combatant.model_validate({"id": "a", "name": "A", "side": "a", "hp": 1, "hp_max": 1, "ac": 10,
                                  "attack_bonus": 0, "spels_cast": 2})
    with pytest.raises(ValueError, match="disapproval"):
        pc("c", chapters={"magic": {"disapproval": "wide"}})
    with pytest.raises(ValueError, match="MagicState"):
        pc("c", chapters={"magic": 3})
    with pytest.raises(ValueError, match="rages_spent"):
        pc("c", rages_spent="many")


def test_the_fight_json_of_a_golden_run_reads_back_and_prints_the_same() -> None:
    """The combatants `furnace fight --json` printed before the move (tests/golden, flat fields) validate, and
    print again byte for byte."""
    log = json.loads((ROOT / "tests" / "golden" / "logs" / "fight-ogre-json-seed3.txt").read_text(encoding="utf-8"))
    for old in log["combatants"]:
        c = Combatant.model_validate(old)
        assert json.dumps(flat(c)) == json.dumps(old)
    assert any(magic_state(Combatant.model_validate(old)).spells_cast == 2 for old in log["combatants"])


def _as_stored_before(encounter: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """A stored encounter as the campaign wrote it before chapters kept their state: each combatant's chapters
    gone, their fields (these values for every PC) among her own."""
    combatants = []
    for c in encounter["turns"]["encounter"]["combatants"]:
        old = {k: v for k, v in c.items() if k != "chapters"}
        combatants.append({**old, **(values if c["kind"] == "pc" else {"spells_cast": 0, "disapproval": 1,
                                                                        "item_uses": {}, "armor_lost": 0})})
    turns = {**encounter["turns"], "encounter": {**encounter["turns"]["encounter"], "combatants": combatants}}
    return {**encounter, "turns": turns}


def test_an_encounter_stored_with_the_old_flat_fields_loads_and_settles() -> None:
    """A campaign's fight in progress stored with the old flat fields (Ilse at 2 spells toward Spell Depletion,
    disapproval range 3, her boiled leather's 1 point of protection lost, her mace notched once, a Rage begun)
    loads as her magic state, her wear and her marks, and ending it writes them back to her sheet (F-MU-04,
    F-CLR-04; AMB-35: the leather broken; M-WPN-02; AMB-46: the Rage counted until her long rest) with the same
    `after_fight` facts as ever."""
    ilse = example("ilse")
    assert (ilse.spells_cast, ilse.disapproval) == (0, 1)
    state, _ = encounters.begin(["ilse1"], seeded(5), monsters="goblin")(campaign_state(member(ilse, "ilse1")))
    assert state.encounter is not None
    assert all("spells_cast" not in c for c in state.encounter["turns"]["encounter"]["combatants"])
    old = {"spells_cast": 2, "disapproval": 3, "armor_lost": 1, "weapon_notches": 1, "weapon_cracked": False,
           "rages_spent": 1, "weapon_lost": None, "temporary_loss": {}, "healed_injuries": []}
    before = state.model_copy(update={"encounter": _as_stored_before(state.encounter, old)})
    fight = current(before)
    her = next(c for c in fight.turns.encounter.combatants if c.kind == "pc")
    assert magic_state(her) == MagicState(spells_cast=2, disapproval=3)
    assert (wear(her), her.weapon) == (Wear(armor_lost=1, weapon_notches=1), "mace")
    assert marks(her) == Marks(rages_spent=1)
    assert isinstance(fight.turns.encounter, Encounter)
    after, events = encounters.end(seeded(6))(before)
    settled = after.roster["ilse1"].character
    assert (settled.spells_cast, settled.disapproval) == (2, 3)
    assert (settled.armor, settled.weapons[0].name, settled.weapons[0].notches) == (None, "mace", 1)
    changes = {e.data["change"]: (e.data["before"], e.data["after"]) for e in events if e.kind == "after_fight"
               and e.data.get("change") in ("spells_cast", "disapproval")}
    assert changes == {"spells_cast": (0, 2), "disapproval": (1, 3)}
    gear = {e.data["change"]: e.data for e in events if e.kind == "after_fight"
            and e.data.get("change") in ("armor_broken", "weapon_notched")}
    assert (gear["armor_broken"]["total"], gear["weapon_notched"]["notches"]) == (1, 1)
    assert settled.extensions["fight"]["rages_used"] == 1

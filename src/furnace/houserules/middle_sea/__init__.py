"""The Middle Sea house rules (RULES.md PART M) as pure functions over immutable values, one module a rule:

- `healing`: recovery of hit points (M-HEAL-01..03), the `middle-sea` healing model of `furnace.play.rest`
  (post_combat, hour, day).
- `grievous_injury`: the grievous-injury roll and its bands (M-GRIEV-01..10, M-BONE-01, M-SEVER-01/02):
  `grievous`, `Grievous`.
- `zero_hp`: a blow at 0 HP (D-4, M-MOOK-01, M-GRIEV-01): `take_blow`.
- `bones`: broken bones, severed limbs and fatal wounds on the campaign clock (M-GRIEV-06..08):
  `schedule_grievous`, `wound`.
- `cures`: what stops a fatal wound or bleeding and mends a bone (M-GRIEV-07/08, M-BONE-02, CF-47): `cure`.
- `item_saves`: item saves as data (AMB-05/97, X-TAB-06, EXT-22): `item_save`, `neglect_penalty`.
- `weapons`: weapon damage on a natural 1 (M-WPN-01..08): `weapon_mishap`, `pole_round`, `weapon_penalty`.
- `armor`: armor damage on a natural 20 (M-ARM-01..05, D-1): `armor_hit`, `pick_piece`, `piece_material`.
- `crits`: the crit against the unarmored (M-CRIT-01): `middle_sea_crit`.
- `courage`: Liquid Courage (M-DRINK-01): `drink`, `courage_modifiers`.
- `coins`: coin weight (M-COIN-01): `coin_weight`.
- `orisons`: orisons (M-ORIS-01..04, M-REL-01): `orison_access`, `orisons_per_day`, `perform`, `performed_today`.
- `spells`: the house changes to AD&D spells (M-SPELLMOD-01/02): `house_spell_level`, `chromatic_orb_power`.
- `external`: the rules that need a book the documents do not contain: `EXTERNAL_RULES`, `register_plugin`,
  `use_rule`.
- `common`: what they share (the errors, the state on the character, the default ruleset).
- `fight`: the same rules mapped onto the encounter engine's combatants (its crit, fumble and death models, the
  armor save after a Furnace crit, the mook rule's extra attacks); `fight_grievous`: a blow at 0 HP in a fight,
  `take_blow` run on the combatant and written back onto it.

Randomness is passed in; each function returns the new state and the facts that record what happened, with
their rolls (kinds declared next to the code that records them, told by `furnace.render.story.middle_sea`).
The chapter keeps its own state in `Character.extensions["middle_sea"]`:

    hp_at_combat_start  the HP recorded by `enter_combat` (M-HEAL-01, AMB-90 a)
    breaks              {location: {count, weeks, injury, entry}}: broken bones and their clock entry
    timers              [{kind, amount, unit, entry}]: fatal wounds and bleeding not yet treated
    severed             [location]: limbs lost for good
    shield_damage       points a shield has lost (option middle_sea_shield_save_failure = one_point)
    courage             {hp, entry, to_hit, morale, fear_saves}: Liquid Courage in effect
    orisons             {used}: the orisons performed today (M-ORIS-02..04), cleared by a new day

What takes time is an entry on the campaign clock: `bone_heals`, `fatal_wound` and `bleeding_out` (handled in
`bones`) and `courage_ends` (in `courage`). Importing the package registers those handlers and the healing
model, and re-exports every public name of its modules.
"""

from __future__ import annotations

from furnace.characters.equipment import IMPROVISED, weapon_penalty
from furnace.houserules.middle_sea.armor import (
    ATTACK_FORMS,
    PIECES,
    ArmorHit,
    armor_hit,
    armor_points,
    attack_form,
    choose_piece,
    pick_piece,
    piece_material,
)
from furnace.houserules.middle_sea.bones import TIMER_KINDS, WEEK, schedule_grievous, wound
from furnace.houserules.middle_sea.coins import LB_PER_LOAD, CoinWeight, coin_weight
from furnace.houserules.middle_sea.common import MODULE, ExternalRuleError, MiddleSeaError, state_of, with_state
from furnace.houserules.middle_sea.courage import COURAGE_HOURS, COURAGE_MODIFIERS, courage_modifiers, drink
from furnace.houserules.middle_sea.crits import Crit, middle_sea_crit
from furnace.houserules.middle_sea.cures import CURE_WORDS, MENDS_BONES, STOPS, cure, cure_kind
from furnace.houserules.middle_sea.external import (
    EXTERNAL_RULES,
    PLUGINS,
    ExternalRule,
    register_plugin,
    use_rule,
)
from furnace.houserules.middle_sea.grievous_injury import (
    DEFAULT_VETOES,
    VETO_TABLE,
    Grievous,
    HeldCondition,
    Timer,
    band_of,
    grievous,
    row_effects,
    sharpness_location,
    vetoes_in_force,
)
from furnace.houserules.middle_sea.healing import enter_combat, half_hp, post_combat, rest_day, rest_hour
from furnace.houserules.middle_sea.item_saves import (
    ITEM_SAVE_TABLE,
    ItemSave,
    item_save,
    item_save_target,
    neglect_penalty,
)
from furnace.houserules.middle_sea.orisons import (
    CLERICAL_OR_DRUIDIC,
    OrisonAccess,
    may_use_orison,
    orison_access,
    orisons_per_day,
    perform,
    performed_today,
    priest_can_cast,
)
from furnace.houserules.middle_sea.spells import (
    HOUSE_SPELL_LEVELS,
    ORB_KEEPS,
    ORB_LIGHT_LEVEL,
    ORB_REMOVED,
    chromatic_orb_power,
    house_spell_level,
)
from furnace.houserules.middle_sea.weapons import (
    COMPASS,
    WEAPON_CLASSES,
    Mishap,
    dex_roll,
    mishap_class,
    pole_round,
    snapped_pieces,
    weapon_mishap,
)
from furnace.houserules.middle_sea.zero_hp import ZERO_HP, npc_rolls, take_blow

__all__ = [
    "ATTACK_FORMS",
    "CLERICAL_OR_DRUIDIC",
    "COMPASS",
    "COURAGE_HOURS",
    "COURAGE_MODIFIERS",
    "CURE_WORDS",
    "DEFAULT_VETOES",
    "EXTERNAL_RULES",
    "HOUSE_SPELL_LEVELS",
    "IMPROVISED",
    "ITEM_SAVE_TABLE",
    "LB_PER_LOAD",
    "MENDS_BONES",
    "MODULE",
    "ORB_KEEPS",
    "ORB_LIGHT_LEVEL",
    "ORB_REMOVED",
    "PIECES",
    "PLUGINS",
    "STOPS",
    "TIMER_KINDS",
    "VETO_TABLE",
    "WEAPON_CLASSES",
    "WEEK",
    "ZERO_HP",
    "ArmorHit",
    "CoinWeight",
    "Crit",
    "ExternalRule",
    "ExternalRuleError",
    "Grievous",
    "HeldCondition",
    "ItemSave",
    "MiddleSeaError",
    "Mishap",
    "OrisonAccess",
    "Timer",
    "armor_hit",
    "armor_points",
    "attack_form",
    "band_of",
    "choose_piece",
    "chromatic_orb_power",
    "coin_weight",
    "courage_modifiers",
    "cure",
    "cure_kind",
    "dex_roll",
    "drink",
    "enter_combat",
    "grievous",
    "half_hp",
    "house_spell_level",
    "item_save",
    "item_save_target",
    "may_use_orison",
    "middle_sea_crit",
    "mishap_class",
    "neglect_penalty",
    "npc_rolls",
    "orison_access",
    "orisons_per_day",
    "perform",
    "performed_today",
    "pick_piece",
    "piece_material",
    "pole_round",
    "post_combat",
    "priest_can_cast",
    "register_plugin",
    "rest_day",
    "rest_hour",
    "row_effects",
    "schedule_grievous",
    "sharpness_location",
    "snapped_pieces",
    "state_of",
    "take_blow",
    "use_rule",
    "vetoes_in_force",
    "weapon_mishap",
    "weapon_penalty",
    "with_state",
    "wound",
]

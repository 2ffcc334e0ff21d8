"""Rule options and profiles (`furnace.rules.ruleset`).

RULES.md Section A (conflicts CF-nn) and Section B (ambiguities AMB-nn), as revised by the review
decisions D-1..D-12, become named options whose default is the recommended reading. The built-in
profiles `furnace`, `hazards` and `middle-sea` set some of them; a referee's profile file extends one
(F-BASE-01: every rule is up to the referee; REF-01: per-rule switches and option values).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from furnace.errors import DataFileError, FurnaceError, RuleOptionError, UnknownNameError
from furnace.rules.ruleset import builtin_profiles, load_ruleset, option_specs

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "rule-options.md"
PROFILES = ROOT / "src" / "furnace" / "data" / "profiles"
RULES_MD = ROOT.parent / "shared" / "RULES.md"

SOURCE_ID = re.compile(r"^(?:CF|AMB|REF|EXT)-\d+$|^D-\d+$|^[FHM]-[A-Z]+-\d+[a-z]?$")
TABLE_ID = re.compile(r"^[FHM]-TAB-\d{2}[a-z]?$")


def write_yaml(path: Path, data: Any) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


# -- the furnace profile gives every default ----------------------------------------------------------
def test_F_BASE_01_furnace_profile_gives_every_default() -> None:
    """F-BASE-01, REF-01: the core profile sets nothing, so every option is its declared default."""
    rules = load_ruleset("furnace")
    specs = option_specs()
    assert set(rules.values) == set(specs)
    for name, spec in specs.items():
        assert rules[name] == spec.default, name
        assert rules.option(name).source == "default", name


def test_F_DEATH_02_default_death_model_is_furnace() -> None:
    """F-DEATH-01, F-DEATH-02, CF-30, CF-31: dying at 0, dead at -(3+LVL+CON) by default."""
    assert load_ruleset()["death_model"] == "furnace"


def test_F_REST_01_default_healing_model_is_furnace() -> None:
    """F-REST-01, F-REST-02, CF-32: Hit Dice rests by default."""
    assert load_ruleset()["healing_model"] == "furnace"


def test_F_CRIT_01_F_FUMB_01_default_crit_and_fumble_models_are_furnace() -> None:
    """F-CRIT-01, F-FUMB-01, CF-33, CF-34: the Furnace crit and fumble tables by default."""
    rules = load_ruleset("furnace")
    assert (rules["crit_model"], rules["fumble_model"]) == ("furnace", "furnace")


DEFAULTS = [
    # option, default, the RULES.md ids whose recommended reading it is
    ("advancement_table", "F-TAB-05a", "CF-01 F-ADV-02"),
    ("injury_table", "F-TAB-37b", "CF-02 F-INJ-01"),
    ("lingering_injury_table", "F-TAB-38", "CF-13 F-INJ-02"),
    ("monster_crit_table", "F-TAB-38", "CF-52 F-CRIT-03"),
    ("magic_user_crit_table", "F-TAB-34", "AMB-24 F-CRIT-01"),
    ("ability_13_modifier", 1, "CF-03 CF-36 AMB-08 F-ABIL-02"),
    ("magic_user_hit_die", "d6", "CF-04 F-MU-01"),
    ("magic_user_proficiencies", "table", "CF-06 F-MU-02"),
    ("rogue_shield", True, "CF-07 F-ROG-02"),
    ("rogue_skills", "class_section", "CF-08 F-ROG-02"),
    ("hp_floor", "capped", "CF-09 F-HP-02"),
    ("hp_after_level_5", "flat", "CF-10 F-HP-04"),
    ("cleric_natural_1", "disapproval", "D-10 CF-16 F-CLR-04"),
    ("zero_level_heal_cap", 0, "CF-17 F-CLR-07"),
    ("hazards_no_rest_in_dungeon", False, "CF-32 H-HEAL-07"),
    ("armor_damage_scale", "protection_points", "CF-40 AMB-35"),
    ("injury_ability_loss", "permanent", "CF-48 AMB-32"),
    ("monster_zero_hp", "dead", "CF-50 M-MOOK-01"),
    ("initiative_model", "group", "CF-53 F-INIT-01"),
    ("reroll_initiative_each_turn", False, "AMB-48 F-INIT-01"),
    ("luck_die_size", "d6", "AMB-02 F-LUCK-03"),
    ("luck_spend_timing", "after_roll", "AMB-02 F-LUCK-03"),
    ("exploration_turn_minutes", 10, "AMB-03 CF-39 H-LIGHT-02"),
    ("easy_hard_stacking", "additive", "AMB-04 F-BASE-04"),
    ("save_mapping", "furnace_abilities", "D-5 AMB-05 CF-38"),
    ("save_vs_poison", "CON", "AMB-05 H-POIS-01"),
    ("save_vs_paralysis", "CON", "AMB-05 H-AGE-01"),
    ("save_vs_death", "CON", "AMB-05 AMB-94 M-BONE-01"),
    ("save_vs_fear", "WIS", "AMB-05 M-DRINK-01"),
    ("hazard_save_dc", 12, "AMB-05 AMB-82 H-POIS-01"),
    ("item_save_dc_wood", 12, "AMB-05 M-WPN-05"),
    ("item_save_dc_metal", 10, "AMB-05 M-WPN-02"),
    ("monster_attack_bonus", "room_dc_minus_10", "D-2 AMB-07 F-BASE-03"),
    ("monster_save_bonus", "room_dc_minus_10", "D-2 AMB-25"),
    ("funnel_hp_carryover", "add", "D-6 AMB-12 F-CHAR-01"),
    ("loh_self", True, "AMB-15 F-CLR-05"),
    ("spell_nat20_autosuccess", False, "AMB-18 F-SPELL-08"),
    ("mishap_condition_duration", 1, "AMB-20 F-TAB-18"),
    ("surprise_chance", 2, "D-3 AMB-50 F-SURP-01"),
    ("middle_sea_zero_hp", "knocked_down", "D-4 AMB-91 M-GRIEV-01"),
    ("middle_sea_shield_only_target", "both", "D-1 AMB-101 M-ARM-01"),
    ("until_rest_ends_at", "any_rest", "D-7 F-REST-01 F-MU-04"),
    ("torso_injury_rest_days", 10, "D-8 AMB-34 F-TAB-38"),
    ("nonproficient_armor", "like_5e", "D-9 AMB-40 F-EQ-01"),
    ("use_advantage", False, "F-OPT-01"),
    ("contested_checks", False, "F-OPT-02"),
    ("effort", False, "F-OPT-03"),
    ("enemy_morale", False, "F-OPT-04"),
    ("pc_morale", False, "F-OPT-05"),
    ("skill_challenges", False, "F-OPT-06"),
    ("timers", False, "F-OPT-07"),
    ("knocked_down_twice", False, "F-DEATH-03 AMB-61"),
    ("liquid_courage", False, "M-DRINK-01 CF-35"),
    ("light_prevents_surprise", False, "CF-51 H-LIGHT-03"),
]


@pytest.mark.parametrize(("name", "default", "ids"), DEFAULTS, ids=[d[0] for d in DEFAULTS])
def test_recommended_readings_are_the_defaults(name: str, default: Any, ids: str) -> None:
    """CF-01..CF-53, AMB-02..AMB-101, D-1..D-12, F-OPT-01..F-OPT-07: the recommended reading is the default."""
    rules = load_ruleset("furnace")
    assert rules[name] == default
    spec = rules.option(name).spec
    for rule_id in ids.split():
        assert rule_id in spec.sources, f"{name} should name {rule_id}"


# -- hazards and middle-sea change the models -----------------------------------------------------------
def test_H_DMG_03_H_HEAL_01_hazards_profile_changes_death_and_healing() -> None:
    """H-DMG-02, H-DMG-03, H-HEAL-01, H-HEAL-07, H-LIGHT-03, CF-30, CF-32, CF-51: the Hazards models."""
    rules = load_ruleset("hazards")
    assert rules.profile == "hazards"
    assert rules["death_model"] == "hazards"
    assert rules["healing_model"] == "hazards"
    assert rules.option("death_model").source == "profile hazards"
    assert rules["crit_model"] == "furnace"        # Hazards has no crit or fumble rule
    assert rules["fumble_model"] == "furnace"
    assert rules["hazards_no_rest_in_dungeon"] is True
    assert rules["light_prevents_surprise"] is True
    for module in ("hazards_travel", "hazards_aging", "hazards_disease", "hazards_poison_drugs",
                   "hazards_falling", "hazards_starvation", "hazards_sleep", "hazards_languages",
                   "hazards_light", "hazards_mapping"):
        assert rules[module] is True, module


def test_M_GRIEV_01_M_HEAL_01_M_CRIT_01_M_WPN_01_middle_sea_profile_changes_four_models() -> None:
    """M-GRIEV-01, M-HEAL-01, M-CRIT-01, M-WPN-01, M-DRINK-01, CF-30..CF-34."""
    rules = load_ruleset("middle-sea")
    assert rules.profile == "middle-sea"
    for name in ("death_model", "healing_model", "crit_model", "fumble_model"):
        assert rules[name] == "middle-sea", name
        assert rules.option(name).source == "profile middle-sea", name
    assert rules["liquid_courage"] is True
    assert rules["monster_zero_hp"] == "out_of_fight"
    assert rules["middle_sea_zero_hp"] == "knocked_down"   # D-4, the default stays


@pytest.mark.parametrize("profile", ["furnace", "hazards", "middle-sea"])
def test_D_5_every_profile_keeps_furnace_ability_saves(profile: str) -> None:
    """D-5, AMB-05, CF-38: every built-in profile maps category saves to Furnace ability SAVEs."""
    rules = load_ruleset(profile)
    assert rules["save_mapping"] == "furnace_abilities"
    assert [rules[f"save_vs_{c}"] for c in ("poison", "paralysis", "death", "fear")] == ["CON", "CON", "CON", "WIS"]


@pytest.mark.parametrize("profile", ["hazards", "middle-sea"])
def test_F_BASE_01_a_profile_changes_only_what_it_sets(profile: str) -> None:
    """F-BASE-01: options a profile does not set keep their default and say so."""
    rules = load_ruleset(profile)
    chosen = builtin_profiles()[profile]
    assert chosen.extends == "furnace"
    for name, value in rules.values.items():
        if name in chosen.options:
            assert value.source == f"profile {profile}"
            assert value.value == chosen.options[name]
        else:
            assert value.source == "default"
            assert value.value == value.spec.default


def test_F_BASE_01_furnace_profile_file_sets_nothing() -> None:
    """F-BASE-01: furnace.yaml holds no options: the core rules are the defaults themselves."""
    assert builtin_profiles()["furnace"].options == {}
    assert builtin_profiles()["furnace"].extends is None


@pytest.mark.parametrize("profile", ["hazards", "middle-sea"])
def test_REF_01_each_profile_value_carries_a_comment(profile: str) -> None:
    """REF-01: every value a built-in profile sets has a comment line just above it saying why."""
    lines = (PROFILES / f"{profile}.yaml").read_text(encoding="utf-8").splitlines()
    start = lines.index("options:")
    for i, line in enumerate(lines[start + 1:], start + 1):
        if line.strip() and not line.lstrip().startswith("#"):
            assert lines[i - 1].lstrip().startswith("#"), f"{profile}.yaml: no comment above {line!r}"


# -- a referee's profile file ------------------------------------------------------------------------------
GRIM_WOUNDS = {
    "id": "house:grim-wounds",
    "name": "grim-wounds",
    "title": "Grim wounds",
    "source": "referee",
    "kind": "range",
    "roll": "d4",
    "rows": [
        {"min": 1, "max": 2, "text": "A scar to remember.", "effects": [{"kind": "nothing"}]},
        {"min": 3, "max": 4, "text": "A limp; the referee says how bad.",
         "effects": [{"kind": "referee_prompt", "prompt": "How bad is the limp?"}]},
    ],
}


def test_F_BASE_09_CF_13_referee_profile_extends_middle_sea_with_a_table(tmp_path: Path) -> None:
    """F-BASE-01, F-BASE-09, CF-13, REF-01: a referee's profile extends middle-sea, overrides one option
    with its own table file, and each option reports where its value comes from."""
    write_yaml(tmp_path / "grim.yaml", GRIM_WOUNDS)
    profile = write_yaml(tmp_path / "my-campaign.yaml", {
        "name": "my-campaign", "extends": "middle-sea",
        "options": {"lingering_injury_table": "house:grim-wounds"},
        "tables": ["grim.yaml"],
    })
    rules = load_ruleset(str(profile))
    assert rules.profile == "my-campaign"
    assert rules["lingering_injury_table"] == "house:grim-wounds"
    assert rules.option("lingering_injury_table").source == "profile my-campaign"
    assert rules.option("death_model").source == "profile middle-sea"
    assert rules["death_model"] == "middle-sea"
    assert rules.option("luck_die_size").source == "default"
    assert rules.tables.get("house:grim-wounds").title == "Grim wounds"
    assert rules.tables.source_of("house:grim-wounds") == str(tmp_path / "grim.yaml")
    assert rules.tables.get("F-TAB-38").id == "F-TAB-38"          # the packaged tables are still there
    dumped = rules.to_dict()
    assert dumped["options"]["lingering_injury_table"] == {"value": "house:grim-wounds",
                                                          "source": "profile my-campaign"}


def test_F_BASE_01_referee_profile_plus_overrides_and_table_files(tmp_path: Path) -> None:
    """F-BASE-01: call-time overrides win over the profile chain and say 'override'."""
    grim = write_yaml(tmp_path / "grim.yaml", GRIM_WOUNDS)
    profile = write_yaml(tmp_path / "mine.yaml", {"name": "mine", "extends": "hazards",
                                                  "options": {"luck_die_size": "d8"}})
    rules = load_ruleset(str(profile), overrides={"monster_crit_table": "house:grim-wounds"},
                         table_files=[grim])
    assert rules["luck_die_size"] == "d8"
    assert rules.option("luck_die_size").source == "profile mine"
    assert rules["monster_crit_table"] == "house:grim-wounds"
    assert rules.option("monster_crit_table").source == "override"
    assert rules["death_model"] == "hazards"


def test_CF_01_a_table_option_must_name_a_table_in_force(tmp_path: Path) -> None:
    """CF-01, F-TAB-05a, F-TAB-05b: a table option naming no table in force is refused, naming the file,
    the option and the tables there are."""
    profile = write_yaml(tmp_path / "typo.yaml", {"name": "typo", "extends": "furnace",
                                                  "options": {"advancement_table": "F-TAB-05z"}})
    with pytest.raises(DataFileError, match=r"advancement_table.*F-TAB-05z.*F-TAB-05a") as caught:
        load_ruleset(str(profile))
    assert caught.value.path == str(profile)
    with pytest.raises(RuleOptionError, match=r"advancement_table.*F-TAB-05z.*F-TAB-05a"):
        load_ruleset(overrides={"advancement_table": "F-TAB-05z"})
    assert load_ruleset(overrides={"advancement_table": "F-TAB-05b"})["advancement_table"] == "F-TAB-05b"


# -- bad profile files are refused with the file's name ---------------------------------------------------
def test_REF_01_unknown_option_is_refused_naming_the_file(tmp_path: Path) -> None:
    """REF-01: a profile setting an option that does not exist names the file and the option."""
    profile = write_yaml(tmp_path / "bad-name.yaml", {"name": "bad-name", "extends": "furnace",
                                                      "options": {"death_modle": "hazards"}})
    with pytest.raises(DataFileError, match="death_modle") as caught:
        load_ruleset(str(profile))
    assert caught.value.path == str(profile)
    assert str(profile) in str(caught.value)


@pytest.mark.parametrize(("option", "value"), [
    ("death_model", "zombie"),          # CF-30: not one of furnace, hazards, middle-sea
    ("rogue_shield", "maybe"),          # CF-07: a bool
    ("hazard_save_dc", "twelve"),       # AMB-05: a whole number
    ("ability_13_modifier", 2),         # CF-03: 1 or 0
])
def test_CF_30_bad_value_is_refused_naming_the_file(tmp_path: Path, option: str, value: Any) -> None:
    """CF-30, CF-07, CF-03, AMB-05: a value an option does not accept is refused, naming the file."""
    profile = write_yaml(tmp_path / "bad-value.yaml", {"name": "bad-value", "extends": "middle-sea",
                                                       "options": {option: value}})
    with pytest.raises(DataFileError, match=option) as caught:
        load_ruleset(str(profile))
    assert caught.value.path == str(profile)
    assert caught.value.row == option


def test_REF_01_extending_an_unknown_profile_is_refused_naming_the_file(tmp_path: Path) -> None:
    """REF-01: `extends` must name a built-in profile."""
    profile = write_yaml(tmp_path / "orphan.yaml", {"name": "orphan", "extends": "greyhawk", "options": {}})
    with pytest.raises(DataFileError, match="greyhawk") as caught:
        load_ruleset(str(profile))
    assert caught.value.path == str(profile)


def test_REF_01_a_profile_with_an_unknown_field_is_refused(tmp_path: Path) -> None:
    """REF-01: a misspelt key in a profile file is an error, not silently ignored."""
    profile = write_yaml(tmp_path / "misspelt.yaml", {"name": "misspelt", "extend": "furnace"})
    with pytest.raises(DataFileError) as caught:
        load_ruleset(str(profile))
    assert caught.value.path == str(profile)


def test_REF_01_an_unknown_profile_name_is_refused() -> None:
    """REF-01: a name that is neither a built-in profile nor a file."""
    with pytest.raises(UnknownNameError, match="middle-earth"):
        load_ruleset("middle-earth")


# -- with_options ----------------------------------------------------------------------------------------
def test_F_BASE_01_with_options_returns_a_new_ruleset_and_leaves_the_old_one() -> None:
    """F-BASE-01, CF-30, AMB-04: an override makes a new Ruleset; the old one is unchanged."""
    old = load_ruleset("middle-sea")
    new = old.with_options({"death_model": "hazards", "easy_hard_stacking": "cancel_single"})
    assert new is not old
    assert new["death_model"] == "hazards"
    assert new.option("death_model").source == "override"
    assert new["easy_hard_stacking"] == "cancel_single"
    assert old["death_model"] == "middle-sea"
    assert old.option("death_model").source == "profile middle-sea"
    assert old["easy_hard_stacking"] == "additive"
    assert new.profile == old.profile
    assert new.tables is old.tables
    assert new.with_options({}, "referee")["death_model"] == "hazards"


@pytest.mark.parametrize(("option", "value"), [
    ("death_model", "zombie"),            # CF-30
    ("crit_model", "hazards"),            # CF-33: Hazards has no crit model
    ("use_advantage", 1),                 # F-OPT-01: a bool, not 1
    ("torso_injury_rest_days", True),     # D-8: a whole number, not a bool
    ("torso_injury_rest_days", "10"),     # D-8: a whole number, not text
    ("save_vs_fear", "wis"),              # AMB-05: the ability is upper case
])
def test_D_8_CF_30_with_options_checks_values(option: str, value: Any) -> None:
    """CF-30, CF-33, F-OPT-01, D-8, AMB-05: with_options refuses what an option does not accept."""
    rules = load_ruleset()
    with pytest.raises(RuleOptionError, match=option):
        rules.with_options({option: value})
    assert rules[option] == rules.option(option).spec.default


def test_AMB_02_with_options_checks_dice_expressions() -> None:
    """AMB-02, F-LUCK-03: the Luck Die must be a dice expression (within the dice limits)."""
    rules = load_ruleset()
    assert rules.with_options({"luck_die_size": "d8"})["luck_die_size"] == "d8"
    with pytest.raises(RuleOptionError, match=r"luck_die_size.*a big one.*dice expression"):
        rules.with_options({"luck_die_size": "a big one"})
    with pytest.raises(RuleOptionError, match=r"luck_die_size.*1,000 dice"):
        rules.with_options({"luck_die_size": "1001d6"})


def test_REF_01_with_options_refuses_an_unknown_option() -> None:
    """REF-01: an override of an option that does not exist."""
    with pytest.raises(UnknownNameError, match="no_such_option"):
        load_ruleset().with_options({"no_such_option": True})
    with pytest.raises(FurnaceError):
        load_ruleset(overrides={"death_model": "zombie"})


# -- the catalogue itself -----------------------------------------------------------------------------------
def test_REF_01_every_option_is_documented_and_sourced() -> None:
    """REF-01: each option has a title, sources, the engine module that reads it and a description that
    says what each of its values means."""
    for name, spec in option_specs().items():
        assert re.fullmatch(r"[a-z][a-z0-9_]*", name), name
        assert spec.title and spec.description, name
        assert spec.read_by.startswith("furnace."), name
        assert spec.sources, name
        for source in spec.sources:
            assert SOURCE_ID.match(source), f"{name}: {source}"
        if spec.type == "choice":
            assert len(spec.choices) >= 2, name
            assert spec.default in spec.choices, name
            for choice in spec.choices:
                assert re.search(rf"(?<![\w-]){re.escape(str(choice))}(?![\w-])", spec.description), \
                    f"{name}: choice {choice!r} is not described"
        if spec.type == "bool":
            assert "true:" in spec.description and "false:" in spec.description, name
        if spec.type == "table":
            assert TABLE_ID.match(str(spec.default)), name


def test_F_BASE_09_table_options_name_packaged_tables() -> None:
    """F-BASE-09, CF-01, CF-02, CF-13, CF-52, AMB-24: every table option's default is a packaged table."""
    rules = load_ruleset()
    table_options = [v for v in rules if v.spec.type == "table"]
    assert {v.spec.name for v in table_options} >= {"advancement_table", "injury_table", "lingering_injury_table"}
    for value in table_options:
        assert rules.tables.get(str(value.value)).id == value.value
        assert rules.tables.source_of(str(value.value)) == "packaged"


# Decisions and conflicts that fix one reading, so no option names them (an option that could only restate
# the reading was removed), with the reason and where the reading lives.
SETTLED_WITHOUT_OPTION = {
    "CF-12": "a Furnace turn is a round (AMB-03): the bleed-out counts the character's turns",
    "CF-14": "spell and item turns and rounds are the same unit (AMB-03); the 10-minute turn is exploration_turn",
    "CF-15": "'or': each d4 buys an effect or a duration; the spell tables price durations as their own dice",
    "CF-18": "one reading: four magic-item tiers",
    "CF-44": "the engine counts load in slots only (equipment.load_used); no document gives item weights in pounds",
    "CF-46": "the engine has zones only; feet and inches apply only with a grid or AD&D movement",
    "D-11": "injury effects wait until the character is awake (apply.apply_periodic)",
    "D-12": "injury row 20 heals the level-0 hit die, d4 (Character.hit_die)",
}


def test_CF_30_AMB_05_D_1_every_conflict_and_decision_is_an_option() -> None:
    """Section A, Section B, D-1..D-12: every review decision and every conflict with alternatives names an
    option, except those SETTLED_WITHOUT_OPTION lists with the one reading the engine implements."""
    named = {s for spec in option_specs().values() for s in spec.sources}
    decisions = [f"D-{n}" for n in range(1, 13)]
    conflicts = [f"CF-{n:02d}" for n in [*range(1, 19), *range(30, 54), 60]]
    assert [c for c in [*decisions, *conflicts] if c not in named and c not in SETTLED_WITHOUT_OPTION] == []


def test_AMB_05_sources_exist_in_rules_md() -> None:
    """Every id an option cites is an id of RULES.md (CF, AMB, D, REF, EXT, rule and table ids)."""
    if not RULES_MD.exists():
        pytest.skip("RULES.md is not next to the project")
    text = RULES_MD.read_text(encoding="utf-8")
    for name, spec in option_specs().items():
        for source in spec.sources:
            assert re.search(rf"(?<![\w-]){re.escape(source)}(?![\w-])", text), f"{name}: {source}"


def _doc_rows() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    section = ""
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line
        elif section == "## Every option" and line.startswith("| `"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            rows[cells[0].strip("`")] = cells
    return rows


def _show(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def test_REF_01_docs_rule_options_matches_the_yaml() -> None:
    """REF-01: docs/rule-options.md lists exactly the options of options.yaml, with their type, default,
    choices, sources and reader."""
    rows = _doc_rows()
    specs = option_specs()
    assert list(rows) == list(specs)
    for name, spec in specs.items():
        _, kind, default, choices, sources, read_by, meaning = rows[name]
        assert kind == spec.type, name
        assert default == f"`{_show(spec.default)}`", name
        if spec.type == "choice":
            assert choices == ", ".join(f"`{_show(c)}`" for c in spec.choices), name
        assert sources == ", ".join(spec.sources), name
        assert read_by == f"`{spec.read_by}`", name
        assert spec.title in meaning, name
    profile_text = DOCS.read_text(encoding="utf-8")
    for profile in builtin_profiles().values():
        for option, value in profile.options.items():
            assert f"`{option}: {_show(value)}`" in profile_text, (profile.name, option)

"""The OSR Hazards chapter (RULES.md PART H) as pure functions over immutable values.

Each rule takes its dice source and ruleset (the `hazards` profile when none is given) and returns the new
state with the events that explain it, rolls included. What has a duration goes on the campaign clock,
through handlers registered here: "aging" (yearly), "disease_save", "daily_needs" (hunger, thirst, sleep),
"light_out", "wake_up" and "sober_up". Importing this package also registers the `hazards` healing model
in furnace.play.rest.HEALING_MODELS (rests "night", "full_day" and "week").

    travel        H-TRAV-01..04   travel, travel_day, TravelState, set_course, find_way
    scores        H-ABIL-01..03   set_score, lose, recover, take_damage (H-DMG-01..03 out of an encounter)
    aging         H-AGE-01..03    saves_due, age_character, schedule_aging
    disease       H-DIS-01..06    Disease, packaged_disease, load_disease, infect, expose, cure
    poison        H-DRUG/H-POIS   Toxin, poison, make_drunk, sober_up, drink
    falling       H-FALL-01       fall_dice, fall_damage, fall
    needs         H-STARV, SLEEP  record_needs, daily_needs, schedule_daily_needs, sleep_penalty
    healing       H-HEAL-01..08   natural_rest, rest_in_campaign, knock_out
    languages     H-LANG-01..03   literate, starting_languages, chance_in_6, know_language
    light         H-LIGHT-01..04  light_source, light, snuff, lights, party_lit
    mapping       H-MAP-01/02     can_map
"""

from __future__ import annotations

from furnace.hazards.aging import AgingSave, age_character, aging_row, saves_due, schedule_aging
from furnace.hazards.common import hazard_save, hazards_rules, sleep_penalty
from furnace.hazards.disease import (
    Disease,
    DiseaseEffect,
    Duration,
    cure,
    expose,
    find_disease,
    infect,
    load_disease,
    packaged_disease,
)
from furnace.hazards.falling import fall, fall_damage, fall_dice
from furnace.hazards.healing import half_hp, knock_out, natural_rest, rest_in_campaign
from furnace.hazards.languages import chance_in_6, know_language, language_kinds, literate, starting_languages
from furnace.hazards.light import LightSource, light, light_source, lights, party_lit, snuff
from furnace.hazards.mapping import MapCheck, can_map
from furnace.hazards.needs import daily_needs, needs, record_needs, schedule_daily_needs
from furnace.hazards.poison import Toxin, ToxinEffect, drink, make_drunk, poison, sober_up
from furnace.hazards.scores import kill, lose, recover, set_score, take_damage
from furnace.hazards.travel import HEADINGS, TravelState, find_way, set_course, travel, travel_day

__all__ = [
    "HEADINGS", "AgingSave", "Disease", "DiseaseEffect", "Duration", "LightSource", "MapCheck", "Toxin",
    "ToxinEffect", "TravelState", "age_character", "aging_row", "can_map", "chance_in_6", "cure", "daily_needs",
    "drink", "expose", "fall", "fall_damage", "fall_dice", "find_disease", "find_way", "half_hp", "hazard_save",
    "hazards_rules", "infect", "kill", "knock_out", "know_language", "language_kinds", "light", "light_source",
    "lights", "literate", "load_disease", "lose", "make_drunk", "natural_rest", "needs", "packaged_disease",
    "party_lit", "poison", "record_needs", "recover", "rest_in_campaign", "saves_due", "schedule_aging",
    "schedule_daily_needs", "set_course", "set_score", "sleep_penalty", "snuff", "sober_up", "starting_languages",
    "take_damage", "travel", "travel_day",
]

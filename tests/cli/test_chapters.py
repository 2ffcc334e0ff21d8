"""`furnace chapters` lists the seams of the engine: each registry, the module that made it, and what fills it
with the module that added each entry. The listing is pinned here: a chapter that registers something new, or a
registry made or moved, changes this test on purpose."""

from __future__ import annotations

import json

import pytest

from furnace.cli.app import main

CHAPTERS = ('hazards', 'magic', 'middle-sea')
SEAMS: dict[tuple[str, str], dict[str, str]] = {
    ('NPC model at 0 HP', 'furnace.play.registry'):
        {'middle-sea': 'furnace.houserules.middle_sea.fight'},
    ('action', 'furnace.play.registry'):
        {'attack': 'furnace.play.encounter', 'cast': 'furnace.magic.fight', 'disengage': 'furnace.play.encounter',
        'dodge': 'furnace.play.encounter', 'free': 'furnace.play.encounter', 'go_ranged': 'furnace.play.encounter',
        'lay_on_hands': 'furnace.magic.fight', 'move_attack': 'furnace.play.encounter',
        'stabilise': 'furnace.play.encounter', 'use': 'furnace.magic.fight', 'wait': 'furnace.play.encounter'},
    ('after-attack rule', 'furnace.play.registry'):
        {'middle-sea:cracked-haft': 'furnace.houserules.middle_sea.fight'},
    ('aftermath hook', 'furnace.play.registry'):
        {'lay-on-hands': 'furnace.magic.fight', 'magic': 'furnace.magic.fight', 'magic-items': 'furnace.magic.fight'},
    ('attacks-per-action rule', 'furnace.play.registry'):
        {'middle-sea:mooks': 'furnace.houserules.middle_sea.fight'},
    ('clock handler', 'furnace.play.clock'):
        {'aging': 'furnace.hazards.aging',
        'bleeding_out': 'furnace.houserules.middle_sea.bones',
        'bone_heals': 'furnace.houserules.middle_sea.bones',
        'condition_ends': 'furnace.campaign.lasting',
        'courage_ends': 'furnace.houserules.middle_sea.courage',
        'daily_needs': 'furnace.hazards.needs',
        'day_ends': 'furnace.campaign.days',
        'disease_save': 'furnace.hazards.disease',
        'doomed': 'furnace.campaign.lasting',
        'dying': 'furnace.campaign.handover',
        'fatal_wound': 'furnace.houserules.middle_sea.bones',
        'light_out': 'furnace.hazards.light',
        'rations': 'furnace.campaign.timekeeping',
        'sober_up': 'furnace.hazards.poison',
        'timer': 'furnace.play.clock',
        'wake_up': 'furnace.hazards.healing'},
    ('chapter state', 'furnace.play.registry'): {'magic': 'furnace.magic.state', 'marks': 'furnace.play.marks',
        'wear': 'furnace.play.wear'},
    ('combatant hook', 'furnace.play.registry'):
        {'furnace': 'furnace.play.combatant',
        'magic': 'furnace.magic.fight',
        'magic-items': 'furnace.magic.fight',
        'middle-sea:courage': 'furnace.houserules.middle_sea.fight'},
    ('crit model', 'furnace.play.registry'):
        {'middle-sea': 'furnace.houserules.middle_sea.fight',
        'middle-sea:armor-hit': 'furnace.houserules.middle_sea.fight'},
    ('death model', 'furnace.play.registry'):
        {'furnace': 'furnace.play.death',
        'hazards': 'furnace.hazards.combat',
        'middle-sea': 'furnace.houserules.middle_sea.fight'},
    ('fumble model', 'furnace.play.registry'):
        {'middle-sea': 'furnace.houserules.middle_sea.fight'},
    ('healing model', 'furnace.play.rest'):
        {'furnace': 'furnace.play.rest',
        'hazards': 'furnace.hazards.healing',
        'middle-sea': 'furnace.houserules.middle_sea.healing'},
    ('long-rest hook', 'furnace.play.rest'):
        {'furnace:rage': 'furnace.play.rest', 'magic-items': 'furnace.magic.items'},
    ('state modifier', 'furnace.play.registry'):
        {'hazards:drunk': 'furnace.hazards.combat',
        'hazards:short-of-sleep': 'furnace.hazards.combat',
        'middle-sea:liquid-courage': 'furnace.houserules.middle_sea.fight'},
}


def test_the_listing_of_the_seams_is_pinned(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chapters", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert tuple(listed["chapters"]) == CHAPTERS
    assert {(r["holds"], r["made_in"]): r["entries"] for r in listed["registries"]} == SEAMS


def test_the_listing_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chapters"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "chapters: hazards, magic, middle-sea (the furnace.chapters entry points)"
    death = out.index("death model (furnace.play.registry):")
    assert [line.split() for line in out[death + 1:death + 4]] == [
        ["furnace", "furnace.play.death"], ["hazards", "furnace.hazards.combat"],
        ["middle-sea", "furnace.houserules.middle_sea.fight"]]


def test_a_chapter_adds_names_and_replaces_none() -> None:
    """A registry's look-up of a name it holds loads no chapter (a `damage` under the furnace death model imports no
    Hazards), which holds because no module may replace another's entry."""
    import furnace.play.death  # noqa: F401  (the engine's `furnace` model, added as its module is imported)
    from furnace.play.registry import DEATH_MODELS

    with pytest.raises(ValueError, match=r"'furnace' is furnace\.play\.death's"):
        DEATH_MODELS.add("furnace", print)
    assert DEATH_MODELS.get("furnace") is not print

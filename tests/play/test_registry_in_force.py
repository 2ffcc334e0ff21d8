"""The chapters in force (furnace.play.registry.in_force): within a public path, a registry lists the chapters of the
ruleset's profile only (and those named after no profile: magic); a look-up of another chapter's name still finds
it; outside any path, and after the path ends, every chapter is in force."""

from __future__ import annotations

from furnace.play import registry
from furnace.public import entered
from furnace.rules.ruleset import load_ruleset


def modifier_chapters() -> set[str]:
    return {name.partition(":")[0] for name, _ in registry.MODIFIERS.items() if ":" in name}


def test_a_command_lists_its_profile_s_chapters_only() -> None:
    everyone = modifier_chapters()
    assert {"hazards", "middle-sea"} <= everyone                   # no path entered: every chapter
    with entered("cli", "fight"):
        registry.in_force(load_ruleset("furnace"))
        assert not modifier_chapters() & {"hazards", "middle-sea"}
        assert registry.DEATH_MODELS.find("hazards") is not None   # a look-up by name still finds it
    with entered("cli", "fight"):
        assert modifier_chapters() == everyone                     # what the last command put in force ended with it
        registry.in_force(load_ruleset("hazards"))
        assert "hazards" in modifier_chapters() and "middle-sea" not in modifier_chapters()
    assert modifier_chapters() == everyone


def test_a_library_call_keeps_every_chapter() -> None:
    registry.in_force(load_ruleset("furnace"))                     # outside any public path: nothing to keep it for
    assert {"hazards", "middle-sea"} <= modifier_chapters()


def test_a_ruleset_made_by_hand_keeps_every_chapter() -> None:
    from furnace.rules.ruleset import Ruleset

    rules = load_ruleset("furnace")
    with entered("console", "a request"):
        registry.in_force(Ruleset(rules.profile, rules.values, rules.tables))     # no chain: unknown profiles
        assert {"hazards", "middle-sea"} <= modifier_chapters()

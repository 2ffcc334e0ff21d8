"""The Middle Sea rules that need other books, as plug-in points (`furnace.houserules.middle_sea.external`).

RULES.md EXTERNAL / GUIDANCE rules: M-UNARM-01, M-MOOK-02, M-CSPELL-01/02, M-CANT-01, M-BOOK-01, M-ORIS-01,
M-ALIGN-01, M-SPELLMOD-01, M-RES-01, M-INIT-01, M-META-01.
"""

from __future__ import annotations

import pytest

from furnace.errors import UnknownNameError
from furnace.houserules import middle_sea as ms
from furnace.houserules.middle_sea import external


@pytest.mark.parametrize("rule", sorted(ms.EXTERNAL_RULES))
def test_EXTERNAL_rule_raises_naming_its_book(rule: str) -> None:
    """M-UNARM-01, M-MOOK-02, M-CSPELL-01/02, M-CANT-01, M-BOOK-01, M-ORIS-01 (the list), M-ALIGN-01,
    M-SPELLMOD-01, M-RES-01, M-INIT-01, M-META-01: with no plug-in registered, using the rule raises an
    ExternalRuleError (a FurnaceError) naming the rule, the book and its EXT id."""
    spec = ms.EXTERNAL_RULES[rule]
    with pytest.raises(ms.ExternalRuleError) as caught:
        ms.use_rule(rule)
    assert rule in str(caught.value) and spec.ext in str(caught.value) and spec.needs in str(caught.value)


def test_M_UNARM_01_a_referee_plugs_in_weaponless_combat(monkeypatch: pytest.MonkeyPatch) -> None:
    """M-UNARM-01 (EXT-20): a registered plug-in is called with the caller's arguments; unknown ids are refused."""
    monkeypatch.setattr(external, "PLUGINS", {})
    ms.register_plugin("M-UNARM-01", lambda attacker, roll: f"{attacker} grapples on {roll}")
    assert ms.use_rule("M-UNARM-01", "Hero", roll=14) == "Hero grapples on 14"
    with pytest.raises(UnknownNameError):
        ms.register_plugin("M-NOPE-01", print)
    with pytest.raises(UnknownNameError):
        ms.use_rule("M-NOPE-01")


def test_M_ALIGN_01_M_INIT_01_guidance_says_so() -> None:
    """M-ALIGN-01 (not yet defined by the author) and M-INIT-01 (not adopted) are GUIDANCE plug-in points."""
    assert "GUIDANCE" in ms.EXTERNAL_RULES["M-ALIGN-01"].message()
    assert "not adopted" in ms.EXTERNAL_RULES["M-INIT-01"].message()

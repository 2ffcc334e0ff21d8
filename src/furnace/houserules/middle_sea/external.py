"""The EXTERNAL and GUIDANCE rules of PART M, whose content is in a book that is not among the sources (RULES.md
Section D). Each is a named plug-in point: `register_plugin` takes a referee's implementation and `use_rule` runs
it, or raises `ExternalRuleError` naming the book it needs. The EXTERNAL ids: M-UNARM-01, M-MOOK-02,
M-CSPELL-01/02, M-CANT-01, M-BOOK-01 and M-ORIS-01 (the orisons themselves) (EXT-20, EXT-21, EXT-24, EXT-25);
M-ALIGN-01, M-SPELLMOD-01, M-RES-01, M-INIT-01 and M-META-01 (EXTERNAL or GUIDANCE: EXT-24, EXT-26..28).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from furnace.errors import UnknownNameError
from furnace.houserules.middle_sea.common import ExternalRuleError


@dataclass(frozen=True)
class ExternalRule:
    rule: str
    what: str
    needs: str
    ext: str
    status: str = "EXTERNAL"

    def message(self) -> str:
        return (f"{self.rule} ({self.what}) is {self.status}: it needs {self.needs} ({self.ext}), which is not among "
                f"the sources; a referee registers it with register_plugin({self.rule!r}, fn)")


EXTERNAL_RULES: dict[str, ExternalRule] = {r.rule: r for r in (
    ExternalRule("M-UNARM-01", "weaponless combat: punching, wrestling, grappling",
                 "Unearthed Arcana, Appendix Q 'Weaponless Combat System I' (p. 106)", "EXT-20"),
    ExternalRule("M-MOOK-02", "fighters', Paladins' and Rangers' extra attacks against creatures under 1 HD",
                 "the AD&D 1e Players Handbook and DMG", "EXT-21"),
    ExternalRule("M-CSPELL-01", "clerical spell slots and the whole clerical list known",
                 "the AD&D 1e Players Handbook's slot tables and spell lists", "EXT-21"),
    ExternalRule("M-CSPELL-02", "druidic and other spell preparation, with the author's added Druid spells",
                 "the AD&D 1e Players Handbook (the added spells are not published)", "EXT-21"),
    ExternalRule("M-CANT-01", "cantrips for Magic-users and Illusionists", "Unearthed Arcana's cantrips", "EXT-24"),
    ExternalRule("M-BOOK-01", "spell-book upkeep", "Unearthed Arcana's spell-book rules", "EXT-24"),
    ExternalRule("M-ORIS-01", "the orisons themselves and what each does", "Dragon #108, pp. 28-29", "EXT-25"),
    ExternalRule("M-ALIGN-01", "alignment, virtues, attitude to the ruler and piety",
                 "Dragon #101 'For King and Country' and Lands of Adventure; the author has not written it yet",
                 "EXT-26", "GUIDANCE and EXTERNAL"),
    ExternalRule("M-SPELLMOD-01", "the reorganised Chromatic Orb",
                 "Unearthed Arcana's Chromatic Orb (the author's level thresholds are not given)", "EXT-24"),
    ExternalRule("M-RES-01", "material components, effects of nature, natural-object values, weather, shops and "
                 "inns, random events", "Dragon #81, #108 and #137, a Dragon shop and inn article and Oriental "
                 "Adventures", "EXT-27"),
    ExternalRule("M-INIT-01", "the Attack Priority initiative and psionic segments (not adopted: AD&D 1e as written)",
                 "Dragon #71 and the AD&D 1e DMG", "EXT-21", "GUIDANCE"),
    ExternalRule("M-META-01", "firearms and artillery", "the Middle Sea 'Firearms' and 'Artillery' articles",
                 "EXT-28"),
)}
PLUGINS: dict[str, Callable[..., Any]] = {}


def register_plugin(rule: str, fn: Callable[..., Any]) -> None:
    """A referee's implementation of an EXTERNAL rule, from the book the documents only name."""
    if rule not in EXTERNAL_RULES:
        raise UnknownNameError("Middle Sea plug-in point", rule, sorted(EXTERNAL_RULES))
    PLUGINS[rule] = fn


def use_rule(rule: str, *args: Any, **kwargs: Any) -> Any:
    """Run the plug-in registered for an EXTERNAL rule, or raise `ExternalRuleError` naming the book it needs."""
    if rule not in EXTERNAL_RULES:
        raise UnknownNameError("Middle Sea plug-in point", rule, sorted(EXTERNAL_RULES))
    fn = PLUGINS.get(rule)
    if fn is None:
        raise ExternalRuleError(EXTERNAL_RULES[rule].message())
    return fn(*args, **kwargs)

"""The engine's registries: where a chapter plugs its rules into the engine without the engine importing it.

The engine (this package) knows no chapter. Magic, the Hazards chapter and the Middle Sea house rules each
register what they add — an action (casting a spell), a modifier on a character's rolls (short of sleep,
drunk, Liquid Courage), a death, crit, fumble or healing model chosen by a rule option, a fight hook, a
clock handler, the class of the state it keeps on a combatant (`Combatant.chapters`: magic's spells cast) — into
the registries below. Rules still read options, never a profile's name: the
`death_model` option names the model, the registry holds the function. The engine's own actions (attack, dodge,
disengage, go_ranged, stabilise, wait, free) are in ACTIONS too, each an `encounter.EngineAction`: one table
of actions, which `encounter.act` looks the action up in.

Chapters are found through the `furnace.chapters` entry-point group of the installed package (see
pyproject.toml), so a referee's own plug-in package can add a chapter the same way. They are imported the
first time the engine looks something up, not at `import furnace`, so the dice and the CLI start fast.

A chapter named as a built-in profile (`hazards`, `middle-sea`) is that profile's. Once the work's ruleset is known
(`in_force(rules)`: the campaign's ruleset and the command line's `--profile` call it), a listing of a registry
(`state_modifiers`, the hooks) loads and lists only the chapters of the ruleset's profile and of the profiles it
extends, and every chapter named after no profile (magic, a referee's plug-in): a furnace-profile campaign's
command loads neither the Hazards chapter nor the Middle Sea's. A look-up of a name that is not here loads every
chapter (a `death_model` set to `hazards` by an override finds it), but for the name of a profile in force
(`furnace`, the engine's own models). What is put in force belongs to the public path the work came in by (a
`furnace` command, a console request, a campaign command: `furnace.public.door`) and ends with it; a library call
outside any keeps every chapter in force.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from furnace.errors import UnknownNameError
from furnace.play.entrypoints import entry_points
from furnace.public import door

if TYPE_CHECKING:
    from furnace.characters.character import Character
    from furnace.events import Event
    from furnace.play.combatant import Combatant
    from furnace.play.frozen import ChapterState
    from furnace.play.state import Encounter, Step
    from furnace.rules.ruleset import Ruleset

T = TypeVar("T")
CHAPTER_GROUP = "furnace.chapters"
_loaded: list[str] = []
REGISTRIES: list[Registry[object]] = []     # every registry made, in the order made (`furnace chapters` lists them)


def load_chapters(every: bool = True) -> tuple[str, ...]:
    """Import the installed chapters once each (each registers itself as it is imported): every one, or with
    `every=False` those in force (`in_force`); the names of those loaded."""
    wanted = _installed_chapters()
    if not every:
        wanted = {name: target for name, target in wanted.items() if _chapter_in_force(name)}
    for name, target in sorted(wanted.items()):
        if name in _loaded:
            continue
        _loaded.append(name)   # before importing: a chapter that looks something up does not recurse
        module, _, attr = target.partition(":")
        loaded = importlib.import_module(module.strip())
        if attr:
            getattr(loaded, attr.strip())
    if every:
        _all_loaded.append(True)
    return tuple(name for name in sorted(_installed_chapters()) if name in _loaded)


# the chapters named as a built-in profile are that profile's (the rest are every profile's)
PROFILE_CHAPTERS = ("hazards", "middle-sea")
_all_loaded: list[bool] = []         # every chapter is loaded (a look-up that misses need load none)
# the profiles of the ruleset in force, its own and those it extends; None: none in force, every chapter is
_PROFILES: ContextVar[tuple[object, frozenset[str] | None] | None] = ContextVar("furnace_profiles_in_force",
                                                                                 default=None)


def in_force(rules: Ruleset) -> Ruleset:
    """Within the public path the work came in by (a `furnace` command, a console request, a campaign command:
    `furnace.public.door()`), put this ruleset's chapters in force: its profile's and its ancestors'
    (`Ruleset.chain`); a ruleset that knows no chain (made by hand) puts every chapter in force. What is put in
    force is the entry's: it ends with it. A library call outside any keeps every chapter in force. The ruleset."""
    entry = door()
    if entry is not None:
        _PROFILES.set((entry, frozenset(rules.chain) if rules.chain else None))
    return rules


def _profiles() -> frozenset[str] | None:
    """The profiles in force for the entry the running code came in by; None: every chapter is in force."""
    kept = _PROFILES.get()
    return kept[1] if kept is not None and kept[0] is door() else None


def _chapter_in_force(name: str) -> bool:
    profiles = _profiles()
    return profiles is None or name not in PROFILE_CHAPTERS or name in profiles


def _installed_chapters() -> dict[str, str]:
    return entry_points(CHAPTER_GROUP)


_OUT: dict[frozenset[str] | None, tuple[str, ...]] = {}     # the profiles in force → the chapters' packages out


def _out_of_force(profiles: frozenset[str] | None) -> tuple[str, ...]:
    """The packages of the chapters not in force (`furnace.hazards.`), whose entries are not listed; the chapters
    in force loaded first (once for each set of profiles: the engine lists entries thousands of times a second)."""
    out = _OUT.get(profiles)
    if out is None:
        load_chapters(every=False)
        out = _OUT[profiles] = tuple(target.partition(":")[0].strip().rpartition(".")[0] + "."
                                     for name, target in _installed_chapters().items() if not _chapter_in_force(name))
    return out


def _caller(value: object = None) -> str:
    """The module of the first frame outside this one (who made a registry, or added `value` to it). A module the
    engine runs compiled (`furnace.speedups`) has no frame of its own: the first frame outside this one is then the
    import machinery's, running its top level, and the module is the one that defines `value` (or made the
    registry, read as it is imported)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__") == __name__:
        frame = frame.f_back  # type: ignore[assignment]
    name = str(frame.f_globals.get("__name__", "?")) if frame is not None else "?"
    if name.startswith("importlib."):
        return str(getattr(value, "__module__", None) or _importing())
    return name


def _importing() -> str:
    """The module whose top level the import machinery runs now: the `module` of its innermost frame that has one."""
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_locals.get("module") if frame.f_globals.get("__name__", "").startswith("importlib") else None
        name = getattr(module, "__name__", None)
        if name:
            return str(name)
        frame = frame.f_back  # type: ignore[assignment]
    return "?"


def seams() -> list[tuple[str, str, dict[str, str]]]:
    """Every registry of the engine — what it holds, the module that made it, and each entry with the module that
    added it — with the installed chapters loaded: the seams where a chapter plugs in, in one listing."""
    importlib.import_module("furnace.play.clock")      # the registries made outside this module
    importlib.import_module("furnace.play.encounter")  # the engine's own actions
    importlib.import_module("furnace.play.rest")
    load_chapters()
    return [(r.what, r.home, r.origins()) for r in sorted(REGISTRIES, key=lambda r: r.what)]


class Registry(Generic[T]):
    """Named entries of one kind; a look-up of a name not here loads the chapters first, and names the known entries
    when it is still not here; listing the entries loads the chapters first."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.home = _caller()    # the module that made it
        self._entries: dict[str, T] = {}
        self._origins: dict[str, str] = {}       # entry -> the module that added it
        self._when: dict[str, Callable[[Ruleset], bool]] = {}    # entry -> the rules it acts under (`add`)
        # `entries` by the chapters out of force, and what they are of
        self._sorted: dict[tuple[str, ...], tuple[dict[str, T], tuple[tuple[str, T], ...]]] = {}
        REGISTRIES.append(self)  # type: ignore[arg-type]

    def add(self, name: str, value: T, when: Callable[[Ruleset], bool] | None = None) -> T:
        """Add an entry. A chapter adds names and never replaces another module's (a look-up of a name that is here
        loads no chapter, so a replacement would depend on what was loaded first). `when`: the rules under which a
        hook does anything at all (its option on); under others the engine never calls it (`acting`)."""
        caller = _caller(value)
        if self._origins.get(name, caller) != caller:
            raise ValueError(f"the {self.what} {name!r} is {self._origins[name]}'s: {caller} may not replace it")
        self._entries[name] = value
        self._origins[name] = caller
        self._when.pop(name, None)
        if when is not None:
            self._when[name] = when
        return value

    def acting(self, rules: Ruleset) -> tuple[T, ...]:
        """The entries in name order that act under these rules: every one but those whose `when` says they do
        nothing under them (a fight asks for its hooks once, and calls none that would only return at once)."""
        return tuple(value for name, value in self.entries() if (when := self._when.get(name)) is None or when(rules))

    def origins(self) -> dict[str, str]:
        """Each entry's name and the module that added it (chapters loaded first)."""
        load_chapters()
        return dict(sorted(self._origins.items()))

    def register(self, name: str, when: Callable[[Ruleset], bool] | None = None) -> Callable[[T], T]:
        """Decorator form of `add`."""
        return lambda value: self.add(name, value, when)

    def _miss(self, name: object) -> bool:
        """Whether `name` is not here yet and the chapters, not yet loaded, may add it: a look-up of an entry that
        is here (the engine's own `furnace` death model, a chapter already imported) loads no chapter, for a
        chapter adds names and never replaces one (`add`)."""
        return name not in self._entries and not _all_loaded

    def _load_for(self, name: object) -> None:
        """Load the chapters that may hold `name`: every one, but for the name of a profile in force (`furnace`:
        the engine's own fumble or crit model, which no chapter holds), whose chapter is loaded with the chapters
        in force; a profile's name out of force (`hazards` set by an override) loads them all, as does any other
        name (a chapter's `middle-sea:armor-hit`)."""
        profiles = _profiles()
        if profiles is not None and name in profiles:
            _out_of_force(profiles)      # (the chapters in force loaded once: the engine asks at every natural 1)
        else:
            load_chapters()

    def get(self, name: str) -> T:
        if self._miss(name):
            self._load_for(name)
        try:
            return self._entries[name]
        except KeyError:
            load_chapters()       # the refusal names every entry
            raise UnknownNameError(self.what, name, sorted(self._entries)) from None

    __getitem__ = get

    def find(self, name: str) -> T | None:
        if self._miss(name):
            self._load_for(name)
        return self._entries.get(name)

    def __contains__(self, name: object) -> bool:
        if self._miss(name):
            self._load_for(name)
        return name in self._entries

    def items(self) -> Iterator[tuple[str, T]]:
        return iter(self.entries())

    def entries(self) -> tuple[tuple[str, T], ...]:
        """The entries by name, those of the chapters in force (`in_force`): one tuple for as long as they do not
        change (a reader may key what it works out from them on it)."""
        out = _out_of_force(_profiles())
        known = self._sorted.get(out)
        if known is None or known[0] != self._entries:   # sorted again only when the entries change
            kept = sorted((n, v) for n, v in self._entries.items() if not (out and self._origins[n].startswith(out)))
            known = self._sorted[out] = (dict(self._entries), tuple(kept))
        return known[1]


@dataclass(frozen=True)
class StateModifier:
    """What a character's state does to her rolls: to ATK, to SAVEs, to CHECKs and to the SPELLCHECK; to her
    morale SAVE (F-OPT-05) and her SAVEs vs fear alone (Liquid Courage's +1 each, M-DRINK-01)."""

    source: str = ""
    to_hit: int = 0
    saves: int = 0
    checks: int = 0
    spellcheck: int = 0
    morale: int = 0
    fear_saves: int = 0

    def __bool__(self) -> bool:
        return any((self.to_hit, self.saves, self.checks, self.spellcheck, self.morale, self.fear_saves))


class ActionRule(Protocol):
    """An action a chapter adds to the fight's menu (F-CMBT-01): casting a spell is one."""

    def run(self, step: Step, cid: str, target: str, detail: str | None) -> None: ...

    def tactic(self, enc: Encounter, c: Combatant, target: str) -> str | None:
        """The detail (a spell's name …) with which the automatic tactic takes this action, or None; one of
        `details(c)`, so the tactic asks only a combatant who has some (None when she has none)."""
        ...

    def details(self, c: Combatant) -> tuple[str, ...]:
        """What the combatant may take this action with (the spells and cantrips she knows, her magic items): read
        from her kit alone (`combatant.KIT`), for the engine asks again only when that changes."""
        ...


Modifier = Callable[["Character"], StateModifier]
DeathModel = Callable[["Step", "Combatant", int], None]
# (step, monster, damage) -> True when the model took the blow that left the monster at 0 HP or below (M-MOOK-01:
# a named NPC rolls the grievous table); False leaves it to the engine (monster_zero_hp). Keyed by death_model.
NpcModel = Callable[["Step", "Combatant", int], bool]
BlowHook = Callable[["Step", str, str], None]      # (step, actor, target): a crit under a chapter's model
FumbleHook = Callable[["Step", str], None]          # (step, actor): a natural 1 under a chapter's model

AttacksHook = Callable[["Step", str, str], int]     # (step, actor, target): ATKs one attack action makes
# (step, actor, the actor as the action began): what a round's use of the weapon costs (M-WPN-05: a cracked haft)
AfterAttackHook = Callable[["Step", str, "Combatant"], None]
# (character, combatant, rules) -> combatant: what a chapter carries from a character into a fight (magic: her
# lockouts until rest and her cantrips); `from_character` runs every hook, in name order, on what it built
CombatantHook = Callable[["Character", "Combatant", "Ruleset"], "Combatant"]
# (character, combatant, rules, events) -> character: what a chapter writes back after the fight (magic: the
# magic items' uses left today); `furnace.play.aftermath.settle` runs every hook, in name order
AftermathHook = Callable[["Character", "Combatant", "Ruleset", list["Event"]], "Character"]

ACTIONS: Registry[ActionRule] = Registry("action")
ATTACKS_PER_ACTION: Registry[AttacksHook] = Registry("attacks-per-action rule")
AFTER_ATTACK: Registry[AfterAttackHook] = Registry("after-attack rule")
MODIFIERS: Registry[Modifier] = Registry("state modifier")
DEATH_MODELS: Registry[DeathModel] = Registry("death model")
NPC_MODELS: Registry[NpcModel] = Registry("NPC model at 0 HP")
CRIT_MODELS: Registry[BlowHook] = Registry("crit model")
FUMBLE_MODELS: Registry[FumbleHook] = Registry("fumble model")
# chapter key -> the class of the state that chapter keeps on a combatant (`Combatant.chapters[key]`, a
# `frozen.ChapterState`): what a stored combatant's state is validated as, and where its old flat fields go
CHAPTER_STATES: Registry[type[ChapterState]] = Registry("chapter state")
COMBATANT_HOOKS: Registry[CombatantHook] = Registry("combatant hook")
AFTERMATH_HOOKS: Registry[AftermathHook] = Registry("aftermath hook")


def state_modifiers(c: Character) -> tuple[StateModifier, ...]:
    """Every registered modifier that holds for this character now (short of sleep, drunk, courage …)."""
    return tuple(part for _, m in MODIFIERS.items() if (part := m(c)))


def chapter_states() -> dict[str, type[ChapterState]]:
    """Every chapter's state class by its key, every installed chapter loaded (in force or not: a stored encounter
    holds what any chapter kept)."""
    load_chapters()
    return dict(CHAPTER_STATES._entries)


def combatant_hooks(character: Character, combatant: Combatant, rules: Ruleset) -> Combatant:
    """The combatant after every registered COMBATANT_HOOKS entry, in name order, has added what it carries."""
    for _, hook in COMBATANT_HOOKS.items():
        combatant = hook(character, combatant, rules)
    return combatant

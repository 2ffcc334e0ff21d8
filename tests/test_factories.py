"""One set of factories (tests/helpers/factories.py): no test module makes its own characters, combatants,
encounters or campaigns, and the factories' defaults are the ones their docstrings state.

A factory is a function (or a fixture outside conftest.py) that builds one of the game's objects: it returns a
constructor call of one (`return Combatant(...)`), or its return annotation names one while none of its parameters
is one. A function that takes a made object and runs the engine on it (`cast_in(enc) -> Encounter`,
`rest_nights(character) -> Character`, a store command `(state) -> state`) is an action, not a factory.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import factories as f

TESTS = Path(__file__).resolve().parent
HELPERS = TESTS / "helpers"
MADE = frozenset({"Character", "Combatant", "Encounter", "Step", "Campaign", "CampaignState", "Member"})
# functions that return a made object without making it; each with the reason it is not a factory
READERS = {
    ("store/util.py", "rebuild"): "rebuilds the state from the log's rows by hand: the oracle the store is checked "
                                  "against, not a set-up",
    ("store/test_stepping.py", "rebuilt"): "the state a new Store reads from the store's database: an oracle",
    ("store/test_stepping.py", "agrees"): "the store's own state, checked against the oracles",
}


def _names(annotation: ast.expr | None) -> set[str]:
    """The class names an annotation names, leaving out those inside a Callable[...] (a function over them)."""
    if annotation is None:
        return set()
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return _names(ast.parse(annotation.value, mode="eval").body)
    if isinstance(annotation, ast.Subscript) and _last(annotation.value) == "Callable":
        return set()
    found = {_last(annotation)} - {None}
    for child in ast.iter_child_nodes(annotation):
        if isinstance(child, ast.expr):
            found |= _names(child)
    return {n for n in found if n}


def _last(node: ast.expr) -> str | None:
    """`Character` for `Character` and for `clocks.Campaign`'s `Campaign`."""
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def _made_by(call: ast.expr) -> str | None:
    """The made class a call constructs: `Combatant(...)`, `Character.model_validate(...)`."""
    if not isinstance(call, ast.Call):
        return None
    func = call.func
    if _last(func) in MADE:
        return _last(func)
    if isinstance(func, ast.Attribute) and _last(func.value) in MADE:
        return _last(func.value)
    return None


def _returns_made(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The made classes a function returns a constructor call of, alone or in a tuple (its own returns only)."""
    found: set[str] = set()
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue                                          # a nested function's returns are its own
        if isinstance(node, ast.Return) and node.value is not None:
            values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
            found |= {m for m in map(_made_by, values) if m}
        stack.extend(ast.iter_child_nodes(node))
    return found


def _is_fixture(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any("fixture" in ast.unparse(d) for d in fn.decorator_list)


def _functions(tree: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Module-level functions and the functions nested in them (methods are the classes' own business)."""
    found: list[ast.FunctionDef | ast.AsyncFunctionDef] = []

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found.append(node)
                visit(node.body)
            elif not isinstance(node, ast.ClassDef):
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, ast.stmt):
                        visit([child])

    visit(tree.body)
    return found


def factories_in(source: str, conftest: bool = False, where: str = "") -> list[str]:
    """The factories a test module defines, as "name (line n): why"."""
    found = []
    for fn in _functions(ast.parse(source)):
        if fn.name.startswith("test_") or (conftest and _is_fixture(fn)) or (where, fn.name) in READERS:
            continue
        returned = _names(fn.returns) & MADE
        args = [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs, fn.args.vararg, fn.args.kwarg]
        taken = set().union(*(_names(a.annotation) for a in args if a is not None)) & MADE
        constructed = _returns_made(fn)
        if constructed:
            found.append(f"{fn.name} (line {fn.lineno}): returns a new {', '.join(sorted(constructed))}")
        elif returned and not taken:
            found.append(f"{fn.name} (line {fn.lineno}): returns a {', '.join(sorted(returned))} made from nothing "
                         "of the kind")
    return found


MODULES = sorted(p for p in TESTS.rglob("*.py") if HELPERS not in p.parents)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(TESTS)))
def test_no_test_module_makes_its_own_factory(path: Path) -> None:
    """Characters, combatants, encounters, steps and campaigns come from tests/helpers/factories.py; a test that
    needs other numbers passes them, or keeps them in a module-level dict of fields (data, not a function)."""
    where = str(path.relative_to(TESTS))
    found = factories_in(path.read_text(encoding="utf-8"), conftest=path.name == "conftest.py", where=where)
    assert not found, f"{where} makes its own: {'; '.join(found)} — use tests/helpers/factories.py"


def test_the_check_tells_a_factory_from_an_action() -> None:
    source = '''
def pc(cid: str = "a") -> Combatant:
    return Combatant(id=cid)
def hero(**kw):
    return Character.model_validate(kw)
def fight(*combatants):
    return Step(encounter(*combatants), dice, rules), dice
def party(store: Store) -> CampaignState:
    return stored(store)
def rest_nights(character: Character, nights: int) -> Character:
    return character
def cast_in(enc: "Encounter", faces: list[int]) -> tuple[Encounter, ScriptedDice]:
    return enc, ScriptedDice(faces)
def changed(member: str) -> Callable[[CampaignState], CampaignState]:
    def run(state: CampaignState) -> CampaignState:
        return state
    return run
def test_builds_inline() -> None:
    assert Character(name="A") is not None
'''
    found = factories_in(source)
    assert [f.split(" ")[0] for f in found] == ["pc", "hero", "fight", "party"]
    fixture = "import pytest\n@pytest.fixture\ndef hero() -> Character:\n    return character()\n"
    assert factories_in(fixture, conftest=True) == [] and factories_in(fixture) != []


# -- the defaults the factories' docstrings state ---------------------------------------------------------------
def test_character_defaults_and_scores() -> None:
    c = f.character()
    assert (c.name, c.race, c.level, c.char_class, c.hp_max, c.hp) == ("Hero", "Human", 0, None, 10, 10)
    assert c.scores == f.TEN
    strong = f.character({"scores": {"STR": 16}}, INT=14, hp_max=4)
    assert strong.scores == {**f.TEN, "STR": 16, "INT": 14} and strong.hp == 4
    assert f.character({"name": "A", "hp": 2}, {"name": "B"}, hp=3).model_dump(include={"name", "hp"}) == {
        "name": "B", "hp": 3}
    with pytest.raises(TypeError, match="preset"):
        f.character("Ann")  # type: ignore[arg-type]


def test_the_presets() -> None:
    assert (f.fighter().char_class, f.fighter().level) == ("Fighter", 1)
    survivor = f.peasant(hp_max=2)
    assert (survivor.name, survivor.level, survivor.hp, survivor.hit_dice, survivor.occupation) == (
        "Survivor", 0, 2, 1, f.FARMER)
    mira = f.mage()
    assert (mira.name, mira.level, mira.scores["INT"], mira.hp, mira.spells) == (
        "Mira", 3, 16, 12, ["Fireball", "Chill Touch"])
    assert (f.cleric().char_class, f.cleric().saves, f.rogue().archetype) == ("Cleric", ["WIS"], "Arcane Trickster")
    assert f.character(f.SEA_HERO).saves == ["STR", "CON"] and f.example("brakka", hp=200).hp == 200


def test_combatant_defaults() -> None:
    a, b = f.pc(), f.monster()
    assert (a.id, a.name, a.side, a.kind, a.level, a.prof, a.hp, a.ac, a.attack_bonus, a.damage, a.zone) == (
        "a", "A", "a", "pc", 1, 2, 10, 12, 3, "1d8", "CLOSE")
    assert (b.id, b.name, b.side, b.kind, b.hp, b.ac, b.attack_bonus, b.damage, b.saves["CON"]) == (
        "b", "B", "b", "monster", 50, 12, 2, "1d6", 2)
    assert f.pc("c", {"hp": 3}, hp=4).model_dump(include={"id", "name", "hp"}) == {"id": "c", "name": "C", "hp": 4}
    assert f.from_spec({"hp": 5}, "g1").model_dump(include={"name", "hp", "ac", "attack_bonus"}) == {
        "name": "G1", "hp": 5, "ac": 12, "attack_bonus": 2}
    assert [c.id for c in f.band({"hp": 5}, "a", 2)] == ["a0", "a1"]


def test_encounter_and_step_defaults() -> None:
    enc = f.encounter(f.pc(), f.monster())
    assert (enc.room_dc, enc.round, [c.id for c in enc.combatants]) == (12, 1, ["a", "b"])
    s, dice = f.step(f.pc(), faces=[3, 4], round=2)
    assert (s.frame.round, s.frame.room_dc, dice.remaining, f.dice(1, 2).remaining) == (2, 12, 2, 2)


def test_campaign_defaults() -> None:
    camp = f.campaign(f.character(name="Ada"), hostile=True)
    assert list(camp.characters) == ["Ada"] and camp.flags == {"hostile": True} and camp.clock.now == 0
    state = f.campaign_state(f.member(f.character(), "hero1", player="Ann"))
    assert (state.name, state.profile, state.roster["hero1"].player) == ("keep", "furnace", "Ann")


def test_a_stored_campaign_is_read_back(tmp_path: Path) -> None:
    from furnace.campaign.store import Store

    store = Store(f"sqlite:///{tmp_path / 'campaigns.db'}")
    try:
        made = f.stored_campaign(store, f.example("brakka"), f.example("wren"), players={"Brakka": "Ann"},
                                 label="join {name}")
        assert [e.command for e in store.events("keep")][1:] == ["join brakka", "join wren"]
    finally:
        store.close()
    again = f.reopened(tmp_path / "campaigns.db")
    assert again == made and again.roster["brak1"].player == "Ann"

"""What a campaign command imports: its start-up is mostly imports, so the budget is pinned by module, never by time.

Each command runs in a fresh Python (`furnace.cli.main`, as the console script runs it) on a SQLite campaign made by
the CLI, and reports the modules it loaded. A read opens the store with sqlite3 (`furnace.campaign.reading`): no
SQLAlchemy, no migration machinery; a write to a database at the newest schema is written with sqlite3 too
(`furnace.campaign.writing`): no SQLAlchemy either (an undo or a redo still reads its history through it);
no command loads a chapter outside its campaign's profile (but `damage`, below), nor the web console, nor the exact-odds
library, nor PyYAML (the tables come from the cache), nor `importlib.metadata` (Pydantic's plug-ins are looked up
without it, `furnace.cli.startup`), nor the spells' commands; a read loads not the session's commands, and a write
tells its facts with the story's tellers of a fight and a campaign, not the Hazards', the Middle Sea's or magic's.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.store.make_fixture import FIXTURE

# fresh Python processes, one per command: the whole run only (FURNACE_SUITE=full, CI)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = """
import sys
from furnace.cli.app import main

code = main(sys.argv[2:])
modules = sorted(sys.modules)
import json   # (after: whether the command loaded it is asked too)

with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump({"code": code, "modules": modules}, out)
"""
RUN = "import sys; from furnace.cli import main; sys.exit(main(sys.argv[1:]))"
READS = {
    "character list": ["--campaign", "keep", "character", "list"],
    "campaign show": ["--campaign", "keep", "campaign", "show"],
    "campaign log": ["--campaign", "keep", "campaign", "log"],
    "campaign recap": ["--campaign", "keep", "campaign", "recap"],
    "encounter status": ["--campaign", "fight", "encounter", "status"],
    "character list --json": ["--campaign", "keep", "character", "list", "--json"],
}
WRITES = {
    "damage": ["--campaign", "keep", "damage", "Wren", "1"],
    "heal": ["--campaign", "keep", "heal", "Wren", "1"],
    "clock advance": ["--campaign", "keep", "clock", "advance", "1", "turn"],
    "rest": ["--campaign", "keep", "rest", "short", "Wren", "--seed", "2"],
    "encounter act": ["--campaign", "fight", "encounter", "act", "brak1", "dodge"],
}
CHAPTERS = {"hazards": "furnace.hazards", "middle-sea": "furnace.houserules"}     # beyond the furnace profile's
NEVER = ("alembic", "furnace.campaign.migrate", "furnace.web", "fastapi", "starlette", "jinja2", "uvicorn",
         "icepool", "rich", "yaml", "difflib", "importlib.metadata", "email", "furnace.cli.magic",
         "furnace.render.referee", "furnace.render.story.hazards", "furnace.render.story.middle_sea",
         "furnace.render.story.magic", "furnace.play.fightfile")
SESSION = {"rest"}      # the commands of furnace.cli.session (`campaign recap` is furnace.cli.sessions')


@pytest.fixture(scope="module")
def campaigns(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A furnace-profile campaign of twelve characters, and one with a fight in progress (made by the CLI)."""
    folder = tmp_path_factory.mktemp("budget")
    for args in (["campaign", "new", "keep"],
                 ["--campaign", "keep", "campaign", "join", "examples/characters/brakka.json",
                  "examples/characters/wren.json", "--player", "Cy"],
                 ["--campaign", "keep", "funnel", "--player", "Ann", "--player", "Bo", "--seed", "1"],
                 ["campaign", "new", "fight"],
                 ["--campaign", "fight", "campaign", "join", "examples/characters/brakka.json"],
                 ["--campaign", "fight", "encounter", "start", "--party", "Brakka", "--monsters", "goblin x2",
                  "--seed", "4"]):
        assert loaded(folder, [*args])[0] == 0, args
    return folder


def loaded(folder: Path, args: list[str]) -> tuple[int, set[str]]:
    """Run `furnace --db … ARGS` in a fresh Python: its exit code and every module it imported."""
    report = folder / "modules.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("FURNACE_")}
    # the rules' cache of its own, which the campaigns' making fills (the tables, options and profiles), as a user's is
    env.update(FURNACE_CONFIG_DIR=str(folder / "config"), FURNACE_DATA_DIR=str(folder / "data"),
               FURNACE_CACHE_DIR=str(folder / "cache"))
    subprocess.run([sys.executable, "-c", PROGRAM, str(report), "--db", str(folder / "campaigns.db"), *args],
                   cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=120)
    found = json.loads(report.read_text(encoding="utf-8"))
    return found["code"], set(found["modules"])


def _under(modules: set[str], package: str) -> list[str]:
    return sorted(m for m in modules if m == package or m.startswith(f"{package}."))


@pytest.mark.parametrize("command", sorted(READS))
def test_a_read_opens_the_store_without_sqlalchemy(campaigns: Path, command: str) -> None:
    code, modules = loaded(campaigns, READS[command])
    assert code == 0
    assert "furnace.campaign.reading" in modules          # the campaign was read, by the fast path
    assert not _under(modules, "sqlalchemy")
    assert not [m for p in NEVER for m in _under(modules, p)]
    assert not [m for p in CHAPTERS.values() for m in _under(modules, p)]
    assert ("furnace.cli.session" in modules) == (command in SESSION)


def test_the_table_at_a_glance_loads_none_of_the_commands_that_play_the_fight(campaigns: Path, tmp_path: Path) -> None:
    """`encounter status` reads the fight as the campaign keeps it (`furnace.campaign.kept_fight`): not the
    commands that play it and settle it (`furnace.campaign.encounters`: the hand-over, the overrides, the clock's
    keeping, the aftermath) nor those that answer its questions; `encounter act` does."""
    playing = ("furnace.campaign.encounters", "furnace.campaign.questions", "furnace.campaign.handover",
               "furnace.campaign.overrides", "furnace.campaign.timekeeping", "furnace.play.aftermath")
    code, modules = loaded(campaigns, READS["encounter status"])
    assert code == 0 and "furnace.campaign.kept_fight" in modules
    assert not [m for p in playing for m in _under(modules, p)]
    code, modules = loaded(campaigns, ["--campaign", "fight", "encounter", "status", "--json"])
    assert code == 0 and not [m for p in playing for m in _under(modules, p)]
    shutil.copy(campaigns / "campaigns.db", tmp_path / "campaigns.db")      # (a copy: the fight moves on)
    code, modules = loaded(tmp_path, WRITES["encounter act"])
    assert code == 0 and "furnace.campaign.encounters" in modules


@pytest.mark.parametrize("command", sorted(WRITES))
def test_a_write_loads_no_sqlalchemy(campaigns: Path, command: str) -> None:
    """A write to a database at the newest schema goes through sqlite3 (`furnace.campaign.writing`): no SQLAlchemy,
    no Alembic, and no chapter outside the profile: a registry's look-up of a name it holds (the `furnace` death and
    healing models) loads none, and a listing (`damage`'s state modifiers, `furnace.play.registry.state_modifiers`)
    loads the chapters of the campaign's profile only (`furnace.play.registry.in_force`)."""
    code, modules = loaded(campaigns, WRITES[command])
    assert code == 0
    assert "furnace.campaign.writing" in modules          # it wrote, by the fast path
    assert not _under(modules, "sqlalchemy")
    assert not [m for p in NEVER for m in _under(modules, p)]
    assert ("furnace.cli.session" in modules) == (command in SESSION)
    assert not [m for p in CHAPTERS.values() for m in _under(modules, p)]


def test_a_pydantic_plugin_installed_is_still_loaded(campaigns: Path, tmp_path: Path) -> None:
    """The flip side of looking Pydantic's plug-ins up cheaply: a package that declares one (here on PYTHONPATH) has
    it loaded by Pydantic's own loader, and asked for every model's validator, as without Furnace's look-up."""
    (tmp_path / "spyplug-1.0.dist-info").mkdir()
    (tmp_path / "spyplug-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: spyplug\nVersion: 1.0\n")
    (tmp_path / "spyplug-1.0.dist-info" / "entry_points.txt").write_text("[pydantic]\nspy = spyplug:plugin\n")
    (tmp_path / "spyplug.py").write_text(
        "import os\n"
        "class Spy:\n"
        "    def new_schema_validator(self, schema, schema_type, path, kind, config, settings):\n"
        "        open(os.environ['SPY_SAW'], 'a').write(path.name + '\\n')\n"
        "        return None, None, None\n"
        "plugin = Spy()\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("FURNACE_")}
    env.update(PYTHONPATH=str(tmp_path), SPY_SAW=str(tmp_path / "saw.txt"))
    shutil.copy(campaigns / "campaigns.db", tmp_path / "campaigns.db")
    subprocess.run([sys.executable, "-c", RUN, "--db", str(tmp_path / "campaigns.db"), "--campaign", "keep",
                    "character", "list"], cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=120)
    assert "CampaignState" in (tmp_path / "saw.txt").read_text().split()


def test_an_undo_still_reads_its_history_through_the_engine(campaigns: Path) -> None:
    """Undo and redo read the history through SQLAlchemy (`furnace.campaign.history`), and write after it."""
    code, modules = loaded(campaigns, ["--campaign", "keep", "campaign", "undo", "--show"])
    assert code == 0
    assert _under(modules, "sqlalchemy") and not _under(modules, "alembic")


def test_a_database_of_an_older_schema_is_still_upgraded_on_open(tmp_path: Path) -> None:
    """The flip side of the fast path: a file that is not at the newest revision goes the migrations' way."""
    shutil.copy(FIXTURE, tmp_path / "campaigns.db")
    code, modules = loaded(tmp_path, ["--campaign", "Old Keep", "character", "list"])
    assert code == 0
    assert "alembic" in modules and _under(modules, "sqlalchemy")
    code, modules = loaded(tmp_path, ["--campaign", "Old Keep", "character", "list"])     # upgraded: fast again
    assert code == 0 and not _under(modules, "sqlalchemy")


def test_a_newer_schema_is_refused_in_the_same_words_on_the_fast_path(campaigns: Path, tmp_path: Path) -> None:
    shutil.copy(campaigns / "campaigns.db", tmp_path / "campaigns.db")
    with sqlite3.connect(tmp_path / "campaigns.db") as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    conn.close()
    report = subprocess.run([sys.executable, "-c", RUN, "--db", str(tmp_path / "campaigns.db"),
                             "--campaign", "keep", "character", "list"], cwd=ROOT, capture_output=True, text=True,
                            timeout=120, env={k: v for k, v in os.environ.items() if not k.startswith("FURNACE_")})
    assert report.returncode == 2
    assert report.stderr.startswith("error: this database was written by a newer Furnace (revision 9999; this one "
                                    "reads up to")


# -- the commands that read no campaign (issue 27's start-up goals) ---------------------------------------------------
ODDS_ATTACK = ["odds", "attack", "--atk", "d20+3", "--ac", "14", "--damage", "1d8+2", "--class", "fighter", "--level",
               "3"]
# (pydantic.plugin._loader is the stand-in of furnace.cli.startup, not Pydantic)
MODELS = ("pydantic.main", "pydantic_core", "furnace.rules.ruleset", "furnace.rules.tables", "furnace.rules.effects",
          "furnace.play.combatant")
STARTUP_NEVER = (*NEVER, "sqlalchemy", "furnace.campaign")


def _first_then_again(folder: Path, args: list[str]) -> set[str]:
    """The modules of a second run (the first fills the rules' caches, as a user's first command does)."""
    assert loaded(folder, args)[0] == 0
    code, modules = loaded(folder, args)
    assert code == 0
    return modules


def test_roll_and_odds_load_no_model_and_no_json_encoder(tmp_path: Path) -> None:
    for args in (["roll", "1d20+3"], ["odds", "d20+3", "--dc", "15"]):
        modules = _first_then_again(tmp_path, args)
        assert not [m for p in (*STARTUP_NEVER, *MODELS, "furnace.rules", "html") for m in _under(modules, p)]
        assert "furnace.dice.compiled" not in modules    # a command's few rolls: the general roller, no compiler
    modules = _first_then_again(tmp_path, ["roll", "1d20+3"])
    assert "json" not in modules
    assert "fractions" not in modules               # a whole roll makes no Fraction (`furnace.dice.plan.Value`)
    assert "json" in _first_then_again(tmp_path, ["roll", "1d20+3", "--json"])      # the flip sides
    assert "fractions" in _first_then_again(tmp_path, ["roll", "1d20/2"])


def test_odds_attack_reads_the_plain_rules_and_builds_no_model(tmp_path: Path) -> None:
    """A built-in profile's options and crit tables come from the plain cache (`furnace.rules.plain`): no Pydantic,
    no PyYAML, no pickle or hashlib (the cache is marshal under a stamp), no platformdirs (the folder is found)."""
    modules = _first_then_again(tmp_path, ODDS_ATTACK)
    assert "furnace.rules.plain" in modules and "furnace.play.dc" in modules
    # the DC alone (`furnace.play.dc`), not the checks' classes (`furnace.play.checks`)
    never = (*STARTUP_NEVER, *MODELS, "pickle", "hashlib", "platformdirs", "importlib.resources", "pathlib",
             "furnace.play.checks", "furnace.dice.compiled")
    assert not [m for p in never for m in _under(modules, p)]


@pytest.mark.parametrize("more", [["--option", "monster_crits=true"], ["--character", "examples/characters/wren.json"]])
def test_odds_attack_with_an_override_or_a_character_reads_the_ruleset(tmp_path: Path, more: list[str]) -> None:
    """The flip side: an `--option` is checked by its declared type, a character file validated: the models load."""
    modules = _first_then_again(tmp_path, [*ODDS_ATTACK, *more])
    assert "furnace.rules.ruleset" in modules and "pydantic.main" in modules


@pytest.mark.parametrize(("args", "chapters"), [
    (["fight", "examples/funnel-vs-goblins.yaml", "--seed", "1"], set()),
    (["fight", "examples/funnel-vs-goblins.yaml", "--seed", "1", "--profile", "hazards"], {"hazards"}),
    (["fight", "examples/funnel-vs-goblins.yaml", "--seed", "1", "--profile", "middle-sea"], {"middle-sea"}),
])
def test_a_fight_loads_the_chapters_of_its_profile_only(tmp_path: Path, args: list[str], chapters: set[str]) -> None:
    """`furnace.play.registry.in_force`: the fight's listings and its look-ups of `furnace` (the engine's own fumble
    and crit models) load the chapters of the profile, magic always (it is every profile's)."""
    modules = _first_then_again(tmp_path, args)
    assert {name for name, package in CHAPTERS.items() if _under(modules, package)} == chapters
    assert "furnace.magic.fight" in modules
    # the fight file's YAML parsed once (furnace.rules.cache.parsed_text); no standing answers: no turn-by-turn play
    assert not [m for p in ("yaml", "furnace.play.turns", "furnace.play.answering") for m in _under(modules, p)]
    # the packaged data by its path (furnace.rules.datafile.packaged), the cache's folder from XDG/HOME
    assert not [m for p in ("importlib.resources", "platformdirs", "zipfile") for m in _under(modules, p)]
    # a monster's Hit Dice read without the bestiary's models (furnace.rules.hit_dice)
    assert "furnace.rules.hit_dice" in modules and "furnace.rules.bestiary" not in modules
    assert "furnace.play.reaction" not in modules       # the optional enemy morale's rule (F-OPT-04), off


def test_a_fight_with_standing_answers_or_a_changed_file_loads_what_it_uses(tmp_path: Path) -> None:
    """The flip side: a `--policy` puts standing answers in the fight (`furnace.play.answering`), and a fight file
    whose text changed is parsed again (PyYAML), the parse of the file before it not reused."""
    fight = tmp_path / "fight.yaml"
    fight.write_text((ROOT / "examples" / "funnel-vs-goblins.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    shutil.copytree(ROOT / "examples" / "characters", tmp_path / "characters")
    args = ["fight", str(fight), "--seed", "1"]
    assert "yaml" not in _first_then_again(tmp_path, args)
    fight.write_text(fight.read_text(encoding="utf-8").replace("room_dc: 10", "room_dc: 11"), encoding="utf-8")
    code, modules = loaded(tmp_path, args)
    assert code == 0 and "yaml" in modules
    assert "furnace.play.answering" in _first_then_again(tmp_path, [*args, "--policy", "referee=keen"])


def test_a_funnel_draws_no_sheet_unless_asked(tmp_path: Path) -> None:
    """Nor, outside a campaign (nothing to tell), the story's tellers or the clock; nor the engine's registries
    (Pydantic's plug-ins are looked up in `furnace.play.entrypoints`); nor, piped, rich (its party's table is written
    as rich draws it, `furnace.render.text.plain_table`)."""
    modules = _first_then_again(tmp_path, ["funnel", "--seed", "1"])
    assert "furnace.render.sheets" not in modules
    never = ("furnace.play.clock", "furnace.render.story", "furnace.play.registry", "rich")
    assert not [m for p in never for m in _under(modules, p)]
    assert "furnace.render.sheets" in _first_then_again(tmp_path, ["--force", "funnel", "--seed", "1", "--html",
                                                                   str(tmp_path / "f.html")])


# -- what a command does again, read from the user's cache -----------------------------------------------------------
AGAIN = """
import builtins
import json
import sys

from furnace.characters.character import Character
from furnace.cli.app import main
from furnace.play.fightfile import FightFile

compiled = []
real = builtins.compile
builtins.compile = lambda source, filename, *a, **k: (compiled.append(filename) if filename == "<furnace.dice.compiled>"
                                                     else None) or real(source, filename, *a, **k)
code = main(sys.argv[2:])
with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump({"code": code, "validator built": Character.__pydantic_complete__ or FightFile.__pydantic_complete__,
               "compiled": compiled}, out)
"""


def _again(folder: Path, args: list[str]) -> dict[str, object]:
    """Run ARGS twice in fresh Pythons with the folder's cache: what the second run built and compiled."""
    report = folder / "again.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("FURNACE_")}
    env.update(FURNACE_CONFIG_DIR=str(folder / "config"), FURNACE_DATA_DIR=str(folder / "data"),
               FURNACE_CACHE_DIR=str(folder / "cache"))
    for _ in range(2):
        subprocess.run([sys.executable, "-c", AGAIN, str(report), *args], cwd=ROOT, env=env, capture_output=True,
                       text=True, check=True, timeout=120)
    found: dict[str, object] = json.loads(report.read_text(encoding="utf-8"))
    return found


def test_a_fight_again_validates_no_party_file_and_compiles_no_dice(tmp_path: Path) -> None:
    """A fight file and its party files validated before are read from the cache
    (`furnace.rules.cache.validated_text`): Pydantic's validator of a character or a fight file is never built; the
    dice expressions compiled before are read as code (`furnace.rules.cache.kept_code`), none compiled again. The flip
    side: a party file changed is validated, and so is a fight file changed."""
    fight = tmp_path / "fight.yaml"
    fight.write_text((ROOT / "examples" / "funnel-vs-goblins.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    shutil.copytree(ROOT / "examples" / "characters", tmp_path / "characters")
    args = ["fight", str(fight), "--seed", "1"]
    found = _again(tmp_path, args)
    assert found == {"code": 0, "validator built": False, "compiled": []}
    hob = tmp_path / "characters" / "hob.json"
    hob.write_text(hob.read_text(encoding="utf-8").replace('"name": "Hob"', '"name": "Hobb"', 1), encoding="utf-8")
    report = tmp_path / "again.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("FURNACE_")}
    env.update(FURNACE_CACHE_DIR=str(tmp_path / "cache"))
    subprocess.run([sys.executable, "-c", AGAIN, str(report), *args], cwd=ROOT, env=env, capture_output=True, text=True,
                   check=True, timeout=120)
    assert json.loads(report.read_text(encoding="utf-8"))["validator built"] is True
    assert _again(tmp_path, args)["validator built"] is False
    fight.write_text(fight.read_text(encoding="utf-8").replace("room_dc: 10", "room_dc: 11"), encoding="utf-8")
    subprocess.run([sys.executable, "-c", AGAIN, str(report), *args], cwd=ROOT, env=env, capture_output=True, text=True,
                   check=True, timeout=120)
    assert json.loads(report.read_text(encoding="utf-8"))["validator built"] is True


def test_a_roll_compiles_nothing(tmp_path: Path) -> None:
    """`furnace roll` rolls with the general roller: compiling an expression costs more than a command's rolls."""
    assert _again(tmp_path, ["roll", "1d20+3", "--times", "3"]) == {"code": 0, "validator built": False,
                                                                     "compiled": []}


METHODS = """
import builtins
import json
import sys

compiled = []
real = builtins.compile
builtins.compile = lambda source, filename, mode, *a, **k: (compiled.append(filename) if (filename, mode) == (
    "<string>", "exec") else None) or real(source, filename, mode, *a, **k)      # (typing's forward references: eval)
from furnace.cli.app import main

code = main(sys.argv[2:])
with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump({"code": code, "compiled": len(compiled)}, out)
"""


def test_a_fight_again_compiles_no_dataclass_method(tmp_path: Path) -> None:
    """The dataclasses a fight makes (the engine's, the chapters') read their methods' code from what the run before
    compiled (`furnace.cli.startup.keep_dataclass_code`): none compiled again. The flip side: the first run, with no
    code kept, compiles them through the cache (and keeps them)."""
    report = tmp_path / "methods.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("FURNACE_")}
    env.update(FURNACE_CACHE_DIR=str(tmp_path / "cache"))

    def run() -> dict[str, int]:
        subprocess.run([sys.executable, "-c", METHODS, str(report), "fight", "examples/funnel-vs-goblins.yaml",
                        "--seed", "1"], cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=120)
        found: dict[str, int] = json.loads(report.read_text(encoding="utf-8"))
        return found

    first = run()
    assert first["code"] == 0 and first["compiled"] > 100
    assert run() == {"code": 0, "compiled": 0}


COLLECTIONS = """
import gc, sys
young = []
gc.callbacks.append(lambda phase, info: young.append(info["generation"]) if phase == "start" else None)
from furnace.cli import main
if sys.argv[1] == "700":
    gc.set_threshold(700, *gc.get_threshold()[1:])       # Python's own: the flip side
code = main(sys.argv[2:])
print(len(young), file=sys.stderr)
"""


def test_a_fight_starts_with_next_to_no_garbage_collection(tmp_path: Path) -> None:
    """The command line runs the cyclic collector's young collection every 100,000 objects made, not 700
    (`furnace.cli.startup.collect_seldom`): a fight's start-up (click, Pydantic, the models, the chapters) ran ~90
    collections that found next to nothing. Those left are the few made before `furnace.cli` is imported."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FURNACE_")}
    env.update(FURNACE_CACHE_DIR=str(tmp_path / "cache"))

    def collections(threshold: str) -> int:
        done = subprocess.run([sys.executable, "-c", COLLECTIONS, threshold, "fight",
                               "examples/funnel-vs-goblins.yaml", "--seed", "1"], cwd=ROOT, env=env,
                              capture_output=True, text=True, check=True, timeout=120)
        return int(done.stderr.split()[-1])

    assert collections("seldom") <= 12
    assert collections("700") >= 50


FINALIZED = """
import atexit
import sys
from furnace.cli import main

class Held:                 # only a cycle holds it: its finalizer runs when the collector frees the cycle
    def __del__(self):
        sys.stderr.write("finalized\\n")

def leave_a_cycle():        # as the command has ended (before furnace's own exit hook: the last registered runs first)
    held = Held()
    held.me = held

atexit.register(leave_a_cycle)
sys.exit(main(sys.argv[1:]))
"""


def test_a_command_that_leaves_no_database_open_leaves_its_cycles_at_exit(tmp_path: Path) -> None:
    """At exit, Python's last collection of cycles is skipped (`furnace.cli.startup.collect_nothing_at_exit`): a
    command ends with its objects frozen, a cycle's finalizer never run — a campaign command too, which closes its
    store as it ends. The flip side: a process that holds a store open (its connections may be left to finalize)
    ends with the collection, as Python's own do."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FURNACE_")}
    env.update(FURNACE_CONFIG_DIR=str(tmp_path / "config"), FURNACE_DATA_DIR=str(tmp_path / "data"),
               FURNACE_CACHE_DIR=str(tmp_path / "cache"))

    def ended(*args: str) -> str:
        return subprocess.run([sys.executable, "-c", FINALIZED, *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, check=True, timeout=120).stderr

    assert "finalized" not in ended("roll", "1d20+3")
    assert "finalized" not in ended("fight", "examples/funnel-vs-goblins.yaml", "--seed", "1")
    db = str(tmp_path / "campaigns.db")
    for args in (["campaign", "new", "keep"], ["--campaign", "keep", "clock", "advance", "1", "turn"],
                 ["--campaign", "keep", "campaign", "show"]):
        assert "finalized" not in ended("--db", db, *args)       # its store closed as it ended
    left_open = FINALIZED.replace("sys.exit(", f"kept = __import__('furnace.campaign.store').campaign.store.Store("
                                               f"'sqlite:///{db}')\nsys.exit(")
    assert "finalized" in subprocess.run([sys.executable, "-c", left_open, "--db", db, "--campaign", "keep",
                                          "campaign", "show"],
                                         cwd=ROOT, env=env, capture_output=True, text=True, check=True,
                                         timeout=120).stderr

"""Generate docs/rule-options.md from src/furnace/data/options.yaml and the profiles.

Run after changing an option: .venv/bin/python scripts/gen_rule_options_doc.py (a test checks the doc matches)."""
import pathlib

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
opts = yaml.safe_load((ROOT / "src/furnace/data/options.yaml").read_text())["options"]
profiles = {}
for p in sorted((ROOT / "src/furnace/data/profiles").glob("*.yaml")):
    d = yaml.safe_load(p.read_text())
    profiles[d["name"]] = d


KIND = {"int": "a whole number", "table": "a table id", "dice": "a dice expression", "text": "any text"}


def show(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def cell(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


lines = [
    "# Rule options",
    "",
    "Every point where the three documents disagree (RULES.md Section A, `CF-nn`) or are unclear (Section B,",
    "`AMB-nn`) is a named rule option. Its default is RULES.md's recommended reading as revised by the review",
    "decisions `D-1`..`D-12`. The options are declared in `src/furnace/data/options.yaml`; a profile",
    "(`src/furnace/data/profiles/*.yaml`) changes some of them, and a referee's profile file can extend a",
    "built-in one and override any option or table by id. Rules read options, never profile names.",
    "",
    f"{len(opts)} options. Types: `choice` (one of the listed values), `bool`, `int`, `table` (a table id that",
    "must exist in the tables in force), `dice` (a dice expression), `text`.",
    "",
    "## What the built-in profiles change",
    "",
    "| profile | extends | options set |",
    "|---|---|---|",
]
for name, d in profiles.items():
    setting = ", ".join(f"`{k}: {show(v)}`" for k, v in (d.get("options") or {}).items()) or "none (all defaults)"
    lines.append(f"| `{name}` | {d.get('extends') or '-'} | {setting} |")
lines += [
    "",
    "## Every option",
    "",
    "| option | type | default | choices | sources | read by | what each reading means |",
    "|---|---|---|---|---|---|---|",
]
for o in opts:
    choices = ", ".join(f"`{show(c)}`" for c in o.get("choices", [])) if o["type"] == "choice" else (
        "`true`, `false`" if o["type"] == "bool" else KIND[o["type"]])
    lines.append(
        f"| `{o['name']}` | {o['type']} | `{show(o['default'])}` | {choices} | {', '.join(o['sources'])} | "
        f"`{o['read_by']}` | **{cell(o['title'])}.** {cell(o['description'])} |")
lines += [
    "",
    "## Points of RULES.md that are not options",
    "",
    "These items have a single reading the engine simply implements; there is no alternative to switch to.",
    "",
    "| item | why no option |",
    "|---|---|",
    "| CF-05 | \"per Cleric level\" in the Rogue and Magic-user sections is a copy error: hit dice are per level of the class (listed under `magic_user_hit_die`). |",
    "| CF-11 | The fourth death condition (a natural 1 after stabilising) is injury row 1 (AMB-29); the union of both lists is what `death_model: furnace` implements. |",
    "| CF-18 | The magic-item table has four tiers; Common has no Magic Item Die, so \"three tiers\" counts the tiers with dice. Nothing to choose. |",
    "| AMB-29 | \"Natural 1 after getting stabilized\" is the natural 1 on the injury roll, not a separate roll. |",
    "| AMB-30 | The Furnace death threshold is literal: dead at HP <= -(3+LVL+CON), never above 0; part of `death_model: furnace`. |",
    "| AMB-39 | Which ability adds to damage follows the 5e baseline the document's exceptions assume (STR melee, DEX ranged, off-hand none). |",
    "| AMB-44 | Sneak Attack: the auto-crit needs the EASY attack to hit, once per turn; the only reading of the text. |",
    "| AMB-58 | MELEE = CLOSE and the other range words are definitions, not alternatives. |",
    "| AMB-62 | \"STR + 1 chosen\" save proficiency is literal: the class save plus one chosen at level 1. |",
    "| AMB-93 | Broken-bone healing times follow the text (2d4+9 weeks, +1d4 per repeat break, one cure per break). |",
    "| AMB-103 | Middle Sea clerics prepare slots and pick the spell when casting; the only reading in which both sentences hold (inside `middle_sea_magic`). |",
    "| AMB-70, AMB-72, AMB-76, AMB-78, AMB-81 | Hazards procedures with one reading (when the lost roll happens, magical aging, the sleep penalty, the language chance, light bookkeeping); they sit inside the `hazards_*` module switches. |",
    "| D-10 disapproval table | The Furnace disapproval table is written by the project and has no RULES.md table id, so it is not a `table` option; `cleric_natural_1` chooses the rule and the table can be replaced by id. |",
    "",
]
(ROOT / "docs/rule-options.md").write_text("\n".join(lines))
print("wrote", len(opts), "options")

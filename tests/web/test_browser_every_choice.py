"""Every kind of choice asked on the console, in Chromium (issue 23): sunder, rage, Hit Dice on a Lay on Hands, a
once-a-fight power (Chosen one), a helmet's save vs. death on the skull and on the head (luck and cleave:
tests/web/test_browser_questions.py and test_browser_power_questions.py). The fight is set up with entered dice
through the CLI on the served server's database (as tests/cli/test_questions*.py set it up); then the owner's player
sees the card on her own phone (her situation, never a foe's AC, DC or HP), taps an option, and the outcome follows
the rule's numbers (the dice rolled after her tap are the server's: read from the logged facts); the other player's
phone shows no card and his answer is refused (403); a second answer counts once (409)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.web.live_server import Served
from tests.web.test_browser_table import _api, _player

pytestmark = pytest.mark.browser
K = "/api/campaigns/Keep"
EXAMPLES = Path(__file__).parents[2] / "examples" / "characters"
FOES_NUMBERS = re.compile(r"\b(AC|DC)\b")
Cli = Callable[..., dict[str, Any]]


@pytest.fixture
def cli(served: Served, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> Cli:
    """`furnace --db <the served database> --campaign Keep …` in-process; `--json` answers parsed."""
    from furnace.cli.app import main

    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("FURNACE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("FURNACE_CAMPAIGN", raising=False)
    monkeypatch.delenv("FURNACE_DATABASE_URL", raising=False)

    def run(*args: str) -> dict[str, Any]:
        code = main(["--db", str(served.db), "--campaign", "Keep", *args])
        out = capsys.readouterr()
        assert code == 0, out.err
        return json.loads(out.out) if "--json" in args else {"out": out.out}

    return run


def _sheet(folder: Path, name: str, **changes: object) -> str:
    data = {**json.loads((EXAMPLES / f"{name}.json").read_text()), **changes}
    path = folder / f"{name}.json"
    path.write_text(json.dumps(data))
    return str(path)


def _referee(browser: Any, served: Served, profile: str = "furnace") -> Any:
    """The referee signed in, the campaign Keep made under `profile`, her page open."""
    page = browser.new_context(base_url=served.base).new_page()
    page.goto(served.link)
    _api(page, "POST", "/api/campaigns", {"name": "Keep", "profile": profile})
    page.goto("/c/Keep/referee")
    page.wait_for_selector("body[data-live='1']")
    return page


def _post_answer(page: Any, qid: str, answer: str) -> Any:
    token = next((c["value"] for c in page.context.cookies() if c["name"] == "furnace_csrf"), "")
    return page.request.fetch(K + f"/encounter/questions/{qid}", method="POST", data={"answer": answer},
                              headers={"X-CSRF-Token": token})


def _answered_on_her_phone(owner: Any, other: Any, kind: str, title: str, answer: str) -> dict[str, Any]:
    """The open question (the CLI asked it): its card on the owner's phone, told only what she may know; none on
    the other player's phone and his answer refused (403); her tap answers it and a second answer is refused (409).
    Her card's data."""
    from furnace.web.questions import TOLD

    owner.reload()
    owner.wait_for_selector("body[data-live='1']")
    mine = _api(owner, "GET", K + "/encounter/questions")["questions"]
    assert [q["kind"] for q in mine] == [kind], mine
    q = mine[0]
    assert "default" not in q and set(q["about"]) <= TOLD, q          # no standing answer, nothing of the foes
    card = f"#questions [data-question={q['id']}]"
    owner.wait_for_selector(card)
    shown = owner.inner_text(card)
    assert title in shown and not FOES_NUMBERS.search(shown), shown
    other.reload()
    other.wait_for_selector("body[data-live='1']")
    assert other.locator("#questions [data-question]").count() == 0
    assert _api(other, "GET", K + "/encounter/questions")["questions"] == []
    refused = _post_answer(other, q["id"], answer)
    assert refused.status == 403, refused.text()
    with owner.expect_response(lambda r: r.request.method == "POST" and f"/questions/{q['id']}" in r.url) as sent:
        owner.click(f"{card} button[data-answer='{answer}']")          # one tap
    assert sent.value.status == 200, sent.value.text()
    owner.wait_for_selector(card, state="detached")
    again = _post_answer(owner, q["id"], answer)
    assert again.status == 409, again.text()
    return dict(q)


def _combatant(cli: Cli, cid: str) -> dict[str, Any]:
    enc = cli("encounter", "status", "--json")["encounter"]
    return dict(next(c for c in enc["combatants"] if c["id"] == cid))


def _rolls(served: Served, command: str) -> list[Any]:
    """The dice rolled by a logged command (each a RollResult: its expression, faces and total)."""
    from furnace.campaign.store import Store, resolve_url

    events = Store(resolve_url(str(served.db))).events("Keep")
    return [r for e in events if e.command == command and e.fact is not None for r in e.fact.rolls]


def _facts(served: Served, command: str, kind: str) -> list[dict[str, Any]]:
    from furnace.campaign.store import Store, resolve_url

    events = Store(resolve_url(str(served.db))).events("Keep")
    return [dict(e.data) for e in events if e.command == command and e.kind == kind]


def _errors(*pages: Any) -> list[str]:
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


# -- shield sunder (F-EQ-03) ------------------------------------------------------------------------------------
@pytest.mark.rule("F-EQ-03")
def test_F_EQ_03_ann_sunders_her_shield_on_her_phone_and_bo_cannot(browser: Any, served: Served, cli: Cli,
                                                                   tmp_path: Path) -> None:
    referee = _referee(browser, served)
    cli("campaign", "join", _sheet(tmp_path, "brakka"), "--player", "Ann")
    cli("campaign", "join", _sheet(tmp_path, "ilse"), "--player", "Bo")
    ann, bo = _player(browser, referee, served, "Ann"), _player(browser, referee, served, "Bo")
    errors = _errors(ann, bo)
    cli("encounter", "start", "--party", "Brakka", "--monsters", "goblin", "--faces", "5,1,6")   # goblins first
    cli("encounter", "next", "--faces", "18,5")                      # the goblin hits Brakka (AC 14) for 5
    q = _answered_on_her_phone(ann, bo, "sunder", "Sunder your shield?", "yes")
    assert q["about"] == {"amount": 5, "hp": 22, "halved": 3}
    brakka = _combatant(cli, "brak1")
    assert (brakka["hp"], brakka["ac"], brakka["shield"]) == (22 - 3, 14 - 2, False)   # ceil(5 / 2); shield +2
    assert not errors, errors


# -- Rage (F-ARCH-02) -------------------------------------------------------------------------------------------
@pytest.mark.rule("F-ARCH-02")
def test_F_ARCH_02_ann_rages_on_her_phone_and_bo_cannot(browser: Any, served: Served, cli: Cli,
                                                        tmp_path: Path) -> None:
    referee = _referee(browser, served)
    cli("campaign", "join", _sheet(tmp_path, "brakka"), "--player", "Ann")
    cli("campaign", "join", _sheet(tmp_path, "ilse"), "--player", "Bo")
    ann, bo = _player(browser, referee, served, "Ann"), _player(browser, referee, served, "Bo")
    errors = _errors(ann, bo)
    cli("encounter", "start", "--party", "Brakka", "--monsters", "goblin", "--faces", "5,6,1")   # the party first
    cli("encounter", "act", "brak1", "attack", "goblin")             # asked before the ATK is rolled
    q = _answered_on_her_phone(ann, bo, "rage", "Rage?", "yes")
    assert q["about"]["left"] == 1
    raged = _facts(served, "encounter answer q1", "rage")
    assert [(r["bonus"], r["ac_before"], r["ac_after"], r["left"]) for r in raged] == [(2, 14, 12, 0)]   # PROF 2
    brakka = _combatant(cli, "brak1")
    assert (brakka["ac"], brakka["rages_spent"]) == (12, 1)
    rolled = {r.label: r for r in _rolls(served, "encounter answer q1")}     # the server's dice after her tap
    assert rolled["ATK"].total == rolled["ATK"].faces[0] + 3                  # rage leaves the ATK as it was
    if "DAM" in rolled and rolled["ATK"].faces[0] != 20:                      # a plain hit: PROF 2 added to DAM
        dam = rolled["DAM"]
        assert dam.expression == "1d8+1+2" and dam.total == dam.faces[0] + 1 + 2
        assert _combatant(cli, "goblin")["hp"] == 4 - dam.total
    assert not errors, errors


# -- Lay on Hands: the recipient spends her Hit Dice (F-CLR-05) --------------------------------------------------
@pytest.mark.rule("F-CLR-05")
def test_F_CLR_05_ann_spends_brakkas_hit_dice_on_her_phone_and_the_healer_bo_cannot(
        browser: Any, served: Served, cli: Cli, tmp_path: Path) -> None:
    referee = _referee(browser, served)
    cli("campaign", "join", _sheet(tmp_path, "brakka", hp=5), "--player", "Ann")
    cli("campaign", "join", _sheet(tmp_path, "ilse"), "--player", "Bo")
    ann, bo = _player(browser, referee, served, "Ann"), _player(browser, referee, served, "Bo")
    errors = _errors(ann, bo)
    cli("encounter", "start", "--party", "Brakka", "--party", "Sister Ilse", "--monsters", "goblin",
        "--faces", "5,6,1")
    cli("encounter", "act", "brak1", "wait")
    cli("encounter", "act", "sist1", "lay", "brak1", "--faces", "17")   # 17 − 1 + 2 = 18: 2 Hit Dice (F-TAB-06)
    q = _answered_on_her_phone(ann, bo, "hit_dice", "Spend Hit Dice?", "2")
    assert q["owner"] == "brak1" and q["options"] == ["0", "1", "2"], q
    healed = [r for r in _rolls(served, "encounter answer q1") if "d10" in r.expression]
    assert len(healed) == 2                                          # two of her d10 Hit Dice
    cli("encounter", "end")
    brakka = cli("character", "show", "brak1", "--json")["character"]
    assert (brakka["hit_dice"], brakka["healed_today"]) == (3 - 2, 2)
    assert brakka["hp"] == min(22, 5 + sum(r.total for r in healed))
    assert not errors, errors


# -- a once-a-fight power: Chosen one (F-ARCH-03) ----------------------------------------------------------------
@pytest.mark.rule("F-ARCH-03")
def test_F_ARCH_03_ann_uses_chosen_one_on_her_phone_and_bo_cannot(browser: Any, served: Served, cli: Cli,
                                                                  tmp_path: Path) -> None:
    referee = _referee(browser, served)
    cli("campaign", "join", _sheet(tmp_path, "ilse", archetype_features=["martial-weapon", "chosen-one"]),
        "--player", "Ann")
    cli("campaign", "join", _sheet(tmp_path, "brakka"), "--player", "Bo")
    ann, bo = _player(browser, referee, served, "Ann"), _player(browser, referee, served, "Bo")
    errors = _errors(ann, bo)
    cli("encounter", "start", "--party", "Brakka", "--party", "Sister Ilse", "--monsters", "goblin",
        "--faces", "5,6,1")
    cli("encounter", "act", "brak1", "wait")
    cli("encounter", "act", "sist1", "attack", "goblin", "--faces", "3")    # 3 + 4 = 7 misses AC 10
    q = _answered_on_her_phone(ann, bo, "power", "Use your once-a-fight power?", "yes")
    assert q["about"] == {"power": "chosen_one", "roll": "ATK", "total": 7, "natural": 3}
    again = next(r for r in _rolls(served, "encounter answer q1") if r.label == "ATK again")
    assert again.total == again.faces[0] + 4                         # the ATK rolled again: d20 + 4
    used = _facts(served, "encounter answer q1", "power")
    assert [(p["power"], p["before"], p["after"]) for p in used] == [("chosen_one", 7, again.total)]  # it stands
    ilse = _combatant(cli, "sist1")
    assert "chosen-one" not in ilse["powers"]                        # once a fight
    assert not errors, errors


# -- a helmet's save vs. death (Middle Sea: M-BONE-01) ----------------------------------------------------------
@pytest.mark.rule("M-BONE-01")
def test_M_BONE_01_ann_makes_her_helmets_save_on_her_phone_and_bo_cannot(browser: Any, served: Served, cli: Cli,
                                                                         tmp_path: Path) -> None:
    referee = _referee(browser, served, "middle-sea")
    cli("campaign", "join", _sheet(tmp_path, "brakka", hp=3, helmet=True, shield=False), "--player", "Ann")
    cli("campaign", "join", _sheet(tmp_path, "ilse"), "--player", "Bo")
    ann, bo = _player(browser, referee, served, "Ann"), _player(browser, referee, served, "Bo")
    errors = _errors(ann, bo)
    cli("encounter", "start", "--party", "Brakka", "--monsters", "goblin", "--faces", "5,1,6")
    # the goblin's 5 on HP 3: 2 past 0, 3d6 4+4+5 + 2 = 15 a broken bone (M-TAB-01), the d10 10 the skull
    cli("encounter", "next", "--faces", "18,5,4,4,5,10")
    q = _answered_on_her_phone(ann, bo, "helmet", "Make your helmet's save vs. death?", "yes")
    assert q["about"]["location"].lower().startswith("skull"), q
    saves = [r for r in _rolls(served, "encounter answer q1") if r.label.startswith("CON")]
    assert len({(r.label, r.faces, r.total) for r in saves}) == 1
    brakka = _combatant(cli, "brak1")
    if saves[0].total >= 10:                                         # DC 10: saved, the skull is ignored
        assert (brakka["hp"], brakka["held"], brakka["doomed_round"]) == (0, [], None)
    else:                                                            # failed: the fatal wound stands
        assert brakka["doomed_round"] is not None
    assert not errors, errors


@pytest.mark.rule("M-SEVER-01")
def test_M_SEVER_01_ann_makes_her_helmets_save_for_her_head_on_her_phone_and_bo_cannot(
        browser: Any, served: Served, cli: Cli, tmp_path: Path) -> None:
    referee = _referee(browser, served, "middle-sea")
    cli("campaign", "join", _sheet(tmp_path, "brakka", hp=3, helmet=True, shield=False), "--player", "Ann")
    cli("campaign", "join", _sheet(tmp_path, "ilse"), "--player", "Bo")
    ann, bo = _player(browser, referee, served, "Ann"), _player(browser, referee, served, "Bo")
    errors = _errors(ann, bo)
    cli("encounter", "start", "--party", "Brakka", "--monsters", "goblin", "--faces", "5,1,6")
    # the goblin's 5 on HP 3: 3d6 6+6+5 + 2 = 19 a severed limb (M-TAB-01), the d12 11 the head
    cli("encounter", "next", "--faces", "18,5,6,6,5,11")
    q = _answered_on_her_phone(ann, bo, "helmet", "Make your helmet's save vs. death?", "yes")
    assert q["about"]["location"].lower().startswith("head"), q
    saves = [r for r in _rolls(served, "encounter answer q1") if r.label.startswith("CON")]
    assert len({(r.label, r.faces, r.total) for r in saves}) == 1
    brakka = _combatant(cli, "brak1")
    if saves[0].total >= 10:                                         # DC 10: STUNNED instead of death
        assert "STUNNED" in [h["name"] for h in brakka["held"]] and brakka["status"] != "dead", brakka
    else:                                                            # failed: the head is severed
        assert brakka["status"] == "dead", brakka
    assert not errors, errors

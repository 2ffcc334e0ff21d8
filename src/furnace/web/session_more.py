"""The rest of a session from the browser: character sheets (to read, print and download), the campaign's export
and backup as downloads, the recap and the verification of its log, the referee's override files, the bestiary
browser, the quick whole fight, and the odds of an attack and of a dying character.

Each route is a few lines over what the CLI runs, nothing added: `character show` (`render.sheets`, with the line
under the title `render.roster.sheet_note`), `campaign export` and `campaign backup` (`campaign.transfer`'s text of
the file they write), `campaign recap` (`campaign.recap`, `render.recap`), `campaign verify` (`campaign.verify`),
`campaign override add/remove` (`campaign.overrides`), the bestiary's list (`rules.bestiary.listing`, over the
campaign's monster overrides), `fight --party … --monsters …` (`campaign.encounters.fight`, one logged command) and
`odds attack` / `odds dying` (`play.odds`, `render.odds`) under the campaign's rules.

A player reads her own characters' sheets whole; anyone else's only as the roster shows it to her (name, status,
and HP as the table's health setting shows it). A sheet's HTML is the CLI's self-contained document: its answer
carries a Content-Security-Policy that allows its own inline style (by its hash) and nothing else, no script at
all, and lets the console's own page frame it (the sheet panel prints it).
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
from html import escape
from typing import Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import Field

from furnace.campaign import encounters
from furnace.campaign import overrides as referee_files
from furnace.campaign.state import CampaignState, Member
from furnace.errors import FurnaceError
from furnace.web import views
from furnace.web.api import Body, dice_for, run, run_rolled, store_of
from furnace.web.auth import Asker, Caller

router = APIRouter(prefix="/api")
C = "/campaigns/{campaign}"
MAX_ROUNDS = 100                        # as `furnace fight --rounds`
SheetFormat = Literal["html", "markdown", "json"]
SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")


# -- answers that are files -------------------------------------------------------------------------------------
def file_name(name: str, suffix: str) -> str:
    """A download's file name from a campaign's or a character's name: letters, digits, dots, dashes."""
    kept = "".join(ch if ch in SAFE else " " for ch in name)        # a run of anything else becomes one dash
    stem = "-".join(kept.split()).strip(".-")[:80] or "furnace"
    return f"{stem}.{suffix}"


def download(body: str, media_type: str, name: str, suffix: str, *, inline: bool = False) -> Response:
    """A text answer the browser saves as a file (or shows, `inline`), named after `name` (its own spelling too,
    for a name in any script: RFC 6266's filename*)."""
    plain = file_name(name, suffix)
    how = "inline" if inline else "attachment"
    disposition = f"{how}; filename=\"{plain}\"; filename*=UTF-8''{quote(name[:80] + '.' + suffix, safe='')}"
    return Response(body, media_type=media_type, headers={"Content-Disposition": disposition})


def _style_hash() -> str:
    from furnace.render.sheets import CSS

    return "'sha256-" + base64.b64encode(hashlib.sha256(CSS.encode("utf-8")).digest()).decode("ascii") + "'"


def sheet_csp() -> str:
    """The sheet document's policy: its own style (by hash), no script, nothing from elsewhere; framed only by the
    console's own pages."""
    return (f"default-src 'none'; style-src {_style_hash()}; img-src 'self' data:; base-uri 'none'; "
            "form-action 'none'; frame-ancestors 'self'")


# -- sheets -------------------------------------------------------------------------------------------------------
def _whole(member: Member, caller: Caller) -> bool:
    return caller.referee or views.own(member, caller)


def _glimpse(state: CampaignState, member: Member, caller: Caller, request: Request) -> dict[str, Any]:
    """Someone else's character as the roster shows her to the caller: name, player, status, HP as the table's
    health setting shows it (`views.others`)."""
    roster = views.campaign_view(state, caller, store_of(request))["roster"]
    return next(r for r in roster if r["id"] == member.id)


def _glimpse_words(seen: dict[str, Any]) -> str:
    if seen.get("hp") is not None:
        return f"HP {seen['hp']}/{seen['hp_max']}"
    return str(seen.get("health") or "HP not shown")


def _glimpse_markdown(seen: dict[str, Any]) -> str:
    return (f"# {seen['name']}\n\n- **Player:** {seen['player'] or '—'}\n- **Status:** {seen['status']}\n"
            f"- **Health:** {_glimpse_words(seen)}\n")


def _glimpse_html(seen: dict[str, Any]) -> str:
    rows = "".join(f"<dt>{k}</dt><dd>{escape(str(v))}</dd>" for k, v in
                   (("Player", seen["player"] or "—"), ("Status", seen["status"]), ("Health", _glimpse_words(seen))))
    name = escape(seen["name"])
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{name}</title>\n</head>\n'
            f'<body>\n<section class="glimpse" data-name="{name}"><h1>{name}</h1><dl>{rows}</dl></section>\n'
            "</body>\n</html>\n")


@router.get(C + "/characters/{who}/sheet")
def sheet(campaign: str, who: str, request: Request, caller: Asker, format: SheetFormat = "html",
          download_it: bool = Query(False, alias="download")) -> Response:
    """A character's sheet, as `furnace character show WHO` gives it: `html` the printable one-page sheet
    (`--html`; text/html, shown in the page or, with `download=true`, saved), `markdown` the Markdown sheet
    (`--markdown`; text/markdown, saved as NAME.md), `json` the roster member (`--json`). The referee and the
    character's own player get the whole sheet; another player only the name, status and HP as the table's
    health setting shows them (as on the roster)."""
    from furnace.campaign.overrides import campaign_ruleset
    from furnace.render.roster import sheet_note
    from furnace.render.sheets import character_html, character_markdown

    state = store_of(request).open(campaign)
    member = state.member(who)
    c = member.character
    if not _whole(member, caller):
        seen = _glimpse(state, member, caller, request)
        if format == "json":
            return _json(seen)
        if format == "markdown":
            return download(_glimpse_markdown(seen), "text/markdown; charset=utf-8", c.name, "md")
        answer = download(_glimpse_html(seen), "text/html; charset=utf-8", c.name, "html", inline=not download_it)
        answer.headers["Content-Security-Policy"] = sheet_csp()
        answer.headers["X-Frame-Options"] = "SAMEORIGIN"
        return answer
    if format == "json":
        return _json(member.model_dump(mode="json"))
    # her death as she may be told it: the referee's words name what dealt the last blow, perhaps a concealed foe
    rules = campaign_ruleset(state)
    note = sheet_note(member) if caller.referee else sheet_note(member, views.member_view(member, False)["death"])
    if format == "markdown":
        return download(character_markdown(c, rules, note), "text/markdown; charset=utf-8", c.name, "md")
    answer = download(character_html(c, rules, note), "text/html; charset=utf-8", c.name, "html",
                      inline=not download_it)
    answer.headers["Content-Security-Policy"] = sheet_csp()
    answer.headers["X-Frame-Options"] = "SAMEORIGIN"
    return answer


def _json(data: dict[str, Any]) -> Response:
    return JSONResponse(data)


# -- the campaign: export, backup, recap, verify --------------------------------------------------------------------
def scope(request: Request, caller: Caller) -> list[str]:
    """The campaigns the referee's session runs, which a backup holds: the host's every campaign of the console, a
    referee signed in by a referee invite those it named (the one place a download's reach is decided; a
    campaign's own export is refused outside her scope by `auth.guard`)."""
    return caller.runs(store_of(request).names())


@router.get(C + "/export")
def export(campaign: str, request: Request) -> Response:
    """The campaign's whole log, every event with its hash, as `furnace campaign export NAME --out FILE` writes it
    (application/json, saved as NAME.json); `furnace campaign import FILE` reads it back."""
    from furnace.campaign.transfer import export_text

    return download(export_text(store_of(request), campaign), "application/json", campaign, "json")


@router.get("/backup")
def backup(request: Request, caller: Asker) -> Response:
    """The campaigns the referee runs in the portable backup form, as `furnace campaign backup FILE.json` writes it
    (application/json, saved as furnace-backup.json); `furnace campaign restore FILE` reads it into any database."""
    from furnace.campaign.transfer import backup_text

    return download(backup_text(store_of(request), scope(request, caller)), "application/json", "furnace-backup",
                    "json")


@router.get(C + "/recap")
def recap(campaign: str, request: Request, session: int | None = Query(None, ge=1, le=1_000_000)) -> dict[str, Any]:
    """What happened in a session (default: the last begun), as `furnace campaign recap --json` tells it, and its
    words (`text`): time, deaths, injuries, XP, levels."""
    from furnace.campaign.recap import recap as recap_of
    from furnace.render.recap import recap_json, recap_text

    found = recap_of(store_of(request), campaign, session)
    return {**recap_json(found), "text": recap_text(found)}


@router.get(C + "/verify")
def verify(campaign: str, request: Request, deep: bool = False) -> dict[str, Any]:
    """The chain of hashes, the event count and the snapshots checked, as `furnace campaign verify NAME --json`
    (`deep`: each snapshot's state rebuilt from the log too); `ok` false names the problems (`text`)."""
    from furnace.campaign.verify import verify as verify_log

    report = verify_log(store_of(request), campaign, deep=deep)
    return {**dataclasses.asdict(report), "ok": report.ok, "text": report.explain()}


# -- the referee's files --------------------------------------------------------------------------------------------
class OverrideBody(Body):
    text: str = Field(min_length=1, max_length=128 * 1024)
    source: str = Field("override.yaml", min_length=1, max_length=100, pattern=r"^[A-Za-z0-9 ._-]+$")
    kind: Literal["table", "option", "archetype", "spell", "item", "monster", "profile"] | None = None


@router.post(C + "/overrides")
def override_add(campaign: str, body: OverrideBody, request: Request, caller: Asker) -> dict[str, Any]:
    """A referee's file (its YAML text, and the file's name for the log) added to the campaign, as `furnace campaign
    override add FILE [--kind KIND]`: a table replaces the packaged table of its id, a monster joins the bestiary,
    an option file sets options, a profile (without table files) is the campaign's; refused, changing nothing,
    when it does not hold in the campaign. `campaign undo` takes it back."""
    return run(request, caller, campaign, "override add",
               referee_files.adding_text(body.text, body.source, body.kind))


@router.post(C + "/overrides/{key}/remove")
def override_remove(campaign: str, key: str, request: Request, caller: Asker) -> dict[str, Any]:
    """An override removed by its key (`table:F-TAB-36`, `monster:cave-bear`, `set:NAME`), as `furnace campaign
    override remove KEY`: the packaged table, or the profile's value, is back."""
    if len(key) > 200:
        raise FurnaceError("an override's key is at most 200 characters: as the rules panel lists it")
    return run(request, caller, campaign, "override remove", referee_files.removing(key))


# -- the bestiary -------------------------------------------------------------------------------------------------
@router.get(C + "/bestiary")
def bestiary(campaign: str, request: Request, q: str = Query("", max_length=60)) -> dict[str, Any]:
    """The campaign's bestiary (the packaged monsters with its monster overrides laid over them), the list
    docs/monsters.md shows, sorted by name; `q`: only those whose name, id or a tag holds it. Each with where it
    comes from (`source`: packaged, or the referee's file)."""
    from furnace.rules.bestiary import listing, row

    book = encounters.bestiary(store_of(request).open(campaign))
    found = listing(book, q)
    return {"count": len(found), "total": len(book),
            "monsters": [row(m) | {"source": book.source_of(m.id)} for m in found]}


# -- the quick fight, the odds --------------------------------------------------------------------------------------
class FightBody(Body):
    monsters: str = Field(min_length=1, max_length=300)
    party: list[str] = Field(default_factory=list, max_length=50)
    room_dc: int | None = Field(None, ge=1, le=40)
    rounds: int = Field(20, ge=1, le=MAX_ROUNDS)
    faces: str | None = Field(None, max_length=200, pattern=r"^[0-9 ,]*$")


@router.post(C + "/fight")
def fight(campaign: str, body: FightBody, request: Request, caller: Asker) -> dict[str, Any]:
    """A whole fight at once (each side attacks the nearest foe), settled onto the roster in one logged command:
    `furnace --campaign NAME fight --party all --monsters "goblin x4"`. The answer: its events as told to the
    referee, and each member's HP, status and death after it."""
    rng = dice_for(request, caller, campaign, body.faces)
    fn = encounters.fight(body.party or ["all"], rng, monsters=body.monsters, room_dc=body.room_dc, rounds=body.rounds)
    out = run_rolled(request, caller, campaign, "fight", fn, rng)
    state = store_of(request).open(campaign)
    out["roster"] = {k: {"hp": m.character.hp, "status": m.status, "death": m.death.model_dump() if m.death else None}
                     for k, m in state.roster.items()}
    return out


@router.get(C + "/odds/attack")
def odds_attack(campaign: str, request: Request, ac: int = Query(ge=1, le=40),
                atk: str | None = Query(None, max_length=20), damage: str | None = Query(None, max_length=60),
                char_class: str | None = Query(None, max_length=20), level: int = Query(0, ge=0, le=20),
                crit_on: int = Query(20, ge=2, le=20), ranged: bool = False, monster: bool = False,
                who: str | None = Query(None, max_length=100),
                easy: str = Query("", max_length=200), hard: str = Query("", max_length=200),
                unarmed_foe: bool = False) -> dict[str, Any]:
    """The exact odds of one ATK against AC `ac`, as `furnace odds attack` under the campaign's rules: the chance to
    hit and crit, the crit rows for the attacker's level, the damage per attack (F-CRIT-01/02, F-FUMB-01). The
    attacker is a roster member (`who`: her ATK, damage, class, level and crit range) or the numbers given (`atk`
    d20+N, `damage`, `char_class`, `level`, `crit_on`, `ranged`, `monster`); `easy`, `hard`: the reasons it is
    EASY or HARD, separated by commas; `text`: the CLI's words."""
    from furnace.campaign.overrides import campaign_ruleset
    from furnace.play import odds as play_odds
    from furnace.render.odds import attack_json, attack_text

    state = store_of(request).open(campaign)
    rules = campaign_ruleset(state)
    reasons = {k: tuple(w.strip() for w in text.split(",") if w.strip()) for k, text in (("easy", easy),
                                                                                         ("hard", hard))}
    if who:
        from furnace.play.combatant import from_character

        attacker = from_character(state.member(who).character, "party", rules, zone="RANGED" if ranged else "NEAR")
    elif atk is None or damage is None:
        raise FurnaceError("give the attack (d20+N) and its damage dice, or a member of the roster")
    else:
        attacker = play_odds.attacker(play_odds.attack_bonus_of(atk), damage, level=level, char_class=char_class,
                                      crit_on=crit_on, ranged=ranged, monster=monster)
    found = play_odds.attack_odds(attacker, ac, rules, easy=reasons["easy"], hard=reasons["hard"],
                                  foe_armed=not unarmed_foe)
    return {**attack_json(found), "text": attack_text(found, attacker)}


@router.get(C + "/odds/dying")
def odds_dying(campaign: str, request: Request) -> dict[str, Any]:
    """A dying character's chance to get up before her 1d4-turn timer ends (F-DEATH-01), as `furnace odds dying`
    under the campaign's rules; `text`: the CLI's words."""
    from furnace.campaign.overrides import campaign_ruleset
    from furnace.play import odds as play_odds
    from furnace.render.odds import dying_json, dying_text

    found = play_odds.dying_odds(campaign_ruleset(store_of(request).open(campaign)))
    return {**dying_json(found), "text": dying_text(found, play_odds.DYING_TIMER)}


__all__ = ["download", "file_name", "router", "scope", "sheet_csp"]

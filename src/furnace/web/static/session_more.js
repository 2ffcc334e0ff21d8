/* The panels of web.session_more. Sheets (both pages): a character's printable sheet in a frame, printed from it,
   opened as its own page, or saved as Markdown; a player lists only her own. The referee's: the bestiary (search,
   and add a monster to the fight in progress, or to the next fight's list), the quick fight, the odds of an
   attack and of a dying character, the export and the backup as downloads, the recap, the verification of the
   log, and the override files (added from their YAML, removed by their key). Every answer is shown as text. */
"use strict";
(() => {
  const { api, base, el, submit, toast } = Furnace;
  const $ = (id) => document.getElementById(id);
  const referee = document.body.dataset.page === "referee";
  let view = null;

  const sheetUrl = (who, format, save) => base + "/characters/" + encodeURIComponent(who) + "/sheet?format="
    + format + (save ? "&download=true" : "");

  function choices(select, members, first) {
    const chosen = select.value;
    select.replaceChildren(...(first ? [first] : []), ...members.map((m) => el("option",
      { value: m.id, selected: m.id === chosen, text: m.name + (m.status !== "alive" ? " (" + m.status + ")" : "") })));
  }

  function show(current) {
    view = current;
    choices($("sheet-pick").elements.who, referee ? view.roster : view.roster.filter((m) => m.mine));
    if (!referee) return;
    $("export-link").href = base + "/export";
    choices($("odds-attack").elements.who, view.roster.filter((m) => m.status === "alive" || m.status === "dying"),
      el("option", { value: "", text: "the numbers here" }));
  }

  // -- sheets -------------------------------------------------------------------------------------------------------
  submit($("sheet-pick"), async (v) => {
    if (!v.who) { toast("no character to show"); return; }
    const frame = $("sheet-frame");
    frame.src = sheetUrl(v.who, "html", false);
    frame.dataset.who = v.who;
    frame.hidden = false;
    $("sheet-page").href = sheetUrl(v.who, "html", false);
    $("sheet-md").href = sheetUrl(v.who, "markdown", true);
    $("sheet-tools").hidden = false;
  });
  $("sheet-print").addEventListener("click", () => {
    try { $("sheet-frame").contentWindow.print(); } catch (error) { window.print(); }
  });

  if (!referee) {
    api("GET", base).then(show).catch(() => {});
    $("sheet-pick").elements.who.addEventListener("focus", () => api("GET", base).then(show).catch(() => {}));
    return;
  }
  (Furnace.panels = Furnace.panels || []).push(show);

  // -- the bestiary -----------------------------------------------------------------------------------------------
  function fightInProgress() {
    return Boolean(view && view.encounter && !view.encounter.over);
  }

  async function addMonster(m) {
    const count = Number($("bestiary-search").elements.count.value) || 1;
    const listed = m.id + (count > 1 ? " x" + count : "");
    if (fightInProgress()) {
      await api("POST", base + "/encounter/edit/add", { monsters: listed });
      toast(m.name + " joins the fight");
      return;
    }
    for (const form of ["start-fight", "quick-fight"]) {
      const field = $(form) && $(form).elements.monsters;
      if (field) field.value = field.value.trim() ? field.value.trim() + ", " + listed : listed;
    }
    toast(m.name + (count > 1 ? " x" + count : "") + " is on the list of the next fight");
  }

  function monsterCard(m) {
    const stats = "HD " + m.hd + " · HP " + m.hp + " · AC " + m.ac + " · " + m.damage + " · morale " + m.morale
      + " · ROOM DC " + m.room_dc + " · XP " + m.xp + (m.features ? " · " + m.features : "");
    return el("div", { class: "monster", "data-monster": m.id, title: m.description || "" },
      el("div", { class: "what" }, el("strong", { text: m.name }), " ", el("small", { text: m.id }),
        el("div", { class: "stats", text: stats })),
      el("button", { type: "button", text: "Add", "data-add": m.id,
        onclick: () => addMonster(m).catch(() => {}) }));
  }

  async function search(q) {
    const found = await api("GET", base + "/bestiary?q=" + encodeURIComponent(q || ""));
    $("bestiary-count").textContent = found.count + " of " + found.total;
    $("bestiary-list").replaceChildren(...found.monsters.map(monsterCard));
    if (!found.monsters.length) $("bestiary-list").append(el("p", { class: "empty", text: "No monster matches." }));
  }
  submit($("bestiary-search"), (v) => search(v.q));
  search("").catch(() => {});

  // -- the quick fight, the odds ------------------------------------------------------------------------------------
  submit($("quick-fight"), async (v) => {
    $("quick-out").replaceChildren(el("li", { text: "fighting…" }));
    const done = await api("POST", base + "/fight", { monsters: v.monsters, room_dc: v.room_dc,
      rounds: v.rounds || 20 });
    $("quick-out").replaceChildren(...done.events.map((e) => el("li", { class: "event " + e.kind, "data-seq": e.seq },
      e.who ? el("strong", { text: e.who + ": " }) : null, el("span", { text: e.what }))));
  });
  submit($("odds-attack"), async (v) => {
    const query = new URLSearchParams({ ac: String(v.ac || 12) });
    if (v.who) query.set("who", v.who);
    else {
      query.set("atk", v.atk); query.set("damage", v.damage); query.set("level", String(v.level || 0));
      if (v.char_class) query.set("char_class", v.char_class);
    }
    $("odds-out").textContent = (await api("GET", base + "/odds/attack?" + query)).text;
  });
  $("odds-dying").addEventListener("click", () => api("GET", base + "/odds/dying")
    .then((o) => { $("odds-out").textContent = o.text; }).catch(() => {}));

  // -- the campaign ---------------------------------------------------------------------------------------------
  $("recap-show").addEventListener("click", () => api("GET", base + "/recap")
    .then((r) => { $("campaign-out").textContent = r.text; }).catch(() => {}));
  $("verify-show").addEventListener("click", () => api("GET", base + "/verify?deep=" + $("verify-deep").checked)
    .then((r) => { $("campaign-out").textContent = (r.ok ? "✓ " : "✗ ") + r.text; }).catch(() => {}));

  async function showOverrides() {
    const rules = await api("GET", base + "/rules");
    $("override-list").replaceChildren(...rules.overrides.map((x) => el("li", { "data-key": x.key },
      el("code", { text: x.key }), " " + (x.source || "") + " ",
      el("button", { type: "button", text: "remove", onclick: () => api("POST", base + "/overrides/"
        + encodeURIComponent(x.key) + "/remove").then(showOverrides).catch(() => {}) }))));
  }
  const overrideForm = $("override-add");
  overrideForm.elements.file.addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    if (file.size > 131072) { toast("an override file is at most 128 KB"); return; }
    overrideForm.elements.text.value = await file.text();
    overrideForm.elements.source.value = file.name.replace(/[^A-Za-z0-9 ._-]+/g, "-").slice(0, 100);
  });
  submit(overrideForm, async (v) => {
    await api("POST", base + "/overrides", { text: overrideForm.elements.text.value, source: v.source,
      kind: v.kind || null });
    overrideForm.elements.text.value = "";
    await showOverrides();
    await search($("bestiary-search").elements.q.value);
  });
  showOverrides().catch(() => {});
  api("GET", base).then(show).catch(() => {});
})();

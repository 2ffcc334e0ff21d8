/* The referee's console: the party, the funnel and promotion, the fight (what the players see of each monster,
   whose turn, the legal actions as buttons, every open question with a button per answer, the kinds of choice
   the players are asked), dice (hidden or not, and their odds), rest, the clock, undo, invites with their QR
   code, and the live log. Every change is a call to the API; the page never rolls. */
"use strict";
(() => {
  const { api, base, el, roster, encounter, live, submit, toast } = Furnace;
  const $ = (id) => document.getElementById(id);
  let view = null;

  function monsterControls(c) {
    if (c.kind === "pc") return el("td", {});
    const post = (body) => api("POST", base + "/monsters/" + encodeURIComponent(c.id), body);
    const reveal = el("input", { type: "checkbox", checked: c.revealed, title: "revealed to the players",
      onchange: (e) => post({ revealed: e.target.checked }).catch(() => {}) });
    const mask = el("input", { value: c.mask, placeholder: "mask", maxlength: 60, size: 12,
      onchange: (e) => post({ mask: e.target.value }).catch(() => {}) });
    const health = el("select", { onchange: (e) => post({ health: e.target.value }).catch(() => {}) },
      ...["hidden", "word", "exact"].map((h) => el("option", { selected: h === c.health, text: h })));
    return el("td", { class: "secret" }, el("label", {}, reveal, " shown"), " ", mask, " ", health);
  }

  let asked = 0;     // refreshes overlap (a burst of live events): only the newest one's buttons are shown
  async function showActions() {
    const box = $("actions");
    const mine = ++asked;
    if (!view.encounter || view.encounter.over || !view.encounter.due) { box.replaceChildren(); return; }
    // (a refresh may come after the fight has ended: its answer is stale, and the next refresh shows it)
    const menu = await api("GET", base + "/encounter/actions").catch(() => null);
    if (!menu || mine !== asked) return;
    const who = menu.who;
    const buttons = [];
    for (const a of menu.actions) {
      const targets = a.targets.length ? a.targets : [null];
      for (const t of targets) {
        const label = a.kind + (t ? " → " + t : "");
        buttons.push(el("button", { type: "button", disabled: !a.legal, title: a.reason || "", "data-action": a.kind,
          onclick: () => api("POST", base + "/encounter/act", { who, action: a.kind, target: t,
            spell: a.details.length ? a.details[0] : null }).catch(() => {}) , text: label }));
      }
    }
    box.replaceChildren(...buttons);
  }

  async function showQuestions() {
    if (!view.encounter) { $("questions").replaceChildren(); return; }
    const open = await Furnace.questions($("questions"), true).catch(() => null);
    if (open && open.kinds) {
      $("asked-kinds").replaceChildren(...open.kinds.map((k) => el("label", {}, el("input", { type: "checkbox",
        "data-kind": k, checked: !open.quiet.includes(k), onchange: () => {
          const quiet = [...document.querySelectorAll("#asked-kinds input")].filter((i) => !i.checked)
            .map((i) => i.dataset.kind);
          api("POST", base + "/encounter/standing", { quiet }).then(() => toast("asked: " + (open.kinds
            .filter((x) => !quiet.includes(x)).join(", ") || "nothing"))).catch(() => {});
        } }), " " + k)));
    }
  }

  async function refresh() {
    view = await api("GET", base);
    $("clock").textContent = view.clock;
    roster($("roster"), view.roster);
    Furnace.luckAsked($("luck-asked"), view.luck_asked || {}, view.roster);
    encounter($("encounter"), view.encounter, monsterControls);
    $("health").value = view.table.health || "word";
    const promotable = view.roster.filter((m) => m.level === 0 && m.status === "alive");
    $("promote").elements.who.replaceChildren(...promotable.map((m) => el("option", { value: m.id, text: m.name })));
    for (const show of Furnace.panels || []) show(view);
    await showQuestions();
    await showActions();
  }

  submit($("funnel"), (v) => {
    const players = (v.players || "").split(",").map((p) => p.trim()).filter(Boolean);
    return api("POST", base + "/funnel", { players, count: players.length ? null : v.count, per_player: v.per_player });
  });
  submit($("promote"), (v) => api("POST", base + "/promote", { who: v.who, char_class: v.char_class || null,
    archetype: v.archetype || null, name: v.name || null, random: v.random }));
  // her Luck answer given ahead (0-3) or, left empty, asked of her player once the roll is seen (F-LUCK-03)
  submit($("call-roll"), (v) => api("POST", base + "/characters/" + encodeURIComponent(v.who) + "/roll",
    { kind: v.kind, ability: v.ability || null, skill: v.skill || null, dc: v.dc || 12, faces: v.faces || null,
      luck: v.luck === "" ? null : Number(v.luck) }));
  submit($("start-fight"), (v) => api("POST", base + "/encounter", { monsters: v.monsters, room_dc: v.room_dc }));
  submit($("roll"), (v) => api("POST", base + "/roll", { ...v, faces: v.faces || null }));
  submit($("rest"), (v) => api("POST", base + "/rest", { kind: v.kind }));
  submit($("clock-form"), (v) => api("POST", base + "/clock", { amount: v.amount, unit: v.unit }));
  submit($("odds"), async (v) => {
    const odds = await api("GET", base + "/odds?expression=" + encodeURIComponent(v.expression)
      + (v.dc ? "&dc=" + v.dc : ""));
    const top = Math.max(...odds.bars.map((b) => b[1]));
    const bars = odds.bars.map(([total, p]) => {
      const bar = el("span", { class: "bar" + (odds.dc !== null && total >= odds.dc ? " meets" : "") });
      bar.style.width = (100 * p / top).toFixed(1) + "%";
      return el("div", { class: "bar-row" }, el("span", { class: "total", text: total }), bar,
        el("span", { class: "p", text: (100 * p).toFixed(1) + "%" }));
    });
    const chance = odds.p_at_least_dc === null ? "" : "P(total ≥ " + odds.dc + ") = " + (100 * odds.p_at_least_dc).toFixed(1) + "%";
    $("odds-chart").replaceChildren(el("p", { text: odds.expression + " " + chance }), ...bars);
  });
  submit($("invite"), async (v) => {
    const made = await api("POST", base + "/invites", { role: v.role, player: v.player });
    const svg = new DOMParser().parseFromString(made.svg, "image/svg+xml").documentElement;
    $("invite-out").replaceChildren(el("p", {}, "Invite for " + (made.player || made.role) + " (once, "
      + made.hours + " hours): ", el("a", { href: made.url, class: "invite-url", text: made.url })),
      document.importNode(svg, true));
  });
  $("next-turns").addEventListener("click", () => api("POST", base + "/encounter/next").catch(() => {}));
  $("end-fight").addEventListener("click", () => api("POST", base + "/encounter/end").catch(() => {}));
  $("health").addEventListener("change", (e) => api("POST", base + "/table", { health: e.target.value }).catch(() => {}));
  api("GET", "/api/bestiary").then((b) => $("bestiary").replaceChildren(
    ...b.monsters.map((m) => el("option", { value: m.id, text: m.name })))).catch(() => {});
  live(refresh);
})();

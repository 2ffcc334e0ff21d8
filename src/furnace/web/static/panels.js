/* The referee's panels beyond the fight: spells and levels, the rules tables, morale, prompts, the clock (timers,
   light, rations, diseases, with the time each has left), physical dice, and the plot of a planned fight.
   Each is a call to the API; what the server answers is shown as text (never as HTML), the plot as its SVG. */
"use strict";
(() => {
  const { api, base, el, submit, toast } = Furnace;
  const $ = (id) => document.getElementById(id);
  const list = (text) => (text || "").split(",").map((s) => s.trim()).filter(Boolean);
  const options = (select, members) => {
    const chosen = select.value;
    select.replaceChildren(...members.map((m) => el("option", { value: m.id, selected: m.id === chosen, text: m.name })));
  };

  async function showClock() {
    const clock = await api("GET", base + "/clock");
    $("clock-now").textContent = clock.now;
    $("clock-entries").replaceChildren(...clock.entries.map((e) => el("li", { class: "entry " + e.kind },
      el("strong", { text: e.label }), " (" + e.kind + (e.owner ? ", " + e.owner : "") + "): in " + e.left
        + (e.every ? ", every " + e.every : "") + " ",
      el("button", { type: "button", text: "cancel",
        onclick: () => api("POST", base + "/clock/entries/" + e.id + "/cancel").catch(() => {}) }))));
  }

  function show(view) {
    const living = view.roster.filter((m) => m.status === "alive" || m.status === "dying");
    const casters = living.filter((m) => m.spells.length || m.class === "Magic-user" || m.class === "Cleric");
    options($("spell").elements.who, casters);
    options($("level-up").elements.who, living.filter((m) => m.level > 0));
    for (const select of document.querySelectorAll("select.members")) options(select, living);
    $("players-dice").checked = Boolean(view.table.players_dice);
    $("prompts").replaceChildren(...(view.prompts || []).slice().reverse().map((p) => el("li", { class: "event " + p.kind },
      el("span", { class: "seq", text: "[" + p.seq + "] " }), p.who ? el("strong", { text: p.who + ": " }) : null,
      el("span", { text: p.what }))));
    showClock().catch(() => {});
  }
  (Furnace.panels = Furnace.panels || []).push(show);

  submit($("spell"), (v) => api("POST", base + "/characters/" + encodeURIComponent(v.who) + "/cast",
    { spell: v.spell, dc: v.dc || 12, faces: v.faces || null }));
  $("spellcheck").addEventListener("click", () => {
    const v = Furnace.formValues($("spell"));
    api("POST", base + "/characters/" + encodeURIComponent(v.who) + "/roll",
      { kind: "spellcheck", dc: v.dc || 12, faces: v.faces || null }).catch(() => {});
  });
  submit($("level-up"), async (v) => {
    $("level-choices").textContent = "";
    try {
      await api("POST", base + "/characters/" + encodeURIComponent(v.who) + "/level-up",
        { skills: list(v.skills), spells: list(v.spells), archetype: v.archetype || null, random: v.random });
    } catch (error) { $("level-choices").textContent = error.message; throw error; }
  });
  submit($("lookup"), (v) => api("POST", base + "/tables/" + encodeURIComponent(v.name) + "/roll",
    { level: v.level, armor: v.armor || null, hidden: v.hidden, faces: v.faces || null }));
  submit($("morale"), (v) => api("POST", base + "/morale", { room_dc: v.room_dc, value: v.value,
    hidden: v.hidden, faces: v.faces || null }));
  submit($("timer"), (v) => api("POST", base + "/clock/timer", v));
  submit($("light"), (v) => api("POST", base + "/clock/light", { who: v.who, source: v.source }));
  submit($("rations"), (v) => api("POST", base + "/clock/rations", { who: v.who, rations: v.rations }));
  submit($("disease"), (v) => api("POST", base + "/clock/disease", v));
  submit($("plan"), async (v) => {
    $("plan-out").replaceChildren(el("p", { text: "fighting " + v.fights + " times…" }));
    const plan = await api("POST", base + "/simulate", { monsters: v.monsters, fights: v.fights });
    const svg = new DOMParser().parseFromString(plan.svg, "image/svg+xml").documentElement;
    $("plan-out").replaceChildren(el("p", { text: plan.fights + " fights (seed " + plan.seed + "): the party wins "
      + (100 * plan.p_victory).toFixed(0) + "%, everyone dies " + (100 * plan.p_tpk).toFixed(0) + "%" }),
      document.importNode(svg, true));
  });
  $("players-dice").addEventListener("change", (e) => api("POST", base + "/table", { players_dice: e.target.checked })
    .then(() => toast(e.target.checked ? "players may enter their dice" : "players' dice are rolled here"))
    .catch(() => {}));
  api("GET", "/api/spells").then((s) => $("spells").replaceChildren(
    ...s.spells.map((x) => el("option", { value: x.name })))).catch(() => {});
  api("GET", "/api/tables").then((t) => $("lookup").elements.name.replaceChildren(
    ...t.tables.filter((x) => x.roll || x.die_table).map((x) => el("option", { value: x.name, text: x.id + " " + x.title })))).catch(() => {});
})();

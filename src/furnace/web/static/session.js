/* The session's commands on the referee's page (web.session_routes): damage and heal, XP, gear (give, take,
   equip, unequip, the purse, loot, repairs), travel, snuffing a light, the reaction roll, a new character, a new
   name, retiring; and a "show" button on each hidden roll of the log. Each is one call to the API; the page never
   rolls, and what the server answers arrives in the live log. */
"use strict";
(() => {
  const { api, base, el, submit, toast } = Furnace;
  const $ = (id) => document.getElementById(id);
  const list = (text) => (text || "").split(",").map((s) => s.trim()).filter(Boolean);
  const who = (v) => base + "/characters/" + encodeURIComponent(v.who);
  const faces = (v) => v.faces || null;

  function fill(select, members) {
    const chosen = select.value;
    select.replaceChildren(...members.map((m) => el("option", { value: m.id, selected: m.id === chosen,
      text: m.name + " (" + m.id + ")" })));
  }

  async function showLights() {
    const clock = await api("GET", base + "/clock");
    const select = $("snuff").elements.entry;
    const chosen = select.value;
    select.replaceChildren(...clock.entries.filter((e) => e.kind === "light_out").map((e) => el("option",
      { value: e.id, selected: String(e.id) === chosen, text: e.label + " (" + e.left + " left)" })));
  }

  function show(view) {
    const living = view.roster.filter((m) => m.status === "alive" || m.status === "dying");
    for (const select of document.querySelectorAll("select.session-living")) fill(select, living);
    for (const select of document.querySelectorAll("select.session-everyone")) fill(select, view.roster);
    showLights().catch(() => {});
  }
  (Furnace.panels = Furnace.panels || []).push(show);

  const hurt = $("hurt");
  const hurtBody = (v) => ({ amount: v.amount, source: v.source || "the referee", faces: faces(v) });
  submit(hurt, (v) => api("POST", who(v) + "/damage", hurtBody(v)));
  $("heal").addEventListener("click", () => {
    const v = Furnace.formValues(hurt);
    api("POST", who(v) + "/heal", hurtBody(v)).catch(() => {});
  });
  submit($("xp"), (v) => api("POST", base + "/xp", { amount: v.amount, who: list(v.who),
    reason: v.reason || "the referee's award", each: v.each }));

  const gear = $("gear");
  submit(gear, (v) => api("POST", who(v) + "/give", { items: list(v.items) }));
  for (const button of gear.querySelectorAll("[data-gear]")) {
    button.addEventListener("click", async () => {
      const v = Furnace.formValues(gear);
      const verb = button.dataset.gear;
      const items = list(v.items);
      button.disabled = true;
      try {
        if (verb === "take") await api("POST", who(v) + "/take", { items });
        else for (const item of items) await api("POST", who(v) + "/" + verb, verb === "equip"
          ? { item, arm: v.arm || null } : { item });
        if (!items.length) toast("name the items first");
      } catch (error) { /* told in the toast */ } finally { button.disabled = false; }
    });
  }
  submit($("purse"), (v) => api("POST", who(v) + "/purse", { change: v.change }));
  submit($("loot"), (v) => api("POST", base + "/loot", { items: list(v.items), coins: v.coins || 0,
    among: list(v.among) }));
  submit($("repair"), (v) => api("POST", who(v) + "/repair", { item: v.item, days: v.days, cost: v.cost,
    wait: v.wait }));
  submit($("travel"), (v) => api("POST", base + "/travel", { days: v.days, trail: v.trail,
    heading: v.heading || null, faces: faces(v) }));
  submit($("snuff"), (v) => {
    if (!v.entry) { toast("no light is burning"); return Promise.resolve(); }
    return api("POST", base + "/clock/entries/" + encodeURIComponent(v.entry) + "/snuff");
  });
  submit($("reaction"), (v) => api("POST", base + "/reaction", { cha: v.cha || 0, speaker: v.speaker,
    hidden: v.hidden, faces: faces(v) }));
  const listed = (text) => (text ? text.split(",").map((k) => k.trim()).filter(Boolean) : []);
  // what the form leaves empty the dice fill (with "dice fill the rest"), as `furnace character new` does
  submit($("new-character"), (v) => api("POST", base + "/characters", { player: v.player, name: v.name,
    char_class: v.char_class || null, level: v.level || 1, random: v.random, archetype: v.archetype || null,
    race: v.race || null, style: v.style || null, skills: listed(v.skills), save: v.save || null,
    spells: listed(v.spells), swap: v.swap || null, kit: listed(v.kit) }));
  submit($("rename"), (v) => api("POST", who(v) + "/rename", { name: v.name }));
  submit($("retire"), (v) => api("POST", who(v) + "/retire", { reason: v.reason }));

  // a hidden roll in the log gets a button that shows it to the table (POST …/rolls/SEQ/show)
  function showButtons() {
    for (const item of document.querySelectorAll("#log li.hidden:not([data-showable])")) {
      item.dataset.showable = "1";
      item.append(el("button", { type: "button", class: "show-roll", text: "show the table",
        onclick: async (e) => {
          e.target.disabled = true;
          try { await api("POST", base + "/rolls/" + encodeURIComponent(item.dataset.seq) + "/show"); }
          catch (error) { e.target.disabled = false; }
        } }));
    }
  }
  const log = $("log");
  if (log) new MutationObserver(showButtons).observe(log, { childList: true });
  showButtons();
  api("GET", base).then(show).catch(() => {});
})();

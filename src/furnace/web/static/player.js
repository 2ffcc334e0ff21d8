/* A player's page (phone-sized): her characters, buttons for a CHECK, SAVE, ATK or SPELLCHECK rolled on the
   server, her actions when one of hers is due in a fight, a card for each choice the fight asks her (one tap
   answers it), and the public log. */
"use strict";
(() => {
  const { api, base, el, roster, encounter, live } = Furnace;
  const $ = (id) => document.getElementById(id);
  const sheet = $("sheet");

  let asked = 0;     // refreshes overlap (a burst of live events): only the newest one's buttons are shown
  async function showActions(view) {
    const box = $("actions");
    const current = ++asked;
    const enc = view.encounter;
    const mine = view.roster.filter((m) => m.mine).map((m) => m.id);
    if (!enc || enc.over || !enc.due || !mine.includes(enc.due.id)) { box.replaceChildren(); return; }
    // (a refresh may come after the fight has moved on or ended: its answer is stale, and the next refresh shows it)
    const menu = await api("GET", base + "/encounter/actions?who=" + encodeURIComponent(enc.due.id)).catch(() => null);
    if (!menu || current !== asked) return;
    const buttons = [];
    for (const a of menu.actions.filter((x) => x.legal)) {
      const targets = a.targets.length ? a.targets : [null];
      for (const t of targets) {
        const name = t ? ((enc.combatants.find((c) => c.id === t) || {}).name || t) : "";
        buttons.push(el("button", { type: "button", "data-action": a.kind, text: a.kind + (t ? " → " + name : ""),
          onclick: () => api("POST", base + "/encounter/act", { who: menu.who, action: a.kind, target: t,
            spell: a.details.length ? a.details[0] : null }).catch(() => {}) }));
      }
    }
    box.replaceChildren(...buttons);
  }

  async function refresh() {
    const view = await api("GET", base);
    const mine = view.roster.filter((m) => m.mine);
    roster($("mine"), mine);
    const chosen = sheet.elements.who.value;
    sheet.elements.who.replaceChildren(...mine.filter((m) => m.status !== "dead")
      .map((m) => el("option", { value: m.id, selected: m.id === chosen, text: m.name })));
    Furnace.luckAsked($("luck-asked"), view.luck_asked || {}, mine);
    encounter($("encounter"), view.encounter);
    $("faces-label").hidden = !view.players_dice;
    if (view.encounter) await Furnace.questions($("questions"), false).catch(() => {});
    else $("questions").replaceChildren();
    await showActions(view);
  }

  const allowsFaces = () => !$("faces-label").hidden;
  for (const button of document.querySelectorAll("[data-roll]")) {
    button.addEventListener("click", async () => {
      const v = Furnace.formValues(sheet);
      if (!v.who) { Furnace.toast("no character to roll for"); return; }
      button.disabled = true;
      try {
        await api("POST", base + "/characters/" + encodeURIComponent(v.who) + "/roll",
          { kind: button.dataset.roll, ability: v.ability, skill: button.dataset.roll === "check" && v.skill || null,
            dc: v.dc || 12,
            faces: allowsFaces() && v.faces ? v.faces : null });
      } catch (error) { /* told in the toast */ } finally { button.disabled = false; }
    });
  }
  live(refresh);
})();

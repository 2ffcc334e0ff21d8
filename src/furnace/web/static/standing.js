/* The referee's standing answers between fights (`furnace standing`): each player's policy, the kinds of choice not
   asked, the seconds a question waits. Read again only when the roster's players change (a refresh does not undo
   what the referee is choosing), kept by the form's button; what the server answers is shown as text. */
"use strict";
(() => {
  const { api, base, el, toast } = Furnace;
  const $ = (id) => document.getElementById(id);
  let readFor = null;

  async function show(view) {
    const players = [...new Set(view.roster.map((m) => m.player).filter(Boolean))].sort().join(",");
    if (players === readFor) return;
    readFor = players;
    const held = await api("GET", base + "/standing");
    $("standing-players").replaceChildren(...held.players.map((p) => el("label", {}, p + " ", el("select",
      { "data-player": p }, el("option", { value: "", text: "(the default)" }),
      ...Object.keys(held.choices).map((name) => el("option", { value: name, selected: held.policies[p] === name,
        title: held.choices[name], text: name }))))));
    $("standing-kinds").replaceChildren(...held.kinds.map((k) => el("label", { class: "check" },
      el("input", { type: "checkbox", "data-kind": k, checked: held.quiet.includes(k) }), " not asked: " + k)));
    $("standing").elements.seconds.value = held.seconds;
  }
  (Furnace.panels = Furnace.panels || []).push((view) => { show(view).catch(() => { readFor = null; }); });

  $("standing").addEventListener("submit", async (event) => {
    event.preventDefault();
    const policies = {};
    const clear = [];
    for (const select of document.querySelectorAll("#standing-players select")) {
      if (select.value) policies[select.dataset.player] = select.value;
      else clear.push(select.dataset.player);
    }
    const quiet = [...document.querySelectorAll("#standing-kinds input")].filter((i) => i.checked)
      .map((i) => i.dataset.kind);
    const seconds = Number($("standing").elements.seconds.value || 0);
    try {
      await api("POST", base + "/standing", { policies, clear, quiet, seconds });
      toast("standing answers kept");
    } catch (error) { /* told in the toast */ }
  });
})();

/* The referee's panel of the campaign's rules: the profile they come from now, each override (an option set
   here has a button that takes it back), every option in force with where its value comes from, and a form
   that sets one option (`furnace campaign override set NAME=VALUE`). Shown as text, never as HTML. */
"use strict";
(() => {
  const { api, base, el, submit } = Furnace;
  const $ = (id) => document.getElementById(id);
  const words = (value) => value === null ? "none" : Array.isArray(value) ? value.join(", ") : String(value);

  async function showRules() {
    const rules = await api("GET", base + "/rules");
    $("rules-profile").textContent = "profile " + rules.profile
      + (rules.profile_override ? " (" + rules.profile_override + "; begun under " + rules.began + ")" : "");
    $("rule-overrides").replaceChildren(...rules.overrides.map((o) => el("li", { class: "entry" },
      el("strong", { text: o.key }), o.kind === "set" ? " = " + words(o.value) + " " : (o.source ? " (" + o.source + ") " : " "),
      o.kind === "set" ? el("button", { type: "button", text: "take back",
        onclick: () => api("POST", base + "/rules/" + encodeURIComponent(o.id) + "/unset").catch(() => {}) }) : null)));
    $("rule-names").replaceChildren(...rules.options.map((o) => el("option", { value: o.name, text: o.title })));
    $("rule-options").tBodies[0].replaceChildren(...rules.options.map((o) => el("tr", {},
      el("td", { text: o.name, title: o.title }), el("td", { text: words(o.value) }), el("td", { text: o.source }))));
  }

  (Furnace.panels = Furnace.panels || []).push(() => showRules().catch(() => {}));
  submit($("rule-set"), (v) => api("POST", base + "/rules", { option: v.option, value: v.value }));
})();

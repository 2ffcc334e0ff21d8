/* The referee's list of campaigns, and a new one. */
"use strict";
(() => {
  const { api, el, submit } = Furnace;
  async function load() {
    const data = await api("GET", "/api/campaigns");
    const list = document.getElementById("campaigns");
    list.replaceChildren(...data.campaigns.map((name) =>
      el("li", {}, el("a", { href: "/c/" + encodeURIComponent(name) + "/referee", text: name }))));
    if (!data.campaigns.length) list.append(el("li", { class: "empty", text: "No campaign yet." }));
  }
  submit(document.getElementById("new-campaign"), async (values) => {
    const made = await api("POST", "/api/campaigns", values);
    window.location.assign("/c/" + encodeURIComponent(made.name) + "/referee");
  });
  load();
})();

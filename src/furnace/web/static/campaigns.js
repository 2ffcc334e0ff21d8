/* The referee's list of campaigns (those she runs: the host's every one), a new one (the host's alone), and a
   referee's invite naming some of them. */
"use strict";
(() => {
  const { api, el, submit } = Furnace;
  const $ = (id) => document.getElementById(id);

  async function load() {
    const data = await api("GET", "/api/campaigns");
    const list = $("campaigns");
    list.replaceChildren(...data.campaigns.map((name) =>
      el("li", {}, el("a", { href: "/c/" + encodeURIComponent(name) + "/referee", text: name }))));
    if (!data.campaigns.length) list.append(el("li", { class: "empty", text: "No campaign yet." }));
    $("referee-invite-campaigns").replaceChildren(el("legend", { text: "Campaigns" }), ...data.campaigns.map((name) =>
      el("label", {}, el("input", { type: "checkbox", class: "scope", value: name }), " " + name)));
  }

  const made = $("new-campaign");
  if (made) {
    submit(made, async (values) => {
      const answer = await api("POST", "/api/campaigns", values);
      window.location.assign("/c/" + encodeURIComponent(answer.name) + "/referee");
    });
  }
  submit($("referee-invite"), async (values) => {
    const campaigns = [...document.querySelectorAll("#referee-invite-campaigns input.scope:checked")]
      .map((box) => box.value);
    const answer = await api("POST", "/api/referee-invites", { campaigns, minutes: values.minutes || 60 });
    const svg = new DOMParser().parseFromString(answer.svg, "image/svg+xml").documentElement;
    $("referee-invite-out").replaceChildren(el("p", {}, "Referee's invite to " + answer.campaigns.join(", ")
      + " (once, within " + answer.minutes + " minutes): ",
      el("a", { href: answer.url, class: "invite-url", text: answer.url })), document.importNode(svg, true));
  });
  load().catch(() => {});
  for (const show of Furnace.panels || []) show();
})();

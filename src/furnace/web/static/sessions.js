/* Who is signed in, on the referee's pages: the live sessions she oversees (the host every one: the referees',
   the players', the observers'; a referee of some campaigns her own and theirs), each with a button that ends it
   at once; ending her own signs this browser out. */
"use strict";
(() => {
  const { api, el } = Furnace;
  const box = document.getElementById("sessions");

  function who(s) {
    if (s.role === "referee") return s.host ? "host" : "referee of " + s.campaigns.join(", ");
    return s.role + (s.player ? " " + s.player : "") + (s.campaign ? " (" + s.campaign + ")" : "");
  }

  function row(s) {
    const end = el("button", { type: "button", "data-session": s.id, text: s.yours ? "Sign out" : "End",
      onclick: () => api("POST", "/api/sessions/" + s.id + "/revoke")
        .then(() => (s.yours ? window.location.assign("/") : show())).catch(() => {}) });
    return el("li", { "data-session": s.id },
      el("span", { class: s.yours ? "yours" : "" , text: who(s) + (s.yours ? " — this browser" : "")
        + " · since " + s.since.slice(0, 16).replace("T", " ") }), end);
  }

  async function show() {
    const listed = await api("GET", "/api/sessions");
    box.replaceChildren(...listed.sessions.map(row));
  }

  Furnace.panels = [...(Furnace.panels || []), () => { show().catch(() => {}); }];
})();

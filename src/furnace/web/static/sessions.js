/* Who is signed in, on the referee's page: every live session (the referees', the players', the observers'),
   each with a button that ends it at once; ending her own signs this browser out. */
"use strict";
(() => {
  const { api, el } = Furnace;
  const box = document.getElementById("sessions");

  function row(s) {
    const who = s.role === "referee" ? "referee" : s.role + (s.player ? " " + s.player : "")
      + (s.campaign ? " (" + s.campaign + ")" : "");
    const end = el("button", { type: "button", "data-session": s.id, text: s.yours ? "Sign out" : "End",
      onclick: () => api("POST", "/api/sessions/" + s.id + "/revoke")
        .then(() => (s.yours ? window.location.assign("/") : show())).catch(() => {}) });
    return el("li", { "data-session": s.id },
      el("span", { class: s.yours ? "yours" : "" , text: who + (s.yours ? " — this browser" : "")
        + " · since " + s.since.slice(0, 16).replace("T", " ") }), end);
  }

  async function show() {
    const listed = await api("GET", "/api/sessions");
    box.replaceChildren(...listed.sessions.map(row));
  }

  Furnace.panels = [...(Furnace.panels || []), () => { show().catch(() => {}); }];
})();

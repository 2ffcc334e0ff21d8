/* The table display (a TV everyone sees): initiative, whose turn, the party, the public log. Read only. */
"use strict";
(() => {
  const { api, base, roster, encounter, live } = Furnace;
  async function refresh() {
    const view = await api("GET", base);
    document.getElementById("clock").textContent = view.clock;
    roster(document.getElementById("roster"), view.roster);
    encounter(document.getElementById("encounter"), view.encounter);
  }
  live(refresh);
})();

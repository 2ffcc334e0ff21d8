/* Using an invite: only when the button is pressed (a link previewer does not spend it). */
"use strict";
(() => {
  const button = document.getElementById("join");
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const joined = await Furnace.api("POST", "/api/join", { token: button.dataset.token });
      window.location.assign("/c/" + encodeURIComponent(joined.campaign) + (joined.role === "player" ? "/player" : "/table"));
    } catch (error) { button.disabled = false; }
  });
})();

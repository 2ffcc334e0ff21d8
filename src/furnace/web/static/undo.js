/* Undo and redo on the referee's page: each button names the command it would reverse, with its id, and posts
   that id; when another command came in between (a player's roll), the server refuses and the buttons show
   what is on top now. */
"use strict";
(() => {
  const { api, base, toast } = Furnace;
  const undo = document.getElementById("undo");
  const redo = document.getElementById("redo");
  let shown = { undo: null, redo: null };

  function label(button, what, step) {
    button.hidden = what === "redo" && !step;
    button.disabled = !step;
    button.dataset.command = step ? String(step.command) : "";
    button.textContent = step ? (what === "undo" ? "Undo " : "Redo ") + step.said : "Nothing to undo";
  }

  async function look() {
    shown = await api("GET", base + "/undo");
    label(undo, "undo", shown.undo);
    label(redo, "redo", shown.redo);
  }

  function reverse(what) {
    const step = shown[what];
    if (!step) return;
    api("POST", base + "/" + what, { command: step.command })
      .then((done) => { toast(what === "undo" ? "undone: " + step.said : "put back: " + step.said);
        shown = done; label(undo, "undo", done.undo); label(redo, "redo", done.redo); })
      .catch(() => look().catch(() => {}));
  }

  undo.addEventListener("click", () => reverse("undo"));
  redo.addEventListener("click", () => reverse("redo"));
  Furnace.panels = [...(Furnace.panels || []), () => { look().catch(() => {}); }];
})();

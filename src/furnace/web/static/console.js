/* The console's shared helpers: the API with its CSRF header, safe element building (text only, never HTML),
   the roster, the fight and the live log (Server-Sent Events, resumed by the browser with Last-Event-ID). */
"use strict";

const Furnace = (() => {
  const campaign = document.body.dataset.campaign || "";
  const base = campaign ? "/api/campaigns/" + encodeURIComponent(campaign) : "";

  function cookie(name) {
    const found = document.cookie.split("; ").find((c) => c.startsWith(name + "="));
    return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
  }

  function toast(message) {
    const box = document.getElementById("toast");
    if (!box) return;
    box.textContent = message;
    box.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { box.hidden = true; }, 6000);
  }

  async function api(method, path, body) {
    const options = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
    if (method !== "GET") {
      options.headers["Content-Type"] = "application/json";
      options.headers["X-CSRF-Token"] = cookie("furnace_csrf");
      options.body = JSON.stringify(body || {});
    }
    const response = await fetch(path, options);
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      const message = data.error || (Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ") : "")
        || ("the server answered " + response.status);
      toast(message);
      throw new Error(message);
    }
    return data;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function hpBar(hp, max) {
    const top = Math.max(1, max || 1);
    return el("meter", { min: 0, max: top, low: top / 4 + 0.01, high: top / 2, optimum: top,
                         value: Math.max(0, hp), title: "HP " + hp + "/" + max });
  }

  function formValues(form) {
    const out = {};
    for (const field of form.elements) {
      if (!field.name) continue;
      if (field.type === "checkbox") out[field.name] = field.checked;
      else if (field.type === "number") out[field.name] = field.value === "" ? null : Number(field.value);
      else out[field.name] = field.value.trim();
    }
    return out;
  }

  function member(m) {
    const bits = [m.class ? "level " + m.level + " " + m.class : "", m.player ? "(" + m.player + ")" : "",
                  m.status !== "alive" ? m.status : ""].filter(Boolean).join(" ");
    const card = el("div", { class: "member " + m.status, "data-id": m.id },
      el("div", { class: "name" }, el("strong", { text: m.name }), " ", el("small", { text: m.id + " " + bits })),
      m.hp === null || m.hp === undefined ? el("div", { class: "hp", text: m.health || "" })
        : el("div", { class: "hp" }, hpBar(m.hp, m.hp_max), " HP " + m.hp + "/" + m.hp_max));
    const notes = [];
    if (m.conditions && m.conditions.length) notes.push("conditions: " + m.conditions.join(", "));
    if (m.injuries && m.injuries.length) notes.push("injuries: " + m.injuries.join(", "));
    if (m.luck_dice) notes.push("Luck Dice: " + m.luck_dice);
    if (m.death) notes.push("died: " + m.death);
    if (notes.length) card.append(el("div", { class: "notes", text: notes.join(" · ") }));
    return card;
  }

  function roster(box, members) {
    box.replaceChildren(...members.map(member));
    if (!members.length) box.append(el("p", { class: "empty", text: "No one yet." }));
  }

  function fighter(c, due, extra) {
    const hp = c.hp === null || c.hp === undefined ? el("span", { class: "health", text: c.health || "" })
      : el("span", {}, hpBar(c.hp, c.hp_max), " " + c.hp + "/" + c.hp_max);
    const row = el("tr", { class: (c.id === due ? "due " : "") + c.status, "data-id": c.id },
      el("td", { text: c.id === due ? "▶" : "" }), el("td", { text: c.name }), el("td", { text: c.side }),
      el("td", {}, hp), el("td", { class: "state", text: c.zone + " · " + c.status
        + (c.status === "dying" && c.dying_turns !== null && c.dying_turns !== undefined
          ? " (" + c.dying_turns + " turn(s) left)" : "") }),
      el("td", { text: (c.conditions || []).join(", ") }));
    if (extra) row.append(extra);
    return row;
  }

  function encounter(box, enc, extra) {
    if (!enc) { box.replaceChildren(el("p", { class: "empty", text: "No fight in progress." })); return; }
    const due = enc.due && typeof enc.due === "object" ? enc.due.id : enc.due;
    const dueName = enc.due && typeof enc.due === "object" ? enc.due.name
      : (enc.combatants.find((c) => c.id === enc.due) || {}).name;
    const head = el("p", { class: "round" }, el("strong", { text: enc.name }), " — round " + enc.round + ". ",
      enc.over ? "Over: " + (enc.winner || "no one") + " stands." : "Due: " + (dueName || "no one") + ".");
    const table = el("table", { class: "fight" }, el("tbody", {},
      ...enc.combatants.map((c) => fighter(c, due, extra ? extra(c) : null))));
    box.replaceChildren(head, table);
  }

  function logItem(e) {
    const item = el("li", { class: "event " + e.kind + (e.hidden ? " hidden" : ""), "data-seq": e.seq },
      el("span", { class: "seq", text: "[" + e.seq + "] " }), e.hidden ? el("em", { text: "referee only: " }) : null,
      e.who ? el("strong", { text: e.who + ": " }) : null, el("span", { class: "what", text: e.what }),
      e.entered ? el("em", { class: "entered", text: " (faces entered)" }) : null);
    if (e.rolls && e.rolls.length) item.append(el("div", { class: "rolls", text: e.rolls.join("\n") }));
    return item;
  }

  const seen = new Set();
  function addEvent(e) {
    if (seen.has(e.seq)) return;
    seen.add(e.seq);
    const list = document.getElementById("log");
    if (list) list.prepend(logItem(e));
    document.body.dataset.lastSeq = String(Math.max(Number(document.body.dataset.lastSeq || 0), e.seq));
  }

  let pending = null;
  function soon(fn) {
    clearTimeout(pending);
    pending = setTimeout(fn, 120);
  }

  async function live(refresh) {
    const past = await api("GET", base + "/log?limit=200");
    past.events.forEach(addEvent);
    const since = past.events.length ? past.events[past.events.length - 1].seq : 0;
    const status = document.getElementById("status");
    const source = new EventSource(base + "/live?since=" + since);
    source.addEventListener("open", () => { status.textContent = "live"; document.body.dataset.live = "1"; });
    source.addEventListener("error", () => { status.textContent = "reconnecting…"; document.body.dataset.live = "0"; });
    source.addEventListener("log", (message) => { addEvent(JSON.parse(message.data)); soon(refresh); });
    source.addEventListener("table", () => soon(refresh));
    source.addEventListener("signed-out", () => { source.close(); status.textContent = "signed out"; });
    Furnace.source = source;
    await refresh();
  }

  function submit(form, handler) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = form.querySelector("button[type=submit]");
      if (button) button.disabled = true;
      try { await handler(formValues(form)); } catch (error) { /* told in the toast */ }
      finally { if (button) button.disabled = false; }
    });
  }

  const signout = document.getElementById("signout");
  if (signout) {
    signout.addEventListener("click", () => api("POST", "/api/signout")
      .then(() => { window.location.assign("/"); }).catch(() => {}));
  }

  // A question the fight waits on, as a card: who chooses what, what she may know, one button per option. Each
  // answer names the question's id; the buttons are disabled at the first tap (the server counts an id once).
  const CHOICE = { luck: "Spend Luck Dice?", sunder: "Sunder your shield?", rage: "Rage?", hit_dice: "Spend Hit Dice?",
                   cleave: "Cleave into another foe?", power: "Use your once-a-fight power?",
                   helmet: "Make your helmet's save vs. death?" };
  const ABOUT = { roll: "roll", total: "total", natural: "die", held: "Luck Dice held", amount: "damage",
                  halved: "sundered", hp: "HP", left: "Rages left", allowed: "up to", pool: "Hit Dice held",
                  killed: "killed", overflow: "damage left", power: "power", location: "wound", text: "",
                  faces: "damage dice", ones: "1s", weapon: "weapon", ally: "ally", foe: "attacker" };
  // a fighting style asked as a power (F-FTR-04, AMB-45): its own question
  const STYLE = { two_handed: "Roll your 1s again (2H weapon master)?",
                  protection: "Make this ATK on your ally HARD (Protection, once a fight)?" };
  function questionCard(q, referee) {
    const facts = Object.entries(q.about || {}).filter(([k]) => k in ABOUT)
      .map(([k, v]) => (ABOUT[k] ? ABOUT[k] + " " : "") + v).join(", ");
    const whom = (q.about && (q.about.foes || q.about.allies)) || {};     // a pick's options are ids: shown by name
    const buttons = q.options.map((option) => el("button", { type: "button", "data-answer": option,
      text: (whom[option] || option) + (referee && option === q.default ? " (standing)" : ""),
      onclick: async (e) => {
        for (const b of e.target.parentNode.querySelectorAll("button")) b.disabled = true;
        const card = e.target.closest("[data-question]");
        try {
          await api("POST", base + "/encounter/questions/" + encodeURIComponent(q.id), { answer: option });
          card.remove();         // answered: the card goes now, not at the live feed's next refresh
        } catch (error) { for (const b of e.target.parentNode.querySelectorAll("button")) b.disabled = false; }
      } }));
    return el("div", { class: "question " + q.kind, "data-question": q.id },
      el("div", {}, el("strong", { text: q.name + ": " + ((q.about && STYLE[q.about.power]) || CHOICE[q.kind] || q.kind) }), " ",
        el("small", { text: q.id + (q.rules && q.rules.length ? " · " + q.rules.join(", ") : "") })),
      facts ? el("div", { class: "about", text: facts }) : null,
      el("div", { class: "buttons" }, ...buttons));
  }

  let questionsAsked = 0;    // refreshes overlap: only the newest one's cards are shown
  async function questions(box, referee) {
    const current = ++questionsAsked;
    const open = await api("GET", base + "/encounter/questions");
    if (current !== questionsAsked) return open;
    const shown = new Set(open.questions.map((q) => q.id));
    const kept = [...box.querySelectorAll("[data-question]")].filter((c) => shown.has(c.dataset.question));
    const have = new Set(kept.map((c) => c.dataset.question));    // a card already shown keeps its state
    box.replaceChildren(...kept, ...open.questions.filter((q) => !have.has(q.id)).map((q) => questionCard(q, referee)));
    return open;
  }

  // a roll from a sheet that waits for her Luck Dice (F-LUCK-03, out of a fight): one button per number she may
  // spend, on her phone and on the referee's page (who may answer for her)
  function luckAsked(box, asked, members) {
    box.replaceChildren(...Object.entries(asked).map(([id, held]) => {
      const name = (members.find((m) => m.id === id) || {}).name || id;
      const spend = (n) => el("button", { type: "button", "data-luck": String(n),
        text: n === 0 ? "No Luck" : "Spend " + n, onclick: (e) => {
          e.target.disabled = true;
          api("POST", base + "/characters/" + encodeURIComponent(id) + "/luck", { dice: n })
            .catch(() => { e.target.disabled = false; });
        } });
      return el("div", { class: "question luck-asked", "data-member": id },
        el("p", { text: "Spend Luck Dice on " + name + "'s roll? (" + held + " held)" }),
        el("div", { class: "buttons" }, ...Array.from({ length: held + 1 }, (_, n) => spend(n))));
    }));
  }

  return { campaign, base, api, el, hpBar, roster, encounter, live, submit, toast, addEvent, formValues, questions,
    luckAsked };
})();

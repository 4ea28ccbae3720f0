// spyhouse: small plain JavaScript, no build step. Pages work without it.
// 1. Countdowns: <span class="countdown" data-deadline="ISO time">.
// 2. Check as you type: forms with data-check (every game's order form).
// 3. Selects marked "autosubmit" (past turn reports) submit their form on change.
// A game's own scripts live in its static folder (/static/<game>/...).
"use strict";

function formatLeft(ms) {
  if (ms <= 0) return "deadline passed: the turn is being processed";
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60), sec = s % 60;
  const parts = [];
  if (d) parts.push(d + "d");
  if (d || h) parts.push(h + "h");
  parts.push(m + "m");
  if (!d) parts.push(sec + "s");
  return parts.join(" ") + " left";
}

function startCountdowns() {
  const items = document.querySelectorAll(".countdown[data-deadline]");
  if (!items.length) return;
  const tick = () => {
    for (const el of items) {
      const when = Date.parse(el.dataset.deadline);
      if (!isNaN(when)) {
        el.textContent = formatLeft(when - Date.now());
        el.title = "local time: " + new Date(when).toLocaleString();
      }
    }
  };
  tick();
  setInterval(tick, 1000);
}

// Check as you type, for every game's order form: a form with data-check="URL" is
// posted there (nothing is saved) a moment after each change; the answer's "places"
// (place key -> messages) are shown in the elements [data-place="KEY"] of the form
// (their .check-messages child if they have one), the key "" at the top of the form.
function setupChecks() {
  for (const form of document.querySelectorAll("form[data-check]")) {
    let timer = null;
    let asked = 0;
    const show = (answer) => {
      for (const old of form.querySelectorAll(".check-message")) old.remove();
      for (const el of form.querySelectorAll("[data-place].has-error")) el.classList.remove("has-error");
      const places = answer.places || {};
      for (const key of Object.keys(places)) {
        let target = form.querySelector('[data-place="' + CSS.escape(key) + '"]');
        if (!target) target = form.querySelector('[data-place=""]');
        if (!target) continue;
        if (key) target.classList.add("has-error");
        const box = target.querySelector(".check-messages") || target;
        for (const text of places[key]) {
          const item = document.createElement("span");
          item.className = "error check-message";
          item.textContent = text;
          box.appendChild(item);
        }
      }
      const status = form.querySelector(".check-status");
      if (status) status.textContent = answer.ok ? "These orders would be accepted." :
        (answer.messages || []).length + " problem(s): nothing is saved until they are fixed.";
      form.dataset.checked = answer.ok ? "ok" : "refused";
    };
    const check = () => {
      const mine = ++asked;
      fetch(form.dataset.check, {method: "POST", body: new FormData(form),
                                 credentials: "same-origin",
                                 headers: {"Accept": "application/json"}})
        .then((r) => (r.ok ? r.json() : null))
        .then((answer) => { if (answer && mine === asked) show(answer); })
        .catch(() => { /* the server checks again on saving */ });
    };
    const later = () => {
      delete form.dataset.checked;
      clearTimeout(timer);
      timer = setTimeout(check, 300);
    };
    form.addEventListener("input", later);
    form.addEventListener("change", later);
  }
}

function setupAutosubmit() {
  for (const select of document.querySelectorAll("select.autosubmit")) {
    select.addEventListener("change", () => select.form.submit());
  }
}

document.addEventListener("DOMContentLoaded", () => {
  startCountdowns();
  setupAutosubmit();
  setupChecks();
});

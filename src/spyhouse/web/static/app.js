// spyhouse: small plain JavaScript, no build step. Pages work without it.
// 1. Times: <time data-local> (written in UTC by the server for a reader who chose no
//    time zone) is rewritten in the browser's zone; countdowns
//    <span class="countdown" data-deadline="ISO time"> say "in 2 h 14 min" (web/times.py).
// 2. Check as you type: forms with data-check (every game's order form).
// 3. Selects marked "autosubmit" (past turn reports) submit their form on change.
// A game's own scripts live in its static folder (/static/<game>/...).
"use strict";

// The words of web/times.py (left_text, FORMAT): the page reads the same before and
// after the script.
function formatLeft(ms) {
  if (ms <= 0) return "processing…";
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60), sec = s % 60;
  if (d) return "in " + d + " d " + h + " h";
  if (h) return "in " + h + " h " + m + " min";
  if (m) return "in " + m + " min " + sec + " s";
  return "in " + sec + " s";
}

// In the account's zone (<html data-time-zone>, as the server wrote the page), else the
// browser's: a time written later (live.js's new deadline) reads like the others.
function formatMoment(date) {
  const parts = {};
  const format = new Intl.DateTimeFormat("en-GB", {
    weekday: "short", day: "2-digit", month: "short", year: "numeric",
    hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short",
    timeZone: document.documentElement.dataset.timeZone || undefined});
  for (const part of format.formatToParts(date)) parts[part.type] = part.value;
  return parts.weekday + " " + parts.day + " " + parts.month + " " + parts.year + " " +
    parts.hour + ":" + parts.minute + " " + parts.timeZoneName;
}

function localTimes() {
  for (const el of document.querySelectorAll("time[data-local][datetime]")) {
    const when = Date.parse(el.getAttribute("datetime"));
    if (isNaN(when)) continue;
    try {
      el.textContent = formatMoment(new Date(when));
      el.dataset.local = "done";
    } catch (e) { /* an old browser: the server's UTC stays */ }
  }
}

// The account page names the browser's zone, the one "my browser's time zone" means.
function browserZone() {
  for (const el of document.querySelectorAll("[data-browser-zone]")) {
    try {
      el.querySelector("strong").textContent = Intl.DateTimeFormat().resolvedOptions().timeZone;
      el.hidden = false;
    } catch (e) { /* stays hidden */ }
  }
}

function startCountdowns() {
  const items = document.querySelectorAll(".countdown[data-deadline]");
  if (!items.length) return;
  const tick = () => {
    for (const el of items) {
      const when = Date.parse(el.dataset.deadline);
      if (!isNaN(when)) el.textContent = formatLeft(when - Date.now());
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
  localTimes();
  browserZone();
  startCountdowns();
  setupAutosubmit();
  setupChecks();
});

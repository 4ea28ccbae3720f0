// spyhouse: small plain JavaScript, no build step. Pages work without it.
// 1. Countdowns: <span class="countdown" data-deadline="ISO time">.
// 2. The order form: grey out parameters a task does not take; fill rows by clicking.
// 3. Selects marked "autosubmit" (past turn reports) submit their form on change.
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

function setupOrderForm() {
  const form = document.getElementById("orders");
  if (!form) return;
  const takesRegion = new Set((form.dataset.takesRegion || "").split(" "));
  const takesBrotherhood = new Set((form.dataset.takesBrotherhood || "").split(" "));
  const rows = Array.from(form.querySelectorAll("tr.spy-row"));

  const refresh = (row) => {
    const task = row.querySelector("select.task").value.toUpperCase();
    for (const radio of row.querySelectorAll(".region-choice input")) {
      radio.disabled = !!task && !takesRegion.has(task);
    }
    const b = row.querySelector("select.brotherhood");
    if (b) b.disabled = !takesBrotherhood.has(task);
    const f = row.querySelector("select.follow");
    if (f) f.disabled = task !== "FOLLOW";
  };
  const setRow = (row, task, region) => {
    const select = row.querySelector("select.task");
    if (![...select.options].some((o) => o.value === task)) return;
    select.value = task;
    const radio = row.querySelector('.region-choice input[value="' + region + '"]');
    if (radio && takesRegion.has(task)) radio.checked = true;
    refresh(row);
  };
  for (const row of rows) {
    row.querySelector("select.task").addEventListener("change", () => refresh(row));
    refresh(row);
  }
  const bar = form.querySelector(".fill");
  if (!bar) return;
  bar.hidden = false;
  const task = () => bar.querySelector(".fill-task").value;
  const region = () => bar.querySelector(".fill-region").value;
  bar.querySelector(".fill-empty").addEventListener("click", () => {
    for (const row of rows) {
      if (!row.querySelector("select.task").value) setRow(row, task(), region());
    }
  });
  bar.querySelector(".fill-all").addEventListener("click", () => {
    for (const row of rows) setRow(row, task(), region());
  });
  bar.querySelector(".fill-clear").addEventListener("click", () => {
    for (const row of rows) {
      row.querySelector("select.task").value = "";
      const none = row.querySelector('.region-choice input[value=""]');
      if (none) none.checked = true;
      refresh(row);
    }
  });
  // Clicking a spy's number copies the row above into it (quick repeat of an order).
  rows.forEach((row, i) => {
    if (i === 0) return;
    const head = row.querySelector("th");
    head.title = "click: copy the order of the row above";
    head.style.cursor = "copy";
    head.addEventListener("click", () => {
      const above = rows[i - 1];
      const checked = above.querySelector(".region-choice input:checked");
      setRow(row, above.querySelector("select.task").value, checked ? checked.value : "");
      const b = above.querySelector("select.brotherhood"), b2 = row.querySelector("select.brotherhood");
      if (b && b2) b2.value = b.value;
    });
  });
}

function setupAutosubmit() {
  for (const select of document.querySelectorAll("select.autosubmit")) {
    select.addEventListener("change", () => select.form.submit());
  }
}

document.addEventListener("DOMContentLoaded", () => {
  startCountdowns();
  setupAutosubmit();
  setupOrderForm();
});

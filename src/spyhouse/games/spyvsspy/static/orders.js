// Spy vs Spy's order form: grey out the parameters a task does not take; show the chosen
// task's one-line rule beside it; fill rows by clicking (a task and region into the empty
// rows or every row; a spy's number copies the row above). Plain JavaScript, no build
// step; the form works without it.
"use strict";

function setupOrderForm() {
  const form = document.getElementById("orders");
  if (!form) return;
  const takesRegion = new Set((form.dataset.takesRegion || "").split(" "));
  const takesBrotherhood = new Set((form.dataset.takesBrotherhood || "").split(" "));
  const rows = Array.from(form.querySelectorAll("tr.spy-row"));
  // each task's one-line rule, from the legend the page lists them in (works without us)
  const help = new Map(Array.from(form.querySelectorAll("#task-legend dd[data-task]"),
                                  (dd) => [dd.dataset.task, dd.textContent]));

  const refresh = (row) => {
    const task = row.querySelector("select.task").value.toUpperCase();
    const line = row.querySelector(".task-help");
    if (line) line.textContent = help.get(task) || "";
    for (const radio of row.querySelectorAll(".region-choice input")) {
      radio.disabled = !!task && !takesRegion.has(task);
    }
    // a select, or in a game of hundreds of brotherhoods a typed field with a list
    const b = row.querySelector(".brotherhood");
    if (b) b.disabled = !takesBrotherhood.has(task);
    const f = row.querySelector(".follow");
    if (f) f.disabled = task !== "FOLLOW";
  };
  const setRow = (row, task, region) => {
    const select = row.querySelector("select.task");
    if (![...select.options].some((o) => o.value === task)) return;
    select.value = task;
    const radio = row.querySelector('.region-choice input[value="' + region + '"]');
    if (radio && takesRegion.has(task)) radio.checked = true;
    refresh(row);
    select.dispatchEvent(new Event("change", {bubbles: true}));  // checked as if typed
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
      const b = above.querySelector(".brotherhood"), b2 = row.querySelector(".brotherhood");
      if (b && b2) b2.value = b.value;
    });
  });
}

document.addEventListener("DOMContentLoaded", setupOrderForm);

/* Kingdoms: the order list and the map work together (no build step, no framework).
 *
 * - Choosing an action shows only the fields that action takes (C.2): areas or countries
 *   in TO, army counts or agent types in EXTRA; the page works without this script too.
 * - Clicking an area on the map (or Enter on it) fills the armed field of the current
 *   row: FROM first, then TO. Focusing a FROM/TO list arms it.
 * - Checking is the platform's (/static/app.js): every change of the form, a map click
 *   included, posts it to /games/{id}/check (nothing saved) and shows each message beside
 *   its row ([data-place="row-N"]). A refused page is checked once on load, so every
 *   failing row shows its message, not only the first the save was refused with.
 * - Rows with two areas are drawn on the map as arrows.
 */
(function () {
  "use strict";
  var form = document.getElementById("km-form");
  var svg = document.getElementById("km-map");
  if (!form || !svg) { return; }
  var shapes = JSON.parse(document.getElementById("km-shapes").textContent);
  var rows = Array.prototype.slice.call(form.querySelectorAll("tr.km-row"));
  var pick = document.getElementById("km-pick");
  var armed = null;
  var current = rows.length ? rows[0] : null;
  var NS = "http://www.w3.org/2000/svg";

  function field(row, name) { return row.querySelector("select.km-" + name); }
  function shapeOf(row) { return shapes[field(row, "action").value] || null; }

  function hasOption(select, value, kind) {
    return Array.prototype.some.call(select.options, function (o) {
      var group = o.parentNode.tagName === "OPTGROUP" ? o.parentNode.getAttribute("data-kind") : null;
      return o.value === value && (!kind || !group || group === kind);
    });
  }

  function showGroups(select, kind) {
    Array.prototype.forEach.call(select.querySelectorAll("optgroup"), function (g) {
      var on = !kind || g.getAttribute("data-kind") === kind;
      g.hidden = !on;
      g.disabled = !on;
    });
  }

  function shapeRow(row) {
    var shape = shapeOf(row);
    var from = field(row, "from"), to = field(row, "to"), extra = field(row, "extra");
    if (!shape) {
      [from, to, extra].forEach(function (s) { s.disabled = false; showGroups(s, null); });
      return;
    }
    from.disabled = shape.from === "blank";
    to.disabled = shape.to === "blank";
    extra.disabled = shape.extra === "blank";
    if (from.disabled) { from.value = ""; }
    if (to.disabled) { to.value = ""; }
    if (extra.disabled) { extra.value = ""; }
    showGroups(to, shape.to === "blank" ? null : shape.to);
    showGroups(extra, shape.extra === "blank" ? null : shape.extra);
    if (to.value && !hasOption(to, to.value, shape.to)) { to.value = ""; }
    if (extra.value && !hasOption(extra, extra.value, shape.extra)) { extra.value = ""; }
  }

  function areaField(row, name) {
    var shape = shapeOf(row);
    var select = field(row, name);
    if (select.disabled) { return null; }
    if (shape && shape[name] !== "area") { return null; }
    return select;
  }

  function arm(select) {
    if (armed) { armed.classList.remove("km-armed"); }
    armed = select;
    if (armed) {
      armed.classList.add("km-armed");
      var row = armed.closest("tr");
      pick.textContent = "Click an area on the map for row " + row.getAttribute("data-row") +
        " (" + (armed.getAttribute("data-field") === "from" ? "where / from" : "to") + ").";
    } else {
      pick.textContent = "";
    }
  }

  function armFirst(row) {
    var from = areaField(row, "from"), to = areaField(row, "to");
    if (from && !from.value) { arm(from); } else if (to && !to.value) { arm(to); }
    else { arm(from || to); }
  }

  function drawPlan() {
    var plan = document.getElementById("km-plan");
    while (plan.firstChild) { plan.removeChild(plan.firstChild); }
    rows.forEach(function (row) {
      var a = field(row, "from").value, b = field(row, "to").value;
      var ga = a && svg.querySelector('g.km-land[data-area="' + a + '"]');
      var gb = b && svg.querySelector('g.km-land[data-area="' + b + '"]');
      if (!ga || !gb) { return; }
      var x1 = +ga.getAttribute("data-x"), y1 = +ga.getAttribute("data-y");
      var x2 = +gb.getAttribute("data-x"), y2 = +gb.getAttribute("data-y");
      var line = document.createElementNS(NS, "line");
      line.setAttribute("x1", x1); line.setAttribute("y1", y1);
      line.setAttribute("x2", x1 + (x2 - x1) * 0.82); line.setAttribute("y2", y1 + (y2 - y1) * 0.82);
      line.setAttribute("class", "km-arrow km-arrow-" + (field(row, "action").value || "x").toLowerCase());
      plan.appendChild(line);
      var label = document.createElementNS(NS, "text");
      label.setAttribute("x", (x1 + x2) / 2); label.setAttribute("y", (y1 + y2) / 2 - 4);
      label.setAttribute("class", "km-arrow-label");
      label.textContent = row.getAttribute("data-row") + " " + field(row, "action").value;
      plan.appendChild(label);
    });
    Array.prototype.forEach.call(svg.querySelectorAll("g.km-land"), function (g) {
      g.classList.remove("km-picked");
    });
    if (current) {
      ["from", "to"].forEach(function (name) {
        var v = field(current, name).value;
        var g = v && svg.querySelector('g.km-land[data-area="' + v + '"]');
        if (g) { g.classList.add("km-picked"); }
      });
    }
  }

  function changed() {
    drawPlan();
  }

  /* A value set by a click tells the form, so the platform's check sees it. */
  function told(select) {
    select.dispatchEvent(new Event("change", {bubbles: true}));
  }

  rows.forEach(function (row) {
    shapeRow(row);
    field(row, "action").addEventListener("change", function () {
      current = row; shapeRow(row); armFirst(row); changed();
      // the chosen action's one-line rule (its option's title) beside it
      var select = field(row, "action");
      var help = document.getElementById(select.getAttribute("aria-describedby"));
      if (help) {
        help.textContent = select.value ? select.options[select.selectedIndex].title : "";
      }
    });
    ["from", "to"].forEach(function (name) {
      var select = field(row, name);
      select.addEventListener("focus", function () {
        current = row;
        if (areaField(row, name)) { arm(select); }
      });
      select.addEventListener("change", function () { current = row; changed(); });
    });
    field(row, "extra").addEventListener("change", function () { current = row; changed(); });
  });

  function clickArea(id) {
    var target = armed;
    if (!target && current) {
      armFirst(current);
      target = armed;
    }
    if (!target || !hasOption(target, id, "area")) { return; }
    target.value = id;
    var row = target.closest("tr");
    current = row;
    var to = areaField(row, "to");
    if (target.getAttribute("data-field") === "from" && to && !to.value) { arm(to); }
    else { arm(null); }
    told(target);
  }

  Array.prototype.forEach.call(svg.querySelectorAll("g.km-land"), function (g) {
    g.addEventListener("click", function () { clickArea(g.getAttribute("data-area")); });
    g.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickArea(g.getAttribute("data-area")); }
    });
  });
  drawPlan();
  if (form.getAttribute("data-refused")) {
    /* after app.js has set up its check (it does so on DOMContentLoaded) */
    window.addEventListener("load", function () {
      form.dispatchEvent(new Event("change", {bubbles: true}));
    });
  }
}());

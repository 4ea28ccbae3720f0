// Infiltration's seat page, enhanced; the form works the same without this script.
// - A click on a room of the map fills the form's room field: the move in the Movement
//   phase; in the Decision phase the terminal's room field that was focused last (or the
//   only one): Room (set), Rooms (added, or taken out by a second click), Guards (the room
//   of the guard just typed).
// - Checking as the form is edited is the platform's (app.js: POST /games/{id}/check,
//   nothing saved; each message shown beside its row, the summary in #inf-check).
(function () {
  "use strict";
  const form = document.getElementById("inf-form");
  if (!form) { return; }
  const map = document.getElementById("inf-map");
  const move = document.getElementById("inf-move");
  const action = document.getElementById("inf-terminal-action");
  const pickers = Array.from(form.querySelectorAll("[data-pick]"));
  const ROOMS = /[A-H]-[1-8]/gi;
  const GUARD_LAST = /Guard-[A-H]\s*$/i;
  const LABELS = { move: "Move to", room: "Room", rooms: "Rooms", guards: "Guards" };
  let target = move || (pickers.length === 1 ? pickers[0] : null);
  let hint = null;

  function kindOf(field) { return field === move ? "move" : field.dataset.pick; }

  function roomsOf(field) {
    if (!field) { return []; }
    const kind = kindOf(field);
    if (kind === "move" || kind === "room") { return field.value ? [field.value.toUpperCase()] : []; }
    if (kind === "guards") {
      return Array.from(field.value.matchAll(/Guard-[A-H]\s+([A-H]-[1-8])/gi),
        function (m) { return m[1].toUpperCase(); });
    }
    return (field.value.match(ROOMS) || []).map(function (r) { return r.toUpperCase(); });
  }

  function mark() {
    if (!map) { return; }
    map.querySelectorAll(".inf-picked").forEach(function (c) { c.classList.remove("inf-picked"); });
    roomsOf(target).forEach(function (room) {
      const cell = document.getElementById("room-" + room);
      if (cell) { cell.classList.add("inf-picked"); }
    });
    pickers.forEach(function (p) { p.classList.toggle("inf-pick-target", p === target && pickers.length > 1); });
    if (hint) {
      hint.textContent = target ? "A click on a room of the map fills: " + LABELS[kindOf(target)] + "." : "";
    }
  }

  function changed(field) {
    field.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function pick(room) {
    const kind = kindOf(target);
    if (kind === "move" || kind === "room") {
      target.value = room;
    } else if (kind === "rooms") {
      const rooms = roomsOf(target);
      const at = rooms.indexOf(room);
      if (at >= 0) { rooms.splice(at, 1); } else { rooms.push(room); }
      target.value = rooms.join(" ");
    } else if (kind === "guards") {
      if (!GUARD_LAST.test(target.value)) {
        if (hint) { hint.textContent = "Type a guard first (e.g. Guard-A), then click its room."; }
        target.focus();
        return;
      }
      target.value = target.value.replace(/\s*$/, " " + room);
    }
    if (kind !== "move" && action && !action.value &&
        action.querySelector('option[value="USE"]')) {
      action.value = "USE";  // a room picked for the terminal means using it
    }
    changed(target);
    mark();
  }

  if (map && target) {
    map.classList.add("inf-pickable");
    hint = document.createElement("p");
    hint.className = "hint";
    hint.id = "inf-pick-hint";
    map.insertAdjacentElement("afterend", hint);
    map.addEventListener("click", function (event) {
      const cell = event.target.closest("td[data-room]");
      if (cell && target) { pick(cell.dataset.room); }
    });
  }
  pickers.forEach(function (p) {
    p.addEventListener("focus", function () { target = p; mark(); });
    p.addEventListener("input", mark);
  });
  if (move) { move.addEventListener("change", mark); }
  mark();

  // Live checks are the platform's (app.js posts the form to its data-check URL and
  // shows each message at its data-place); a pick above fires "change", which asks.
}());

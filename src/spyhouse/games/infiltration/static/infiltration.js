// Infiltration: in the Movement phase, a click on a room of the map picks it as the move.
(function () {
  "use strict";
  const move = document.getElementById("inf-move");
  const map = document.getElementById("inf-map");
  if (!move || !map) { return; }
  map.classList.add("inf-pickable");
  function mark() {
    map.querySelectorAll(".inf-picked").forEach(function (c) { c.classList.remove("inf-picked"); });
    const cell = move.value && document.getElementById("room-" + move.value);
    if (cell) { cell.classList.add("inf-picked"); }
  }
  map.addEventListener("click", function (event) {
    const cell = event.target.closest("td[data-room]");
    if (!cell) { return; }
    move.value = cell.dataset.room;
    mark();
  });
  move.addEventListener("change", mark);
  mark();
}());

// The create form (game_new.html): a game whose phases have deadlines of their own (its
// <option> has data-own-deadlines) ignores the schedule, so say so and disable the
// schedule's fieldset while it is chosen; a disabled fieldset is not posted and the
// server then keeps the game's default. Without this script the form works the same.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const game = document.getElementById("new-game");
  const fields = document.getElementById("schedule-fields");
  const note = document.getElementById("schedule-note");
  if (!game || !fields || !note) return;
  const update = () => {
    const own = game.selectedOptions[0]?.dataset.ownDeadlines === "1";
    fields.disabled = own;
    note.hidden = !own;
  };
  game.addEventListener("change", update);
  update();
});

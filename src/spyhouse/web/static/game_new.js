// The create form (game_new.html): only the chosen game's options are shown (the other
// games' groups are hidden and disabled, so they are not posted); an option that applies
// only under another option's value (data-when) is greyed out otherwise; a game whose
// phases have deadlines of their own (data-own-deadlines) ignores the schedule, so say so
// and disable the schedule's fieldset. Without this script the form works the same: its
// "Show this game's options" button reloads it for the chosen game.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const game = document.getElementById("new-game");
  const fields = document.getElementById("schedule-fields");
  const note = document.getElementById("schedule-note");
  if (!game) return;
  const answer = (group, key) => {
    const checked = group.querySelector('[name="option-' + key + '"]:checked');
    return checked ? checked.value : "";
  };
  const update = () => {
    for (const group of document.querySelectorAll(".game-options[data-game]")) {
      const chosen = group.dataset.game === game.value;
      group.hidden = !chosen;
      group.disabled = !chosen;
      for (const option of group.querySelectorAll(".option[data-when]")) {
        const values = (option.dataset.whenValues || "").split(" ");
        option.disabled = !chosen || !values.includes(answer(group, option.dataset.when));
      }
    }
    if (fields && note) {
      const own = game.selectedOptions[0]?.dataset.ownDeadlines === "1";
      fields.disabled = own;
      note.hidden = !own;
    }
  };
  game.addEventListener("change", update);
  document.addEventListener("change", update);
  update();
});

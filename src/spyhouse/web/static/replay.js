// The replay stepper's arrow keys: Left and Right follow the page's previous and next
// links (a[data-replay-step], which work without this script). Arrows typed in a form
// control, or in a focused region that scrolls sideways, are left to it; so are arrows
// with a modifier key (the browser's own history and text shortcuts).
"use strict";

(function () {
  function ownsArrows(el) {
    if (!(el instanceof Element) || el === document.body) return false;
    if (el.closest("input, select, textarea, [contenteditable]:not([contenteditable='false'])")) {
      return true;
    }
    return el.hasAttribute("tabindex") && el.scrollWidth > el.clientWidth + 1;
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey ||
        event.shiftKey) return;
    const step = {ArrowLeft: "prev", ArrowRight: "next"}[event.key];
    if (!step || ownsArrows(event.target)) return;
    const link = document.querySelector('a[data-replay-step="' + step + '"]');
    if (!link) return;
    event.preventDefault();
    window.location.assign(link.href);
  });
})();

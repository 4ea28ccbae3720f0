// spyhouse: live game pages. Plain JavaScript, no build step; pages work without it.
//
// base.html includes this on every page of a game that is not over (seat, report, game,
// host pages, a game's live board), with an empty aria-live region #live-notice that
// names the game (data-live-game) and the entry the page was made at (data-live-entry).
// It listens to the game's stream (GET /games/{id}/events, web/pages_events.py):
//   entry     an entry was resolved: the notice says what changed for this reader
//             ("Turn 3 processed: " and the game's words for this seat) and links to the report
//             and the new order form (or the page again, for a spectator);
//   deadline  the countdowns (.countdown[data-deadline], app.js) take the new deadline;
//   status    the game was paused, resumed or ended: the notice offers a reload;
//   post      a new message the reader may read: the notice offers a reload.
// When a countdown reaches zero the notice says "processing…" until the entry arrives.
// Without EventSource, or when the stream is refused (503: too many open) or fails for
// good, it polls GET /games/{id}/live every 10 s instead. Each event is also sent to the
// page as a "spyhouse:live" DOM event (detail: {type, data}) for a page's own script.
"use strict";

(() => {
  const box = document.getElementById("live-notice");
  if (!box || !box.dataset.liveGame) return;
  const base = "/games/" + box.dataset.liveGame;
  const POLL_MS = 10000;
  let entry = Number(box.dataset.liveEntry || "0");
  let status = box.dataset.liveStatus || "";
  let post = null;        // the polling fallback's cursor
  let polling = null;
  let processingShown = null;  // the deadline "processing…" was shown for

  function link(href, label) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = label;
    return a;
  }

  // The notice: a line of text, then links ({href, label}) separated by " · ".
  function show(text, links, kind) {
    const p = document.createElement("p");
    p.append(text);
    (links || []).forEach((item, i) => {
      p.append(i === 0 ? " — " : " · ");
      p.append(link(item.href, item.label));
    });
    box.replaceChildren(p);
    box.dataset.kind = kind;
  }

  function countdowns() {
    return document.querySelectorAll(".countdown[data-deadline]");
  }

  // The countdowns and the deadline's own <time> take a new deadline at once (app.js's
  // formatLeft and formatMoment when it has them; its countdown ticks on from there).
  function setDeadline(deadline) {
    const when = Date.parse(deadline || "");
    if (isNaN(when)) return;
    for (const el of countdowns()) {
      if (el.dataset.deadline === deadline) continue;
      el.dataset.deadline = deadline;
      if (typeof formatLeft === "function") el.textContent = formatLeft(when - Date.now());
      const time = el.closest(".deadline") && el.closest(".deadline").querySelector("time");
      if (time) {
        time.setAttribute("datetime", deadline);
        if (typeof formatMoment === "function") {
          try {
            time.textContent = formatMoment(new Date(when));
          } catch (_err) { /* the old text stays */ }
        }
      }
    }
  }

  function here() {
    return window.location.pathname + window.location.search;
  }

  function onEntry(data) {
    if (data.entry <= entry) return;
    entry = data.entry;
    status = data.status || status;
    setDeadline(data.deadline);
    const links = data.links || {};
    const items = [];
    if (links.report) items.push({href: links.report, label: "read your report"});
    if (links.orders) items.push({href: links.orders, label: "give your next orders"});
    if (links.page) items.push({href: links.page, label: "see the game as it is now"});
    show(data.line || "A new entry was processed.", items, "entry");
  }

  function onDeadline(data) {
    setDeadline(data.deadline);
    if (data.status && data.status !== status) onStatus(data);
  }

  function onStatus(data) {
    if (!data.status || data.status === status) return;
    status = data.status;
    setDeadline(data.deadline);
    const words = {running: "The game is running.", paused: "The game is paused.",
                   over: "The game is over."}[status] || "The game changed.";
    show(words, [{href: here(), label: "reload the page"}], "status");
  }

  function onPost(data) {
    if (box.dataset.kind === "entry") return;  // the turn's notice matters more
    const where = data.channel === "public" ? "in the public thread" :
      data.private ? "for you" : "in the " + data.channel + " channel";
    show("New message from " + (data.author || "a player") + " " + where + ".",
         [{href: here(), label: "reload to read it"}], "post");
  }

  function handle(type, data) {
    const event = new CustomEvent("spyhouse:live", {detail: {type, data}, cancelable: true});
    if (!document.dispatchEvent(event)) return;  // the page showed it itself
    if (type === "entry") onEntry(data);
    else if (type === "deadline") onDeadline(data);
    else if (type === "status") onStatus(data);
    else if (type === "post") onPost(data);
  }

  // A countdown at zero: the turn is being processed.
  function watchDeadline() {
    setInterval(() => {
      if (status !== "running") return;
      const first = countdowns()[0];
      if (!first) return;
      const deadline = first.dataset.deadline;
      const when = Date.parse(deadline);
      if (isNaN(when) || when > Date.now() || processingShown === deadline) return;
      processingShown = deadline;
      show("The deadline has passed: processing…", [], "processing");
    }, 1000);
  }

  async function pollOnce() {
    const query = "?entry=" + entry + (post === null ? "" : "&post=" + post);
    try {
      const response = await fetch(base + "/live" + query, {
        credentials: "same-origin", headers: {Accept: "application/json"}});
      if (!response.ok) return;
      const answer = await response.json();
      for (const item of answer.events || []) handle(item.type, item.data);
      if (answer.state) onDeadline(answer.state);
      if (answer.cursor) post = answer.cursor.post;
    } catch (_err) {
      // try again on the next round
    }
  }

  function startPolling() {
    if (polling !== null) return;
    pollOnce();
    polling = setInterval(pollOnce, POLL_MS);
  }

  function listen() {
    if (!window.EventSource) {
      startPolling();
      return;
    }
    const source = new EventSource(base + "/events?entry=" + entry);
    for (const type of ["entry", "deadline", "status", "post"]) {
      source.addEventListener(type, (event) => {
        try {
          handle(type, JSON.parse(event.data));
        } catch (_err) { /* a malformed event: skip it */ }
      });
    }
    source.addEventListener("error", () => {
      // a lost connection is retried by the browser; a refused one (503) is closed
      if (source.readyState === EventSource.CLOSED) startPolling();
    });
  }

  watchDeadline();
  listen();
})();

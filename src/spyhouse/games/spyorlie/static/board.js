// Spy or Lie: the board page. Plain JavaScript, no build step.
//
// The page shows the seat's own view (spec DF5) and nothing else. Every legal choice
// comes from the view's `legal_moves`, computed by the server: this script knows no
// rule, it only filters that list by the card, mode, cell and target the player picks,
// then posts the chosen move (a form with the CSRF token) and re-renders from the page
// state the server answers. Mouse, keyboard (Tab, arrows, Enter/Space, Escape, R) and
// touch (tap = click) do the same things (UI-18).
//
// The routes are the platform's, as for every game: GET /games/{id}/state (the page
// state), POST /games/{id}/orders (the move as the form field `move`, final at once:
// `ready=1`; the computer's reply is played within the request), POST
// /games/{id}/computer (`strategy`: the difficulty) and POST /games/{id}/rematch (NEW
// OPERATION, a plain form). Once the game is over the platform opens the host page to
// the players: the script reads every face from it and turns every card face up.
"use strict";

(() => {
  const root = document.getElementById("sol");
  const stateNode = document.getElementById("sol-state");
  if (!root || !stateNode) return;

  const SVGNS = "http://www.w3.org/2000/svg";
  const FACES = { S: "Spy", M: "Mole", C: "Mole Catcher", X: "Cyber Attack" };
  const FACE_ORDER = ["S", "M", "C", "X"];
  const BLURB = {
    S: "Captures by surrounding.",
    M: "Reverses its captor.",
    C: "Acts as a Spy, or announce it to accuse.",
    X: "Takes one touching enemy card.",
  };
  const SQ3 = Math.sqrt(3);
  const R = 30; // hex radius in SVG units (centre to corner)
  const POLL_MS = 1500;
  const STEP_MS = 110; // delay between the events of a turn as they are presented

  const base = "/games/" + root.dataset.game;
  const csrf = root.dataset.csrf;
  const $ = (id) => document.getElementById(id);
  const els = {
    board: $("sol-board"), cards: $("sol-cards"), log: $("sol-log"), round: $("sol-round"),
    turn: $("sol-turn"), sector: $("sol-sector"), you: $("sol-you"),
    promptMain: $("sol-prompt-main"), promptSub: $("sol-prompt-sub"), error: $("sol-error"),
    announce: $("sol-announce"), rotate: $("sol-rotate"), cancel: $("sol-cancel"),
    handCount: $("sol-hand-count"), difficulty: $("sol-difficulty"), pending: $("sol-pending"),
    dlgNew: $("sol-dlg-new"), dlgOver: $("sol-dlg-over"), newButton: $("sol-new"),
    final: $("sol-final"), result: $("sol-result"), revealNote: $("sol-reveal-note"),
    revealLink: $("sol-reveal-link"),
  };

  let page = JSON.parse(stateNode.textContent);
  const ui = {
    face: null,        // chosen card face
    mode: null,        // PLAIN, ACCUSE or CYBER
    cell: null,        // chosen cell key while a target is being picked
    pref: 0,           // preferred orientation where both fit (R, UI-08)
    busy: false,       // a move is on its way
    pending: null,     // that move
    error: els.error && !els.error.hidden ? els.error.textContent.trim() : "",
    seenLines: page.lines.length,  // log lines already presented
    overShown: false,
    pollTimer: null,
    keyboard: false,   // the last choice came from the keyboard: move focus along
    reveal: null,      // once over: cell key -> face, every card's (from the host page)
    revealAsked: false,
  };

  // ------------------------------------------------------------ small helpers

  const key = (cell) => cell[0] + "," + cell[1];
  const cellText = (cell) => "[" + cell[0] + ", " + cell[1] + "]";
  const two = (n) => String(n).padStart(2, "0");
  const view = () => page.view;
  const other = (colour) => (colour === "BLUE" ? "RED" : "BLUE");

  function myTurn() {
    const v = view();
    return !!v && !v.over && page.game.status === "running" && v.awaiting === page.seat;
  }

  function moves() {
    return myTurn() && !ui.busy ? view().legal_moves : [];
  }

  function faceMoves(face) {
    return moves().filter((m) => m.face === face);
  }

  function candidates() {
    return moves().filter((m) => m.face === ui.face && m.mode === ui.mode);
  }

  function unique(list) {
    return Array.from(new Set(list));
  }

  // The cells a click may choose now: legal cells of the chosen card and mode, or the
  // targets of the chosen cell (UI-05, UI-09, UI-10).
  function activeKeys() {
    const list = candidates();
    if (ui.cell === null) return new Set(list.map((m) => key(m.cell)));
    return new Set(list.filter((m) => key(m.cell) === ui.cell && m.target)
      .map((m) => key(m.target)));
  }

  function seatOf(colour) {
    const v = view();
    return v ? v.seats[colour] : null;
  }

  function computerOf(colour) {
    const seat = seatOf(colour);
    return seat && page.computer[seat] ? page.computer[seat] : null;
  }

  function difficultyName(id) {
    const found = page.difficulties.find((d) => d.id === id);
    return found ? found.name : id.charAt(0).toUpperCase() + id.slice(1);
  }

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVGNS, tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function html(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // ------------------------------------------------------------ geometry (spec G1, G2)

  function centre(q, r) {
    return [R * SQ3 * (q + r / 2), R * 1.5 * r];
  }

  function corner(i, size) {
    const a = (Math.PI / 180) * (60 * i - 30);
    return [size * Math.cos(a), size * Math.sin(a)];
  }

  function hexPoints(size) {
    const pts = [];
    for (let i = 0; i < 6; i += 1) pts.push(corner(i, size).map((n) => n.toFixed(2)).join(","));
    return pts.join(" ");
  }

  // Edge d faces direction d (E, NE, NW, W, SW, SE), between corners -d and 1-d.
  function edge(d, size) {
    return [corner((6 - d) % 6, size), corner((7 - d) % 6, size)];
  }

  function marks(orientation, cls) {
    const g = svg("g", { class: cls });
    for (let d = 0; d < 6; d += 1) {
      if (d % 2 !== orientation) continue;
      const [a, b] = edge(d, R * 0.8);
      g.appendChild(svg("line", { x1: a[0].toFixed(2), y1: a[1].toFixed(2),
        x2: b[0].toFixed(2), y2: b[1].toFixed(2) }));
    }
    return g;
  }

  // The orientation a placement at `cellKey` would get: forced (P3), or the preferred
  // one where both fit (the first card, UI-08). Read from the legal list only.
  function orientationAt(cellKey) {
    const options = unique(candidates().filter((m) => key(m.cell) === cellKey)
      .map((m) => m.orientation));
    if (!options.length) return null;
    return options.includes(ui.pref) ? ui.pref : options[0];
  }

  // ------------------------------------------------------------ the board

  function flag(colour, x, y) {
    const g = svg("g", { class: "sol-flag sol-flag-" + colour.toLowerCase(),
      transform: `translate(${x} ${y})` });
    g.appendChild(svg("line", { x1: 0, y1: 0, x2: 0, y2: 13, class: "sol-flag-pole" }));
    g.appendChild(svg("path", { d: "M0 0 L10 3.5 L0 7 Z" }));
    return g;
  }

  function drawCard(g, card, mine, over) {
    const owner = card.owner.toLowerCase();
    const shownAtEnd = !card.face && ui.reveal ? ui.reveal.get(key(card.cell)) || null : null;
    if (shownAtEnd) {
      card = { ...card, face: shownAtEnd };
      g.classList.add("sol-end-reveal");
    }
    const classes = ["sol-card", "sol-" + owner];
    if (card.status === "POINT") classes.push("sol-pointcard");
    g.appendChild(svg("polygon", { class: classes.join(" "), points: hexPoints(R * 0.9) }));
    g.appendChild(marks(card.orientation, "sol-marks"));
    const ownHidden = !over && card.face && !card.revealed && card.placer === mine;
    if (card.face && !ownHidden) {
      g.appendChild(svg("text", { class: "sol-face", y: 5 }, card.face));
    } else {
      g.appendChild(svg("polygon", { class: "sol-back", points: hexPoints(R * 0.55) }));
      if (ownHidden) {
        g.appendChild(svg("text", { class: "sol-face sol-secret", y: 5 }, card.face));
      }
    }
    if (card.status === "POINT") g.appendChild(flag(card.owner, -3, -R * 0.72));
    if (card.announced) {
      g.appendChild(svg("text", { class: "sol-badge", x: R * 0.42, y: R * 0.55 }, "!"));
    }
    if (card.immune) g.appendChild(svg("circle", { class: "sol-immune-ring", r: R * 0.72 }));
    let label = `${cellText(card.cell)}: ${card.owner}`;
    if (card.status === "POINT") label += " point card (flag)";
    else if (ownHidden) label += " face-down " + FACES[card.face] + " (yours)";
    else if (shownAtEnd) label += " " + FACES[card.face] + " (face-down until the end)";
    else if (card.face) label += " " + FACES[card.face];
    else label += " face-down card";
    if (card.face && card.status === "POINT") label += ", " + FACES[card.face];
    if (card.announced) label += ", announced";
    if (card.immune) label += ", protected this turn";
    return { label, ownHidden };
  }

  function lastKeys() {
    const v = view();
    const found = new Set();
    for (const entry of (v && v.last) || []) {
      if (entry.move && entry.move.cell) found.add(key(entry.move.cell));
    }
    return found;
  }

  function renderBoard() {
    const v = view();
    const focused = document.activeElement && document.activeElement.closest
      ? document.activeElement.closest("#sol-board .sol-cell") : null;
    const focusKey = focused ? focused.dataset.key : null;
    // a card the player is peeking at stays face up when the board is drawn again (the
    // live stream redraws it as the opponent moves)
    const peeked = new Set(Array.from(els.board.querySelectorAll(".sol-peek"),
      (node) => node.dataset.key));
    els.board.textContent = "";
    if (!v) return;
    const n = v.radius;
    const width = SQ3 * R * (2 * n + 1) + 12;
    const height = 3 * R * n + 2 * R + 12;
    els.board.setAttribute("viewBox", `${(-width / 2).toFixed(1)} ${(-height / 2).toFixed(1)} ` +
      `${width.toFixed(1)} ${height.toFixed(1)}`);
    const cards = new Map(v.cells.map((c) => [key(c.cell), c]));
    const dead = v.first_orientation === null ? null : 2 - v.first_orientation;
    const active = activeKeys();
    const last = lastKeys();
    const targetStage = ui.cell !== null;
    const pendingKey = ui.pending ? key(ui.pending.cell) : null;
    for (let q = -n; q <= n; q += 1) {
      for (let r = Math.max(-n, -q - n); r <= Math.min(n, -q + n); r += 1) {
        const k = q + "," + r;
        const [x, y] = centre(q, r);
        const classes = ["sol-cell"];
        const isDead = dead !== null && (((q - r) % 3) + 3) % 3 === dead;
        if (isDead) classes.push("sol-dead");
        if (last.has(k)) classes.push("sol-last");
        if (active.has(k)) classes.push(targetStage ? "sol-target" : "sol-legal");
        if (k === ui.cell) classes.push("sol-chosen");
        const g = svg("g", { class: classes.join(" "), "data-key": k,
          transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})` });
        g.appendChild(svg("polygon", { class: "sol-hex", points: hexPoints(R - 1) }));
        const card = cards.get(k);
        let label = `${cellText([q, r])}: ${isDead ? "never playable" : "empty"}`;
        let focusable = false;
        if (card) {
          const drawn = drawCard(g, card, v.colour, v.over);
          label = drawn.label;
          if (drawn.ownHidden) {
            g.classList.add("sol-own-hidden");
            if (peeked.has(k)) g.classList.add("sol-peek");
            focusable = true;
          }
          if (card.immune) g.classList.add("sol-immune");
        }
        if (k === ui.cell) g.appendChild(marks(orientationAt(k) ?? 0, "sol-ghost"));
        if (k === pendingKey) {
          g.classList.add("sol-pending-cell");
          g.appendChild(svg("polygon", { class: "sol-card sol-" + v.colour.toLowerCase() +
            " sol-ghost-card", points: hexPoints(R * 0.9) }));
          g.appendChild(marks(ui.pending.orientation ?? 0, "sol-marks"));
        }
        if (active.has(k)) {
          focusable = true;
          g.setAttribute("role", "button");
          label += targetStage ? " — choose as target" : " — place your " + FACES[ui.face] + " here";
        }
        g.setAttribute("aria-label", label);
        if (focusable) g.setAttribute("tabindex", "0");
        g.appendChild(svg("title", {}, label));
        els.board.appendChild(g);
      }
    }
    if (focusKey) {
      const again = els.board.querySelector(`.sol-cell[data-key="${focusKey}"][tabindex]`);
      if (again) again.focus({ preventScroll: true });
    }
  }

  function showGhost(cellNode) {
    hideGhost();
    if (!cellNode || ui.cell !== null || !cellNode.classList.contains("sol-legal")) return;
    const o = orientationAt(cellNode.dataset.key);
    if (o === null) return;
    const g = svg("g", { class: "sol-preview" });
    g.appendChild(svg("polygon", { class: "sol-card sol-" + view().colour.toLowerCase() +
      " sol-ghost-card", points: hexPoints(R * 0.9) }));
    g.appendChild(marks(o, "sol-marks"));
    g.appendChild(svg("text", { class: "sol-face", y: 5 }, ui.face));
    cellNode.appendChild(g);
  }

  function hideGhost() {
    for (const node of els.board.querySelectorAll(".sol-preview")) node.remove();
  }

  // ------------------------------------------------------------ hand, panels, strip

  function handReason(face) {
    const v = view();
    const count = v.hand[face] || 0;
    if (v.over) return "The operation is complete.";
    if (!myTurn()) return "Wait for your move.";
    if (!count) return "None left.";
    if (face === "X" && !v.cyber_window_open) {
      return "Only after both players have taken five turns.";
    }
    if (face === "X" && !v.cells.length) return "The first card cannot be a Cyber Attack.";
    if (!faceMoves(face).length) {
      return face === "X" ? "No enemy card touches an open space." : "No legal space.";
    }
    return "";
  }

  function renderHand() {
    const v = view();
    const focusedFace = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.face : null;
    els.cards.textContent = "";
    if (!v) return;
    const total = FACE_ORDER.reduce((sum, f) => sum + (v.hand[f] || 0), 0);
    els.handCount.textContent = total === 1 ? "1 card remaining" : `${total} cards remaining`;
    for (const face of FACE_ORDER) {
      const count = v.hand[face] || 0;
      const reason = ui.busy ? "Your move is on its way." : handReason(face);
      const chosen = ui.face === face;
      const button = html("button", {
        type: "button", class: "sol-handcard" + (chosen ? " sol-selected" : "") +
          (reason ? " sol-unavailable" : ""),
        "data-face": face, "aria-pressed": chosen ? "true" : "false",
      });
      if (reason) button.setAttribute("aria-disabled", "true");
      button.appendChild(html("span", { class: "sol-handface" }, face));
      button.appendChild(html("span", { class: "sol-handname" }, FACES[face]));
      button.appendChild(html("span", { class: "sol-handcount" }, "× " + count));
      button.appendChild(html("span", { class: "sol-handnote" }, reason || BLURB[face]));
      button.setAttribute("aria-label", `${FACES[face]}, ${count} in hand` +
        (reason ? `: unavailable. ${reason}` : ""));
      els.cards.appendChild(button);
    }
    if (focusedFace) {
      const again = els.cards.querySelector(`[data-face="${focusedFace}"]`);
      if (again) again.focus({ preventScroll: true });
    }
  }

  function renderPanels() {
    const v = view();
    if (!v) return;
    for (const colour of ["BLUE", "RED"]) {
      const points = $("sol-points-" + colour);
      if (points) points.textContent = String(v.points[colour]);
      const flags = $("sol-flags-" + colour);
      if (flags) {
        flags.textContent = "";
        const owned = v.cells.filter((c) => c.status === "POINT" && c.owner === colour);
        for (const c of owned) {
          flags.appendChild(html("span", {
            class: "sol-flagmark sol-" + colour.toLowerCase(),
            title: `${cellText(c.cell)}${c.face ? " (" + FACES[c.face] + ")" : ""}`,
          }, "⚑"));
        }
        if (!owned.length) flags.appendChild(html("span", { class: "sol-none" }, "none yet"));
      }
      const left = $("sol-left-" + colour);
      if (left && colour !== v.colour) left.textContent = String(v.opponent_hand_size);
      const who = $("sol-who-" + colour);
      const comp = computerOf(colour);
      if (who && colour !== v.colour && comp) who.textContent = difficultyName(comp.difficulty);
    }
    if (els.pending) {
      const comp = computerOf(other(v.colour));
      els.pending.textContent = comp && comp.next !== comp.difficulty
        ? `${difficultyName(comp.next)} plays from the computer's next turn.` : "";
      if (comp && els.difficulty) {
        for (const radio of els.difficulty.querySelectorAll("input[name=strategy]")) {
          radio.checked = radio.value === comp.next;
        }
      }
    }
  }

  function opponentLabel(colour) {
    const comp = computerOf(colour);
    if (comp) return difficultyName(comp.difficulty).toUpperCase();
    return colour + " AGENCY";
  }

  function renderStrip() {
    const v = view();
    if (!v) {
      els.turn.textContent = "WAITING FOR THE START";
      return;
    }
    els.you.textContent = "YOU ARE " + v.colour;
    root.dataset.me = v.colour;
    els.round.textContent = "ROUND " + two(v.round);
    els.sector.textContent = "SECTOR " + two(v.radius + 1);
    const them = other(v.colour);
    let text;
    if (v.over) text = "OPERATION COMPLETE";
    else if (ui.busy) text = computerOf(them) ? opponentLabel(them) + " THINKING…" : "SENDING…";
    else if (myTurn()) text = "YOUR MOVE";
    else if (computerOf(them)) text = opponentLabel(them) + " THINKING…";
    else text = them + " AGENCY TO MOVE";
    els.turn.textContent = text;
    els.turn.className = myTurn() && !ui.busy ? "sol-yours" : "";
  }

  function prompt() {
    const v = view();
    if (!v) return ["The operation has not started yet.", "The host starts the game."];
    if (v.over) return ["Operation complete.", finalText()];
    if (ui.busy) return ["Move sent.", "Waiting for the answer…"];
    if (!myTurn()) {
      const them = other(v.colour);
      return computerOf(them) ? ["The computer is thinking.", "Its move appears here."]
        : [`Waiting for ${them} AGENCY.`, "Their move appears here."];
    }
    const first = !v.cells.length;
    if (!ui.face) {
      return first ? ["Your first move.", "Choose a card below, then click the center."]
        : ["Your move.", "Choose a card from your hand."];
    }
    const name = FACES[ui.face];
    if (first) return ["Your first move.", "Choose an agent and place it in the center. " +
      "R sets your preferred rotation."];
    if (ui.mode === "ACCUSE") {
      return ui.cell === null
        ? ["Announced Mole Catcher.", "Choose a highlighted space next to a suspected Mole. Esc cancels."]
        : ["Accuse which card?", "Choose a highlighted enemy card to accuse. Esc cancels."];
    }
    if (ui.mode === "CYBER") {
      return ui.cell === null
        ? ["Cyber Attack.", "Choose a highlighted space touching an enemy card. Esc cancels."]
        : ["Attack which card?", "Choose a highlighted enemy card. Protected Mole Catchers cannot be attacked. Esc cancels."];
    }
    return [`Place your ${name}.`, "Choose a highlighted space; the card rotates to fit. Esc cancels."];
  }

  function finalText() {
    const v = view();
    return `BLUE ${v.points.BLUE} points · RED ${v.points.RED} points`;
  }

  function resultText() {
    const v = view();
    if (!v.result) return "";
    if (v.result === "DRAW") return "A draw: equal points.";
    const winner = v.result === "BLUE_WIN" ? "BLUE" : "RED";
    return winner === v.colour ? "You win." : "You lose.";
  }

  function renderTools() {
    const v = view();
    const showAnnounce = !!v && myTurn() && ui.face === "C";
    els.announce.hidden = !showAnnounce;
    if (showAnnounce) {
      const possible = faceMoves("C").some((m) => m.mode === "ACCUSE");
      els.announce.setAttribute("aria-pressed", ui.mode === "ACCUSE" ? "true" : "false");
      els.announce.textContent = ui.mode === "ACCUSE" ? "Announce: ON" : "Announce: off";
      els.announce.setAttribute("aria-disabled", possible ? "false" : "true");
      els.announce.title = possible ? "Announce the Catcher and accuse a touching card"
        : "No face-down enemy agent touches an open space";
    }
    els.cancel.hidden = !(ui.face || ui.cell);
    els.rotate.setAttribute("aria-pressed", ui.pref ? "true" : "false");
    els.rotate.textContent = "";
    const icon = svg("svg", { class: "sol-rot-icon", viewBox: "-16 -16 32 32",
      "aria-hidden": "true" });
    icon.appendChild(svg("polygon", { class: "sol-hex", points: hexPoints(14) }));
    const m = svg("g", { class: "sol-marks" });
    for (let d = 0; d < 6; d += 1) {
      if (d % 2 !== ui.pref) continue;
      const [a, b] = [corner((6 - d) % 6, 12), corner((7 - d) % 6, 12)];
      m.appendChild(svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1] }));
    }
    icon.appendChild(m);
    els.rotate.appendChild(icon);
    els.rotate.appendChild(document.createTextNode(` Rotation ${ui.pref ? "B" : "A"} (R)`));
  }

  // ------------------------------------------------------------ the log (UI-13, UI-14)

  function renderLog() {
    const lines = page.lines;
    els.log.textContent = "";
    let round = null;
    lines.forEach((line, index) => {
      const item = html("li", { class: `sol-line sol-line-${line.type} sol-by-${
        String(line.colour || "").toLowerCase()}` });
      if (line.round !== round) {
        item.appendChild(html("span", { class: "sol-line-round" }, "ROUND " + two(line.round)));
        round = line.round;
      }
      item.appendChild(document.createTextNode(line.text));
      if (index >= ui.seenLines) {
        item.classList.add("sol-fresh");
        item.style.animationDelay = `${Math.min(index - ui.seenLines, 20) * STEP_MS}ms`;
      }
      els.log.appendChild(item);
    });
    els.log.scrollTop = els.log.scrollHeight;
  }

  // Mark the cells of the newly arrived events, one after another in event order.
  function presentNew() {
    const fresh = page.lines.slice(ui.seenLines);
    fresh.forEach((line, index) => {
      for (const cell of line.cells) {
        const node = els.board.querySelector(`.sol-cell[data-key="${key(cell)}"]`);
        if (!node) continue;
        node.classList.remove("sol-flash");
        node.style.animationDelay = `${Math.min(index, 20) * STEP_MS}ms`;
        node.classList.add("sol-flash");
      }
    });
    ui.seenLines = page.lines.length;
  }

  // ------------------------------------------------------------ render

  function render() {
    renderStrip();
    renderPanels();
    renderBoard();
    renderHand();
    renderTools();
    renderLog();
    const [main, sub] = prompt();
    els.promptMain.textContent = main;
    els.promptSub.textContent = sub;
    els.error.hidden = !ui.error;
    els.error.textContent = ui.error;
    const v = view();
    if (els.revealLink) els.revealLink.hidden = !(v && v.over);
    if (els.revealNote) els.revealNote.hidden = !ui.reveal;
    if (v && v.over && !ui.revealAsked) revealAll();
    if (v && v.over && !ui.overShown && els.dlgOver) {
      ui.overShown = true;
      els.final.textContent = finalText();
      els.result.textContent = resultText();
      if (!els.dlgOver.open) els.dlgOver.showModal();
    }
    schedulePoll();
  }

  function update(state) {
    const changed = state.game.id !== page.game.id || state.game.entry !== page.game.entry ||
      state.game.status !== page.game.status;
    page = state;
    if (changed) {
      ui.cell = null;
      if (ui.face && !faceMoves(ui.face).length) {
        ui.face = null;
        ui.mode = null;
      }
    }
    render();
    presentNew();
  }

  // ------------------------------------------------------------ talking to the server

  async function readJson(response) {
    const type = response.headers.get("content-type") || "";
    if (!type.includes("application/json")) return null;
    try {
      return await response.json();
    } catch (_err) {
      return null;
    }
  }

  function failure(response) {
    if (response.status === 403) {
      return "This page has expired (missing or wrong CSRF token). Reload the page and try again.";
    }
    if (response.status === 404) return "This game is not yours, or it no longer exists.";
    if (response.redirected) return "You were logged out. Log in again and reload the page.";
    return `The server refused the request (HTTP ${response.status}). Reload the page.`;
  }

  async function post(path, fields) {
    const body = new URLSearchParams({ csrf_token: csrf, ...fields });
    const response = await fetch(base + path, {
      method: "POST", body, credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    return [response, await readJson(response)];
  }

  function requestKey() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function submit(move) {
    if (ui.busy) return;
    const byKeyboard = ui.keyboard;
    ui.busy = true;
    ui.pending = move;
    ui.error = "";
    ui.cell = null;
    render();
    let state = null;
    try {
      const [response, data] = await post("/orders", {
        move: JSON.stringify(move), entry: String(page.game.open_entry),
        request_key: requestKey(), ready: "1",
      });
      if (data && data.state) state = data.state;
      if (!data || !data.ok) ui.error = (data && data.error) || failure(response);
    } catch (_err) {
      ui.error = "The move could not be sent (no connection). Try again.";
    }
    ui.busy = false;
    ui.pending = null;
    if (!ui.error) {
      ui.face = null;
      ui.mode = null;
    }
    if (state) update(state);
    else render();
    if (byKeyboard) {  // back to the hand for the next move
      const next = els.cards.querySelector(".sol-handcard:not(.sol-unavailable)") ||
        els.cards.querySelector(".sol-handcard");
      if (next) next.focus();
    }
  }

  async function refresh() {
    try {
      const response = await fetch(base + "/state", {
        credentials: "same-origin", headers: { Accept: "application/json" },
      });
      const data = await readJson(response);
      if (data && data.state) {
        update(data.state);
        return;
      }
    } catch (_err) {
      // try again on the next round
    }
    schedulePoll();
  }

  // Once over, every face: the platform adds the end's reveal to the board's data
  // (/state; the page as first served may predate the end).
  async function revealAll() {
    ui.revealAsked = true;
    let shown = page.reveal;
    if (!Array.isArray(shown)) {
      try {
        const response = await fetch(base + "/state", { credentials: "same-origin",
                                                        headers: { Accept: "application/json" } });
        if (!response.ok) return;
        shown = ((await response.json()).state || {}).reveal;
      } catch (_err) {
        return;  // the board keeps the faces it knows; the page links to the host page
      }
    }
    if (!Array.isArray(shown)) return;
    ui.reveal = new Map(shown.map((c) => [key(c.cell), c.face]));
    render();
  }

  function schedulePoll() {
    clearTimeout(ui.pollTimer);
    ui.pollTimer = null;
    const v = view();
    const waiting = page.game.status === "open" ||
      (page.game.status === "running" && v && !v.over && !myTurn());
    if (waiting && !ui.busy) ui.pollTimer = setTimeout(refresh, POLL_MS);
  }

  // The platform's live stream (web/static/live.js): a resolved move or a change of the
  // game's status refreshes the board at once; the board's own polling stays as it was.
  document.addEventListener("spyhouse:live", (event) => {
    const type = event.detail && event.detail.type;
    if ((type === "entry" || type === "status") && !ui.busy) refresh();
  });

  async function changeDifficulty(value) {
    ui.error = "";
    try {
      const [response, data] = await post("/computer", { strategy: value });
      if (data && data.state) page = data.state;
      if (!data || !data.ok) ui.error = (data && data.error) || failure(response);
    } catch (_err) {
      ui.error = "The difficulty could not be changed (no connection). Try again.";
    }
    render();
  }

  // ------------------------------------------------------------ choosing

  function chooseFace(face) {
    if (ui.busy || !myTurn() || handReason(face)) return;
    if (ui.face === face && ui.cell === null) {
      cancelAll();
      return;
    }
    ui.face = face;
    ui.mode = face === "X" ? "CYBER" : "PLAIN";
    ui.cell = null;
    ui.error = "";
    render();
    if (ui.keyboard) focusFirstActive();
  }

  function toggleAnnounce() {
    if (ui.face !== "C" || ui.busy) return;
    if (!faceMoves("C").some((m) => m.mode === "ACCUSE")) return;
    ui.mode = ui.mode === "ACCUSE" ? "PLAIN" : "ACCUSE";
    ui.cell = null;
    render();
    if (ui.keyboard) focusFirstActive();
  }

  function togglePref() {
    ui.pref = 1 - ui.pref;
    render();
  }

  function cancelStep() {
    const face = ui.face;
    if (ui.cell !== null) {
      ui.cell = null;
    } else if (ui.mode === "ACCUSE") {
      ui.mode = "PLAIN";
    } else {
      ui.face = null;
      ui.mode = null;
    }
    ui.error = "";
    render();
    if (ui.keyboard && !focusFirstActive() && face) {
      const card = els.cards.querySelector(`[data-face="${face}"]`);
      if (card) card.focus();
    }
  }

  function cancelAll() {
    ui.face = null;
    ui.mode = null;
    ui.cell = null;
    render();
  }

  function activate(cellKey) {
    if (ui.busy || !myTurn()) return;
    const active = activeKeys();
    if (!active.has(cellKey)) return;
    const list = candidates();
    if (ui.cell === null) {
      const here = list.filter((m) => key(m.cell) === cellKey);
      if (ui.mode === "PLAIN") {
        const o = orientationAt(cellKey);
        submit(here.find((m) => m.orientation === o) || here[0]);
        return;
      }
      const targets = unique(here.map((m) => key(m.target)));
      if (ui.mode === "CYBER" && targets.length === 1) {  // UI-10: one target, no question
        submit(here[0]);
        return;
      }
      ui.cell = cellKey;
      render();
      if (ui.keyboard) focusFirstActive();
      return;
    }
    const chosen = list.find((m) => key(m.cell) === ui.cell && m.target &&
      key(m.target) === cellKey);
    if (chosen) submit(chosen);
  }

  // Arrow keys move among the highlighted cells while a choice is open, else among every
  // focusable cell (the player's own face-down cards).
  function focusables() {
    const active = Array.from(els.board.querySelectorAll(".sol-legal, .sol-target"));
    return active.length ? active : Array.from(els.board.querySelectorAll(".sol-cell[tabindex]"));
  }

  function focusFirstActive() {
    const first = els.board.querySelector(".sol-legal, .sol-target");
    if (first) first.focus();
    return !!first;
  }

  // ------------------------------------------------------------ events

  els.cards.addEventListener("click", (event) => {
    const button = event.target.closest("[data-face]");
    if (!button) return;
    ui.keyboard = event.detail === 0;  // Enter/Space on a button clicks with detail 0
    chooseFace(button.dataset.face);
  });

  els.board.addEventListener("click", (event) => {
    const cell = event.target.closest(".sol-cell");
    if (!cell) return;
    ui.keyboard = false;
    if (cell.classList.contains("sol-legal") || cell.classList.contains("sol-target")) {
      activate(cell.dataset.key);
    } else if (cell.classList.contains("sol-own-hidden")) {
      cell.classList.toggle("sol-peek");  // touch: a tap shows the face (UI-11)
    }
  });

  els.board.addEventListener("keydown", (event) => {
    const cell = event.target.closest && event.target.closest(".sol-cell");
    if (!cell) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      ui.keyboard = true;
      if (cell.classList.contains("sol-own-hidden") && !cell.classList.contains("sol-legal")) {
        cell.classList.toggle("sol-peek");
      } else {
        activate(cell.dataset.key);
      }
      return;
    }
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (step) {
      event.preventDefault();
      const list = focusables();
      const at = list.indexOf(cell);
      const next = at < 0 ? list[0] : list[(at + step + list.length) % list.length];
      if (next) next.focus();
    }
  });

  els.board.addEventListener("pointerover", (event) => {
    const cell = event.target.closest(".sol-cell");
    if (cell) showGhost(cell);
  });
  els.board.addEventListener("pointerleave", hideGhost);
  els.board.addEventListener("focusin", (event) => {
    const cell = event.target.closest(".sol-cell");
    if (cell) showGhost(cell);
  });
  els.board.addEventListener("focusout", hideGhost);

  els.announce.addEventListener("click", (event) => {
    ui.keyboard = event.detail === 0;
    toggleAnnounce();
  });
  els.rotate.addEventListener("click", togglePref);
  els.cancel.addEventListener("click", (event) => {
    ui.keyboard = event.detail === 0;
    cancelStep();
  });

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (document.querySelector("dialog[open]")) return;
    const target = event.target;
    if (target && target.matches && target.matches("input, select, textarea")) return;
    if (event.key === "Escape") {
      if (ui.face || ui.cell) {
        event.preventDefault();
        ui.keyboard = true;
        cancelStep();
      }
      for (const node of els.board.querySelectorAll(".sol-peek")) node.classList.remove("sol-peek");
    } else if (event.key === "r" || event.key === "R") {
      event.preventDefault();
      togglePref();
    }
  });

  if (els.difficulty) {
    els.difficulty.addEventListener("change", (event) => {
      if (event.target.name === "strategy") changeDifficulty(event.target.value);
    });
    els.difficulty.addEventListener("submit", (event) => {
      event.preventDefault();
      const chosen = els.difficulty.querySelector("input[name=strategy]:checked");
      if (chosen) changeDifficulty(chosen.value);
    });
  }

  if (els.newButton && els.dlgNew) {
    els.newButton.addEventListener("click", () => els.dlgNew.showModal());
  }
  for (const button of document.querySelectorAll(".sol-dialog [data-close]")) {
    button.addEventListener("click", () => button.closest("dialog").close());
  }

  render();
})();

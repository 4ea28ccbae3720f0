// spyhouse: a game's press boxes that take new messages in place. Plain JavaScript, no
// build step; the page works without it (live.js then offers a reload).
//
// A page that wraps the platform's channel boxes (templates/_channels.html) in an element
// with data-chat-live includes this. On live.js's "spyhouse:live" event of type "post" (a
// new message this reader may read: the stream applies channels.readable), it fetches the
// page again and replaces each box's list of posts with the fresh one; the forms, and
// whatever is typed in them, stay as they are. A line in the wrapper's aria-live region
// says who wrote. If the fetch fails, that line offers a reload instead.
"use strict";

(() => {
  const root = document.querySelector("[data-chat-live]");
  if (!root) return;
  const said = root.querySelector(".chat-live");

  function tell(text, reload) {
    if (!said) return;
    said.replaceChildren(text);
    if (reload) {
      const a = document.createElement("a");
      a.href = location.pathname + location.search;
      a.textContent = "reload to read it";
      said.append(" — ", a);
    }
  }

  async function refresh(data) {
    const where = data.channel === "public" ? "in the public thread" : "for you";
    const line = "New message from " + (data.author || "a player") + " " + where + ".";
    try {
      const answer = await fetch(location.pathname + location.search,
                                 {credentials: "same-origin", headers: {Accept: "text/html"}});
      if (!answer.ok) throw new Error("HTTP " + answer.status);
      const doc = new DOMParser().parseFromString(await answer.text(), "text/html");
      for (const list of root.querySelectorAll(".chat-box ul.chat-posts")) {
        const box = list.closest(".chat-box");
        const fresh = box && doc.querySelector("#" + box.id + " ul.chat-posts");
        if (fresh) list.replaceWith(document.importNode(fresh, true));
      }
      tell(line, false);
    } catch (error) {
      tell(line, true);
    }
  }

  document.addEventListener("spyhouse:live", (event) => {
    if (!event.detail || event.detail.type !== "post") return;
    event.preventDefault();  // shown here, in the boxes
    refresh(event.detail.data || {});
  });
})();

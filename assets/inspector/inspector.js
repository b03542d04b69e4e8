// The inspector's one script (no inline script: the pages' CSP forbids it). It keeps the open page
// live from the control API's event stream and copies <pre> texts; htmx does the rest.
"use strict";
(function () {
  // htmx 4.0 parses answers with Document.parseHTMLUnsafe(html, {}); Chromium before 150 refuses
  // that second argument (it wants a Sanitizer), so every swap would fail there. Drop it.
  if (typeof Document.parseHTMLUnsafe === "function") {
    try {
      Document.parseHTMLUnsafe("", {});
    } catch (e) {
      var parse = Document.parseHTMLUnsafe;
      Document.parseHTMLUnsafe = function (html) { return parse.call(Document, html); };
    }
  }

  var shop = document.body.getAttribute("data-shop") || "";
  var withShop = function (path) {
    return shop ? path + (path.indexOf("?") < 0 ? "?" : "&") + "shop=" + encodeURIComponent(shop) : path;
  };

  // Journal rows: fetch only what is newer than the newest row shown, one fetch at a time.
  var rows = document.querySelector("tbody[data-live=journal]");
  var fetching = false;
  var wanted = 0;
  function addRows() {
    if (!rows || fetching) return;
    var after = Number(rows.getAttribute("data-after") || "0");
    if (wanted <= after) return;
    fetching = true;
    var url = rows.getAttribute("data-rows");
    fetch(url + (url.indexOf("?") < 0 ? "?" : "&") + "after=" + after)
      .then(function (res) { return res.ok ? res.text() : ""; })
      .then(function (html) {
        rows.insertAdjacentHTML("afterbegin", html);
        // Filters may leave none of the new entries: the next fetch starts after them anyway.
        rows.setAttribute("data-after", String(Math.max(wanted, after)));
      })
      .catch(function () {})
      .then(function () {
        fetching = false;
        addRows();
      });
  }

  // Panels that show state (the clock, the scenarios) reload themselves on their kind of tick.
  function reload(kind) {
    var panels = document.querySelectorAll("[data-reload~=" + kind + "]");
    panels.forEach(function (panel) {
      fetch(panel.getAttribute("data-src"))
        .then(function (res) { return res.ok ? res.text() : null; })
        .then(function (html) { if (html !== null) panel.innerHTML = html; })
        .catch(function () {});
    });
  }

  var live = rows || document.querySelector("[data-reload]");
  if (live && window.EventSource) {
    var events = new EventSource(withShop("/__sim/events"));
    events.addEventListener("journal", function (e) {
      var lastId = JSON.parse(e.data).lastId;
      // Newer than nothing shown: the journal was cleared; show it as it is now.
      if (rows && lastId < Number(rows.getAttribute("data-after") || "0")) return location.reload();
      wanted = Math.max(wanted, lastId);
      addRows();
      reload("journal");
    });
    ["clock", "scenarios", "shops", "reset"].forEach(function (kind) {
      events.addEventListener(kind, function () {
        if (kind === "reset" && rows) return location.reload();
        reload(kind);
      });
    });
    window.addEventListener("pagehide", function () { events.close(); });
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest ? e.target.closest("button[data-copy]") : null;
    if (!button) return;
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source || !navigator.clipboard) return;
    navigator.clipboard.writeText(source.textContent).then(
      function () { button.setAttribute("data-copied", "yes"); },
      function () { button.setAttribute("data-copied", "no"); },
    );
  });
})();

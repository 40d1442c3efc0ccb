// portal.js: the context selector (business unit + stage, kept in this
// browser's local storage), Auto reload, toasts and the full-name preview.
// Pages work without it; it only makes them quicker to use.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var KEY = "rms.context";
  var AUTO = "rms.autoReload";

  function $(id) { return document.getElementById(id); }

  function stored() {
    try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { return null; }
  }

  function store(bu, stage) {
    try { localStorage.setItem(KEY, JSON.stringify({ bu: bu, stage: stage })); } catch (e) { /* storage may be off */ }
  }

  function hasOption(select, value) {
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].value === value) return true;
    }
    return false;
  }

  function page() { return $("page"); }

  function resource() {
    var p = page();
    return (p && p.dataset.resource) || "topics";
  }

  // A page that names a context (deep link) wins and is remembered; other
  // pages show the remembered context, if it is still offered.
  function syncContext() {
    var bu = $("context-bu"), stage = $("context-stage"), p = page();
    if (!bu || !stage || !p) return;
    if (p.dataset.bu && p.dataset.stage) {
      store(p.dataset.bu, p.dataset.stage);
      bu.value = p.dataset.bu;
      stage.value = p.dataset.stage;
    } else {
      var c = stored();
      if (c && hasOption(bu, c.bu) && hasOption(stage, c.stage)) {
        bu.value = c.bu;
        stage.value = c.stage;
      }
      retargetNav(bu.value, stage.value);
    }
    setPending(false);
  }

  // Navigation links follow the selector (on pages without a context, and
  // while a change waits for Reload). Without a unit there is no context:
  // the links stay on the home page, which says what to do.
  function retargetNav(bu, stage) {
    if (!bu || !stage) return;
    // Only the links of a unit's resources; home, my access and the
    // admin area belong to no context.
    var links = document.querySelectorAll("#resource-nav a[data-scoped]");
    for (var i = 0; i < links.length; i++) {
      links[i].href = "/" + encodeURIComponent(bu) + "/" + encodeURIComponent(stage) + "/" + links[i].dataset.nav;
    }
  }

  function setPending(on) {
    var dot = $("reload-dot"), sr = $("reload-pending");
    if (dot) dot.classList.toggle("hidden", !on);
    if (sr) sr.textContent = on ? " (context changed: press to load it)" : "";
    var btn = $("reload");
    if (btn) btn.dataset.pending = on ? "true" : "false";
  }

  function autoReload() { return localStorage.getItem(AUTO) !== "0"; }

  // Load the selected context's page of the same resource type into the
  // main column, as an htmx request that also updates the address bar.
  function go() {
    var bu = $("context-bu").value, stage = $("context-stage").value;
    var url = "/" + encodeURIComponent(bu) + "/" + encodeURIComponent(stage) + "/" + resource();
    store(bu, stage);
    setPending(false);
    if (!window.htmx) { window.location.href = url; return; }
    var a = document.createElement("a");
    a.setAttribute("hx-get", url);
    a.setAttribute("hx-target", "#main");
    a.setAttribute("hx-swap", "innerHTML");
    a.setAttribute("hx-push-url", "true");
    a.hidden = true;
    document.body.appendChild(a);
    htmx.process(a);
    // The link goes once its request is over: events of a detached
    // element would not reach the document (busy state, history).
    a.addEventListener("htmx:afterRequest", function () { setTimeout(function () { a.remove(); }, 0); });
    htmx.trigger(a, "click");
  }

  // scoped tells whether a resource type has a page in every context
  // (the admin area and my access have none).
  function scoped(r) {
    return !!document.querySelector('#resource-nav a[data-scoped][data-nav="' + r + '"]');
  }

  function onSelect() {
    var bu = $("context-bu").value, stage = $("context-stage").value;
    if (!page() || !page().dataset.bu) {
      // No page data to refresh here: remember the choice.
      store(bu, stage);
    }
    // The sidebar's links go to the chosen context at once, so that a
    // change waiting for Reload is not lost by following one of them.
    retargetNav(bu, stage);
    // On a page of no context (the admin area, my access) the choice is
    // remembered for the next unit page; there is nothing to reload.
    if (page() && page().dataset.resource && !scoped(resource())) return;
    if (autoReload()) { go(); } else { setPending(true); }
  }

  function toast(kind, message) {
    var box = $("toasts");
    if (!box || !message) return;
    var el = document.createElement("div");
    el.className = "toast pointer-events-auto flex items-start gap-3 rounded-lg px-4 py-3 text-sm shadow-lg ring-1 " +
      (kind === "error" ? "bg-rose-50 text-rose-900 ring-rose-200" :
        kind === "warning" ? "bg-amber-50 text-amber-900 ring-amber-200" : "bg-emerald-50 text-emerald-900 ring-emerald-200");
    el.dataset.kind = kind;
    el.setAttribute("role", kind === "error" ? "alert" : "status");
    var p = document.createElement("p");
    p.className = "flex-1";
    p.textContent = message;
    var close = document.createElement("button");
    close.type = "button";
    close.className = "toast-close rounded text-current opacity-60 hover:opacity-100";
    close.setAttribute("aria-label", "Dismiss");
    close.textContent = "×";
    el.appendChild(p);
    el.appendChild(close);
    box.appendChild(el);
    expire(el);
    if (kind === "success") {
      // A save's result: keyboard focus goes to the page's heading once
      // the page is in place (now, or when htmx has swapped it in).
      savedPending = true;
      focusResult();
    }
  }

  // focusResult moves focus to the page's heading after a save, when the
  // focus is nowhere (the form that had it is gone): a keyboard or screen
  // reader user then starts from the result, not the top of the page.
  var savedPending = false;
  function focusResult() {
    var title = $("page-title"), active = document.activeElement;
    if (!savedPending || !title) return;
    if (active && active !== document.body && document.contains(active)) return;
    savedPending = false;
    title.focus();
  }
  document.addEventListener("htmx:afterSettle", focusResult);

  function expire(el) {
    setTimeout(function () { el.remove(); }, el.dataset.kind === "success" ? 6000 : 10000);
  }

  function preview() {
    var input = $("name"), out = $("name-preview");
    if (!input || !out) return;
    var id = input.value.trim().toLowerCase().replace(/[_. ]/g, "-");
    out.textContent = (input.dataset.prefix || "") + (id || "…") + (input.dataset.suffix || "");
  }

  // Adds an empty key/value row to a configuration table.
  function addRow() {
    var rows = document.querySelectorAll("#config-rows .config-row");
    if (!rows.length) return;
    var last = rows[rows.length - 1];
    var row = last.cloneNode(true);
    var n = rows.length;
    row.dataset.key = "";
    row.querySelectorAll("input, select").forEach(function (el) {
      el.value = "";
      if (el.tagName === "SELECT") {
        var input = document.createElement("input");
        input.name = "value";
        input.className = el.className;
        el.replaceWith(input);
        el = input;
      }
      if (el.type === "password") el.type = "text";
      el.id = (el.name === "key" ? "key-" : "value-") + n;
    });
    row.querySelectorAll("p, span").forEach(function (x) { x.remove(); });
    var labels = row.querySelectorAll("label");
    if (labels.length === 2) {
      labels[0].htmlFor = "key-" + n;
      labels[1].htmlFor = "value-" + n;
      labels[1].textContent = "Value";
    }
    last.parentNode.appendChild(row);
    row.querySelector("input").focus();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = $("context-form");
    if (form) {
      var auto = $("auto-reload");
      auto.checked = autoReload();
      auto.addEventListener("change", function () {
        localStorage.setItem(AUTO, auto.checked ? "1" : "0");
      });
      $("context-bu").addEventListener("change", onSelect);
      $("context-stage").addEventListener("change", onSelect);
      form.addEventListener("submit", function (e) { e.preventDefault(); go(); });
      syncContext();
    }
    focusProblem(document.getElementById("main"));
    var existing = document.querySelectorAll("#toasts .toast");
    for (var i = 0; i < existing.length; i++) expire(existing[i]);
    if (document.querySelector('#toasts .toast[data-kind="success"]')) {
      savedPending = true;
      focusResult();
    }
    preview();
  });

  document.addEventListener("click", function (e) {
    var t = e.target;
    if (t && t.id === "nav-toggle") {
      var open = document.documentElement.classList.toggle("nav-open");
      t.setAttribute("aria-expanded", open ? "true" : "false");
      t.textContent = open ? "Close" : "Menu";
    }
    if (t && t.classList && t.classList.contains("toast-close")) t.closest(".toast").remove();
    if (t && t.id === "add-row") addRow();
  });

  document.addEventListener("input", function (e) {
    if (e.target && e.target.id === "name") preview();
  });

  // The subject's suffix follows the key/value choice.
  document.addEventListener("change", function (e) {
    if (e.target && (e.target.name === "subject_type" || e.target.hasAttribute("data-type-choice")) && $("name")) {
      $("name").dataset.suffix = "-" + e.target.value;
      preview();
    }
  });

  document.addEventListener("toast", function (e) {
    toast(e.detail.kind, e.detail.message);
  });

  // Back and Forward restore a snapshot of an earlier page: the selector,
  // the stored choice and the links must follow the page that is shown.
  document.addEventListener("htmx:historyRestore", function () {
    clearBusy();
    syncContext();
  });
  window.addEventListener("pageshow", function (e) {
    if (!e.persisted) return;
    // A page that showed a secret took it off as it was left; restored
    // from the back/forward cache, it asks the server again, which says
    // the secret was shown.
    if (document.documentElement.dataset.secretGone) {
      location.reload();
      return;
    }
    syncContext();
  });
  // A secret is shown once: as its page is left (to the back/forward
  // cache, too), the secret leaves the page, replaced by what its
  // data-secret says.
  window.addEventListener("pagehide", function () {
    var found = document.querySelectorAll("[data-secret]");
    if (!found.length) return;
    found.forEach(function (el) {
      var note = document.createElement("p");
      note.textContent = el.getAttribute("data-secret");
      el.replaceChildren(note);
      el.removeAttribute("data-secret");
    });
    document.documentElement.dataset.secretGone = "true";
  });

  // While a request a person asked for is under way (a context switch,
  // Reload, search, paging, a lifecycle button), what it will replace is
  // shown stale and inert, and a bar at the top shows progress. Polling
  // (no triggering event) changes nothing on screen.
  var busy = [];
  function unmark(root) {
    root.querySelectorAll(".is-stale, [aria-busy]").forEach(function (el) {
      el.classList.remove("is-stale");
      el.removeAttribute("aria-busy");
    });
  }
  function clearBusy() {
    busy.forEach(function (el) { el.classList.remove("is-stale"); el.removeAttribute("aria-busy"); });
    busy = [];
    // A page restored by Back may hold marks of a request of its own time.
    unmark(document);
    document.documentElement.classList.remove("is-loading");
  }
  // htmx snapshots the page for Back just before it swaps an answer in,
  // while what the answer replaces is still marked busy: the snapshot
  // must hold the page live.
  document.addEventListener("htmx:beforeHistorySave", function (e) {
    unmark((e.detail && e.detail.historyElt) || document.body);
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    var cfg = e.detail.requestConfig, t = e.detail.target;
    if (!cfg || !cfg.triggeringEvent || !t) return;
    t.classList.add("is-stale");
    t.setAttribute("aria-busy", "true");
    busy.push(t);
    document.documentElement.classList.add("is-loading");
  });
  ["htmx:afterRequest", "htmx:afterSettle", "htmx:sendError", "htmx:responseError"].forEach(function (name) {
    document.addEventListener(name, clearBusy);
  });

  // A form in a read-only stage asks for the stage's name first: a send
  // without it (Enter in any field, or the button) stops here, before
  // anything is sent or htmx sees it, with the field marked at its error.
  document.addEventListener("submit", function (e) {
    var form = e.target, field = form && form.querySelector && form.querySelector("#confirm-stage");
    if (!field) return;
    var note = $("confirm-stage-error");
    if (field.value.trim() === field.getAttribute("data-stage")) {
      field.removeAttribute("aria-invalid");
      if (note) note.hidden = true;
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    field.setAttribute("aria-invalid", "true");
    if (note) note.hidden = false;
    field.focus();
  }, true);

  // After a form comes back with problems, the first one has the focus.
  function focusProblem(root) {
    var bad = root && root.querySelector && root.querySelector('[aria-invalid="true"]');
    if (bad) bad.focus();
  }

  document.addEventListener("htmx:afterSettle", function (e) {
    if (e.detail.target && e.detail.target.id === "main") {
      syncContext();
      // A narrow screen's open menu closes once its link has loaded.
      document.documentElement.classList.remove("nav-open");
      var toggle = $("nav-toggle");
      if (toggle) { toggle.setAttribute("aria-expanded", "false"); toggle.textContent = "Menu"; }
    }
    if (e.detail.xhr && e.detail.xhr.status === 422) focusProblem(e.detail.target);
    preview();
  });

  // Copy buttons (a new API key's secret and client configuration): the
  // text stays selectable without JavaScript.
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-copy]");
    if (!button) return;
    var field = $(button.getAttribute("data-copy"));
    if (!field) return;
    field.select();
    var done = function () { toast("success", "Copied."); };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(field.value).then(done, function () { toast("error", "Select the text and copy it."); });
    } else {
      toast("error", "Select the text and copy it.");
    }
  });

  // The theme button: system, dark, light (theme.js applies it).
  function showTheme() {
    var name = $("theme-name");
    if (name && window.rmsTheme) name.textContent = window.rmsTheme.choice();
  }
  document.addEventListener("click", function (e) {
    if (!e.target.closest || !e.target.closest("#theme-toggle") || !window.rmsTheme) return;
    window.rmsTheme.next();
    showTheme();
  });
  document.addEventListener("DOMContentLoaded", showTheme);
  document.addEventListener("htmx:afterSettle", showTheme);

  // The record browser: copy a record as JSON; follow new records with a
  // poll every 2 s for at most 5 minutes (each poll is a read, audited).
  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("[data-copy-record]");
    if (!b) return;
    var text = b.getAttribute("data-copy-record");
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { toast("success", "Record copied."); },
        function () { toast("error", "The browser refused to copy."); });
    }
  });
  var tailTimer = null;
  function stopTail(msg) {
    clearTimeout(tailTimer);
    tailTimer = null;
    var state = $("records-follow-state");
    if (state) state.textContent = msg;
  }
  function startTail(box) {
    var started = Date.now(), state = $("records-follow-state");
    function poll() {
      if (!box.isConnected || !box.checked) { stopTail(""); return; }
      if (Date.now() - started > 5 * 60 * 1000) {
        box.checked = false;
        stopTail("Stopped after 5 minutes; tick again to go on.");
        return;
      }
      fetch(box.dataset.tail + "&after=" + encodeURIComponent(box.dataset.after), { credentials: "same-origin", headers: { "HX-Request": "true" } })
        .then(function (r) {
          if (!r.ok) throw new Error(String(r.status));
          var next = r.headers.get("X-Records-After");
          if (next) box.dataset.after = next;
          return r.text();
        })
        .then(function (html) {
          if (html.trim()) {
            var rows = $("record-rows"), before = rows.querySelectorAll("[data-record-row]").length;
            rows.insertAdjacentHTML("afterbegin", html);
            var none = $("no-records");
            if (none) none.remove();
            // The count says how many rows stand in the table.
            var count = $("records-count");
            if (count) {
              var n = Number(count.dataset.count || 0) + rows.querySelectorAll("[data-record-row]").length - before;
              count.dataset.count = String(n);
              count.textContent = n.toLocaleString("en") + (n === 1 ? " record" : " records");
            }
          }
          // The time checked, as the records' times: UTC, to the millisecond.
          if (state) state.textContent = "Following; checked at " + new Date().toISOString().replace("T", " ").replace("Z", " UTC");
          tailTimer = setTimeout(poll, 2000);
        })
        .catch(function (err) {
          box.checked = false;
          stopTail("Stopped: a read failed (" + err.message + ").");
        });
    }
    poll();
  }
  document.addEventListener("change", function (e) {
    if (e.target.id !== "records-follow") return;
    if (e.target.checked) { startTail(e.target); } else { stopTail("Stopped."); }
  });

  // The search box: Ctrl+K (or ⌘K, or / outside a field) puts the cursor
  // in it; the arrow keys walk its results; Escape clears them.
  document.addEventListener("keydown", function (e) {
    var box = $("search-q");
    if (!box) return;
    var inField = /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName) || e.target.isContentEditable;
    if ((e.key === "k" || e.key === "K") && (e.ctrlKey || e.metaKey) || (e.key === "/" && !inField)) {
      e.preventDefault();
      if (!document.documentElement.classList.contains("nav-open") && box.offsetParent === null) {
        var toggle = $("nav-toggle");
        if (toggle) toggle.click();
      }
      box.focus();
      box.select();
      return;
    }
    var results = $("search-results");
    if (!results || !results.contains(e.target) && e.target !== box) return;
    var links = Array.prototype.slice.call(results.querySelectorAll("a"));
    var at = links.indexOf(e.target);
    if (e.key === "ArrowDown" && links.length) {
      e.preventDefault();
      links[Math.min(at + 1, links.length - 1)].focus();
    } else if (e.key === "ArrowUp" && at >= 0) {
      e.preventDefault();
      if (at === 0) { box.focus(); } else { links[at - 1].focus(); }
    } else if (e.key === "Escape") {
      results.innerHTML = "";
      box.value = "";
      box.focus();
    }
  });

  // Errors without a message from the server still say something.
  document.addEventListener("htmx:responseError", function (e) {
    var xhr = e.detail.xhr;
    if (xhr && !xhr.getResponseHeader("HX-Trigger") && !xhr.getResponseHeader("HX-Redirect")) {
      toast("error", "The request failed (" + xhr.status + "). Try again.");
    }
  });
  document.addEventListener("htmx:sendError", function () {
    toast("error", "The portal cannot be reached. Check your connection and try again.");
  });
})();

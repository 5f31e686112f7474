// Progressive enhancement only: every page works without this file.
// A whole number from a field, an attribute or a choice; NaN for anything else ("" is 0).
function whole(text) {
  "use strict";
  var n = Number(text);
  return Number.isInteger(n) ? n : NaN;
}

(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // Steppers: big − and + buttons around a number field.
  function bump(button) {
    var input = button.parentElement.querySelector("input");
    var max = whole(input.max), value = whole(input.value) || 0;
    value = Math.min(max, Math.max(0, value + whole(button.dataset.step)));
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // "… tricks: n left": the same check the server makes, while the player counts.
  function recount(fieldset) {
    var total = whole(fieldset.dataset.total), sum = 0;
    fieldset.querySelectorAll("input[type=number]").forEach(function (input) { sum += whole(input.value) || 0; });
    fieldset.querySelectorAll("input[type=radio]:checked").forEach(function (input) { sum += whole(input.value) || 0; });
    var out = fieldset.querySelector(".remaining");
    out.classList.toggle("done", sum === total);
    out.classList.toggle("over", sum > total);
    // The page brings the sentence for every possible sum, in the player's language and plural forms.
    out.textContent = JSON.parse(fieldset.dataset.counter)[sum] || "";
  }

  // Doubles: two players cannot double each other; doubling back is the redouble.
  function mirror(form) {
    form.querySelectorAll(".cell").forEach(function (cell) {
      var other = form.querySelector('.cell[data-by="' + cell.dataset.target + '"][data-target="' + cell.dataset.by + '"]');
      var chosen = cell.querySelector("input:checked");
      if (!other) { return; }
      other.querySelectorAll("input").forEach(function (input) {
        input.disabled = Boolean(chosen && chosen.value) && input.value !== "";
      });
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest(".step");
    if (button) { bump(button); }
    var copy = event.target.closest("input.copy");
    if (copy) { copy.select(); }
    // A tap on the count already shown (the 0 every row starts at) enters it too: no change event
    // fires for a radio that was checked, yet the player said "none" and the last row can be filled.
    var counted = event.target.matches && event.target.matches(".chips.count input:checked") && event.target.closest(".counted");
    if (counted) { fillLast(counted, event.target.closest(".chips.count")); recount(counted); summarise(counted); }
  });
  // A number field selects what it shows when tapped: typing replaces the 0 instead of adding to it.
  document.addEventListener("focusin", function (event) {
    var field = event.target;
    if (field.matches && field.matches("input[type=number]") && field.select) { field.select(); }
  });
  document.addEventListener("input", function (event) {
    var fieldset = event.target.closest(".counted");
    if (fieldset) { recount(fieldset); }
  });
  // Every player counted but one: that one gets what is left, said on its row ("Dee: 1, the rest"),
  // so a hand takes one tap per player less and nothing is assumed out of sight. A player tapped by
  // hand is never filled in again, so a total that does not add up is refused, not absorbed.
  function fillLast(fieldset, changed) {
    changed.dataset.touched = "1";
    changed.classList.remove("auto");
    changed.querySelector(".filled-note").textContent = "";
    var groups = Array.prototype.slice.call(fieldset.querySelectorAll(".chips.count"));
    var open = groups.filter(function (g) { return !g.dataset.touched; });
    if (open.length !== 1) { return; }
    var sum = 0;
    groups.forEach(function (g) {
      var c = g.querySelector("input:checked");
      if (g !== open[0] && c) { sum += whole(c.value) || 0; }
    });
    var left = whole(fieldset.dataset.total) - sum;
    var rest = open[0].querySelector('input[value="' + left + '"]');
    if (rest) {
      rest.checked = true;
      open[0].classList.add("auto");
      open[0].querySelector(".filled-note").textContent = fieldset.dataset.rest
        .replace("{name}", open[0].querySelector("legend").textContent).replace("{count}", left);
    }
  }

  // "Save records: Ann … · Bob … · …": what a tap on Save will record, said before the tap.
  function summarise(fieldset) {
    var out = fieldset.form && fieldset.form.querySelector(".save-summary");
    if (!out) { return; }
    var parts = [];
    fieldset.querySelectorAll(".chips.count").forEach(function (g) {
      var c = g.querySelector("input:checked");
      parts.push(g.querySelector("legend").textContent + " " + (c ? c.value : "–"));
    });
    out.textContent = out.dataset.label.replace("{counts}", parts.join(" · "));
  }

  document.addEventListener("change", function (event) {
    var fieldset = event.target.closest(".counted");
    var group = event.target.closest(".chips.count");
    if (fieldset && group) { fillLast(fieldset, group); }
    if (fieldset) { recount(fieldset); summarise(fieldset); }
    var form = event.target.closest("form.hand");
    if (form && event.target.closest(".cell")) { mirror(form); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".counted").forEach(function (fieldset) {
      // A hand being corrected: every count was entered, none is filled in.
      fieldset.querySelectorAll(".chips.count").forEach(function (g) {
        if (g.querySelector("input:checked")) { g.dataset.touched = "1"; }
      });
      recount(fieldset);
      summarise(fieldset);
    });
    document.querySelectorAll("form.hand").forEach(mirror);
  });
})();

// Dominoes: one player per place. A player chosen for a place is taken out of the other places,
// and once three places are chosen by hand the last shows the one player left, said as such.
(function () {
  "use strict";
  function groups(box) { return Array.prototype.slice.call(box.querySelectorAll(".chips")); }
  function chosen(group) { var c = group.querySelector("input:checked"); return c ? c.value : null; }

  function settle(box, changed) {
    if (changed) {
      changed.dataset.touched = "1";
      changed.classList.remove("auto");
      changed.querySelector(".filled-note").textContent = "";
    }
    var all = groups(box);
    var open = all.filter(function (g) { return !g.dataset.touched; });
    var taken = all.filter(function (g) { return g.dataset.touched; }).map(chosen).filter(Boolean);
    open.forEach(function (g) {
      if (g.classList.contains("auto")) { g.querySelectorAll("input").forEach(function (i) { i.checked = false; }); }
      g.classList.remove("auto");
      g.querySelector(".filled-note").textContent = "";
    });
    if (open.length === 1 && taken.length === all.length - 1) {
      var left = open[0].querySelectorAll("input");
      var rest = Array.prototype.filter.call(left, function (i) { return taken.indexOf(i.value) < 0; })[0];
      if (rest) {
        rest.checked = true;
        open[0].classList.add("auto");
        open[0].querySelector(".filled-note").textContent = box.dataset.rest
          .replace("{place}", open[0].querySelector("legend").textContent)
          .replace("{name}", rest.parentElement.querySelector("span").textContent);
      }
    }
    all.forEach(function (g) {
      var mine = chosen(g);
      g.querySelectorAll("input").forEach(function (i) {
        // Taken by another place chosen by hand (the one left, filled in, moves instead of blocking).
        i.disabled = i.value !== mine && all.some(function (o) { return o !== g && o.dataset.touched && chosen(o) === i.value; });
      });
    });
  }

  document.addEventListener("change", function (event) {
    var box = event.target.closest && event.target.closest(".places");
    if (box) { settle(box, event.target.closest(".chips")); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".places").forEach(function (box) {
      // A hand being corrected: every place was entered by hand.
      groups(box).forEach(function (g) { if (chosen(g)) { g.dataset.touched = "1"; } });
      settle(box, null);
    });
  });
})();

// Cancellation Hearts: the live "hearts left / Black Marias left" counter, the rest filled in
// the way the server fills it in, and the moon choice shown only when one player took everything.
(function () {
  "use strict";
  // The totals come with the page, from the rules engine: hearts and Black Marias in play.
  function totals(form) {
    return { hearts: whole(form.querySelector(".hearts-left").dataset.total),
             marias: whole(form.querySelector(".marias-left").dataset.total) };
  }

  function read(row) {
    var input = row.querySelector(".stepper input"), text = input.value.trim();
    var maria = row.querySelector(".marias input:checked");
    return { row: row, input: input, name: row.dataset.name,
             hearts: text === "" ? null : (whole(text) || 0), marias: maria ? whole(maria.value) : 0 };
  }

  function tickedSeat(form) {
    var ticked = form.querySelector('input[name="rest_to"]:checked');
    return ticked && ticked.value !== "" ? whole(ticked.value) : null;
  }

  function restSeat(form, all) {
    var empty = all.filter(function (r) { return r.hearts === null; });
    var seat = tickedSeat(form);
    return seat !== null ? seat : empty.length === 1 ? all.indexOf(empty[0]) : null;
  }

  function show(span, left) {
    span.classList.toggle("done", left === 0);
    span.classList.toggle("over", left < 0);
    span.textContent = left >= 0 ? span.dataset.left.replace("{n}", left) : span.dataset.over.replace("{n}", -left);
  }

  function update(form) {
    var rules = totals(form), HEARTS = rules.hearts, MARIAS = rules.marias;
    var all = Array.prototype.map.call(form.querySelectorAll(".player-row"), read);
    var seat = restSeat(form, all), ticked = tickedSeat(form) !== null;
    var hearts = 0, marias = 0;
    all.forEach(function (r, i) { if (i !== seat) { hearts += r.hearts || 0; marias += r.marias; } });
    all.forEach(function (r, i) {
      var isRest = i === seat;
      r.row.classList.toggle("rest", isRest);
      r.input.readOnly = isRest && ticked;
      r.row.querySelectorAll(".step").forEach(function (b) { b.disabled = isRest && ticked; });
      var note = r.row.querySelector(".rest-note");
      r.input.placeholder = "";
      note.textContent = "";
      if (!isRest) { return; }
      r.hearts = Math.max(0, HEARTS - hearts);
      r.marias = Math.max(0, MARIAS - marias);
      note.textContent = note.dataset.note.replace("{hearts}", r.hearts).replace("{marias}", r.marias);
      if (ticked) {
        r.input.value = r.hearts;
        var chip = r.row.querySelector('.marias input[value="' + r.marias + '"]');
        if (chip) { chip.checked = true; }
      } else {
        r.input.placeholder = r.hearts;
      }
    });
    var total = all.reduce(function (sum, r) { return sum + (r.hearts || 0); }, 0);
    var maria = all.reduce(function (sum, r) { return sum + r.marias; }, 0);
    show(form.querySelector(".hearts-left"), HEARTS - total);
    show(form.querySelector(".marias-left"), MARIAS - maria);
    summarise(form, all, seat);
    var shooter = all.filter(function (r) { return r.hearts === HEARTS && r.marias === MARIAS; })[0];
    var moon = form.querySelector(".moon"), who = moon.querySelector(".who");
    moon.dataset.shot = shooter ? "yes" : "no";
    if (shooter) { who.textContent = who.dataset.who.replace("{name}", function () { return shooter.name; }); }
    // A choice left from a moon that is no longer there would be refused: the rules take none without a moon.
    else { moon.querySelectorAll("input:checked").forEach(function (input) { input.checked = false; }); }
  }

  // "Save records: Ann … ♥ · Bob … ♥ … Q♠ · Cid … ♥ (the rest)": what a tap on Save records.
  function summarise(form, all, seat) {
    var out = form.querySelector(".save-summary");
    var marias = form.querySelector(".marias .what").textContent;
    var parts = all.map(function (r, i) {
      var part = r.name + " " + (r.hearts === null ? "–" : r.hearts) + " ♥" + (r.marias ? " " + r.marias + " " + marias : "");
      return i === seat ? part + " " + out.dataset.rest : part;
    });
    out.textContent = out.dataset.label.replace("{counts}", parts.join(" · "));
  }

  function onChange(event) {
    var form = event.target.closest && event.target.closest("form.hearts-hand");
    if (form) { update(form); }
  }
  document.addEventListener("input", onChange);
  document.addEventListener("change", onChange);
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form.hearts-hand").forEach(update);
  });
})();

// Kozyol: the other team's points (the deck's points minus the pile counted), the card counter's running
// total, the trick question only for a team left with 0 points, and the teams as they sit.
(function () {
  "use strict";

  function checked(form, name) {
    var input = form.querySelector('input[name="' + name + '"]:checked');
    return input ? input.value : null;
  }

  // Points of the pile counted, as the server reads them (an empty card count is 0).
  function counted(form) {
    if (checked(form, "mode") === "cards") {
      var sum = 0, ok = true;
      form.querySelectorAll(".by-cards .rank").forEach(function (rank) {
        var input = rank.querySelector("input"), text = input.value.trim(), n = text === "" ? 0 : Number(text);
        if (!Number.isInteger(n) || n < 0 || n > whole(input.max)) { ok = false; }
        sum += n * whole(rank.dataset.value);
      });
      return ok ? sum : null;
    }
    var points = form.querySelector('input[name="points"]').value.trim();
    return /^\d+$/.test(points) ? whole(points) : null;
  }

  function update(form) {
    var total = whole(form.dataset.total), side = checked(form, "side"), mine = counted(form), split = null;
    if (mine !== null && mine <= total && (side === "0" || side === "1")) {
      split = side === "0" ? [mine, total - mine] : [total - mine, mine];
    }
    form.querySelectorAll(".split [data-team]").forEach(function (out) {
      out.textContent = split ? split[out.dataset.team] : "–";
    });
    var tricks = form.querySelector(".tricks"), asked = false;
    if (tricks.querySelector(".error")) { return; }  // a refusal stays in view
    tricks.querySelectorAll(".took").forEach(function (took) {
      var zero = split !== null && split[took.dataset.team] === 0;
      took.hidden = !zero;
      asked = asked || zero;
    });
    tricks.hidden = !asked;
  }

  // New match: each seat of the plan shows the name typed for it (the seat menus follow below).
  function seat(input) {
    var found = /^players-(\d+)$/.exec(input.name || ""), form = input.form;
    var plan = found && form && form.querySelector("[data-live-seating]");
    if (!plan) { return; }
    var name = input.value.trim(), spot = plan.querySelector('[data-seat="' + found[1] + '"]');
    if (spot) { spot.textContent = name || spot.dataset.empty; }
  }

  function onChange(event) {
    var form = event.target.closest && event.target.closest("form.kozyol-deal");
    if (form) { update(form); }
    if (event.type === "input" && event.target.matches && event.target.matches("input[name^='players-']")) { seat(event.target); }
  }
  document.addEventListener("input", onChange);
  document.addEventListener("change", onChange);
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form.kozyol-deal").forEach(update);
    document.querySelectorAll("[data-live-seating]").forEach(function (plan) {
      plan.closest("form").querySelectorAll("input[name^='players-']").forEach(seat);
    });
  });
})();

// Live: every phone on a match page follows new, corrected and undone hands without reloading.
// It polls the match state with its ETag (a 304 costs the server almost nothing) and, when the
// version changed, fetches the page again and swaps the content in place.
(function () {
  "use strict";
  var url = document.body.dataset.live;
  if (!url || !window.fetch) { return; }
  // The version the page was drawn at: any newer one redraws it, even one from before the first poll.
  var etag = document.body.dataset.etag || null, busy = false, leaving = false, VISIBLE = 2000, HIDDEN = 15000;
  // A phone that is leaving (a form sent, a link followed) must not redraw the page it leaves.
  window.addEventListener("pagehide", function () { leaving = true; });
  document.addEventListener("submit", function () { leaving = true; });

  function editing() {
    var active = document.activeElement;
    return active && active.form && active.form.method === "post" && !active.form.classList.contains("quiet");
  }

  function refresh() {
    return fetch(window.location.href, { headers: { "Accept": "text/html", "X-Live-Redraw": "1" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html || leaving) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
        var main = document.querySelector("main");
        if (fresh && main) {
          main.innerHTML = fresh.innerHTML;
          main.dispatchEvent(new CustomEvent("scorekeeper:updated", { bubbles: true }));
        }
      });
  }

  function poll() {
    if (leaving) { return; }
    if (busy || editing()) { return schedule(); }
    busy = true;
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { headers: headers, credentials: "same-origin", cache: "no-cache" })
      .then(function (response) {
        // The server answered (a proxy's server error says it did not): the Outbox section below sends what this phone kept.
        document.dispatchEvent(new CustomEvent(response.status < 500 ? "scorekeeper:online" : "scorekeeper:offline"));
        if (response.status === 200) {
          etag = response.headers.get("ETag");
          return refresh();
        }
      })
      .catch(function () {
        // Offline for a moment: try again later; meanwhile the page says since when (Outbox section).
        document.dispatchEvent(new CustomEvent("scorekeeper:offline"));
      })
      .then(function () { busy = false; schedule(); });
  }

  var timer = null;
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(poll, document.hidden ? HIDDEN : VISIBLE);
  }
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { poll(); } });
  poll();
})();

// New match: seat menus (who declares or deals first) show the names as they are typed.
(function () {
  "use strict";
  function relabel(form) {
    form.querySelectorAll("select option").forEach(function (option) {
      if (!/^\d+$/.test(option.value)) { return; }
      if (!option.dataset.label) { option.dataset.label = option.textContent; }
      var input = form.querySelector('input[name="players-' + option.value + '"]');
      var name = input && input.value.trim();
      option.textContent = name ? option.dataset.label + ": " + name : option.dataset.label;
    });
  }
  document.addEventListener("input", function (event) {
    if (/^players-\d+$/.test(event.target.name || "")) { relabel(event.target.form); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var first = document.querySelector('input[name="players-0"]');
    if (first && first.form) { relabel(first.form); }
  });
})();

// Times written in UTC by the server (the edit history) shown in the phone's own time and language.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("time[data-local]").forEach(function (time) {
      var at = new Date(time.getAttribute("datetime"));
      if (!isNaN(at)) { time.textContent = at.toLocaleString(document.documentElement.lang || undefined); }
    });
  });
})();

// A sheet wider than the phone says it scrolls sideways; one that fits keeps quiet.
(function () {
  "use strict";
  function hint() {
    document.querySelectorAll("[data-scroll-hint]").forEach(function (note) {
      var sheet = note.nextElementSibling;
      note.hidden = !sheet || sheet.scrollWidth <= sheet.clientWidth + 1;
    });
  }
  document.addEventListener("DOMContentLoaded", hint);
  document.addEventListener("scorekeeper:updated", hint);
  window.addEventListener("resize", hint);
})();

// Outbox: a hand saved while the server cannot be reached is kept on this phone and sent by itself, in
// order, once the server answers again; the page says how many hands wait and since when the phone is
// offline. Each hand carries a key made here, so a hand whose answer was lost and is sent again is still
// saved once. A hand another phone recorded meanwhile is shown beside what was recorded, with the choice
// to record it as the next hand or to discard it; a hand the rules now refuse is shown with their reason.
// Kept in localStorage rather than IndexedDB: a kept hand is a few hundred bytes, written in one
// synchronous call before Save returns (the tab may close or the phone sleep right after) and read at
// once when a page opens; the browser keeps and evicts both kinds of storage alike.
(function () {
  "use strict";
  var panel = document.getElementById("outbox");
  if (!panel || !window.fetch || !window.URLSearchParams || !window.WeakMap) { return; }
  var HANDS = "scorekeeper.outbox", SEEN = "scorekeeper.seen";
  var PATIENCE = 8000, FIRST_RETRY = 2000, LAST_RETRY = 30000;  // ms: a save's answer, then the pauses between tries
  var says = panel.dataset, store = null;
  try { store = window.localStorage; store.getItem(HANDS); } catch (err) { store = null; }  // switched off

  var pristine = new WeakMap();  // each hand form as the server drew it, to start the next hand afresh
  var landed = {};               // key -> where a hand sent from this page landed
  var offlineSince = null, current = null, sending = null, again = false, timer = null, wait = 0;
  var note = { text: "", key: null };  // what the last Save did, said until that hand is sent

  // -- the kept hands, oldest first; every change reads them afresh (another tab may have changed them)
  function load() {
    try { return (store && JSON.parse(store.getItem(HANDS))) || []; } catch (err) { return []; }
  }
  function write(items) { store.setItem(HANDS, JSON.stringify(items)); }  // throws when the storage is full
  function find(key) { return load().filter(function (item) { return item.key === key; })[0] || null; }
  function drop(key) { write(load().filter(function (item) { return item.key !== key; })); }
  function update(key, fields) {
    write(load().map(function (item) { return item.key === key ? Object.assign(item, fields) : item; }));
  }
  function put(item) {
    if (!store) { return false; }
    try { write(load().concat([item])); return true; } catch (err) { return false; }
  }

  // A key for each hand entered, made here: a random UUID (HTTPS and localhost) or, without one (plain
  // HTTP on a home network), the time and two random draws, as unlikely to meet another phone's.
  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    return [Date.now(), Math.random(), Math.random()].join("-").replace(/0\./g, "");
  }
  function field(form, name) { return form.elements.namedItem(name); }
  function label(item) { return item.label.replace("{n}", item.number); }

  // -- hand forms
  function fromForm(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "number" && name !== "idempotency_key" && typeof value === "string") { fields.push([name, value]); }
    });
    return { key: field(form, "idempotency_key").value, match: form.dataset.match, page: form.dataset.matchUrl,
             url: form.action, kind: form.dataset.kind, label: form.dataset.label,
             number: whole(field(form, "number").value), fields: fields, at: Date.now(), state: "waiting" };
  }

  // A form for a new hand follows the hands kept for its match (it numbers the hand after the last one
  // kept) and the hands the server said it has (floor: the next number it gave).
  function follow(form) {
    if (form.dataset.kind !== "record") { return; }
    var number = whole(form.dataset.floor);
    load().forEach(function (item) {
      if (item.match === form.dataset.match && item.kind === "record") { number = Math.max(number, item.number + 1); }
    });
    renumber(form, number);
  }

  function renumber(form, number) {
    var input = field(form, "number"), old = input.value;
    if (String(number) === old) { return; }
    var pattern = new RegExp("(^|\\D)" + old + "(?!\\d)");
    [form.querySelector("h1"), form.querySelector("button[type=submit]")].forEach(function (node) {
      if (node) { node.textContent = node.textContent.replace(pattern, "$1" + number); }
    });
    document.title = document.title.replace(pattern, "$1" + number);
    input.value = number;
    // Who deals and declares depend on hands the server has not seen yet: shown again once it has.
    form.querySelectorAll(".upcoming").forEach(function (node) { node.hidden = number !== whole(form.dataset.drawn); });
  }

  function heard(match, next) {
    document.querySelectorAll("form[data-outbox]").forEach(function (form) {
      if (form.dataset.match === match) {
        form.dataset.floor = Math.max(whole(form.dataset.floor), next);
        follow(form);
      }
    });
  }

  function prepare(form) {
    field(form, "idempotency_key").value = newKey();
    follow(form);
  }

  // The next hand, entered offline: the form as the server drew it, set up again by every section.
  function restart(form) {
    form.innerHTML = pristine.get(form);
    document.dispatchEvent(new Event("DOMContentLoaded"));
  }

  // -- sending
  function send(item) {
    var body = new URLSearchParams();
    item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    body.append("number", item.number);
    body.append("idempotency_key", item.key);
    // A Wi-Fi that hangs instead of failing gets a few seconds; if the save went through meanwhile, the
    // next try under the same key is answered as saved, and nothing is saved twice.
    var abort = window.AbortController ? new AbortController() : null;
    var timeout = abort && setTimeout(function () { abort.abort(); }, PATIENCE);
    return fetch(item.url, { method: "POST", body: body, credentials: "same-origin", signal: abort && abort.signal,
                             headers: { "Accept": "application/json" } })
      .then(function (response) {
        return response.json().catch(function () { return null; }).then(function (answer) { return read(item, response.status, answer); });
      })
      .catch(function () { return { kind: "offline" }; })
      .then(function (result) { clearTimeout(timeout); return result; });
  }

  // What became of a hand sent: saved, taken meanwhile, refused (with the server's sentence), or no answer.
  function read(item, status, answer) {
    var error = answer && answer.error;
    if (status < 300 && answer && answer.location) { return { kind: "saved", location: answer.location }; }
    if (!error || status === 429 || status >= 500) { return { kind: "offline" }; }
    if (status === 422 && error.fields && error.fields.csrf_token) { return { kind: "stale", message: error.message }; }
    if (status === 409 && item.kind !== "record") { return { kind: "busy" }; }  // a correction that met another write: again
    return { kind: status === 409 ? "taken" : "refused", message: error.message, recorded: answer.recorded || [],
             yours: answer.yours || [], next: typeof answer.next === "number" ? answer.next : null };
  }

  // A hand kept overnight carries a form token too old: the form's page gives a fresh one.
  function refreshed(item) {
    return fetch(item.url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) { return response.ok ? response.text() : ""; })
      .then(function (html) {
        var token = new DOMParser().parseFromString(html, "text/html").querySelector('input[name="csrf_token"]');
        if (!token) { return false; }
        item.fields = item.fields.map(function (pair) { return pair[0] === "csrf_token" ? [pair[0], token.value] : pair; });
        update(item.key, { fields: item.fields });
        return true;
      }, function () { return false; });
  }

  function deliver(item) {
    return send(item).then(function (result) {
      if (result.kind !== "stale") { return result; }
      return refreshed(item).then(function (fresh) { return fresh ? send(item) : result; }).then(function (last) {
        return last.kind === "stale" ? { kind: "refused", message: last.message, recorded: [], yours: [], next: null } : last;
      });
    });
  }

  // One hand at a time, oldest first. A hand waiting for the player's choice holds back the later hands
  // of its match (they were entered after it); other matches go on.
  function sendable() {
    var held = {};
    return load().filter(function (item) {
      if (item.state !== "waiting") { held[item.match] = true; return false; }
      return !held[item.match];
    })[0] || null;
  }

  // One round of sending at a time; a call during a round asks for another, and hears when that one ends.
  function flush() {
    if (!store) { return Promise.resolve(); }
    if (sending) { again = true; return sending; }
    var round = function () {
      again = false;
      return sendNext().then(function () { return again ? round() : null; });
    };
    sending = round().then(function () { sending = null; });
    return sending;
  }

  function sendNext() {
    var item = sendable();
    clearTimeout(timer);
    if (!item) { wait = 0; render(); return Promise.resolve(); }
    current = item.key;
    render();
    return deliver(item).then(function (result) {
      current = null;
      if (result.kind === "offline" || result.kind === "busy") {
        if (result.kind === "offline") { offline(); }
        wait = Math.min(wait + FIRST_RETRY, LAST_RETRY);  // a little longer each time
        timer = setTimeout(flush, wait);
        render();
        return;
      }
      online();
      if (result.kind === "saved") {
        landed[item.key] = result.location;
        drop(item.key);
        if (item.kind === "record") { heard(item.match, item.number + 1); }
      } else {
        if (result.next !== null) { heard(item.match, result.next); }
        update(item.key, { state: result.kind, message: result.message, recorded: result.recorded,
                           yours: result.yours, next: result.next });
      }
      return sendNext();
    });
  }

  // -- what the page says
  function online() {
    try { store.setItem(SEEN, String(Date.now())); } catch (err) { /* nothing to remember it in */ }
    reconnected();
  }
  function reconnected() {
    offlineSince = null;
    if (!note.key) { note = { text: "", key: null }; }
    render();
  }
  function offline() {
    if (offlineSince === null) {
      var seen = store ? whole(store.getItem(SEEN)) : 0;
      offlineSince = seen > 0 ? seen : Date.now();
    }
    render();
  }

  function clock(ms) {
    return new Date(ms).toLocaleTimeString([], { timeStyle: "short" });
  }

  // "… hands waiting to send": the page brings the sentence for each plural category of its language.
  function waiting(count) {
    var sentences = JSON.parse(says.waiting), lang = document.documentElement.lang || undefined;
    var category = window.Intl && Intl.PluralRules ? new Intl.PluralRules(lang).select(count) : "other";
    return (sentences[category] || sentences.other).replace("{n}", count);
  }

  function add(parent, tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text) { node.textContent = text; }
    parent.appendChild(node);
    return node;
  }

  function here(item) {
    return window.location.pathname === item.page || window.location.pathname.indexOf(item.page + "/") === 0;
  }

  function choice(item) {
    var box = add(panel, "div", "card choice " + item.state);
    add(box, "p", "", label(item)).style.fontWeight = "700";
    add(box, "p", "", item.message);
    if (item.state === "taken" && (item.yours.length || item.recorded.length)) {
      var sides = add(box, "div", "sides");
      [[says.mine, item.yours], [says.recorded, item.recorded]].forEach(function (side) {
        var column = add(sides, "div", "side");
        add(column, "h3", "", side[0]);
        var list = add(column, "ul");
        side[1].forEach(function (line) { add(list, "li", "", line); });
      });
    }
    var actions = add(box, "p", "actions");
    if (item.state === "taken" && item.kind === "record" && item.next !== null) {
      add(actions, "button", "button primary", says.again).addEventListener("click", function () { moveOn(item.key); });
    }
    add(actions, "button", "button", says.discard).addEventListener("click", function () { discard(item.key); });
    if (!here(item)) { add(actions, "a", "button", says.open).href = item.page; }
  }

  function render() {
    var items = load(), queued = items.filter(function (item) { return item.state === "waiting"; });
    if (note.key && !queued.some(function (item) { return item.key === note.key; })) { note = { text: "", key: null }; }
    panel.textContent = "";
    if (offlineSince !== null) {
      var since = says.offline.replace("{time}", clock(offlineSince));
      add(panel, "p", "offline", document.body.dataset.live ? since + " " + says.stale : since);
    }
    if (note.text) { add(panel, "p", "kept", note.text); }
    if (queued.length) {
      add(panel, "h2", "", waiting(queued.length));
      var list = add(panel, "ul", "waiting");
      queued.forEach(function (item) {
        add(list, "li", "", item.key === current ? label(item) + " · " + says.sending : label(item));
      });
    }
    items.forEach(function (item) { if (item.state !== "waiting") { choice(item); } });
    panel.hidden = !panel.firstChild;
  }

  // -- the player's choices
  // "Record as the next hand": this hand, and the hands kept after it for its match, follow the recorded ones.
  function moveOn(key) {
    var items = load(), item = find(key), after = false;
    if (!item || item.next === null) { return; }
    var shift = item.next - item.number;
    items.forEach(function (other) {
      after = after || other.key === key;
      if (after && other.match === item.match && other.kind === "record") {
        // Another hand now, under a key of its own: the old key's write was refused, the later ones never sent.
        Object.assign(other, { number: other.number + shift, key: newKey(), state: "waiting", message: "",
                               recorded: [], yours: [], next: null });
      }
    });
    write(items);
    refresh();
  }

  function discard(key) {
    drop(key);
    refresh();
  }

  function refresh() {
    document.querySelectorAll("form[data-outbox]").forEach(follow);
    render();
    flush();
  }

  // -- Save
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-outbox]")) { return; }
    event.preventDefault();
    if (form.dataset.saving) { return; }  // a second tap while the first is on its way
    form.dataset.saving = "1";
    var item = fromForm(form), earlier = load().some(function (other) { return other.match === item.match; });
    var kept = put(item);
    if (kept) {
      flush().then(function () { settle(form, item, earlier); });
      return;
    }
    // This phone cannot keep it (storage full or switched off): send it as it is, and say so if that fails.
    deliver(item).then(function (result) {
      delete form.dataset.saving;
      if (result.kind === "saved") {
        window.location.assign(result.location);
      } else if (result.kind === "offline") {
        note = { text: says.unkept, key: null };
        offline();
        window.scrollTo(0, 0);
      } else {
        form.submit();
      }
    });
  });

  function settle(form, item, earlier) {
    delete form.dataset.saving;
    var now = find(item.key);
    if (landed[item.key] || !now) { window.location.assign(landed[item.key] || item.page); return; }
    if (now.state !== "waiting" && !earlier) {
      // Answered at once: the server's page says it, as without this script (a refusal beside its field).
      drop(item.key);
      form.submit();
      return;
    }
    // Kept: for want of a connection, or behind a hand that waits for the player's choice (shown above).
    note = { text: offlineSince === null ? "" : says.kept.replace("{hand}", label(item)), key: item.key };
    if (item.kind === "record") { restart(form); } else { prepare(form); }
    render();
    window.scrollTo(0, 0);
  }

  // -- when to send
  document.querySelectorAll("form[data-outbox]").forEach(function (form) {
    pristine.set(form, form.innerHTML);
    form.dataset.drawn = form.dataset.floor = field(form, "number").value;
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-outbox]").forEach(prepare);
  });
  document.addEventListener("scorekeeper:online", function () { online(); flush(); });
  document.addEventListener("scorekeeper:offline", offline);
  // The phone's network is back (the server may not be yet): with nothing to send, there is nothing to say.
  window.addEventListener("online", function () { if (!sendable()) { reconnected(); } flush(); });
  window.addEventListener("offline", offline);
  window.addEventListener("storage", function (event) { if (event.key === HANDS) { refresh(); } });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { flush(); } });
  if (navigator.onLine === false) { offline(); }
  render();
  flush();
})();

// Installable: the service worker (static/sw.js) keeps the app's pages and files for when the server
// cannot be reached; browsers run it over HTTPS and on localhost. Each page tells it which pages the
// phone will want next: the next hand's forms, and this page when it came before the worker did.
(function () {
  "use strict";
  var script = document.querySelector("script[data-worker]"), worker = script && script.dataset.worker;
  if (!worker || !navigator.serviceWorker || !window.isSecureContext) { return; }
  var drawnWithout = !navigator.serviceWorker.controller;
  navigator.serviceWorker.register(worker).catch(function () { /* every page works without it */ });

  function keep() {
    var controller = navigator.serviceWorker.controller;
    if (!controller) { return; }
    var urls = Array.prototype.map.call(document.querySelectorAll("main a[href]"), function (a) { return a.href; })
      .filter(function (href) { return /\/hands\/new(\?|$)/.test(href); });
    if (drawnWithout) { urls.push(window.location.href); drawnWithout = false; }
    if (urls.length) { controller.postMessage({ keep: urls }); }
  }
  navigator.serviceWorker.addEventListener("controllerchange", keep);
  document.addEventListener("scorekeeper:updated", keep);
  document.addEventListener("DOMContentLoaded", keep);
})();

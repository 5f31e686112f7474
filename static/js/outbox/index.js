// Outbox: a hand saved while the server cannot be reached is kept on this phone and sent by itself, in
// order, once the server answers again; the page says how many hands wait and since when the phone is
// offline. Each hand carries a key made here, so a hand whose answer was lost and is sent again is still
// saved once. A hand another phone recorded meanwhile is shown beside what was recorded, with the choice
// to record it as the next hand or to discard it; a hand the rules now refuse is shown with their reason.
// Kept in localStorage rather than IndexedDB: a kept hand is a few hundred bytes, written in one
// synchronous call before Save returns (the tab may close or the phone sleep right after) and read at
// once when a page opens; the browser keeps and evicts both kinds of storage alike.
import {
  HANDS, SEEN, answered, drop, find, follow, fromForm, handForms, heard, lastAnswered, load, lost, newKey, openStore,
  prepare, put, remember, restart, touched, update, write,
} from "./hands.js";
import { relanguage } from "./language.js";
import * as network from "./network.js";
import { carried, nextContract } from "./next.js";
import { pending } from "./pending.js";
import { draw, label } from "./panel.js";
import { RETRY, alone, renew } from "./sender.js";

const PATIENCE = 8000, FIRST_RETRY = 2000, LAST_RETRY = 30000;  // ms: a save's answer, then the pauses between tries
const NOTICE = 12000;  // ms a notice that needs no answer ("Hand n: already recorded") stays

let panel = null, says = null, usable = false;
const landed = {};  // key -> where a hand sent from this page landed
// lost: this phone's list of kept hands was found cleared while it held hands (said until understood).
const state = { offlineSince: null, current: null, note: { text: "", key: null }, notices: [], lost: false };
let sending = null, again = false, timer = null, wait = 0;

function render() {
  draw(panel, state, { moveOn: moveOn, discard: discard, understood: understood });
  pending(says);
}

// A sentence that needs no answer, shown for a while.
function notice(text) {
  const said = { text: text };
  state.notices.push(said);
  setTimeout(() => { state.notices = state.notices.filter((other) => other !== said); render(); }, NOTICE);
  render();
}

// Two lists of lines, the same: what this phone sent is what was recorded.
function same(one, other) {
  return one.length > 0 && one.length === other.length && one.every((line, index) => line === other[index]);
}

// -- sending
// What became of a hand sent: saved, taken meanwhile, refused (with the server's sentence), or no answer.
function read(item, status, answer) {
  const error = answer && answer.error;
  if (status < 300 && answer && answer.location) { return { kind: "saved", location: answer.location }; }
  if (!error || status === 429 || status >= 500) { return { kind: "offline" }; }
  if (status === 422 && error.fields && error.fields.csrf_token) { return { kind: "stale", message: error.message }; }
  if (status === 409 && item.kind !== "record") { return { kind: "busy" }; }  // a correction that met another write: again
  return { kind: status === 409 ? "taken" : "refused", message: error.message, recorded: answer.recorded || [],
           yours: answer.yours || [], next: typeof answer.next === "number" ? answer.next : null };
}

function send(item) {
  const body = new URLSearchParams();
  item.fields.forEach((pair) => { body.append(pair[0], pair[1]); });
  body.append("number", item.number);
  body.append("idempotency_key", item.key);
  // A Wi-Fi that hangs instead of failing gets a few seconds; if the save went through meanwhile, the
  // next try under the same key is answered as saved, and nothing is saved twice.
  const abort = window.AbortController ? new AbortController() : null;
  const timeout = abort && setTimeout(() => { abort.abort(); }, PATIENCE);
  return fetch(item.url, { method: "POST", body: body, credentials: "same-origin", signal: abort && abort.signal,
                           headers: { "Accept": "application/json" } })
    .then((response) => response.json().catch(() => null).then((answer) => read(item, response.status, answer)))
    .catch(() => ({ kind: "offline" }))
    .then((result) => { clearTimeout(timeout); return result; });
}

// A hand kept overnight carries a form token too old: the form's page gives a fresh one.
function refreshed(item) {
  return fetch(item.url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
    .then((response) => response.ok ? response.text() : "")
    .then((html) => {
      const token = new DOMParser().parseFromString(html, "text/html").querySelector('input[name="csrf_token"]');
      if (!token) { return false; }
      item.fields = item.fields.map((pair) => pair[0] === "csrf_token" ? [pair[0], token.value] : pair);
      update(item.key, { fields: item.fields });
      return true;
    }, () => false);
}

function deliver(item) {
  return send(item).then((result) => {
    if (result.kind !== "stale") { return result; }
    return refreshed(item).then((fresh) => fresh ? send(item) : result).then((last) => (
      last.kind === "stale" ? { kind: "refused", message: last.message, recorded: [], yours: [], next: null } : last));
  });
}

// One hand at a time, oldest first. A hand waiting for the player's choice holds back the later hands
// of its match (they were entered after it); other matches go on.
function sendable() {
  const held = {};
  return load().filter((item) => {
    if (item.state !== "waiting") { held[item.match] = true; return false; }
    return !held[item.match];
  })[0] || null;
}

// One round of sending at a time, and one sending tab per phone (sender.js); a call during a round asks
// for another, and hears when that one ends.
function flush() {
  if (!usable) { return Promise.resolve(); }
  if (sending) { again = true; return sending; }
  const round = () => {
    again = false;
    return sendNext().then(() => again ? round() : null);
  };
  sending = alone(round).then((sent) => {
    sending = null;
    if (!sent) { clearTimeout(timer); timer = setTimeout(flush, RETRY); }  // another tab is sending them
  });
  return sending;
}

function sendNext() {
  const item = sendable();
  clearTimeout(timer);
  if (!item || (!navigator.locks && !renew())) { wait = 0; render(); return Promise.resolve(); }
  state.current = item.key;
  render();
  return deliver(item).then((result) => {
    state.current = null;
    if (result.kind === "offline" || result.kind === "busy") {
      if (result.kind === "offline") { offline(); }
      wait = Math.min(wait + FIRST_RETRY, LAST_RETRY);  // a little longer each time
      timer = setTimeout(flush, wait);
      render();
      return;
    }
    online();
    if (result.kind === "taken" && same(result.yours, result.recorded)) {
      // The hand recorded is this very one (another phone entered it too): nothing to choose.
      drop(item.key);
      if (result.next !== null) { heard(item.match, result.next); }
      notice(says.already.replace("{hand}", label(item)));
    } else if (result.kind === "saved") {
      landed[item.key] = result.location;
      drop(item.key);
      if (item.kind === "record") { heard(item.match, item.number + 1); }
    } else {
      if (result.next !== null) { heard(item.match, result.next); }
      update(item.key, { state: result.kind, message: result.message, recorded: result.recorded,
                         yours: result.yours, next: result.next, lang: document.documentElement.lang });
    }
    return sendNext();
  });
}

// -- whether the server answers
function online() {
  answered();
  reconnected();
}
function reconnected() {
  network.online();
  state.offlineSince = null;
  if (!state.note.key) { state.note = { text: "", key: null }; }
  render();
}
function offline() {
  if (state.offlineSince === null) {
    const seen = lastAnswered();
    state.offlineSince = seen > 0 ? seen : Date.now();
  }
  network.offline(says);
  render();
}

// -- the player's choices
// "Record as the next hand": this hand, and the hands kept after it for its match, follow the recorded ones.
function moveOn(key) {
  const items = load(), item = find(key);
  let after = false;
  if (!item || item.next === null) { return; }
  const shift = item.next - item.number;
  items.forEach((other) => {
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

function understood() {
  state.lost = false;
  render();
}

function refresh() {
  handForms().forEach(follow);
  render();
  flush();
}

// -- Save
function save(event) {
  const form = event.target;
  if (!form.matches || !form.matches("form[data-outbox]")) { return; }
  event.preventDefault();
  // A second tap while the first is on its way, or on the form drawn afresh for the next hand.
  if (form.dataset.saving || form.dataset.untouched) { return; }
  form.dataset.saving = "1";
  const item = fromForm(form), earlier = load().some((other) => other.match === item.match);
  if (put(item)) {
    flush().then(() => { settle(form, item, earlier); });
    return;
  }
  // This phone cannot keep it (storage full or switched off): send it as it is, and say so if that fails.
  deliver(item).then((result) => {
    delete form.dataset.saving;
    if (result.kind === "saved") {
      window.location.assign(result.location);
    } else if (result.kind === "offline") {
      state.note = { text: says.unkept, key: null };
      offline();
      window.scrollTo(0, 0);
    } else {
      form.submit();
    }
  });
}

function settle(form, item, earlier) {
  delete form.dataset.saving;
  const now = find(item.key);
  if (landed[item.key] || !now) { window.location.assign(landed[item.key] || item.page); return; }
  if (now.state !== "waiting" && !earlier) {
    // Answered at once: the server's page says it, as without this script (a refusal beside its field).
    drop(item.key);
    form.submit();
    return;
  }
  // Kept: for want of a connection, or behind a hand that waits for the player's choice (shown above).
  state.note = { text: state.offlineSince === null ? "" : says.kept.replace("{hand}", label(item)), key: item.key };
  if (item.kind === "record") { restart(form); nextContract(form, item, state.note); } else { prepare(form); }
  render();
  window.scrollTo(0, 0);
}

// -- when to send
// outbox: the page's panel (templates/match/_outbox.html), where the outbox says what it keeps.
export function start(outbox) {
  if (!outbox || !window.fetch || !window.URLSearchParams || !window.WeakMap) { return; }
  panel = outbox;
  says = panel.dataset;
  usable = openStore();
  document.addEventListener("submit", save);
  document.addEventListener("input", touched);
  document.addEventListener("change", touched);
  document.addEventListener("click", network.guard);
  document.addEventListener("scorekeeper:updated", () => { if (state.offlineSince !== null) { network.offline(says); } render(); });
  handForms().forEach(remember);
  document.addEventListener("DOMContentLoaded", () => { handForms().forEach(prepare); });
  document.addEventListener("scorekeeper:online", () => { online(); flush(); });
  document.addEventListener("scorekeeper:offline", offline);
  // The phone's network is back (the server may not be yet): with nothing to send, there is nothing to say.
  window.addEventListener("online", () => { if (!sendable()) { reconnected(); } network.leaveOfflinePage(); flush(); });
  window.addEventListener("offline", offline);
  window.addEventListener("storage", (event) => {
    // null: another tab cleared the storage (a tab's own changes are traced as it makes them).
    if (event.key === null) { state.lost = state.lost || lost() > 0; }
    if (event.key === HANDS || event.key === null) { refresh(); }
    if (event.key === SEEN && state.offlineSince !== null) { reconnected(); }  // another tab heard the server
  });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) { flush(); } });
  if (navigator.onLine === false) { offline(); }
  state.lost = usable && lost() > 0;
  const note = usable ? carried() : null;
  if (note) { state.note = note; }
  if (usable) { relanguage().then((asked) => { if (asked) { refresh(); } }); }
  render();
  network.leaveOfflinePage();
  flush();
}

// The hands kept on this phone, oldest first, in localStorage, and the hand forms they come from: what
// a form holds, which number it gives its hand, and the form drawn afresh for the next hand entered
// offline. Every change reads the hands afresh (another tab may have changed them).
import { whole } from "../numbers.js";
import { chosen } from "../recorded.js";

export const HANDS = "scorekeeper.outbox";
export const SEEN = "scorekeeper.seen";  // when the server last answered this phone, any tab
let store = null;

// Whether this phone can keep hands (storage may be switched off).
export function openStore() {
  try { store = window.localStorage; store.getItem(HANDS); } catch (err) { store = null; }
  return store !== null;
}

export function load() {
  try { return (store && JSON.parse(store.getItem(HANDS))) || []; } catch (err) { return []; }
}
export function write(items) {  // throws when the storage is full
  store.setItem(HANDS, JSON.stringify(items));
  mark(items.length);
}
export function find(key) { return load().filter((item) => item.key === key)[0] || null; }
export function drop(key) { write(load().filter((item) => item.key !== key)); }
export function update(key, fields) {
  write(load().map((item) => item.key === key ? Object.assign(item, fields) : item));
}
export function put(item) {
  if (!store) { return false; }
  try { write(load().concat([item])); return true; } catch (err) { return false; }
}

// -- a trace of the hands kept, outside localStorage: a cookie (shared by the phone's tabs, as the list is)
// says how many hands the list held at its last change, so that a list cleared behind the app's back is noticed.
const TRACE = "scorekeeper.kept";

function mark(count) {
  document.cookie = TRACE + "=" + count + "; path=/; max-age=" + (count ? 31536000 : 0) + "; SameSite=Lax";
}

function traced() {
  const cookie = document.cookie.split("; ").filter((pair) => pair.indexOf(TRACE + "=") === 0)[0];
  return cookie ? whole(cookie.slice(TRACE.length + 1)) : 0;
}

// How many kept hands went missing from the list since its last change (its storage cleared); said once.
export function lost() {
  const missing = store ? Math.max(0, traced() - load().length) : 0;
  if (missing) { mark(load().length); }
  return missing;
}

export function answered() {
  try { store.setItem(SEEN, String(Date.now())); } catch (err) { /* nothing to remember it in */ }
}
export function lastAnswered() { return store ? whole(store.getItem(SEEN)) : 0; }

// A key for each hand entered, made here: a random UUID (HTTPS and localhost) or, without one (plain
// HTTP on a home network), the time and two random draws, as unlikely to meet another phone's.
export function newKey() {
  if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
  return [Date.now(), Math.random(), Math.random()].join("-").replace(/0\./g, "");
}

// -- hand forms
const pristine = new WeakMap();  // each hand form as the server drew it, to start the next hand afresh

export function handForms() { return document.querySelectorAll("form[data-outbox]"); }
function field(form, name) { return form.elements.namedItem(name); }

// Kept as the server drew it, before any module changed it.
export function remember(form) {
  pristine.set(form, form.innerHTML);
  form.dataset.drawn = form.dataset.floor = field(form, "number").value;
}

export function fromForm(form) {
  const fields = [];
  new FormData(form).forEach((value, name) => {
    if (name !== "number" && name !== "idempotency_key" && typeof value === "string") { fields.push([name, value]); }
  });
  return { key: field(form, "idempotency_key").value, match: form.dataset.match, page: form.dataset.matchUrl,
           url: form.action, kind: form.dataset.kind, label: form.dataset.label, counts: counts(form),
           variant: variantOf(fields), number: whole(field(form, "number").value), fields: fields, at: Date.now(),
           state: "waiting" };
}

function variantOf(fields) {
  const pair = fields.filter((each) => each[0] === "variant")[0];
  return pair ? pair[1] : "";
}

// What the form records, in the words it says it beside Save (each player and a count), without the sentence
// around it, and each choice it records that the words beside Save leave out (Kozyol's "Bob & Dee: No trick at all").
function counts(form) {
  const said = form.querySelector(".save-summary, output.split");
  const text = said ? summary(said) : "";
  return [text].concat(chosen(form).filter((line) => text.indexOf(line) < 0)).filter(Boolean).join(" · ");
}

function summary(said) {
  const text = said.textContent.replace(/\s+/g, " ").trim(), label = said.dataset.label || "";
  const at = label.indexOf("{counts}"), before = label.slice(0, at), after = label.slice(at + "{counts}".length);
  if (at >= 0 && label.indexOf("{counts}", at + 1) < 0 && text.startsWith(before) && text.endsWith(after)) {
    return text.slice(before.length, text.length - after.length).trim();
  }
  return text;
}

function renumber(form, number) {
  const input = field(form, "number"), old = input.value;
  if (String(number) === old) { return; }
  const pattern = new RegExp("(^|\\D)" + old + "(?!\\d)");
  [form.querySelector("h1"), form.querySelector("button[type=submit]")].forEach((node) => {
    if (node) { node.textContent = node.textContent.replace(pattern, "$1" + number); }
  });
  document.title = document.title.replace(pattern, "$1" + number);
  input.value = number;
  // Who deals and declares depend on hands the server has not seen yet: shown again once it has.
  form.querySelectorAll(".upcoming").forEach((node) => { node.hidden = number !== whole(form.dataset.drawn); });
}

// A form for a new hand follows the hands kept for its match (it numbers the hand after the last one
// kept) and the hands the server said it has (floor: the next number it gave).
export function follow(form) {
  if (form.dataset.kind !== "record") { return; }
  let number = whole(form.dataset.floor);
  load().forEach((item) => {
    if (item.match === form.dataset.match && item.kind === "record") { number = Math.max(number, item.number + 1); }
  });
  renumber(form, number);
}

// The server has hands of match up to next - 1.
export function heard(match, next) {
  handForms().forEach((form) => {
    if (form.dataset.match === match) {
      form.dataset.floor = Math.max(whole(form.dataset.floor), next);
      follow(form);
    }
  });
}

export function prepare(form) {
  field(form, "idempotency_key").value = newKey();
  follow(form);
}

// The next hand, entered offline: the form as the server drew it, set up again by every module.
// Until a field of it changes, the form drawn afresh saves nothing: a second tap on Save lands on it.
export function restart(form) {
  form.innerHTML = pristine.get(form);
  document.dispatchEvent(new Event("DOMContentLoaded"));
  form.dataset.untouched = "1";
}

export function touched(event) {
  const form = event.target && event.target.form;
  if (form) { delete form.dataset.untouched; }
}

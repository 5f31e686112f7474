// After a hand of a chosen contract is kept offline, the next hand is another contract: the phone goes on
// to the choice of contract it kept, and the sentence the Save said goes with it.
import { find } from "./hands.js";

const NOTE = "scorekeeper.note";  // sessionStorage: the last Save's sentence, for the page it went on to

// form: the hand form just drawn afresh; item: the hand kept from it; note: what its Save said.
export function nextContract(form, item, note) {
  const other = form.querySelector("a[href='?variant=']");
  if (!item.variant || !other || !window.caches) { return; }
  caches.match(other.href, { ignoreVary: true }).then((copy) => {  // as the service worker looks it up
    if (!copy) { return; }  // not kept on the phone: the form drawn afresh stays
    try { window.sessionStorage.setItem(NOTE, JSON.stringify(note)); } catch (err) { /* said here only */ }
    window.location.assign(other.href);
  }, () => null);
}

// The sentence carried from the page before, while its hand still waits; null otherwise.
export function carried() {
  try {
    const note = JSON.parse(window.sessionStorage.getItem(NOTE));
    window.sessionStorage.removeItem(NOTE);
    return note && note.key && find(note.key) ? note : null;
  } catch (err) { return null; }
}

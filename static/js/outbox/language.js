// A card is read in the page's language: one the server wrote in another (the language was switched since)
// is asked of the server again, and the hand's name is taken again from its form, drawn in this language.
import { load, update } from "./hands.js";

function otherLanguage(item) {
  return item.state !== "waiting" && item.lang && item.lang !== document.documentElement.lang;
}

// The hand's name as its form says it now ("Donne {n}"), or null when the form is not there.
function relabel(item) {
  return fetch(item.url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
    .then((response) => response.ok ? response.text() : "")
    .then((html) => {
      const form = new DOMParser().parseFromString(html, "text/html").querySelector("form[data-outbox]");
      return form ? form.dataset.label : null;
    }, () => null);
}

// Resolves to whether any card was put back in line to be sent again.
export function relanguage() {
  const stale = load().filter(otherLanguage);
  return Promise.all(stale.map((item) => relabel(item).then((label) => {
    update(item.key, { state: "waiting", label: label || item.label });
  }))).then(() => stale.length > 0);
}

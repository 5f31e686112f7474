// The match as this phone will send it: on the match page and the contract choice, the hands kept for
// the match show as pending rows (with their counts), the next hand's number counts them, and the
// contracts they took are no longer offered. Drawn again at every change (a live redraw, a hand sent),
// from the page as the server drew it.
import { load } from "./hands.js";
import { label } from "./panel.js";

function keptHere() {
  const path = window.location.pathname;
  return load().filter((item) => item.kind === "record" && item.state === "waiting"
    && (path === item.page || path === item.page + "/hands/new"));
}

// "Hand n of m" -> "Hand n+k of m" with k hands kept: the first number is the next hand's.
function renumber(heading, next) {
  if (!heading) { return; }
  if (heading.dataset.drawnText === undefined) { heading.dataset.drawnText = heading.textContent; }
  const drawn = heading.dataset.drawnText, first = drawn.match(/\d+/);
  heading.textContent = first && next > Number(first[0]) ? drawn.replace(first[0], String(next)) : drawn;
}

// Hidden in the element itself: a button's or a list's own display would win over the hidden attribute.
function shown(node, visible) { node.style.display = visible ? "" : "none"; }

function offered(kept) {
  const taken = kept.map((item) => item.variant).filter(Boolean);
  document.querySelectorAll("main .choices a[href*='variant=']").forEach((link) => {
    shown(link, taken.indexOf(new URL(link.href).searchParams.get("variant")) < 0);
  });
}

// The pending rows, right above the next hand: what this phone keeps, not yet in the totals.
function rows(says, kept) {
  const old = document.getElementById("kept-hands"), next = document.getElementById("next");
  if (old) { old.remove(); }
  if (!kept.length || !next) { return; }
  const card = document.createElement("section");
  card.className = "card pending-hands";
  card.id = "kept-hands";
  const title = document.createElement("h2");
  title.textContent = says.pendingTitle;
  card.appendChild(title);
  const list = document.createElement("ol");
  kept.forEach((item) => {
    const row = document.createElement("li");
    row.textContent = label(item);
    if (item.counts) {
      const counts = document.createElement("span");
      counts.className = "counts";
      counts.textContent = item.counts;
      row.appendChild(counts);
    }
    list.appendChild(row);
  });
  card.appendChild(list);
  next.insertAdjacentElement("beforebegin", card);
}

// says: the outbox panel's sentences (templates/match/_outbox.html).
export function pending(says) {
  const kept = keptHere(), next = kept.reduce((most, item) => Math.max(most, item.number + 1), 0);
  renumber(document.querySelector("#next h2") || document.querySelector("main .card:not(form) > h1"), next);
  // Who declares and deals next is the server's to say once it has these hands.
  document.querySelectorAll("#next .roles").forEach((roles) => { shown(roles, !kept.length); });
  offered(kept);
  rows(says, kept);
}

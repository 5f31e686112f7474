// The evening on a big screen (templates/club/screen.html): nothing scrolls on a TV. The tables take the
// columns the page offers (data-columns), the fewest that hold them all; when none does, they show in pages
// that each fit, taking turns every data-turn ms. The side's lower places give way, last first, if it
// overflows. Fitted again after every live redraw (live.js, started by main.js) and when the window changes.
import "./main.js";

let pages = [], shown = 0;

function overflows(box) {
  return box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1;
}

// The cards in pages that each fit the box, in order: a card that does not fit after others starts a page.
function paged(box, cards) {
  const made = [[]];
  cards.forEach((card) => { card.hidden = true; });
  cards.forEach((card) => {
    const page = made[made.length - 1];
    card.hidden = false;
    if (page.length && overflows(box)) {
      page.forEach((other) => { other.hidden = true; });
      made.push([card]);
    } else {
      page.push(card);
    }
  });
  return made;
}

// The columns that hold every card, else those that make the fewest pages; returns the pages.
function fitTables(screen, box, cards) {
  const offered = (screen.dataset.columns || "").split(" ").filter(Boolean);
  let best = null;
  for (const columns of offered) {
    box.style.setProperty("--columns", columns);
    cards.forEach((card) => { card.hidden = false; });
    if (!overflows(box)) { return [cards]; }
    const made = paged(box, cards);
    if (!best || made.length < best.pages.length) { best = { columns: columns, pages: made }; }
  }
  if (!best) { return [cards]; }
  box.style.setProperty("--columns", best.columns);
  return best.pages;
}

function show(screen) {
  shown = pages.length ? shown % pages.length : 0;
  pages.forEach((page, at) => page.forEach((card) => { card.hidden = at !== shown; }));
  const note = screen.querySelector("[data-screen-pages]");
  if (!note) { return; }
  note.hidden = pages.length <= 1;
  if (pages.length <= 1) { return; }
  const all = pages.flat(), page = pages[shown];
  const words = { first: all.indexOf(page[0]) + 1, last: all.indexOf(page[page.length - 1]) + 1, count: all.length };
  note.textContent = (screen.dataset.pages || "").replace(/\{(\w+)\}/g, (found, name) => words[name] ?? found);
}

// The side's extras (places after the first, winners after the first game) give way from the last.
function fitSide(side) {
  const extras = Array.from(side.querySelectorAll("[data-screen-extra]"));
  extras.forEach((extra) => { extra.hidden = false; });
  while (extras.length && overflows(side)) { extras.pop().hidden = true; }
}

function fit() {
  const screen = document.querySelector("[data-screen]");
  const box = screen && screen.querySelector("[data-screen-tables]");
  if (!box) { return; }
  pages = fitTables(screen, box, Array.from(box.querySelectorAll("[data-screen-table]")));
  show(screen);
  const side = screen.querySelector("[data-screen-side]");
  if (side) { fitSide(side); }
}

function turn() {
  const screen = document.querySelector("[data-screen]");
  if (!screen || pages.length <= 1) { return; }
  shown += 1;
  show(screen);
}

const screen = document.querySelector("[data-screen]");
if (screen) {
  fit();
  if (Number(screen.dataset.turn) > 0) { setInterval(turn, Number(screen.dataset.turn)); }
  document.addEventListener("scorekeeper:updated", fit);
  window.addEventListener("load", fit);  // the fonts in, the names take their real widths
  window.addEventListener("resize", fit);
}

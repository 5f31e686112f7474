// What the outbox says at the top of the page (templates/match/_outbox.html brings its sentences): since when
// the phone is offline, the hands waiting to send, and each hand that waits for the player's choice.
import { phoneTime } from "../times.js";
import { load } from "./hands.js";

export function label(item) { return item.label.replace("{n}", item.number); }

function clock(ms) { return phoneTime(new Date(ms)); }

// "… hands waiting to send": the page brings the sentence for each plural category of its language.
function waiting(says, count) {
  const sentences = JSON.parse(says.waiting), lang = document.documentElement.lang || undefined;
  const category = window.Intl && Intl.PluralRules ? new Intl.PluralRules(lang).select(count) : "other";
  return (sentences[category] || sentences.other).replace("{n}", count);
}

function add(parent, tag, className, text) {
  const node = document.createElement(tag);
  if (className) { node.className = className; }
  if (text) { node.textContent = text; }
  parent.appendChild(node);
  return node;
}

function here(item) {
  return window.location.pathname === item.page || window.location.pathname.indexOf(item.page + "/") === 0;
}

// A hand taken meanwhile or refused: what happened, both sides, and the player's choices.
function choice(panel, item, choices) {
  const says = panel.dataset, box = add(panel, "div", "card choice " + item.state);
  add(box, "p", "", label(item)).style.fontWeight = "700";
  add(box, "p", "", item.message);
  // Taken: what this phone sent beside what was recorded; refused (a lock, a closed evening): what it sent.
  const shown = item.state === "taken" ? [[says.mine, item.yours || []], [says.recorded, item.recorded || []]]
    : [[says.mine, item.yours || []]];
  if (shown.some((side) => side[1].length)) {
    const sides = add(box, "div", "sides");
    shown.forEach((side) => {
      const column = add(sides, "div", "side");
      add(column, "h3", "", side[0]);
      const list = add(column, "ul");
      side[1].forEach((line) => { add(list, "li", "", line); });
    });
  }
  const actions = add(box, "p", "actions");
  if (item.state === "taken" && item.kind === "record" && item.next !== null) {
    add(actions, "button", "button primary", says.again).addEventListener("click", () => { choices.moveOn(item.key); });
  }
  add(actions, "button", "button", says.discard).addEventListener("click", () => { choices.discard(item.key); });
  if (!here(item)) { add(actions, "a", "button", says.open).href = item.page; }
}

// state: offlineSince (ms or null), current (the key being sent), note (what the last Save did, said
// until that hand is sent: { text, key }), notices (sentences shown for a while), lost (the list was
// found cleared); choices: moveOn(key), discard(key) and understood().
export function draw(panel, state, choices) {
  const says = panel.dataset, items = load(), queued = items.filter((item) => item.state === "waiting");
  if (state.note.key && !queued.some((item) => item.key === state.note.key)) { state.note = { text: "", key: null }; }
  panel.textContent = "";
  if (state.offlineSince !== null) {
    const since = says.offline.replace("{time}", clock(state.offlineSince));
    add(panel, "p", "offline", document.body.dataset.live ? since + " " + says.stale : since);
    add(panel, "p", "muted", says.languageWaits).id = "language-waits";
  }
  if (state.lost) {
    const box = add(panel, "div", "card choice lost");
    add(box, "p", "", says.lost);
    add(add(box, "p", "actions"), "button", "button", says.understood).addEventListener("click", choices.understood);
  }
  if (state.note.text) { add(panel, "p", "kept", state.note.text); }
  state.notices.forEach((said) => { add(panel, "p", "kept already", said.text); });
  if (queued.length) {
    add(panel, "h2", "", waiting(says, queued.length));
    const list = add(panel, "ul", "waiting");
    queued.forEach((item) => {
      const line = add(list, "li", "", item.key === state.current ? label(item) + " · " + says.sending : label(item));
      if (item.counts) { add(line, "span", "counts", item.counts); }
    });
  }
  items.forEach((item) => { if (item.state !== "waiting") { choice(panel, item, choices); } });
  panel.hidden = !panel.firstChild;
}

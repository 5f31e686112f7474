// Cancellation Hearts' hand form (templates/games/hearts/hand.html): the live "hearts left / Black Marias
// left" counter, the rest filled in the way the server fills it in, and the moon choice shown only when
// one player took everything.
import "../main.js";
import * as steppers from "../steppers.js";
import { whole } from "../numbers.js";
import { chosen } from "../recorded.js";

// The totals come with the page, from the rules engine: hearts and Black Marias in play.
function totals(form) {
  return { hearts: whole(form.querySelector(".hearts-left").dataset.total),
           marias: whole(form.querySelector(".marias-left").dataset.total) };
}

function read(row) {
  const input = row.querySelector(".stepper input"), text = input.value.trim();
  const maria = row.querySelector(".marias input:checked");
  return { row: row, input: input, name: row.dataset.name,
           hearts: text === "" ? null : (whole(text) || 0), marias: maria ? whole(maria.value) : 0 };
}

function tickedSeat(form) {
  const ticked = form.querySelector('input[name="rest_to"]:checked');
  return ticked && ticked.value !== "" ? whole(ticked.value) : null;
}

// Rows left empty with nobody taking the rest: Save asks about them once ("Fay: no hearts?").
function untouched(form, all) {
  return tickedSeat(form) !== null ? [] : all.map((r, i) => (r.hearts === null ? i : null)).filter((i) => i !== null);
}

function show(span, left) {
  span.classList.toggle("done", left === 0);
  span.classList.toggle("over", left < 0);
  span.textContent = left >= 0 ? span.dataset.left.replace("{n}", left) : span.dataset.over.replace("{n}", -left);
}

// "Save records: Ann … ♥ · Bob … ♥ … Q♠ · Cid … ♥ (the rest) · moon: …": what a tap on Save records, each row
// in the page's words for it (with or without Black Marias, taking the rest or not).
// A row left empty reads "–" until someone takes the rest, which makes it none.
function summarise(form, all, seat) {
  const out = form.querySelector(".save-summary"), says = out.dataset;
  const parts = all.map((r, i) => {
    const hearts = r.hearts === null ? (seat === null ? "–" : 0) : r.hearts;
    const words = i === seat ? (r.marias ? says.rowMariasRest : says.rowRest) : (r.marias ? says.rowMarias : says.row);
    return words.replace("{name}", () => r.name).replace("{hearts}", () => hearts).replace("{marias}", () => r.marias);
  });
  out.textContent = says.label.replace("{counts}", () => parts.concat(chosen(form)).join(" · "));
}

function update(form) {
  const rules = totals(form), HEARTS = rules.hearts, MARIAS = rules.marias;
  const all = Array.prototype.map.call(form.querySelectorAll(".player-row"), read);
  const seat = tickedSeat(form);
  let hearts = 0, marias = 0;
  all.forEach((r, i) => { if (i !== seat) { hearts += r.hearts || 0; marias += r.marias; } });
  all.forEach((r, i) => {
    const isRest = i === seat;
    r.row.classList.toggle("rest", isRest);
    r.input.readOnly = isRest;
    r.row.querySelectorAll(".step").forEach((b) => { b.disabled = isRest; });
    const note = r.row.querySelector(".rest-note");
    note.textContent = "";
    if (!isRest) { return; }
    // The rest is what nobody else took, whatever the row said before: the server reads it the same way.
    r.hearts = Math.max(0, HEARTS - hearts);
    r.marias = Math.max(0, MARIAS - marias);
    note.textContent = note.dataset.note.replace("{hearts}", r.hearts).replace("{marias}", r.marias);
    r.input.value = r.hearts;
    const chip = r.row.querySelector('.marias input[value="' + r.marias + '"]');
    if (chip) { chip.checked = true; }
  });
  settleQuestion(form, all);
  const total = all.reduce((sum, r) => sum + (r.hearts || 0), 0);
  const maria = all.reduce((sum, r) => sum + r.marias, 0);
  show(form.querySelector(".hearts-left"), HEARTS - total);
  show(form.querySelector(".marias-left"), MARIAS - maria);
  const shooter = all.filter((r) => r.hearts === HEARTS && r.marias === MARIAS)[0];
  const moon = form.querySelector(".moon"), who = moon.querySelector(".who");
  moon.dataset.shot = shooter ? "yes" : "no";
  if (shooter) { who.textContent = who.dataset.who.replace("{name}", () => shooter.name); }
  // A choice left from a moon that is no longer there would be refused: the rules take none without a moon.
  else { moon.querySelectorAll("input:checked").forEach((input) => { input.checked = false; }); }
  summarise(form, all, seat);
}

// The question stays while the rows it asked about are still empty; once they are filled, it goes.
function settleQuestion(form, all) {
  const ask = form.querySelector(".ask-empty"), asked = form.querySelector('input[name="empty_ok"]');
  const still = untouched(form, all);
  if (asked.value && !asked.value.split(",").every((seat) => still.indexOf(whole(seat)) >= 0)) {
    asked.value = "";
    ask.textContent = "";
  }
}

// Save asks once about rows left empty when the hand otherwise adds up (else the server says what is wrong);
// sent again with the same rows empty, they record none.
function askFirst(event) {
  const form = event.currentTarget, rules = totals(form);
  const all = Array.prototype.map.call(form.querySelectorAll(".player-row"), read);
  const empty = untouched(form, all), asked = form.querySelector('input[name="empty_ok"]');
  const hearts = all.reduce((sum, r) => sum + (r.hearts || 0), 0), marias = all.reduce((sum, r) => sum + r.marias, 0);
  const legal = hearts <= rules.hearts && hearts >= rules.hearts - all.length && marias <= rules.marias;
  const known = asked.value ? asked.value.split(",").map(whole) : [];
  if (!empty.length || !legal || empty.every((seat) => known.indexOf(seat) >= 0)) { return; }
  event.preventDefault();
  event.stopImmediatePropagation();  // nothing is sent or kept on the phone before the answer
  asked.value = empty.join(",");
  const ask = form.querySelector(".ask-empty");
  ask.textContent = ask.dataset.ask.replace("{names}", () => empty.map((seat) => all[seat].name).join(", "));
}

function changed(event) {
  const form = event.target.closest && event.target.closest("form.hearts-hand");
  if (form) { update(form); }
}
steppers.start();
document.addEventListener("input", changed);
document.addEventListener("change", changed);
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form.hearts-hand").forEach((form) => {
    form.addEventListener("submit", askFirst);
    update(form);
  });
});

// Kozyol's deal form (templates/games/kozyol/hand.html): the other team's points (the deck's points minus
// the pile counted), the card counter's running total, and the trick question only for a team left
// with 0 points.
import "../main.js";
import * as steppers from "../steppers.js";
import { whole } from "../numbers.js";

function checked(form, name) {
  const input = form.querySelector('input[name="' + name + '"]:checked');
  return input ? input.value : null;
}

// Points of the pile counted, as the server reads them (an empty card count is 0).
function counted(form) {
  if (checked(form, "mode") === "cards") {
    let sum = 0, ok = true;
    form.querySelectorAll(".by-cards .rank").forEach((rank) => {
      const input = rank.querySelector("input"), text = input.value.trim(), n = text === "" ? 0 : Number(text);
      if (!Number.isInteger(n) || n < 0 || n > whole(input.max)) { ok = false; }
      sum += n * whole(rank.dataset.value);
    });
    return ok ? sum : null;
  }
  const points = form.querySelector('input[name="points"]').value.trim();
  return /^\d+$/.test(points) ? whole(points) : null;
}

function update(form) {
  const total = whole(form.dataset.total), side = checked(form, "side"), mine = counted(form);
  let split = null;
  if (mine !== null && mine <= total && (side === "0" || side === "1")) {
    split = side === "0" ? [mine, total - mine] : [total - mine, mine];
  }
  form.querySelectorAll(".split [data-team]").forEach((out) => {
    out.textContent = split ? split[out.dataset.team] : "–";
  });
  const tricks = form.querySelector(".tricks");
  let asked = false;
  if (tricks.querySelector(".error")) { return; }  // a refusal stays in view
  tricks.querySelectorAll(".took").forEach((took) => {
    const zero = split !== null && split[took.dataset.team] === 0;
    took.hidden = !zero;
    asked = asked || zero;
  });
  tricks.hidden = !asked;
}

function changed(event) {
  const form = event.target.closest && event.target.closest("form.kozyol-deal");
  if (form) { update(form); }
}
steppers.start();
document.addEventListener("input", changed);
document.addEventListener("change", changed);
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form.kozyol-deal").forEach(update);
});

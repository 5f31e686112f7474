// Steppers and counters on the hand forms: big − and + buttons around a number field; "… tricks: n left"
// while the players count (the same check the server makes), the last player filled in with what is
// left, and what a tap on Save will record, said before the tap.
import { whole } from "./numbers.js";
import { chosen } from "./recorded.js";

function bump(button) {
  const input = button.parentElement.querySelector("input");
  const max = whole(input.max);
  let value = whole(input.value) || 0;
  value = Math.min(max, Math.max(0, value + whole(button.dataset.step)));
  input.value = value;
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

function recount(fieldset) {
  const total = whole(fieldset.dataset.total);
  let sum = 0;
  fieldset.querySelectorAll("input[type=number]").forEach((input) => { sum += whole(input.value) || 0; });
  fieldset.querySelectorAll("input[type=radio]:checked").forEach((input) => { sum += whole(input.value) || 0; });
  const out = fieldset.querySelector(".remaining");
  out.classList.toggle("done", sum === total);
  out.classList.toggle("over", sum > total);
  // The page brings the sentence for every possible sum, in the player's language and plural forms.
  out.textContent = JSON.parse(fieldset.dataset.counter)[sum] || "";
}

// Every player counted but one: that one gets what is left, said on its row ("Dee: 1, the rest"),
// so a hand takes one tap per player less and nothing is assumed out of sight. A player tapped by
// hand is never filled in again, so a total that does not add up is refused, not absorbed.
function fillLast(fieldset, changed) {
  changed.dataset.touched = "1";
  changed.classList.remove("auto");
  changed.querySelector(".filled-note").textContent = "";
  const groups = Array.from(fieldset.querySelectorAll(".chips.count"));
  const open = groups.filter((g) => !g.dataset.touched);
  if (open.length !== 1) { return; }
  let sum = 0;
  groups.forEach((g) => {
    const c = g.querySelector("input:checked");
    if (g !== open[0] && c) { sum += whole(c.value) || 0; }
  });
  const left = whole(fieldset.dataset.total) - sum;
  const rest = open[0].querySelector('input[value="' + left + '"]');
  if (rest) {
    rest.checked = true;
    open[0].classList.add("auto");
    open[0].querySelector(".filled-note").textContent = fieldset.dataset.rest
      .replace("{name}", open[0].querySelector("legend").textContent).replace("{count}", left);
  }
}

// What the page adds to the summary (Barbu: the doubles called, "Bob doubles Ann; …"); nothing by default.
let more = () => "";

// The page's whole sentence for what Save records: "Save records: Ann … · Bob … · … · ace of hearts: …", with what
// the page adds ("Save records: … Doubles: …", or "Doubles: …" alone), each placeholder filled in.
export function summarise(form) {
  const out = form && form.querySelector(".save-summary");
  if (!out) { return; }
  const parts = [];
  const fieldset = form.querySelector(".counted");
  if (fieldset) {
    fieldset.querySelectorAll(".chips.count").forEach((g) => {
      const c = g.querySelector("input:checked");
      parts.push(out.dataset.count.replace("{name}", () => g.querySelector("legend").textContent)
        .replace("{count}", () => (c ? c.value : "–")));
    });
  }
  const counts = parts.concat(chosen(form)).join(" · "), doubles = more(form);
  const sentence = counts && doubles ? out.dataset.labelDoubles : counts ? out.dataset.label : doubles ? out.dataset.doubles : "";
  out.textContent = sentence.replace("{counts}", () => counts).replace("{doubles}", () => doubles);
}

export function start(options = {}) {
  if (options.summary) { more = options.summary; }
  document.addEventListener("click", (event) => {
    const button = event.target.closest(".step");
    if (button) { bump(button); }
  });
  document.addEventListener("click", (event) => {
    // A tap on the count already shown (the 0 every row starts at) enters it too: no change event
    // fires for a radio that was checked, yet the player said "none" and the last row can be filled.
    const counted = event.target.matches && event.target.matches(".chips.count input:checked") && event.target.closest(".counted");
    if (counted) { fillLast(counted, event.target.closest(".chips.count")); recount(counted); summarise(counted.form); }
  });
  document.addEventListener("input", (event) => {
    const fieldset = event.target.closest(".counted");
    if (fieldset) { recount(fieldset); }
  });
  document.addEventListener("change", (event) => {
    const fieldset = event.target.closest(".counted");
    const group = event.target.closest(".chips.count");
    if (fieldset && group) { fillLast(fieldset, group); }
    if (fieldset) { recount(fieldset); summarise(fieldset.form); }
  });
  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll(".counted").forEach((fieldset) => {
      // A hand being corrected: every count was entered, none is filled in.
      fieldset.querySelectorAll(".chips.count").forEach((g) => {
        if (g.querySelector("input:checked")) { g.dataset.touched = "1"; }
      });
      recount(fieldset);
    });
    document.querySelectorAll("form.hand").forEach(summarise);
  });
}

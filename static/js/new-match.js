// The new match form (templates/match/new.html): the seating plan (Kozyol's teams as they sit) and the
// seat menus (who declares or deals first) show the names as they are typed.
import "./main.js";

// Each seat of the plan shows the name typed for it.
function seat(input) {
  const found = /^players-(\d+)$/.exec(input.name || ""), form = input.form;
  const plan = found && form && form.querySelector("[data-live-seating]");
  if (!plan) { return; }
  const name = input.value.trim(), spot = plan.querySelector('[data-seat="' + found[1] + '"]');
  if (spot) { spot.textContent = name || spot.dataset.empty; }
}

// "Seat 1: Ann", in the page's words (the form brings them).
function seatNamed(form) { return form.dataset.seatNamed || "{seat}"; }

function relabel(form) {
  form.querySelectorAll("select option").forEach((option) => {
    if (!/^\d+$/.test(option.value)) { return; }
    if (!option.dataset.label) { option.dataset.label = option.textContent; }
    const input = form.querySelector('input[name="players-' + option.value + '"]');
    const name = input && input.value.trim();
    option.textContent = name ? seatNamed(form).replace("{seat}", () => option.dataset.label).replace("{name}", () => name)
      : option.dataset.label;
  });
}

document.addEventListener("input", (event) => {
  if (event.target.matches && event.target.matches("input[name^='players-']")) { seat(event.target); }
  if (/^players-\d+$/.test(event.target.name || "")) { relabel(event.target.form); }
});
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("[data-live-seating]").forEach((plan) => {
    plan.closest("form").querySelectorAll("input[name^='players-']").forEach(seat);
  });
  const first = document.querySelector('input[name="players-0"]');
  if (first && first.form) { relabel(first.form); }
});

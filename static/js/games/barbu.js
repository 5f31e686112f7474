// Barbu's hand form (templates/games/barbu/hand.html): doubles, and Dominoes' places.
import "../main.js";
import * as steppers from "../steppers.js";

// Doubles: two players cannot double each other; doubling back is the redouble.
function mirror(form) {
  form.querySelectorAll(".cell").forEach((cell) => {
    const other = form.querySelector('.cell[data-by="' + cell.dataset.target + '"][data-target="' + cell.dataset.by + '"]');
    const chosen = cell.querySelector("input:checked");
    if (!other) { return; }
    other.querySelectorAll("input").forEach((input) => {
      input.disabled = Boolean(chosen && chosen.value) && input.value !== "";
    });
  });
}

// Dominoes: one player per place. A player chosen for a place is taken out of the other places,
// and once three places are chosen by hand the last shows the one player left, said as such.
function groups(box) { return Array.from(box.querySelectorAll(".chips")); }
function chosen(group) { const c = group.querySelector("input:checked"); return c ? c.value : null; }

function settle(box, changed) {
  if (changed) {
    changed.dataset.touched = "1";
    changed.classList.remove("auto");
    changed.querySelector(".filled-note").textContent = "";
  }
  const all = groups(box);
  const open = all.filter((g) => !g.dataset.touched);
  const taken = all.filter((g) => g.dataset.touched).map(chosen).filter(Boolean);
  open.forEach((g) => {
    if (g.classList.contains("auto")) { g.querySelectorAll("input").forEach((i) => { i.checked = false; }); }
    g.classList.remove("auto");
    g.querySelector(".filled-note").textContent = "";
  });
  if (open.length === 1 && taken.length === all.length - 1) {
    const left = open[0].querySelectorAll("input");
    const rest = Array.prototype.filter.call(left, (i) => taken.indexOf(i.value) < 0)[0];
    if (rest) {
      rest.checked = true;
      open[0].classList.add("auto");
      open[0].querySelector(".filled-note").textContent = box.dataset.rest
        .replace("{place}", open[0].querySelector("legend").textContent)
        .replace("{name}", rest.parentElement.querySelector("span").textContent);
    }
  }
  all.forEach((g) => {
    const mine = chosen(g);
    g.querySelectorAll("input").forEach((i) => {
      // Taken by another place chosen by hand (the one left, filled in, moves instead of blocking).
      i.disabled = i.value !== mine && all.some((o) => o !== g && o.dataset.touched && chosen(o) === i.value);
    });
  });
}

// "Bob doubles Ann; Cid doubles Ann, redoubled", in calling order, for the summary beside Save.
function doubles(form) {
  const out = form.querySelector(".save-summary");
  const called = [];
  form.querySelectorAll(".cell").forEach((cell) => {
    const chosen = cell.querySelector("input:checked");
    if (!chosen || !chosen.value) { return; }
    const text = chosen.value === "redouble" ? out.dataset.redoubled : out.dataset.double;
    called.push(text.replace("{by}", () => cell.dataset.byName).replace("{target}", () => cell.dataset.targetName));
  });
  return called.join("; ");
}

steppers.start({ summary: doubles });
// Every change is said beside Save once the form has settled (the one place left filled in).
document.addEventListener("change", (event) => {
  const form = event.target.closest("form.hand");
  if (form && event.target.closest(".cell")) { mirror(form); }
  const box = event.target.closest && event.target.closest(".places");
  if (box) { settle(box, event.target.closest(".chips")); }
  if (form) { steppers.summarise(form); }
});
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form.hand").forEach(mirror);
  document.querySelectorAll(".places").forEach((box) => {
    // A hand being corrected: every place was entered by hand.
    groups(box).forEach((g) => { if (chosen(g)) { g.dataset.touched = "1"; } });
    settle(box, null);
  });
  document.querySelectorAll("form.hand").forEach(steppers.summarise);
});

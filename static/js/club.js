// A club's new match (templates/club/new_match.html): the roster as chips, a tap on each seating the players
// in order (the seat menus stay, and are what the form sends); the seating plan and the seat menus (who deals
// or declares first) show, for each seat, the name typed for it or else the player picked from the roster.
// The admin page (templates/club/admin.html): a one-tap "Use this phone's time zone" beside the club's
// time zone menu, and the merge form read back as its sentence ("Annie becomes Ann") before it is sent.
import "./main.js";

function nameAt(form, seat) {
  const typed = form.querySelector('input[name="new_players-' + seat + '"]');
  const picked = form.querySelector('select[name="players-' + seat + '"]');
  return (typed && typed.value.trim()) || (picked && picked.value) || "";
}

function seatMenus(form) {
  return Array.prototype.slice.call(form.querySelectorAll("select[name^='players-']"));
}

// Each chip says whether its player is seated, and where (the page's own "Seat {n}").
function markChips(form) {
  const chips = form.querySelector("[data-seat-chips]");
  if (!chips) { return; }
  const menus = seatMenus(form);
  chips.querySelectorAll("button[data-name]").forEach((chip) => {
    const seat = menus.findIndex((menu) => menu.value === chip.dataset.name);
    chip.setAttribute("aria-pressed", seat >= 0 ? "true" : "false");
    chip.querySelector(".seat-no").textContent = seat >= 0 ? chips.dataset.seatLabel.replace("{n}", seat + 1) : "";
  });
}

// A tapped player takes the first seat left empty (no pick, no name typed); tapped again, leaves it.
function seatByChip(form, chip) {
  const menus = seatMenus(form);
  const seated = menus.findIndex((menu) => menu.value === chip.dataset.name);
  if (seated >= 0) {
    menus[seated].value = "";
  } else {
    const free = menus.findIndex((menu, seat) => !menu.value && !nameAt(form, seat));
    if (free < 0) { return; }
    menus[free].value = chip.dataset.name;
  }
  redraw(form);
}

function offerChips(form) {
  const chips = form.querySelector("[data-seat-chips]");
  if (!chips) { return; }
  chips.hidden = false;
  chips.addEventListener("click", (event) => {
    const chip = event.target.closest("button[data-name]");
    if (chip) { seatByChip(form, chip); }
  });
}

// "Seat 1: Ann", in the page's words (the form brings them).
function seatNamed(form) { return form.dataset.seatNamed || "{seat}"; }

function redraw(form) {
  markChips(form);
  form.querySelectorAll("[data-live-seating] [data-seat]").forEach((spot) => {
    spot.textContent = nameAt(form, spot.dataset.seat) || spot.dataset.empty;
  });
  form.querySelectorAll("select:not([name^='players-']) option").forEach((option) => {
    if (!/^\d+$/.test(option.value)) { return; }
    if (!option.dataset.label) { option.dataset.label = option.textContent; }
    const name = nameAt(form, option.value);
    option.textContent = name ? seatNamed(form).replace("{seat}", () => option.dataset.label).replace("{name}", () => name)
      : option.dataset.label;
  });
}

function changed(event) {
  const form = event.target.closest && event.target.closest("form.club-match");
  if (form) { redraw(form); }
}

// The zone's canonical name, as the phone gives its own: America/Montreal is America/Toronto.
function canonical(zone) {
  try { return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone; }
  catch (e) { return zone; }
}

function offerPhoneZone(offer) {
  let zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
  const menu = offer.closest("form").querySelector("select");
  const known = Array.prototype.some.call(menu.options, (option) => option.value === zone);
  if (!known || canonical(menu.value) === canonical(zone)) { return; }
  const button = offer.querySelector("button");
  button.textContent = button.dataset.label.replace("{zone}", zone);
  offer.hidden = false;
  button.addEventListener("click", () => {
    menu.value = zone;
    offer.hidden = true;
    menu.focus();
  });
}

// The sentence the page gives ("{gone} becomes {kept}"), with the two entries picked; hidden until both are.
function previewMerge(form) {
  const preview = form.querySelector("[data-merge-preview]");
  const [gone, kept] = ["gone", "keep"].map((name) => form.querySelector('select[name="merge-' + name + '"]'));
  const picked = (menu) => (menu.value ? menu.options[menu.selectedIndex].textContent : "");
  const ready = picked(gone) && picked(kept) && gone.value !== kept.value;
  preview.textContent = ready ? preview.dataset.sentence.replace("{gone}", picked(gone)).replace("{kept}", picked(kept)) : "";
  preview.hidden = !ready;
}

function mergeChanged(event) {
  const form = event.target.closest && event.target.closest("form#merge");
  if (form) { previewMerge(form); }
}

document.addEventListener("change", mergeChanged);
document.addEventListener("input", changed);
document.addEventListener("change", changed);
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form.club-match").forEach((form) => { offerChips(form); redraw(form); });
  document.querySelectorAll("[data-phone-zone]").forEach(offerPhoneZone);
  document.querySelectorAll("form#merge").forEach(previewMerge);
});

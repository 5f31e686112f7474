// A club's new match (templates/club/new_match.html): the seating plan and the seat menus (who deals or
// declares first) show, for each seat, the name typed for it or else the player picked from the roster.
// The admin page (templates/club/admin.html): a one-tap "Use this phone's time zone" beside the club's
// time zone menu.
import "./main.js";

function nameAt(form, seat) {
  const typed = form.querySelector('input[name="new_players-' + seat + '"]');
  const picked = form.querySelector('select[name="players-' + seat + '"]');
  return (typed && typed.value.trim()) || (picked && picked.value) || "";
}

function redraw(form) {
  form.querySelectorAll("[data-live-seating] [data-seat]").forEach((spot) => {
    spot.textContent = nameAt(form, spot.dataset.seat) || spot.dataset.empty;
  });
  form.querySelectorAll("select:not([name^='players-']) option").forEach((option) => {
    if (!/^\d+$/.test(option.value)) { return; }
    if (!option.dataset.label) { option.dataset.label = option.textContent; }
    const name = nameAt(form, option.value);
    option.textContent = name ? option.dataset.label + ": " + name : option.dataset.label;
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

document.addEventListener("input", changed);
document.addEventListener("change", changed);
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form.club-match").forEach(redraw);
  document.querySelectorAll("[data-phone-zone]").forEach(offerPhoneZone);
});

// A club's new match: the seating plan and the seat menus (who deals or declares first) show, for each
// seat, the name typed for it or else the player picked from the roster.
// The admin page: a one-tap "Use this phone's time zone" beside the club's time zone menu.
(function () {
  "use strict";
  function nameAt(form, seat) {
    var typed = form.querySelector('input[name="new_players-' + seat + '"]');
    var picked = form.querySelector('select[name="players-' + seat + '"]');
    return (typed && typed.value.trim()) || (picked && picked.value) || "";
  }

  function redraw(form) {
    form.querySelectorAll("[data-live-seating] [data-seat]").forEach(function (spot) {
      spot.textContent = nameAt(form, spot.dataset.seat) || spot.dataset.empty;
    });
    form.querySelectorAll("select:not([name^='players-']) option").forEach(function (option) {
      if (!/^\d+$/.test(option.value)) { return; }
      if (!option.dataset.label) { option.dataset.label = option.textContent; }
      var name = nameAt(form, option.value);
      option.textContent = name ? option.dataset.label + ": " + name : option.dataset.label;
    });
  }

  function changed(event) {
    var form = event.target.closest && event.target.closest("form.club-match");
    if (form) { redraw(form); }
  }
  document.addEventListener("input", changed);
  document.addEventListener("change", changed);
  // The zone's canonical name, as the phone gives its own: America/Montreal is America/Toronto.
  function canonical(zone) {
    try { return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone; }
    catch (e) { return zone; }
  }

  function offerPhoneZone(offer) {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
    var menu = offer.closest("form").querySelector("select");
    var known = Array.prototype.some.call(menu.options, function (option) { return option.value === zone; });
    if (!known || canonical(menu.value) === canonical(zone)) { return; }
    var button = offer.querySelector("button");
    button.textContent = button.dataset.label.replace("{zone}", zone);
    offer.hidden = false;
    button.addEventListener("click", function () {
      menu.value = zone;
      offer.hidden = true;
      menu.focus();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form.club-match").forEach(redraw);
    document.querySelectorAll("[data-phone-zone]").forEach(offerPhoneZone);
  });
})();

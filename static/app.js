// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // Steppers: big − and + buttons around a number field.
  function bump(button) {
    var input = button.parentElement.querySelector("input");
    var max = parseInt(input.max, 10), value = parseInt(input.value, 10) || 0;
    value = Math.min(max, Math.max(0, value + parseInt(button.dataset.step, 10)));
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // "13 tricks: 2 left": the same check the server makes, while the player counts.
  function recount(fieldset) {
    var total = parseInt(fieldset.dataset.total, 10), sum = 0;
    fieldset.querySelectorAll("input[type=number]").forEach(function (input) { sum += parseInt(input.value, 10) || 0; });
    fieldset.querySelectorAll("input[type=radio]:checked").forEach(function (input) { sum += parseInt(input.value, 10) || 0; });
    var out = fieldset.querySelector(".remaining");
    out.classList.toggle("done", sum === total);
    out.classList.toggle("over", sum > total);
    out.textContent = sum === total ? fieldset.dataset.done
      : sum < total ? fieldset.dataset.left.replace("{left}", total - sum)
      : fieldset.dataset.over.replace("{over}", sum - total);
  }

  // Doubles: two players cannot double each other; doubling back is the redouble.
  function mirror(form) {
    form.querySelectorAll(".cell").forEach(function (cell) {
      var other = form.querySelector('.cell[data-by="' + cell.dataset.target + '"][data-target="' + cell.dataset.by + '"]');
      var chosen = cell.querySelector("input:checked");
      if (!other) { return; }
      other.querySelectorAll("input").forEach(function (input) {
        input.disabled = Boolean(chosen && chosen.value) && input.value !== "";
      });
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest(".step");
    if (button) { bump(button); }
    var copy = event.target.closest("input.copy");
    if (copy) { copy.select(); }
  });
  document.addEventListener("input", function (event) {
    var fieldset = event.target.closest(".counted");
    if (fieldset) { recount(fieldset); }
  });
  document.addEventListener("change", function (event) {
    var fieldset = event.target.closest(".counted");
    if (fieldset) { recount(fieldset); }
    var form = event.target.closest("form.hand");
    if (form && event.target.closest(".cell")) { mirror(form); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".counted").forEach(recount);
    document.querySelectorAll("form.hand").forEach(mirror);
  });
})();

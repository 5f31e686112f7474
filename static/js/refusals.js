// A refusal the server wrote beside a field speaks of the value that was sent: once the player changes that
// field, the sentence no longer describes the form and goes (without this script it stays until the next Save,
// whose page says again what is still wrong). A refusal of the whole form (p.error.banner) stays.

const CONTROLS = "input, select, textarea";

// The field a refusal follows, when it sits straight in the form: the element just before it, other
// refusals skipped, if it holds a control (a single chip's label is not a field).
function fieldBefore(refusal) {
  let before = refusal.previousElementSibling;
  while (before && before.matches("p.error")) { before = before.previousElementSibling; }
  if (!before || before.matches("label")) { return null; }
  return before.matches(CONTROLS) || before.querySelector(CONTROLS) ? before : null;
}

// Whether a refusal speaks of this control: a control of the group it sits in (a fieldset or div inside the
// form), or of the field it follows, or one named after it (err-queens speaks of queens_0, queens_1...).
function speaksOf(refusal, control) {
  const parent = refusal.parentElement;
  const group = parent && parent !== control.form && parent.matches("fieldset, div") ? parent : fieldBefore(refusal);
  if (group && group.contains(control)) { return true; }
  const name = refusal.id.startsWith("err-") ? refusal.id.slice("err-".length) : "";
  return name !== "" && (control.name === name || control.name.startsWith(`${name}_`));
}

// Take a refusal away, and with it what pointed a control at it (aria-describedby, aria-invalid).
function clear(refusal, form) {
  if (refusal.id) {
    form.querySelectorAll(`[aria-describedby~="${CSS.escape(refusal.id)}"]`).forEach((control) => {
      const ids = control.getAttribute("aria-describedby").split(/\s+/).filter((id) => id && id !== refusal.id);
      control.removeAttribute("aria-invalid");
      if (ids.length) { control.setAttribute("aria-describedby", ids.join(" ")); }
      else { control.removeAttribute("aria-describedby"); }
    });
  }
  refusal.remove();
}

function changed(event) {
  const control = event.target;
  const form = control && control.form;
  if (!form || !control.matches(CONTROLS)) { return; }
  form.querySelectorAll("p.error:not(.banner)").forEach((refusal) => {
    if (speaksOf(refusal, control)) { clear(refusal, form); }
  });
}

export function start() {
  document.addEventListener("input", changed);
  document.addEventListener("change", changed);
}

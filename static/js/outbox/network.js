// What waits for the network while the phone is offline, said on the control itself instead of the
// browser's own offline page after the tap: an undo, a correction whose form this phone has not kept,
// and the language switch (a page in another language is not kept on the phone; the outbox panel says so). Back online, they
// work again; a phone showing the "No connection" page goes to the page it asked for.
const CORRECTION = /\/hands\/\d+$/;
const ASK_AGAIN = 3000;  // ms between two looks for the server from the "No connection" page
let asking = false;

function note(after, text) {
  const said = document.createElement("small");
  said.className = "needs-network";
  said.textContent = text;
  after.insertAdjacentElement("afterend", said);
}

function kept(href) {
  return window.caches ? caches.match(new URL(href, window.location.href).href).then(Boolean, () => false)
    : Promise.resolve(false);
}

function hold(control, text) {
  if (control.dataset.waitsForNetwork) { return; }
  control.dataset.waitsForNetwork = "1";
  if (control.tagName === "BUTTON") { control.disabled = true; } else { control.setAttribute("aria-disabled", "true"); }
  note(control, text);
}

function release(control) {
  delete control.dataset.waitsForNetwork;
  control.disabled = false;
  control.removeAttribute("aria-disabled");
  const said = control.nextElementSibling;
  if (said && said.classList.contains("needs-network")) { said.remove(); }
}

// says: the outbox panel's sentences (templates/match/_outbox.html).
export function offline(says) {
  document.querySelectorAll("form.undo button").forEach((button) => { hold(button, says.needsNetwork); });
  document.querySelectorAll("main a[href]").forEach((link) => {
    if (!CORRECTION.test(new URL(link.href).pathname)) { return; }
    kept(link.href).then((copy) => { if (!copy) { hold(link, says.needsNetwork); } });
  });
  // The sentence that says why is the outbox panel's (panel.js), under "Offline since…".
  const languages = document.querySelector("nav.languages");
  if (languages && !languages.dataset.waitsForNetwork) {
    languages.dataset.waitsForNetwork = "1";
    languages.querySelectorAll("a").forEach((link) => {
      link.setAttribute("aria-disabled", "true");
      link.setAttribute("aria-describedby", "language-waits");
    });
  }
}

export function online() {
  document.querySelectorAll("[data-waits-for-network]").forEach((control) => {
    if (control.matches("nav.languages")) {
      delete control.dataset.waitsForNetwork;
      control.querySelectorAll("a").forEach((link) => {
        link.removeAttribute("aria-disabled");
        link.removeAttribute("aria-describedby");
      });
      return;
    }
    release(control);
  });
}

// A tap on a control held back does nothing (a link has no disabled state of its own).
export function guard(event) {
  const held = event.target.closest && event.target.closest("[aria-disabled=true]");
  if (held) { event.preventDefault(); }
}

// On the "No connection" page (templates/offline.html): the page asked for, once the server answers.
// Asked again every few seconds: a server that comes back does not tell the phone.
export function leaveOfflinePage() {
  if (!document.querySelector("[data-offline-page]") || asking) { return; }
  asking = true;
  fetch(window.location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
    .then((response) => response.ok, () => false)
    .then((back) => {
      if (back) { window.location.reload(); return; }
      asking = false;
      setTimeout(leaveOfflinePage, ASK_AGAIN);
    });
}

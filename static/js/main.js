// Progressive enhancement only: every page works without these modules. Every page loads this one
// (templates/base.html); a page with more to do loads its own module, which imports this one first.
import * as live from "./live.js";
import * as outbox from "./outbox/index.js";
import * as installable from "./installable.js";
import * as refusals from "./refusals.js";
import { phoneDateTime } from "./times.js";

// A tap on a field selects what it shows: a link to copy, or a number that typing replaces.
function selectOnTap() {
  document.addEventListener("click", (event) => {
    const copy = event.target.closest("input.copy");
    if (copy) { copy.select(); }
  });
  // Typing replaces the 0 a number field shows instead of adding to it.
  document.addEventListener("focusin", (event) => {
    const field = event.target;
    if (field.matches && field.matches("input[type=number]") && field.select) { field.select(); }
  });
}

// Times written in UTC by the server (the edit history) shown in the phone's own time zone and order.
function localTimes() {
  document.querySelectorAll("time[data-local]").forEach((time) => {
    const at = new Date(time.getAttribute("datetime"));
    if (!isNaN(at)) { time.textContent = phoneDateTime(at); }
  });
}

// A sheet wider than the phone says it scrolls sideways; one that fits keeps quiet.
function scrollHints() {
  document.querySelectorAll("[data-scroll-hint]").forEach((note) => {
    const sheet = note.nextElementSibling;
    note.hidden = !sheet || sheet.scrollWidth <= sheet.clientWidth + 1;
  });
}

// A name that is never cut (data-fit: Kozyol's seats and teams) takes smaller type while a word of it is still wider
// than its box: style.css sizes it for the fonts most phones have, and a phone's own may be wider. How small it may
// get and by how much at a time are the style sheet's (--fit-least, --fit-step on [data-fit]).
function fitNames() {
  document.querySelectorAll("[data-fit]").forEach((box) => {
    box.style.removeProperty("font-size");
    box.style.overflowWrap = "normal";  // measured whole: a word breaks only if the smallest type cannot hold it
    // A name of one word is measured on one line: a browser breaks a Khmer, Lao or Thai word where its dictionary
    // finds a shorter one, and that word would seem to fit.
    if (!/\s/.test(box.textContent.trim())) { box.style.whiteSpace = "nowrap"; }
    const style = getComputedStyle(box), least = parseFloat(style.getPropertyValue("--fit-least"));
    const step = parseFloat(style.getPropertyValue("--fit-step"));
    let size = parseFloat(style.fontSize);
    while (box.scrollWidth > box.clientWidth + 1 && size - step >= least) {
      size -= step;
      box.style.fontSize = `${size}px`;
    }
    box.style.removeProperty("overflow-wrap");
    box.style.removeProperty("white-space");
  });
}
const refit = () => requestAnimationFrame(fitNames);  // after the scripts that change a name have run

const worker = document.querySelector("script[data-worker]");

document.documentElement.classList.add("js");
selectOnTap();
refusals.start();
live.start(document.body.dataset.live, document.body.dataset.etag);
document.addEventListener("DOMContentLoaded", localTimes);
document.addEventListener("DOMContentLoaded", scrollHints);
document.addEventListener("scorekeeper:updated", scrollHints);
window.addEventListener("resize", scrollHints);
document.addEventListener("DOMContentLoaded", fitNames);
for (const event of ["scorekeeper:updated", "input", "change", "click"]) { document.addEventListener(event, refit); }
window.addEventListener("resize", refit);
if (document.fonts) { document.fonts.ready.then(refit); }
outbox.start(document.getElementById("outbox"));
installable.start(worker && worker.dataset.worker);

// Dates and times in the phone's own order (navigator.languages: an en-GB phone puts the day first, then the month),
// in the phone's own time zone, with the words (AM, PM) in the page's language: the server's words for it
// (data-day-periods, templates/match/_outbox.html), since a browser may have none for the page's language.

const NUMERIC = { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric",
  second: "numeric" };

// The phone's locales, most wanted first; undefined lets the browser use its own.
function phoneLocales() {
  const wanted = (navigator.languages && navigator.languages.length ? [...navigator.languages] : [navigator.language])
    .filter(Boolean);
  return wanted.length ? wanted : undefined;
}

// A locale Intl can use, or undefined (the browser's own) for one it cannot.
function usable(locales) {
  try { return Intl.DateTimeFormat.supportedLocalesOf(locales || []).length ? locales : undefined; }
  catch (e) { return undefined; }
}

// The page's words for the hours before and after noon ({am, pm}), or null where the page brings none.
function pageWords() {
  const holder = document.querySelector("[data-day-periods]");
  try { return holder ? JSON.parse(holder.dataset.dayPeriods) : null; } catch (e) { return null; }
}

// The time of day's words (AM, PM) in the page's language, for the hours the phone counts.
function dayPeriod(at, options) {
  const words = pageWords();
  if (words) {
    // Morning or afternoon as English says it (every browser has English), in the page's own words.
    const english = new Intl.DateTimeFormat("en-US", { hour: "numeric", hour12: true, timeZone: options.timeZone })
      .formatToParts(at).find((piece) => piece.type === "dayPeriod");
    return english && english.value.toUpperCase() === "AM" ? words.am : words.pm;
  }
  const page = usable(document.documentElement.lang || undefined);
  const part = new Intl.DateTimeFormat(page, { hour: "numeric", hourCycle: options.hourCycle, timeZone: options.timeZone })
    .formatToParts(at).find((piece) => piece.type === "dayPeriod");
  return part ? part.value : null;
}

function written(at, options) {
  const format = new Intl.DateTimeFormat(usable(phoneLocales()), options);
  const period = dayPeriod(at, format.resolvedOptions());
  return format.formatToParts(at).map((piece) => (piece.type === "dayPeriod" && period ? period : piece.value)).join("");
}

// at as the phone writes a date and time: its order, its separators, its clock of twelve or of all the hours; the page's words.
export function phoneDateTime(at) { return written(at, NUMERIC); }

// The time of day alone, the same way (for "Offline since …").
export function phoneTime(at) { return written(at, { timeStyle: "short" }); }

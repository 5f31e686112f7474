// Live: every phone on a match page follows new, corrected and undone hands without reloading.
// It polls the match state with its ETag (a 304 costs the server almost nothing) and, when the
// version changed, fetches the page again and swaps the content in place; then it fires
// scorekeeper:updated on the new content.
const VISIBLE = 2000, HIDDEN = 15000;  // ms between polls, the page in view or not
const GIVE_UP = 10000;  // ms a poll or a redraw may take: a request that hangs (a network switch) never stops the polls

// fetch() that gives up after GIVE_UP, where the browser supports it.
function timed(url, options) {
  if (!window.AbortController) { return fetch(url, options); }
  const stop = new AbortController(), timer = setTimeout(() => stop.abort(), GIVE_UP);
  return fetch(url, { ...options, signal: stop.signal }).finally(() => clearTimeout(timer));
}

let etag = null, busy = false, leaving = false, timer = null;

function editing() {
  const active = document.activeElement;
  return active && active.form && active.form.method === "post" && !active.form.classList.contains("quiet");
}

function refresh() {
  return timed(window.location.href, { headers: { "Accept": "text/html", "X-Live-Redraw": "1" }, credentials: "same-origin" })
    .then((response) => response.ok ? response.text() : null)
    .then((html) => {
      if (!html || leaving) { return; }
      const fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
      const main = document.querySelector("main");
      if (fresh && main) {
        main.innerHTML = fresh.innerHTML;
        main.dispatchEvent(new CustomEvent("scorekeeper:updated", { bubbles: true }));
      }
    });
}

function poll(url) {
  if (leaving) { return; }
  if (busy || editing()) { return schedule(url); }
  busy = true;
  const headers = etag ? { "If-None-Match": etag } : {};
  timed(url, { headers: headers, credentials: "same-origin", cache: "no-cache" })
    .then((response) => {
      // The server answered (a proxy's server error says it did not): the outbox sends what this phone kept.
      document.dispatchEvent(new CustomEvent(response.status < 500 ? "scorekeeper:online" : "scorekeeper:offline"));
      if (response.status === 200) {
        etag = response.headers.get("ETag");
        return refresh();
      }
    })
    .catch(() => {
      // Offline for a moment: try again later; meanwhile the outbox says since when.
      document.dispatchEvent(new CustomEvent("scorekeeper:offline"));
    })
    .then(() => { busy = false; schedule(url); });
}

function schedule(url) {
  clearTimeout(timer);
  timer = setTimeout(() => poll(url), document.hidden ? HIDDEN : VISIBLE);
}

// url: the match state to poll (the page's data-live); etagDrawn: the version the page was drawn at,
// so that any newer one redraws it, even one from before the first poll.
export function start(url, etagDrawn) {
  if (!url || !window.fetch) { return; }
  etag = etagDrawn || null;
  // A phone that is leaving (a form sent, a link followed) must not redraw the page it leaves.
  window.addEventListener("pagehide", () => { leaving = true; });
  document.addEventListener("submit", () => { leaving = true; });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) { poll(url); } });
  poll(url);
}

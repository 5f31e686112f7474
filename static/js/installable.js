// Installable: the service worker (static/sw.js) keeps the app's pages and files for when the server
// cannot be reached; browsers run it over HTTPS and on localhost. Each page tells it which pages the
// phone will want next: the next hand's forms, and this page when it came before the worker did.

let drawnWithout = false;

function keep() {
  const controller = navigator.serviceWorker.controller;
  if (!controller) { return; }
  const urls = Array.from(document.querySelectorAll("main a[href]"), (a) => a.href)
    .filter((href) => /\/hands\/new(\?|$)/.test(href));
  if (drawnWithout) { urls.push(window.location.href); drawnWithout = false; }
  if (urls.length) { controller.postMessage({ keep: urls }); }
}

// worker: the service worker's address (the page's script tag says it in data-worker).
export function start(worker) {
  if (!worker || !navigator.serviceWorker || !window.isSecureContext) { return; }
  drawnWithout = !navigator.serviceWorker.controller;
  navigator.serviceWorker.register(worker).catch(() => { /* every page works without it */ });
  navigator.serviceWorker.addEventListener("controllerchange", keep);
  document.addEventListener("scorekeeper:updated", keep);
  document.addEventListener("DOMContentLoaded", keep);
}

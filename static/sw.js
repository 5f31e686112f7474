// Keeps the app's own pages and files on the phone, so that a match stays readable and hands can be
// entered while the server cannot be reached (static/js/outbox/ keeps the hands; this keeps the pages).
// Network first: while the server answers, the phone sees exactly what it sends. The API is never
// kept here: the live polling and the saves always ask the server itself.
"use strict";

var VERSION = "scorekeeper-1";
var FILES = VERSION + "-files", PAGES = VERSION + "-pages";
// The static folder's build, written in as the server serves this worker: the current static files are
// under /static/<build>/ and never change there, so the copy kept is answered without asking. Empty while
// the server runs in debug mode, where files are edited under one build: then every file is asked for.
var BUILD = "/* the build */";
var BUILT = /\/static\/([0-9a-f]{12})\//;
var PAGES_KEPT = 60;   // the pages this phone opened last: match pages, hand forms, the home page
var PATIENCE = 4000;   // ms to wait for the server before showing the page kept, when there is one
var SCOPE = new URL(self.registration.scope);
var OFFLINE = new URL("offline", SCOPE).href;
// What every page needs offline: the style sheet, every module, an icon and the offline page. The server
// writes the list in as it serves this worker (scorekeeper/web/installable.py), so a new module is kept too.
var SHELL = [/* the app's files */].map(function (path) {
  return new URL(path, SCOPE).href;
});

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(FILES).then(function (cache) { return cache.addAll(SHELL); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name.indexOf(VERSION + "-") !== 0; })
      .map(function (name) { return caches.delete(name); }));
  }).then(oldBuilds).then(function () { return self.clients.claim(); }));
});

// The files of the build before stay for the pages kept with it (opened offline, they still ask for them);
// those of older builds go.
function oldBuilds() {
  return caches.open(FILES).then(function (cache) {
    return cache.keys().then(function (keys) {
      var builds = keys.map(function (key) { var found = BUILT.exec(key.url); return found && found[1]; });
      var before = builds.filter(function (build) { return build && build !== BUILD; }).pop();
      return Promise.all(keys.filter(function (key, at) {
        return builds[at] && builds[at] !== BUILD && builds[at] !== before;
      }).map(function (key) { return cache.delete(key); }));
    });
  });
}

function within(url) {
  return url.origin === SCOPE.origin && url.pathname.indexOf(SCOPE.pathname) === 0;
}

// What this worker keeps: the app's pages (HTML) and its static files; never the API, PDFs or redirects.
function kind(request) {
  var url = new URL(request.url);
  if (request.method !== "GET" || !within(url)) { return null; }
  var path = url.pathname.slice(SCOPE.pathname.length);
  if (path.indexOf("api/") === 0 || /\.pdf$/.test(path) || path === "sw.js") { return null; }
  // A live redraw wants the page as it is now: a copy kept earlier would take the page back in time.
  if (request.headers.get("X-Live-Redraw")) { return null; }
  if (path.indexOf("static/") === 0 || request.destination === "image") { return FILES; }  // and the QR codes
  var accept = request.headers.get("Accept") || "";
  return request.mode === "navigate" || accept.indexOf("text/html") >= 0 ? PAGES : null;
}

function keep(name, request, response) {
  var html = (response.headers.get("Content-Type") || "").indexOf("text/html") === 0;
  if (!response.ok || response.type !== "basic" || response.redirected || (name === PAGES && !html)) {
    return Promise.resolve();
  }
  // A file under a build's address is kept only from a server of that build (X-Static-Build).
  var built = BUILT.exec(request.url);
  if (built && response.headers.get("X-Static-Build") !== built[1]) { return Promise.resolve(); }
  return written(request.url, function () {
    return caches.open(name).then(function (cache) {
      return cache.put(request.url, response).then(function () {
        return name === PAGES ? trim(cache) : null;
      });
    });
  });
}

// One write at a time per address: a page fetched ahead while the same page is being kept (a live redraw
// asks for the next hand's forms again) waits for the write before it, instead of racing it.
var writing = {};
function written(url, write) {
  var after = (writing[url] || Promise.resolve()).then(write, write);
  var settled = after.catch(function () { /* a copy not kept is fetched again next time */ });
  writing[url] = settled;
  return settled.then(function () { if (writing[url] === settled) { delete writing[url]; } });
}

function trim(cache) {
  return cache.keys().then(function (keys) {
    return Promise.all(keys.slice(0, Math.max(0, keys.length - PAGES_KEPT)).map(function (key) { return cache.delete(key); }));
  });
}

// A proxy in front of a server that is down answers 502-504: as good as no answer.
function answered(response) {
  if ([502, 503, 504].indexOf(response.status) >= 0) { throw new Error("the server is not answering"); }
  return response;
}

// The copy kept of an address; for a file of another build that is no longer kept (a page kept offline
// since an older version), the current build's copy of the same file.
function kept(request) {
  return caches.match(request.url, { ignoreVary: true }).then(function (copy) {
    var built = BUILT.exec(request.url);
    if (copy || !built || !BUILD || built[1] === BUILD) { return copy; }
    return caches.match(request.url.replace(BUILT, "/static/" + BUILD + "/"), { ignoreVary: true });
  });
}

// The "No connection" page in the language of the page this phone kept last (the language it reads in now), else
// the one kept when the worker was installed.
function offlinePage() {
  return caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (keys) {
      var last = keys[keys.length - 1];
      return last ? cache.match(last).then(function (page) { return page ? page.text() : ""; }) : "";
    });
  }).then(function (html) {
    var lang = /<html[^>]*\slang="([A-Za-z-]+)"/.exec(html);
    return lang ? caches.match(new URL("offline/" + lang[1], SCOPE).href) : null;
  }).catch(function () { return null; }).then(function (page) { return page || caches.match(OFFLINE); });
}

function networkFirst(event, name) {
  var request = event.request, saving = null;
  var network = fetch(request).then(answered).then(function (response) {
    saving = keep(name, request, response.clone());
    return response;
  });
  event.waitUntil(network.then(function () { return saving; }).catch(function () { /* nothing to keep */ }));
  var answer = network.catch(function () {
    return kept(request).then(function (copy) {
      if (copy) { return copy; }
      return request.mode !== "navigate" ? Response.error() : offlinePage().then(function (page) {
        return page || Response.error();
      });
    });
  });
  // A network that hangs (a Wi-Fi that comes and goes) gets a few seconds, then the copy kept, if any.
  var slow = new Promise(function (resolve) { setTimeout(resolve, PATIENCE); }).then(function () {
    return kept(request).then(function (copy) { return copy || answer; });
  });
  return Promise.race([answer, slow]);
}

// A file of the current build never changes: the copy kept, else the network (and keep it).
function keptFirst(event) {
  return kept(event.request).then(function (copy) { return copy || networkFirst(event, FILES); });
}

self.addEventListener("fetch", function (event) {
  var name = kind(event.request), built = BUILT.exec(event.request.url);
  if (name === FILES && built && built[1] === BUILD) { event.respondWith(keptFirst(event)); }
  else if (name) { event.respondWith(networkFirst(event, name)); }
});

// The pages a phone will want next (the match page, the next hand's forms), fetched while it can.
// A page asked for again while it is on its way (two redraws in a row) is fetched once.
var fetching = {};
self.addEventListener("message", function (event) {
  var urls = (event.data && event.data.keep) || [];
  event.waitUntil(Promise.all(urls.map(function (href) {
    var url = new URL(href, SCOPE);
    if (!within(url)) { return null; }
    if (fetching[url.href]) { return fetching[url.href]; }
    // X-Kept-Ahead: no visit, so the server does not send back the cookie as it was when this left.
    var request = new Request(url.href, { headers: { "Accept": "text/html", "X-Kept-Ahead": "1" },
                                          credentials: "same-origin" });
    var ahead = fetch(request).then(function (response) { return keep(PAGES, request, response); })
      .catch(function () { /* later */ })
      .then(function () { delete fetching[url.href]; });
    fetching[url.href] = ahead;
    return ahead;
  })));
});

// Service worker of the score sheet, served at /score-sw.js with the scope /score: it keeps
// a copy of every file the sheet needs so that /score opens and works without a network.
// The server replaces __SHEET_VERSION__ with a hash of the client's files, so any change to
// them installs a new worker, which caches the new files and deletes the old copy.
const VERSION = "__SHEET_VERSION__";
const CACHE = `coloretto-sheet-${VERSION}`;
const PRECACHE = ["/score", "/static/score.js", "/static/scoring.js", "/static/sheetstate.js", "/static/i18n.js", "/static/api.js", "/static/style.css", "/static/score.css", "/static/score.webmanifest", "/static/icons/sheet.svg", "/static/icons/sheet-maskable.svg", "/static/locales/en.json", "/static/locales/nl.json", "/static/locales/uk.json", "/static/locales/it.json", "/static/locales/fr.json", "/static/locales/de.json"];

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // "reload": fetch from the server, never from the browser's HTTP cache (it may be older).
    await cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("coloretto-sheet-") && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const path = url.pathname === "/score/" ? "/score" : url.pathname;
  if (!PRECACHE.includes(path)) return; // everything else (the API, the lobby) goes to the network
  // The cached copy first (it is exactly this version's file); the network if it is missing.
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(path);
    if (hit) return hit;
    const response = await fetch(request);
    if (response.ok) await cache.put(path, response.clone());
    return response;
  })());
});

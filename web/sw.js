// Tabla's service worker: it keeps the page, its glue, its .wasm, the manifest and the icon, so
// Tabla added to a phone's home screen opens and plays with no network at all. Each build names
// its cache by a hash of every file it keeps (web/build.sh fills it in): a new build's worker
// fills a new cache, from the network and not from the browser's HTTP cache, and deletes the old.
const VERSION = "@VERSION@";
const CACHE = `tabla-${VERSION}`;
const FILES = ["./", "./index.html", `./tabla.js?v=${VERSION}`, `./tabla_bg.wasm?v=${VERSION}`,
  "./icon.png", "./manifest.webmanifest"];

self.addEventListener("install", (event) => {
  const fresh = FILES.map((file) => new Request(file, { cache: "reload" }));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(fresh)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  const old = (name) => name.startsWith("tabla-") && name !== CACHE;
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter(old).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // The page from the network when there is one (a new build shows at once), else the kept one.
    event.respondWith(fetch(request).catch(() =>
      caches.match(request, { cacheName: CACHE }).then((kept) => kept || caches.match("./index.html"))));
    return;
  }
  event.respondWith(caches.match(request, { cacheName: CACHE }).then((kept) => kept || fetch(request)));
});

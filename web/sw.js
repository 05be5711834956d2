// Tabla's service worker: it keeps the page, its glue, its .wasm, the manifest and the icons, so
// Tabla added to a phone's home screen opens and plays with no network at all. Each build names
// its cache by a hash of every file it keeps, and lists each file's SHA-256 (web/build.sh fills
// both in): a new build's worker fetches every file from the network (not from the browser's HTTP
// cache) and keeps the build only when each came whole and as built. A deploy caught half-way
// (some files new, some old, one cut short) is not kept: the worker of the build before goes on,
// and the next load, once the deploy is whole, installs the new one.
const VERSION = "@VERSION@";
const CACHE = `tabla-${VERSION}`;
// Each file the worker keeps: its address and its SHA-256 in hex.
const FILES = @FILES@;

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

async function fetchWhole([file, sha256]) {
  const response = await fetch(new Request(file, { cache: "reload" }));
  if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
  const digest = hex(await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer()));
  if (digest !== sha256) throw new Error(`${file} did not come as built: this build is not kept`);
  return [file, response];
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    // Every file checked before any is kept: a failure leaves no half-filled cache.
    const fetched = await Promise.all(FILES.map(fetchWhole));
    const cache = await caches.open(CACHE);
    await Promise.all(fetched.map(([file, response]) => cache.put(file, response)));
    await self.skipWaiting();
  })());
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

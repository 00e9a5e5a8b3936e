// The static site's service worker (export.sh puts it beside index.html, so that its scope is
// the whole site): after one visit the board opens and plays offline.
//
// Network first, the cache as the fallback: online, a new export is seen at once (a cache-first
// worker would keep serving the old page until it updated itself); offline, the last copy of
// each file answers. The page's files are cached when the worker installs, not only as the
// page asks for them, since the first visit fetches some of them (the search worker) only later.

const CACHE = 'xiangqi-site';
const FILES = [
  './',
  'index.html',
  'assets/style.css',
  'assets/favicon.svg',
  'assets/app.js',
  'assets/board.js',
  'assets/api.js',
  'assets/i18n.js',
  'assets/graph.js',
  'assets/record.js',
  'assets/arrows.js',
  'assets/prefs.js',
  'assets/sound.js',
  'assets/editor.js',
  'assets/review.js',
  'assets/tables.js',
  'assets/lines.js',
  'assets/files.js',
  'assets/scores.js',
  'assets/local.js',
  'assets/engine-worker.js',
  'assets/wasm/xiangqi_wasm.js',
  'assets/wasm/xiangqi_wasm_bg.wasm',
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
        }
        return response;
      })
      .catch(async () => (await caches.match(request, { ignoreSearch: true })) || Response.error()),
  );
});

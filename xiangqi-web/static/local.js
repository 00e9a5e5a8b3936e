// The engine service without a server: the page exported as static files (`export.sh`)
// answers its API requests with the library compiled to WebAssembly, as the same JSON the
// server writes (both come from the crate xiangqi-service). Searches run in Web Workers, one
// per search at a time, so the page never blocks; aborting a search ends its worker. No
// SharedArrayBuffer, so no special headers: any static host serves it.

import initWasm, { serviceRequest } from './wasm/xiangqi_wasm.js';

const wasmUrl = new URL('./wasm/xiangqi_wasm_bg.wasm', import.meta.url);

async function compile() {
  const res = await fetch(wasmUrl);
  if (!res.ok) throw new Error(`could not load the engine (${wasmUrl}): HTTP ${res.status}`);
  // A host that does not say application/wasm: compile from the bytes.
  return WebAssembly.compileStreaming(res.clone()).catch(async () => WebAssembly.compile(await res.arrayBuffer()));
}

const module = await compile();
await initWasm({ module_or_path: module });

// Offline after one visit (sw.js, beside the page). Browsers allow service workers on https
// and localhost only; elsewhere the site still works, online.
if ('serviceWorker' in navigator && window.isSecureContext) {
  navigator.serviceWorker.register('sw.js').catch((e) => console.warn(`no offline copy: ${e.message}`));
}

/** Idle workers, kept with their hash tables for the next search. */
const idle = [];

function worker() {
  const w = idle.pop();
  if (w) return w;
  const fresh = new Worker(new URL('./engine-worker.js', import.meta.url), { type: 'module' });
  fresh.postMessage({ type: 'init', module });
  return fresh;
}

const encoder = new TextEncoder();

function bytes(body) {
  if (body == null) return new Uint8Array();
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('a request body must be text or bytes');
}

function response({ status, contentType, body }) {
  return new Response(body, { status, headers: { 'Content-Type': contentType } });
}

const aborted = () => new DOMException('The search was stopped.', 'AbortError');

/**
 * Runs a search request (`move`, `analysis` or `review`) in a worker. A move is answered
 * when its search ends; an analysis or a review is answered with a body of Server-Sent
 * Events from its first event on, as the server streams it. A request the service refuses
 * (a bad FEN) gets its error answer. Aborting ends the worker, and with it the search.
 */
function search(path, body, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(aborted());
      return;
    }
    const w = worker();
    let stream = null; // the analysis body's controller, once the answer has begun
    let done = false;
    const finish = (keep) => {
      if (done) return;
      done = true;
      signal?.removeEventListener('abort', onAbort);
      if (keep) idle.push(w);
      else w.terminate();
    };
    const onAbort = () => {
      finish(false);
      if (stream) stream.error(aborted());
      else reject(aborted());
    };
    signal?.addEventListener('abort', onAbort);
    w.onmessage = ({ data }) => {
      if (data.type === 'event') {
        if (!stream) {
          const body = new ReadableStream({
            start: (c) => {
              stream = c;
            },
            cancel: () => finish(false),
          });
          resolve(new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }));
        }
        stream.enqueue(encoder.encode(`event: ${data.name}\ndata: ${data.data}\n\n`));
      } else if (data.type === 'done') {
        finish(true);
        if (stream) stream.close();
        else resolve(response(data.answer));
      }
    };
    w.postMessage({ type: 'search', path, body });
  });
}

/** `fetch` for the API's paths (`info`, `position`, …), answered here. */
export async function localFetch(path, init = {}) {
  const method = (init.method || 'GET').toUpperCase();
  if (init.signal?.aborted) throw aborted();
  if (method === 'POST' && (path === 'move' || path === 'analysis' || path === 'review')) {
    return search(path, bytes(init.body), init.signal);
  }
  return response(serviceRequest(method, path, bytes(init.body)));
}

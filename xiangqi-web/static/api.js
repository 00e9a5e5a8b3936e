// The page's calls to the engine service (/api/v1/): JSON requests and the analysis
// stream (Server-Sent Events read from a fetch body, since EventSource cannot POST).
//
// The service is the server's, or, on the page exported as static files (its <html> has
// data-backend="wasm"), the same service compiled to WebAssembly and answered in the page
// (local.js): the same requests get the same answers, so nothing below knows which.

/** Whether the page answers its own requests (no server). */
export const local = document.documentElement.dataset.backend === 'wasm';

const call = local
  ? (await import('./local.js')).localFetch
  : (path, init) => fetch(`api/v1/${path}`, init);

/** An API error: the server's JSON error object. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error?.message || `HTTP ${status}`);
    this.status = status;
    this.code = body?.error?.code;
    this.field = body?.error?.field;
    /** For an illegal move: the rule it breaks (`horse_leg`, ...); for a bad FEN: what is
     * wrong with it (`rank_too_long`, `setup`). For the page's own words. */
    this.reason = body?.error?.reason;
    /** For a FEN whose position breaks the rules: every problem's code (`generals_facing`). */
    this.problems = body?.error?.problems;
  }
}

async function post(path, body, signal) {
  const res = await call(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
  return res;
}

export const info = async () => (await call('info')).json();
export const position = async (game) => (await post('position', game)).json();
export const engineMove = async (req, signal) => (await post('move', req, signal)).json();
export const pgn = async (req) => (await post('pgn', req)).text();
/** The endgame table's value of a game's position and of each of its moves. */
export const egtb = async (game, signal) => (await post('egtb', game, signal)).json();
export const endings = async () => (await call('egtb/endings')).json();
/** A random won position of an ending for the trainer: { fen, plies, name, name_en, ... }. */
export const trainer = async (req) => (await post('egtb/trainer', req)).json();

/** Reads an uploaded record file (PGN or XQF bytes) into games. */
export async function records(bytes) {
  const res = await call('records', { method: 'POST', body: bytes });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

/**
 * Reads a stream of Server-Sent Events from `path`, calling onEvent(name, data) for each
 * until the stream ends or `signal` aborts it (which stops the work on the server).
 */
async function events(path, req, signal, onEvent) {
  const res = await post(path, req, signal);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let name = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data += line.slice(5).trim();
      }
      if (data) onEvent(name, JSON.parse(data));
    }
  }
}

/**
 * Streams an analysis: calls onEvent(name, data) for every `info` and `bestmove` event
 * until the stream ends or `signal` aborts it (which stops the search on the server).
 */
export const analysis = (req, signal, onEvent) => events('analysis', req, signal, onEvent);

/**
 * Streams a game review (复盘) of `req` ({ fen?, moves, rules?, limits? }): calls
 * onEvent(name, data) with a `move` event for each ply as it is judged ({ ply, total, side,
 * played, best, best_line, score_before, score_after, loss, class, nag, ... }), then the
 * `summary` ({ red, black, thresholds, complete, pgn: the game annotated }); a failure during
 * the review is an `error` event with the API's error JSON. A refused request throws an
 * ApiError before any event.
 * Aborting `signal` stops the review (the server's, or the page's own worker).
 */
export const review = (req, signal, onEvent) => events('review', req, signal, onEvent);

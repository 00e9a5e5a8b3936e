// One Node run of the packed package against its peers on the same work:
// - legal-move generation over the shared perft suite's positions, against ffish (Fairy-
//   Stockfish's rules in WebAssembly, `ffish-es6` from npm) and against the native build;
// - perft 5 from the start and a fixed-depth search with the embedded net (16 MB, one
//   thread), against the native build: the same code, so the same leaves and the same tree.
// The native figures come from `examples/native_peer.rs`, run just before by bench/run.sh on
// the same machine and passed in XIANGQI_NATIVE (one JSON line). Usage: bash bench/run.sh.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const dir = process.env.XIANGQI_WASM_DIR;
const native = JSON.parse(process.env.XIANGQI_NATIVE);
const depth = Number(process.env.XIANGQI_SEARCH_DEPTH);
const require = createRequire(join(dir, 'package.json'));
const xq = await import(require.resolve('xiangqi-wasm'));
// ffish's own loader fetches its .wasm by a path Node's fetch refuses (ffish issue #868);
// given the bytes, the ES module build runs in Node.
const ffishModule = (await import(require.resolve('ffish-es6'))).default;
const ffish = await ffishModule({ wasmBinary: readFileSync(require.resolve('ffish-es6/ffish.wasm')) });

const fens = readFileSync(process.env.XIANGQI_EPD).toString().split('\n')
  .filter((l) => l.trim() && !l.startsWith('#')).map((l) => l.split(';')[0].trim());

/** What `fn` counts per second, run for about two seconds. */
function rate(fn, ms = 2000) {
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < ms) n += fn();
  return n / ((performance.now() - t0) / 1000);
}

const fmt = (x) => Math.round(x).toLocaleString('en');
const ratio = (a, b) => `${(a / b).toFixed(2)}x`;

const boards = fens.map((f) => new xq.Board(f));
const theirs = fens.map((f) => new ffish.Board('xiangqi', f));
// The same answer first: the same number of moves in every position.
for (let i = 0; i < fens.length; i++) {
  const a = boards[i].legalMovesIccs().length;
  const b = theirs[i].legalMoves().split(' ').filter(Boolean).length;
  if (a !== b) throw new Error(`legal moves differ on ${fens[i]}: ${a} against ffish's ${b}`);
}
const packed = rate(() => boards.reduce((n, b) => n + b.legalMovesPacked().length, 0));
const iccs = rate(() => boards.reduce((n, b) => n + b.legalMovesIccs().length, 0));
const full = rate(() => boards.reduce((n, b) => n + b.legalMoves().length, 0));
const ff = rate(() => theirs.reduce((n, b) => n + b.legalMoves().split(' ').length, 0));
theirs.forEach((b) => b.delete());
console.log(`legal moves/s over the ${fens.length} positions of the perft suite (the same moves in each):`);
console.log(`  xiangqi-wasm legalMovesPacked() (numbers) ${fmt(packed)}: ${ratio(packed, ff)} ffish ${fmt(ff)} (legalMoves(), one string); ${ratio(packed, native.legalMovesPerSecond)} native generation (${fmt(native.legalMovesPerSecond)})`);
console.log(`  xiangqi-wasm legalMovesIccs() (a string a move) ${fmt(iccs)}: ${ratio(iccs, ff)} ffish; ${ratio(iccs, native.legalMovesAsTextPerSecond)} native with the moves as text (${fmt(native.legalMovesAsTextPerSecond)})`);
console.log(`  xiangqi-wasm legalMoves() (each move in three notations) ${fmt(full)}: ${ratio(full, ff)} ffish`);

let t = performance.now();
const leaves = xq.perft('startpos', 5);
const perftS = (performance.now() - t) / 1000;
if (leaves !== native.perftLeaves) throw new Error(`perft 5: ${leaves} against native ${native.perftLeaves}`);
const nativePerft = native.perftLeaves / native.perftSeconds;
console.log(`perft 5 from the start: ${(leaves / perftS / 1e6).toFixed(1)} M leaves/s: ${ratio(leaves / perftS, nativePerft)} native (${(nativePerft / 1e6).toFixed(1)} M/s)`);

const engine = new xq.Engine();
t = performance.now();
const r = await engine.search('startpos', { depth, hash: 16 });
const searchS = (performance.now() - t) / 1000;
engine.quit();
const same = r.nodes === native.searchNodes ? 'the same tree' : `not the same tree: native searched ${fmt(native.searchNodes)} nodes`;
const nativeNps = native.searchNodes / native.searchSeconds;
console.log(`search to depth ${depth} from the start: ${fmt(r.nodes)} nodes in ${searchS.toFixed(2)} s = ${fmt(r.nodes / searchS)} nodes/s: ${ratio(r.nodes / searchS, nativeNps)} native (${fmt(nativeNps)}; ${same})`);

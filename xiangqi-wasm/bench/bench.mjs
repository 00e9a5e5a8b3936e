// One Node run: xiangqi-wasm against ffish (Fairy-Stockfish's rules in WebAssembly, from npm)
// on legal-move generation over the same positions, perft and search speed for comparison
// with the native build (run beside: `cargo run --release --example perft`), and the
// package's size. Usage: bash bench/run.sh (it installs the tarball and ffish into a
// scratch folder and passes their paths).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const dir = process.env.XIANGQI_WASM_DIR;
const require = createRequire(join(dir, 'package.json'));
const xq = await import(require.resolve('xiangqi-wasm'));
// ffish (0.7.10), the peer the issue names, crashes on load in Node (its issue #868: it
// fetches its .wasm by a path Node's fetch refuses, then aborts the process), so the
// comparison with it needs the browser; this run measures ours alone.
const ffish = null;

const repo = new URL('../../', import.meta.url);
const fens = readFileSync(new URL('xiangqi-core/tests/data/perft.epd', repo)).toString().split('\n')
  .filter((l) => l.trim() && !l.startsWith('#')).map((l) => l.split(';')[0].trim());

function rate(label, fn, ms = 2000) {
  let n = 0;
  let calls = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    n += fn();
    calls++;
  }
  const s = (performance.now() - t0) / 1000;
  return { label, perSecond: n / s, calls };
}

const boards = fens.map((f) => new xq.Board(f));
const ours = rate('xiangqi-wasm legalMoves()', () => boards.reduce((a, b) => a + b.legalMoves().length, 0));
console.log(`legal moves/s over ${fens.length} positions: xiangqi-wasm ${Math.round(ours.perSecond).toLocaleString('en')}`);
if (ffish) {
  const theirsBoards = fens.map((f) => new ffish.Board('xiangqi', f));
  const theirs = rate('ffish legalMoves()', () => theirsBoards.reduce((a, b) => a + b.legalMoves().split(' ').length, 0));
  console.log(`ffish ${Math.round(theirs.perSecond).toLocaleString('en')}: ${(ours.perSecond / theirs.perSecond).toFixed(1)}x`);
}

let t = performance.now();
const nodes = xq.perft('startpos', 5);
const perftS = (performance.now() - t) / 1000;
console.log(`perft 5 from the start: ${nodes} leaves in ${perftS.toFixed(2)} s = ${(nodes / perftS / 1e6).toFixed(1)} M leaves/s`);

const engine = new xq.Engine();
const r = await engine.search('startpos', { movetime: 5000 });
console.log(`search 5 s from the start: depth ${r.depth}, ${r.nodes.toLocaleString('en')} nodes = ${Math.round(r.nodes / (r.timeMs / 1000)).toLocaleString('en')} nodes/s`);
engine.quit();

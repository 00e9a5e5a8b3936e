// The npm package as a user installs it: run by run.sh, which installs the `npm pack`
// tarball into a scratch folder and points XIANGQI_WASM_DIR there. Truth comes from the
// repository's shared suites (perft counts reproduced with Fairy-Stockfish, notation pairs
// from pyffish, mates verified by Fairy-Stockfish), not from our own output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const dir = process.env.XIANGQI_WASM_DIR;
assert.ok(dir, 'XIANGQI_WASM_DIR: the folder the tarball was installed into');
const require = createRequire(join(dir, 'package.json'));
const xq = await import(require.resolve('xiangqi-wasm'));
const { Board, Engine, XiangqiError, readRecords, perft, GameRecord } = xq;
const repo = new URL('../../', import.meta.url);
const data = (p) => readFileSync(new URL(p, repo));

test('rules: the start position and a game', () => {
  const b = new Board();
  assert.equal(b.turn(), 'red');
  assert.equal(b.legalMoves().length, 44);
  assert.deepEqual(b.legalMovesIccs(), b.legalMoves().map((m) => m.iccs));
  const packed = b.legalMovesPacked();
  assert.ok(packed instanceof Uint16Array);
  assert.deepEqual([...packed].map(xq.moveText), b.legalMovesIccs());
  assert.ok(packed.includes(25 | (22 << 7)), 'h2e2 as a number');
  assert.throws(() => xq.moveText(0), (e) => e instanceof XiangqiError && e.kind === 'notation');
  assert.equal(b.play('h2e2').chinese, '炮二平五');
  assert.equal(b.turn(), 'black');
  assert.equal(b.undo().iccs, 'h2e2');
  assert.equal(b.undo(), null);
});

test('perft 1-4 from the start and the shared suite', () => {
  assert.deepEqual([1, 2, 3, 4].map((d) => perft('startpos', d)), [44, 1920, 79666, 3290240]);
  let checked = 0;
  for (const line of data('xiangqi-core/tests/data/perft.epd').toString().split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [fen, ...fields] = line.split(';').map((s) => s.trim());
    for (const f of fields) {
      const m = /^D(\d+) (\d+)$/.exec(f);
      if (m && Number(m[2]) <= 2_000_000) {
        assert.equal(perft(fen, Number(m[1])), Number(m[2]), `${fen} depth ${m[1]}`);
        checked++;
      }
    }
  }
  assert.ok(checked > 50, `${checked} counts`);
});

test('notation both ways against pyffish', () => {
  const rows = data('xiangqi-core/tests/data/notation.tsv').toString().trim().split('\n').slice(1);
  for (const row of rows) {
    const [, , fen, iccs, , chinese, , wxf] = row.split('\t');
    const b = new Board(fen);
    const m = b.legalMoves().find((x) => x.iccs === iccs);
    assert.ok(m, `${iccs} legal in ${fen}`);
    assert.equal(m.chinese, chinese, row);
    for (const text of [chinese, wxf]) {
      const c = b.clone();
      assert.equal(c.play(text).iccs, iccs, `${text} in ${fen}`);
    }
  }
  assert.ok(rows.length > 100);
});

test('game end: checkmate and the repetition judge', () => {
  const b = new Board('3k5/9/9/9/9/9/9/9/R8/5K3 w - - 0 1');
  for (const m of ['a1a9', 'd9d8', 'a9a8', 'd8d9', 'a8a9', 'd9d8', 'a9a8', 'd8d9', 'a8a9']) b.play(m);
  const end = b.outcome();
  assert.equal(end.winner, 'black');
  assert.equal(end.reason, 'perpetual_check');
  assert.equal(new Board('3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1').outcome().reason, 'checkmate');
});

test('records: read every sample, write and read back', () => {
  const file = readRecords(data('xiangqi-records/tests/data/xqf10_sample_1997.xqf'));
  assert.equal(file.format, 'XQF');
  const g = file.games[0];
  assert.ok(g.moves().length > 10);
  for (const fmt of ['pgn', 'xqf', 'dhtmlxq', 'cbf']) {
    const back = readRecords(g.write(fmt)).games[0];
    assert.deepEqual(back.moves().map((m) => m.iccs), g.moves().map((m) => m.iccs), fmt);
  }
  const pgn = readRecords(data('xiangqi-records/tests/data/pgn_utf8_chinese_multigame_noresult.pgn'));
  assert.ok(pgn.games.length > 1);
  const mine = GameRecord.fromBoard(pgn.games[0].toBoard());
  assert.match(mine.toPgn('wxf'), /\d+\. /);
});

test('bad input gets a typed error with the library message', () => {
  assert.throws(() => new Board('rnbakabnr/9/9 w'), (e) => e instanceof XiangqiError && e.kind === 'fen' && e.message.length > 5);
  const b = new Board();
  const fen = b.fen();
  assert.throws(() => b.play('h0h1'), (e) => e instanceof XiangqiError && e.kind === 'illegal' && e.reason === 'horse_step');
  assert.throws(() => b.play('炮九平十'), (e) => e instanceof XiangqiError);
  assert.equal(b.fen(), fen, 'an illegal move leaves the board');
  assert.throws(() => readRecords(new Uint8Array([0xff, 0x00, 0x13, 0x37])), (e) => e instanceof XiangqiError && e.kind === 'record');
});

test('the engine finds the shared mates and reports its progress', async () => {
  const engine = new Engine();
  try {
    const lines = data('xiangqi-search/tests/data/mates.epd').toString().split('\n').filter((l) => l && !l.startsWith('#'));
    for (const line of lines) {
      const [fen, ...fields] = line.split(';').map((s) => s.trim());
      const dm = Number(fields.find((f) => f.startsWith('dm')).split(' ')[1]);
      const bm = fields.find((f) => f.startsWith('bm')).split(' ').slice(1);
      const search = engine.search(fen, { depth: 2 * dm + 2 });
      let infos = 0;
      for await (const info of search) if (info.multipv === 1) infos++;
      const r = await search;
      assert.ok(bm.includes(r.bestMove.iccs), `${fen}: ${r.bestMove.iccs} not in ${bm}`);
      assert.equal(r.score.mate, dm, fen);
      assert.ok(infos > 0);
    }
    // MultiPV, and a stop answers at once with the best line so far.
    const s = engine.search(new Board(), { movetime: 20000, multipv: 3 });
    const seen = new Set();
    for await (const info of s) {
      seen.add(info.multipv);
      if (seen.size === 3 && info.depth >= 6) break;
    }
    const t = Date.now();
    engine.stop();
    const r = await s;
    assert.ok(Date.now() - t < 1000 && r.stopped && r.bestMove, JSON.stringify(r));
    await assert.rejects(engine.search(new Board(), { level: 'no such level' }), (e) => e instanceof XiangqiError && e.kind === 'option');
  } finally {
    engine.quit();
  }
});

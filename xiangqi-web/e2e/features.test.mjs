// End-to-end test of the board's further features in headless Chromium, run like
// board.test.mjs by `cargo test -p xiangqi-web --test browser` (XQ_URL, XQ_STATIC,
// XQ_SCREENSHOTS): one scenario a feature, each from a fresh page. XQ_ONLY=name,name runs
// some of them (for work on one).

import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const url = process.env.XQ_URL;
const shots = process.env.XQ_SCREENSHOTS;
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const staticSite = process.env.XQ_STATIC === '1';
const only = process.env.XQ_ONLY?.split(',');

function check(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
  console.log(`ok - ${what}`);
}

/** The helpers of one page: its points, clicks, drags and the move list. */
function helpers(page) {
  const h = {};
  h.center = async (sq) => {
    for (let i = 0; i < 40; i++) {
      const box = await page.locator(`rect.point[data-sq="${sq}"]`).boundingBox().catch(() => null);
      if (box) return [box.x + box.width / 2, box.y + box.height / 2];
      await page.waitForTimeout(50);
    }
    throw new Error(`no point ${sq} on the board`);
  };
  h.click = async (sq) => {
    const [x, y] = await h.center(sq);
    await page.mouse.click(x, y);
  };
  h.move = async (iccs) => {
    await h.click(iccs.slice(0, 2));
    await h.click(iccs.slice(2, 4));
  };
  h.plies = () => page.locator('#moves span[data-ply]').count();
  h.waitPlies = (n) => page.waitForFunction((n) => document.querySelectorAll('#moves span[data-ply]').length === n, n, { timeout: 30000 });
  h.listed = () => page.$$eval('#moves span[data-ply]', (s) => s.map((e) => e.textContent));
  h.newGame = async (mode, fen = '', level = null) => {
    await page.selectOption('#mode', mode);
    if (level) await page.selectOption('#level', level);
    await page.fill('#fen', fen);
    const games = await page.evaluate(() => document.documentElement.dataset.games);
    await page.click('#start');
    // "Play" checks the FEN with a request first: a move made before the new game starts
    // would be played in the old one and then dropped (a race on a loaded machine).
    await page.waitForFunction((g) => document.documentElement.dataset.games !== g, games);
  };
  h.save = async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
    return readFileSync(await download.path(), 'utf8');
  };
  return h;
}

const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
const errors = [];

async function open(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', ...options });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && !/status of 422/.test(m.text()) && errors.push(m.text()));
  await page.goto(url);
  await page.waitForSelector('g.piece[data-sq="e0"]');
  return { context, page, h: helpers(page) };
}

const scenarios = {};

// Lines: a game played on the page keeps the line undone as a variation; ↑/↓ choose among the
// moves at a branch; a line promoted and one deleted, and the saved PGN says both.
scenarios.lines = async () => {
  const { context, page, h } = await open();
  await page.selectOption('#notation', 'iccs');
  await h.newGame('both');
  await h.waitPlies(0);
  await h.move('h2e2');
  await h.waitPlies(1);
  await h.move('h9g7');
  await h.waitPlies(2);
  await page.click('#undo');
  await page.waitForFunction(() => document.querySelector('#moves span.current')?.dataset.ply === '1');
  await h.move('b9c7');
  await page.waitForFunction(() => document.querySelector('#moves span[data-ply="2"]')?.textContent === 'b9c7');
  await page.click('#moves span[data-ply="1"]');
  await page.waitForFunction(() => document.querySelectorAll('#variation-list button').length === 2);
  const offered = await page.$$eval('#variation-list button', (b) => b.map((e) => e.dataset.iccs));
  check(offered.join(' ') === 'b9c7 h9g7', `the undone move stays as a variation, the new one the main line (${offered.join(' ')})`);
  let pgn = await h.save();
  check(/马[2２]进[3３][^(]*\([^)]*马[8８]进[7７]/.test(pgn), 'the saved PGN has the variation');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.querySelector('#moves span[data-ply="2"]')?.textContent === 'h9g7');
  check(true, '↓ chooses the next move at the branch');
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => document.querySelector('#moves span[data-ply="2"]')?.textContent === 'b9c7');
  check(true, '↑ the one before');
  await page.click('#variation-list button[data-iccs="h9g7"]');
  await page.waitForFunction(() => document.querySelector('#moves span.current')?.textContent === 'h9g7');
  await page.click('#promote');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('#variation-list button')?.dataset.iccs === 'h9g7');
  check(true, 'a promoted line is offered first');
  pgn = await h.save();
  check(/马[8８]进[7７][^(]*\([^)]*马[2２]进[3３]/.test(pgn), 'a promoted line is the main line of the saved PGN');
  await page.screenshot({ path: join(shots, 'lines.png') });
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.querySelector('#moves span[data-ply="2"]')?.textContent === 'b9c7');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#moves span.current')?.textContent === 'b9c7');
  await page.click('#delete-line');
  await page.waitForFunction(() => document.querySelector('#variations').hidden && document.querySelector('#moves span.current')?.dataset.ply === '1');
  pgn = await h.save();
  check(!pgn.includes('(') && /马[8８]进[7７]/.test(pgn) && !/马[2２]进[3３]/.test(pgn), 'a deleted line is gone from the saved PGN');
  await context.close();
};

// Arrows: the first moves of three analysis lines, the best one boldest; the threat on request;
// the switch hides the lines' arrows.
scenarios.arrows = async () => {
  const { context, page, h } = await open();
  await h.newGame('analysis');
  await page.selectOption('#multipv', '3');
  await page.waitForFunction(() => document.querySelectorAll('#think-lines .think-line').length === 3, null, { timeout: 20000 });
  await page.waitForFunction(() => document.querySelectorAll('g.arrows .arrow-line').length === 3, null, { timeout: 20000 });
  const firsts = await page.$$eval('#think-lines .think-line', (l) => l.length);
  check(firsts === 3, 'three analysis lines, three arrows on the board');
  check((await page.locator('g.arrows .arrow-line.rank-0').count()) === 1, 'the best line has its own arrow');
  await page.click('#threat');
  await page.waitForSelector('g.arrows .arrow-threat', { timeout: 20000 });
  check(/Threat/.test(await page.locator('#hint-box').textContent()), 'the threat is shown on request, as an arrow and in words');
  await page.screenshot({ path: join(shots, 'arrows.png') });
  await page.uncheck('#arrows');
  await page.waitForFunction(() => document.querySelectorAll('g.arrows .arrow-line').length === 0);
  check(true, 'the switch takes the arrows away');
  await page.check('#arrows');
  // A position with red in check has no threat to show.
  await h.newGame('both', '4k4/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1');
  await page.waitForSelector('g.piece[data-sq="e1"]');
  await page.click('#threat');
  await page.waitForSelector('#hint-box:has-text("No threat")');
  check(true, 'in check there is no threat to show');
  await context.close();
};

// Themes and sound: a move sounds, a capture sounds otherwise; the board theme, the piece style,
// the piece look and the sound switch survive a reload.
scenarios.themes = async () => {
  const { context, page, h } = await open();
  await h.newGame('both');
  await h.waitPlies(0);
  await h.move('h2h9'); // 炮二进七 takes the horse
  await h.waitPlies(1);
  await page.waitForFunction(() => document.documentElement.dataset.sound === 'capture');
  check(true, 'a capture has its sound');
  await h.move('i9h9');
  await h.waitPlies(2);
  await page.waitForFunction(() => document.documentElement.dataset.sound === 'capture');
  await h.move('b2b6');
  await h.waitPlies(3);
  await page.waitForFunction(() => document.documentElement.dataset.sound === 'move');
  check(true, 'a move has its own');
  await page.selectOption('#theme', 'paper');
  await page.selectOption('#style', 'simplified');
  await page.selectOption('#look', 'solid');
  await page.uncheck('#sound');
  await page.reload();
  await page.waitForSelector('g.piece[data-sq="e0"]');
  check((await page.locator('#theme').inputValue()) === 'paper' && (await page.evaluate(() => document.documentElement.dataset.theme)) === 'paper', 'the board theme survives a reload');
  check((await page.locator('#style').inputValue()) === 'simplified' && (await page.locator('g.piece[data-sq="e0"] .glyph').textContent()) === '帅', 'so does the piece style');
  const disc = await page.evaluate(() => getComputedStyle(document.querySelector('g.piece.red .disc')).fill);
  check((await page.locator('#look').inputValue()) === 'solid' && /rgb\((1[5-9]\d|2\d\d), \d+, \d+\)/.test(disc), `so does the piece look (a red disc: ${disc})`);
  check(!(await page.locator('#sound').isChecked()), 'and the sound switch');
  await h.newGame('both');
  await h.move('h2e2');
  await h.waitPlies(1);
  check((await page.evaluate(() => document.documentElement.dataset.sound)) === undefined, 'with the sound off, a move is silent');
  await page.screenshot({ path: join(shots, 'themes.png') });
  await page.selectOption('#theme', 'contrast');
  await page.screenshot({ path: join(shots, 'theme-contrast.png') });
  await context.close();
};

// A phone: the board fills the width, the panels stack below it, nothing scrolls sideways at
// 360 px, and moves are played by tapping and by dragging with a finger.
scenarios.phone = async () => {
  const { context, page, h } = await open({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  await h.newGame('both');
  await h.waitPlies(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 360, `no horizontal scrolling at 360 px (scrollWidth ${width})`);
  const board = await page.locator('#board-host svg').boundingBox();
  check(board.width >= 320, `the board fills the phone's width (${Math.round(board.width)} px)`);
  const panel = await page.locator('.panel').boundingBox();
  check(panel.y >= board.y + board.height - 1, 'the panels stack below the board');
  const tap = async (sq) => {
    const [x, y] = await h.center(sq);
    await page.touchscreen.tap(x, y);
  };
  await tap('h2');
  await tap('e2');
  await h.waitPlies(1);
  check((await page.locator('g.piece[data-sq="e2"][data-piece="C"]').count()) === 1, 'a move played by tapping');
  // A touch drag: the finger goes down on the horse, moves in steps and lifts on its point.
  const cdp = await context.newCDPSession(page);
  const [x0, y0] = await h.center('h9');
  const [x1, y1] = await h.center('g7');
  const touch = (type, x, y) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
  await touch('touchStart', x0, y0);
  for (let i = 1; i <= 8; i++) await touch('touchMove', x0 + ((x1 - x0) * i) / 8, y0 + ((y1 - y0) * i) / 8);
  await touch('touchEnd');
  await h.waitPlies(2);
  check((await page.locator('g.piece[data-sq="g7"][data-piece="n"]').count()) === 1, 'a move played by dragging with a finger');
  // Every panel open: still nothing wider than the phone.
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => d.id !== 'editor-box' && (d.open = true)));
  await page.click('#graph-btn');
  const after = await page.evaluate(() => document.documentElement.scrollWidth);
  check(after <= 360, `still no horizontal scrolling with every panel open (scrollWidth ${after})`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(shots, 'phone.png'), fullPage: true });
  await context.close();
};

// The position editor: a cleared board is refused with the core's reason, pieces dragged on from
// the palette, about the board and off it, and placed by tapping; the position is then played.
scenarios.editor = async () => {
  const { context, page, h } = await open();
  const paletteDrag = async (piece, sq) => {
    const b = await page.locator(`#palette button[data-piece="${piece}"]`).boundingBox();
    const [x1, y1] = await h.center(sq);
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
    await page.mouse.down();
    await page.mouse.move(x1, y1, { steps: 6 });
    await page.mouse.up();
  };
  const drag = async (from, x1, y1) => {
    const [x0, y0] = await h.center(from);
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    await page.mouse.move(x1, y1, { steps: 6 });
    await page.mouse.up();
  };
  const fen = () => page.locator('#editor-fen').inputValue();
  await page.click('#editor-box summary');
  await page.waitForFunction(() => document.querySelectorAll('#palette button').length === 14);
  await page.click('#editor-clear');
  await page.waitForFunction(() => document.querySelectorAll('g.piece').length === 0);
  await page.waitForSelector('#editor-error[data-fen^="9/9/9/9/9/9/9/9/9/9 w"]:not([hidden])');
  check(await page.locator('#editor-play').isDisabled(), `an empty board is refused (${(await page.locator('#editor-error').textContent()).trim()})`);
  await paletteDrag('K', 'e0');
  await paletteDrag('k', 'e9');
  await page.waitForSelector('#editor-error[data-fen^="4k4/9/9/9/9/9/9/9/9/4K4 w"]:not([hidden])');
  const why = (await page.locator('#editor-error').textContent()).trim();
  check(await page.locator('#editor-play').isDisabled(), `generals facing each other are refused with the reason shown (${why})`);
  await page.screenshot({ path: join(shots, 'editor.png') });
  const [dx, dy] = await h.center('d9');
  await drag('e9', dx, dy);
  await page.waitForSelector('#editor-error[data-fen^="3k5/9/9/9/9/9/9/9/9/4K4 w"]', { state: 'hidden' });
  check((await fen()).startsWith('3k5/'), 'a piece dragged about the board, and the position is accepted');
  // Tap to place: choose the chariot in the palette, tap a0, choose it again to put it away.
  await page.click('#palette button[data-piece="R"]');
  await h.click('a0');
  await page.click('#palette button[data-piece="R"]');
  await paletteDrag('P', 'e3');
  await page.waitForFunction(() => document.querySelector('#editor-fen').value.startsWith('3k5/9/9/9/9/9/4P4/9/9/R3K4 w'));
  const off = await page.locator('#palette').boundingBox();
  await drag('e3', off.x + off.width / 2, off.y + off.height / 2);
  await page.waitForFunction(() => document.querySelector('#editor-fen').value.startsWith('3k5/9/9/9/9/9/9/9/9/R3K4 w'));
  check(true, 'a piece placed by tapping, one dragged off the board');
  await page.selectOption('#editor-side', 'b');
  await page.waitForFunction(() => / b - - 0 1$/.test(document.querySelector('#editor-fen').value));
  await page.selectOption('#editor-side', 'w');
  await page.selectOption('#mode', 'both');
  await page.waitForSelector('#editor-play:not([disabled])');
  await page.click('#editor-play');
  await page.waitForSelector('g.piece[data-sq="a0"][data-piece="R"]');
  check(await page.locator('#editor-box').evaluate((d) => !d.open), 'the position is played');
  await h.move('a0a9');
  await h.waitPlies(1);
  await page.waitForSelector('#status:has-text("check")');
  check(true, 'and its first move gives check');
  await context.close();
};

// Game review: a short game with a planted blunder (车一平二?? leaves the chariot to the cannon
// on h7, which takes it through the screen on h2) is reviewed; the blunder is marked ??, the
// better move offered one click away, a dot on the graph, a summary per side, and the saved PGN
// has the NAG, the comment and the better line as a variation.
scenarios.review = async () => {
  const { context, page, h } = await open();
  await page.selectOption('#notation', 'iccs');
  await h.newGame('both');
  await h.waitPlies(0);
  for (const [i, m] of ['i0i1', 'b9c7', 'i1h1', 'h7h1'].entries()) {
    await h.move(m);
    await h.waitPlies(i + 1);
  }
  await page.click('#review-box summary');
  await page.selectOption('#review-strength', 'depth:6');
  await page.click('#review-start');
  await page.waitForFunction(() => document.querySelector('#review-progress').value >= 1, null, { timeout: 60000 });
  check(true, 'the review streams its progress');
  await page.waitForSelector('#review-summary:not([hidden])', { timeout: 120000 });
  check((await page.locator('#moves span[data-ply="3"]').getAttribute('data-nag')) === '??', 'the planted blunder is marked ??');
  const redBlunders = Number(await page.locator('#review-summary tr[data-side="red"] td').nth(6).textContent());
  check(redBlunders >= 1, `the summary counts red's blunders (${redBlunders})`);
  check((await page.locator('#graph .graph-dot.review-blunder[data-ply="3"]').count()) === 1, 'a blunder dot on the score graph');
  await page.click('#moves span[data-ply="3"]');
  await page.waitForSelector('#review-show-best');
  const detail = await page.locator('#review-detail').textContent();
  check(/Blunder/.test(detail) && /Best/.test(detail), `the better move is offered (${detail.trim()})`);
  await page.screenshot({ path: join(shots, 'review.png'), fullPage: true });
  await page.click('#review-show-best');
  await page.waitForFunction(() => document.querySelector('#moves span.current')?.dataset.ply === '3' && document.querySelector('#moves span.current').textContent !== 'i1h1');
  check(true, 'one click shows the better line');
  const pgn = await h.save();
  check(/\$4/.test(pgn) && /Blunder \(−\d+%\)\. Best: /.test(pgn) && (pgn.match(/\(/g) || []).length >= 2, 'the saved PGN has the NAG, the comment and the better line as a variation');
  await context.close();
};

// The server's texts in the page's second language: the levels' names and descriptions, a bad
// FEN's problems and the editor's verdict said from the service's codes, and a perpetual chase
// naming the chased piece (in Chinese, then in English).
scenarios.languages = async () => {
  const { context, page, h } = await open();
  await page.selectOption('#lang', 'zh');
  const club = await page.locator('#level option[value="club"]').textContent();
  await page.selectOption('#level', 'club');
  const desc = await page.locator('#level-desc').textContent();
  check(club === '棋友' && /节点/.test(desc), `the levels in Chinese (${club}: ${desc})`);
  // A FEN the page refuses starts no game: set up and press Play by hand.
  await page.selectOption('#mode', 'both');
  await page.fill('#fen', '4k4/9/9/9/9/9/9/9/9/4K3A w - - 0 1');
  await page.click('#start');
  await page.waitForSelector('#message:not([hidden])');
  const bad = await page.locator('#message').textContent();
  check(/^FEN 有误：仕（士）不在它能到的点上；将帅照面/.test(bad), `a bad FEN's problems in Chinese (${bad})`);
  await page.click('#editor-box summary');
  await page.waitForFunction(() => document.querySelectorAll('#palette button').length === 14);
  await page.click('#editor-clear');
  await page.waitForSelector('#editor-error[data-fen^="9/9/9/9/9/9/9/9/9/9 w"]:not([hidden])');
  const verdict = await page.locator('#editor-error').textContent();
  check(/一方没有将（帅）/.test(verdict), `the editor's verdict in Chinese (${verdict.trim()})`);
  await context.close();

  // Red's chariot chases black's unprotected cannon between a4/b4 and a5/b5 (shared/data).
  const second = await open();
  const p2 = second.page;
  await p2.selectOption('#lang', 'zh');
  await second.h.newGame('both', '5k3/9/9/9/c8/1R7/9/9/9/3K5 w - - 0 1');
  const moves = ['b4a4', 'a5b5', 'a4b4', 'b5a5', 'b4a4', 'a5b5', 'a4b4', 'b5a5'];
  await p2.waitForSelector('g.piece[data-sq="b4"][data-piece="R"]'); // the new game is shown
  for (const [i, m] of moves.entries()) {
    await second.h.move(m);
    await second.h.waitPlies(i + 1);
  }
  await p2.waitForFunction(() => document.querySelector('#status').dataset.outcome === 'perpetual_chase');
  const zh = await p2.locator('#status').textContent();
  check(/长捉判负/.test(zh) && /捉黑炮（a5）/.test(zh) && /亚洲规则/.test(zh), `a perpetual chase names the chased piece (${zh})`);
  await p2.selectOption('#lang', 'en');
  await p2.waitForFunction(() => /chasing the black cannon on a5/.test(document.querySelector('#status').textContent));
  check(true, `and in English (${await p2.locator('#status').textContent()})`);
  await p2.screenshot({ path: join(shots, 'languages.png') });
  await second.context.close();
};

try {
  for (const [name, run] of Object.entries(scenarios)) {
    if (only && !only.includes(name)) continue;
    console.log(`# ${name}`);
    await run();
  }
  check(errors.length === 0, `no script errors (${errors.join('; ')})`);
} finally {
  await browser.close();
}

// Game review (复盘): the engine judges every move of the shown line at a chosen strength,
// streamed as it goes (a progress bar, a stop button). Each move's loss against the engine's
// best move classes it (inaccuracy ?!, mistake ?, blunder ??). The verdicts go into the
// game's record as it streams: the NAG on the move, a comment naming the better move, and the
// better line as a variation, so the saved PGN carries them all. The move list, the score
// graph and a summary per side show them on the page.

import * as api from './api.js';
import { NAG_NUMBERS, addLine } from './record.js';
import { t, errorText } from './i18n.js';

const REVIEW_NAGS = new Set(Object.values({ '?!': 6, '?': 2, '??': 4 }));
const $ = (id) => document.getElementById(id);

export class Review {
  /**
   * @param {object} page the page's side of it:
   *   game(): { fen, moves, path, record } the line to review (path: its record nodes),
   *   moveText(view): a move in the chosen notation,
   *   scores(game, ply, before, after): scores met, for the graph (red centipawns),
   *   follow(id): shows the record's move `id` with its line,
   *   changed(): the record changed (redraw the move list and the graph)
   */
  constructor(page) {
    this.page = page;
    this.byNode = new Map(); // record node -> its move event
    this.summary = null;
    this.controller = null;
    $('review-start').addEventListener('click', () => this.start());
    $('review-stop').addEventListener('click', () => this.stop());
  }

  /** A new game: nothing reviewed. */
  reset() {
    this.stop();
    this.byNode.clear();
    this.summary = null;
    $('review-progress').value = 0;
    $('review-count').textContent = '';
    this.renderSummary();
  }

  limits() {
    const [kind, value] = $('review-strength').value.split(':');
    return kind === 'depth' ? { depth: Number(value) } : { movetime_ms: Number(value) };
  }

  async start() {
    const game = this.page.game();
    if (!game.moves.length) return;
    this.stop();
    this.byNode.clear();
    this.summary = null;
    this.renderSummary();
    const controller = new AbortController();
    this.controller = controller;
    this.running(true);
    const progress = $('review-progress');
    progress.max = game.moves.length;
    progress.value = 0;
    $('review-count').textContent = `0/${game.moves.length}`;
    $('review-error').hidden = true;
    try {
      await api.review({ fen: game.fen, moves: game.moves, limits: this.limits() }, controller.signal, (name, data) => {
        if (controller.signal.aborted) return;
        if (name === 'move') this.judged(game, data);
        else if (name === 'summary') {
          this.summary = data;
          this.renderSummary();
        } else if (name === 'error') throw new Error(data.error?.message || 'review failed');
      });
    } catch (e) {
      if (e.name !== 'AbortError') {
        $('review-error').hidden = false;
        $('review-error').textContent = errorText(e);
      }
    }
    if (this.controller === controller) {
      this.controller = null;
      this.running(false);
    }
  }

  stop() {
    this.controller?.abort();
    this.controller = null;
    this.running(false);
  }

  running(on) {
    $('review-start').disabled = on;
    $('review-stop').disabled = !on;
    $('review-progress').hidden = !on && !this.byNode.size;
  }

  /** One move's verdict: into the record (NAG, comment, the better line) and onto the page. */
  judged(game, ev) {
    $('review-progress').value = ev.ply;
    $('review-count').textContent = `${ev.ply}/${ev.total}`;
    const id = game.path[ev.ply - 1];
    const r = game.record;
    const node = r.nodes[id];
    if (!node) return;
    this.byNode.set(id, ev);
    this.page.scores(game, ev.ply, ev.score_before?.red_cp, ev.score_after?.red_cp);
    // A review again replaces the last one's marks and words, never the record's own.
    node.nags = node.nags.filter((n) => !REVIEW_NAGS.has(n));
    node.ownComment ??= node.comment;
    node.comment = node.ownComment;
    if (ev.nag && ev.best) {
      node.nags.push(NAG_NUMBERS[ev.nag]);
      node.comment = [node.ownComment, this.comment(ev)].filter(Boolean).join('\n');
      // The better line as a variation beside the move played.
      const line = ev.best_line?.length ? ev.best_line : [ev.best];
      if (line[0].iccs !== node.iccs) ev.bestNode = addLine(r, node.parent, line);
    }
    this.page.changed();
  }

  /** The comment saved with a flagged move: "Blunder (−38%). Best: 车二进六". Chinese
   * notation, as the saved PGN is. */
  comment(ev) {
    return `${t(`review_${ev.class}`)} (−${Math.round(ev.loss)}%). ${t('reviewBest')}: ${ev.best.chinese}`;
  }

  /** The verdict on the move shown (record node `id`), with its better line one click away. */
  renderDetail(id) {
    const box = $('review-detail');
    const ev = id == null ? null : this.byNode.get(id);
    box.replaceChildren();
    box.hidden = !ev;
    if (!ev) return;
    const text = document.createElement('div');
    const played = this.page.moveText(ev.played);
    text.textContent = ev.nag
      ? `${played}${ev.nag} — ${t(`review_${ev.class}`)} (−${Math.round(ev.loss)}%). ${t('reviewBest')}: ${this.page.moveText(ev.best)} — ${ev.best_line.map(this.page.moveText).join(' ')}`
      : `${played} — ${t(`review_${ev.class}`)}`;
    box.dataset.class = ev.class;
    box.appendChild(text);
    if (ev.bestNode != null) {
      const b = document.createElement('button');
      b.id = 'review-show-best';
      b.textContent = t('reviewShowBest');
      b.addEventListener('click', () => this.page.follow(ev.bestNode));
      box.appendChild(b);
    }
  }

  /** The class of the move of record node `id`, for the graph's dots; none if not judged. */
  classOf(id) {
    return this.byNode.get(id)?.class ?? null;
  }

  renderSummary() {
    const host = $('review-summary');
    host.replaceChildren();
    host.hidden = !this.summary;
    if (!this.summary) return;
    const table = document.createElement('table');
    const head = table.insertRow();
    // The classes by their marks, named in full in their titles: narrow enough for a phone.
    const columns = [['', ''], ['reviewAvgLoss'], ['reviewBestN'], ['reviewGoodN'], ['review_inaccuracy', '?!'], ['review_mistake', '?'], ['review_blunder', '??']];
    for (const [key, mark] of columns) {
      const th = document.createElement('th');
      th.textContent = mark ?? t(key);
      if (key) th.title = t(key);
      head.appendChild(th);
    }
    for (const side of ['red', 'black']) {
      const s = this.summary[side];
      const row = table.insertRow();
      row.dataset.side = side;
      const cells = [t(side), `${s.average_loss.toFixed(1)}%`, s.best, s.good, s.inaccuracies, s.mistakes, s.blunders];
      for (const c of cells) row.insertCell().textContent = String(c);
    }
    host.appendChild(table);
  }
}

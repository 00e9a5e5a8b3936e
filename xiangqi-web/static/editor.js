// The position editor: a palette of pieces dragged (or tapped) onto the board, pieces dragged
// about or off it, the side to move, clear and start-position buttons. Every change is checked
// by the core (a /position request), whose reason is shown as the player edits; a legal
// position can be played, analysed or copied as FEN.

import * as api from './api.js';
import { NAMES, parseFen } from './board.js';
import { t, setupText } from './i18n.js';

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR';
const PALETTE = ['K', 'A', 'B', 'N', 'R', 'C', 'P', 'k', 'a', 'b', 'n', 'r', 'c', 'p'];

/** The board part of a FEN from a map of squares (`e0`) to FEN letters. */
export function boardFen(pieces) {
  const rows = [];
  for (let rank = 9; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 9; f++) {
      const ch = pieces.get(String.fromCharCode(97 + f) + rank);
      if (!ch) empty++;
      else {
        row += (empty || '') + ch;
        empty = 0;
      }
    }
    rows.push(row + (empty || ''));
  }
  return rows.join('/');
}

export class Editor {
  /**
   * @param {import('./board.js').Board} board the page's board, borrowed while editing
   * @param {{ play(fen: string, mode: string|null): void, done(): void }} hooks what the
   *   page does with the result (`mode` null: the new-game panel's), and on leaving
   */
  constructor(board, hooks) {
    this.board = board;
    this.hooks = hooks;
    this.active = false;
    this.pieces = new Map();
    this.brush = null; // a palette piece placed by tapping points, or null
    this.drag = null; // { piece, from (a square, or null from the palette), ghost }
    this.checked = 0; // bumped per check, so that a slow answer does not overwrite a newer one
    this.$ = (id) => document.getElementById(id);
    this.buildPalette();
    // Capture-phase listeners on the board: while editing they take its pointer events
    // before the board's own (which would try to play moves).
    const svg = board.svg;
    svg.addEventListener('pointerdown', (e) => this.active && this.boardDown(e), true);
    window.addEventListener('pointermove', (e) => this.drag && this.dragMove(e));
    window.addEventListener('pointerup', (e) => this.drag && this.dragEnd(e));
    window.addEventListener('pointercancel', () => this.drag && this.endGhost());
    this.$('editor-side').addEventListener('change', () => this.changed());
    this.$('editor-clear').addEventListener('click', () => this.setPieces(new Map()));
    this.$('editor-start').addEventListener('click', () => this.setPieces(parseFen(START)));
    this.$('editor-play').addEventListener('click', () => this.hooks.play(this.fen(), null));
    this.$('editor-analyse').addEventListener('click', () => this.hooks.play(this.fen(), 'analysis'));
    this.$('editor-copy').addEventListener('click', () => this.copy());
  }

  buildPalette() {
    const host = this.$('palette');
    for (const ch of PALETTE) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `palette-piece ${ch === ch.toUpperCase() ? 'red' : 'black'}`;
      b.dataset.piece = ch;
      b.addEventListener('pointerdown', (e) => this.paletteDown(e, ch));
      host.appendChild(b);
    }
    this.drawPalette();
  }

  /** The palette's glyphs in the board's piece style, the brush marked. */
  drawPalette() {
    for (const b of this.$('palette').children) {
      b.textContent = NAMES[this.board.style][b.dataset.piece];
      b.classList.toggle('brush', b.dataset.piece === this.brush);
      b.setAttribute('aria-pressed', String(b.dataset.piece === this.brush));
    }
  }

  /** Starts editing from `fen` (the position shown). */
  open(fen) {
    this.active = true;
    this.pieces = parseFen(fen);
    this.$('editor-side').value = fen.split(' ')[1] === 'b' ? 'b' : 'w';
    this.brush = null;
    this.changed();
  }

  close() {
    this.active = false;
    this.endGhost();
  }

  fen() {
    return `${boardFen(this.pieces)} ${this.$('editor-side').value} - - 0 1`;
  }

  setPieces(pieces) {
    this.pieces = pieces;
    this.changed();
  }

  /** Shows the edited position, then asks the core whether it is one that can be played. */
  async changed() {
    this.drawPalette();
    this.$('editor-note').textContent = '';
    this.board.selected = null;
    this.board.set({ fen: this.fen(), legal: [], movable: false, lastMove: null, checked: null });
    this.board.setArrows([]);
    const fen = this.fen();
    this.$('editor-fen').value = fen;
    const n = ++this.checked;
    let error = '';
    try {
      await api.position({ fen });
    } catch (e) {
      error = setupText(e);
    }
    if (n !== this.checked || !this.active) return;
    const box = this.$('editor-error');
    box.dataset.fen = fen; // the position this verdict is on (the browser test waits for it)
    box.hidden = !error;
    box.textContent = error ? `${t('editorIllegal')}: ${error}` : '';
    this.$('editor-play').disabled = this.$('editor-analyse').disabled = !!error;
  }

  squareOf(e) {
    const p = this.board.svgPoint(e);
    return this.board.squareAt(p.x, p.y);
  }

  paletteDown(e, piece) {
    e.preventDefault();
    this.startGhost(e, piece, null);
  }

  boardDown(e) {
    e.stopImmediatePropagation();
    e.preventDefault();
    const sq = this.squareOf(e);
    if (!sq) return;
    if (this.brush) {
      // Tapping with a palette piece chosen places it (again on the same piece: takes it off).
      if (this.pieces.get(sq) === this.brush) this.pieces.delete(sq);
      else this.pieces.set(sq, this.brush);
      this.changed();
      return;
    }
    if (this.pieces.has(sq)) this.startGhost(e, this.pieces.get(sq), sq);
  }

  /** A piece follows the pointer: a glyph over the page, the board's piece hidden meanwhile. */
  startGhost(e, piece, from) {
    const ghost = document.createElement('div');
    ghost.className = `drag-ghost ${piece === piece.toUpperCase() ? 'red' : 'black'}`;
    ghost.textContent = NAMES[this.board.style][piece];
    document.body.appendChild(ghost);
    this.drag = { piece, from, ghost, x0: e.clientX, y0: e.clientY, moved: false };
    this.placeGhost(e);
    if (from) this.board.svg.querySelector(`g.piece[data-sq="${from}"]`)?.classList.add('lifted');
  }

  placeGhost(e) {
    this.drag.ghost.style.left = `${e.clientX}px`;
    this.drag.ghost.style.top = `${e.clientY}px`;
  }

  dragMove(e) {
    if (Math.hypot(e.clientX - this.drag.x0, e.clientY - this.drag.y0) > 6) this.drag.moved = true;
    this.placeGhost(e);
  }

  dragEnd(e) {
    const { piece, from, moved } = this.drag;
    this.endGhost();
    if (!moved) {
      // A tap: on the palette it chooses the brush (or drops it); on a piece it takes it off.
      if (from) this.pieces.delete(from);
      else this.brush = this.brush === piece ? null : piece;
      this.changed();
      return;
    }
    const r = this.board.svg.getBoundingClientRect();
    const over = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
    const to = over ? this.squareOf(e) : null;
    // Dropped off the board, a piece from the board leaves it.
    if (from) this.pieces.delete(from);
    if (to) this.pieces.set(to, piece);
    this.changed();
  }

  endGhost() {
    this.drag?.ghost.remove();
    this.drag = null;
  }

  async copy() {
    const fen = this.fen();
    try {
      await navigator.clipboard.writeText(fen);
    } catch {
      this.$('editor-fen').select();
      document.execCommand?.('copy');
    }
    this.$('editor-note').textContent = t('fenCopied');
  }
}

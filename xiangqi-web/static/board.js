// The board as SVG: grid, river, palaces, point marks, file numbers, pieces; picking a
// piece by click or drag, with its legal destinations shown.

import { drawArrows } from './arrows.js';

const NS = 'http://www.w3.org/2000/svg';
const CELL = 64;
const MARGIN = 78;
export const WIDTH = 8 * CELL + 2 * MARGIN;
export const HEIGHT = 9 * CELL + 2 * MARGIN;

export const NAMES = {
  traditional: { K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵', k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒' },
  simplified: { K: '帅', A: '仕', B: '相', N: '马', R: '车', C: '炮', P: '兵', k: '将', a: '士', b: '象', n: '马', r: '车', c: '炮', p: '卒' },
};
const RED_NUMERALS = ['九', '八', '七', '六', '五', '四', '三', '二', '一'];

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** Pieces of a FEN's board part: a map from ICCS square (`e0`) to FEN letter. */
export function parseFen(fen) {
  const pieces = new Map();
  const rows = fen.split(' ')[0].split('/');
  rows.forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else {
        pieces.set(String.fromCharCode(97 + file) + rank, ch);
        file += 1;
      }
    }
  });
  return pieces;
}

export class Board {
  /**
   * @param {HTMLElement} host where the SVG goes
   * @param {(from: string, to: string) => void} onMove called when the user moves a piece
   */
  constructor(host, onMove) {
    this.onMove = onMove;
    this.flipped = false;
    this.coords = false;
    this.style = 'traditional';
    this.pieces = new Map();
    this.legal = new Map(); // from -> [to]
    this.movable = false;
    this.selected = null;
    this.lastMove = null;
    this.checked = null;
    this.arrows = [];
    this.svg = el('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'board', role: 'img' });
    host.appendChild(this.svg);
    this.svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.svg.addEventListener('pointercancel', () => this.cancelDrag());
    this.draw();
  }

  /** Screen position of a point: x, y in SVG units. */
  xy(square) {
    let f = square.charCodeAt(0) - 97;
    let r = Number(square[1]);
    if (this.flipped) {
      f = 8 - f;
      r = 9 - r;
    }
    return [MARGIN + f * CELL, MARGIN + (9 - r) * CELL];
  }

  /** The point nearest to SVG coordinates, or null off the board. */
  squareAt(x, y) {
    let f = Math.round((x - MARGIN) / CELL);
    let r = 9 - Math.round((y - MARGIN) / CELL);
    if (f < 0 || f > 8 || r < 0 || r > 9) return null;
    if (this.flipped) {
      f = 8 - f;
      r = 9 - r;
    }
    return String.fromCharCode(97 + f) + r;
  }

  svgPoint(event) {
    const pt = this.svg.createSVGPoint();
    pt.x = event.clientX;
    pt.y = event.clientY;
    return pt.matrixTransform(this.svg.getScreenCTM().inverse());
  }

  /** Shows a position: pieces (FEN), legal moves (ICCS list), marks. */
  set({ fen, legal, movable, lastMove, checked }) {
    this.pieces = parseFen(fen);
    this.legal = new Map();
    for (const m of legal) {
      const from = m.slice(0, 2);
      if (!this.legal.has(from)) this.legal.set(from, []);
      this.legal.get(from).push(m.slice(2, 4));
    }
    this.movable = movable;
    this.lastMove = lastMove;
    this.checked = checked;
    if (!this.legal.has(this.selected)) this.selected = null;
    this.draw();
  }

  draw() {
    this.svg.replaceChildren();
    this.drawGrid();
    this.drawMarks();
    this.drawPieces();
    drawArrows(this.svg, (sq) => this.xy(sq), this.arrows);
  }

  /** Shows arrows (see arrows.js) without redrawing the rest, so a drag goes on undisturbed. */
  setArrows(arrows) {
    this.arrows = arrows;
    drawArrows(this.svg, (sq) => this.xy(sq), arrows);
  }

  drawGrid() {
    const g = el('g', { class: 'grid' }, this.svg);
    el('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 10, class: 'wood' }, g);
    const x0 = MARGIN, y0 = MARGIN, x1 = MARGIN + 8 * CELL, y1 = MARGIN + 9 * CELL;
    el('rect', { x: x0 - 7, y: y0 - 7, width: x1 - x0 + 14, height: y1 - y0 + 14, class: 'frame' }, g);
    for (let i = 0; i < 10; i++) {
      const y = y0 + i * CELL;
      el('line', { x1: x0, y1: y, x2: x1, y2: y }, g);
    }
    for (let i = 0; i < 9; i++) {
      const x = x0 + i * CELL;
      if (i === 0 || i === 8) el('line', { x1: x, y1: y0, x2: x, y2: y1 }, g);
      else {
        el('line', { x1: x, y1: y0, x2: x, y2: y0 + 4 * CELL }, g);
        el('line', { x1: x, y1: y0 + 5 * CELL, x2: x, y2: y1 }, g);
      }
    }
    // Palaces.
    for (const top of [0, 7]) {
      const ya = y0 + top * CELL, yb = ya + 2 * CELL;
      el('line', { x1: x0 + 3 * CELL, y1: ya, x2: x0 + 5 * CELL, y2: yb }, g);
      el('line', { x1: x0 + 5 * CELL, y1: ya, x2: x0 + 3 * CELL, y2: yb }, g);
    }
    // Cannon and pawn points: little corner marks, not past the board's edge.
    const marks = [[1, 2], [7, 2], [1, 7], [7, 7]];
    for (const f of [0, 2, 4, 6, 8]) marks.push([f, 3], [f, 6]);
    for (const [f, r] of marks) {
      const x = x0 + f * CELL, y = y0 + (9 - r) * CELL, d = 5, l = 12;
      for (const sx of [-1, 1]) {
        if ((f === 0 && sx < 0) || (f === 8 && sx > 0)) continue;
        for (const sy of [-1, 1]) {
          const px = x + sx * d, py = y + sy * d;
          el('polyline', { points: `${px + sx * l},${py} ${px},${py} ${px},${py + sy * l}`, class: 'mark' }, g);
        }
      }
    }
    // The river.
    const ry = y0 + 4.5 * CELL;
    const left = el('text', { x: x0 + 2 * CELL, y: ry, class: 'river' }, g);
    left.textContent = this.flipped ? '汉 界' : '楚 河';
    const right = el('text', { x: x0 + 6 * CELL, y: ry, class: 'river' }, g);
    right.textContent = this.flipped ? '楚 河' : '汉 界';
    // File numbers: each side counts from its own right.
    for (let f = 0; f < 9; f++) {
      const x = x0 + (this.flipped ? 8 - f : f) * CELL;
      const bottom = this.flipped ? String(f + 1) : RED_NUMERALS[f];
      const top = this.flipped ? RED_NUMERALS[f] : String(f + 1);
      el('text', { x, y: y1 + 52, class: 'filenum' }, g).textContent = bottom;
      el('text', { x, y: y0 - 52, class: 'filenum' }, g).textContent = top;
      if (this.coords) {
        el('text', { x: x + 14, y: y1 + 30, class: 'coord' }, g).textContent = String.fromCharCode(97 + f);
      }
    }
    if (this.coords) {
      for (let r = 0; r < 10; r++) {
        const y = y0 + (this.flipped ? r : 9 - r) * CELL;
        el('text', { x: x0 - 38, y: y + 5, class: 'coord' }, g).textContent = String(r);
      }
    }
  }

  drawMarks() {
    const g = el('g', { class: 'marks' }, this.svg);
    if (this.lastMove) {
      for (const sq of [this.lastMove.slice(0, 2), this.lastMove.slice(2, 4)]) {
        const [x, y] = this.xy(sq);
        el('rect', { x: x - CELL / 2 + 3, y: y - CELL / 2 + 3, width: CELL - 6, height: CELL - 6, rx: 6, class: 'last', 'data-last': sq }, g);
      }
    }
  }

  drawPieces() {
    const g = el('g', { class: 'pieces' }, this.svg);
    // Hit areas for every point, so empty points can be clicked.
    for (let f = 0; f < 9; f++) {
      for (let r = 0; r < 10; r++) {
        const sq = String.fromCharCode(97 + f) + r;
        const [x, y] = this.xy(sq);
        el('rect', { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, class: 'point', 'data-sq': sq }, g);
      }
    }
    const names = NAMES[this.style];
    for (const [sq, ch] of this.pieces) {
      const [x, y] = this.xy(sq);
      const red = ch === ch.toUpperCase();
      const cls = ['piece', red ? 'red' : 'black'];
      if (sq === this.selected) cls.push('selected');
      if (sq === this.checked) cls.push('checked');
      const p = el('g', { class: cls.join(' '), 'data-sq': sq, 'data-piece': ch, transform: `translate(${x},${y})` }, g);
      el('circle', { r: CELL * 0.45, class: 'disc' }, p);
      el('circle', { r: CELL * 0.37, class: 'ring' }, p);
      el('text', { y: 1, class: 'glyph' }, p).textContent = names[ch];
    }
    if (this.selected) {
      for (const to of this.legal.get(this.selected) || []) {
        const [x, y] = this.xy(to);
        const capture = this.pieces.has(to);
        el('circle', { cx: x, cy: y, r: capture ? CELL * 0.47 : 9, class: capture ? 'dest capture' : 'dest', 'data-dest': to }, g);
      }
    }
  }

  select(sq) {
    this.selected = sq;
    this.draw();
  }

  pointerDown(e) {
    if (!this.movable || e.button !== 0) return;
    const p = this.svgPoint(e);
    const sq = this.squareAt(p.x, p.y);
    if (!sq) return;
    if (this.selected && sq !== this.selected && !(this.pieces.has(sq) && this.ownPiece(sq))) {
      // Second click of click-click: a destination (legal or not: the app says why not).
      const from = this.selected;
      this.select(null);
      this.onMove(from, sq);
      return;
    }
    if (this.legal.has(sq) || (this.pieces.has(sq) && this.ownPiece(sq))) {
      this.drag = { from: sq, x0: p.x, y0: p.y, moved: false, wasSelected: this.selected === sq };
      this.select(sq);
      this.svg.setPointerCapture?.(e.pointerId);
    }
  }

  ownPiece(sq) {
    // A piece of the side to move is one with legal moves, or of the same colour as one.
    const ch = this.pieces.get(sq);
    for (const from of this.legal.keys()) {
      const other = this.pieces.get(from);
      if (other && (other === other.toUpperCase()) === (ch === ch.toUpperCase())) return true;
    }
    return false;
  }

  pointerMove(e) {
    if (!this.drag) return;
    const p = this.svgPoint(e);
    if (!this.drag.moved && Math.hypot(p.x - this.drag.x0, p.y - this.drag.y0) < 8) return;
    this.drag.moved = true;
    const piece = this.svg.querySelector(`g.piece[data-sq="${this.drag.from}"]`);
    if (piece) {
      piece.setAttribute('transform', `translate(${p.x},${p.y}) scale(1.08)`);
      piece.classList.add('dragging');
      piece.parentNode.appendChild(piece); // on top
    }
  }

  pointerUp(e) {
    const drag = this.drag;
    this.drag = null;
    if (!drag) return;
    if (!drag.moved) {
      if (drag.wasSelected) this.select(null); // a second click on the piece drops it
      return;
    }
    const p = this.svgPoint(e);
    const to = this.squareAt(p.x, p.y);
    this.select(null);
    if (to && to !== drag.from) this.onMove(drag.from, to);
  }

  cancelDrag() {
    this.drag = null;
    this.draw();
  }
}

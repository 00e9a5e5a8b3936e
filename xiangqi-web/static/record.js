// A game's moves as a tree: every game on the page has one, played or loaded, so that
// nothing played is lost. A node is a move with its children (the first child continues the
// main line), its comments, its NAG marks and its notation. Nodes are never taken out of the
// list (a node's index is its name); a deleted line is only unlinked from its parent, and
// the tree sent to be saved is renumbered from what is still linked.

/** NAG numbers and the marks they stand for (PGN's standard ones). */
export const NAG_MARKS = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!' };
export const NAG_NUMBERS = Object.fromEntries(Object.entries(NAG_MARKS).map(([n, m]) => [m, Number(n)]));

/** An empty tree for a game played on the page: a new move at a branch becomes the main line
 * (the line given up stays as a variation), where a loaded record keeps its own main line. */
export function emptyRecord() {
  return { nodes: [], roots: [], startComment: '', tags: null, played: true };
}

/**
 * A game of the /records answer as a tree. A game sent without its tree (a very large
 * upload) is its main line, with the comments by ply.
 */
export function fromGame(g) {
  const list = g.tree || g.moves.map((move, i) => ({ parent: i ? i - 1 : null, move }));
  const nodes = [];
  const roots = [];
  list.forEach((n, i) => {
    nodes.push({ iccs: n.move.iccs, view: n.move, parent: n.parent, comment: n.comment || '', before: n.before || '', nags: n.nags || [], children: [] });
    (n.parent == null ? roots : nodes[n.parent].children).push(i);
  });
  let startComment = g.start_comment || '';
  if (!g.tree) {
    for (const c of g.comments) {
      if (c.ply === 0) startComment = [startComment, c.text].filter(Boolean).join('\n');
      else if (nodes[c.ply - 1]) nodes[c.ply - 1].comment = [nodes[c.ply - 1].comment, c.text].filter(Boolean).join('\n');
    }
  }
  return { nodes, roots, startComment, tags: g.tags, played: false };
}

/** The moves from the position after node `parent` (null: the start). */
export const childrenOf = (r, parent) => (parent == null ? r.roots : r.nodes[parent].children);

/** The tree's nodes along `line` (ICCS moves), as far as the line follows the tree. */
export function pathOf(r, line) {
  const path = [];
  let options = r.roots;
  for (const iccs of line) {
    const id = options.find((n) => r.nodes[n].iccs === iccs);
    if (id === undefined) break;
    path.push(id);
    options = r.nodes[id].children;
  }
  return path;
}

/** Adds a move (`view`: its three notations) after node `parent`; `first` makes it the main
 * line there. Its id. */
export function addMove(r, parent, view, first = false) {
  const id = r.nodes.length;
  r.nodes.push({ iccs: view.iccs, view, parent, comment: '', before: '', nags: [], children: [] });
  const list = childrenOf(r, parent);
  if (first) list.unshift(id);
  else list.push(id);
  return id;
}

/** Adds a line of moves after `parent`, following moves the tree already has; the id of its
 * first move. */
export function addLine(r, parent, views) {
  let at = parent;
  let first = null;
  for (const view of views) {
    const known = childrenOf(r, at).find((id) => r.nodes[id].iccs === view.iccs);
    at = known ?? addMove(r, at, view);
    first ??= at;
  }
  return first;
}

/** The ICCS moves up to node `id` (its ply is their count), and on along the main line from it
 * when `onwards`. */
export function lineThrough(r, id, onwards = true) {
  const line = [];
  for (let n = id; n != null; n = r.nodes[n].parent) line.unshift(r.nodes[n].iccs);
  if (onwards) for (let n = r.nodes[id].children[0]; n !== undefined; n = r.nodes[n].children[0]) line.push(r.nodes[n].iccs);
  return line;
}

/** Makes the line through node `id` the main line: it and each move before it first among
 * their siblings. */
export function promote(r, id) {
  for (let n = id; n != null; n = r.nodes[n].parent) {
    const list = childrenOf(r, r.nodes[n].parent);
    list.splice(list.indexOf(n), 1);
    list.unshift(n);
  }
}

/** Deletes node `id` and every move after it. */
export function remove(r, id) {
  const list = childrenOf(r, r.nodes[id].parent);
  list.splice(list.indexOf(id), 1);
}

/** The tree as the save request's `tree`: every linked move, a parent before its children,
 * siblings in order (the first continues the main line). */
export function treeEntries(r) {
  const out = [];
  const walk = (id, parent) => {
    const n = r.nodes[id];
    const index = out.length;
    out.push({ parent, move: n.iccs, comment: n.comment, before: n.before, nags: n.nags });
    for (const c of n.children) walk(c, index);
  };
  for (const id of r.roots) walk(id, null);
  return out;
}

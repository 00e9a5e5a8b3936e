//! The variation tree of a game record: a start position and a tree of moves, the main line
//! first among each node's children, any number of side lines at any depth, and comments
//! (before and after a move) and NAG marks on every node.
//!
//! Nodes live in an arena and are named by [`NodeId`]s; the root (no move) is
//! [`GameTree::root`]. Every move in the tree is legal in its position: [`GameTree::add_move`]
//! checks it. Walking the tree never recurses, so trees of any depth are safe.
//!
//! ```
//! use xiangqi_core::Position;
//! use xiangqi_records::tree::GameTree;
//! let mut tree = GameTree::new(Position::startpos());
//! let pos = Position::startpos();
//! let a = tree.add_move(tree.root(), pos.parse_move("h2e2")?)?;
//! let b = tree.add_move(tree.root(), pos.parse_move("b2e2")?)?; // a side line
//! tree.node_mut(b).comment = "左中炮".into();
//! assert_eq!(tree.main_line_moves().len(), 1);
//! assert_eq!(tree.leaf_count(), 2);
//! tree.promote_to_main(b);
//! assert_eq!(tree.main_line()[0], b);
//! tree.delete(a);
//! assert_eq!(tree.move_count(), 1);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use xiangqi_core::{Game, IllegalMove, Move, Position};

/// A node of a [`GameTree`] (an index into its arena).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The index of the node in the tree's arena (the root is 0).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One node: the move that leads to it (none for the root), its comments and marks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Node {
    #[cfg_attr(feature = "serde", serde(with = "move_serde"))]
    mv: Option<Move>,
    parent: Option<u32>,
    children: Vec<u32>,
    /// The comment after the move (for the root: the comment before the first move).
    pub comment: String,
    /// A comment before the move (PGN's `( {why} 1... h9g7 )`); empty for most nodes.
    pub starting_comment: String,
    /// NAG-style marks (`$1` = `!`, `$2` = `?`, `$3` = `!!`, `$4` = `??`, `$5` = `!?`,
    /// `$6` = `?!`, others as the format has them).
    pub nags: Vec<u8>,
}

impl Node {
    /// The move that leads to this node (`None` for the root).
    pub fn mv(&self) -> Option<Move> {
        self.mv
    }

    /// The parent node (`None` for the root).
    pub fn parent(&self) -> Option<NodeId> {
        self.parent.map(NodeId)
    }

    /// The children, main line first.
    pub fn children(&self) -> impl ExactSizeIterator<Item = NodeId> + DoubleEndedIterator + '_ {
        self.children.iter().map(|&c| NodeId(c))
    }

    /// The number of children.
    pub fn child_count(&self) -> usize {
        self.children.len()
    }

    /// The main-line child, if any.
    pub fn main_child(&self) -> Option<NodeId> {
        self.children.first().map(|&c| NodeId(c))
    }
}

/// A step of a depth-first walk in the order PGN writes a tree (see [`GameTree::walk`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The move of this node.
    Move(NodeId),
    /// A side line begins; its first move is the next `Move`.
    BeginVariation,
    /// The side line ends.
    EndVariation,
}

/// A start position and a tree of moves.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameTree {
    #[cfg_attr(feature = "serde", serde(with = "fen_serde"))]
    start: Position,
    nodes: Vec<Node>,
}

/// Moves as ICCS text (`"h2e2"`), absent for the root.
#[cfg(feature = "serde")]
mod move_serde {
    use serde::{Deserialize, Deserializer, Serializer};
    use xiangqi_core::Move;

    pub fn serialize<S: Serializer>(m: &Option<Move>, s: S) -> Result<S::Ok, S::Error> {
        match m {
            Some(m) => s.serialize_some(&m.to_string()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Move>, D::Error> {
        let text: Option<String> = Option::deserialize(d)?;
        text.map(|t| {
            let sq = |i: usize| {
                t.get(i..i + 2)
                    .and_then(xiangqi_core::Square::from_iccs)
                    .ok_or_else(|| serde::de::Error::custom(format!("bad move {t:?}")))
            };
            Move::try_new(sq(0)?, sq(2)?)
                .ok_or_else(|| serde::de::Error::custom(format!("bad move {t:?}")))
        })
        .transpose()
    }
}

/// The start position as FEN text.
#[cfg(feature = "serde")]
mod fen_serde {
    use serde::{Deserialize, Deserializer, Serializer};
    use xiangqi_core::Position;

    pub fn serialize<S: Serializer>(p: &Position, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&p.fen())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
        let fen = String::deserialize(d)?;
        Position::from_fen(&fen).map_err(serde::de::Error::custom)
    }
}

impl Default for GameTree {
    fn default() -> GameTree {
        GameTree::new(Position::startpos())
    }
}

impl GameTree {
    /// An empty tree from `start`.
    pub fn new(start: Position) -> GameTree {
        GameTree {
            start,
            nodes: vec![Node::default()],
        }
    }

    /// The tree of a game: its moves as the main line.
    pub fn from_game(game: &Game) -> GameTree {
        let mut tree = GameTree::new(game.start_position().clone());
        let mut at = tree.root();
        for &m in game.moves() {
            at = tree.push_unchecked(at, m);
        }
        tree
    }

    /// The root (the start position, no move).
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// A node.
    ///
    /// # Panics
    /// When `id` is not a node of this tree (ids from another tree, or from before a
    /// [`GameTree::delete`]).
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// A node, to change its comments and marks.
    ///
    /// # Panics
    /// As [`GameTree::node`].
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }

    /// The node, if `id` names one.
    pub fn get(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id.index())
    }

    /// The position at `id` (after its move), replayed from the start.
    pub fn position_at(&self, id: NodeId) -> Position {
        let mut pos = self.start.clone();
        for m in self.moves_to(id) {
            pos.make_move(m);
        }
        pos
    }

    /// The moves from the start to `id`.
    pub fn moves_to(&self, id: NodeId) -> Vec<Move> {
        let mut path: Vec<Move> = self.path_to(id).filter_map(|n| self.node(n).mv).collect();
        path.reverse();
        path
    }

    /// `id` and its ancestors, up to and including the root.
    fn path_to(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        core::iter::successors(Some(id), move |&n| self.node(n).parent())
    }

    /// The number of plies from the start to `id`.
    pub fn ply_of(&self, id: NodeId) -> usize {
        self.path_to(id).count() - 1
    }

    /// Adds `m` as the last child of `parent` (the main line if it is the first) and
    /// returns the new node. A move already there is added again as its own line.
    ///
    /// # Errors
    /// [`IllegalMove`] when `m` is not legal at `parent`; the tree is unchanged.
    pub fn add_move(&mut self, parent: NodeId, m: Move) -> Result<NodeId, IllegalMove> {
        self.position_at(parent).check_legal(m)?;
        Ok(self.push_unchecked(parent, m))
    }

    /// Adds a move the caller has checked is legal at `parent` (the readers, which keep the
    /// position themselves).
    pub(crate) fn push_unchecked(&mut self, parent: NodeId, m: Move) -> NodeId {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            mv: Some(m),
            parent: Some(parent.0),
            ..Node::default()
        });
        self.nodes[parent.index()].children.push(id);
        NodeId(id)
    }

    /// The child of `parent` reached by `m`, if there is one.
    pub fn child_with(&self, parent: NodeId, m: Move) -> Option<NodeId> {
        self.node(parent)
            .children()
            .find(|&c| self.node(c).mv == Some(m))
    }

    /// The main line: the first child of each node from the root.
    pub fn main_line(&self) -> Vec<NodeId> {
        self.line_from(self.root())
    }

    /// The nodes of the main continuation after `id` (first children), `id` excluded.
    pub fn line_from(&self, id: NodeId) -> Vec<NodeId> {
        core::iter::successors(self.node(id).main_child(), |&n| self.node(n).main_child()).collect()
    }

    /// The moves of the main line.
    pub fn main_line_moves(&self) -> Vec<Move> {
        self.main_line()
            .into_iter()
            .filter_map(|n| self.node(n).mv)
            .collect()
    }

    /// The main line as a [`Game`].
    pub fn main_game(&self) -> Game {
        let mut game = Game::new(self.start.clone());
        for m in self.main_line_moves() {
            // Every move in the tree is legal in its position.
            if game.play(m).is_err() {
                break;
            }
        }
        game
    }

    /// Makes `id` the first of its siblings (one step toward the main line).
    pub fn promote(&mut self, id: NodeId) {
        if let Some(p) = self.node(id).parent {
            let children = &mut self.nodes[p as usize].children;
            if let Some(i) = children.iter().position(|&c| c == id.0) {
                let c = children.remove(i);
                children.insert(0, c);
            }
        }
    }

    /// Makes the line through `id` the main line (promotes it and all its ancestors).
    pub fn promote_to_main(&mut self, id: NodeId) {
        let path: Vec<NodeId> = self.path_to(id).collect();
        for n in path {
            self.promote(n);
        }
    }

    /// Moves `id` one place later among its siblings.
    pub fn demote(&mut self, id: NodeId) {
        if let Some(p) = self.node(id).parent {
            let children = &mut self.nodes[p as usize].children;
            if let Some(i) = children.iter().position(|&c| c == id.0) {
                if i + 1 < children.len() {
                    children.swap(i, i + 1);
                }
            }
        }
    }

    /// Deletes `id` and everything after it. Deleting the root clears the tree's moves
    /// and keeps its comment. Ids taken before a delete are not valid after it.
    pub fn delete(&mut self, id: NodeId) {
        if id == self.root() {
            self.nodes.truncate(1);
            self.nodes[0].children.clear();
            return;
        }
        if let Some(p) = self.node(id).parent {
            self.nodes[p as usize].children.retain(|&c| c != id.0);
        }
        self.compact();
    }

    /// Rebuilds the arena with only the nodes reachable from the root.
    fn compact(&mut self) {
        let mut map = vec![u32::MAX; self.nodes.len()];
        let mut order = Vec::with_capacity(self.nodes.len());
        let mut stack = vec![0u32];
        while let Some(n) = stack.pop() {
            map[n as usize] = order.len() as u32;
            order.push(n);
            stack.extend(self.nodes[n as usize].children.iter().rev());
        }
        let mut nodes: Vec<Node> = order
            .iter()
            .map(|&n| core::mem::take(&mut self.nodes[n as usize]))
            .collect();
        for node in &mut nodes {
            node.parent = node.parent.map(|p| map[p as usize]);
            for c in &mut node.children {
                *c = map[*c as usize];
            }
        }
        self.nodes = nodes;
    }

    /// Every node id, the root first, in depth-first order (main line before side lines).
    pub fn preorder(&self) -> Vec<NodeId> {
        let mut out = Vec::with_capacity(self.nodes.len());
        let mut stack = vec![self.root()];
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(self.node(n).children().rev());
        }
        out
    }

    /// The number of moves (nodes other than the root).
    pub fn move_count(&self) -> usize {
        self.preorder().len() - 1
    }

    /// The number of lines: leaves of the tree (1 for a tree with no moves).
    pub fn leaf_count(&self) -> usize {
        self.preorder()
            .into_iter()
            .filter(|&n| self.node(n).child_count() == 0)
            .count()
    }

    /// The number of non-empty comments (before and after moves, the root's included).
    pub fn comment_count(&self) -> usize {
        self.preorder()
            .into_iter()
            .map(|n| {
                let node = self.node(n);
                usize::from(!node.comment.is_empty())
                    + usize::from(!node.starting_comment.is_empty())
            })
            .sum()
    }

    /// The leaves, in depth-first order: the end of the main line first.
    pub fn leaves(&self) -> Vec<NodeId> {
        self.preorder()
            .into_iter()
            .filter(|&n| self.node(n).child_count() == 0)
            .collect()
    }

    /// The tree in the order PGN writes it: at each node, the main child's move, then each
    /// side line (`BeginVariation`, its moves and sub-lines, `EndVariation`), then the main
    /// child's continuation.
    pub fn walk(&self) -> Vec<Step> {
        enum Task {
            Line(NodeId),
            Variation(NodeId),
            End,
        }
        let mut out = Vec::with_capacity(self.nodes.len() * 2);
        let mut stack = vec![Task::Line(self.root())];
        while let Some(task) = stack.pop() {
            match task {
                Task::Line(n) => {
                    let node = self.node(n);
                    let Some(main) = node.main_child() else {
                        continue;
                    };
                    out.push(Step::Move(main));
                    stack.push(Task::Line(main));
                    for v in node.children().skip(1).rev() {
                        stack.push(Task::Variation(v));
                    }
                }
                Task::Variation(v) => {
                    out.push(Step::BeginVariation);
                    out.push(Step::Move(v));
                    stack.push(Task::End);
                    stack.push(Task::Line(v));
                }
                Task::End => out.push(Step::EndVariation),
            }
        }
        out
    }

    /// Whether two trees hold the same moves in the same order with the same comments and
    /// marks (node ids may differ).
    fn same_as(&self, other: &GameTree) -> bool {
        if self.start != other.start {
            return false;
        }
        let mut stack = vec![(self.root(), other.root())];
        while let Some((a, b)) = stack.pop() {
            let (na, nb) = (self.node(a), other.node(b));
            if na.mv != nb.mv
                || na.comment != nb.comment
                || na.starting_comment != nb.starting_comment
                || na.nags != nb.nags
                || na.children.len() != nb.children.len()
            {
                return false;
            }
            stack.extend(na.children().zip(nb.children()));
        }
        true
    }
}

impl PartialEq for GameTree {
    fn eq(&self, other: &GameTree) -> bool {
        self.same_as(other)
    }
}

impl Eq for GameTree {}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(pos: &Position, s: &str) -> Move {
        pos.parse_move(s).unwrap()
    }

    #[test]
    fn walk_order_is_pgn_order() {
        let start = Position::startpos();
        let mut t = GameTree::new(start.clone());
        let a = t.add_move(t.root(), mv(&start, "h2e2")).unwrap();
        let b = t.add_move(t.root(), mv(&start, "b2e2")).unwrap();
        let pa = t.position_at(a);
        let a1 = t.add_move(a, mv(&pa, "h9g7")).unwrap();
        let pb = t.position_at(b);
        let b1 = t.add_move(b, mv(&pb, "b9c7")).unwrap();
        assert_eq!(
            t.walk(),
            vec![
                Step::Move(a),
                Step::BeginVariation,
                Step::Move(b),
                Step::Move(b1),
                Step::EndVariation,
                Step::Move(a1)
            ]
        );
        assert_eq!(t.leaf_count(), 2);
        assert_eq!(t.move_count(), 4);
        assert!(t.add_move(a1, mv(&start, "h2e2")).is_err());
        t.delete(a);
        assert_eq!(t.move_count(), 2);
        assert_eq!(t.main_line_moves()[1].to_string(), "b9c7");
    }
}

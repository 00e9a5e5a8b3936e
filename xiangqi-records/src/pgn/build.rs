//! Visitors that build records: the whole tree ([`TreeBuilder`]) or main lines only
//! ([`MainLines`], which skips side lines unread).

use super::parse::Visitor;
use super::result::PgnResult;
use crate::record::Record;
use crate::tree::{GameTree, NodeId};
use xiangqi_core::{Game, Move, Position};

/// Appends `text` to a comment slot, a new line between comments.
pub(crate) fn append_comment(slot: &mut String, text: &str) {
    if !slot.is_empty() {
        slot.push('\n');
    }
    slot.push_str(text);
}

/// Trims every comment of `tree` as a whole: what PGN can hold (a braced comment is read
/// trimmed, and the writer writes comments trimmed), so that a tree read from PGN reads back
/// the same after it is written.
fn trim_comments(tree: &mut GameTree) {
    for n in tree.preorder() {
        let node = tree.node_mut(n);
        for text in [&mut node.comment, &mut node.starting_comment] {
            if text.trim() != text.as_str() {
                *text = text.trim().to_string();
            }
        }
    }
}

/// Builds a [`Record`] with its whole variation tree for each game.
#[derive(Default)]
pub struct TreeBuilder {
    /// The games built so far.
    pub records: Vec<Record>,
    /// Which game of the file each record is.
    pub games: Vec<usize>,
    index: usize,
    tags: Vec<(String, String)>,
    current: Option<Record>,
    at: Option<NodeId>,
    stack: Vec<NodeId>,
    /// A variation has begun and has no move yet: comments go before its first move.
    fresh: bool,
    pending_start: String,
}

impl TreeBuilder {
    fn tree(&mut self) -> Option<(&mut GameTree, NodeId)> {
        let at = self.at?;
        self.current.as_mut().map(|r| (&mut r.tree, at))
    }
}

impl Visitor for TreeBuilder {
    fn begin_game(&mut self, index: usize) {
        self.index = index;
        self.tags.clear();
        self.stack.clear();
        self.fresh = false;
        self.pending_start.clear();
    }

    fn tag(&mut self, name: &str, value: &str) {
        self.tags.push((name.to_string(), value.to_string()));
    }

    fn start(&mut self, start: &Position) {
        let mut r = Record::new(GameTree::new(start.clone()));
        r.tags = core::mem::take(&mut self.tags);
        self.at = Some(r.tree.root());
        self.current = Some(r);
    }

    fn play(&mut self, _before: &Position, m: Move) {
        let pending = core::mem::take(&mut self.pending_start);
        self.fresh = false;
        if let Some((tree, at)) = self.tree() {
            let n = tree.push_unchecked(at, m);
            tree.node_mut(n).starting_comment = pending;
            self.at = Some(n);
        }
    }

    fn comment(&mut self, text: &str) {
        if self.fresh {
            append_comment(&mut self.pending_start, text);
        } else if let Some((tree, at)) = self.tree() {
            append_comment(&mut tree.node_mut(at).comment, text);
        }
    }

    fn nag(&mut self, nag: u8) {
        if let Some((tree, at)) = self.tree() {
            if at != tree.root() {
                tree.node_mut(at).nags.push(nag);
            }
        }
    }

    fn begin_variation(&mut self) -> bool {
        if let Some((tree, at)) = self.tree() {
            let parent = tree.node(at).parent().unwrap_or(at);
            self.stack.push(at);
            self.at = Some(parent);
            self.fresh = true;
        }
        true
    }

    fn end_variation(&mut self) {
        if let Some(n) = self.stack.pop() {
            self.at = Some(n);
        }
        self.fresh = false;
        self.pending_start.clear();
    }

    fn end_game(&mut self, result: PgnResult) {
        if let Some(mut r) = self.current.take() {
            r.result = result;
            trim_comments(&mut r.tree);
            self.records.push(r);
            self.games.push(self.index);
        }
        self.at = None;
    }
}

/// One game's main line, as [`MainLines`] collects it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MainLine {
    /// The tags.
    pub tags: Vec<(String, String)>,
    /// The start position and main-line moves.
    pub game: Game,
    /// The result.
    pub result: PgnResult,
}

/// Collects each game's main line, skipping side lines and comments: the fast path for
/// game databases.
#[derive(Default)]
pub struct MainLines {
    /// The games read so far.
    pub games: Vec<MainLine>,
    tags: Vec<(String, String)>,
    game: Option<Game>,
}

impl Visitor for MainLines {
    fn begin_game(&mut self, _index: usize) {
        self.tags.clear();
    }

    fn tag(&mut self, name: &str, value: &str) {
        self.tags.push((name.to_string(), value.to_string()));
    }

    fn start(&mut self, start: &Position) {
        self.game = Some(Game::new(start.clone()));
    }

    fn play(&mut self, _before: &Position, m: Move) {
        if let Some(g) = self.game.as_mut() {
            // The parser only reports legal moves.
            let _ = g.play(m);
        }
    }

    fn begin_variation(&mut self) -> bool {
        false
    }

    fn end_game(&mut self, result: PgnResult) {
        if let Some(game) = self.game.take() {
            self.games.push(MainLine {
                tags: core::mem::take(&mut self.tags),
                game,
                result,
            });
        }
    }
}

//! Reading uploaded game records (every format `xiangqi-records` reads) into games, and
//! writing a game as PGN. All use of `xiangqi-records` is here.

use crate::error::ApiError;
use crate::game::parse_move_in;
use crate::view::{line, MoveView};
use serde::{Deserialize, Serialize};
use xiangqi_core::{Color, Game, Position, RuleSet};
use xiangqi_records::pgn::{self, PgnGame, PgnResult, WriteOptions};
use xiangqi_records::tree::{GameTree, NodeId};
use xiangqi_records::{Format, Record};

/// The most moves sent as trees in one answer. Each tree node is sent with its move in three
/// notations, so a 1 MiB upload of compact XQF trees could otherwise answer with tens of
/// megabytes; past this, games are sent with their main line only, and a warning says so.
pub const TREE_MOVES_PER_ANSWER: usize = 50_000;

/// One game of a record, as the API writes it.
#[derive(Clone, Debug, Serialize)]
pub struct RecordGame {
    /// The tags in file order (`[name, value]`).
    pub tags: Vec<(String, String)>,
    /// The start position.
    pub start_fen: String,
    /// The moves of the main line.
    pub moves: Vec<MoveView>,
    /// Comments of the main line: `ply` moves into the game (0 = before the first move).
    pub comments: Vec<CommentView>,
    /// Lines in the record's variation tree (1 for a game without side lines).
    pub lines: usize,
    /// The comment before the first move (also in `comments` at ply 0).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub start_comment: String,
    /// Every move of the variation tree, side lines included, depth first with the main line
    /// before side lines; absent when the answer's [`TREE_MOVES_PER_ANSWER`] is spent.
    pub tree: Option<Vec<TreeMoveView>>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
}

/// One move of a record's variation tree.
#[derive(Clone, Debug, Serialize)]
pub struct TreeMoveView {
    /// The index in `tree` of the move this one answers; absent for a move from the start
    /// position. A move's alternatives are the moves with the same parent, in the record's
    /// order (the main line first).
    pub parent: Option<usize>,
    /// The move.
    #[serde(rename = "move")]
    pub mv: MoveView,
    /// The comment after the move.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub comment: String,
    /// A comment before the move (a side line's opening remark).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub before: String,
    /// NAG marks (`1` = `!`, `2` = `?`, `3` = `!!`, `4` = `??`, `5` = `!?`, `6` = `?!`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nags: Vec<u8>,
}

/// A comment of a record.
#[derive(Clone, Debug, Serialize)]
pub struct CommentView {
    /// After this many moves.
    pub ply: usize,
    /// The text.
    pub text: String,
}

/// Every game read from a record, with warnings for games that could not be read.
#[derive(Clone, Debug, Serialize)]
pub struct Records {
    /// `pgn`, `xqf`, `ubb`, `cbf`, `cbr`, `cbl` or `text`.
    pub format: &'static str,
    /// The games.
    pub games: Vec<RecordGame>,
    /// Problems met in games that were skipped.
    pub warnings: Vec<String>,
}

/// Every move of `tree` in depth-first order (main line first), each with the index of its
/// parent in the list. Walks with an explicit stack: trees of any depth are safe.
fn tree_view(tree: &GameTree) -> Vec<TreeMoveView> {
    let mut out = Vec::with_capacity(tree.move_count());
    // (node, its parent's index in `out`, the position the node's move is played in)
    let mut stack: Vec<_> = tree
        .node(tree.root())
        .children()
        .rev()
        .map(|id| (id, None, tree.start().clone()))
        .collect();
    while let Some((id, parent, mut pos)) = stack.pop() {
        let node = tree.node(id);
        // Every move in a tree is legal where it stands (`GameTree::add_move` checks it).
        let Some(m) = node.mv() else { continue };
        let index = out.len();
        out.push(TreeMoveView {
            parent,
            mv: MoveView::new(&pos, m),
            comment: node.comment.clone(),
            before: node.starting_comment.clone(),
            nags: node.nags.clone(),
        });
        pos.make_move(m);
        stack.extend(
            node.children()
                .rev()
                .map(|child| (child, Some(index), pos.clone())),
        );
    }
    out
}

/// The main line of `record` as the API writes it; its comments by ply (a comment before a
/// move is shown after the move before it, as the page shows one comment per position).
fn view(record: &Record) -> RecordGame {
    let tree = &record.tree;
    let start = tree.start();
    let mut comments = Vec::new();
    let mut add = |ply: usize, text: &str| {
        if !text.is_empty() {
            comments.push(CommentView {
                ply,
                text: text.to_string(),
            });
        }
    };
    add(0, &tree.node(tree.root()).comment);
    for (i, id) in tree.main_line().into_iter().enumerate() {
        let node = tree.node(id);
        add(i, &node.starting_comment);
        add(i + 1, &node.comment);
    }
    RecordGame {
        tags: record.tags.clone(),
        start_fen: start.fen(),
        moves: line(start, &tree.main_line_moves()),
        comments,
        lines: tree.leaf_count().max(1),
        start_comment: tree.node(tree.root()).comment.clone(),
        tree: None,
        result: record.result.as_str(),
    }
}

/// Reads a record file's bytes: any format `xiangqi-records` reads (PGN in UTF-8, GB18030 or
/// Big5, XQF, DhtmlXQ/UBB, CBF, CBR/CBL, plain move lists), found from the bytes.
///
/// # Errors
/// A 422 with the reader's error (and its place) when no game can be read.
pub fn read(bytes: &[u8]) -> Result<Records, ApiError> {
    if bytes.is_empty() {
        return Err(ApiError::invalid(
            "bad_record",
            "body",
            "the record is empty",
        ));
    }
    // Lenient: a game whose move text goes wrong keeps the moves before the error (with a
    // warning), but bytes in which nothing reads as a game are refused.
    let loaded = xiangqi_records::read(bytes)
        .map_err(|e| ApiError::invalid("bad_record", "body", e.to_string()))?;
    let useful = loaded
        .records
        .iter()
        .any(|r| r.tree.move_count() > 0 || !r.tags.is_empty());
    if !useful {
        let message = match loaded.warnings.first() {
            Some(w) => format!("{}: {w}", loaded.format.name()),
            None => "no game found: send a PGN, XQF, DhtmlXQ, CBF or CBR file".into(),
        };
        return Err(ApiError::invalid("bad_record", "body", message));
    }
    let mut warnings: Vec<String> = loaded.warnings.iter().map(ToString::to_string).collect();
    let mut tree_budget = TREE_MOVES_PER_ANSWER;
    let mut games = Vec::with_capacity(loaded.records.len());
    for (i, record) in loaded.records.iter().enumerate() {
        let mut game = view(record);
        let size = record.tree.move_count();
        if size <= tree_budget {
            tree_budget -= size;
            game.tree = Some(tree_view(&record.tree));
        } else {
            warnings.push(format!(
                "game {}: sent without its variation tree ({size} moves), as the answer's \
                 {TREE_MOVES_PER_ANSWER} moves of trees are spent",
                i + 1
            ));
        }
        games.push(game);
    }
    Ok(Records {
        format: format_name(loaded.format),
        games,
        warnings,
    })
}

/// The API's name of a record format.
fn format_name(format: Format) -> &'static str {
    match format {
        Format::Pgn => "pgn",
        Format::Xqf => "xqf",
        Format::Ubb => "ubb",
        Format::Cbf => "cbf",
        Format::Cbr => "cbr",
        Format::Cbl => "cbl",
        Format::Text => "text",
    }
}

/// One move of a variation tree sent to be written, in the shape `/records` gives
/// ([`TreeMoveView`]), with the move as text in any notation.
#[derive(Clone, Debug, Deserialize)]
pub struct TreeMoveInput {
    /// The index in the list of the move this one answers; none for a move from the start.
    #[serde(default)]
    pub parent: Option<usize>,
    /// The move, in ICCS, WXF or Chinese.
    #[serde(rename = "move")]
    pub mv: String,
    /// The comment after the move.
    #[serde(default)]
    pub comment: String,
    /// A comment before the move.
    #[serde(default)]
    pub before: String,
    /// NAG marks.
    #[serde(default)]
    pub nags: Vec<u8>,
}

/// The variation tree of `moves` from `start`, every move checked where it stands, no line
/// longer than `max_line` moves.
///
/// # Errors
/// A 422 naming the entry (`tree[i].parent`, `tree[i].move`) that does not fit: a parent that
/// does not come before its move, a move that is not legal after its parent's, a line over
/// `max_line`, or more than [`TREE_MOVES_PER_ANSWER`] moves.
pub fn build_tree(
    start: Position,
    moves: &[TreeMoveInput],
    max_line: usize,
) -> Result<GameTree, ApiError> {
    if moves.len() > TREE_MOVES_PER_ANSWER {
        return Err(ApiError::over_limit(
            "tree",
            format!("{} moves", moves.len()),
            TREE_MOVES_PER_ANSWER,
        ));
    }
    let mut tree = GameTree::new(start);
    // Each entry's node, the position after its move and its depth. The tree replays a
    // line to check each move it takes, so the line limit also bounds the work a request buys.
    let mut placed: Vec<(NodeId, Position, usize)> = Vec::with_capacity(moves.len());
    for (i, entry) in moves.iter().enumerate() {
        let (parent, pos, depth) = match entry.parent {
            None => (tree.root(), tree.start().clone(), 0),
            Some(p) if p < i => placed[p].clone(),
            Some(p) => {
                return Err(ApiError::invalid(
                    "bad_tree",
                    format!("tree[{i}].parent"),
                    format!(
                        "entry {i} names entry {p} as its parent: a parent comes before its moves"
                    ),
                )
                .index(i))
            }
        };
        if depth >= max_line {
            return Err(ApiError::over_limit(
                &format!("tree[{i}]"),
                format!("move {} of its line", depth + 1),
                max_line,
            )
            .index(i));
        }
        let m = parse_move_in(&pos, &entry.mv, i, format!("tree[{i}].move"))?;
        let id = tree.add_move(parent, m).map_err(|e| {
            ApiError::invalid("illegal_move", format!("tree[{i}].move"), e.to_string()).index(i)
        })?;
        let node = tree.node_mut(id);
        node.comment = entry.comment.clone();
        node.starting_comment = entry.before.clone();
        node.nags = entry.nags.clone();
        let mut after = pos;
        after.make_move(m);
        placed.push((id, after, depth + 1));
    }
    Ok(tree)
}

/// The PGN text of a variation tree with `tags`, the comment before its first move, and the
/// result of its main line when that has ended under `rules` (else the `Result` tag's).
pub fn write_tree_pgn(
    mut tree: GameTree,
    start_comment: &str,
    tags: &[(String, String)],
    rules: RuleSet,
) -> String {
    tree.node_mut(tree.root()).comment = start_comment.to_string();
    let ended = tree.main_game().outcome(rules).map(|o| o.winner);
    let mut record = Record::new(tree);
    for (name, value) in tags {
        record.set_tag(name, value);
    }
    // A main line that has not ended by the rules keeps the result the record gives (a
    // resignation, an agreed draw).
    record.result = match ended {
        Some(_) => result_of(ended),
        None => record
            .tag("Result")
            .and_then(PgnResult::from_token)
            .unwrap_or(PgnResult::Unknown),
    };
    pgn::write_record(&record, &WriteOptions::default())
}

fn result_of(ended: Option<Option<Color>>) -> PgnResult {
    match ended {
        Some(Some(Color::Red)) => PgnResult::RedWins,
        Some(Some(Color::Black)) => PgnResult::BlackWins,
        Some(None) => PgnResult::Draw,
        None => PgnResult::Unknown,
    }
}

/// The PGN text of `game` with `tags`, its result from `winner` when it has ended.
pub fn write_pgn(game: Game, tags: &[(String, String)], ended: Option<Option<Color>>) -> String {
    let mut record = PgnGame::new(game);
    for (name, value) in tags {
        record.set_tag(name, value);
    }
    record.result = result_of(ended);
    pgn::write(&record)
}

//! The answers that need no engine: a position with its legal moves and game end, moves in
//! the three notations, a game written as PGN, and the strength levels.

use crate::error::ApiError;
use crate::game::{parse_fen, GameInput, Rules};
use crate::limits::RequestLimits;
use crate::records;
use crate::search::{book_moves, BookView};
use crate::view::{color_name, line, MoveView, OutcomeView};
use serde::{Deserialize, Serialize};
use xiangqi_search::Level;

/// A strength level as `/info` lists it.
#[derive(Clone, Debug, Serialize)]
pub struct LevelView {
    /// Its name (`beginner` … `full`).
    pub name: &'static str,
    /// What it plays like.
    pub description: &'static str,
    /// Its name in Chinese (`入门` … `全力`).
    pub name_zh: &'static str,
    /// What it plays like, in Chinese.
    pub description_zh: &'static str,
    /// Its depth limit, if any.
    pub depth: Option<u32>,
    /// Its node limit, if any.
    pub nodes: Option<u64>,
}

/// The levels' names and descriptions in Chinese, by their names. The levels themselves
/// (`xiangqi_search::Level`) are the engine's and speak English; saying them in a second
/// language is the service's part, beside the page's own texts.
const LEVELS_ZH: [(&str, &str, &str); 8] = [
    (
        "beginner",
        "入门",
        "2 层，300 个节点，评估随机偏差 ±250：会送子，初学者也能赢它",
    ),
    (
        "novice",
        "新手",
        "3 层，1500 个节点，偏差 ±150：看得到直接的威胁，常常误判形势",
    ),
    (
        "casual",
        "业余",
        "4 层，6000 个节点，偏差 ±90：约相当于早年象棋软件的最低级别",
    ),
    (
        "club",
        "棋友",
        "6 层，30 000 个节点，偏差 ±50：近距离战术扎实",
    ),
    (
        "strong club",
        "强手",
        "150 000 个节点，偏差 ±25：约相当于早年象棋软件的最高级别",
    ),
    ("expert", "高手", "600 000 个节点，偏差 ±10"),
    ("master", "大师", "3 000 000 个节点，无偏差（每步约一秒）"),
    ("full", "全力", "只受时间限制：全力"),
];

/// Every strength level, weakest first.
pub fn levels() -> Vec<LevelView> {
    Level::all()
        .iter()
        .map(|l| LevelView {
            name: l.name,
            description: l.description,
            name_zh: zh(l.name).0,
            description_zh: zh(l.name).1,
            depth: l.depth,
            nodes: l.nodes,
        })
        .collect()
}

/// A level's name and description in Chinese; a level without them (a new one not yet
/// translated) keeps its English.
fn zh(name: &'static str) -> (&'static str, &'static str) {
    LEVELS_ZH
        .iter()
        .find(|(n, _, _)| *n == name)
        .map_or((name, ""), |&(_, n, d)| (n, d))
}

/// The answer of `/position`: the game's current position, its moves and its end.
#[derive(Clone, Debug, Serialize)]
pub struct PositionAnswer {
    /// The current position.
    pub fen: String,
    /// The start position.
    pub start_fen: String,
    /// `red` or `black`.
    pub side_to_move: &'static str,
    /// Whether the side to move is in check.
    pub check: bool,
    /// The square of the side to move's general when it is in check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checked_general: Option<String>,
    /// The legal moves.
    pub legal_moves: Vec<MoveView>,
    /// The game's moves.
    pub moves: Vec<MoveView>,
    /// The last of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_move: Option<MoveView>,
    /// The game's end, if it has ended.
    pub outcome: Option<OutcomeView>,
    /// Plies counted toward the move limit.
    pub plies_toward_move_limit: u32,
    /// The rules that judged repetitions.
    pub rules: Rules,
    /// The opening book's moves here.
    pub book: Vec<BookView>,
}

/// The position of `input`'s game.
///
/// # Errors
/// A bad FEN, a bad or illegal move, a game over `limits`.
pub fn position(input: &GameInput, limits: &RequestLimits) -> Result<PositionAnswer, ApiError> {
    let game = input.build(limits)?;
    let pos = game.position();
    let rules = input.rule_set();
    let legal_moves = pos
        .legal_moves()
        .into_iter()
        .map(|m| MoveView::new(pos, m))
        .collect();
    let moves = line(game.start_position(), game.moves());
    Ok(PositionAnswer {
        fen: pos.fen(),
        start_fen: game.start_position().fen(),
        side_to_move: color_name(pos.side_to_move()),
        check: pos.is_check(),
        checked_general: pos
            .is_check()
            .then(|| pos.king_square(pos.side_to_move()).to_string()),
        legal_moves,
        last_move: moves.last().cloned(),
        moves,
        outcome: game
            .outcome(rules)
            .map(|o| OutcomeView::new(&o, rules, pos)),
        plies_toward_move_limit: game.plies_toward_move_limit(),
        rules: input.rules,
        book: book_moves(pos),
    })
}

/// The body of `/notation`.
#[derive(Clone, Debug, Deserialize)]
pub struct NotationRequest {
    /// The game.
    #[serde(flatten)]
    pub game: GameInput,
    /// The notation to convert the moves to, if one.
    #[serde(default)]
    pub to: Option<Notation>,
}

/// A move notation.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Notation {
    /// `h2e2`.
    Iccs,
    /// `C2.5`.
    Wxf,
    /// `炮二平五`.
    Chinese,
}

/// The answer of `/notation`.
#[derive(Clone, Debug, Serialize)]
pub struct NotationAnswer {
    /// The moves in the three notations.
    pub moves: Vec<MoveView>,
    /// The moves in the notation asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub converted: Option<Vec<String>>,
}

/// The moves of `req`'s game in every notation.
///
/// # Errors
/// As [`position`].
pub fn notation(req: &NotationRequest, limits: &RequestLimits) -> Result<NotationAnswer, ApiError> {
    let game = req.game.build(limits)?;
    let moves = line(game.start_position(), game.moves());
    let converted = req.to.map(|to| {
        moves
            .iter()
            .map(|m| match to {
                Notation::Iccs => m.iccs.clone(),
                Notation::Wxf => m.wxf.clone(),
                Notation::Chinese => m.chinese.clone(),
            })
            .collect()
    });
    Ok(NotationAnswer { moves, converted })
}

/// The body of `/pgn`.
#[derive(Clone, Debug, Deserialize)]
pub struct PgnRequest {
    /// The game (its moves, or only its start with `tree`).
    #[serde(flatten)]
    pub game: GameInput,
    /// The tags, `[name, value]`.
    #[serde(default)]
    pub tags: Vec<(String, String)>,
    /// A whole variation tree (as `/records` gives it) instead of `moves`.
    #[serde(default)]
    pub tree: Option<Vec<records::TreeMoveInput>>,
    /// The comment before the first move, with `tree`.
    #[serde(default)]
    pub start_comment: String,
}

/// `req`'s game as PGN text.
///
/// # Errors
/// A bad tag name, both moves and a tree, or what [`position`] refuses.
pub fn pgn(req: &PgnRequest, limits: &RequestLimits) -> Result<String, ApiError> {
    for (i, (name, _)) in req.tags.iter().enumerate() {
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(ApiError::invalid(
                "bad_tag",
                format!("tags[{i}]"),
                format!("tag name {name:?}: letters, digits and _ only"),
            ));
        }
    }
    Ok(match &req.tree {
        Some(moves) => {
            if !req.game.moves.is_empty() {
                return Err(ApiError::invalid(
                    "bad_tree",
                    "moves",
                    "send either moves or a tree, not both",
                ));
            }
            let start = parse_fen(req.game.fen.as_deref(), "fen")?;
            let tree = records::build_tree(start, moves, limits.max_moves)?;
            records::write_tree_pgn(tree, &req.start_comment, &req.tags, req.game.rule_set())
        }
        None => {
            let game = req.game.build(limits)?;
            let ended = game.outcome(req.game.rule_set()).map(|o| o.winner);
            records::write_pgn(game, &req.tags, ended)
        }
    })
}

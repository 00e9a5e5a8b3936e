//! Strength levels: from a beginner's opponent to full strength.
//!
//! A level limits the search by nodes (so it plays the same on any machine and at any
//! clock) and by depth, and adds controlled randomness: a pseudo-random offset of up to
//! `noise` centipawns to every evaluation, fixed per position and per game (the seed changes
//! with [`crate::Searcher::new_game`]), so the weaker levels make human-like errors of
//! judgement rather than random blunders, and do not play the same game twice.
//!
//! The classic programs offered three levels (4 plies/0.5 s, 5 plies/1.5 s, 6–7 plies/3 s);
//! at our node rate even the first is far beyond a beginner, hence the noise and tiny node
//! budgets at the bottom of the scale.

/// A strength level. Use one with [`crate::Searcher::set_level`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Short name.
    pub name: &'static str,
    /// What to expect of it.
    pub description: &'static str,
    /// Depth cap in plies.
    pub depth: Option<u32>,
    /// Node cap per move.
    pub nodes: Option<u64>,
    /// Evaluation noise amplitude in centipawns.
    pub noise: i32,
}

const LEVELS: [Level; 8] = [
    Level {
        name: "beginner",
        description:
            "2 plies, 300 nodes, evaluation noise of ±250: hangs pieces; a beginner can beat it",
        depth: Some(2),
        nodes: Some(300),
        noise: 250,
    },
    Level {
        name: "novice",
        description:
            "3 plies, 1500 nodes, noise ±150: sees direct threats, misjudges positions often",
        depth: Some(3),
        nodes: Some(1_500),
        noise: 150,
    },
    Level {
        name: "casual",
        description: "4 plies, 6000 nodes, noise ±90: about the classic programs' easiest level",
        depth: Some(4),
        nodes: Some(6_000),
        noise: 90,
    },
    Level {
        name: "club",
        description: "6 plies, 30 000 nodes, noise ±50: solid tactics at short range",
        depth: Some(6),
        nodes: Some(30_000),
        noise: 50,
    },
    Level {
        name: "strong club",
        description: "150 000 nodes, noise ±25: about the classic programs' hardest level",
        depth: None,
        nodes: Some(150_000),
        noise: 25,
    },
    Level {
        name: "expert",
        description: "600 000 nodes, noise ±10",
        depth: None,
        nodes: Some(600_000),
        noise: 10,
    },
    Level {
        name: "master",
        description: "3 000 000 nodes, no noise (about a second a move)",
        depth: None,
        nodes: Some(3_000_000),
        noise: 0,
    },
    Level {
        name: "full",
        description: "no limit beyond the clock: full strength",
        depth: None,
        nodes: None,
        noise: 0,
    },
];

impl Level {
    /// Every level, weakest first; the last is full strength.
    ///
    /// ```
    /// use xiangqi_search::Level;
    /// assert_eq!(Level::all().first().unwrap().name, "beginner");
    /// assert!(Level::all().windows(2).all(|w| w[0].noise >= w[1].noise));
    /// ```
    pub fn all() -> &'static [Level] {
        &LEVELS
    }

    /// The level called `name` (case-insensitive), if any.
    pub fn by_name(name: &str) -> Option<Level> {
        LEVELS
            .iter()
            .copied()
            .find(|l| l.name.eq_ignore_ascii_case(name))
    }
}

//! The engine's options: their values, how `uci`/`ucci` list them, and `setoption`.
//!
//! UCI names are those Pikafish and Stockfish use. Names match case-insensitively and with
//! spaces and underscores ignored, so UCCI's one-word spellings (`hashsize`, `threads`,
//! `ponder`, `usemillisec`, ...) and the UCI names both work under either protocol.

use crate::command::Protocol;
use xiangqi_nnue::{AnyNet, Network};
use xiangqi_search::Tunables;

/// The repetition rules the engine plays by (the `Repetition Rule` option).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RepetitionRule {
    /// Asian rules (AXF): perpetual check and perpetual chase lose.
    Asian,
    /// Chinese rules (CXA 1999).
    Chinese,
}

impl RepetitionRule {
    /// The rule set of `xiangqi-core` these rules are.
    pub fn rules(self) -> xiangqi_core::RuleSet {
        match self {
            RepetitionRule::Asian => xiangqi_core::RuleSet::Asian,
            RepetitionRule::Chinese => xiangqi_core::RuleSet::Chinese,
        }
    }

    fn name(self) -> &'static str {
        match self {
            RepetitionRule::Asian => "Asian",
            RepetitionRule::Chinese => "Chinese",
        }
    }
}

/// Lowest and highest `UCI_Elo`; the range is spread evenly over the search's strength levels.
pub const ELO_MIN: u32 = 1000;
/// See [`ELO_MIN`].
pub const ELO_MAX: u32 = 2600;
/// `Skill Level` runs from 0 to this; the maximum means full strength.
pub const SKILL_MAX: u32 = 20;
/// Largest `Hash` in MiB.
pub const HASH_MAX: u64 = 32 * 1024;
/// Most search threads.
pub const THREADS_MAX: u64 = 256;
/// Most lines for `MultiPV`.
pub const MULTIPV_MAX: u64 = 128;

/// Every option's current value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `Hash`: transposition table size in MiB.
    pub hash_mb: usize,
    /// `Threads`.
    pub threads: usize,
    /// `MultiPV`.
    pub multipv: usize,
    /// `Ponder` (informational: the GUI decides when to ponder).
    pub ponder: bool,
    /// `Move Overhead`: milliseconds kept back from the clock for lag.
    pub move_overhead_ms: u64,
    /// `Skill Level`, 0 to [`SKILL_MAX`].
    pub skill_level: u32,
    /// `UCI_LimitStrength`: play at `UCI_Elo`.
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub elo: u32,
    /// `Repetition Rule`.
    pub repetition: RepetitionRule,
    /// `Sixty Move Rule`: a game with 60 moves (120 plies) without capture is drawn.
    pub sixty_move_rule: bool,
    /// UCCI `usemillisec`: `go time` in milliseconds (else seconds).
    pub use_millisec: bool,
    /// `OwnBook` (UCCI `usebook`): answer from the built-in opening book while the position is in it.
    pub own_book: bool,
    /// `Use NNUE`: evaluate with the net (the default: it measured stronger) rather than the
    /// hand-written evaluator.
    pub use_nnue: bool,
    /// `EvalFile`: where the net came from ([`EMBEDDED_NET`] for the built-in one).
    pub eval_file: String,
    /// The net `EvalFile` names, loaded and checked when the option was set.
    pub network: AnyNet,
    /// `UseEGTB`: play endings from the endgame tablebases.
    pub use_egtb: bool,
    /// `EGTBPath`: the tablebases' folder; empty for the default folder
    /// ([`xiangqi_egtb::default_dir`]), where the starter set is generated if missing.
    pub egtb_path: String,
    /// The search's numeric constants: options of their own names in a build with the
    /// `tune` feature (for `tools/spsa`), else always the defaults.
    pub tunables: Tunables,
}

/// `EvalFile`'s value for the net built into the engine.
pub const EMBEDDED_NET: &str = "<embedded>";

/// How the handshake shows an empty `EGTBPath` (the default folder), as Stockfish shows
/// an empty `SyzygyPath`.
pub const EMPTY_PATH: &str = "<empty>";

fn path_text(path: &str) -> &str {
    if path.is_empty() {
        EMPTY_PATH
    } else {
        path
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead_ms: 10,
            skill_level: SKILL_MAX,
            limit_strength: false,
            elo: ELO_MAX,
            repetition: RepetitionRule::Asian,
            sixty_move_rule: true,
            use_millisec: true,
            own_book: false,
            use_nnue: true,
            eval_file: EMBEDDED_NET.to_string(),
            network: AnyNet::Simple(Network::shared_embedded()),
            use_egtb: true,
            egtb_path: String::new(),
            tunables: Tunables::default(),
        }
    }
}

/// What a successful `setoption` changed, for the engine to pass on to the searcher.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Nothing the searcher needs to know (or an option we accept and ignore).
    Nothing,
    /// The hash size.
    Hash,
    /// The thread count.
    Threads,
    /// The number of PV lines.
    MultiPv,
    /// A search constant (the `tune` feature).
    Tunables,
    /// Skill level, strength limit or Elo.
    Strength,
    /// Repetition rule or sixty-move rule.
    Rules,
    /// `Clear Hash` was pressed.
    ClearHash,
    /// UCCI `setoption newgame`.
    NewGame,
    /// `Use NNUE` or `EvalFile`: the searcher's evaluator.
    Evaluator,
    /// `UseEGTB` or `EGTBPath`: the tablebases.
    Tablebase,
}

/// Option names as written in `uci` output, with their normalized keys and UCCI names.
const NAMES: &[(&str, &str, &str)] = &[
    // (key, UCI name, UCCI name)
    ("hash", "Hash", "hashsize"),
    ("threads", "Threads", "threads"),
    ("multipv", "MultiPV", "multipv"),
    ("ponder", "Ponder", "ponder"),
    ("moveoverhead", "Move Overhead", "moveoverhead"),
    ("skilllevel", "Skill Level", "skilllevel"),
    ("ucilimitstrength", "UCI_LimitStrength", "limitstrength"),
    ("ucielo", "UCI_Elo", "elo"),
    ("repetitionrule", "Repetition Rule", "repetition"),
    ("sixtymoverule", "Sixty Move Rule", "sixtymoverule"),
    ("clearhash", "Clear Hash", "clearhash"),
    ("usemillisec", "", "usemillisec"),
    ("newgame", "", "newgame"),
    ("ownbook", "OwnBook", "usebook"),
    ("usennue", "Use NNUE", "usennue"),
    ("evalfile", "EvalFile", "evalfile"),
    ("useegtb", "UseEGTB", "useegtb"),
    ("egtbpath", "EGTBPath", "egtbpaths"),
];

/// Other spellings accepted for the keys above.
const ALIASES: &[(&str, &str)] = &[
    ("hashsize", "hash"),
    ("usebook", "ownbook"),
    ("skill", "skilllevel"),
    ("limitstrength", "ucilimitstrength"),
    ("elo", "ucielo"),
    ("repetition", "repetitionrule"),
    ("sixtymove", "sixtymoverule"),
    ("rule60", "sixtymoverule"),
    ("nnuefile", "evalfile"),
    ("nnue", "usennue"),
    ("egtbpaths", "egtbpath"),
    ("egtb", "useegtb"),
    ("tablebases", "useegtb"),
];

/// Options other engines have that we accept and ignore, so GUIs that always send them are
/// not told off (ElephantEye's UCCI options, Stockfish's book and display options).
const IGNORED: &[&str] = &[
    "bookfiles",
    "usehash",
    "batch",
    "debug",
    "idle",
    "pruning",
    "knowledge",
    "randomness",
    "style",
    "promotion",
    "ucishowwdl",
    "ucianalysemode",
    "syzygypath",
    "drawmoves",
    "mateThreatdepth",
    "loadbook",
    "evalapi",
];

/// Lowercase, without spaces and underscores: how option names are compared.
fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '\t'))
        .flat_map(char::to_lowercase)
        .collect()
}

fn canonical_key(name: &str) -> Option<&'static str> {
    let n = normalize(name);
    if let Some(&(key, _, _)) = NAMES.iter().find(|(k, _, _)| *k == n) {
        return Some(key);
    }
    ALIASES.iter().find(|(a, _)| *a == n).map(|&(_, key)| key)
}

fn is_ignored(name: &str) -> bool {
    let n = normalize(name);
    IGNORED.iter().any(|i| i.to_lowercase() == n)
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "1" | "yes" => Some(true),
        "false" | "off" | "0" | "no" => Some(false),
        _ => None,
    }
}

impl Options {
    /// The `option ...` lines for the `uci` or `ucci` handshake.
    pub fn lines(&self, protocol: Protocol) -> Vec<String> {
        let mut lines = self.standard_lines(protocol);
        if cfg!(feature = "tune") {
            lines.extend(Tunables::SPECS.iter().map(|t| {
                format!(
                    "option name {} type spin default {} min {} max {}",
                    t.name, t.default, t.min, t.max
                )
            }));
        }
        lines
    }

    fn standard_lines(&self, protocol: Protocol) -> Vec<String> {
        let d = Options::default();
        match protocol {
            Protocol::Uci => vec![
                format!(
                    "option name Hash type spin default {} min 1 max {HASH_MAX}",
                    d.hash_mb
                ),
                format!(
                    "option name Threads type spin default {} min 1 max {THREADS_MAX}",
                    d.threads
                ),
                format!(
                    "option name MultiPV type spin default {} min 1 max {MULTIPV_MAX}",
                    d.multipv
                ),
                format!("option name Ponder type check default {}", d.ponder),
                format!(
                    "option name Move Overhead type spin default {} min 0 max 5000",
                    d.move_overhead_ms
                ),
                format!(
                    "option name Skill Level type spin default {} min 0 max {SKILL_MAX}",
                    d.skill_level
                ),
                format!(
                    "option name UCI_LimitStrength type check default {}",
                    d.limit_strength
                ),
                format!(
                    "option name UCI_Elo type spin default {} min {ELO_MIN} max {ELO_MAX}",
                    d.elo
                ),
                format!(
                    "option name Repetition Rule type combo default {} var Asian var Chinese",
                    d.repetition.name()
                ),
                format!(
                    "option name Sixty Move Rule type check default {}",
                    d.sixty_move_rule
                ),
                "option name Clear Hash type button".to_string(),
                format!("option name OwnBook type check default {}", d.own_book),
                format!("option name Use NNUE type check default {}", d.use_nnue),
                format!("option name EvalFile type string default {}", d.eval_file),
                format!("option name UseEGTB type check default {}", d.use_egtb),
                format!(
                    "option name EGTBPath type string default {}",
                    path_text(&d.egtb_path)
                ),
            ],
            Protocol::Ucci => vec![
                format!("option usemillisec type check default {}", d.use_millisec),
                format!("option usebook type check default {}", d.own_book),
                format!(
                    "option hashsize type spin min 1 max {HASH_MAX} default {}",
                    d.hash_mb
                ),
                format!(
                    "option threads type spin min 1 max {THREADS_MAX} default {}",
                    d.threads
                ),
                format!(
                    "option multipv type spin min 1 max {MULTIPV_MAX} default {}",
                    d.multipv
                ),
                format!("option ponder type check default {}", d.ponder),
                format!(
                    "option moveoverhead type spin min 0 max 5000 default {}",
                    d.move_overhead_ms
                ),
                format!(
                    "option skilllevel type spin min 0 max {SKILL_MAX} default {}",
                    d.skill_level
                ),
                format!(
                    "option limitstrength type check default {}",
                    d.limit_strength
                ),
                format!(
                    "option elo type spin min {ELO_MIN} max {ELO_MAX} default {}",
                    d.elo
                ),
                format!(
                    "option repetition type combo var Asian var Chinese default {}",
                    d.repetition.name()
                ),
                format!(
                    "option sixtymoverule type check default {}",
                    d.sixty_move_rule
                ),
                "option clearhash type button".to_string(),
                "option newgame type button".to_string(),
                format!("option usennue type check default {}", d.use_nnue),
                format!("option evalfile type string default {}", d.eval_file),
                format!("option useegtb type check default {}", d.use_egtb),
                format!(
                    "option egtbpaths type string default {}",
                    path_text(&d.egtb_path)
                ),
            ],
        }
    }

    /// Applies `setoption`. Under UCCI the value may still be inside `name` (`setoption
    /// hashsize 64`): the longest leading run of words that names an option is the name.
    ///
    /// Returns what changed and a message for the GUI when something was adjusted or
    /// ignored; `Err` with a message when the option is unknown or the value unusable.
    pub fn set(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(Change, Option<String>), String> {
        let (name, value) = match value {
            Some(v) => (name.to_string(), Some(v.trim().to_string())),
            None => split_name_value(name),
        };
        if cfg!(feature = "tune") {
            if let Some(t) = Tunables::SPECS
                .iter()
                .find(|t| normalize(t.name) == normalize(&name))
            {
                let text = value.as_deref().unwrap_or("");
                let n: i32 = text
                    .parse()
                    .map_err(|_| format!("option {name}: {text:?} is not a whole number"))?;
                self.tunables.set(t.name, n)?;
                return Ok((Change::Tunables, None));
            }
        }
        let Some(key) = canonical_key(&name) else {
            if is_ignored(&name) || is_ignored(name.split_whitespace().next().unwrap_or("")) {
                return Ok((
                    Change::Nothing,
                    Some(format!("option {name} has no effect in this engine")),
                ));
            }
            return Err(format!("no such option: {name:?}"));
        };
        let need = |v: &Option<String>| -> Result<String, String> {
            v.clone()
                .filter(|s| !s.is_empty())
                .ok_or_else(|| format!("option {name} needs a value"))
        };
        let mut note = None;
        let mut spin = |v: &Option<String>, min: u64, max: u64| -> Result<u64, String> {
            let text = need(v)?;
            let n: i128 = text
                .parse()
                .map_err(|_| format!("option {name}: {text:?} is not a whole number"))?;
            let clamped = n.clamp(min as i128, max as i128) as u64;
            if clamped as i128 != n {
                note = Some(format!(
                    "option {name}: {n} is outside {min}..{max}; using {clamped}"
                ));
            }
            Ok(clamped)
        };
        let check = |v: &Option<String>| -> Result<bool, String> {
            let text = need(v)?;
            parse_bool(&text).ok_or_else(|| format!("option {name}: {text:?} is not true or false"))
        };
        let change = match key {
            "hash" => {
                self.hash_mb = spin(&value, 1, HASH_MAX)? as usize;
                Change::Hash
            }
            "threads" => {
                self.threads = spin(&value, 1, THREADS_MAX)? as usize;
                Change::Threads
            }
            "multipv" => {
                self.multipv = spin(&value, 1, MULTIPV_MAX)? as usize;
                Change::MultiPv
            }
            "moveoverhead" => {
                self.move_overhead_ms = spin(&value, 0, 5000)?;
                Change::Nothing
            }
            "skilllevel" => {
                self.skill_level = spin(&value, 0, SKILL_MAX as u64)? as u32;
                Change::Strength
            }
            "ucielo" => {
                self.elo = spin(&value, ELO_MIN as u64, ELO_MAX as u64)? as u32;
                Change::Strength
            }
            "ponder" => {
                self.ponder = check(&value)?;
                Change::Nothing
            }
            "ucilimitstrength" => {
                self.limit_strength = check(&value)?;
                Change::Strength
            }
            "sixtymoverule" => {
                self.sixty_move_rule = check(&value)?;
                Change::Rules
            }
            "usemillisec" => {
                self.use_millisec = check(&value)?;
                Change::Nothing
            }
            "ownbook" => {
                self.own_book = check(&value)?;
                Change::Nothing
            }
            "repetitionrule" => {
                let text = need(&value)?.to_ascii_lowercase();
                self.repetition = if text.starts_with("asia") {
                    RepetitionRule::Asian
                } else if text.starts_with("chin") {
                    RepetitionRule::Chinese
                } else {
                    return Err(format!("option {name}: {text:?} is not Asian or Chinese"));
                };
                Change::Rules
            }
            "usennue" => {
                self.use_nnue = check(&value)?;
                Change::Evaluator
            }
            "evalfile" => {
                let path = need(&value)?;
                self.network = if path == EMBEDDED_NET || path.eq_ignore_ascii_case("<empty>") {
                    AnyNet::Simple(Network::shared_embedded())
                } else {
                    // Loaded here, so that a bad file is refused before anything changes;
                    // any format, the layered nets (format 3) too.
                    AnyNet::load(&path).map_err(|e| format!("option {name}: {path}: {e}"))?
                };
                self.eval_file = path;
                Change::Evaluator
            }
            "useegtb" => {
                self.use_egtb = check(&value)?;
                Change::Tablebase
            }
            "egtbpath" => {
                // No value, or `<empty>` as the handshake shows it: the default folder.
                let path = value.clone().unwrap_or_default();
                self.egtb_path = if path == EMPTY_PATH {
                    String::new()
                } else {
                    path
                };
                Change::Tablebase
            }
            "clearhash" => Change::ClearHash,
            "newgame" => Change::NewGame,
            _ => Change::Nothing,
        };
        Ok((change, note))
    }

    /// The strength level to play at, as an index into a list of `levels` levels ordered
    /// from weakest to strongest, the last being full strength; `None` for full strength.
    /// `UCI_LimitStrength` with `UCI_Elo` wins over `Skill Level`, as in Stockfish.
    /// `Skill Level` 0 to 19 spread over the levels below full strength; the top `UCI_Elo`
    /// is the last level.
    pub fn level_index(&self, levels: usize) -> Option<usize> {
        if levels == 0 {
            return None;
        }
        let top = levels - 1;
        if self.limit_strength {
            let above = self.elo.clamp(ELO_MIN, ELO_MAX) - ELO_MIN;
            return Some(above as usize * top / (ELO_MAX - ELO_MIN) as usize);
        }
        if self.skill_level >= SKILL_MAX {
            return None;
        }
        Some(self.skill_level as usize * top / SKILL_MAX as usize)
    }
}

/// Splits UCCI `setoption` words into name and value by the longest known name prefix.
fn split_name_value(words: &str) -> (String, Option<String>) {
    let parts: Vec<&str> = words.split_whitespace().collect();
    for k in (1..=parts.len()).rev() {
        let name = parts[..k].join(" ");
        if canonical_key(&name).is_some() || is_ignored(&name) {
            let value = (k < parts.len()).then(|| parts[k..].join(" "));
            return (name, value);
        }
    }
    let value = (parts.len() > 1).then(|| parts[1..].join(" "));
    (parts.first().unwrap_or(&"").to_string(), value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_by_uci_and_ucci_names() {
        let mut o = Options::default();
        assert_eq!(o.set("Hash", Some("64")).unwrap().0, Change::Hash);
        assert_eq!(o.hash_mb, 64);
        assert_eq!(o.set("hashsize 128", None).unwrap().0, Change::Hash);
        assert_eq!(o.hash_mb, 128);
        o.set("Move Overhead", Some("50")).unwrap();
        assert_eq!(o.move_overhead_ms, 50);
        o.set("Skill Level 5", None).unwrap();
        assert_eq!(o.skill_level, 5);
        o.set("repetition_rule", Some("chinese")).unwrap();
        assert_eq!(o.repetition, RepetitionRule::Chinese);
        o.set("usemillisec false", None).unwrap();
        assert!(!o.use_millisec);
        assert_eq!(o.set("usebook false", None).unwrap().0, Change::Nothing);
        assert_eq!(o.set("Clear Hash", None).unwrap().0, Change::ClearHash);
        // Tablebases: ElephantEye's UCCI names and ours.
        assert_eq!(
            o.set("egtbpaths /tmp/my tables", None).unwrap().0,
            Change::Tablebase
        );
        assert_eq!(o.egtb_path, "/tmp/my tables");
        o.set("EGTBPath", Some("<empty>")).unwrap();
        assert_eq!(o.egtb_path, "");
        o.set("useegtb false", None).unwrap();
        assert!(!o.use_egtb);
        o.set("UseEGTB", Some("true")).unwrap();
        assert!(o.use_egtb);
    }

    #[test]
    fn bad_values_are_refused_or_clamped() {
        let mut o = Options::default();
        assert!(o.set("Nonsense", Some("1")).is_err());
        assert!(o.set("Hash", Some("lots")).is_err());
        assert!(o.set("Hash", None).is_err());
        assert!(o.set("Ponder", Some("maybe")).is_err());
        assert!(o.set("Repetition Rule", Some("Martian")).is_err());
        let (_, note) = o.set("Threads", Some("100000")).unwrap();
        assert_eq!(o.threads, THREADS_MAX as usize);
        assert!(note.is_some());
        o.set("Hash", Some("-5")).unwrap();
        assert_eq!(o.hash_mb, 1);
        assert_eq!(
            o,
            Options {
                hash_mb: 1,
                threads: 256,
                ..Options::default()
            }
        );
    }

    #[test]
    fn every_listed_option_takes_its_default() {
        for protocol in [Protocol::Uci, Protocol::Ucci] {
            let mut o = Options::default();
            for line in o.clone().lines(protocol) {
                let rest = line.strip_prefix("option ").unwrap();
                let rest = rest.strip_prefix("name ").unwrap_or(rest);
                let (name, spec) = rest.split_once(" type ").unwrap();
                let value = spec
                    .split_once("default ")
                    .map(|(_, v)| v.split(" var ").next().unwrap().split(' ').next().unwrap());
                let (change, note) = o.set(name, value).unwrap_or_else(|e| panic!("{line}: {e}"));
                assert_eq!(note, None, "{line}");
                if spec.starts_with("button") {
                    assert_ne!(change, Change::Nothing, "{line}");
                }
            }
            assert_eq!(o, Options::default(), "{protocol:?}");
        }
    }

    #[test]
    fn levels() {
        let mut o = Options::default();
        assert_eq!(o.level_index(5), None);
        o.skill_level = 0;
        assert_eq!(o.level_index(5), Some(0));
        o.skill_level = 19;
        assert_eq!(o.level_index(8), Some(6));
        o.skill_level = 10;
        assert_eq!(o.level_index(8), Some(3));
        o.limit_strength = true;
        o.elo = ELO_MIN;
        assert_eq!(o.level_index(5), Some(0));
        o.elo = ELO_MAX;
        assert_eq!(o.level_index(5), Some(4));
        o.elo = (ELO_MIN + ELO_MAX) / 2;
        assert_eq!(o.level_index(9), Some(4));
        assert_eq!(o.level_index(0), None);
    }

    #[test]
    fn search_constants_are_options_only_in_a_tuning_build() {
        let mut o = Options::default();
        let listed = o
            .lines(Protocol::Uci)
            .iter()
            .any(|l| l.starts_with("option name rfp_margin type spin"));
        let set = o.set("rfp_margin", Some("100"));
        if cfg!(feature = "tune") {
            assert!(listed);
            assert_eq!(set.unwrap().0, Change::Tunables);
            assert_eq!(o.tunables.rfp_margin, 100);
            assert!(
                o.set("rfp_margin", Some("100000")).is_err(),
                "outside its range"
            );
        } else {
            assert!(!listed);
            assert!(set.is_err());
            assert_eq!(o.tunables, Tunables::default());
        }
    }
}

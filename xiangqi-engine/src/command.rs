//! Parsing the lines a GUI sends, under UCI (as Pikafish speaks it) and UCCI (as ElephantEye
//! speaks it), into one protocol-neutral [`Command`].
//!
//! Parsing never panics and never touches engine state: a line is turned into a command plus
//! a list of warnings (for tokens that were skipped, so the command still runs), or into a
//! [`CommandError`] saying what is wrong and where. Move and FEN texts are kept as text here;
//! the engine checks them against the position.

use core::fmt;

/// Which protocol the session speaks. UCCI is chosen when the first command is `ucci`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// The Universal Chess Interface, as Pikafish speaks it for xiangqi.
    Uci,
    /// The Universal Chinese Chess Protocol (ElephantEye).
    Ucci,
}

/// Where a `position` (or `probe`) command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    /// The FEN fields, joined by single spaces; `None` for the start position.
    pub fen: Option<String>,
    /// The moves played from there, as text.
    pub moves: Vec<String>,
}

/// The arguments of `go`. Times are in milliseconds, except the UCCI `time`, `increment` and
/// `opptime` fields, which are in the unit the `usemillisec` option selects.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// UCI: red's clock (`wtime`), milliseconds; negative values are clamped to 0.
    pub wtime: Option<u64>,
    /// UCI: black's clock (`btime`).
    pub btime: Option<u64>,
    /// UCI: red's increment (`winc`).
    pub winc: Option<u64>,
    /// UCI: black's increment (`binc`).
    pub binc: Option<u64>,
    /// UCCI: the side to move's clock (`time`).
    pub time: Option<u64>,
    /// UCCI: the side to move's increment (`increment`).
    pub increment: Option<u64>,
    /// UCCI: the opponent's clock (`opptime`), kept for completeness.
    pub opptime: Option<u64>,
    /// Moves to the next time control (`movestogo`).
    pub movestogo: Option<u32>,
    /// Depth limit in plies.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Fixed time for this move, milliseconds.
    pub movetime: Option<u64>,
    /// Look for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// UCCI `go draw`: the opponent offers a draw.
    pub draw_offered: bool,
    /// Only search these root moves (text).
    pub searchmoves: Vec<String>,
    /// `go perft N`: count leaves instead of searching.
    pub perft: Option<u32>,
}

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A blank line: nothing to do.
    Empty,
    /// `uci`: identify and list the options.
    Uci,
    /// `ucci`: switch to UCCI, identify and list the options.
    Ucci,
    /// `isready`.
    IsReady,
    /// `ucinewgame` (UCCI: `setoption newgame`).
    NewGame,
    /// `setoption`: a name and an optional value.
    SetOption {
        /// The option's name as written.
        name: String,
        /// Its value, if any.
        value: Option<String>,
    },
    /// `position`.
    Position(PositionSpec),
    /// `go`.
    Go(GoParams),
    /// `stop`.
    Stop,
    /// `ponderhit`; UCCI's `ponderhit draw` (the opponent offers a draw) sets `draw`.
    PonderHit {
        /// A draw is offered with the move.
        draw: bool,
    },
    /// `quit`.
    Quit,
    /// UCCI `banmoves`: moves the next search must not play.
    BanMoves(Vec<String>),
    /// UCCI `probe`: what the engine knows about a position.
    Probe(PositionSpec),
    /// `d`: show the board and the FEN.
    Display,
    /// `eval`: the static evaluation.
    Eval,
    /// `bench [depth]`: the fixed benchmark search.
    Bench {
        /// Depth to search each position to (the default when `None`).
        depth: Option<u32>,
    },
    /// `debug on|off` (accepted, no effect).
    Debug(bool),
    /// `help`: list the commands.
    Help,
}

/// A parsed line: the command and any warnings about tokens that were skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The command to run.
    pub command: Command,
    /// Things that were wrong but did not stop the command (report with `info string`).
    pub warnings: Vec<String>,
}

/// Why a line is not a command the engine can run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The first word is not a command of the protocol.
    Unknown {
        /// The word.
        word: String,
    },
    /// A command lacks something it needs.
    Missing {
        /// The command.
        command: &'static str,
        /// What it needs.
        what: &'static str,
    },
    /// A token is not what the command expects at that place.
    Unexpected {
        /// The command.
        command: &'static str,
        /// The token found.
        token: String,
        /// Its index among the line's words (0 = the command).
        index: usize,
        /// What was expected there.
        expected: &'static str,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown { word } => write!(f, "unknown command {word:?}"),
            CommandError::Missing { command, what } => {
                write!(f, "{command}: missing {what}")
            }
            CommandError::Unexpected {
                command,
                token,
                index,
                expected,
            } => write!(f, "{command}: word {index} {token:?} is not {expected}"),
        }
    }
}

impl std::error::Error for CommandError {}

/// Parses one line under `protocol`.
///
/// # Errors
/// A [`CommandError`] for an unknown command or one too malformed to run.
pub fn parse(line: &str, protocol: Protocol) -> Result<Parsed, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(&first) = words.first() else {
        return Ok(plain(Command::Empty));
    };
    let mut warnings = Vec::new();
    let command = match first.to_ascii_lowercase().as_str() {
        "uci" => Command::Uci,
        "ucci" => Command::Ucci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::NewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit {
            draw: words.get(1).is_some_and(|w| w.eq_ignore_ascii_case("draw")),
        },
        "quit" | "exit" => Command::Quit,
        "d" | "display" => Command::Display,
        "eval" => Command::Eval,
        "help" => Command::Help,
        "debug" => Command::Debug(words.get(1).is_some_and(|w| w.eq_ignore_ascii_case("on"))),
        "setoption" => parse_setoption(&words, protocol)?,
        "position" => Command::Position(parse_position("position", &words, &mut warnings)?),
        // The Cyclone dialect (uci2wb's UCI for xiangqi): `fen <FEN> moves ...`.
        "fen" | "startpos" => {
            let mut full = vec!["position"];
            full.extend_from_slice(&words);
            Command::Position(parse_position("position", &full, &mut warnings)?)
        }
        "probe" => Command::Probe(parse_position("probe", &words, &mut warnings)?),
        "banmoves" => Command::BanMoves(words[1..].iter().map(|w| w.to_string()).collect()),
        "go" => Command::Go(parse_go(&words, protocol, &mut warnings)),
        "bench" => Command::Bench {
            depth: match words.get(1) {
                None => None,
                Some(w) => match w.parse::<u32>() {
                    Ok(d) if d > 0 => Some(d),
                    _ => {
                        return Err(CommandError::Unexpected {
                            command: "bench",
                            token: w.to_string(),
                            index: 1,
                            expected: "a depth (a whole number from 1)",
                        })
                    }
                },
            },
        },
        _ => {
            return Err(CommandError::Unknown {
                word: first.to_string(),
            })
        }
    };
    Ok(Parsed { command, warnings })
}

fn plain(command: Command) -> Parsed {
    Parsed {
        command,
        warnings: Vec::new(),
    }
}

/// UCI: `setoption name <name words> [value <value words>]`.
/// UCCI: `setoption <name> [<value>]`, and the UCI form too (some GUIs send it).
/// UCCI's `setoption newgame` is the new-game command.
fn parse_setoption(words: &[&str], protocol: Protocol) -> Result<Command, CommandError> {
    let rest = &words[1..];
    if rest.is_empty() {
        return Err(CommandError::Missing {
            command: "setoption",
            what: "an option name",
        });
    }
    if rest[0].eq_ignore_ascii_case("name") {
        let value_at = rest
            .iter()
            .position(|w| w.eq_ignore_ascii_case("value"))
            .unwrap_or(rest.len());
        let name = rest[1..value_at].join(" ");
        if name.is_empty() {
            return Err(CommandError::Missing {
                command: "setoption",
                what: "an option name after 'name'",
            });
        }
        let value = if value_at < rest.len() {
            Some(rest[value_at + 1..].join(" "))
        } else {
            None
        };
        return Ok(Command::SetOption { name, value });
    }
    match protocol {
        Protocol::Ucci => {
            if rest.len() == 1 && rest[0].eq_ignore_ascii_case("newgame") {
                return Ok(Command::NewGame);
            }
            // The name may be several words (our UCI names); the engine splits name from
            // value by matching the longest known name, so hand over all the words.
            Ok(Command::SetOption {
                name: rest.join(" "),
                value: None,
            })
        }
        Protocol::Uci => Err(CommandError::Unexpected {
            command: "setoption",
            token: rest[0].to_string(),
            index: 1,
            expected: "'name'",
        }),
    }
}

/// `position startpos|fen <fields> [moves] <moves...>`; also a bare FEN after `position`.
/// The `moves` keyword is optional: after the FEN fields, any word that looks like a
/// coordinate move starts the move list.
fn parse_position(
    command: &'static str,
    words: &[&str],
    warnings: &mut Vec<String>,
) -> Result<PositionSpec, CommandError> {
    let Some(&kind) = words.get(1) else {
        return Err(CommandError::Missing {
            command,
            what: "'startpos' or 'fen <FEN>'",
        });
    };
    let mut i;
    let fen = if kind.eq_ignore_ascii_case("startpos") {
        i = 2;
        None
    } else {
        i = if kind.eq_ignore_ascii_case("fen") {
            2
        } else if kind.contains('/') {
            1 // A bare FEN: some GUIs leave out the keyword.
        } else {
            return Err(CommandError::Unexpected {
                command,
                token: kind.to_string(),
                index: 1,
                expected: "'startpos' or 'fen'",
            });
        };
        let start = i;
        while i < words.len()
            && !words[i].eq_ignore_ascii_case("moves")
            && (i == start || !looks_like_move(words[i]))
        {
            i += 1;
        }
        if i == start {
            return Err(CommandError::Missing {
                command,
                what: "the FEN after 'fen'",
            });
        }
        Some(words[start..i].join(" "))
    };
    if i < words.len() && words[i].eq_ignore_ascii_case("moves") {
        i += 1;
    }
    let mut moves = Vec::new();
    for (k, w) in words.iter().enumerate().skip(i) {
        if w.eq_ignore_ascii_case("moves") {
            warnings.push(format!("{command}: ignored a second 'moves' at word {k}"));
        } else {
            moves.push(w.to_string());
        }
    }
    Ok(PositionSpec { fen, moves })
}

/// Coordinate move text: `h2e2`, ICCS `H2-E2`, or 1-based `a10a9`.
pub fn looks_like_move(w: &str) -> bool {
    crate::notation::looks_like_move(w)
}

fn parse_go(words: &[&str], protocol: Protocol, warnings: &mut Vec<String>) -> GoParams {
    let mut go = GoParams::default();
    let mut i = 1;
    // Reads the number after keyword `words[i]`; on a bad or missing number, warns and
    // leaves the limit unset.
    fn number<T: core::str::FromStr>(
        words: &[&str],
        i: &mut usize,
        warnings: &mut Vec<String>,
    ) -> Option<T> {
        let key = words[*i];
        let Some(text) = words.get(*i + 1) else {
            warnings.push(format!("go: '{key}' needs a number; ignored"));
            *i += 1;
            return None;
        };
        *i += 2;
        if let Ok(v) = text.parse::<T>() {
            return Some(v);
        }
        warnings.push(format!(
            "go: {text:?} after '{key}' is not a valid number; ignored"
        ));
        None
    }
    // Clock values: GUIs sometimes send negative times when a flag falls; treat them as 0.
    fn millis(words: &[&str], i: &mut usize, warnings: &mut Vec<String>) -> Option<u64> {
        number::<i64>(words, i, warnings).map(|v| v.max(0) as u64)
    }
    while i < words.len() {
        let key = words[i].to_ascii_lowercase();
        match key.as_str() {
            "wtime" => go.wtime = millis(words, &mut i, warnings),
            "btime" => go.btime = millis(words, &mut i, warnings),
            "winc" => go.winc = millis(words, &mut i, warnings),
            "binc" => go.binc = millis(words, &mut i, warnings),
            "time" => go.time = millis(words, &mut i, warnings),
            "increment" => go.increment = millis(words, &mut i, warnings),
            "opptime" => go.opptime = millis(words, &mut i, warnings),
            "oppincrement" | "oppmovestogo" => {
                let _ = millis(words, &mut i, warnings);
            }
            "movestogo" => {
                go.movestogo = number::<i64>(words, &mut i, warnings)
                    .filter(|&n| n > 0)
                    .map(|n| n.min(u32::MAX as i64) as u32)
            }
            "depth" => {
                if words
                    .get(i + 1)
                    .is_some_and(|w| w.eq_ignore_ascii_case("infinite"))
                {
                    // UCCI `go depth infinite`.
                    go.infinite = true;
                    i += 2;
                } else {
                    go.depth = number(words, &mut i, warnings)
                }
            }
            "nodes" => go.nodes = number(words, &mut i, warnings),
            "movetime" => go.movetime = millis(words, &mut i, warnings),
            "mate" => go.mate = number(words, &mut i, warnings),
            "perft" => go.perft = number(words, &mut i, warnings),
            "infinite" => {
                go.infinite = true;
                i += 1;
            }
            "ponder" => {
                go.ponder = true;
                i += 1;
            }
            "draw" if protocol == Protocol::Ucci => {
                go.draw_offered = true;
                i += 1;
            }
            "searchmoves" => {
                i += 1;
                while i < words.len() && looks_like_move(words[i]) {
                    go.searchmoves.push(words[i].to_string());
                    i += 1;
                }
            }
            _ => {
                warnings.push(format!("go: unknown word {:?} at {i}; ignored", words[i]));
                i += 1;
            }
        }
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn uci(line: &str) -> Command {
        parse(line, Protocol::Uci).unwrap().command
    }

    #[test]
    fn simple_commands_with_crlf_and_spaces() {
        assert_eq!(uci("uci\r"), Command::Uci);
        assert_eq!(uci("  isready \r\n"), Command::IsReady);
        assert_eq!(uci(""), Command::Empty);
        assert_eq!(uci("\r"), Command::Empty);
        assert_eq!(uci("quit"), Command::Quit);
        assert!(matches!(
            parse("xyzzy 1 2", Protocol::Uci),
            Err(CommandError::Unknown { .. })
        ));
    }

    #[test]
    fn position_forms() {
        let start = PositionSpec {
            fen: None,
            moves: vec!["h2e2".into(), "h9g7".into()],
        };
        assert_eq!(
            uci("position startpos moves h2e2 h9g7"),
            Command::Position(start.clone())
        );
        // Without the `moves` keyword.
        assert_eq!(uci("position startpos h2e2 h9g7"), Command::Position(start));
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r";
        let Command::Position(p) = uci(&format!("position fen {fen} h2e2")) else {
            panic!()
        };
        assert_eq!(p.fen.as_deref(), Some(fen));
        assert_eq!(p.moves, ["h2e2"]);
        let full = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        let Command::Position(p) = uci(&format!("position fen {full} moves h2e2 h9g7")) else {
            panic!()
        };
        assert_eq!(p.fen.as_deref(), Some(full));
        assert_eq!(p.moves.len(), 2);
        assert!(parse("position", Protocol::Uci).is_err());
        assert!(parse("position fen", Protocol::Uci).is_err());
        assert!(parse("position somewhere", Protocol::Uci).is_err());
    }

    #[test]
    fn go_forms() {
        let Command::Go(g) = uci("go wtime 1000 btime -5 winc 10 binc 20 movestogo 30") else {
            panic!()
        };
        assert_eq!(
            (g.wtime, g.btime, g.winc, g.binc, g.movestogo),
            (Some(1000), Some(0), Some(10), Some(20), Some(30))
        );
        let Command::Go(g) = uci("go infinite searchmoves h2e2 b2e2") else {
            panic!()
        };
        assert!(g.infinite);
        assert_eq!(g.searchmoves, ["h2e2", "b2e2"]);
        let p = parse("go depth x nodes 5", Protocol::Uci).unwrap();
        let Command::Go(g) = p.command else { panic!() };
        assert_eq!((g.depth, g.nodes), (None, Some(5)));
        assert_eq!(p.warnings.len(), 1);
        let Command::Go(g) = parse("go draw time 300 increment 2 opptime 100", Protocol::Ucci)
            .unwrap()
            .command
        else {
            panic!()
        };
        assert!(g.draw_offered);
        assert_eq!(
            (g.time, g.increment, g.opptime),
            (Some(300), Some(2), Some(100))
        );
    }

    #[test]
    fn setoption_forms() {
        assert_eq!(
            uci("setoption name Move Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            uci("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            parse("setoption usebook false", Protocol::Ucci)
                .unwrap()
                .command,
            Command::SetOption {
                name: "usebook false".into(),
                value: None
            }
        );
        assert_eq!(
            parse("setoption newgame", Protocol::Ucci).unwrap().command,
            Command::NewGame
        );
        assert!(parse("setoption usebook false", Protocol::Uci).is_err());
    }

    proptest! {
        #[test]
        fn any_text_parses_or_errs(line in "\\PC{0,80}") {
            let _ = parse(&line, Protocol::Uci);
            let _ = parse(&line, Protocol::Ucci);
        }

        #[test]
        fn command_like_lines_never_panic(
            words in proptest::collection::vec(prop_oneof![
                Just("go".to_string()), Just("position".to_string()), Just("fen".to_string()),
                Just("startpos".to_string()), Just("moves".to_string()), Just("setoption".to_string()),
                Just("name".to_string()), Just("value".to_string()), Just("depth".to_string()),
                Just("wtime".to_string()), Just("searchmoves".to_string()), Just("-".to_string()),
                Just("h2e2".to_string()), Just("-99999999999999999999".to_string()),
                Just("infinite".to_string()), Just("perft".to_string()), Just("bench".to_string()),
                "[a-z0-9/]{0,12}", "-?[0-9]{1,22}",
            ], 0..12)
        ) {
            let line = words.join(" ");
            let _ = parse(&line, Protocol::Uci);
            let _ = parse(&line, Protocol::Ucci);
        }
    }
}

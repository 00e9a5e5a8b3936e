//! CECP command lines into [`Cmd`]s, and our options as `feature option="..."` texts.
//! Parsing never panics and never touches engine state.

use crate::command::Protocol;
use crate::options::Options;
use core::fmt;
use std::time::Duration;

/// `level MPS BASE INC`: moves per session (0: the whole game), base time, increment.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TimeControl {
    pub(crate) moves: u32,
    pub(crate) base_ms: u64,
    pub(crate) inc_ms: u64,
}

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cmd {
    /// A blank line, or a command that needs nothing done (`xboard`, `accepted`, `random`...).
    Nothing,
    Protover(u32),
    New,
    Variant(String),
    Force,
    Go,
    PlayOther,
    UserMove(String),
    /// `?`: move now.
    MoveNow,
    Ping(String),
    SetBoard(String),
    /// `undo` (1) or `remove` (2).
    Undo(usize),
    Level(TimeControl),
    St(Duration),
    Sd(u32),
    /// `time`: the engine's clock in centiseconds (`otim` is read and not needed).
    Time(u64),
    Post(bool),
    /// `hard` (true) / `easy`.
    Hard(bool),
    Analyze,
    /// `exit`: leave analysis.
    ExitAnalysis,
    /// `.`: analysis status.
    Status,
    Result,
    Option(String, Option<String>),
    Memory(u64),
    Cores(u64),
    /// `egtpath KIND PATH`: where the GUI keeps tablebases of a kind.
    EgtPath(String, String),
    Quit,
}

/// Why a line is not a command the engine can run, in CECP's error form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CecpError {
    Unknown(String),
    Bad { command: String, why: String },
}

impl fmt::Display for CecpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CecpError::Unknown(c) => write!(f, "Error (unknown command): {c}"),
            CecpError::Bad { command, why } => write!(f, "Error ({why}): {command}"),
        }
    }
}

fn bad(line: &str, why: &str) -> CecpError {
    CecpError::Bad {
        command: line.trim().to_string(),
        why: why.to_string(),
    }
}

/// Seconds, possibly fractional (`0.5`), as a duration.
fn seconds(text: &str) -> Option<Duration> {
    let v: f64 = text.parse().ok()?;
    (v.is_finite() && v >= 0.0).then(|| Duration::from_secs_f64(v.min(1e9)))
}

/// `level` base time: minutes, or `minutes:seconds`.
fn base_time(text: &str) -> Option<Duration> {
    match text.split_once(':') {
        Some((m, s)) => {
            let m: u64 = m.parse().ok()?;
            let s: u64 = s.parse().ok()?;
            Some(Duration::from_secs(m.saturating_mul(60).saturating_add(s)))
        }
        None => seconds(text).map(|d| d.saturating_mul(60)),
    }
}

fn level(words: &[&str], line: &str) -> Result<TimeControl, CecpError> {
    let [_, mps, base, inc] = words else {
        return Err(bad(line, "level needs MPS BASE INC"));
    };
    let moves = mps
        .parse::<u32>()
        .map_err(|_| bad(line, "moves per session is not a number"))?;
    let base = base_time(base).ok_or_else(|| bad(line, "base time is not minutes[:seconds]"))?;
    let inc = seconds(inc).ok_or_else(|| bad(line, "increment is not seconds"))?;
    Ok(TimeControl {
        moves,
        base_ms: base.as_millis() as u64,
        inc_ms: inc.as_millis() as u64,
    })
}

fn number<T: core::str::FromStr>(words: &[&str], line: &str) -> Result<T, CecpError> {
    words
        .get(1)
        .and_then(|w| w.parse().ok())
        .ok_or_else(|| bad(line, "a number is needed"))
}

/// Parses one line.
pub(crate) fn parse(line: &str) -> Result<Cmd, CecpError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(&first) = words.first() else {
        return Ok(Cmd::Nothing);
    };
    let rest = line.trim().get(first.len()..).unwrap_or("").trim();
    Ok(match first {
        "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics"
        | "white" | "black" | "draw" | "hint" | "bk" | "nps" | "otim" | "easy-mode" | "pause"
        | "resume" | "edit" | "exclude" | "include" | "lift" | "put" | "hover" => Cmd::Nothing,
        "protover" => Cmd::Protover(number(&words, line)?),
        "new" => Cmd::New,
        "variant" => Cmd::Variant(rest.to_string()),
        "force" => Cmd::Force,
        "go" => Cmd::Go,
        "playother" => Cmd::PlayOther,
        "usermove" => match words.get(1) {
            Some(m) => Cmd::UserMove(m.to_string()),
            None => return Err(bad(line, "usermove needs a move")),
        },
        "?" => Cmd::MoveNow,
        "ping" => Cmd::Ping(rest.to_string()),
        "setboard" => {
            if rest.is_empty() {
                return Err(bad(line, "setboard needs a FEN"));
            }
            Cmd::SetBoard(rest.to_string())
        }
        "undo" => Cmd::Undo(1),
        "remove" => Cmd::Undo(2),
        "level" => Cmd::Level(level(&words, line)?),
        "st" => Cmd::St(
            words
                .get(1)
                .and_then(|w| seconds(w))
                .ok_or_else(|| bad(line, "st needs seconds"))?,
        ),
        "sd" => Cmd::Sd(number::<u32>(&words, line)?.max(1)),
        "time" => Cmd::Time(number::<i64>(&words, line)?.max(0) as u64),
        "post" => Cmd::Post(true),
        "nopost" => Cmd::Post(false),
        "hard" => Cmd::Hard(true),
        "easy" => Cmd::Hard(false),
        "analyze" => Cmd::Analyze,
        "exit" => Cmd::ExitAnalysis,
        "." => Cmd::Status,
        "result" => Cmd::Result,
        "option" => {
            if rest.is_empty() {
                return Err(bad(line, "option needs NAME[=VALUE]"));
            }
            match rest.split_once('=') {
                Some((n, v)) => Cmd::Option(n.trim().to_string(), Some(v.trim().to_string())),
                None => Cmd::Option(rest.to_string(), None),
            }
        }
        "memory" => Cmd::Memory(number::<u64>(&words, line)?.max(1)),
        "cores" => Cmd::Cores(number::<u64>(&words, line)?.max(1)),
        "egtpath" => match rest.split_once(char::is_whitespace) {
            Some((kind, path)) => Cmd::EgtPath(kind.to_string(), path.trim().to_string()),
            None => return Err(bad(line, "egtpath needs a kind and a path")),
        },
        "quit" => Cmd::Quit,
        // A bare move, as protocol 1 GUIs send them.
        m if crate::notation::looks_like_move(m) => Cmd::UserMove(m.to_string()),
        other => return Err(CecpError::Unknown(other.to_string())),
    })
}

/// Our options as CECP `feature option="..."` values, made from their UCI descriptions
/// (`Hash` and `Threads` are set through `memory` and `cores`).
pub(crate) fn option_features(options: &Options) -> Vec<String> {
    let mut out = Vec::new();
    for line in options.lines(Protocol::Uci) {
        let Some(rest) = line.strip_prefix("option name ") else {
            continue;
        };
        let Some((name, spec)) = rest.split_once(" type ") else {
            continue;
        };
        if name == "Hash" || name == "Threads" {
            continue;
        }
        let words: Vec<&str> = spec.split_whitespace().collect();
        let after = |key: &str| {
            words
                .iter()
                .position(|w| *w == key)
                .and_then(|i| words.get(i + 1))
                .copied()
                .unwrap_or("")
        };
        let feature = match words.first().copied() {
            Some("spin") => format!(
                "{name} -spin {} {} {}",
                after("default"),
                after("min"),
                after("max")
            ),
            Some("check") => format!(
                "{name} -check {}",
                if after("default") == "true" { 1 } else { 0 }
            ),
            Some("button") => format!("{name} -button"),
            Some("combo") => {
                let default = after("default");
                let vars: Vec<String> = words
                    .windows(2)
                    .filter(|w| w[0] == "var")
                    .map(|w| {
                        if w[1] == default {
                            format!("*{}", w[1])
                        } else {
                            w[1].to_string()
                        }
                    })
                    .collect();
                format!("{name} -combo {}", vars.join(" /// "))
            }
            _ => format!("{name} -string {}", after("default")),
        };
        out.push(feature);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn commands() {
        assert_eq!(parse("usermove h2e2"), Ok(Cmd::UserMove("h2e2".into())));
        assert_eq!(parse("h2e2\r"), Ok(Cmd::UserMove("h2e2".into())));
        assert_eq!(
            parse("level 40 0:30 0"),
            Ok(Cmd::Level(TimeControl {
                moves: 40,
                base_ms: 30_000,
                inc_ms: 0
            }))
        );
        assert_eq!(
            parse("level 0 1 0.5"),
            Ok(Cmd::Level(TimeControl {
                moves: 0,
                base_ms: 60_000,
                inc_ms: 500
            }))
        );
        assert_eq!(parse("st 2.5"), Ok(Cmd::St(Duration::from_millis(2500))));
        assert_eq!(parse("time -30"), Ok(Cmd::Time(0)));
        assert_eq!(
            parse("option Skill Level=5"),
            Ok(Cmd::Option("Skill Level".into(), Some("5".into())))
        );
        assert_eq!(parse("ping 7"), Ok(Cmd::Ping("7".into())));
        assert!(parse("level 40 x 0").is_err());
        assert!(parse("sd").is_err());
        assert_eq!(
            parse("frobnicate").unwrap_err().to_string(),
            "Error (unknown command): frobnicate"
        );
    }

    #[test]
    fn options_as_features() {
        let f = option_features(&Options::default());
        assert!(
            f.contains(&"Move Overhead -spin 10 0 5000".to_string()),
            "{f:?}"
        );
        assert!(f.contains(&"Repetition Rule -combo *Asian /// Chinese".to_string()));
        assert!(f.contains(&"Clear Hash -button".to_string()));
        assert!(f.contains(&"OwnBook -check 0".to_string()));
        assert!(!f.iter().any(|o| o.starts_with("Hash ")));
    }

    proptest! {
        #[test]
        fn any_text_parses_or_errs(line in "\\PC{0,60}") {
            let _ = parse(&line);
        }
    }
}

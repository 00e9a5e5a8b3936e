//! Time controls and clocks: how long each side may think, its clock during a game, and the
//! `go` command that tells an engine both clocks.

use std::time::Duration;

/// How long one side may think: the match's `--tc` (or `--nodes`, `--depth`, `--movetime`),
/// or an engine's own `tc=` (`nodes=`, `depth=`, `movetime=`) for time odds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Base time and increment per move, on the side's own clock.
    Clock { base: Duration, inc: Duration },
    /// Fixed nodes per move.
    Nodes(u64),
    /// Fixed depth per move.
    Depth(u32),
    /// Fixed time per move (milliseconds).
    MoveTime(u64),
}

impl TimeControl {
    /// `BASE+INC` in seconds (`2+0.05`, `0.3125+0.003`; a lone `BASE` has no increment).
    pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
        let (b, inc) = text.split_once('+').unwrap_or((text, "0"));
        let secs = |s: &str| {
            let x = s
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| format!("tc {text}: expected seconds+increment, e.g. 2+0.05"))?;
            Ok::<_, String>(Duration::from_micros((x * 1e6).round() as u64))
        };
        Ok(TimeControl::Clock {
            base: secs(b)?,
            inc: secs(inc)?,
        })
    }

    /// The clock this control starts a game with (`None` when it is not a clock).
    pub fn start_clock(&self) -> Option<SideClock> {
        match *self {
            TimeControl::Clock { base, inc } => Some(SideClock { time: base, inc }),
            _ => None,
        }
    }
}

/// As the PGN's TimeControl tag writes it: `2+0.05` (seconds), `0.1/move`, else `nodes N`,
/// `depth D`.
impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            TimeControl::Clock { base, inc } => {
                write!(f, "{}+{}", base.as_secs_f64(), inc.as_secs_f64())
            }
            TimeControl::Nodes(n) => write!(f, "nodes {n}"),
            TimeControl::Depth(d) => write!(f, "depth {d}"),
            TimeControl::MoveTime(ms) => write!(f, "{}/move", ms as f64 / 1000.0),
        }
    }
}

/// One side's clock during a game: the time left and the increment it gets after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideClock {
    pub time: Duration,
    pub inc: Duration,
}

impl SideClock {
    /// Charges a move that took `spent` to this clock: `false` if it overstepped the time left
    /// by more than `margin` (the flag fell), else the time comes off and the increment goes
    /// on.
    pub fn charge(&mut self, spent: Duration, margin: Duration) -> bool {
        if spent > self.time + margin {
            return false;
        }
        self.time = self.time.saturating_sub(spent) + self.inc;
        true
    }
}

/// The `go` command for the side `us` (0 red, 1 black) under its own control `tc`, with
/// `clocks` indexed by colour (`None` for a side that plays without a clock). Under a clock
/// each side's remaining time and increment are sent as they are, its own and the other's
/// (UCI `wtime`/`winc` red's, `btime`/`binc` black's; UCCI `time`/`increment` the mover's,
/// `opptime`/`oppincrement` the other's), so that with time odds each engine sees both.
pub fn go_command(
    us: usize,
    tc: &TimeControl,
    clocks: [Option<SideClock>; 2],
    ucci: bool,
) -> String {
    match *tc {
        TimeControl::Clock { .. } => {
            let ms = |c: Option<SideClock>| c.map(|c| (c.time.as_millis(), c.inc.as_millis()));
            let mut cmd = String::from("go");
            if ucci {
                if let Some((t, i)) = ms(clocks[us]) {
                    cmd.push_str(&format!(" time {t} increment {i}"));
                }
                if let Some((t, i)) = ms(clocks[1 - us]) {
                    cmd.push_str(&format!(" opptime {t} oppincrement {i}"));
                }
            } else {
                if let Some((t, i)) = ms(clocks[0]) {
                    cmd.push_str(&format!(" wtime {t} winc {i}"));
                }
                if let Some((t, i)) = ms(clocks[1]) {
                    cmd.push_str(&format!(" btime {t} binc {i}"));
                }
            }
            cmd
        }
        TimeControl::Nodes(n) => format!("go nodes {n}"),
        TimeControl::Depth(d) => format!("go depth {d}"),
        TimeControl::MoveTime(ms) => format!("go movetime {ms}"),
    }
}

//! The players of a match: our searcher in-process, or an external engine speaking UCI or
//! UCCI over its standard input and output.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};
use xiangqi::core::{Game, Move, Position, Square};
use xiangqi::nnue::{AnyNet, EvalChoice, Network};
use xiangqi::search::{Clock, Level, Limits, Params, Tablebase};

use crate::clock::{go_command, SideClock, TimeControl};

/// The in-process searcher: the hand-written evaluator or a net.
type Searcher = xiangqi::search::Searcher<EvalChoice>;

/// What a player said with its move.
#[derive(Clone, Debug, Default)]
pub struct Thought {
    pub score: Option<String>,
    pub depth: Option<u32>,
}

/// A match participant.
pub trait Player {
    fn name(&self) -> &str;
    fn new_game(&mut self, seed: u64) -> Result<(), String>;
    /// The move to play under the player's own control `tc`; `clocks[c]` is colour c's
    /// clock (`None` for a side without one: both are `None` unless some side plays on a
    /// clock).
    fn go(
        &mut self,
        game: &Game,
        tc: &TimeControl,
        clocks: [Option<SideClock>; 2],
    ) -> Result<(Option<Move>, Thought), String>;
}

/// Parses `key=value,key=value` into the description of an engine.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub name: String,
    pub kind: Kind,
    pub options: Vec<(String, String)>,
    pub threads: usize,
    pub hash: usize,
    pub level: Option<Level>,
    pub params: Params,
    /// External UCI engines that number ranks 1-10 (Fairy-Stockfish) instead of 0-9.
    pub ranks_from_one: bool,
    pub args: Vec<String>,
    /// In-process: `Some(Some(net))` searches with that net, `Some(None)` with the
    /// hand-written evaluator, `None` with the default ([`EvalChoice::default`], the net).
    pub net: Option<Option<AnyNet>>,
    /// `egtb=`: in-process, the tablebases opened (shared by the games); `None` without
    /// (the default: a match measures the search unless told otherwise).
    pub tablebase: Option<Arc<Tablebase>>,
    /// `egtb=`'s value, for external engines (passed as their tablebase options).
    egtb: Option<String>,
    /// `tc=BASE+INC`, `nodes=`, `depth=` or `movetime=`: this engine's own control, in place
    /// of the match's (time odds).
    pub tc: Option<TimeControl>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    InProcess,
    Uci(String),
    Ucci(String),
}

impl EngineSpec {
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            name: String::new(),
            kind: Kind::InProcess,
            options: Vec::new(),
            threads: 1,
            hash: 16,
            level: None,
            params: Params::default(),
            ranks_from_one: false,
            args: Vec::new(),
            net: None,
            tablebase: None,
            egtb: None,
            tc: None,
        };
        let mut proto = None;
        let mut cmd = None;
        let mut ranks = None;
        for part in text.split(',') {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("engine spec `{text}`: `{part}` is not key=value"))?;
            match k {
                "name" => spec.name = v.to_string(),
                "cmd" => cmd = Some(v.to_string()),
                "arg" => spec.args.push(v.to_string()),
                "proto" => proto = Some(v.to_string()),
                "threads" => {
                    spec.threads = v
                        .parse()
                        .map_err(|_| format!("threads={v}: not a number"))?
                }
                "hash" => spec.hash = v.parse().map_err(|_| format!("hash={v}: not a number"))?,
                "ranks" => ranks = Some(v == "1"),
                "eval" => {
                    spec.net = match v {
                        "nnue" => Some(Some(AnyNet::Simple(Network::shared_embedded()))),
                        "classical" | "hand" => Some(None),
                        _ => return Err(format!("eval={v}: use nnue or classical")),
                    }
                }
                "evalfile" => {
                    // Any format: the layered nets (format 3) too.
                    let net = AnyNet::load(v).map_err(|e| format!("evalfile={v}: {e}"))?;
                    spec.net = Some(Some(net));
                }
                "egtb" => spec.egtb = Some(v.to_string()),
                "tc" => spec.tc = Some(TimeControl::parse_clock(v)?),
                "nodes" | "depth" | "movetime" => {
                    let n: u64 = v.parse().map_err(|_| format!("{k}={v}: not a number"))?;
                    spec.tc = Some(match k {
                        "nodes" => TimeControl::Nodes(n),
                        "depth" => TimeControl::Depth(n as u32),
                        _ => TimeControl::MoveTime(n),
                    });
                }
                "level" => {
                    spec.level =
                        Some(Level::by_name(v).ok_or_else(|| format!("unknown level `{v}`"))?);
                }
                "off" | "on" => {
                    for f in v.split('+') {
                        spec.params.set(f, k == "on")?;
                    }
                }
                _ if k.starts_with("tune.") => {
                    let n: i32 = v.parse().map_err(|_| format!("{k}={v}: not a number"))?;
                    spec.params.tune.set(&k["tune.".len()..], n)?;
                }
                _ => match k.strip_prefix("option.") {
                    Some(o) => spec.options.push((o.to_string(), v.to_string())),
                    None => return Err(format!("engine spec: unknown key `{k}`")),
                },
            }
        }
        spec.kind = match (proto.as_deref(), cmd) {
            (None | Some("inproc"), None) => Kind::InProcess,
            (None | Some("uci"), Some(c)) => Kind::Uci(c),
            (Some("ucci"), Some(c)) => Kind::Ucci(c),
            (Some(p), c) => {
                return Err(format!(
                    "proto={p} with cmd={c:?}: use proto=inproc (no cmd), uci or ucci"
                ))
            }
        };
        if let Some(egtb) = spec.egtb.clone() {
            spec.apply_egtb(&egtb)?;
        }
        if let Kind::Uci(c) = &spec.kind {
            spec.ranks_from_one = ranks.unwrap_or_else(|| c.contains("fairy-stockfish"));
            if c.contains("fairy-stockfish")
                && !spec.options.iter().any(|(k, _)| k == "UCI_Variant")
            {
                spec.options
                    .insert(0, ("UCI_Variant".into(), "xiangqi".into()));
            }
        }
        if spec.name.is_empty() {
            spec.name = match &spec.kind {
                Kind::InProcess => "xiangqi-search".into(),
                Kind::Uci(c) | Kind::Ucci(c) => c.rsplit('/').next().unwrap_or(c).to_string(),
            };
        }
        Ok(spec)
    }

    /// `egtb=off`, `egtb=default` (the cache folder, its starter set generated first if
    /// missing) or `egtb=DIR`: in-process, the tables opened now; for an external engine,
    /// our engine's options (`UseEGTB`, `EGTBPath`; UCCI `useegtb`, `egtbpaths`).
    fn apply_egtb(&mut self, egtb: &str) -> Result<(), String> {
        let ucci = matches!(self.kind, Kind::Ucci(_));
        let (use_name, path_name) = if ucci {
            ("useegtb", "egtbpaths")
        } else {
            ("UseEGTB", "EGTBPath")
        };
        match (&self.kind, egtb) {
            (Kind::InProcess, "off") => self.tablebase = None,
            (Kind::InProcess, "default") => {
                let dir = xiangqi_egtb::default_dir();
                let tb = xiangqi_egtb::open_with_starter(&dir, &mut |_| {})
                    .map_err(|e| format!("egtb=default ({}): {e}", dir.display()))?;
                self.tablebase = Some(Arc::new(tb));
            }
            (Kind::InProcess, dir) => {
                let tb = Tablebase::open(dir).map_err(|e| format!("egtb={dir}: {e}"))?;
                self.tablebase = Some(Arc::new(tb));
            }
            (_, "off") => self.options.push((use_name.into(), "false".into())),
            (_, "default") => self.options.push((use_name.into(), "true".into())),
            (_, dir) => {
                self.options.push((use_name.into(), "true".into()));
                self.options.push((path_name.into(), dir.into()));
            }
        }
        Ok(())
    }

    pub fn build(&self) -> Result<Box<dyn Player>, String> {
        Ok(match &self.kind {
            Kind::InProcess => {
                let eval = match &self.net {
                    Some(Some(net)) => net.evaluator(),
                    Some(None) => EvalChoice::classical(),
                    None => EvalChoice::default(),
                };
                let mut s = Searcher::with_evaluator(eval);
                s.set_hash_size(self.hash);
                s.set_threads(self.threads);
                s.set_level(self.level);
                s.set_params(self.params.clone());
                s.set_tablebase(self.tablebase.clone());
                Box::new(InProcess {
                    name: self.name.clone(),
                    searcher: s,
                })
            }
            Kind::Uci(cmd) | Kind::Ucci(cmd) => Box::new(External::start(
                self,
                cmd,
                matches!(self.kind, Kind::Ucci(_)),
            )?),
        })
    }
}

struct InProcess {
    name: String,
    searcher: Searcher,
}

impl Player for InProcess {
    fn name(&self) -> &str {
        &self.name
    }
    fn new_game(&mut self, seed: u64) -> Result<(), String> {
        self.searcher.new_game();
        self.searcher.set_seed(seed);
        Ok(())
    }
    fn go(
        &mut self,
        game: &Game,
        tc: &TimeControl,
        clocks: [Option<SideClock>; 2],
    ) -> Result<(Option<Move>, Thought), String> {
        let mut limits = Limits::default();
        match *tc {
            TimeControl::Clock { .. } => {
                let us = game.position().side_to_move().index();
                let own = clocks[us].ok_or("a clock control without a clock")?;
                limits.clock = Some(Clock {
                    time: own.time,
                    increment: own.inc,
                    moves_to_go: None,
                });
            }
            TimeControl::Nodes(n) => limits.nodes = Some(n),
            TimeControl::Depth(d) => limits.depth = Some(d),
            TimeControl::MoveTime(ms) => limits.movetime = Some(Duration::from_millis(ms)),
        }
        let r = self.searcher.search(game, &limits, &mut |_| {});
        Ok((
            r.best_move,
            Thought {
                score: Some(r.score.to_string()),
                depth: Some(r.depth),
            },
        ))
    }
}

/// An engine in another process.
struct External {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    ucci: bool,
    ranks_from_one: bool,
}

impl External {
    fn start(spec: &EngineSpec, cmd: &str, ucci: bool) -> Result<External, String> {
        let mut child = Command::new(cmd)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start `{cmd}`: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = External {
            name: spec.name.clone(),
            child,
            stdin,
            lines: rx,
            ucci,
            ranks_from_one: spec.ranks_from_one,
        };
        e.send(if ucci { "ucci" } else { "uci" })?;
        e.wait_for(
            if ucci { "ucciok" } else { "uciok" },
            Duration::from_secs(10),
        )?;
        let mut opts = spec.options.clone();
        if !opts
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("Hash") || k.eq_ignore_ascii_case("hashsize"))
        {
            opts.push((
                if ucci { "hashsize" } else { "Hash" }.into(),
                spec.hash.to_string(),
            ));
        }
        if !opts.iter().any(|(k, _)| k.eq_ignore_ascii_case("Threads")) && !ucci {
            opts.push(("Threads".into(), spec.threads.to_string()));
        }
        for (k, v) in &opts {
            if ucci {
                e.send(&format!("setoption {k} {v}"))?;
            } else {
                e.send(&format!("setoption name {k} value {v}"))?;
            }
        }
        e.sync()?;
        Ok(e)
    }

    fn send(&mut self, text: &str) -> Result<(), String> {
        writeln!(self.stdin, "{text}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("{}: write failed: {e}", self.name))
    }

    fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if l.trim_start().starts_with(prefix) => return Ok(l),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("{}: no `{prefix}` within {timeout:?}", self.name))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("{}: engine exited", self.name))
                }
            }
        }
    }

    fn sync(&mut self) -> Result<(), String> {
        self.send("isready")?;
        self.wait_for("readyok", Duration::from_secs(30))
            .map(|_| ())
    }

    fn sq_text(&self, s: Square) -> String {
        let rank = s.rank().index() as u32 + self.ranks_from_one as u32;
        format!("{}{}", s.file().char(), rank)
    }

    fn move_text(&self, m: Move) -> String {
        format!("{}{}", self.sq_text(m.from()), self.sq_text(m.to()))
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Option<Move> {
        let b = text.as_bytes();
        let mut i = 0;
        let mut sq = || -> Option<Square> {
            let f = *b.get(i)? as char;
            i += 1;
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let r: u32 = text.get(start..i)?.parse().ok()?;
            let r = r.checked_sub(self.ranks_from_one as u32)?;
            Square::from_iccs(&format!("{f}{r}"))
        };
        let from = sq()?;
        let to = sq()?;
        let m = Move::try_new(from, to)?;
        pos.is_legal(m).then_some(m)
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send("quit");
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Player for External {
    fn name(&self) -> &str {
        &self.name
    }
    fn new_game(&mut self, _seed: u64) -> Result<(), String> {
        if !self.ucci {
            self.send("ucinewgame")?;
        }
        self.sync()
    }
    fn go(
        &mut self,
        game: &Game,
        tc: &TimeControl,
        clocks: [Option<SideClock>; 2],
    ) -> Result<(Option<Move>, Thought), String> {
        let mut cmd = format!("position fen {}", game.start_position().fen());
        if !game.moves().is_empty() {
            cmd.push_str(" moves");
            for &m in game.moves() {
                cmd.push(' ');
                cmd.push_str(&self.move_text(m));
            }
        }
        self.send(&cmd)?;
        let us = game.position().side_to_move().index();
        self.send(&go_command(us, tc, clocks, self.ucci))?;
        let budget = match *tc {
            TimeControl::Clock { .. } => {
                clocks[us].map_or(Duration::ZERO, |c| c.time) + Duration::from_secs(5)
            }
            TimeControl::MoveTime(ms) => Duration::from_millis(ms) + Duration::from_secs(5),
            _ => Duration::from_secs(600),
        };
        let deadline = Instant::now() + budget;
        let mut thought = Thought::default();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => {
                    // Far past its time: stop it and take whatever it says.
                    self.send("stop")?;
                    self.wait_for("bestmove", Duration::from_secs(2))?
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("{}: engine exited", self.name))
                }
            };
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    let w: Vec<&str> = line.split_whitespace().collect();
                    for i in 0..w.len().saturating_sub(1) {
                        match w[i] {
                            "depth" => thought.depth = w[i + 1].parse().ok(),
                            "score" if i + 2 < w.len() => {
                                thought.score = Some(format!("{} {}", w[i + 1], w[i + 2]))
                            }
                            _ => {}
                        }
                    }
                }
                Some("bestmove") => {
                    let text = words.next().unwrap_or("");
                    return Ok((self.parse_move(game.position(), text), thought));
                }
                Some("nobestmove") => return Ok((None, thought)),
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc_ms: u64) -> Option<SideClock> {
        Some(SideClock {
            time: Duration::from_millis(ms),
            inc: Duration::from_millis(inc_ms),
        })
    }

    #[test]
    fn clock_text_round_trips() {
        let tc = TimeControl::parse_clock("0.3125+0.003").unwrap();
        assert_eq!(
            tc,
            TimeControl::Clock {
                base: Duration::from_micros(312_500),
                inc: Duration::from_millis(3),
            }
        );
        assert_eq!(tc.to_string(), "0.3125+0.003");
        assert_eq!(TimeControl::parse_clock("10").unwrap().to_string(), "10+0");
        assert_eq!(TimeControl::MoveTime(100).to_string(), "0.1/move");
        for bad in ["", "x+1", "1+y", "-1+0", "1+-0.1", "inf+0"] {
            assert!(TimeControl::parse_clock(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn engine_spec_takes_its_own_control() {
        let spec = EngineSpec::parse("name=a,tc=0.3125+0.003").unwrap();
        assert_eq!(spec.tc, TimeControl::parse_clock("0.3125+0.003").ok());
        let spec =
            EngineSpec::parse("name=fsf,cmd=/usr/games/fairy-stockfish,tc=10+0.1,option.Threads=1")
                .unwrap();
        assert_eq!(spec.tc.unwrap().to_string(), "10+0.1");
        assert_eq!(spec.options.len(), 2, "{:?}", spec.options);
        assert_eq!(
            EngineSpec::parse("nodes=5000").unwrap().tc,
            Some(TimeControl::Nodes(5000))
        );
        assert_eq!(
            EngineSpec::parse("depth=7").unwrap().tc,
            Some(TimeControl::Depth(7))
        );
        assert_eq!(
            EngineSpec::parse("movetime=250").unwrap().tc,
            Some(TimeControl::MoveTime(250))
        );
        assert_eq!(EngineSpec::parse("name=b").unwrap().tc, None);
        assert!(EngineSpec::parse("tc=fast").is_err());
        assert!(EngineSpec::parse("nodes=many").is_err());
    }

    #[test]
    fn go_sends_each_side_its_own_clock() {
        // Red (ours) at 0.3125 s + 0.003 s, black (Fairy-Stockfish) at 10 s + 0.1 s.
        let red = TimeControl::parse_clock("0.3125+0.003").unwrap();
        let black = TimeControl::parse_clock("10+0.1").unwrap();
        let clocks = [red.start_clock(), black.start_clock()];
        assert_eq!(clocks[0].unwrap().time, Duration::from_micros(312_500));
        assert_eq!(clocks[1], clock(10_000, 100));
        let uci = "go wtime 312 winc 3 btime 10000 binc 100";
        assert_eq!(go_command(0, &red, clocks, false), uci);
        assert_eq!(go_command(1, &black, clocks, false), uci);
        assert_eq!(
            go_command(0, &red, clocks, true),
            "go time 312 increment 3 opptime 10000 oppincrement 100"
        );
        assert_eq!(
            go_command(1, &black, clocks, true),
            "go time 10000 increment 100 opptime 312 oppincrement 3"
        );
    }

    #[test]
    fn go_against_a_side_without_a_clock() {
        // Red on a clock, black at fixed nodes: red is told its own clock only.
        let red = TimeControl::parse_clock("1+0.01").unwrap();
        let black = TimeControl::Nodes(20_000);
        let clocks = [red.start_clock(), black.start_clock()];
        assert_eq!(go_command(0, &red, clocks, false), "go wtime 1000 winc 10");
        assert_eq!(
            go_command(0, &red, clocks, true),
            "go time 1000 increment 10"
        );
        assert_eq!(go_command(1, &black, clocks, false), "go nodes 20000");
        assert_eq!(
            go_command(1, &TimeControl::MoveTime(50), [None, None], true),
            "go movetime 50"
        );
        assert_eq!(
            go_command(1, &TimeControl::Depth(9), [None, None], false),
            "go depth 9"
        );
    }
}

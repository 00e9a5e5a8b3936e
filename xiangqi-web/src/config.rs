//! The server's limits and settings, each with a command-line flag and a documented default.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use xiangqi_nnue::{EvalChoice, LoadError, Network};

/// Settings of one server instance. [`Config::default`] gives the documented defaults;
/// the binary reads them from its flags (`xiangqi-web --help`).
#[derive(Clone, Debug, clap::Parser)]
#[command(
    name = "xiangqi-web",
    version,
    about = "The xiangqi web board and the JSON/HTTP engine service"
)]
pub struct Config {
    /// Address to listen on (loopback unless told otherwise).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// Open the page in the default browser once the server listens.
    #[arg(long)]
    pub open: bool,
    /// Searches that run at once; each has its own engine (and transposition table) from a
    /// fixed pool. 0: one per CPU.
    #[arg(long, default_value_t = 0)]
    pub searches: usize,
    /// Transposition table per pooled engine, in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash_mb: usize,
    /// Search requests that may wait for an engine; beyond that a request gets 503.
    #[arg(long, default_value_t = 64)]
    pub queue: usize,
    /// The longest a request waits in the queue, in milliseconds, before it gets 503.
    #[arg(long, default_value_t = 10_000)]
    pub queue_wait_ms: u64,
    /// The longest search per engine-move request, in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    pub max_movetime_ms: u64,
    /// The longest analysis stream, in milliseconds (an analysis without limits ends then).
    #[arg(long, default_value_t = 300_000)]
    pub max_analysis_ms: u64,
    /// The deepest search a request may ask for, in plies.
    #[arg(long, default_value_t = 64)]
    pub max_depth: u32,
    /// The most nodes a request may ask for.
    #[arg(long, default_value_t = 100_000_000)]
    pub max_nodes: u64,
    /// The most moves a game in a request may have.
    #[arg(long, default_value_t = 1_000)]
    pub max_moves: usize,
    /// The most MultiPV lines a request may ask for.
    #[arg(long, default_value_t = 5)]
    pub max_multipv: usize,
    /// Analysis streams open at once per client address.
    #[arg(long, default_value_t = 4)]
    pub max_streams_per_client: usize,
    /// The longest a client may take to send a request's headers, in milliseconds (then the
    /// connection is closed: slow clients cannot hold connections open for nothing).
    #[arg(long, default_value_t = 10_000)]
    pub header_timeout_ms: u64,
    /// The largest request body, in bytes (record uploads included).
    #[arg(long, default_value_t = 1 << 20)]
    pub max_body_bytes: usize,
    /// A net for the engines instead of the built-in one (read and checked at start-up).
    #[arg(long, value_name = "PATH", value_parser = NetFile::load)]
    pub eval_file: Option<NetFile>,
    /// Search with the hand-written evaluator instead of the net.
    #[arg(long, conflicts_with = "eval_file")]
    pub classical_eval: bool,
    /// The endgame tables' folder [default: `$XIANGQI_EGTB_DIR`, else the user's cache
    /// folder, `~/.cache/xiangqi/egtb`]. The starter set (one attacking piece against every
    /// defence) is generated there in the background when it is missing.
    #[arg(long, value_name = "DIR")]
    pub egtb_dir: Option<PathBuf>,
    /// No endgame tables (and nothing generated).
    #[arg(long, conflicts_with = "egtb_dir")]
    pub no_egtb: bool,
    /// Use the tables' folder as it is: do not generate the missing starter tables.
    #[arg(long)]
    pub no_egtb_generate: bool,
}

/// A net read from a file (`--eval-file`), with the path it came from.
#[derive(Clone, Debug)]
pub struct NetFile {
    /// Where the net was read from.
    pub path: PathBuf,
    /// The net, shared by every engine of the pool.
    pub network: Arc<Network>,
}

impl NetFile {
    /// Reads and checks the net at `path`.
    ///
    /// # Errors
    /// The file cannot be read or is not a net of this architecture ([`LoadError`]).
    pub fn load(path: &str) -> Result<NetFile, LoadError> {
        Ok(NetFile {
            path: PathBuf::from(path),
            network: Arc::new(Network::load(path)?),
        })
    }
}

impl Default for Config {
    fn default() -> Config {
        clap::Parser::parse_from(["xiangqi-web"])
    }
}

impl Config {
    /// The number of pooled engines: `searches`, or one per CPU when it is 0.
    pub fn pool_size(&self) -> usize {
        if self.searches > 0 {
            self.searches
        } else {
            std::thread::available_parallelism().map_or(2, usize::from)
        }
    }

    /// The evaluator the engines search with: the hand-written one with
    /// [`Config::classical_eval`], else the net of [`Config::eval_file`] or the built-in net.
    pub fn evaluator(&self) -> EvalChoice {
        match (&self.eval_file, self.classical_eval) {
            (_, true) => EvalChoice::classical(),
            (Some(file), false) => EvalChoice::with_network(Arc::clone(&file.network)),
            (None, false) => EvalChoice::default(),
        }
    }

    /// The endgame tables' folder: [`Config::egtb_dir`] or [`xiangqi_egtb::default_dir`];
    /// `None` with [`Config::no_egtb`].
    pub fn egtb_folder(&self) -> Option<PathBuf> {
        if self.no_egtb {
            None
        } else {
            Some(
                self.egtb_dir
                    .clone()
                    .unwrap_or_else(xiangqi_egtb::default_dir),
            )
        }
    }

    /// What a request may ask for under these settings.
    pub fn limits(&self) -> xiangqi_service::RequestLimits {
        xiangqi_service::RequestLimits {
            max_movetime_ms: self.max_movetime_ms,
            max_analysis_ms: self.max_analysis_ms,
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            max_moves: self.max_moves,
            max_multipv: self.max_multipv,
        }
    }

    /// [`Config::max_movetime_ms`] as a duration.
    pub fn max_movetime(&self) -> Duration {
        Duration::from_millis(self.max_movetime_ms)
    }

    /// [`Config::max_analysis_ms`] as a duration.
    pub fn max_analysis(&self) -> Duration {
        Duration::from_millis(self.max_analysis_ms)
    }
}

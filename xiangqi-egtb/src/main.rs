//! `xiangqi-egtb`: generate, verify and probe xiangqi endgame tablebases from the command line.

use clap::{Parser, Subcommand};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use xiangqi_core::Position;
use xiangqi_egtb::{
    generate_into, set1, set2, set3, table_path, verify_table_with, Dtm, Event, Material,
    TableStats, Tablebase,
};

#[derive(Parser)]
#[command(
    name = "xiangqi-egtb",
    version,
    about = "Xiangqi endgame tablebases (残局库): generate, verify, probe"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate endings (and every smaller table they need) into a folder.
    Generate {
        /// The folder of tables.
        #[arg(long)]
        dir: PathBuf,
        /// A whole set: 1 (one attacker against none, 324 tables), 2 (two attackers
        /// without defenders against every defence, 90 tables) or 3 (one attacker on
        /// each side with at most two advisors and elephants in all, 126 tables, under
        /// the perpetual-check rule).
        #[arg(long)]
        set: Vec<u8>,
        /// Regenerate the named endings even if their files exist.
        #[arg(long)]
        force: bool,
        /// Worker threads (default: every core).
        #[arg(long, short = 'j')]
        threads: Option<usize>,
        /// Endings by name, strong side first: krkaa, knkb, kcpk (n or h for the horse,
        /// b or e for the elephant).
        endings: Vec<String>,
    },
    /// Read FENs from standard input; print each with win/draw/loss for the side to move
    /// and the distance to mate in plies (`-` for a draw or a position without a table:
    /// then the result is `none`).
    Probe {
        /// The folder of tables.
        #[arg(long)]
        dir: PathBuf,
    },
    /// Every legal move of a position with its value for the mover, best first.
    Moves {
        /// The folder of tables.
        #[arg(long)]
        dir: PathBuf,
        /// The position.
        fen: String,
    },
    /// Check that every position's value is the best over its moves (core rules).
    Verify {
        /// The folder of tables.
        #[arg(long)]
        dir: PathBuf,
        /// Check every n-th index only (1: all).
        #[arg(long, default_value_t = 1)]
        step: u64,
        /// Worker threads (default: every core).
        #[arg(long, short = 'j')]
        threads: Option<usize>,
        /// Endings to check (default: every table in the folder).
        endings: Vec<String>,
    },
    /// Random positions of an ending with a given result for the side to move (red, the
    /// strong side), one FEN a line: openings for matches, exercises for the trainer.
    Random {
        /// The folder of tables.
        #[arg(long)]
        dir: PathBuf,
        /// The ending (`krkaabb`).
        ending: String,
        /// win, draw or loss (for red, to move).
        #[arg(long, default_value = "win")]
        result: String,
        /// How many positions.
        #[arg(long, default_value_t = 1)]
        count: u64,
        /// Only positions at least this many plies from mate.
        #[arg(long, default_value_t = 0)]
        min_plies: u16,
        /// Only positions at most this many plies from mate.
        #[arg(long, default_value_t = u16::MAX)]
        max_plies: u16,
        /// The first seed (each position takes the next).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Values by the perpetual-check rule: `any`, `only` or `none`.
        #[arg(long, default_value = "any")]
        rule: String,
    },
    /// Play out the tables' line from random positions decided by the perpetual-check
    /// rule until the game ends, and check that the repetition judge of `xiangqi-core`
    /// gives the tables' result.
    Playout {
        /// The folder of tables.
        #[arg(long)]
        dir: PathBuf,
        /// Positions per ending (half with red to move, half with black).
        #[arg(long, default_value_t = 20)]
        count: u64,
        /// The first seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The losing side plays random legal moves instead of the tables' best.
        #[arg(long)]
        random_defence: bool,
        /// Endings (default: every table in the folder with the rule's values).
        endings: Vec<String>,
    },
    /// Compare another generator's values with ours, position by position: dumps of
    /// `FEN<TAB>VALUE[<TAB>NOTE]` lines (VALUE `win N`, `loss N`, `draw`, `win rule`,
    /// `loss rule`), from files or standard input (`-` or none). Prints the counts of each
    /// class of disagreement, the matrix of their values against ours and the first
    /// examples; exit status 1 on any disagreement.
    Compare {
        /// The folder of our tables.
        #[arg(long)]
        dir: PathBuf,
        /// Examples printed for each class.
        #[arg(long, default_value_t = 10)]
        examples: usize,
        /// Write every disagreement to PREFIX.DUMP.CLASS.tsv.
        #[arg(long, value_name = "PREFIX")]
        write: Option<String>,
        /// The dumps (`-`: standard input; none: standard input).
        dumps: Vec<String>,
    },
    /// The statistics of every table in a folder as a Markdown table.
    Stats {
        /// The folder of tables.
        #[arg(long)]
        dir: PathBuf,
    },
}

fn parse_endings(names: &[String]) -> Result<Vec<Material>, String> {
    names
        .iter()
        .map(|n| n.parse::<Material>().map_err(|e| e.to_string()))
        .collect()
}

fn threads(n: Option<usize>) {
    if let Some(n) = n {
        // Only fails when the pool was built already, which it was not.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global();
    }
}

fn millions(n: u64) -> String {
    format!("{:.1} M", n as f64 / 1e6)
}

/// Compare one dump (`-`: standard input) and print its report; whether any position
/// disagrees.
fn compare_dump(
    tb: &Tablebase,
    dump: &str,
    examples: usize,
    write: Option<&str>,
) -> Result<bool, Box<dyn std::error::Error>> {
    use xiangqi_egtb::{Class, Comparison};
    let reader: Box<dyn BufRead> = if dump == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::io::BufReader::new(
            std::fs::File::open(dump).map_err(|e| format!("{dump}: {e}"))?,
        ))
    };
    let name = if dump == "-" { "standard input" } else { dump };
    let stem = std::path::Path::new(dump)
        .file_stem()
        .map_or("stdin".to_string(), |s| s.to_string_lossy().into_owned());
    let mut files: Vec<(Class, std::io::BufWriter<std::fs::File>)> = Vec::new();
    let mut c = Comparison::new(examples);
    let started = Instant::now();
    let mut last = Instant::now();
    for line in reader.lines() {
        let line = line.map_err(|e| format!("{name}: {e}"))?;
        let d = c.line(tb, &line).map_err(|e| format!("{name}: {e}"))?;
        if let (Some(d), Some(prefix)) = (d, write) {
            let k = match files.iter().position(|(class, _)| *class == d.class) {
                Some(k) => k,
                None => {
                    let path = format!("{prefix}.{stem}.{}.tsv", d.class.short());
                    let f = std::fs::File::create(&path).map_err(|e| format!("{path}: {e}"))?;
                    files.push((d.class, std::io::BufWriter::new(f)));
                    files.len() - 1
                }
            };
            let ours = d.ours.map_or("none".to_string(), |v| v.to_string());
            writeln!(files[k].1, "{}\t{}\t{ours}\t{}", d.fen, d.theirs, d.note)?;
        }
        if last.elapsed().as_secs() >= 10 {
            last = Instant::now();
            eprintln!(
                "    {name}: {} positions, {:.2} M/s, {} disagree",
                c.total,
                c.total as f64 / started.elapsed().as_secs_f64() / 1e6,
                c.disagreements()
            );
        }
    }
    for (_, f) in &mut files {
        f.flush()?;
    }
    print!("{}", c.report(name));
    Ok(c.disagreements() > 0)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("xiangqi-egtb: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(command: Command) -> Result<ExitCode, Box<dyn std::error::Error>> {
    match command {
        Command::Generate {
            dir,
            set,
            force,
            threads: t,
            endings,
        } => {
            threads(t);
            let mut wanted = parse_endings(&endings)?;
            for s in set {
                match s {
                    1 => wanted.extend(set1()),
                    2 => wanted.extend(set2()),
                    3 => wanted.extend(set3()),
                    other => return Err(format!("no set {other}: sets are 1, 2 and 3").into()),
                }
            }
            if wanted.is_empty() {
                return Err("name endings or a --set".into());
            }
            let started = Instant::now();
            let mut done_positions = 0u64;
            let mut table_start = Instant::now();
            let mut remaining_after = 0u64;
            let stats = generate_into(&dir, &wanted, force, &mut |event| match event {
                Event::Kept(m) => eprintln!("{m}: already in {}", dir.display()),
                Event::Start {
                    material,
                    number,
                    of,
                    size,
                    remaining,
                } => {
                    table_start = Instant::now();
                    remaining_after = remaining - size;
                    eprintln!(
                        "[{}/{of}] {material} ({}): {} positions a side",
                        number + 1,
                        material.chinese_name(),
                        millions(size)
                    );
                }
                Event::Round(p) => {
                    if table_start.elapsed().as_secs() >= 5 && p.round % 8 == 0 {
                        eprintln!("    round {} (mates in {} plies)", p.round, p.round);
                    }
                }
                Event::Done(s) => {
                    done_positions += s.index_size;
                    let rate = done_positions as f64 / started.elapsed().as_secs_f64().max(1e-9);
                    let left = remaining_after as f64 / rate;
                    eprintln!(
                        "    {}: {:.1} s, {:.2} M positions/s, longest mate {} plies, {} KiB; \
                         {} positions a side left, about {:.0} s",
                        s.name,
                        s.seconds,
                        2.0 * s.index_size as f64 / s.seconds.max(1e-9) / 1e6,
                        s.red.longest.max(s.black.longest),
                        s.file_bytes / 1024,
                        millions(remaining_after),
                        left
                    );
                }
            })?;
            eprintln!(
                "generated {} tables in {:.1} s into {}",
                stats.len(),
                started.elapsed().as_secs_f64(),
                dir.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Probe { dir } => {
            let tb = Tablebase::open(&dir)?;
            let stdin = std::io::stdin();
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let mut failed = false;
            for line in stdin.lock().lines() {
                let line = line?;
                let fen = line.trim();
                if fen.is_empty() {
                    continue;
                }
                match Position::from_fen(fen)
                    .map_err(|e| e.to_string())
                    .and_then(|p| tb.probe_dtm(&p).map_err(|e| e.to_string()))
                {
                    Ok(Some(d)) => {
                        let plies = match d.plies() {
                            Some(n) => n.to_string(),
                            None if d.is_by_rule() => "rule".to_string(),
                            None => "-".to_string(),
                        };
                        writeln!(out, "{fen}\t{}\t{plies}", d.wdl())?;
                    }
                    Ok(None) => writeln!(out, "{fen}\tnone\t-")?,
                    Err(e) => {
                        failed = true;
                        writeln!(out, "{fen}\terror\t{e}")?;
                    }
                }
            }
            out.flush()?;
            Ok(if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Compare {
            dir,
            examples,
            write,
            dumps,
        } => {
            let tb = Tablebase::open(&dir)?;
            let dumps = if dumps.is_empty() {
                vec!["-".to_string()]
            } else {
                dumps
            };
            let mut differ = false;
            for dump in dumps {
                differ |= compare_dump(&tb, &dump, examples, write.as_deref())?;
            }
            Ok(if differ {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Moves { dir, fen } => {
            let tb = Tablebase::open(&dir)?;
            let pos = Position::from_fen(&fen)?;
            let Some(moves) = tb.probe_moves(&pos)? else {
                println!("no table for {}", Material::of(&pos));
                return Ok(ExitCode::from(1));
            };
            let here = tb.probe_dtm(&pos)?.expect("probed above");
            match here {
                Dtm::WinByRule(r) | Dtm::LossByRule(r) => println!("{fen}: {here} (rank {r})"),
                _ => println!("{fen}: {here}"),
            }
            for m in moves {
                let text = pos.to_chinese(m.mv);
                let v = m.value.map_or("no table".to_string(), |v: Dtm| match v {
                    Dtm::WinByRule(r) | Dtm::LossByRule(r) => format!("{v} (rank {r})"),
                    v => v.to_string(),
                });
                println!("{}\t{text}\t{v}", m.mv);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify {
            dir,
            step,
            threads: t,
            endings,
        } => {
            threads(t);
            let tb = Tablebase::open(&dir)?;
            let endings = if endings.is_empty() {
                tb.materials()
            } else {
                parse_endings(&endings)?
            };
            let mut bad = 0;
            // Indices (both sides to move each) of every table to check, for the time left.
            let total: u64 = endings
                .iter()
                .map(|m| xiangqi_egtb::Layout::new(m.canonical()).size())
                .sum();
            let all_started = Instant::now();
            let mut done_before = 0u64;
            let of = endings.len();
            for (number, m) in endings.into_iter().enumerate() {
                let started = Instant::now();
                let data = load(&dir, m)?;
                let size = data.size();
                // A progress line every 10 s at most: this table's share, the rate over
                // the whole run, the time left for every table still to check.
                let last = std::sync::Mutex::new(Instant::now());
                let progress = |done: u64| {
                    let mut last = last.lock().expect("no panic holds the lock");
                    if last.elapsed().as_secs() < 10 {
                        return;
                    }
                    *last = Instant::now();
                    let all = done_before + done;
                    let rate = all as f64 / all_started.elapsed().as_secs_f64().max(1e-9);
                    eprintln!(
                        "    [{}/{of}] {m}: {:.0} % ({} of {} indices), {:.2} M indices/s, \
                         about {:.0} s left for this table, {:.0} s in all",
                        number + 1,
                        100.0 * done as f64 / size.max(1) as f64,
                        millions(done),
                        millions(size),
                        rate / 1e6,
                        (size - done.min(size)) as f64 / rate,
                        total.saturating_sub(all) as f64 / rate
                    );
                };
                let r = verify_table_with(&data, &tb, step, &progress)?;
                done_before += size;
                let seconds = started.elapsed().as_secs_f64();
                println!(
                    "{}: {} positions checked, {} wrong ({:.1} s, {:.2} M positions/s)",
                    r.name,
                    r.checked,
                    r.mismatches,
                    seconds,
                    r.checked as f64 / seconds.max(1e-9) / 1e6
                );
                if number + 1 < of {
                    let rate = done_before as f64 / all_started.elapsed().as_secs_f64().max(1e-9);
                    eprintln!(
                        "    [{}/{of}] done; {} indices left, about {:.0} s",
                        number + 1,
                        millions(total - done_before),
                        (total - done_before) as f64 / rate
                    );
                }
                for e in &r.examples {
                    println!("    {e}");
                }
                bad += r.mismatches;
            }
            Ok(if bad == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Random {
            dir,
            ending,
            result,
            count,
            min_plies,
            max_plies,
            seed,
            rule,
        } => {
            let tb = Tablebase::open(&dir)?;
            let m: Material = ending.parse()?;
            let want = match result.as_str() {
                "win" => xiangqi_egtb::Wdl::Win,
                "draw" => xiangqi_egtb::Wdl::Draw,
                "loss" => xiangqi_egtb::Wdl::Loss,
                other => return Err(format!("result {other:?}: win, draw or loss").into()),
            };
            let rule_ok = match rule.as_str() {
                "any" => |_: Dtm| true,
                "only" => |d: Dtm| d.is_by_rule(),
                "none" => |d: Dtm| !d.is_by_rule(),
                other => return Err(format!("rule {other:?}: any, only or none").into()),
            };
            let fits = |d: Dtm| {
                d.wdl() == want
                    && rule_ok(d)
                    && d.plies().is_none_or(|p| p >= min_plies && p <= max_plies)
            };
            let mut found = 0;
            let mut s = seed;
            while found < count && s < seed + 1000 * count.max(1) {
                if let Some(pos) = tb.random_position(m, fits, s)? {
                    println!("{}", pos.fen());
                    found += 1;
                }
                s += 1;
            }
            Ok(if found == count {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Playout {
            dir,
            count,
            seed,
            random_defence,
            endings,
        } => {
            let tb = Tablebase::open(&dir)?;
            let endings = if endings.is_empty() {
                tb.materials()
                    .into_iter()
                    .filter(|&m| tb.rules(m) == Some(xiangqi_egtb::Rules::Asian))
                    .collect()
            } else {
                parse_endings(&endings)?
            };
            let mut total = 0u64;
            let mut wrong = 0u64;
            for m in endings {
                let mut reasons: std::collections::BTreeMap<String, u64> = Default::default();
                let (mut lines, mut agree, mut longest) = (0u64, 0u64, 0usize);
                for k in 0..count {
                    let side = if k % 2 == 0 {
                        xiangqi_core::Color::Red
                    } else {
                        xiangqi_core::Color::Black
                    };
                    let Some(pos) =
                        tb.random_position_to_move(m, side, Dtm::is_by_rule, seed + k)?
                    else {
                        continue;
                    };
                    let defence = if random_defence {
                        xiangqi_egtb::Defence::Random(seed + k)
                    } else {
                        xiangqi_egtb::Defence::Best
                    };
                    let Some(line) = xiangqi_egtb::play_out_with(&tb, &pos, 2000, defence)? else {
                        continue;
                    };
                    lines += 1;
                    longest = longest.max(line.moves.len());
                    let reason = match &line.outcome {
                        Some(o) => match &o.reason {
                            xiangqi_core::GameEndReason::Repetition(v) => match v.loser() {
                                Some(_) => "perpetual check".to_string(),
                                None => "repetition draw".to_string(),
                            },
                            r => format!("{r:?}").to_lowercase(),
                        },
                        None => "unfinished".to_string(),
                    };
                    *reasons.entry(reason).or_default() += 1;
                    if line.agrees() {
                        agree += 1;
                    } else {
                        let moves: Vec<String> = line.moves.iter().map(|m| m.to_string()).collect();
                        println!(
                            "    {}: table {}, game {}: {}",
                            pos.fen(),
                            line.value,
                            line.outcome.map_or("unfinished".into(), |o| o.to_string()),
                            moves.join(" ")
                        );
                    }
                }
                let reasons: Vec<String> =
                    reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
                println!(
                    "{m}: {lines} lines, {agree} agree ({}), longest {longest} plies",
                    reasons.join(", ")
                );
                total += lines;
                wrong += lines - agree;
            }
            println!("{total} lines, {wrong} disagree");
            Ok(if wrong == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Stats { dir } => {
            let tb = Tablebase::open(&dir)?;
            println!("| ending | 中文 | positions (red/black to move) | red to move W/D/L | black to move W/D/L | by the rule: red W/L, black W/L | longest mate (plies) | a position with it | s | KiB |");
            println!("|---|---|---|---|---|---|---|---|---|---|");
            for m in tb.materials() {
                let json = table_path(&dir, m).with_extension("json");
                let text = std::fs::read_to_string(&json)?;
                let s: TableStats = serde_json::from_str(&text)?;
                let (longest, fen) = if s.red.longest >= s.black.longest {
                    (s.red.longest, s.red.longest_fen.clone())
                } else {
                    (s.black.longest, s.black.longest_fen.clone())
                };
                println!(
                    "| {} | {} | {} / {} | {}/{}/{} | {}/{}/{} | {}/{}, {}/{} | {} | `{}` | {:.1} | {} |",
                    s.name,
                    s.chinese,
                    s.red.positions,
                    s.black.positions,
                    s.red.wins,
                    s.red.draws,
                    s.red.losses,
                    s.black.wins,
                    s.black.draws,
                    s.black.losses,
                    s.red.wins_by_rule,
                    s.red.losses_by_rule,
                    s.black.wins_by_rule,
                    s.black.losses_by_rule,
                    longest,
                    fen.unwrap_or_default(),
                    s.seconds,
                    s.file_bytes / 1024
                );
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn load(
    dir: &std::path::Path,
    m: Material,
) -> Result<xiangqi_egtb::TableData, Box<dyn std::error::Error>> {
    Ok(xiangqi_egtb::TableData::load(&table_path(
        dir,
        m.canonical(),
    ))?)
}

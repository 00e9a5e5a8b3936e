//! Reads record files of any format and prints what is in them, for scripts and for
//! checking files; converts them with `--to`.
//!
//! ```text
//! cargo run --release -p xiangqi-records --example records -- [--strict] [--to pgn|xqf|ubb|cbf OUT] FILE...
//! ```
//!
//! Per game one block: `file:`, `game:`, `format:`, `encoding:`, each tag as `tag: NAME =
//! VALUE`, `fen:`, `main:` (the main line in ICCS on one line), `lines:` (leaves of the
//! tree), `nodes:` (moves in the tree), `comments:`, `ecco: CODE NAME`, then each warning
//! of the file as `warning: ...`. Exit status 0 when every file loaded (warnings allowed),
//! 1 otherwise; `--strict` makes a warning a failure. With `--to`, every game read is
//! written to OUT (formats holding one game per file write OUT, OUT.2, OUT.3, ...).

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

/// Appends a line to the report (written to standard output file by file).
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {
        {
            let _ = writeln!($out, $($arg)*);
        }
    };
}
use xiangqi_records::{cbf, ecco, pgn, ubb, xqf, Options, Record};

fn usage() -> ExitCode {
    eprintln!("usage: records [--strict] [--to pgn|xqf|ubb|cbf OUT] FILE...");
    ExitCode::from(2)
}

/// Writes `records` as `to` into `out`.
fn convert(records: &[Record], to: &str, out: &str) -> Result<(), String> {
    let files: Vec<Vec<u8>> = match to {
        "pgn" => vec![pgn::write_records(records, &pgn::WriteOptions::default()).into_bytes()],
        "xqf" => records.iter().map(xqf::write).collect(),
        "ubb" => vec![records
            .iter()
            .map(ubb::write)
            .collect::<Vec<_>>()
            .join("\n")
            .into_bytes()],
        "cbf" => records.iter().map(|r| cbf::write(r).into_bytes()).collect(),
        _ => return Err(format!("unknown format {to:?} (pgn, xqf, ubb, cbf)")),
    };
    for (i, bytes) in files.iter().enumerate() {
        let path = if i == 0 {
            out.to_string()
        } else {
            format!("{out}.{}", i + 1)
        };
        std::fs::write(&path, bytes).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(())
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut strict = false;
    let mut to: Option<(String, String)> = None;
    let mut files = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--strict" => strict = true,
            "--to" => match (args.next(), args.next()) {
                (Some(f), Some(o)) => to = Some((f, o)),
                _ => return usage(),
            },
            "-h" | "--help" => return usage(),
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        return usage();
    }
    let options = Options {
        strict,
        ..Options::default()
    };
    let mut ok = true;
    let mut all = Vec::new();
    for file in &files {
        let mut out = String::new();
        report(file, &options, &mut out, &mut ok, &mut all);
        if std::io::stdout().write_all(out.as_bytes()).is_err() {
            // The reader went away (`| head`): stop quietly.
            return ExitCode::from(if ok { 0 } else { 1 });
        }
    }
    if let Some((format, out)) = to {
        if let Err(e) = convert(&all, &format, &out) {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Reads one file and reports its games into `out`.
fn report(file: &str, options: &Options, out: &mut String, ok: &mut bool, all: &mut Vec<Record>) {
    {
        let bytes = match std::fs::read(file) {
            Ok(b) => b,
            Err(e) => {
                say!(out, "file: {file}\nerror: {e}\n");
                *ok = false;
                return;
            }
        };
        let loaded = match xiangqi_records::read_with(&bytes, options) {
            Ok(l) => l,
            Err(e) => {
                say!(out, "file: {file}\nerror: {e}\n");
                *ok = false;
                return;
            }
        };
        for (r, &i) in loaded.records.iter().zip(&loaded.games) {
            say!(out, "file: {file}");
            say!(out, "game: {}", i + 1);
            say!(out, "format: {}", loaded.format);
            say!(out, "encoding: {}", loaded.encoding);
            for (n, v) in &r.tags {
                say!(out, "tag: {n} = {v}");
            }
            say!(out, "result: {}", r.result);
            say!(out, "fen: {}", r.tree.start().fen());
            let main: Vec<String> = r
                .tree
                .main_line_moves()
                .iter()
                .map(|m| m.to_string())
                .collect();
            say!(out, "main: {}", main.join(" "));
            say!(out, "lines: {}", r.tree.leaf_count());
            say!(out, "nodes: {}", r.tree.move_count());
            say!(out, "comments: {}", r.tree.comment_count());
            match ecco::classify(&r.tree) {
                Some(o) => say!(out, "ecco: {} {}", o.code, o.name),
                None => say!(out, "ecco: -"),
            }
            for w in loaded.warnings.iter().filter(|w| w.place.game == i) {
                say!(out, "warning: {w}");
            }
            say!(out,);
        }
        // Warnings of games that did not load (a bad FEN).
        for w in loaded
            .warnings
            .iter()
            .filter(|w| !loaded.games.contains(&w.place.game))
        {
            say!(out, "file: {file}\nwarning: {w}\n");
        }
        // Converted files carry the opening's code and name.
        all.extend(loaded.records.into_iter().map(|mut r| {
            if r.tag("ECCO").is_none() {
                ecco::tag(&mut r);
            }
            r
        }));
    }
}

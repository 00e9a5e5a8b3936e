//! Data generation is reproducible: the same seed gives the same file with any number of
//! threads, and every record reads back as a legal, quiet position.

use std::time::Duration;
use xiangqi_nnue::data::{DataReader, DataWriter, Source};
use xiangqi_nnue::datagen::{self, GenConfig};
use xiangqi_search::Searcher;

fn self_play_file(threads: usize, seed: u64) -> Vec<u8> {
    let config = GenConfig {
        nodes: 300,
        threads,
        seed,
        max_plies: 120,
        ..GenConfig::default()
    };
    let mut out = DataWriter::new(Vec::new()).unwrap();
    let summary = datagen::run(
        0..6,
        &config,
        Searcher::new,
        |s, g| datagen::self_play_game(s, &config, g),
        &mut out,
        &mut std::io::sink(),
        Duration::from_secs(60),
    )
    .unwrap();
    assert_eq!(summary.games, 6);
    assert!(summary.written > 50, "{summary:?}");
    out.finish().unwrap()
}

#[test]
fn the_same_seed_gives_the_same_file_with_any_thread_count() {
    let one = self_play_file(1, 7);
    let two = self_play_file(2, 7);
    assert!(
        one == two,
        "1 thread: {} bytes, 2 threads: {} bytes",
        one.len(),
        two.len()
    );
    assert_ne!(one, self_play_file(2, 8), "another seed, other games");

    let mut keys = std::collections::HashSet::new();
    for sample in DataReader::new(&one[..]).unwrap() {
        let sample = sample.unwrap();
        let pos = sample.position().expect("a legal set-up");
        assert!(!pos.is_check(), "{pos}");
        assert!(keys.insert(pos.key()), "a duplicate: {pos}");
        assert_eq!(sample.source(), Source::SelfPlay);
        assert!(sample.game() < 6);
    }
}

#[test]
fn master_games_are_read_and_scored() {
    let text = "1-0\th2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h6 b9c7 b2d2 a9b9 b0c2 b7a7 e3e4\n\
                not a game\n\
                0-1\th2e2 h2e2\n";
    let (games, skipped) = datagen::read_master_games(text);
    assert_eq!((games.len(), skipped), (1, 2));
    let config = GenConfig {
        nodes: 300,
        skip_plies: 4,
        ..GenConfig::default()
    };
    let mut searcher = Searcher::new();
    let output = datagen::master_game(&mut searcher, &config, &games[0], 41);
    assert!(!output.samples.is_empty() && output.samples.len() <= 9);
    for (_, s) in &output.samples {
        assert_eq!((s.source(), s.game()), (Source::Master, 41));
        // Red won: the side to move's result follows the side to move.
        let won = s.outcome() == xiangqi_nnue::data::Outcome::Win;
        assert_eq!(won, s.side_to_move() == xiangqi_core::Color::Red);
    }
}

/// Runs the `xiangqi-nnue` command, failing the test with its output if it fails.
fn command(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xiangqi-nnue"))
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "xiangqi-nnue {args:?}: {text}");
    text
}

#[test]
fn shards_resume_and_merge_into_the_one_run_file() {
    let dir = std::env::temp_dir().join(format!("xq-datagen-shards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).display().to_string();
    let common = ["--nodes", "200", "--threads", "2", "--seed", "11"];
    let run = |extra: &[&str]| command(&[&["datagen"], &common[..], extra].concat());

    run(&["--games", "6", "--out", &path("one.bin")]);
    // Shard 0 first, then 0..3 as a resumed run: shard 0 is not made again.
    let shards = path("shards");
    run(&["--dir", &shards, "--shards", "0", "--shard-games", "2"]);
    let made_first = std::fs::metadata(dir.join("shards/shard-00000.bin"))
        .unwrap()
        .modified()
        .unwrap();
    let log = run(&["--dir", &shards, "--shards", "0..3", "--shard-games", "2"]);
    assert!(log.contains("shard 0: already made, skipped"), "{log}");
    assert!(log.contains("2 made now"), "{log}");
    let made_again = std::fs::metadata(dir.join("shards/shard-00000.bin"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(made_first, made_again);

    let log = command(&["merge", "--out", &path("merged.bin"), &shards]);
    assert!(log.contains("3 files"), "{log}");
    let one = std::fs::read(path("one.bin")).unwrap();
    let merged = std::fs::read(path("merged.bin")).unwrap();
    assert!(
        one == merged,
        "6 games in one run: {} bytes; in 3 shards, merged: {} bytes",
        one.len(),
        merged.len()
    );

    // Another seed is another run: the folder refuses it.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xiangqi-nnue"))
        .args([
            "datagen", "--nodes", "200", "--seed", "12", "--dir", &shards,
        ])
        .args(["--shards", "3", "--shard-games", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        text.contains("it says `seed: 11`, this command `seed: 12`"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

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
        6,
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

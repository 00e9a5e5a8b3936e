//! Prints the parts of the default evaluation of a FEN: `cargo run -p xiangqi-eval --example trace -- "<FEN>"`.
use xiangqi_core::Position;
use xiangqi_eval::DefaultEvaluator;

fn main() {
    let fen = std::env::args()
        .nth(1)
        .unwrap_or_else(|| xiangqi_core::START_FEN.to_string());
    match Position::from_fen(&fen) {
        Ok(pos) => println!("{:#?}", DefaultEvaluator::new().trace(&pos)),
        Err(e) => eprintln!("bad FEN: {e}"),
    }
}

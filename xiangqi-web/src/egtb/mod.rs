//! The endgame tables (`xiangqi-egtb`): opened at start-up, or, when the starter set is
//! missing from their folder, generated there first on a thread of their own while the
//! server already answers (until then the API says they are not ready). Probed by
//! `/api/v1/egtb`, listed by `/api/v1/egtb/endings`; `/api/v1/egtb/trainer` draws won
//! positions for the endgame trainer. Once open, the engine pool's searchers play with
//! them too (see [`crate::pool::Pool::set_tablebase`]).

//!
//! [`Tables`] (in `tables.rs`) keeps the tables and where they stand, which the server's state
//! holds; the routes that answer from them (`routes.rs`) sit above that state, so the two
//! import one way.

mod routes;
mod tables;

pub use routes::{routes, Generating, InfoView};
pub use tables::{english_name, Ending, Ready, Tables, TablesState, TRAINER_MIN_PLIES};

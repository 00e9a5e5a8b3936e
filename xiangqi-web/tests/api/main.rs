//! The API over real HTTP, against a server started here on an ephemeral port: every
//! endpoint, the error cases, limits and overload, a stream dropped mid-search, and the
//! outcome of a game that ends by perpetual check.
//!
//! One test binary in parts by subject (`http.rs` the calls they share).

#[path = "../common/mod.rs"]
mod common;
mod http;

mod basics;
mod egtb;
mod engine;
mod records;
mod review;

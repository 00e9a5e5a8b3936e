//! # xiangqi-service
//!
//! The requests and answers of the xiangqi engine service, without a transport. The HTTP
//! server (`xiangqi-web`) and the WebAssembly build of the same web board (`xiangqi-wasm`)
//! both answer with this code, so the page gets the same JSON from either: a request
//! carries its whole game (a start FEN and its moves in any notation), is checked against
//! [`RequestLimits`], and every problem is an [`ApiError`] naming the field at fault.
//!
//! ```
//! use xiangqi_service::{answers, json, RequestLimits};
//! let req: answers::NotationRequest =
//!     json::parse(br#"{"moves": ["h2e2", "h9g7"], "to": "chinese"}"#).unwrap();
//! let answer = answers::notation(&req, &RequestLimits::default()).unwrap();
//! assert_eq!(answer.converted.unwrap(), ["炮二平五", "马８进７"]);
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod answers;
pub mod error;
pub mod game;
pub mod json;
pub mod limits;
pub mod records;
pub mod review;
pub mod search;
pub mod view;

pub use error::ApiError;
pub use limits::RequestLimits;

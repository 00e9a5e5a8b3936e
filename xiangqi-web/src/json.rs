//! The JSON body extractor: a body that is not JSON, or JSON that does not fit the request,
//! is answered with an [`ApiError`] naming the field (by its path, `limits.nodes`) and what
//! is wrong, never with axum's plain-text rejection.

use crate::error::ApiError;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

/// A request body read as JSON into `T`.
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(req, state).await?;
        parse(&bytes).map(ApiJson)
    }
}

/// Reads `bytes` as JSON into `T`, with errors naming the field.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_json",
            "the request body is empty: send a JSON object",
        ));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value: Result<T, _> = serde_path_to_error::deserialize(&mut de);
    if value.is_ok() {
        // Trailing garbage after the object.
        de.end().map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_json",
                format!("the request body is not JSON: {e}"),
            )
        })?;
    }
    value.map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if inner.is_data() {
            let field = if path == "." { None } else { Some(path) };
            let e = ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "bad_field",
                inner.to_string(),
            );
            match field {
                Some(f) => e.field(f),
                None => e,
            }
        } else {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_json",
                format!("the request body is not JSON: {inner}"),
            )
        }
    })
}

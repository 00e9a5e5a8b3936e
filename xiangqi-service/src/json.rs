//! Request bodies read as JSON: a body that is not JSON, or JSON that does not fit the
//! request, is an [`ApiError`] naming the field by its path (`limits.nodes`) and what is wrong.

use crate::error::ApiError;
use http::StatusCode;
use serde::de::DeserializeOwned;

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

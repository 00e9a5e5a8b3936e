//! The JSON body extractor: a body that is not JSON, or JSON that does not fit the request,
//! is answered with an [`ApiError`] naming the field (by its path, `limits.nodes`) and what
//! is wrong, never with axum's plain-text rejection.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use serde::de::DeserializeOwned;
use xiangqi_service::json::parse;
use xiangqi_service::ApiError;

/// A request body read as JSON into `T`.
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(req, state).await?;
        parse(&bytes).map(ApiJson)
    }
}

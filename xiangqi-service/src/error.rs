//! Errors as the API answers them: a status and a JSON body naming the field and what is
//! wrong, `{"error": {"code": ..., "field": ..., "message": ...}}`.

use http::StatusCode;
use serde::Serialize;

/// An error answer of the API.
#[derive(Clone, Debug, Serialize)]
pub struct ApiError {
    #[serde(skip)]
    status: StatusCode,
    /// A stable, machine-readable name of the error (`bad_fen`, `illegal_move`, ...).
    code: &'static str,
    /// The request field at fault (`fen`, `moves[3]`, `limits.nodes`), if one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<String>,
    /// What is wrong, for a person.
    message: String,
    /// For a move: its index in `moves` (a `u32`, which any list a request may hold fits:
    /// an error is returned by value everywhere, so it is kept small).
    #[serde(skip_serializing_if = "Option::is_none")]
    index: Option<u32>,
    /// For an illegal move: the rule it breaks ([`xiangqi_core::IllegalReason::code`]); for
    /// a bad FEN: what is wrong with it ([`xiangqi_core::FenError::code`]). Stable codes, so
    /// that a client can say them in its own language.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    /// For a FEN whose position breaks the rules: every problem, by its stable code
    /// ([`xiangqi_core::Problems::codes`]: `generals_facing`, `missing_general`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    problems: Option<Box<[&'static str]>>,
    /// Seconds after which a refused request may be tried again (503 only).
    #[serde(skip)]
    retry_after: Option<u32>,
}

impl ApiError {
    /// An error with `status`, `code` and `message`, naming no field.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            field: None,
            message: message.into(),
            index: None,
            reason: None,
            problems: None,
            retry_after: None,
        }
    }

    /// A 422: the request is well-formed but `field` holds a value that cannot be used.
    pub fn invalid(
        code: &'static str,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message).field(field)
    }

    /// A 422 for a value over one of this server's limits.
    pub fn over_limit(
        field: &str,
        value: impl std::fmt::Display,
        limit: impl std::fmt::Display,
    ) -> ApiError {
        ApiError::invalid(
            "over_limit",
            field,
            format!("{field} is {value}, over this server's limit of {limit}"),
        )
    }

    /// A 503: every engine is busy and the wait queue is full (or the wait ran out).
    pub fn busy(retry_after: u32) -> ApiError {
        let mut e = ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            "every engine is busy and the wait queue is full: try again shortly",
        );
        e.retry_after = Some(retry_after);
        e
    }

    /// A 500 for a bug on the server's side (a panic in a request).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }

    /// The same error with a `Retry-After` of `secs` seconds.
    pub fn retry_after(mut self, secs: u32) -> ApiError {
        self.retry_after = Some(secs);
        self
    }

    /// Names the field at fault.
    pub fn field(mut self, field: impl Into<String>) -> ApiError {
        self.field = Some(field.into());
        self
    }

    /// Names the index of the move at fault.
    pub fn index(mut self, index: usize) -> ApiError {
        self.index = Some(u32::try_from(index).unwrap_or(u32::MAX));
        self
    }

    /// The same error naming the rule an illegal move breaks (`horse_leg`, ...).
    pub fn reason(mut self, reason: xiangqi_core::IllegalReason) -> ApiError {
        self.reason = Some(reason.code());
        self
    }

    /// The same error naming what is wrong with a FEN: its code, and for an illegal setup
    /// every problem's code.
    pub fn fen_problem(mut self, error: &xiangqi_core::FenError) -> ApiError {
        self.reason = Some(error.code());
        if let xiangqi_core::FenError::Setup(setup) = error {
            self.problems = Some(setup.problems.codes().into_boxed_slice());
        }
        self
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The machine-readable code.
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Seconds after which a refused request may be tried again, if it may.
    pub fn retry_seconds(&self) -> Option<u32> {
        self.retry_after
    }

    /// The answer's body, `{"error": {...}}`, as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&Body { error: self }).unwrap_or_else(|_| {
            r#"{"error":{"code":"internal","message":"unwritable error"}}"#.into()
        })
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{field}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

#[derive(Serialize)]
struct Body<'a> {
    error: &'a ApiError,
}

#[cfg(feature = "axum")]
mod answer {
    use super::ApiError;
    use axum_core::extract::rejection::BytesRejection;
    use axum_core::response::{IntoResponse, Response};
    use http::{header, HeaderValue, StatusCode};

    impl IntoResponse for ApiError {
        fn into_response(self) -> Response {
            let mut response = (
                self.status,
                [(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                )],
                self.to_json(),
            )
                .into_response();
            if let Some(secs) = self.retry_after {
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from(secs));
            }
            response
        }
    }

    impl From<BytesRejection> for ApiError {
        fn from(rejection: BytesRejection) -> ApiError {
            let status = rejection.status();
            if status == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(status, "body_too_large", rejection.body_text())
            } else {
                ApiError::new(status, "bad_body", rejection.body_text())
            }
        }
    }
}

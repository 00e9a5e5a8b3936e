//! The page's files, embedded in the binary: it works offline and from a copy of the binary.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// (path under `/assets/`, content type, bytes).
const FILES: &[(&str, &str, &[u8])] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("../static/style.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/app.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/board.js"),
    ),
    (
        "api.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/api.js"),
    ),
    (
        "i18n.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/i18n.js"),
    ),
    (
        "graph.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/graph.js"),
    ),
    (
        "record.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/record.js"),
    ),
    (
        "arrows.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/arrows.js"),
    ),
    (
        "prefs.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/prefs.js"),
    ),
    (
        "sound.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/sound.js"),
    ),
    (
        "editor.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/editor.js"),
    ),
    (
        "review.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/review.js"),
    ),
    (
        "tables.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/tables.js"),
    ),
    (
        "lines.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/lines.js"),
    ),
    (
        "files.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/files.js"),
    ),
    (
        "scores.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/scores.js"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_bytes!("../static/favicon.svg"),
    ),
];

const INDEX: &str = include_str!("../static/index.html");

/// `/`: the page.
pub async fn index() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        INDEX,
    )
        .into_response()
}

/// `/assets/{name}`: one of the page's files.
pub async fn asset(Path(name): Path<String>) -> Response {
    match FILES.iter().find(|(path, _, _)| *path == name) {
        Some((_, mime, bytes)) => (
            [
                (header::CONTENT_TYPE, *mime),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *bytes,
        )
            .into_response(),
        None => crate::error::ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no asset {name:?}"),
        )
        .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::FILES;

    /// The modules a script imports statically (`from './x.js'`), each by its file name.
    fn static_imports(text: &str) -> Vec<&str> {
        text.split("from './")
            .skip(1)
            .filter_map(|rest| rest.split('\'').next())
            .collect()
    }

    /// A module added to `static/` and imported by the page, but not listed here, would be a
    /// 404 in the served page while the static site (which copies the folder) works.
    #[test]
    fn every_module_the_page_imports_is_embedded() {
        let served: Vec<&str> = FILES.iter().map(|(name, _, _)| *name).collect();
        for (name, _, bytes) in FILES {
            let Ok(text) = std::str::from_utf8(bytes) else {
                continue;
            };
            for import in static_imports(text) {
                assert!(
                    served.contains(&import),
                    "{name} imports {import}, which is not embedded"
                );
            }
        }
        assert!(static_imports("import { a } from './tables.js';") == ["tables.js"]);
    }
}

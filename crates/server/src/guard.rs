//! What every request and answer goes through (docs/server.md, "Security"): a request's body
//! is read whole here, within its route's size limit (413 `too_large`, checked even on
//! routes that do not read a body) and within the body timeout (408 `request_timeout`); and
//! every answer, page, API, static file or error, carries the security headers.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::LengthLimitError;

use crate::error::{ApiError, Code, MAX_BODY};
use crate::{custom, records, App};

/// The Content-Security-Policy of every answer: scripts, styles, images and connections
/// (the WebSocket included) from this site only; no inline script or style (the pages have
/// none), no plugins, and no framing by any site. `'wasm-unsafe-eval'` lets a page or worker
/// compile the site's own WebAssembly module (/wasm/cohort.wasm, docs/wasm.md); it allows
/// no JavaScript eval.
pub const CSP: &str =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; \
connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The headers every answer carries.
pub const HEADERS: [(&str, &str); 4] = [
    ("content-security-policy", CSP),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "same-origin"),
    ("x-frame-options", "DENY"),
];

/// The largest body a request to `path` may have (the same limits the routes set).
pub fn body_limit(path: &str) -> usize {
    match path {
        "/api/games" | "/api/records/replay" => records::MAX_RECORD.max(custom::MAX_BODY),
        "/api/variants/check" | "/api/variants/diagram" => custom::MAX_BODY,
        p if p.starts_with("/api/games/") && p.ends_with("/analysis") => {
            crate::analysis_api::SAVED_MAX
        }
        _ => MAX_BODY,
    }
}

pub async fn guard(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let mut answer = match read_body(&app, req).await {
        Ok(req) => next.run(req).await,
        Err(e) => e,
    };
    let h = answer.headers_mut();
    for (k, v) in HEADERS {
        h.insert(k, HeaderValue::from_static(v));
    }
    answer
}

async fn read_body(app: &App, req: Request) -> Result<Request, Response> {
    if matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        // No body is read on these (a WebSocket upgrade is a GET): none is waited for.
        return Ok(req);
    }
    let limit = body_limit(req.uri().path());
    let too_large = || {
        ApiError::new(Code::TooLarge, format!("request body over {limit} bytes")).into_response()
    };
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(close(too_large()));
    }
    let (parts, body) = req.into_parts();
    let timeout = app.config.body_timeout;
    let bytes = match tokio::time::timeout(timeout, axum::body::to_bytes(body, limit)).await {
        Err(_) => {
            return Err(close(
                ApiError::new(
                    Code::RequestTimeout,
                    format!(
                        "the request body did not arrive within {} s",
                        timeout.as_secs_f64()
                    ),
                )
                .into_response(),
            ))
        }
        Ok(Err(e)) => {
            return Err(close(if over_limit(&e) {
                too_large()
            } else {
                ApiError::new(Code::BadJson, format!("unreadable request body: {e}"))
                    .into_response()
            }));
        }
        Ok(Ok(b)) => b,
    };
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// Whether reading a body failed because it passed its limit: http-body-util's
/// `LengthLimitError` somewhere in the error's source chain (`to_bytes` wraps it in an
/// `axum::Error`, and a body built on another body may wrap it again). Any other failure
/// (the client's stream broke) is an unreadable body, whatever its words say.
fn over_limit(e: &axum::Error) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(c) = cause {
        if c.is::<LengthLimitError>() {
            return true;
        }
        cause = c.source();
    }
    false
}

/// An answer after which the connection is closed (its request was not read whole).
fn close(mut r: Response) -> Response {
    r.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    r
}

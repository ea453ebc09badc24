//! The request's host checked (docs/server.md, "Security"): with `--public-origin` set, a
//! request for any other host (`Host`; behind a trusted proxy, `X-Forwarded-Host` when the
//! proxy sets it) is refused 421 `wrong_host`, so a page of a name that merely points at
//! this server (DNS rebinding) cannot read it. The loopback names (`localhost`,
//! `127.0.0.1`, `[::1]`, any port) stay allowed for checks made on the machine itself.
//! Without `--public-origin` (local use) nothing is checked.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{ApiError, Code};
use crate::App;

pub async fn check(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let Some(public) = &app.config.public_origin else {
        return next.run(req).await;
    };
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    // HTTP/2 carries the host in the URI's authority rather than in `Host`.
    let host = crate::accounts::request_host(&app, req.headers(), peer)
        .or_else(|| req.uri().authority().map(|a| a.to_string()));
    match host {
        Some(host) if allowed(public, &host) => next.run(req).await,
        host => ApiError::new(
            Code::WrongHost,
            format!(
                "this server answers for {public}, not for the host {}",
                host.as_deref().unwrap_or("(none)")
            ),
        )
        .into_response(),
    }
}

/// Whether `host` (`name[:port]`) is the public origin's host, or a loopback name.
fn allowed(public: &str, host: &str) -> bool {
    let own = public
        .strip_prefix("https://")
        .or_else(|| public.strip_prefix("http://"))
        .unwrap_or(public);
    if host.eq_ignore_ascii_case(own) {
        return true;
    }
    // The default port may be written or not.
    let default = if public.starts_with("https://") {
        ":443"
    } else {
        ":80"
    };
    if host
        .strip_suffix(default)
        .is_some_and(|h| h.eq_ignore_ascii_case(own))
        || own
            .strip_suffix(default)
            .is_some_and(|o| o.eq_ignore_ascii_case(host))
    {
        return true;
    }
    let name = match host.rsplit_once(':') {
        Some((n, port))
            if !n.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) && !n.ends_with(':') =>
        {
            n
        }
        _ => host,
    };
    matches!(
        name.to_ascii_lowercase().as_str(),
        "localhost" | "127.0.0.1" | "[::1]"
    )
}

#[cfg(test)]
mod tests {
    use super::allowed;

    #[test]
    fn the_public_host_and_loopback_names_only() {
        let p = "https://cohort.example.org";
        for ok in [
            "cohort.example.org",
            "Cohort.Example.Org",
            "cohort.example.org:443",
            "127.0.0.1:8080",
            "localhost",
            "[::1]:80",
        ] {
            assert!(allowed(p, ok), "{ok}");
        }
        for bad in [
            "evil.example",
            "cohort.example.org.evil.example",
            "cohort.example.org:8443",
            "127.0.0.1.evil.example",
            "",
            "[::1]x",
        ] {
            assert!(!allowed(p, bad), "{bad}");
        }
        assert!(allowed("http://example.org:8080", "example.org:8080"));
        assert!(!allowed("http://example.org:8080", "example.org"));
    }
}

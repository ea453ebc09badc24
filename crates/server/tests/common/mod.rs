//! Helpers shared by the API test files: requests through the router (no socket) and a
//! temporary SQLite database.
#![allow(dead_code)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use cohort_server::{router, App};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// A request through the router with a session `cookie` ("" for none): its status, body
/// (Null if not JSON) and headers.
pub async fn send(
    app: &std::sync::Arc<App>,
    method: &str,
    uri: &str,
    cookie: &str,
    body: Option<Value>,
) -> (StatusCode, Value, axum::http::HeaderMap) {
    let mut b = Request::builder().method(method).uri(uri);
    if !cookie.is_empty() {
        b = b.header("cookie", cookie);
    }
    if body.is_some() {
        b = b.header("content-type", "application/json");
    }
    let req = b
        .body(body.map_or_else(Body::empty, |v| Body::from(v.to_string())))
        .unwrap();
    let resp = router(app.clone()).oneshot(req).await.unwrap();
    let (status, headers) = (resp.status(), resp.headers().clone());
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        headers,
    )
}

/// Sign `name` up (password "<name>'s long password"): the session cookie's `name=value`.
pub async fn signup(app: &std::sync::Arc<App>, name: &str) -> String {
    let (s, v, headers) = send(
        app,
        "POST",
        "/api/account/signup",
        "",
        Some(serde_json::json!({"username": name, "password": format!("{name}'s long password")})),
    )
    .await;
    assert_eq!(s, axum::http::StatusCode::OK, "signup {name}: {v}");
    let cookie = headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("cohort_session="))
        .expect("a session cookie");
    cookie.split(';').next().unwrap().to_string()
}

pub async fn call(
    app: &std::sync::Arc<App>,
    method: &str,
    uri: &str,
    body: Body,
) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(body)
        .unwrap();
    let resp = router(app.clone()).oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, v)
}

pub async fn post(app: &std::sync::Arc<App>, uri: &str, v: Value) -> (StatusCode, Value) {
    call(app, "POST", uri, Body::from(v.to_string())).await
}

pub async fn get(app: &std::sync::Arc<App>, uri: &str) -> Value {
    let (s, v) = call(app, "GET", uri, Body::empty()).await;
    assert_eq!(s, StatusCode::OK, "GET {uri}: {v}");
    v
}

/// A fresh directory and the URL of a SQLite database in it, named after the test.
pub fn temp_db(tag: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("cohort-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}", dir.join("games.db").display());
    (dir, url)
}

/// The PostgreSQL server a PostgreSQL test runs against: the URL in COHORT_TEST_POSTGRES
/// (`scripts/postgres-up` prints one; `scripts/test` sets it). Without it the test fails,
/// naming itself, unless the caller asked to skip with COHORT_SKIP_POSTGRES=1: then it says
/// so on standard error and the test returns None (and passes without having run).
pub fn postgres_url(test: &str) -> Option<String> {
    match std::env::var("COHORT_TEST_POSTGRES") {
        Ok(url) if !url.trim().is_empty() => Some(url),
        _ if std::env::var("COHORT_SKIP_POSTGRES").as_deref() == Ok("1") => {
            eprintln!("{test}: skipped (COHORT_SKIP_POSTGRES=1): it did not run on PostgreSQL");
            None
        }
        _ => panic!(
            "{test}: COHORT_TEST_POSTGRES is not set: set it to a PostgreSQL URL \
             (scripts/postgres-up starts a server and prints one), or set \
             COHORT_SKIP_POSTGRES=1 to skip the PostgreSQL tests on purpose"
        ),
    }
}

/// A server started in-process on a real socket (127.0.0.1, a free port), as `cohort serve`
/// runs it (lib.rs, `serve_on`): its address, its App, and the task serving it.
pub struct Server {
    pub addr: std::net::SocketAddr,
    pub app: std::sync::Arc<App>,
    pub dir: std::path::PathBuf,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Server {
    /// Start a server on a fresh SQLite database named after `tag`.
    pub async fn start(tag: &str, config: cohort_server::Config) -> Server {
        let (dir, url) = temp_db(tag);
        Server::start_on(dir, &url, config).await
    }

    /// Start a server on the database `url` (in `dir`, removed by [`Server::stop`]).
    pub async fn start_on(
        dir: std::path::PathBuf,
        url: &str,
        config: cohort_server::Config,
    ) -> Server {
        let app = App::open_with(url, config).await.unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(cohort_server::serve_on(listener, app.clone(), async move {
            let _ = stopped.await;
        }));
        Server {
            addr,
            app,
            dir,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// A request over HTTP/1.1 (one connection, closed after the answer).
    pub async fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&str>,
    ) -> Http {
        http(self.addr, method, path, headers, body).await
    }

    pub async fn get(&self, path: &str, headers: &[(&str, &str)]) -> Http {
        self.send("GET", path, headers, None).await
    }

    pub async fn post(&self, path: &str, headers: &[(&str, &str)], body: Value) -> Http {
        self.send("POST", path, headers, Some(&body.to_string()))
            .await
    }

    pub async fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.task.take() {
            let _ = tokio::time::timeout(std::time::Duration::from_secs(10), t).await;
        }
        self.app.store.close().await;
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// An answer read off the socket: status, headers (names in lower case), body.
#[derive(Debug)]
pub struct Http {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub raw: String,
    pub body: Value,
}

impl Http {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The `name=value` part of the session cookie it sets.
    pub fn cookie(&self) -> String {
        self.headers
            .iter()
            .find(|(k, v)| k == "set-cookie" && v.starts_with("cohort_session="))
            .map(|(_, v)| v.split(';').next().unwrap().to_string())
            .unwrap_or_else(|| panic!("no session cookie: {self:?}"))
    }
}

/// One HTTP/1.1 request on its own connection (`Connection: close`), answer read to its end.
pub async fn http(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Http {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    // The server's address as the host, unless the test names one.
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        req.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    let body = body.unwrap_or("");
    if method != "GET" {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    req.push_str("\r\n");
    req.push_str(body);
    // A server that refuses a body (413) may answer and close before the whole of it is
    // written: the write then fails (broken pipe, reset) and the answer is read all the same.
    if let Err(e) = s.write_all(req.as_bytes()).await {
        assert!(
            matches!(
                e.kind(),
                std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset
            ),
            "writing the request: {e}"
        );
    }
    // Read to the end. After such an early answer the connection may end in a reset, which
    // reports an error once the answer's bytes are read: those bytes are the answer.
    let mut bytes = vec![];
    let read = async {
        let mut buf = [0u8; 16 * 1024];
        loop {
            match s.read(&mut buf).await {
                Ok(0) => break,
                Ok(n) => bytes.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset && !bytes.is_empty() => {
                    break
                }
                Err(e) => panic!("reading the answer: {e}"),
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(120), read)
        .await
        .expect("an answer within 120 s");
    parse_http(&bytes)
}

/// An HTTP/1.1 answer from its bytes (a chunked body decoded).
pub fn parse_http(bytes: &[u8]) -> Http {
    let text = String::from_utf8_lossy(bytes).to_string();
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("not an HTTP answer: {text:?}"));
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let raw = if chunked {
        let mut out = String::new();
        let mut r = rest;
        while let Some((size, after)) = r.split_once("\r\n") {
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if n == 0 {
                break;
            }
            out.push_str(&after[..n]);
            r = &after[n + 2..];
        }
        out
    } else {
        rest.to_string()
    };
    let body = serde_json::from_str(&raw).unwrap_or(Value::Null);
    Http {
        status,
        headers,
        raw,
        body,
    }
}

/// Run `f` on a PostgreSQL database of its own (its URL), created on the server of `url`
/// and dropped afterwards.
pub async fn with_fresh_database<F, Fut>(url: &str, prefix: &str, f: F)
where
    F: FnOnce(String) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    use sqlx::Executor;
    sqlx::any::install_default_drivers();
    let name = format!(
        "{prefix}{}{}",
        cohort_server::store::now_ms(),
        std::process::id()
    );
    let admin = sqlx::AnyPool::connect(url).await.unwrap();
    admin
        .execute(format!("CREATE DATABASE {name}").as_str())
        .await
        .unwrap();
    let (base, _) = url.rsplit_once('/').unwrap();
    f(format!("{base}/{name}")).await;
    admin
        // FORCE: an instance's listener connection may not have closed yet.
        .execute(format!("DROP DATABASE {name} WITH (FORCE)").as_str())
        .await
        .unwrap();
    admin.close().await;
}

/// A minimal WebSocket client for the tests (RFC 6455) on a raw TCP socket, so that a test
/// can send what a browser never would: a frame announced bigger than it is, a message
/// never finished, no pongs.
pub struct Ws(pub tokio::net::TcpStream);

/// What the server sent next on a [`Ws`].
#[derive(Debug, PartialEq)]
pub enum WsEvent {
    Text(Value),
    Ping,
    /// The close frame's code and reason.
    Close(u16, String),
    /// The connection ended (or was reset) without a close frame.
    Gone,
    /// Nothing within the wait.
    Quiet,
}

impl Ws {
    /// The upgrade of `path` with `headers`: the socket, or the refusal (status and body).
    pub async fn open(
        addr: std::net::SocketAddr,
        path: &str,
        headers: &[(&str, &str)],
    ) -> Result<Ws, (u16, Value)> {
        let s = tokio::net::TcpStream::connect(addr).await.unwrap();
        Ws::open_on(s, addr, path, headers).await
    }

    /// [`Ws::open`] on a connection made by the caller (e.g. with a small receive buffer).
    pub async fn open_on(
        mut s: tokio::net::TcpStream,
        addr: std::net::SocketAddr,
        path: &str,
        headers: &[(&str, &str)],
    ) -> Result<Ws, (u16, Value)> {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut req = format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        );
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        s.write_all(req.as_bytes()).await.unwrap();
        let mut head = vec![];
        while !head.ends_with(b"\r\n\r\n") {
            let mut b = [0u8; 1];
            s.read_exact(&mut b).await.unwrap();
            head.push(b[0]);
        }
        if head.starts_with(b"HTTP/1.1 101") {
            return Ok(Ws(s));
        }
        // A refusal: read its body to the end (the server closes or sends a length).
        let mut rest = vec![];
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), async {
            let mut buf = [0u8; 4096];
            loop {
                match s.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        rest.extend_from_slice(&buf[..n]);
                        if serde_json::from_slice::<Value>(&rest).is_ok() {
                            break;
                        }
                    }
                }
            }
        })
        .await;
        let mut all = head.clone();
        all.extend_from_slice(&rest);
        let a = parse_http(&all);
        Err((a.status, a.body))
    }

    /// A frame's header as a client sends it (masked with a zero key: the payload is sent
    /// as it is), announcing `len` bytes.
    pub fn header(opcode: u8, fin: bool, len: u64) -> Vec<u8> {
        let mut h = vec![if fin { 0x80 } else { 0 } | opcode];
        if len < 126 {
            h.push(0x80 | len as u8);
        } else if len < 65536 {
            h.push(0x80 | 126);
            h.extend_from_slice(&(len as u16).to_be_bytes());
        } else {
            h.push(0x80 | 127);
            h.extend_from_slice(&len.to_be_bytes());
        }
        h.extend_from_slice(&[0, 0, 0, 0]);
        h
    }

    /// Send raw bytes; false if the server has closed the connection.
    pub async fn raw(&mut self, bytes: &[u8]) -> bool {
        use tokio::io::AsyncWriteExt;
        self.0.write_all(bytes).await.is_ok()
    }

    /// Send a whole frame.
    pub async fn frame(&mut self, opcode: u8, payload: &[u8]) -> bool {
        let mut f = Ws::header(opcode, true, payload.len() as u64);
        f.extend_from_slice(payload);
        self.raw(&f).await
    }

    /// The next frame the server sends (pings not answered unless `pong`).
    pub async fn next(&mut self, wait: std::time::Duration, pong: bool) -> WsEvent {
        use tokio::io::AsyncReadExt;
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let read = async {
                let mut h = [0u8; 2];
                self.0.read_exact(&mut h).await?;
                let mut len = (h[1] & 0x7f) as u64;
                if len == 126 {
                    let mut b = [0u8; 2];
                    self.0.read_exact(&mut b).await?;
                    len = u16::from_be_bytes(b) as u64;
                } else if len == 127 {
                    let mut b = [0u8; 8];
                    self.0.read_exact(&mut b).await?;
                    len = u64::from_be_bytes(b);
                }
                let mut payload = vec![0u8; len as usize];
                self.0.read_exact(&mut payload).await?;
                Ok::<_, std::io::Error>((h[0] & 0x0f, payload))
            };
            match tokio::time::timeout_at(deadline, read).await {
                Err(_) => return WsEvent::Quiet,
                Ok(Err(_)) => return WsEvent::Gone,
                Ok(Ok((1, p))) => return WsEvent::Text(serde_json::from_slice(&p).unwrap()),
                Ok(Ok((8, p))) => {
                    let code = if p.len() >= 2 {
                        u16::from_be_bytes([p[0], p[1]])
                    } else {
                        1005
                    };
                    let reason = String::from_utf8_lossy(p.get(2..).unwrap_or(&[])).to_string();
                    return WsEvent::Close(code, reason);
                }
                Ok(Ok((9, p))) => {
                    if pong {
                        self.frame(10, &p).await;
                    } else {
                        return WsEvent::Ping;
                    }
                }
                Ok(Ok(_)) => {}
            }
        }
    }

    /// The next text message (pings answered), or panic naming `what`.
    pub async fn text(&mut self, what: &str) -> Value {
        match self.next(std::time::Duration::from_secs(5), true).await {
            WsEvent::Text(v) => v,
            other => panic!("{what}: expected a message, got {other:?}"),
        }
    }

    /// Whether the server ends the connection within `wait` (a close frame or EOF), reading
    /// past any text and pings; the close frame's code when there is one.
    pub async fn closed_within(&mut self, wait: std::time::Duration) -> Option<Option<u16>> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            match self.next(left, false).await {
                WsEvent::Close(code, _) => return Some(Some(code)),
                WsEvent::Gone => return Some(None),
                WsEvent::Quiet => return None,
                WsEvent::Text(_) | WsEvent::Ping => {}
            }
        }
    }
}

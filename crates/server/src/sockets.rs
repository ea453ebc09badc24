//! What every WebSocket goes through (docs/server.md, "Security"): admission before the
//! upgrade (the `Origin` of a browser's page must be this site; at most
//! `Config::ws_per_address` sockets open per address and `Config::ws_per_game` per game),
//! and while it is open: small message and frame limits (a frame announced over the limit is
//! refused from its header, never buffered), at most `Config::ws_messages_per_second`
//! messages a second from the client, a ping every third of `Config::ws_idle_timeout` and
//! the socket closed when nothing (no message, no pong) came for that long, and every send
//! bounded by `Config::ws_write_timeout` (a reader too slow loses its socket). Clients send
//! nothing but pongs and a close: every limit here is generous for them.

use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{close_code, CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::Response;
use tokio::time::Instant;

use crate::error::{ApiError, Code};
use crate::App;

/// The open sockets counted per address (`ip:<address>`) and per game (`game:<id>`).
#[derive(Default, Clone)]
pub struct Registry(Arc<Mutex<HashMap<String, usize>>>);

impl Registry {
    /// Open sockets counted under `key` now.
    pub fn count(&self, key: &str) -> usize {
        self.0.lock().unwrap().get(key).copied().unwrap_or(0)
    }
}

/// A socket's places in the counts; given back when the socket ends (dropped).
pub(crate) struct Ticket {
    registry: Registry,
    keys: Vec<String>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut open = self.registry.0.lock().unwrap();
        for k in &self.keys {
            if let Some(n) = open.get_mut(k) {
                *n -= 1;
                if *n == 0 {
                    open.remove(k);
                }
            }
        }
    }
}

/// A WebSocket request admitted: upgrade it with [`Admitted::on_upgrade`].
pub(crate) struct Admitted {
    upgrade: WebSocketUpgrade,
    ticket: Ticket,
    limits: Limits,
}

#[derive(Clone, Copy)]
struct Limits {
    idle: Duration,
    write: Duration,
    per_second: u32,
}

/// Admit a WebSocket request, or refuse it before the upgrade: not a WebSocket request (400
/// `not_websocket`), a page of another site (403 `cross_site`), or over a cap on open
/// sockets (429 `limit_reached`). `game`: the game whose socket this is (counted per game).
pub(crate) fn admit(
    app: &App,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    headers: &HeaderMap,
    conn: Option<SocketAddr>,
    game: Option<&str>,
) -> Result<Admitted, ApiError> {
    let upgrade = upgrade.map_err(ApiError::not_websocket)?;
    if let Some(origin) = headers.get(axum::http::header::ORIGIN) {
        let origin = String::from_utf8_lossy(origin.as_bytes()).to_string();
        if !crate::accounts::own_origin(app, headers, conn.map(|c| c.ip()), &origin) {
            return Err(ApiError::new(
                Code::CrossSite,
                format!("a page of another site cannot open this socket (Origin: {origin})"),
            ));
        }
    }
    let c = &app.config;
    let address = crate::accounts::address(app, headers, conn);
    // A request made in-process (no connection address) has no address to count.
    let mut caps = vec![];
    if address != "unknown" {
        caps.push((
            format!("ip:{address}"),
            c.ws_per_address,
            "from one address",
        ));
    }
    if let Some(g) = game {
        caps.push((format!("game:{g}"), c.ws_per_game, "on one game"));
    }
    let registry = app.sockets.clone();
    {
        let mut open = registry.0.lock().unwrap();
        for (key, most, what) in &caps {
            if open.get(key).copied().unwrap_or(0) >= *most {
                return Err(ApiError::new(
                    Code::LimitReached,
                    format!("at most {most} WebSockets open {what}; close one first"),
                ));
            }
        }
        for (key, _, _) in &caps {
            *open.entry(key.clone()).or_insert(0) += 1;
        }
    }
    let ticket = Ticket {
        registry,
        keys: caps.into_iter().map(|(k, _, _)| k).collect(),
    };
    let max = c.ws_max_message.max(128);
    let upgrade = upgrade
        .max_message_size(max)
        .max_frame_size(max)
        // The read buffer is filled whole on each read: small, so that an idle socket
        // costs little; a frame within the limit still reserves its own length.
        .read_buffer_size(max.min(4096))
        .write_buffer_size(0)
        .max_write_buffer_size(c.ws_max_write_buffer);
    Ok(Admitted {
        upgrade,
        ticket,
        limits: Limits {
            idle: c.ws_idle_timeout.max(Duration::from_millis(30)),
            write: c.ws_write_timeout.max(Duration::from_millis(10)),
            per_second: c.ws_messages_per_second.max(1),
        },
    })
}

impl Admitted {
    /// Upgrade, and run `then` on the socket.
    pub(crate) fn on_upgrade<F, Fut>(self, then: F) -> Response
    where
        F: FnOnce(Sock) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let Admitted {
            upgrade,
            ticket,
            limits,
        } = self;
        upgrade.on_upgrade(move |ws| {
            let now = Instant::now();
            let ping = limits.idle / 3;
            then(Sock {
                ws,
                limits,
                heard: now,
                ping: tokio::time::interval_at(now + ping, ping),
                window: now,
                in_window: 0,
                _ticket: ticket,
            })
        })
    }
}

/// An open socket under the limits: send with [`Sock::send`], and wait for the handler's
/// own event with [`Sock::until`], which meanwhile reads the client, pings, and ends the
/// socket on silence or abuse.
pub(crate) struct Sock {
    ws: WebSocket,
    limits: Limits,
    heard: Instant,
    ping: tokio::time::Interval,
    window: Instant,
    in_window: u32,
    _ticket: Ticket,
}

impl Sock {
    /// Send a text message, within the write timeout; false: the socket is done.
    pub(crate) async fn send(&mut self, text: impl Into<Utf8Bytes>) -> bool {
        self.send_message(Message::Text(text.into())).await
    }

    async fn send_message(&mut self, m: Message) -> bool {
        matches!(
            tokio::time::timeout(self.limits.write, self.ws.send(m)).await,
            Ok(Ok(()))
        )
    }

    /// Close the socket with `code` and `reason` (within the write timeout).
    async fn close(&mut self, code: u16, reason: String) {
        let frame = CloseFrame {
            code,
            reason: reason.into(),
        };
        self.send_message(Message::Close(Some(frame))).await;
    }

    /// Wait for `event` while keeping the socket: `Some(its output)`, or None when the
    /// socket is done (the client closed it or went away, an error, a message over the
    /// limit, too many messages, or silence for the idle timeout; the client is told why
    /// in the close frame).
    pub(crate) async fn until<T>(&mut self, event: impl Future<Output = T>) -> Option<T> {
        tokio::pin!(event);
        loop {
            let deadline = self.heard + self.limits.idle;
            tokio::select! {
                t = &mut event => return Some(t),
                _ = self.ping.tick() => {
                    if !self.send_message(Message::Ping(Default::default())).await {
                        return None;
                    }
                }
                _ = tokio::time::sleep_until(deadline) => {
                    let s = self.limits.idle.as_secs_f64();
                    self.close(close_code::POLICY, format!("no message or pong for {s} s")).await;
                    return None;
                }
                m = self.ws.recv() => match m {
                    None | Some(Ok(Message::Close(_))) => return None,
                    Some(Err(e)) => {
                        if too_big(&e) {
                            self.close(close_code::SIZE, "message too big".into()).await;
                        }
                        return None;
                    }
                    Some(Ok(_)) => {
                        let now = Instant::now();
                        self.heard = now;
                        if now.duration_since(self.window) >= Duration::from_secs(1) {
                            self.window = now;
                            self.in_window = 0;
                        }
                        self.in_window += 1;
                        if self.in_window > self.limits.per_second {
                            let most = self.limits.per_second;
                            self.close(
                                close_code::POLICY,
                                format!("more than {most} messages in a second"),
                            )
                            .await;
                            return None;
                        }
                    }
                }
            }
        }
    }
}

/// Whether a read failed on the size limits (tungstenite's capacity error).
fn too_big(e: &axum::Error) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(c) = cause {
        if let Some(t) = c.downcast_ref::<tungstenite::Error>() {
            return matches!(t, tungstenite::Error::Capacity(_));
        }
        cause = c.source();
    }
    false
}

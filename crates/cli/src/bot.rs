//! `cohort bot`: a protocol engine (docs/protocol.md) plays a seat of a live game on a
//! `cohort serve` server through its HTTP API (docs/server.md), until the game ends.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::protocol::ProtocolEngine;
use crate::Fail;

/// `http://host:port` (a path after it is a prefix for the API).
struct Server {
    host: String,
    prefix: String,
}

impl Server {
    fn parse(url: &str) -> Result<Server, Fail> {
        let rest = url.strip_prefix("http://").ok_or_else(|| {
            Fail(format!(
                "--server {url}: give the server's address as http://host:port (plain HTTP)"
            ))
        })?;
        let (host, path) = match rest.find('/') {
            Some(i) => (&rest[..i], rest[i..].trim_end_matches('/')),
            None => (rest, ""),
        };
        if host.is_empty() {
            return Err(Fail(format!("--server {url}: no host")));
        }
        let host = if host.contains(':') {
            host.to_string()
        } else {
            format!("{host}:80")
        };
        Ok(Server {
            host,
            prefix: path.to_string(),
        })
    }

    /// One request; the status and the JSON body (Null when the body is not JSON).
    fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<(u16, Value), String> {
        let mut stream = TcpStream::connect(&self.host)
            .map_err(|e| format!("cannot connect to {}: {e}", self.host))?;
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .map_err(|e| e.to_string())?;
        let payload = body.map(|b| b.to_string()).unwrap_or_default();
        let mut req = format!(
            "{method} {}{path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nAccept: application/json\r\n",
            self.prefix, self.host
        );
        if body.is_some() {
            req += &format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                payload.len()
            );
        }
        req += "\r\n";
        req += &payload;
        stream
            .write_all(req.as_bytes())
            .map_err(|e| format!("{method} {path}: {e}"))?;
        let mut raw = Vec::new();
        stream
            .read_to_end(&mut raw)
            .map_err(|e| format!("{method} {path}: {e}"))?;
        let split = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .ok_or_else(|| format!("{method} {path}: not an HTTP answer"))?;
        let head = String::from_utf8_lossy(&raw[..split]).to_string();
        let mut body = raw[split + 4..].to_vec();
        let status: u16 = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("{method} {path}: no status in '{head}'"))?;
        if head.lines().any(|l| {
            l.to_ascii_lowercase()
                .starts_with("transfer-encoding: chunked")
        }) {
            body = dechunk(&body);
        }
        Ok((status, serde_json::from_slice(&body).unwrap_or(Value::Null)))
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(i) = data.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&data[..i])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next().unwrap_or("").trim(), 16).ok())
            .unwrap_or(0);
        if size == 0 || data.len() < i + 2 + size {
            break;
        }
        out.extend_from_slice(&data[i + 2..i + 2 + size]);
        data = &data[(i + 4 + size).min(data.len())..];
    }
    out
}

fn error_of(v: &Value) -> String {
    v["error"]
        .as_str()
        .unwrap_or("no error message")
        .to_string()
}

pub fn run(
    url: &str,
    game: &str,
    token: &str,
    time_ms: u64,
    command: &[String],
) -> Result<(), Fail> {
    let server = Server::parse(url)?;
    if game.is_empty() || !game.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(Fail(format!(
            "--game '{game}': a game id is letters and digits"
        )));
    }
    if time_ms == 0 {
        return Err(Fail("--time must be at least 1".into()));
    }
    let view_path = format!("/api/games/{game}?token={token}");
    let get = |path: &str| -> Result<Value, Fail> {
        match server.request("GET", path, None) {
            Ok((200, v)) => Ok(v),
            Ok((s, v)) => Err(Fail(format!("GET {path}: {s} {}", error_of(&v)))),
            Err(e) => Err(Fail(e)),
        }
    };
    let view = get(&view_path)?;
    let seat = view["seat"]
        .as_str()
        .ok_or_else(|| Fail(format!("--token is not the token of a seat of game {game}")))?
        .to_string();
    let variant = view["variant"].as_str().unwrap_or_default().to_string();
    let mut engine = ProtocolEngine::start(command, Duration::from_secs(20)).map_err(Fail)?;
    engine.variant(&variant).map_err(Fail)?;
    eprintln!(
        "cohort bot: {} plays {seat} in game {game} ({variant})",
        engine.name
    );
    let mut turns = 0;
    let mut last_change = Instant::now();
    let mut last_version = -1i64;
    loop {
        let view = get(&view_path)?;
        if !view["result"].is_null() {
            println!(
                "game over: {} ({} turns played by the bot)",
                view["result"]["text"].as_str().unwrap_or("?"),
                turns
            );
            return Ok(());
        }
        let version = view["version"].as_i64().unwrap_or(0);
        if version != last_version {
            last_version = version;
            last_change = Instant::now();
        }
        if view["to_move"].as_str() != Some(seat.as_str()) || view["ai_thinking"] == true {
            // Not our turn: wait for the opponent (a person may take hours; say so now and then).
            if last_change.elapsed() > Duration::from_secs(600) {
                eprintln!("cohort bot: still waiting for the opponent in game {game}");
                last_change = Instant::now();
            }
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        let record = get(&format!("/api/games/{game}/record?format=json"))?;
        let start = record["start"].as_str().unwrap_or_default().to_string();
        let played: Vec<String> = record["steps"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let steps = engine
            .best_turn(&start, &played, Duration::from_millis(time_ms), None)
            .map_err(Fail)?;
        if steps.is_empty() {
            return Err(Fail(format!(
                "engine '{}' answered an empty bestturn",
                engine.name
            )));
        }
        for step in &steps {
            let path = format!("/api/games/{game}/step");
            match server.request("POST", &path, Some(&json!({"token": token, "step": step}))) {
                Ok((200, _)) => {}
                Ok((s, v)) => {
                    return Err(Fail(format!(
                        "the server refused the engine's step '{step}' ({s}): {}",
                        error_of(&v)
                    )))
                }
                Err(e) => return Err(Fail(e)),
            }
        }
        turns += 1;
        println!("turn {turns}: {}", steps.join(" "));
    }
}

//! `cohort serve` and `cohort check-games`: thin wrappers over the server library.

use std::net::{IpAddr, SocketAddr};

use cohort_server::live::LiveGame;
use cohort_server::store::Store;

use crate::Fail;

fn runtime() -> Result<tokio::runtime::Runtime, Fail> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Fail(format!("cannot start the server runtime: {e}")))
}

fn check_url(database: &str) -> Result<(), Fail> {
    if ["sqlite:", "postgres://", "postgresql://"]
        .iter()
        .any(|p| database.starts_with(p))
    {
        Ok(())
    } else {
        Err(Fail(format!(
            "--database '{}': expected sqlite://<file> or postgres://user:password@host/db",
            cohort_server::mask_password(database)
        )))
    }
}

/// `--behind-proxy <addresses>`: the proxies' IP addresses, comma-separated ("" for none
/// named: the server then trusts 127.0.0.1 and ::1).
pub fn proxies(list: &str) -> Result<Vec<IpAddr>, Fail> {
    list.split(',')
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(|a| {
            a.parse::<IpAddr>()
                .map_err(|_| Fail(format!("--behind-proxy '{a}': not an IP address")))
        })
        .collect()
}

/// `--public-origin <scheme://host[:port]>`: checked to be an origin (no path).
pub fn public_origin(origin: Option<String>) -> Result<Option<String>, Fail> {
    let Some(o) = origin else { return Ok(None) };
    let o = o.trim_end_matches('/').to_string();
    let rest = o
        .strip_prefix("https://")
        .or_else(|| o.strip_prefix("http://"));
    match rest {
        Some(host) if !host.is_empty() && !host.contains(['/', '?', '#', ' ']) => Ok(Some(o)),
        _ => Err(Fail(format!(
            "--public-origin '{o}': expected an origin, https://host or http://host:port"
        ))),
    }
}

/// The WebSocket limits must leave the pages working.
fn check_ws_limits(config: &cohort_server::Config) -> Result<(), Fail> {
    if config.ws_idle_timeout < std::time::Duration::from_secs(3) {
        return Err(Fail("--ws-idle-seconds: at least 3".into()));
    }
    if config.ws_write_timeout < std::time::Duration::from_secs(1) {
        return Err(Fail("--ws-write-timeout-seconds: at least 1".into()));
    }
    if config.ws_max_message < 256 || config.ws_messages_per_second == 0 {
        return Err(Fail(
            "--ws-max-message-bytes: at least 256; --ws-messages-per-second: at least 1".into(),
        ));
    }
    if config.ws_per_address == 0 || config.ws_per_game == 0 {
        return Err(Fail("--ws-per-address, --ws-per-game: at least 1".into()));
    }
    Ok(())
}

pub fn serve(
    host: &str,
    port: u16,
    database: &str,
    config: cohort_server::Config,
) -> Result<(), Fail> {
    check_url(database)?;
    if config.ai_workers == 0 && !is_postgres(database) {
        return Err(Fail(
            "--ai-workers 0: at least one AI search must be able to run here (only on \
             PostgreSQL can the searches be left to other instances and cohort worker)"
                .into(),
        ));
    }
    check_ai_limits(&config)?;
    check_ws_limits(&config)?;
    let ip: IpAddr = host
        .parse()
        .map_err(|_| Fail(format!("--host '{host}': not an IP address")))?;
    // Held until the server stops (the system releases it if the process dies).
    let _lock = match sqlite_file(database) {
        Some((file, _)) => Some(one_instance(&file)?),
        None => None,
    };
    runtime()?
        .block_on(cohort_server::serve(
            SocketAddr::new(ip, port),
            database,
            config,
        ))
        .map_err(|e| Fail(e.0))
}

/// The AI flags `serve` and `worker` share, over the server's defaults.
pub fn ai_config(
    ai_workers: Option<usize>,
    ai_max_time_ms: u64,
    ai_lease_ms: u64,
) -> cohort_server::Config {
    let defaults = cohort_server::Config::default();
    cohort_server::Config {
        ai_workers: ai_workers.unwrap_or(defaults.ai_workers),
        ai_max_time_ms,
        ai_lease: std::time::Duration::from_millis(ai_lease_ms),
        ..defaults
    }
}

fn is_postgres(database: &str) -> bool {
    database.starts_with("postgres://") || database.starts_with("postgresql://")
}

fn check_ai_limits(config: &cohort_server::Config) -> Result<(), Fail> {
    if config.ai_max_time_ms < 50 {
        return Err(Fail(format!(
            "--ai-max-time-ms {}: at least 50 (the shortest time a game may ask for)",
            config.ai_max_time_ms
        )));
    }
    if config.ai_lease < std::time::Duration::from_millis(300) {
        return Err(Fail(format!(
            "--ai-lease-ms {}: at least 300 (the lease is renewed three times a lease)",
            config.ai_lease.as_millis()
        )));
    }
    Ok(())
}

/// `cohort worker`: AI searches from a PostgreSQL database's job queue, no HTTP.
pub fn worker(database: &str, config: cohort_server::Config) -> Result<(), Fail> {
    check_url(database)?;
    if !is_postgres(database) {
        return Err(Fail(format!(
            "--database '{}': cohort worker serves the job queue of a PostgreSQL database; \
             on SQLite, cohort serve runs the AI's searches itself",
            cohort_server::mask_password(database)
        )));
    }
    if config.ai_workers == 0 {
        return Err(Fail(
            "--ai-workers 0: a worker runs at least one search".into(),
        ));
    }
    check_ai_limits(&config)?;
    runtime()?
        .block_on(cohort_server::work(database, config))
        .map_err(|e| Fail(e.0))
}

/// One `cohort serve` per SQLite file: each instance keeps its games in its own memory, so a
/// second one on the same file would serve stale games. An exclusive lock on `<file>.serve-lock`
/// refuses it with a message (several instances share PostgreSQL instead).
fn one_instance(file: &std::path::Path) -> Result<std::fs::File, Fail> {
    let mut name = file.as_os_str().to_owned();
    name.push(".serve-lock");
    let path = std::path::PathBuf::from(name);
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| {
            Fail(format!(
                "--database: cannot open the lock file {}: {e}",
                path.display()
            ))
        })?;
    match lock.try_lock() {
        Ok(()) => Ok(lock),
        Err(std::fs::TryLockError::WouldBlock) => Err(Fail(format!(
            "--database: another cohort serve is already serving {} (it holds {}); one SQLite \
             file serves one instance: stop the other, give this one its own file, or run \
             several instances on one PostgreSQL database",
            file.display(),
            path.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => Err(Fail(format!(
            "--database: cannot lock {}: {e}",
            path.display()
        ))),
    }
}

/// The file of a `sqlite:` URL as sqlx reads it (scheme off, query off, %-escapes decoded),
/// or None for an in-memory database.
fn sqlite_file(database: &str) -> Option<(std::path::PathBuf, bool)> {
    let rest = database
        .strip_prefix("sqlite://")
        .or_else(|| database.strip_prefix("sqlite:"))?;
    let (file, query) = rest.split_once('?').unwrap_or((rest, ""));
    if file == ":memory:" || query.split('&').any(|kv| kv == "mode=memory") {
        return None;
    }
    let has_mode = query.split('&').any(|kv| kv.starts_with("mode="));
    Some((std::path::PathBuf::from(percent_decode(file)), has_mode))
}

fn percent_decode(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).and_then(|&c| hex(c)),
            b.get(i + 2).and_then(|&c| hex(c)),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A stored game's record (docs/records.md), read from an existing database.
pub fn stored_record(database: &str, id: &str) -> Result<String, Fail> {
    let url = existing_database(database, "record export")?;
    runtime()?.block_on(async {
        let store = Store::open(&url).await.map_err(|e| {
            Fail(format!(
                "database {}: {e}",
                cohort_server::mask_password(database)
            ))
        })?;
        let found = store.game(id).await;
        store.close().await;
        let (row, steps) = found
            .map_err(|e| Fail(format!("reading game {id}: {e}")))?
            .ok_or_else(|| {
                Fail(format!(
                    "no game '{id}' in {}",
                    cohort_server::mask_password(database)
                ))
            })?;
        let live = LiveGame::replay(row, &steps)
            .map_err(|e| Fail(format!("game {id} does not replay: {e}")))?;
        Ok(live.record_text())
    })
}

/// The database URL of an existing database: a SQLite file that is not there is an error
/// and is never created.
fn existing_database(database: &str, what: &str) -> Result<String, Fail> {
    check_url(database)?;
    let mut url = database.to_string();
    if let Some((file, has_mode)) = sqlite_file(database) {
        if !file.exists() {
            return Err(Fail(format!(
                "database file {} does not exist ({what} reads existing databases only)",
                file.display()
            )));
        }
        if !has_mode {
            url.push(if url.contains('?') { '&' } else { '?' });
            url.push_str("mode=rw");
        }
    }
    Ok(url)
}

/// Replay every stored game; print one line per game that fails and a summary line.
/// Only an existing database is read: a SQLite file that is not there is an error (a typo
/// in the path must not pass as an empty database), and none is created.
pub fn check_games(database: &str) -> Result<(), Fail> {
    check_url(database)?;
    let mut url = database.to_string();
    if let Some((file, has_mode)) = sqlite_file(database) {
        if !file.exists() {
            return Err(Fail(format!(
                "database file {} does not exist (check-games reads existing databases only)",
                file.display()
            )));
        }
        // Never create it either, should it vanish before it is opened.
        if !has_mode {
            url.push(if url.contains('?') { '&' } else { '?' });
            url.push_str("mode=rw");
        }
    }
    runtime()?.block_on(async {
        let store = Store::open(&url).await.map_err(|e| {
            Fail(format!(
                "database {}: {e}",
                cohort_server::mask_password(database)
            ))
        })?;
        let ids = store
            .game_ids(false, i64::MAX)
            .await
            .map_err(|e| Fail(format!("reading games: {e}")))?;
        let (mut good, mut bad, mut steps) = (0, 0, 0);
        for id in &ids {
            let checked = match store.game(id).await {
                Ok(Some((row, list))) => {
                    steps += list.len();
                    LiveGame::replay(row, &list).map(|_| ())
                }
                Ok(None) => Err("vanished while checking".into()),
                Err(e) => Err(e.to_string()),
            };
            match checked {
                Ok(()) => good += 1,
                Err(e) => {
                    bad += 1;
                    println!("game {id}: {e}");
                }
            }
        }
        store.close().await;
        println!(
            "games: {} replayed legally: {good} failed: {bad} steps: {steps}",
            ids.len()
        );
        if bad > 0 {
            Err(Fail(format!("{bad} stored games do not replay legally")))
        } else {
            Ok(())
        }
    })
}

//! Cohort's game server: the HTTP/WebSocket API of docs/server.md, the web pages, and the
//! games kept in memory with every change committed to storage before it is acknowledged.

pub mod accounts;
mod admission;
mod ai_levels;
pub mod analysis;
mod analysis_api;
mod api;
pub mod challenges;
pub mod chat;
mod chat_api;
pub mod clock;
pub mod custom;
mod database_url;
pub mod director;
pub mod error;
pub mod events;
pub mod glicko;
pub mod guard;
pub mod heavy;
mod hosts;
pub mod jobs;
pub mod live;
mod lobby;
pub mod login_guard;
pub mod pages;
mod quick;
mod records;
pub mod rules_info;
pub mod sched;
pub mod sockets;
pub mod store;
mod taker;
pub mod tournament_store;
mod tournament_view;
mod tournaments_api;
pub mod view;

pub use database_url::mask_password;

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, Mutex};

use error::ApiError;
use live::LiveGame;
use store::Store;

/// One game in memory: its state behind a lock, and the channel its watchers listen on.
pub struct Slot {
    pub live: Mutex<LiveGame>,
    pub updates: broadcast::Sender<Arc<String>>,
    /// The task that ends the game when the side to move's flag falls (clock.rs).
    pub timer: std::sync::Mutex<Option<tokio::task::AbortHandle>>,
    /// When a request last asked for the game (ms since the epoch): a game left alone for
    /// `Config::idle_unload` leaves memory (`App::unload_idle`).
    touched_ms: std::sync::atomic::AtomicI64,
    /// The version of the game last sent to the watchers (`Slot::publish`).
    shown: std::sync::atomic::AtomicI64,
}

impl Slot {
    fn new(live: LiveGame) -> Slot {
        Slot {
            live: Mutex::new(live),
            updates: broadcast::channel(64).0,
            timer: Default::default(),
            touched_ms: store::now_ms().into(),
            shown: 0.into(),
        }
    }

    /// Send `view` (of version `version`) to the game's watchers.
    pub(crate) fn publish_view(&self, version: i64, view: &serde_json::Value) {
        self.shown
            .store(version, std::sync::atomic::Ordering::Relaxed);
        let _ = self.updates.send(Arc::new(view.to_string()));
    }

    /// Send the game's view to its watchers.
    pub(crate) fn publish(&self, live: &LiveGame) {
        self.publish_view(live.row.version, &live.view(None));
    }
}

/// The server's limits on the AI's compute (docs/server.md, "Fair AI compute").
#[derive(Clone, Debug)]
pub struct Config {
    /// AI searches running at once here (`--ai-workers`; default: the number of cores).
    /// 0 on PostgreSQL: this instance leaves every search to other instances and workers.
    pub ai_workers: usize,
    /// How long a taken AI job stays the taker's without a renewal (`--ai-lease-ms`): the
    /// longest a search of a dead instance holds its game up before another takes it over.
    pub ai_lease: Duration,
    /// Longest AI time per turn a game may ask for (`--ai-max-time-ms`).
    pub ai_max_time_ms: u64,
    /// AI-against-AI games in progress at once (`--max-ai-games`).
    pub max_ai_games: usize,
    /// Games with the AI to move one caller may have before its next game with an AI seat is
    /// refused (`--ai-games-per-caller`; admission.rs).
    pub ai_games_per_caller: usize,
    /// Games with a custom variant in progress at once, all callers together
    /// (`--max-custom-games`).
    pub max_custom_games: usize,
    /// Games with a custom variant one caller (one IP address) may create in an hour
    /// (`--custom-games-per-hour`).
    pub custom_games_per_hour: usize,
    /// Session cookies carry `Secure` (`--secure-cookies`: the site is served over TLS).
    pub secure_cookies: bool,
    /// Behind a reverse proxy (`--behind-proxy`): forwarded headers (`X-Forwarded-For`,
    /// `-Proto`, `-Host`) are believed, but only on connections from `trusted_proxies`
    /// (loopback, 127.0.0.1 and ::1, when that list is empty).
    pub behind_proxy: bool,
    /// The proxies' addresses (`--behind-proxy <addr>,...`); a non-empty list implies
    /// `behind_proxy`. The client is the rightmost `X-Forwarded-For` entry that is not one
    /// of them.
    pub trusted_proxies: Vec<IpAddr>,
    /// Password hashes (argon2id, 19 MiB each) running at once; more wait their turn.
    pub max_hashes: usize,
    /// Record replays (up to 512 KiB each) running at once, off the request threads; more
    /// wait their turn (heavy.rs).
    pub max_heavy: usize,
    /// A connection that has not sent a whole request head in this time is closed (also an
    /// idle kept-alive connection).
    pub header_timeout: Duration,
    /// A request whose body has not arrived whole in this time is answered 408.
    pub body_timeout: Duration,
    /// A game no request asked for in this time, with no watcher, no running clock and no
    /// AI search, leaves memory; the next request reloads it from storage.
    pub idle_unload: Duration,
    /// Search time each owner (an account, or an address) may spend on analyses in any
    /// hour (`--analysis-seconds-per-hour`; analysis.rs).
    pub analysis_ms_per_hour: u64,
    /// Analyses each payer (an account, an address) may start in any hour, whatever they
    /// cost: one of a finished position costs no search (`--analyses-per-hour`).
    pub analyses_per_hour: u64,
    /// A game without a clock (custom variant, AI against AI) in which nothing changed for
    /// this long holds no place in the caps any more: adjourned, it stays playable
    /// (`--idle-game-minutes`; admission.rs).
    pub idle_game_release: Duration,
    /// The largest message (and frame) a client may send on a WebSocket, in bytes
    /// (`--ws-max-message-bytes`); over it the socket is closed (sockets.rs).
    pub ws_max_message: usize,
    /// A WebSocket from which nothing (no message, no pong) came in this time is closed;
    /// the server pings every third of it (`--ws-idle-seconds`).
    pub ws_idle_timeout: Duration,
    /// A message to a WebSocket not written within this time closes it: a reader too slow
    /// (`--ws-write-timeout-seconds`).
    pub ws_write_timeout: Duration,
    /// Messages a client may send on a WebSocket in a second; more close it
    /// (`--ws-messages-per-second`).
    pub ws_messages_per_second: u32,
    /// WebSockets open at once from one address (`--ws-per-address`).
    pub ws_per_address: usize,
    /// WebSockets open at once on one game: its own and its chat rooms' (`--ws-per-game`).
    pub ws_per_game: usize,
    /// Bytes a WebSocket may hold unwritten (a slow reader's backlog) before it fails.
    pub ws_max_write_buffer: usize,
    /// The site's public origin (`--public-origin https://example.org`): a browser's page of
    /// this origin may open the WebSockets and post, besides the request's own host.
    pub public_origin: Option<String>,
    /// The lobby's list is built at most once in this time, however many changes come
    /// (lobby.rs).
    pub lobby_debounce: Duration,
    /// A live game whose first step has not come this long after it started is aborted,
    /// unrated (`--first-step-seconds`; clock.rs).
    pub first_step_window: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            ai_workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            ai_max_time_ms: 5000,
            ai_lease: Duration::from_secs(15),
            max_ai_games: 4,
            ai_games_per_caller: 4,
            max_custom_games: 32,
            custom_games_per_hour: 10,
            secure_cookies: false,
            behind_proxy: false,
            trusted_proxies: vec![],
            max_hashes: 2,
            max_heavy: 2,
            header_timeout: Duration::from_secs(15),
            body_timeout: Duration::from_secs(15),
            idle_unload: Duration::from_secs(600),
            analysis_ms_per_hour: 300_000,
            analyses_per_hour: 60,
            idle_game_release: Duration::from_secs(30 * 60),
            ws_max_message: 4096,
            ws_idle_timeout: Duration::from_secs(60),
            ws_write_timeout: Duration::from_secs(10),
            ws_messages_per_second: 10,
            ws_per_address: 64,
            ws_per_game: 500,
            ws_max_write_buffer: 4 << 20,
            public_origin: None,
            lobby_debounce: Duration::from_millis(150),
            first_step_window: Duration::from_secs(30),
        }
    }
}

pub struct App {
    pub store: Store,
    pub config: Config,
    games: std::sync::Mutex<HashMap<String, Arc<Slot>>>,
    /// This instance's AI workers: a job is taken only when one is free (api/ai.rs).
    pub scheduler: Arc<sched::Scheduler>,
    /// Told when an AI job is queued (here, or announced by another instance).
    pub(crate) jobs_ready: Arc<tokio::sync::Notify>,
    /// Who this instance is in the AI job queue ("host:pid:token"): its leases carry it.
    pub instance: String,
    /// Held while an AI-against-AI game is counted and created (the limit holds under races).
    ai_games_gate: Mutex<()>,
    /// Held while a custom-variant game is counted and created; and when each caller
    /// created its recent ones (custom.rs).
    custom_gate: Mutex<()>,
    custom_callers: std::sync::Mutex<admission::Callers>,
    /// Failed log-ins counted per user name and per address (accounts.rs).
    pub(crate) limiter: accounts::Limiter,
    /// When this instance last wrote each account's `seen_ms` (accounts.rs, "who is online"):
    /// at most one write a minute per account.
    pub(crate) seen: std::sync::Mutex<HashMap<String, i64>>,
    /// Failed and successful log-ins counted per account, whatever the address (login_guard.rs).
    pub(crate) login_guard: login_guard::LoginGuard,
    /// Open challenges (lobby.rs).
    pub(crate) lobby: lobby::Lobby,
    /// What this instance's chat sockets follow (chat_api.rs).
    pub(crate) chat: chat_api::Hub,
    /// Password hashing: at most `max_hashes` at once, on their own threads (accounts.rs).
    pub(crate) hashing: accounts::Hashing,
    /// Record replays and game loads for lists: at most `max_heavy` at once, off the request
    /// threads (heavy.rs).
    pub(crate) heavy: heavy::Heavy,
    /// The open WebSockets, counted per address and per game (sockets.rs).
    pub sockets: sockets::Registry,
    /// Tournament changes and the director's wake-up call (director.rs).
    pub(crate) tournaments: Arc<director::Hub>,
}

#[derive(Debug)]
pub struct ServeError(pub String);

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl App {
    /// Open storage and bring every unfinished game back into memory by replaying its steps.
    pub async fn open(database: &str) -> Result<Arc<App>, ServeError> {
        App::open_with(database, Config::default()).await
    }

    /// [`App::open`] with the given limits.
    pub async fn open_with(database: &str, config: Config) -> Result<Arc<App>, ServeError> {
        // The families from outside the rules crate, before any stored game is replayed.
        cohort_families::register();
        let mut config = config;
        if !config.trusted_proxies.is_empty() {
            config.behind_proxy = true;
        } else if config.behind_proxy {
            config.trusted_proxies = vec![Ipv4Addr::LOCALHOST.into(), Ipv6Addr::LOCALHOST.into()];
        }
        config.max_hashes = config.max_hashes.max(1);
        let store = Store::open(database)
            .await
            .map_err(|e| ServeError(format!("database {}: {e}", mask_password(database))))?;
        let app = Arc::new(App {
            instance: store.instance.clone(),
            store,
            scheduler: sched::Scheduler::new(config.ai_workers),
            jobs_ready: Default::default(),
            games: Default::default(),
            ai_games_gate: Mutex::new(()),
            custom_gate: Mutex::new(()),
            custom_callers: Default::default(),
            limiter: Default::default(),
            seen: Default::default(),
            login_guard: Default::default(),
            lobby: Default::default(),
            chat: Default::default(),
            hashing: accounts::Hashing::new(config.max_hashes),
            heavy: heavy::Heavy::new(config.max_heavy),
            sockets: Default::default(),
            tournaments: Default::default(),
            config,
        });
        // The lobby's list, built once per change for all its watchers (lobby.rs).
        tokio::spawn(lobby::keep_list(Arc::downgrade(&app)));
        let ids = app
            .store
            .game_ids(true, i64::MAX)
            .await
            .map_err(|e| ServeError(format!("reading games: {e}")))?;
        if let Err(e) = app.store.purge_sessions(store::now_ms()).await {
            eprintln!("cohort serve: expired sessions not purged: {e}");
        }
        // Expired sessions are purged every hour too (and on every log-in, accounts.rs), and
        // chat lines past their retention (chat.rs).
        let weak = Arc::downgrade(&app);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                let Some(app) = weak.upgrade() else { return };
                if let Err(e) = app.store.purge_sessions(store::now_ms()).await {
                    eprintln!("cohort serve: expired sessions not purged: {e}");
                }
                if let Err(e) = app.store.purge_chat(store::now_ms()).await {
                    eprintln!("cohort serve: old chat lines not purged: {e}");
                }
            }
        });
        // PostgreSQL: changes other instances commit reach this one's watchers.
        tokio::spawn(follow_other_instances(Arc::downgrade(&app)));
        // This instance's AI workers take jobs queued by any instance.
        if app.config.ai_workers > 0 {
            tokio::spawn(taker::take_jobs(Arc::downgrade(&app)));
        }
        // Games left alone leave memory (bounded memory whatever the number of games).
        let weak = Arc::downgrade(&app);
        let idle = app.config.idle_unload;
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(
                    (idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(60)),
                )
                .await;
                let Some(app) = weak.upgrade() else { return };
                app.unload_idle(idle);
            }
        });
        // Tournaments: started, paired and finished as their games end (director.rs).
        tokio::spawn(director::run(Arc::downgrade(&app)));
        // Rated games that ended just before a crash, ratings not yet applied.
        if let Ok(ids) = app.store.unrated_finished().await {
            for id in ids {
                if let Ok(Some(slot)) = app.slot(&id).await {
                    api::play::rate_if_finished(&app, &mut *slot.live.lock().await).await;
                }
            }
        }
        for id in ids {
            match app.slot(&id).await {
                Ok(Some(slot)) => {
                    // Time ran on while the server was down: the timer ends the game at once
                    // if a flag fell meanwhile.
                    api::timer::arm_clock(&app, &id, &slot).await;
                    api::ai::kick_ai(&app, &id, &slot).await
                }
                Ok(None) => {}
                Err(e) => eprintln!("cohort serve: game {id} not resumed: {e}"),
            }
        }
        Ok(app)
    }

    /// The most password hashes that ran at once since the server started.
    pub fn hash_peak(&self) -> usize {
        self.hashing.peak()
    }

    /// The most record replays that ran at once since the server started (heavy.rs).
    pub fn heavy_peak(&self) -> usize {
        self.heavy.peak()
    }

    /// Whether a connection from `ip` is one of the trusted proxies (docs/server.md,
    /// "Security"): only then are forwarded headers believed.
    pub fn trusts(&self, ip: IpAddr) -> bool {
        self.config.behind_proxy && self.config.trusted_proxies.contains(&ip.to_canonical())
    }

    /// How many times the lobby's list of open challenges was built from storage (once per
    /// change, debounced, whatever the number of watchers: lobby.rs).
    pub fn lobby_builds(&self) -> u64 {
        self.lobby.builds.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// A signal at every change of the lobby, here or on another instance (what the lobby's
    /// WebSocket watchers follow).
    pub fn lobby_changes(&self) -> broadcast::Receiver<()> {
        self.lobby.changed.subscribe()
    }

    /// Another instance committed a change to game `id` (PostgreSQL's notification): if the
    /// game is in memory here, bring it up to storage's version and send the new view to
    /// its watchers. This instance's own changes are announced too and find nothing new.
    pub(crate) async fn changed_elsewhere(&self, id: &str) {
        let slot = self.games.lock().unwrap().get(id).cloned();
        let Some(slot) = slot else { return };
        let mut live = slot.live.lock().await;
        match api::play::refresh(self, &mut live).await {
            // Newer than the watchers have seen (this instance may have reloaded it already,
            // for a request or its clock, without telling them). No watcher here: no view to
            // build (a socket that opens later is sent the game as it is then).
            Ok(())
                if slot.updates.receiver_count() > 0
                    && live.row.version
                        != slot.shown.load(std::sync::atomic::Ordering::Relaxed) =>
            {
                slot.publish(&live);
            }
            Ok(()) => {}
            Err(e) => eprintln!("cohort serve: game {id} changed elsewhere, not reloaded: {e}"),
        }
    }

    /// Take game `id` out of memory (its copy is not to be trusted): the next request
    /// reloads it from storage.
    pub(crate) fn forget(&self, id: &str) {
        self.games.lock().unwrap().remove(id);
    }

    /// Games in memory now.
    pub fn resident_games(&self) -> usize {
        self.games.lock().unwrap().len()
    }

    /// Take out of memory every game nobody asked for in `idle` and nothing holds: no
    /// watcher's socket, no clock timer, no AI search, no request under way (each of them
    /// holds the slot, so only the table's own reference is left). Storage has every step,
    /// so the next request reloads the game as it was. Returns how many left.
    pub fn unload_idle(&self, idle: Duration) -> usize {
        let before = store::now_ms() - idle.as_millis() as i64;
        let mut games = self.games.lock().unwrap();
        let n = games.len();
        // Under the table's lock no one can take a new reference to a slot found here.
        games.retain(|_, slot| {
            Arc::strong_count(slot) > 1
                || slot.updates.receiver_count() > 0
                || slot.touched_ms.load(std::sync::atomic::Ordering::Relaxed) > before
        });
        n - games.len()
    }

    /// The game `id`, loaded from storage on first use.
    pub async fn slot(&self, id: &str) -> Result<Option<Arc<Slot>>, String> {
        if let Some(s) = self.games.lock().unwrap().get(id) {
            s.touched_ms
                .store(store::now_ms(), std::sync::atomic::Ordering::Relaxed);
            return Ok(Some(s.clone()));
        }
        let Some((row, steps)) = self.store.game(id).await.map_err(|e| e.to_string())? else {
            return Ok(None);
        };
        let live = LiveGame::replay(row, &steps)?;
        let slot = Arc::new(Slot::new(live));
        // Another request may have loaded it meanwhile: keep the first.
        Ok(Some(
            self.games
                .lock()
                .unwrap()
                .entry(id.to_string())
                .or_insert(slot)
                .clone(),
        ))
    }

    /// The game `id` for a request: a 404 `not_found` when there is none.
    pub(crate) async fn find(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        let none = || ApiError::not_found(format!("no game '{id}'"));
        if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(none());
        }
        match self.slot(id).await {
            Ok(Some(s)) => Ok(s),
            Ok(None) => Err(none()),
            Err(e) => Err(ApiError::internal(format!("game {id} cannot be read: {e}"))),
        }
    }

    fn insert(&self, id: String, live: LiveGame) -> Arc<Slot> {
        let slot = Arc::new(Slot::new(live));
        self.games.lock().unwrap().insert(id, slot.clone());
        slot
    }
}

/// A fresh random token: 32 hex digits (seats, creators, challenges, ids from its start).
pub(crate) fn token() -> String {
    let mut b = [0u8; 16];
    getrandom::getrandom(&mut b).expect("the operating system's random source");
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Every route: the API and the pages.
pub fn router(app: Arc<App>) -> axum::Router {
    api::router(app.clone())
        .merge(accounts::router(app.clone()))
        .merge(lobby::router(app.clone()))
        .merge(quick::router(app.clone()))
        .merge(tournaments_api::router(app.clone()))
        .merge(chat_api::router(app.clone()))
        .merge(analysis_api::router(app.clone()))
        .merge(pages::router())
        .fallback(error::no_route)
        // A request from another site acts for nobody (accounts.rs, `same_origin`).
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            accounts::same_origin,
        ))
        // With --public-origin, a request for another host is refused (hosts.rs).
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            hosts::check,
        ))
        // Every body read whole, within the route's limit and the body timeout; security
        // headers on every answer (guard.rs).
        .layer(axum::middleware::from_fn_with_state(app, guard::guard))
}

/// Run the server on `addr` until the process is stopped. Prints the address to open.
pub async fn serve(addr: SocketAddr, database: &str, config: Config) -> Result<(), ServeError> {
    let app = App::open_with(database, config).await?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| ServeError(format!("cannot listen on {addr}: {e}")))?;
    let local = listener
        .local_addr()
        .map_err(|e| ServeError(e.to_string()))?;
    println!(
        "cohort serve: open http://{local}/ (database: {}, {}; AI: {} workers, at most {} ms a turn, at most {} AI-against-AI games; custom variants: at most {} games, {} an hour per caller)",
        mask_password(database),
        app.store.kind,
        app.scheduler.workers(),
        app.config.ai_max_time_ms,
        app.config.max_ai_games,
        app.config.max_custom_games,
        app.config.custom_games_per_hour
    );
    serve_on(listener, app.clone(), stop_signal()).await;
    app.store.close().await;
    Ok(())
}

/// `cohort worker`: open the database and take AI jobs until the process is stopped (no
/// HTTP). Prints what it serves. Its jobs under way go back to the queue when it stops.
pub async fn work(database: &str, config: Config) -> Result<(), ServeError> {
    let app = App::open_with(database, config).await?;
    println!(
        "cohort worker: taking AI searches from {} ({} workers, at most {} ms a turn, as {})",
        mask_password(database),
        app.scheduler.workers(),
        app.config.ai_max_time_ms,
        app.instance
    );
    stop_signal().await;
    app.store.close().await;
    Ok(())
}

/// Ctrl-C or SIGTERM (what `systemctl stop` and `kill` send).
async fn stop_signal() {
    #[cfg(unix)]
    {
        let mut term =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = async {
                match term.as_mut() {
                    Some(t) => { t.recv().await; }
                    None => std::future::pending::<()>().await,
                }
            } => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Serve `app` on `listener` until `shutdown` completes: HTTP/1.1 with WebSocket upgrades,
/// each connection's address given to the handlers, and the header timeout of the config
/// (a connection that has not sent a whole request head within it is closed).
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    app: Arc<App>,
    shutdown: impl std::future::Future<Output = ()> + Send,
) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let router = router(app.clone());
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(app.config.header_timeout);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors and the like: wait a moment, go on.
                    eprintln!("cohort serve: accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let router = router.clone();
        let service =
            hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
                req.extensions_mut()
                    .insert(axum::extract::ConnectInfo(peer));
                let router = router.clone();
                async move {
                    use tower::ServiceExt;
                    router.oneshot(req.map(axum::body::Body::new)).await
                }
            });
        let conn = builder
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let mut stopped = stopped.clone();
        connections.spawn(async move {
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stopped.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        });
        while connections.try_join_next().is_some() {}
    }
    // Answers in progress finish (at most a few seconds); then the caller closes storage.
    let _ = stop.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(5), async {
        while connections.join_next().await.is_some() {}
    })
    .await;
}

/// PostgreSQL: listen for the games other instances change (`store::GAMES_CHANNEL`) and
/// pass each to `App::changed_elsewhere`, and for changes of the lobby
/// (`store::LOBBY_CHANNEL`), which this instance's lobby watchers hear, and for chat lines
/// and switches (`store::CHAT_CHANNEL`), which its chat sockets hear, and for AI jobs
/// queued (`store::JOBS_CHANNEL`), which wake this instance's taker, and for tournament
/// changes (`store::TOURNAMENTS_CHANNEL`), which its tournament pages hear; until the store closes or the app is gone. On
/// SQLite (one instance) it returns at once.
async fn follow_other_instances(app: std::sync::Weak<App>) {
    let Some(strong) = app.upgrade() else { return };
    let mut closed = strong.store.closed();
    let listener = strong.store.listen_games().await;
    drop(strong);
    let mut listener = match listener {
        Ok(Some(l)) => l,
        Ok(None) => return,
        Err(e) => {
            eprintln!("cohort serve: not listening for other instances' changes: {e}");
            return;
        }
    };
    loop {
        if *closed.borrow() {
            return;
        }
        tokio::select! {
            _ = closed.changed() => return,
            note = listener.recv() => match note {
                Ok(note) => {
                    let Some(app) = app.upgrade() else { return };
                    if note.channel() == store::LOBBY_CHANNEL {
                        let _ = app.lobby.changed.send(());
                    } else if note.channel() == store::CHAT_CHANNEL {
                        app.chat.heard(&app.instance, note.payload());
                    } else if note.channel() == store::JOBS_CHANNEL {
                        app.jobs_ready.notify_one();
                    } else if note.channel() == store::TOURNAMENTS_CHANNEL {
                        app.tournaments.changed(note.payload());
                    } else {
                        // A task per game, so that one game's lock held for a while (a
                        // request under way) delays no other game's update.
                        let id = note.payload().to_string();
                        tokio::spawn(async move { app.changed_elsewhere(&id).await });
                    }
                }
                // The listener reconnects by itself; a failure here is passing.
                Err(e) => {
                    eprintln!("cohort serve: listening for other instances' changes: {e}");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            },
        }
    }
}

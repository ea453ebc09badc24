//! Cohort's game server: the HTTP/WebSocket API of docs/server.md, the web pages, and the
//! games kept in memory with every change committed to storage before it is acknowledged.

mod accounts;
mod admission;
mod api;
pub mod clock;
pub mod custom;
pub mod error;
pub mod events;
pub mod glicko;
pub mod live;
mod lobby;
mod pages;
mod records;
pub mod rules_info;
pub mod sched;
pub mod store;
pub mod view;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

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
}

/// The server's limits on the AI's compute (docs/server.md, "Fair AI compute").
#[derive(Clone, Debug)]
pub struct Config {
    /// AI searches running at once (`--ai-workers`; default: the number of cores).
    pub ai_workers: usize,
    /// Longest AI time per turn a game may ask for (`--ai-max-time-ms`).
    pub ai_max_time_ms: u64,
    /// AI-against-AI games in progress at once (`--max-ai-games`).
    pub max_ai_games: usize,
    /// Games with a custom variant in progress at once, all callers together
    /// (`--max-custom-games`).
    pub max_custom_games: usize,
    /// Games with a custom variant one caller (one IP address) may create in an hour
    /// (`--custom-games-per-hour`).
    pub custom_games_per_hour: usize,
    /// Session cookies carry `Secure` (`--secure-cookies`: the site is served over TLS).
    pub secure_cookies: bool,
    /// Behind a reverse proxy (`--behind-proxy`): the client's address is the first of
    /// `X-Forwarded-For`, and `X-Forwarded-Proto: https` makes cookies `Secure`.
    pub behind_proxy: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            ai_workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            ai_max_time_ms: 5000,
            max_ai_games: 4,
            max_custom_games: 32,
            custom_games_per_hour: 10,
            secure_cookies: false,
            behind_proxy: false,
        }
    }
}

pub struct App {
    pub store: Store,
    pub config: Config,
    games: std::sync::Mutex<HashMap<String, Arc<Slot>>>,
    /// Every AI search waits its turn here.
    pub scheduler: Arc<sched::Scheduler>,
    /// Held while an AI-against-AI game is counted and created (the limit holds under races).
    ai_games_gate: Mutex<()>,
    /// Held while a custom-variant game is counted and created; and when each caller
    /// created its recent ones (custom.rs).
    custom_gate: Mutex<()>,
    custom_callers: std::sync::Mutex<admission::Callers>,
    /// Failed log-ins counted per user name and per address (accounts.rs).
    pub(crate) limiter: accounts::Limiter,
    /// Open challenges (lobby.rs).
    pub(crate) lobby: lobby::Lobby,
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
        let store = Store::open(database)
            .await
            .map_err(|e| ServeError(format!("database {database}: {e}")))?;
        let app = Arc::new(App {
            store,
            scheduler: sched::Scheduler::new(config.ai_workers),
            config,
            games: Default::default(),
            ai_games_gate: Mutex::new(()),
            custom_gate: Mutex::new(()),
            custom_callers: Default::default(),
            limiter: Default::default(),
            lobby: Default::default(),
        });
        let ids = app
            .store
            .game_ids(true, i64::MAX)
            .await
            .map_err(|e| ServeError(format!("reading games: {e}")))?;
        if let Err(e) = app.store.purge_sessions(store::now_ms()).await {
            eprintln!("cohort serve: expired sessions not purged: {e}");
        }
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

    /// The game `id`, loaded from storage on first use.
    pub async fn slot(&self, id: &str) -> Result<Option<Arc<Slot>>, String> {
        if let Some(s) = self.games.lock().unwrap().get(id) {
            return Ok(Some(s.clone()));
        }
        let Some((row, steps)) = self.store.game(id).await.map_err(|e| e.to_string())? else {
            return Ok(None);
        };
        let live = LiveGame::replay(row, &steps)?;
        let slot = Arc::new(Slot {
            live: Mutex::new(live),
            updates: broadcast::channel(64).0,
            timer: Default::default(),
        });
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
        let slot = Arc::new(Slot {
            live: Mutex::new(live),
            updates: broadcast::channel(64).0,
            timer: Default::default(),
        });
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
        .merge(pages::router())
        .fallback(error::no_route)
        // A request from another site acts for nobody (accounts.rs, `same_origin`).
        .layer(axum::middleware::from_fn_with_state(
            app,
            accounts::same_origin,
        ))
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
        database,
        app.store.kind,
        app.scheduler.workers(),
        app.config.ai_max_time_ms,
        app.config.max_ai_games,
        app.config.max_custom_games,
        app.config.custom_games_per_hour
    );
    let router = router(app.clone());
    // The caller's address limits how many custom-variant games one caller creates.
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
    .map_err(|e| ServeError(e.to_string()))?;
    app.store.close().await;
    Ok(())
}

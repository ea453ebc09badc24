//! The tournament director (docs/server.md, "Tournaments"): on every instance, a task that
//! starts the tournaments whose time has come, counts their games as they end, pairs a
//! Swiss's next round when the last game of a round ends, and pairs an Arena's players again
//! as soon as their games end, until its time is up. It wakes when a game ends here
//! ([`Hub::poke`]) and at least every [`TICK`] (every [`ARENA_TICK`] while an Arena runs),
//! so games ended on another instance, or before a restart, are counted too.
//!
//! Everything it decides comes from storage, and a new round is stored only if the
//! tournament has not changed since it was read (tournament_store.rs): instances directing
//! at once agree, and a restart resumes where storage stands.

use std::collections::HashMap;
use std::sync::{Arc, Weak};
use std::time::Duration;

use cohort_rules::{Rules, Side};
use cohort_tournament::{arena, swiss};
use serde_json::Value;
use tokio::sync::{broadcast, Notify};

use crate::api::create::go_live;
use crate::clock::Clock;
use crate::live::{LiveGame, ABORTED};
use crate::store::{now_ms, GameRow};
use crate::tournament_store::{Pairing, RoundChange, Tournament};
use crate::tournament_view::{arena_entrants, swiss_rounds};
use crate::App;

/// The director's pace when no Arena runs.
pub const TICK: Duration = Duration::from_secs(1);
/// Its pace while an Arena runs: a player whose game ended waits at most about this long
/// beyond [`REMATCH_AFTER_MS`].
pub const ARENA_TICK: Duration = Duration::from_millis(250);
/// Two Arena players who have just met meet again only if nobody else has come to wait
/// within this time (arena::pair_waiting).
pub const REMATCH_AFTER_MS: u64 = 1000;

/// A tournament's public view (tournament_view.rs) with the rows it was built from.
pub(crate) type BuiltView = Arc<(Tournament, Value)>;

/// Tournament changes, for the pages that follow them, and the director's wake-up call.
pub struct Hub {
    poke: Notify,
    changed: broadcast::Sender<String>,
    /// The last public view built per tournament, with the version it shows: built once
    /// per change for every watcher.
    pub(crate) views: std::sync::Mutex<HashMap<String, (i64, BuiltView)>>,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub {
            poke: Notify::new(),
            changed: broadcast::channel(256).0,
            views: Default::default(),
        }
    }
}

impl Hub {
    /// A game ended here: the director looks at once.
    pub fn poke(&self) {
        self.poke.notify_one();
    }

    /// Tournament `id` changed (here, or on another instance: PostgreSQL's notification).
    pub fn changed(&self, id: &str) {
        let _ = self.changed.send(id.to_string());
    }

    /// The ids of tournaments as they change.
    pub fn follow(&self) -> broadcast::Receiver<String> {
        self.changed.subscribe()
    }
}

/// A change stored here: its watchers hear of it (on PostgreSQL, through the notification
/// every instance hears, this one included).
pub(crate) fn announce(app: &App, id: &str) {
    if app.store.kind != "postgres" {
        app.tournaments.changed(id);
    }
}

/// Direct every tournament until the app is gone.
pub(crate) async fn run(app: Weak<App>) {
    loop {
        let Some(strong) = app.upgrade() else { return };
        let arena_running = match direct_all(&strong).await {
            Ok(a) => a,
            Err(e) => {
                eprintln!("cohort serve: tournaments: {e}");
                false
            }
        };
        let wait = if arena_running { ARENA_TICK } else { TICK };
        let hub = Arc::clone(&strong.tournaments);
        drop(strong);
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = hub.poke.notified() => {}
        }
    }
}

/// One pass over the tournaments with work: true if an Arena is running.
async fn direct_all(app: &Arc<App>) -> Result<bool, String> {
    let mut arena_running = false;
    let ids = app
        .store
        .tournaments_to_direct(now_ms())
        .await
        .map_err(|e| format!("reading tournaments failed: {e}"))?;
    for id in ids {
        match direct(app, &id).await {
            Ok(arena) => arena_running |= arena,
            Err(e) => eprintln!("cohort serve: tournament {id}: {e}"),
        }
    }
    Ok(arena_running)
}

async fn read(app: &App, id: &str) -> Result<Tournament, String> {
    app.store
        .tournament(id)
        .await
        .map_err(|e| format!("reading failed: {e}"))?
        .ok_or_else(|| "gone".to_string())
}

/// Count the games of `id` that ended, then start, pair or finish it as its state asks.
/// True if it is an Arena still running.
pub(crate) async fn direct(app: &Arc<App>, id: &str) -> Result<bool, String> {
    count_ended_games(app, id).await?;
    let t = read(app, id).await?;
    let now = now_ms();
    let changed = match (t.row.kind.as_str(), t.row.status.as_str()) {
        ("swiss", "created") => next_swiss_round(app, &t, now).await?,
        ("swiss", "running") => {
            let round_over = t
                .pairings
                .iter()
                .filter(|p| p.round == t.row.round)
                .all(|p| p.result.is_some() || p.black.is_none());
            round_over && next_swiss_round(app, &t, now).await?
        }
        ("arena", "created") => {
            let ends = t.row.starts_ms.unwrap_or(now) + t.row.minutes * 60_000;
            let change = RoundChange {
                round: 0,
                status: "running",
                ends_ms: Some(ends),
                note: String::new(),
            };
            app.store
                .store_round(&t.row, change, &[], &[])
                .await
                .map_err(|e| format!("starting failed: {e}"))?
        }
        ("arena", "running") => arena_pairings(app, &t, now).await?,
        _ => false,
    };
    if changed {
        announce(app, id);
    }
    Ok(t.row.kind == "arena" && t.row.status != "finished")
}

/// Count the results of the games of `id` over in storage; withdraw whoever forfeited one.
async fn count_ended_games(app: &Arc<App>, id: &str) -> Result<(), String> {
    let over = app
        .store
        .tournament_games_over(id)
        .await
        .map_err(|e| format!("reading its games failed: {e}"))?;
    if over.is_empty() {
        return Ok(());
    }
    let mut forfeits = vec![];
    for game in over {
        let Ok(Some(slot)) = app.slot(&game).await else {
            continue;
        };
        let (result, ended_ms, forfeit) = {
            let live = slot.live.lock().await;
            let (result, forfeit) = result_of(&live);
            (result, live.row.updated_ms, forfeit)
        };
        let counted = app
            .store
            .count_tournament_game(id, &game, result, ended_ms)
            .await
            .map_err(|e| format!("counting game {game} failed: {e}"))?;
        if counted {
            announce(app, id);
            if let Some(side) = forfeit {
                forfeits.push((game, side));
            }
        }
    }
    if !forfeits.is_empty() {
        let t = read(app, id).await?;
        let who: Vec<usize> = forfeits
            .iter()
            .filter_map(|(game, side)| {
                let p = t
                    .pairings
                    .iter()
                    .find(|p| p.game_id.as_deref() == Some(game))?;
                match side {
                    Side::White => Some(p.white),
                    Side::Black => p.black,
                }
            })
            .collect();
        app.store
            .withdraw_entrants(id, &who)
            .await
            .map_err(|e| format!("withdrawing forfeits failed: {e}"))?;
        announce(app, id);
    }
    Ok(())
}

/// A finished tournament game's result ("white", "black" or "draw") and, for a game
/// aborted because a side never made its first step, that side: it forfeits.
fn result_of(live: &LiveGame) -> (&'static str, Option<Side>) {
    if live.row.ending.as_deref() == Some(ABORTED) {
        // Tournament games cannot be aborted by a player (api/actions.rs): this is the
        // first-step window's abort, and the side to move never moved.
        let loser = live.to_move();
        return (side_wins(loser.other()), Some(loser));
    }
    match live.view_result_winner() {
        Some(side) => (side_wins(side), None),
        None => ("draw", None),
    }
}

fn side_wins(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// Pair a Swiss's next round (or finish it after its last, or when no pairing is left).
async fn next_swiss_round(app: &Arc<App>, t: &Tournament, now: i64) -> Result<bool, String> {
    let rounds = swiss_rounds(t);
    let finish = |note: String| RoundChange {
        round: t.row.round,
        status: "finished",
        ends_ms: Some(now),
        note,
    };
    if t.row.round >= t.row.rounds {
        return store(app, t, finish(String::new()), vec![]).await;
    }
    let entries: Vec<swiss::Entry> = t
        .players
        .iter()
        .map(|p| swiss::Entry {
            rating: p.rating as i32,
            active: !p.withdrawn,
        })
        .collect();
    let round = match swiss::pair(&entries, &rounds, t.row.bye_points as u32) {
        Ok(r) => r,
        Err(e) => {
            let why = if t.row.round == 0 {
                format!("not started: {e}")
            } else {
                format!("ended after round {}: {e}", t.row.round)
            };
            return store(app, t, finish(why), vec![]).await;
        }
    };
    let r = t.row.round + 1;
    let mut pairs: Vec<(usize, Option<usize>)> = round
        .games
        .iter()
        .map(|g| (g.white, Some(g.black)))
        .collect();
    if let Some(b) = round.bye {
        pairs.push((b, None));
    }
    let change = RoundChange {
        round: r,
        status: "running",
        ends_ms: None,
        note: String::new(),
    };
    store(app, t, change, pairs_at(t, r, &pairs, now)).await
}

/// New pairings numbered after the tournament's last, in round `round`.
fn pairs_at(
    t: &Tournament,
    round: i64,
    pairs: &[(usize, Option<usize>)],
    now: i64,
) -> Vec<Pairing> {
    let next = t.pairings.last().map_or(0, |p| p.seq + 1);
    pairs
        .iter()
        .enumerate()
        .map(|(i, &(white, black))| Pairing {
            seq: next + i as i64,
            round,
            white,
            black,
            game_id: black.map(|_| crate::token()[..12].to_string()),
            result: None,
            created_ms: now,
            ended_ms: None,
        })
        .collect()
}

/// Pair the Arena's waiting players, or finish it once its time is up and its last game
/// has ended.
async fn arena_pairings(app: &Arc<App>, t: &Tournament, now: i64) -> Result<bool, String> {
    let ended = t.row.ends_ms.is_some_and(|end| now >= end);
    if ended {
        if t.pairings.iter().any(|p| p.result.is_none()) {
            return Ok(false);
        }
        let change = RoundChange {
            round: 0,
            status: "finished",
            ends_ms: None,
            note: String::new(),
        };
        return store(app, t, change, vec![]).await;
    }
    let since_start = t.row.starts_ms.unwrap_or(now);
    let entrants = arena_entrants(t);
    let waiting: Vec<arena::Waiting> = t
        .players
        .iter()
        .filter(|p| {
            // Not withdrawn, and every game of its finished (an Arena has no byes).
            let a = &entrants[p.entrant];
            !p.withdrawn && a.games as usize == a.results.len()
        })
        .map(|p| {
            let e = p.entrant;
            let a = &entrants[e];
            // Waiting (not playing), so its last game is its last finished one.
            let free_since = a
                .last
                .and_then(|g| g.ended_ms)
                .unwrap_or(since_start)
                .max(p.joined_ms);
            arena::Waiting {
                entrant: e,
                points: arena::score(&a.results).points,
                rating: p.rating as i32,
                last_opponent: a.last.map(|g| {
                    if g.white == e {
                        g.black.unwrap_or(e)
                    } else {
                        g.white
                    }
                }),
                colour_balance: 2 * a.whites - a.games,
                waited_ms: (now - free_since).max(0) as u64,
            }
        })
        .collect();
    let games = arena::pair_waiting(&waiting, REMATCH_AFTER_MS);
    if games.is_empty() {
        return Ok(false);
    }
    let pairs: Vec<(usize, Option<usize>)> =
        games.iter().map(|g| (g.white, Some(g.black))).collect();
    let change = RoundChange {
        round: 0,
        status: "running",
        ends_ms: None,
        note: String::new(),
    };
    store(app, t, change, pairs_at(t, 0, &pairs, now)).await
}

/// Store `pairings` with their new games and `change`, then start the games here. False
/// when the tournament changed meanwhile (the next pass decides again).
async fn store(
    app: &Arc<App>,
    t: &Tournament,
    change: RoundChange,
    pairings: Vec<Pairing>,
) -> Result<bool, String> {
    let mut games = vec![];
    for p in &pairings {
        let (Some(black), Some(id)) = (p.black, &p.game_id) else {
            continue;
        };
        games.push(game_row(t, id, p.white, black, p.created_ms));
    }
    let variant = match games.first() {
        Some(g) => Some(crate::custom::variant_of(g)?),
        None => None,
    };
    let stored = app
        .store
        .store_round(&t.row, change, &pairings, &games)
        .await
        .map_err(|e| format!("storing a round failed: {e}"))?;
    if !stored {
        return Ok(false);
    }
    if let Some(variant) = variant {
        for row in games {
            match LiveGame::replay_in(variant.clone(), row, &[]) {
                Ok(live) => go_live(app, live).await,
                Err(e) => eprintln!("cohort serve: tournament {}: a game: {e}", t.row.id),
            }
        }
    }
    Ok(true)
}

/// A new game of tournament `t` between entrants `white` and `black`.
fn game_row(t: &Tournament, id: &str, white: usize, black: usize, now: i64) -> GameRow {
    let user = |e: usize| t.players.get(e).map(|p| p.user_id.clone());
    let variant = cohort_rules::builtin(&t.row.variant);
    let start = match &variant {
        Some(v) => v.start().to_text(),
        None => String::new(),
    };
    let mut row = GameRow {
        id: id.to_string(),
        variant: t.row.variant.clone(),
        start,
        white: "human".into(),
        black: "human".into(),
        ai_agent: "engine".into(),
        ai_time_ms: 1000,
        white_token: crate::token(),
        black_token: crate::token(),
        variant_text: t.row.variant_text.clone(),
        created_ms: now,
        updated_ms: now,
        version: 1,
        clock: Clock::waiting(t.row.control, now),
        white_user: user(white),
        black_user: user(black),
        rated: t.row.rated,
        ..GameRow::default()
    };
    if variant.is_none() {
        if let Ok(v) = crate::custom::variant_of(&row) {
            row.start = v.start().to_text();
        }
    }
    row
}

//! Analyses in storage (the `analyses` table): what the engine thinks of each turn of a
//! finished game, or of one position. A row holds the request's cost, its progress and its
//! points as JSON, so any instance answers `GET /api/analysis/<id>` and the budget is counted
//! the same everywhere. Who may start one and how it runs is analysis_api.rs's.
//!
//! The budget: each payer may spend `Config::analysis_ms_per_hour` of search in any hour,
//! and start `Config::analyses_per_hour` analyses (those that cost nothing too: a finished
//! position's). An analysis is paid by its account (or, for a visitor, its address) and by
//! its address as well, for all the accounts on it together: ten accounts on one address
//! get one budget between them. It costs its positions times its time per position,
//! charged in full when it is accepted (counted and written in one transaction, under a
//! lock on PostgreSQL, so instances cannot both pass the limit).

use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::store::{Store, StoreError};

/// The budget's window.
pub const WINDOW_MS: i64 = 3_600_000;
/// An analysis its instance stopped updating this long ago was cut short (the instance
/// stopped); readers are told it failed.
pub const STALE_MS: i64 = 120_000;

/// What each payer may spend in an hour: search time, and analyses started.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub ms: i64,
    pub count: i64,
}

/// Why an analysis was refused: whose budget was spent, what is left of it, and when
/// enough frees for this analysis (None: never, it costs more than a whole hour's budget).
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// `user:<id>` or `ip:<address>`.
    pub payer: String,
    /// The payer's address pays for its accounts too (the refusal is the address's, not
    /// the account's own).
    pub shared: bool,
    /// It started `Budget::count` analyses this hour (else: its search time is spent).
    pub too_many: bool,
    pub left_ms: i64,
    pub free_in_ms: Option<i64>,
}

/// The requests made in-process (tests, the CLI) have no address: it pays for nothing more.
const NO_ADDRESS: &str = "ip:unknown";

/// Who pays for an analysis, as (column, payer): a visitor's address; or an account and,
/// when the request came from one, its address (all its accounts together).
pub fn payers(a: &Analysis) -> Vec<(&'static str, &str)> {
    if !a.owner.starts_with("user:") {
        return vec![("address", a.address.as_str())];
    }
    let mut out = vec![("owner", a.owner.as_str())];
    if a.address != NO_ADDRESS && !a.address.is_empty() {
        out.push(("address", a.address.as_str()));
    }
    out
}

/// Whether a payer whose charges in the last hour are `charges` ((cost_ms, created_ms),
/// oldest first) cannot pay `cost_ms` more at `now`: its refusal, with when it could.
pub fn refuse(
    payer: &str,
    charges: &[(i64, i64)],
    cost_ms: i64,
    budget: Budget,
    now: i64,
) -> Option<Refusal> {
    let spent: i64 = charges.iter().map(|c| c.0).sum();
    let expires = |created: i64| (created + WINDOW_MS - now).max(0);
    let refusal = |too_many, free_in_ms| Refusal {
        payer: payer.to_string(),
        shared: false,
        too_many,
        left_ms: (budget.ms - spent).max(0),
        free_in_ms,
    };
    let started = charges.len() as i64;
    if started >= budget.count {
        // The oldest analysis that must leave the window for one more to start.
        let oldest = charges[(started - budget.count) as usize].1;
        return Some(refusal(true, Some(expires(oldest))));
    }
    if spent + cost_ms <= budget.ms {
        return None;
    }
    if cost_ms > budget.ms {
        return Some(refusal(false, None));
    }
    let mut freed = 0;
    for &(cost, created) in charges {
        freed += cost;
        if spent - freed + cost_ms <= budget.ms {
            return Some(refusal(false, Some(expires(created))));
        }
    }
    Some(refusal(false, None))
}

/// The engine's view of one point of a game: the position before a turn (or the last one).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Point {
    /// Steps of the game played before this point.
    pub at: usize,
    /// The side to move here ("white" or "black"); None once the game is over.
    pub side: Option<String>,
    /// The score for White (the engine's units; about 100 a pawn in chess), and whether it
    /// is a forced win or loss the search found.
    pub score: i32,
    pub decisive: bool,
    /// The turn the engine plays here (step texts) and its steps as data, for arrows.
    pub best: Vec<String>,
    pub moves: Vec<serde_json::Value>,
    /// The line it expects, the best turn first.
    pub line: String,
    pub depth: u32,
    /// The turn played from here in the game (whole-game analyses), and how much it lost
    /// for the side that played it by the engine's lights, as expected score (0 to 1).
    pub played: Vec<String>,
    pub loss: f64,
    /// "inaccuracy", "mistake" or "blunder" (see [`classify`]).
    pub mark: Option<String>,
    /// A played turn other than the best: the scores for White after the best turn and
    /// after the played one, both searched to the same depth (cohort_engine::marks::judge);
    /// the loss and the mark come from them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_after: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played_after: Option<i32>,
}

/// An analysis as stored and as answered.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Analysis {
    pub id: String,
    /// Who pays for it: `user:<id>` or `ip:<address>`. Not sent.
    #[serde(skip)]
    pub owner: String,
    /// The address it was asked from (`ip:<address>`), which pays for it too. Not sent.
    #[serde(skip)]
    pub address: String,
    pub game: Option<String>,
    pub variant: String,
    /// "running", "done" or "failed".
    pub state: String,
    pub error: Option<String>,
    /// Positions in all (those done are the points so far), and the time each gets.
    pub total: usize,
    pub ms: u64,
    pub points: Vec<Point>,
    pub created_ms: i64,
    pub updated_ms: i64,
}

/// Expected score (0 to 1) of a score for White (cohort_engine::marks, the rule the
/// browser's analyses share).
pub use cohort_engine::marks::{classify, expected};

/// Fill in each point's loss and mark: from its judged scores (the positions after the best
/// and the played turn searched alike), else from the point after it (known once both are
/// searched): the mover's expected score before its turn, less after it
/// (cohort_engine::marks::turn_mark; a turn that is the engine's own choice loses nothing).
pub fn mark_turns(points: &mut [Point]) {
    for i in 0..points.len().saturating_sub(1) {
        let (before, after) = (points[i].score, points[i + 1].score);
        let Some(side) = points[i].side.clone() else {
            continue;
        };
        let own = points[i].played.is_empty() || points[i].played == points[i].best;
        // Judged at the best turn's effort when it was (a point of an analysis made before
        // that was not: the score of the point after it).
        let (before, after) = match (points[i].best_after, points[i].played_after) {
            (Some(b), Some(p)) => (b, p),
            _ => (before, after),
        };
        let (loss, mark) = cohort_engine::marks::turn_mark(side == "white", before, after, own);
        points[i].loss = loss;
        points[i].mark = mark.map(str::to_string);
    }
}

fn analysis_of(r: &sqlx::any::AnyRow) -> Result<Analysis, StoreError> {
    let points: String = r.try_get("points")?;
    Ok(Analysis {
        id: r.try_get("id")?,
        owner: r.try_get("owner")?,
        address: r.try_get("address")?,
        game: r.try_get("game_id")?,
        variant: r.try_get("variant")?,
        state: r.try_get("state")?,
        error: r.try_get("error")?,
        total: r.try_get::<i64, _>("total")? as usize,
        ms: r.try_get::<i64, _>("ms")? as u64,
        points: serde_json::from_str(&points).map_err(|e| StoreError::Protocol(e.to_string()))?,
        created_ms: r.try_get("created_ms")?,
        updated_ms: r.try_get("updated_ms")?,
    })
}

/// An analysis saved with its game (made in a browser, `POST /api/games/<id>/analysis`).
#[derive(Clone, Debug, Serialize)]
pub struct SavedAnalysis {
    pub game: String,
    /// Who saved it: `user:<id>` or `ip:<address>`. Not sent.
    #[serde(skip)]
    pub saver: String,
    /// The search time each position had (as the saver said; 0 when not said).
    pub ms: u64,
    pub points: Vec<Point>,
    pub saved_ms: i64,
}

impl Store {
    /// Save a game's analysis (replacing the one saved before) if `saver` made fewer than
    /// `per_hour` saves (of any game) in the last hour: `Ok(true)` when stored, `Ok(false)` over the limit.
    /// Counted and written in one transaction (under a lock on PostgreSQL).
    pub async fn save_game_analysis(
        &self,
        a: &SavedAnalysis,
        per_hour: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        if self.kind == "postgres" {
            sqlx::query("SELECT pg_advisory_xact_lock(7362020)")
                .execute(&mut *tx)
                .await?;
        }
        // Saves older than the window count no more: gone.
        sqlx::query("DELETE FROM analysis_saves WHERE saved_ms <= $1")
            .bind(a.saved_ms - WINDOW_MS)
            .execute(&mut *tx)
            .await?;
        let saved: i64 =
            sqlx::query("SELECT COUNT(*) FROM analysis_saves WHERE saver = $1 AND saved_ms > $2")
                .bind(&a.saver)
                .bind(a.saved_ms - WINDOW_MS)
                .fetch_one(&mut *tx)
                .await?
                .try_get(0)?;
        if saved >= per_hour {
            return Ok(false);
        }
        sqlx::query("INSERT INTO analysis_saves (saver, saved_ms) VALUES ($1, $2)")
            .bind(&a.saver)
            .bind(a.saved_ms)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM game_analyses WHERE game_id = $1")
            .bind(&a.game)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO game_analyses (game_id, saver, ms, points, saved_ms)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&a.game)
        .bind(&a.saver)
        .bind(a.ms as i64)
        .bind(serde_json::to_string(&a.points).expect("points are JSON"))
        .bind(a.saved_ms)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The analysis saved with a game, if any.
    pub async fn game_analysis(&self, game: &str) -> Result<Option<SavedAnalysis>, StoreError> {
        let Some(r) = sqlx::query("SELECT * FROM game_analyses WHERE game_id = $1")
            .bind(game)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let points: String = r.try_get("points")?;
        Ok(Some(SavedAnalysis {
            game: r.try_get("game_id")?,
            saver: r.try_get("saver")?,
            ms: r.try_get::<i64, _>("ms")? as u64,
            points: serde_json::from_str(&points)
                .map_err(|e| StoreError::Protocol(e.to_string()))?,
            saved_ms: r.try_get("saved_ms")?,
        }))
    }

    /// Store a new analysis if each of its payers (see [`payers`]) has `cost_ms` of search
    /// left in its hourly budget and started fewer than `budget.count` analyses in the last
    /// hour (so analyses that cost nothing are limited too): `Ok(left_ms)`, the least any
    /// payer has left after it; otherwise the first payer's refusal. Counted and written in
    /// one transaction, under a lock on PostgreSQL (SQLite's single connection serializes
    /// them), so requests at once cannot both pass the limit.
    pub async fn add_analysis(
        &self,
        a: &Analysis,
        cost_ms: i64,
        budget: Budget,
    ) -> Result<Result<i64, Refusal>, StoreError> {
        let mut tx = self.pool.begin().await?;
        if self.kind == "postgres" {
            sqlx::query("SELECT pg_advisory_xact_lock(7362019)")
                .execute(&mut *tx)
                .await?;
        }
        let mut least_left = budget.ms;
        for (column, payer) in payers(a) {
            // At most `budget.count` rows a payer and hour: read them all, oldest first.
            let rows = sqlx::query(&format!(
                "SELECT cost_ms, created_ms FROM analyses WHERE {column} = $1 AND created_ms > $2
                 ORDER BY created_ms"
            ))
            .bind(payer)
            .bind(a.created_ms - WINDOW_MS)
            .fetch_all(&mut *tx)
            .await?;
            let mut charges = Vec::with_capacity(rows.len());
            for r in &rows {
                charges.push((r.try_get::<i64, _>(0)?, r.try_get::<i64, _>(1)?));
            }
            if let Some(mut refusal) = refuse(payer, &charges, cost_ms, budget, a.created_ms) {
                refusal.shared = column == "address" && a.owner.starts_with("user:");
                return Ok(Err(refusal));
            }
            let spent: i64 = charges.iter().map(|c| c.0).sum();
            least_left = least_left.min(budget.ms - spent - cost_ms);
        }
        sqlx::query(
            "INSERT INTO analyses (id, owner, address, game_id, variant, state, error, total, ms,
                 cost_ms, points, created_ms, updated_ms)
             VALUES ($1, $2, $3, $4, $5, $6, NULL, $7, $8, $9, $10, $11, $11)",
        )
        .bind(&a.id)
        .bind(&a.owner)
        .bind(&a.address)
        .bind(a.game.clone())
        .bind(&a.variant)
        .bind(&a.state)
        .bind(a.total as i64)
        .bind(a.ms as i64)
        .bind(cost_ms)
        .bind(serde_json::to_string(&a.points).expect("points are JSON"))
        .bind(a.created_ms)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Ok(least_left))
    }

    /// Write an analysis's progress: its state and points.
    pub async fn update_analysis(&self, a: &Analysis) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE analyses SET state = $2, error = $3, points = $4, updated_ms = $5
             WHERE id = $1",
        )
        .bind(&a.id)
        .bind(&a.state)
        .bind(a.error.clone())
        .bind(serde_json::to_string(&a.points).expect("points are JSON"))
        .bind(a.updated_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn analysis(&self, id: &str) -> Result<Option<Analysis>, StoreError> {
        let row = sqlx::query("SELECT * FROM analyses WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(analysis_of).transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(side: &str, score: i32, best: &str, played: &str) -> Point {
        Point {
            side: Some(side.into()),
            score,
            best: vec![best.into()],
            played: vec![played.into()],
            ..Point::default()
        }
    }

    #[test]
    fn a_turn_that_throws_the_game_away_is_a_blunder_and_the_engines_own_turn_is_nothing() {
        let mut p = vec![
            point("white", 30, "e2-e4", "e2-e4"),
            point("black", 20, "e7-e5", "f7-f6"),
            point("white", 400, "d1-h5", "a2-a3"),
            point("black", -600, "d8-h4", "d8-h4"),
            Point::default(),
        ];
        mark_turns(&mut p);
        assert_eq!(p[0].mark, None, "the engine's own turn");
        // Black's f6: from +20 to +400 for White, Black's expected score falls 0.37 points.
        assert_eq!(p[1].mark.as_deref(), Some("blunder"));
        assert!(p[1].loss > 0.3, "{}", p[1].loss);
        // White's a3 threw +400 away for -600: a blunder too; the gain is no loss.
        assert_eq!(p[2].mark.as_deref(), Some("blunder"));
        assert_eq!(p[3].mark, None);
    }

    #[test]
    fn small_drops_are_inaccuracies_or_nothing() {
        assert_eq!(classify(0.02), None);
        assert_eq!(classify(0.07), Some("inaccuracy"));
        assert_eq!(classify(0.12), Some("mistake"));
        assert!((expected(0) - 0.5).abs() < 1e-9);
        assert!(expected(400) > 0.9 && expected(-400) < 0.1);
    }
}

//! Analyses in storage (the `analyses` table): what the engine thinks of each turn of a
//! finished game, or of one position. A row holds the request's cost, its progress and its
//! points as JSON, so any instance answers `GET /api/analysis/<id>` and the budget is counted
//! the same everywhere. Who may start one and how it runs is analysis_api.rs's.
//!
//! The budget: each owner (an account, or an address for a visitor) may spend
//! `Config::analysis_ms_per_hour` of search in any hour. An analysis costs its positions
//! times its time per position, charged in full when it is accepted (counted and written in
//! one transaction, under a lock on PostgreSQL, so instances cannot both pass the limit).

use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::store::{Store, StoreError};

/// The budget's window.
pub const WINDOW_MS: i64 = 3_600_000;
/// An analysis its instance stopped updating this long ago was cut short (the instance
/// stopped); readers are told it failed.
pub const STALE_MS: i64 = 120_000;

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
}

/// An analysis as stored and as answered.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Analysis {
    pub id: String,
    /// Who pays for it: `user:<id>` or `ip:<address>`. Not sent.
    #[serde(skip)]
    pub owner: String,
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

/// Fill in each point's loss and mark from the point after it (known once both are
/// searched): the mover's expected score before its turn, less after it
/// (cohort_engine::marks::turn_mark; a turn that is the engine's own choice loses nothing).
pub fn mark_turns(points: &mut [Point]) {
    for i in 0..points.len().saturating_sub(1) {
        let (before, after) = (points[i].score, points[i + 1].score);
        let Some(side) = points[i].side.clone() else {
            continue;
        };
        let own = points[i].played.is_empty() || points[i].played == points[i].best;
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

    /// Store a new analysis if its owner has `cost_ms` of search left in the budget
    /// (`per_hour_ms`): `Ok(left_ms)`, what is left after it; otherwise `Err(left_ms)`,
    /// what is left.
    pub async fn add_analysis(
        &self,
        a: &Analysis,
        cost_ms: i64,
        per_hour_ms: i64,
    ) -> Result<Result<i64, i64>, StoreError> {
        let mut tx = self.pool.begin().await?;
        if self.kind == "postgres" {
            sqlx::query("SELECT pg_advisory_xact_lock(7362019)")
                .execute(&mut *tx)
                .await?;
        }
        let spent: i64 = sqlx::query(
            "SELECT CAST(COALESCE(SUM(cost_ms), 0) AS BIGINT) FROM analyses WHERE owner = $1 AND created_ms > $2",
        )
        .bind(&a.owner)
        .bind(a.created_ms - WINDOW_MS)
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        if spent + cost_ms > per_hour_ms {
            return Ok(Err((per_hour_ms - spent).max(0)));
        }
        sqlx::query(
            "INSERT INTO analyses (id, owner, game_id, variant, state, error, total, ms,
                 cost_ms, points, created_ms, updated_ms)
             VALUES ($1, $2, $3, $4, $5, NULL, $6, $7, $8, $9, $10, $10)",
        )
        .bind(&a.id)
        .bind(&a.owner)
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
        Ok(Ok(per_hour_ms - spent - cost_ms))
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

//! Storage: games and their steps in SQLite (default) or PostgreSQL, through one set of
//! migrations written in the SQL both understand. Every change is one transaction that also
//! bumps the game's version, so a change is either wholly stored or not at all.

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor, Row};

/// The schema, one migration per entry; `schema_version` records how many have run.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        variant TEXT NOT NULL,
        start TEXT NOT NULL,
        white TEXT NOT NULL,
        black TEXT NOT NULL,
        ai_agent TEXT NOT NULL,
        ai_time_ms BIGINT NOT NULL,
        white_token TEXT NOT NULL,
        black_token TEXT NOT NULL,
        draw_offer TEXT,
        ending TEXT,
        finished BIGINT NOT NULL,
        version BIGINT NOT NULL,
        created_ms BIGINT NOT NULL,
        updated_ms BIGINT NOT NULL
    )",
    "CREATE TABLE steps (
        game_id TEXT NOT NULL REFERENCES games(id),
        ply BIGINT NOT NULL,
        step TEXT NOT NULL,
        PRIMARY KEY (game_id, ply)
    )",
    "CREATE INDEX games_by_update ON games (updated_ms)",
    // The creator's token of an AI-against-AI game ('' for other games and older ones).
    "ALTER TABLE games ADD COLUMN creator_token TEXT NOT NULL DEFAULT ''",
    // A custom variant's file, as the player gave it ('' for built-in variants and older
    // games): the game is rebuilt from it after a restart (crates/server/src/custom.rs).
    "ALTER TABLE games ADD COLUMN variant_text TEXT NOT NULL DEFAULT ''",
];

/// A game's row: everything but its steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub variant: String,
    pub start: String,
    /// "human" or "ai" per seat.
    pub white: String,
    pub black: String,
    pub ai_agent: String,
    pub ai_time_ms: i64,
    pub white_token: String,
    pub black_token: String,
    /// AI against AI: the token that may stop the game ("" for other games).
    pub creator_token: String,
    /// A custom variant: the text of its variant file, which defines `variant` ("" for a
    /// built-in variant).
    pub variant_text: String,
    pub draw_offer: Option<String>,
    /// How a game ended outside the rules: "resign white", "resign black", "agreement",
    /// "stopped" (an AI-against-AI game stopped by its creator: a draw by agreement).
    pub ending: Option<String>,
    pub finished: bool,
    pub version: i64,
    pub created_ms: i64,
    pub updated_ms: i64,
}

/// A change to store in one transaction.
pub enum Change<'a> {
    /// Append the step at `ply` (0-based).
    Step { ply: i64, text: &'a str },
    /// Remove the step at `ply` (undo inside a turn).
    Unstep { ply: i64 },
    /// Only the game row changes (draw offer, resignation, agreement).
    Row,
}

#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    pub kind: &'static str,
}

pub type StoreError = sqlx::Error;

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

impl Store {
    /// Open `url` (`sqlite://file.db`, `sqlite::memory:`, `postgres://...`) and migrate.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let url = if sqlite && !url.contains("mode=") && !url.contains(":memory:") {
            format!("{url}{}mode=rwc", if url.contains('?') { '&' } else { '?' })
        } else {
            url.to_string()
        };
        let pool = AnyPoolOptions::new()
            // SQLite has one writer at a time: one connection serialises writes without
            // ever meeting SQLITE_BUSY. PostgreSQL gets a few.
            .max_connections(if sqlite { 1 } else { 8 })
            // A wrong address or a file that is no database should fail soon, not in 30 s.
            .acquire_timeout(std::time::Duration::from_secs(5))
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        // WAL: a commit survives the process being killed the moment after.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                        conn.execute("PRAGMA busy_timeout = 5000").await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await?;
        let store = Store {
            pool,
            kind: if sqlite { "sqlite" } else { "postgres" },
        };
        store.migrate().await?;
        Ok(store)
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        self.pool
            .execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
            .await?;
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query("SELECT version FROM schema_version")
            .fetch_optional(&mut *tx)
            .await?;
        let done = match row {
            Some(r) => r.try_get::<i64, _>(0)? as usize,
            None => {
                sqlx::query("INSERT INTO schema_version (version) VALUES (0)")
                    .execute(&mut *tx)
                    .await?;
                0
            }
        };
        for sql in &MIGRATIONS[done.min(MIGRATIONS.len())..] {
            tx.execute(*sql).await?;
        }
        sqlx::query("UPDATE schema_version SET version = $1")
            .bind(MIGRATIONS.len() as i64)
            .execute(&mut *tx)
            .await?;
        tx.commit().await
    }

    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO games (id, variant, start, white, black, ai_agent, ai_time_ms,
             white_token, black_token, draw_offer, ending, finished, version, created_ms,
             updated_ms, creator_token, variant_text)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
        )
        .bind(&g.id)
        .bind(&g.variant)
        .bind(&g.start)
        .bind(&g.white)
        .bind(&g.black)
        .bind(&g.ai_agent)
        .bind(g.ai_time_ms)
        .bind(&g.white_token)
        .bind(&g.black_token)
        .bind(g.draw_offer.clone())
        .bind(g.ending.clone())
        .bind(g.finished as i64)
        .bind(g.version)
        .bind(g.created_ms)
        .bind(g.updated_ms)
        .bind(&g.creator_token)
        .bind(&g.variant_text)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A new game and its first steps (a game continued from a record), in one transaction.
    pub async fn insert_game_with_steps(
        &self,
        g: &GameRow,
        steps: &[String],
    ) -> Result<(), StoreError> {
        if steps.is_empty() {
            return self.insert_game(g).await;
        }
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO games (id, variant, start, white, black, ai_agent, ai_time_ms,
             white_token, black_token, draw_offer, ending, finished, version, created_ms,
             updated_ms, creator_token)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
        )
        .bind(&g.id)
        .bind(&g.variant)
        .bind(&g.start)
        .bind(&g.white)
        .bind(&g.black)
        .bind(&g.ai_agent)
        .bind(g.ai_time_ms)
        .bind(&g.white_token)
        .bind(&g.black_token)
        .bind(g.draw_offer.clone())
        .bind(g.ending.clone())
        .bind(g.finished as i64)
        .bind(g.version)
        .bind(g.created_ms)
        .bind(g.updated_ms)
        .bind(&g.creator_token)
        .execute(&mut *tx)
        .await?;
        for (ply, text) in steps.iter().enumerate() {
            sqlx::query("INSERT INTO steps (game_id, ply, step) VALUES ($1, $2, $3)")
                .bind(&g.id)
                .bind(ply as i64)
                .bind(text)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await
    }

    /// Store `change` and the new state of the game row in one transaction. The row's
    /// version must still be `row.version - 1`: a stale writer fails instead of overwriting.
    pub async fn commit(&self, row: &GameRow, change: Change<'_>) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        match change {
            Change::Step { ply, text } => {
                sqlx::query("INSERT INTO steps (game_id, ply, step) VALUES ($1, $2, $3)")
                    .bind(&row.id)
                    .bind(ply)
                    .bind(text)
                    .execute(&mut *tx)
                    .await?;
            }
            Change::Unstep { ply } => {
                let done = sqlx::query("DELETE FROM steps WHERE game_id = $1 AND ply = $2")
                    .bind(&row.id)
                    .bind(ply)
                    .execute(&mut *tx)
                    .await?;
                if done.rows_affected() != 1 {
                    return Err(sqlx::Error::RowNotFound);
                }
            }
            Change::Row => {}
        }
        let done = sqlx::query(
            "UPDATE games SET draw_offer = $1, ending = $2, finished = $3, version = $4,
             updated_ms = $5 WHERE id = $6 AND version = $7",
        )
        .bind(row.draw_offer.clone())
        .bind(row.ending.clone())
        .bind(row.finished as i64)
        .bind(row.version)
        .bind(row.updated_ms)
        .bind(&row.id)
        .bind(row.version - 1)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(sqlx::Error::RowNotFound);
        }
        tx.commit().await
    }

    fn game_row(r: &AnyRow) -> Result<GameRow, StoreError> {
        Ok(GameRow {
            id: r.try_get("id")?,
            variant: r.try_get("variant")?,
            start: r.try_get("start")?,
            white: r.try_get("white")?,
            black: r.try_get("black")?,
            ai_agent: r.try_get("ai_agent")?,
            ai_time_ms: r.try_get("ai_time_ms")?,
            white_token: r.try_get("white_token")?,
            black_token: r.try_get("black_token")?,
            creator_token: r.try_get("creator_token")?,
            variant_text: r.try_get("variant_text")?,
            draw_offer: r.try_get("draw_offer")?,
            ending: r.try_get("ending")?,
            finished: r.try_get::<i64, _>("finished")? != 0,
            version: r.try_get("version")?,
            created_ms: r.try_get("created_ms")?,
            updated_ms: r.try_get("updated_ms")?,
        })
    }

    const COLUMNS: &'static str = "id, variant, start, white, black, ai_agent, ai_time_ms,
        white_token, black_token, draw_offer, ending, finished, version, created_ms, updated_ms,
        creator_token, variant_text";

    pub async fn game(&self, id: &str) -> Result<Option<(GameRow, Vec<String>)>, StoreError> {
        let sql = format!("SELECT {} FROM games WHERE id = $1", Self::COLUMNS);
        let Some(r) = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let row = Self::game_row(&r)?;
        let steps = self.steps(id).await?;
        Ok(Some((row, steps)))
    }

    pub async fn steps(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT ply, step FROM steps WHERE game_id = $1 ORDER BY ply")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        let mut steps = Vec::with_capacity(rows.len());
        for (i, r) in rows.iter().enumerate() {
            let ply: i64 = r.try_get(0)?;
            if ply != i as i64 {
                return Err(sqlx::Error::Protocol(format!(
                    "game {id}: step {i} is missing (found ply {ply})"
                )));
            }
            steps.push(r.try_get(1)?);
        }
        Ok(steps)
    }

    /// Ids of games, unfinished only or all, newest change first.
    pub async fn game_ids(
        &self,
        unfinished_only: bool,
        limit: i64,
    ) -> Result<Vec<String>, StoreError> {
        let sql = if unfinished_only {
            "SELECT id FROM games WHERE finished = 0 ORDER BY updated_ms DESC LIMIT $1"
        } else {
            "SELECT id FROM games ORDER BY updated_ms DESC LIMIT $1"
        };
        let rows = sqlx::query(sql).bind(limit).fetch_all(&self.pool).await?;
        rows.iter().map(|r| r.try_get(0)).collect()
    }

    /// AI-against-AI games not finished.
    pub async fn count_ai_games(&self) -> Result<i64, StoreError> {
        let r = sqlx::query(
            "SELECT COUNT(*) FROM games WHERE finished = 0 AND white = 'ai' AND black = 'ai'",
        )
        .fetch_one(&self.pool)
        .await?;
        r.try_get(0)
    }

    /// Games with a custom variant not finished.
    pub async fn count_custom_games(&self) -> Result<i64, StoreError> {
        let r = sqlx::query("SELECT COUNT(*) FROM games WHERE finished = 0 AND variant_text <> ''")
            .fetch_one(&self.pool)
            .await?;
        r.try_get(0)
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}

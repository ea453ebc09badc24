//! The AI's searches as jobs in storage (docs/server.md, "Fair AI compute"; docs/deploy.md):
//! one row per game whose AI is to move, taken by the worker pool of any instance or by a
//! `cohort worker`, under a lease the taker renews while it searches. A taker that dies stops
//! renewing; when the lease runs out another takes the job over.
//!
//! On PostgreSQL a job is taken with `FOR UPDATE SKIP LOCKED` (takers at once never wait on
//! each other, and never both get one job); on SQLite (one instance) by the same conditional
//! update without it.

use sqlx::Row;

use crate::sched::Class;
use crate::store::{Store, StoreError, JOBS_CHANNEL};

/// A job as stored: whose it is and until when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AiJob {
    pub game_id: String,
    pub class: Class,
    /// When it was queued (ms since the epoch): jobs of a class are taken oldest first.
    pub queued_ms: i64,
    /// The taker ("host:pid:token", `App::instance`), '' while nobody holds it.
    pub owner: String,
    /// The lease's end (ms since the epoch): 0 while queued; `i64::MAX` for a job whose
    /// search failed (it is not tried again until the game changes).
    pub lease_until_ms: i64,
}

fn class_name(class: Class) -> &'static str {
    match class {
        Class::Human => "human",
        Class::Bulk => "bulk",
    }
}

fn class_of(name: &str) -> Class {
    if name == "bulk" {
        Class::Bulk
    } else {
        Class::Human
    }
}

impl Store {
    async fn jobs_changed(&self) -> Result<(), StoreError> {
        if self.kind == "postgres" {
            sqlx::query("SELECT pg_notify($1, '')")
                .bind(JOBS_CHANNEL)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// Queue the AI's search for game `game` unless one is queued or under way already (one
    /// job per game). True if this call queued it.
    pub async fn queue_ai(&self, game: &str, class: Class, now: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO ai_jobs (game_id, class, queued_ms, owner, lease_until_ms)
             VALUES ($1, $2, $3, '', 0) ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game)
        .bind(class_name(class))
        .bind(now)
        .execute(&self.pool)
        .await?;
        let queued = done.rows_affected() == 1;
        if queued {
            self.jobs_changed().await?;
        }
        Ok(queued)
    }

    /// Take the next job for `owner` until `now + lease_ms`: games with a person first, then
    /// AI-against-AI games (only if `bulk` allows), oldest first inside a class. A job whose
    /// lease ran out is taken like a queued one.
    pub async fn take_ai(
        &self,
        owner: &str,
        now: i64,
        lease_ms: i64,
        bulk: bool,
    ) -> Result<Option<AiJob>, StoreError> {
        let lock = if self.kind == "postgres" {
            "FOR UPDATE SKIP LOCKED"
        } else {
            ""
        };
        let classes = if bulk { "" } else { "AND class = 'human'" };
        let row = sqlx::query(&format!(
            "UPDATE ai_jobs SET owner = $1, lease_until_ms = $2
             WHERE game_id = (SELECT game_id FROM ai_jobs WHERE lease_until_ms < $3 {classes}
                              ORDER BY CASE WHEN class = 'human' THEN 0 ELSE 1 END, queued_ms,
                                       game_id
                              LIMIT 1 {lock})
               AND lease_until_ms < $3
             RETURNING game_id, class, queued_ms, owner, lease_until_ms"
        ))
        .bind(owner)
        .bind(now + lease_ms)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(job_of).transpose()
    }

    /// Extend `owner`'s lease on game `game`'s job. False if the job is no longer its own
    /// (its lease ran out and another took it over, or it was given back).
    pub async fn renew_ai(&self, game: &str, owner: &str, until: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE ai_jobs SET lease_until_ms = $1 WHERE game_id = $2 AND owner = $3
             AND lease_until_ms <> $4",
        )
        .bind(until)
        .bind(game)
        .bind(owner)
        .bind(i64::MAX)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// `owner` is done with game `game`'s job (the AI played, or there was nothing to play).
    pub async fn finish_ai(&self, game: &str, owner: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM ai_jobs WHERE game_id = $1 AND owner = $2")
            .bind(game)
            .bind(owner)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The search failed: the job stays, held by nobody, and is not taken again (a search that
    /// panics would panic again). The game's next change replaces it.
    pub async fn park_ai(&self, game: &str, owner: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE ai_jobs SET owner = '', lease_until_ms = $1 WHERE game_id = $2 AND owner = $3",
        )
        .bind(i64::MAX)
        .bind(game)
        .bind(owner)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Give back game `game`'s job, which `owner` took but cannot run now: others may take it.
    pub async fn give_back_ai(&self, game: &str, owner: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE ai_jobs SET owner = '', lease_until_ms = 0 WHERE game_id = $1 AND owner = $2
             AND lease_until_ms <> $3",
        )
        .bind(game)
        .bind(owner)
        .bind(i64::MAX)
        .execute(&self.pool)
        .await?;
        self.jobs_changed().await
    }

    /// Give back every job `owner` holds (it is stopping): others take them at once.
    pub async fn release_ai(&self, owner: &str) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "UPDATE ai_jobs SET owner = '', lease_until_ms = 0 WHERE owner = $1
             AND lease_until_ms <> $2",
        )
        .bind(owner)
        .bind(i64::MAX)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() > 0 {
            self.jobs_changed().await?;
        }
        Ok(done.rows_affected())
    }

    /// Game `game`'s job, if one is queued or under way.
    pub async fn ai_job(&self, game: &str) -> Result<Option<AiJob>, StoreError> {
        let row = sqlx::query(
            "SELECT game_id, class, queued_ms, owner, lease_until_ms FROM ai_jobs
             WHERE game_id = $1",
        )
        .bind(game)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(job_of).transpose()
    }
}

fn job_of(r: &sqlx::any::AnyRow) -> Result<AiJob, StoreError> {
    Ok(AiJob {
        game_id: r.try_get("game_id")?,
        class: class_of(&r.try_get::<String, _>("class")?),
        queued_ms: r.try_get("queued_ms")?,
        owner: r.try_get("owner")?,
        lease_until_ms: r.try_get("lease_until_ms")?,
    })
}

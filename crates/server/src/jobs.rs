//! The AI's searches as jobs in storage (docs/server.md, "Fair AI compute"; docs/deploy.md):
//! one row per game whose AI is to move, taken by the worker pool of any instance or by a
//! `cohort worker`, under a lease the taker renews while it searches. A taker that dies stops
//! renewing; when the lease runs out another takes the job over.
//!
//! On PostgreSQL a job is taken with `FOR UPDATE SKIP LOCKED` (takers at once never wait on
//! each other, and never both get one job); on SQLite (one instance) by the same conditional
//! update without it.
//!
//! Workers are shared by caller, not by game: each job carries its game's caller
//! ([`caller_of`]), and the next job taken is one of the caller with the fewest searches
//! under way, among those the caller served longest ago (table `ai_callers`), its oldest.
//! So one caller's twenty games wait behind each other, not in front of everyone else's.

use sqlx::Row;

use crate::sched::Class;
use crate::store::{Store, StoreError, JOBS_CHANNEL};

/// A job as stored: whose it is and until when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AiJob {
    /// The job's key: its game's id (an AI turn), or `analysis:<id>` (an analysis).
    pub game_id: String,
    /// "turn" (the AI's turn in the game) or "analysis" (an analysis, analysis_api.rs).
    pub kind: String,
    /// What the taker needs beyond the key (an analysis: its source, JSON); "" for a turn.
    pub payload: String,
    /// Whose game it is ([`caller_of`]): workers are shared by caller.
    pub caller: String,
    pub class: Class,
    /// When it was queued (ms since the epoch): jobs of a class are taken oldest first.
    pub queued_ms: i64,
    /// The taker ("host:pid:token", `App::instance`), '' while nobody holds it.
    pub owner: String,
    /// The lease's end (ms since the epoch): 0 while queued; `i64::MAX` for a job whose
    /// search failed (it is not tried again until the game changes).
    pub lease_until_ms: i64,
}

/// The caller a game's AI searches are counted against: the account seated at a human seat
/// ("user:<id>"), else the address that created the game (`created_by`, "ip:<address>"),
/// else the game itself (games stored before callers were recorded).
pub fn caller_of(row: &crate::store::GameRow) -> String {
    let seated = |kind: &str, user: &Option<String>| (kind == "human").then(|| user.clone());
    match seated(&row.white, &row.white_user)
        .flatten()
        .or_else(|| seated(&row.black, &row.black_user).flatten())
    {
        Some(user) => format!("user:{user}"),
        None if !row.created_by.is_empty() => row.created_by.clone(),
        None => format!("game:{}", row.id),
    }
}

/// How long a caller's last service is remembered: one not served for this long counts as
/// never served.
const SERVED_MEMORY_MS: i64 = 10 * 60 * 1000;

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

    /// Queue the AI's search for game `game` of `caller` unless one is queued or under way
    /// already (one job per game). True if this call queued it.
    pub async fn queue_ai(
        &self,
        game: &str,
        caller: &str,
        class: Class,
        now: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO ai_jobs (game_id, class, queued_ms, owner, lease_until_ms, caller)
             VALUES ($1, $2, $3, '', 0, $4) ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game)
        .bind(class_name(class))
        .bind(now)
        .bind(caller)
        .execute(&self.pool)
        .await?;
        let queued = done.rows_affected() == 1;
        if queued {
            self.jobs_changed().await?;
        }
        Ok(queued)
    }

    /// Take the next job for `owner` until `now + lease_ms`: games with a person first, then
    /// AI-against-AI games (only if `bulk` allows); inside a class, a job of the caller with
    /// the fewest searches under way (leases that hold), then of the caller served longest
    /// ago (never: first), then the oldest. A job whose lease ran out is taken like a queued
    /// one. `idle_callers`: only a job of a caller with no search under way (a pool's last
    /// free worker is kept for them). The caller's service time is then set to `now`.
    pub async fn take_ai(
        &self,
        owner: &str,
        now: i64,
        lease_ms: i64,
        bulk: bool,
        idle_callers: bool,
    ) -> Result<Option<AiJob>, StoreError> {
        let lock = if self.kind == "postgres" {
            "FOR UPDATE OF j SKIP LOCKED"
        } else {
            ""
        };
        let classes = if bulk { "" } else { "AND j.class = 'human'" };
        // Searches under way: leases that hold, parked jobs ($4) not counted.
        let under_way = "FROM ai_jobs r WHERE r.caller = j.caller
                         AND r.lease_until_ms >= $3 AND r.lease_until_ms <> $4";
        let idle = if idle_callers {
            format!("AND NOT EXISTS (SELECT 1 {under_way})")
        } else {
            String::new()
        };
        let row = sqlx::query(&format!(
            "UPDATE ai_jobs SET owner = $1, lease_until_ms = $2
             WHERE game_id = (
                 SELECT j.game_id FROM ai_jobs j
                 LEFT JOIN ai_callers c ON c.caller = j.caller
                 WHERE j.lease_until_ms < $3 {classes} {idle}
                 ORDER BY CASE WHEN j.class = 'human' THEN 0 ELSE 1 END,
                          (SELECT COUNT(*) {under_way}),
                          COALESCE(c.served_ms, 0), j.queued_ms, j.game_id
                 LIMIT 1 {lock})
               AND lease_until_ms < $3
             RETURNING game_id, kind, payload, caller, class, queued_ms, owner, lease_until_ms"
        ))
        .bind(owner)
        .bind(now + lease_ms)
        .bind(now)
        .bind(i64::MAX)
        .fetch_optional(&self.pool)
        .await?;
        let Some(job) = row.as_ref().map(job_of).transpose()? else {
            return Ok(None);
        };
        // The job is this taker's now: a failure to note the service costs only fairness.
        if let Err(e) = self.served(&job.caller, now).await {
            eprintln!(
                "cohort: the AI job queue: caller {} not noted as served: {e}",
                job.caller
            );
        }
        Ok(Some(job))
    }

    /// `caller` was served at `now`; callers not served for [`SERVED_MEMORY_MS`] are forgotten.
    async fn served(&self, caller: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO ai_callers (caller, served_ms) VALUES ($1, $2)
             ON CONFLICT (caller) DO UPDATE SET served_ms = excluded.served_ms",
        )
        .bind(caller)
        .bind(now)
        .execute(&self.pool)
        .await?;
        sqlx::query("DELETE FROM ai_callers WHERE served_ms < $1")
            .bind(now - SERVED_MEMORY_MS)
            .execute(&self.pool)
            .await?;
        Ok(())
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

    /// AI turns of `caller` queued or under way (its games with the AI to move; parked jobs
    /// and analyses not counted).
    pub async fn count_ai_jobs_of(&self, caller: &str) -> Result<i64, StoreError> {
        let r = sqlx::query(
            "SELECT COUNT(*) FROM ai_jobs WHERE caller = $1 AND kind = 'turn'
             AND lease_until_ms <> $2",
        )
        .bind(caller)
        .bind(i64::MAX)
        .fetch_one(&self.pool)
        .await?;
        r.try_get(0)
    }

    /// Queue analysis `id` of `caller` as a job (bulk class, key `analysis:<id>`), with
    /// `payload` for its taker.
    pub async fn queue_analysis(
        &self,
        id: &str,
        caller: &str,
        payload: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO ai_jobs (game_id, class, queued_ms, owner, lease_until_ms, caller,
                                  kind, payload)
             VALUES ($1, 'bulk', $2, '', 0, $3, 'analysis', $4)",
        )
        .bind(format!("analysis:{id}"))
        .bind(now)
        .bind(caller)
        .bind(payload)
        .execute(&self.pool)
        .await?;
        self.jobs_changed().await
    }

    /// Game `game`'s job, if one is queued or under way.
    pub async fn ai_job(&self, game: &str) -> Result<Option<AiJob>, StoreError> {
        let row = sqlx::query(
            "SELECT game_id, kind, payload, caller, class, queued_ms, owner, lease_until_ms
             FROM ai_jobs
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
        kind: r.try_get("kind")?,
        payload: r.try_get("payload")?,
        caller: r.try_get("caller")?,
        class: class_of(&r.try_get::<String, _>("class")?),
        queued_ms: r.try_get("queued_ms")?,
        owner: r.try_get("owner")?,
        lease_until_ms: r.try_get("lease_until_ms")?,
    })
}

//! The lobby's challenges in storage (the `challenges` table): every instance on the
//! database sees the same ones, and they outlive a restart. A challenge is open until it is
//! accepted, cancelled, or left stale (a live one whose creator's page has not asked about
//! it for `STALE_LIVE_MS`, a correspondence one after `STALE_CORR_MS`). Accepting claims the
//! challenge with one conditional update, so that one challenge starts one game whichever
//! instances accept it at once. PostgreSQL announces each change on `LOBBY_CHANNEL`.

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::clock::TimeControl;
use crate::store::{Store, StoreError, LOBBY_CHANNEL};

/// A live challenge whose creator's page has not asked about it for this long is withdrawn.
pub const STALE_LIVE_MS: i64 = 30_000;
/// A correspondence challenge is withdrawn after a week.
pub const STALE_CORR_MS: i64 = 7 * 86_400_000;
/// Accepted or withdrawn challenges are kept this long, for their creators to read.
const KEPT_MS: i64 = 3_600_000;

/// One challenge as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Challenge {
    pub id: String,
    /// The creator's secret: it reads the challenge's state and the creator's seat link.
    pub secret: String,
    /// Account id or "ip:<address>": one creator's open challenges are limited in number.
    pub owner: String,
    /// The creator's account (id, name), if logged in.
    pub by: Option<(String, String)>,
    pub variant: String,
    pub control: TimeControl,
    /// The creator's colour: "white", "black" or "random".
    pub colour: String,
    pub rated: bool,
    pub created_ms: i64,
    pub seen_ms: i64,
    /// Once accepted: the game and the creator's seat link.
    pub game: Option<(String, String)>,
    pub cancelled: bool,
    /// A quick-pairing seek (quick.rs): its creator's rating in the variant when it was
    /// posted, and how far from it an opponent's rating may be. None: any opponent.
    pub rating: Option<i64>,
    pub range: Option<i64>,
}

impl Challenge {
    /// Open now: not accepted, not cancelled, not stale.
    pub fn open(&self, now: i64) -> bool {
        self.game.is_none() && !self.cancelled && now - self.seen_ms < stale_ms(&self.control)
    }

    /// The opponents' ratings this challenge accepts (inclusive), if it limits them.
    pub fn rating_bounds(&self) -> Option<(i64, i64)> {
        let (r, range) = (self.rating?, self.range?);
        Some((r - range, r + range))
    }

    /// Whether an opponent rated `rating` may accept it.
    pub fn admits(&self, rating: i64) -> bool {
        self.rating_bounds()
            .is_none_or(|(lo, hi)| (lo..=hi).contains(&rating))
    }
}

fn stale_ms(control: &TimeControl) -> i64 {
    match control {
        TimeControl::Correspondence { .. } => STALE_CORR_MS,
        _ => STALE_LIVE_MS,
    }
}

/// The SQL condition "open at the time bound to `now`" (`$1`, ...), as `Challenge::open`
/// says it. Parameters are numbered in the order they first appear (SQLite numbers them so).
fn open_at(now: &str) -> String {
    format!(
        "game_id IS NULL AND cancelled = 0 AND \
         ((clock_kind = 'corr' AND seen_ms > {now} - {STALE_CORR_MS}) OR \
          (clock_kind <> 'corr' AND seen_ms > {now} - {STALE_LIVE_MS}))"
    )
}

/// Why a new challenge was refused.
pub enum Refused {
    /// The lobby is full (`max_open` open challenges).
    Full,
    /// This creator has `max_each` open challenges already.
    TooMany,
}

fn challenge_of(r: &AnyRow) -> Result<Challenge, StoreError> {
    let by_user: Option<String> = r.try_get("by_user")?;
    let by_name: Option<String> = r.try_get("by_name")?;
    let game_id: Option<String> = r.try_get("game_id")?;
    let link: Option<String> = r.try_get("creator_link")?;
    let kind: String = r.try_get("clock_kind")?;
    Ok(Challenge {
        id: r.try_get("id")?,
        secret: r.try_get("secret")?,
        owner: r.try_get("owner")?,
        by: by_user.zip(by_name),
        variant: r.try_get("variant")?,
        control: TimeControl::from_stored(
            &kind,
            r.try_get("clock_base_ms")?,
            r.try_get("clock_inc_ms")?,
        ),
        colour: r.try_get("colour")?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        created_ms: r.try_get("created_ms")?,
        seen_ms: r.try_get("seen_ms")?,
        game: game_id.map(|g| (g, link.unwrap_or_default())),
        cancelled: r.try_get::<i64, _>("cancelled")? != 0,
        rating: r.try_get("rating")?,
        range: r.try_get("rating_range")?,
    })
}

impl Store {
    /// Announce a change of the lobby to every instance (PostgreSQL; nothing on SQLite).
    async fn lobby_changed(&self) -> Result<(), StoreError> {
        if self.kind == "postgres" {
            sqlx::query("SELECT pg_notify($1, '')")
                .bind(LOBBY_CHANNEL)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// Store a new challenge unless the lobby or its creator's share is full. Counted and
    /// written in one transaction (on PostgreSQL under a lock, so that instances posting at
    /// once cannot pass the limits together).
    pub async fn add_challenge(
        &self,
        c: &Challenge,
        max_open: usize,
        max_each: usize,
    ) -> Result<Result<(), Refused>, StoreError> {
        let mut tx = self.pool.begin().await?;
        if self.kind == "postgres" {
            sqlx::query("SELECT pg_advisory_xact_lock(7362017)")
                .execute(&mut *tx)
                .await?;
        }
        let count = |extra: &str| {
            format!(
                "SELECT COUNT(*) FROM challenges WHERE {}{extra}",
                open_at("$1")
            )
        };
        let all: i64 = sqlx::query(&count(""))
            .bind(c.created_ms)
            .fetch_one(&mut *tx)
            .await?
            .try_get(0)?;
        if all as usize >= max_open {
            return Ok(Err(Refused::Full));
        }
        let mine: i64 = sqlx::query(&count(" AND owner = $2"))
            .bind(c.created_ms)
            .bind(&c.owner)
            .fetch_one(&mut *tx)
            .await?
            .try_get(0)?;
        if mine as usize >= max_each {
            return Ok(Err(Refused::TooMany));
        }
        let (base, inc) = c.control.stored();
        sqlx::query(
            "INSERT INTO challenges (id, secret, owner, by_user, by_name, variant, clock_kind,
             clock_base_ms, clock_inc_ms, colour, rated, created_ms, seen_ms, game_id,
             creator_link, cancelled, rating, rating_range)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, NULL, NULL, 0,
             $14, $15)",
        )
        .bind(&c.id)
        .bind(&c.secret)
        .bind(&c.owner)
        .bind(c.by.as_ref().map(|b| b.0.clone()))
        .bind(c.by.as_ref().map(|b| b.1.clone()))
        .bind(&c.variant)
        .bind(c.control.kind())
        .bind(base)
        .bind(inc)
        .bind(&c.colour)
        .bind(c.rated as i64)
        .bind(c.created_ms)
        .bind(c.seen_ms)
        .bind(c.rating)
        .bind(c.range)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        self.lobby_changed().await?;
        Ok(Ok(()))
    }

    /// The open challenges, newest first; challenges closed more than an hour ago are
    /// deleted on the way.
    pub async fn open_challenges(&self, now: i64) -> Result<Vec<Challenge>, StoreError> {
        sqlx::query(&format!(
            "DELETE FROM challenges WHERE NOT ({}) AND seen_ms < $1 - {KEPT_MS}",
            open_at("$1")
        ))
        .bind(now)
        .execute(&self.pool)
        .await?;
        let rows = sqlx::query(&format!(
            "SELECT * FROM challenges WHERE {} ORDER BY created_ms DESC, id",
            open_at("$1")
        ))
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(challenge_of).collect()
    }

    pub async fn challenge(&self, id: &str) -> Result<Option<Challenge>, StoreError> {
        let row = sqlx::query("SELECT * FROM challenges WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(challenge_of).transpose()
    }

    /// The creator's page asked about its open challenge: it stays open.
    pub async fn touch_challenge(&self, id: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "UPDATE challenges SET seen_ms = $1 WHERE id = $2 AND {}",
            open_at("$1")
        ))
        .bind(now)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Withdraw an open challenge. False if it was no longer open.
    pub async fn cancel_challenge(&self, id: &str, now: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(&format!(
            "UPDATE challenges SET cancelled = 1 WHERE id = $1 AND {}",
            open_at("$2")
        ))
        .bind(id)
        .bind(now)
        .execute(&self.pool)
        .await?;
        self.lobby_changed().await?;
        Ok(done.rows_affected() == 1)
    }

    /// Claim an open challenge for game `game` (the creator's seat link `link`): true for
    /// exactly one of any number of claims at once.
    pub async fn claim_challenge(
        &self,
        id: &str,
        now: i64,
        game: &str,
        link: &str,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(&format!(
            "UPDATE challenges SET game_id = $1, creator_link = $2 WHERE id = $3 AND {}",
            open_at("$4")
        ))
        .bind(game)
        .bind(link)
        .bind(id)
        .bind(now)
        .execute(&self.pool)
        .await?;
        self.lobby_changed().await?;
        Ok(done.rows_affected() == 1)
    }

    /// Give a claimed challenge back (its game could not be started).
    pub async fn unclaim_challenge(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE challenges SET game_id = NULL, creator_link = NULL WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        self.lobby_changed().await
    }
}

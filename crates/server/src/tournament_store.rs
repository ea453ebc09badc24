//! Tournaments in storage (docs/server.md, "Tournaments"): the tournament's row, its players
//! numbered in the order they joined, and its pairings. Every change moves the tournament's
//! `version` in the same transaction, and a pairing is stored only if the version it was
//! computed from is still current: of instances pairing the same round at once, one commits,
//! and the others find the round paired. PostgreSQL announces each change on
//! `TOURNAMENTS_CHANNEL`.

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::clock::TimeControl;
use crate::store::{GameRow, Store, StoreError, TOURNAMENTS_CHANNEL};

/// "swiss" or "arena".
pub const KINDS: [&str; 2] = ["swiss", "arena"];

/// A tournament's row.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    pub id: String,
    pub name: String,
    /// "swiss" or "arena".
    pub kind: String,
    pub variant: String,
    /// The variant's name, as players read it.
    pub variant_name: String,
    /// An uploaded variant's file ("" for a built-in variant).
    pub variant_text: String,
    pub control: TimeControl,
    pub rated: bool,
    /// A Swiss's number of rounds (0 for an Arena).
    pub rounds: i64,
    /// An Arena's duration in minutes (0 for a Swiss).
    pub minutes: i64,
    /// What a Swiss's bye scores, in half points.
    pub bye_points: i64,
    /// When it starts (None: when its creator starts it).
    pub starts_ms: Option<i64>,
    /// An Arena's end, set when it starts.
    pub ends_ms: Option<i64>,
    /// "created", "running" or "finished".
    pub status: String,
    /// A Swiss's round being played (0 before the first).
    pub round: i64,
    /// The creating account's id.
    pub creator: String,
    pub created_ms: i64,
    pub version: i64,
    /// Why it finished early, if it did (a pairing that could not be made).
    pub note: String,
}

/// A player of a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Its number, in the order of joining (0 first).
    pub entrant: usize,
    pub user_id: String,
    /// The account's name as it chose to write it.
    pub name: String,
    /// Its rating in the variant when it joined.
    pub rating: i64,
    pub joined_ms: i64,
    pub withdrawn: bool,
}

/// A pairing: a game, or a Swiss round's bye (`black` and `game_id` None).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Its number in the tournament, in the order pairings were made.
    pub seq: i64,
    /// A Swiss's round (1 first); 0 in an Arena.
    pub round: i64,
    pub white: usize,
    pub black: Option<usize>,
    pub game_id: Option<String>,
    /// "white", "black" or "draw" once the game is over.
    pub result: Option<String>,
    pub created_ms: i64,
    pub ended_ms: Option<i64>,
}

/// A tournament's rows together.
#[derive(Clone, Debug)]
pub struct Tournament {
    pub row: TournamentRow,
    pub players: Vec<Player>,
    pub pairings: Vec<Pairing>,
}

/// What a new round changes besides the new pairings: the round number and the status.
pub struct RoundChange {
    pub round: i64,
    pub status: &'static str,
    pub ends_ms: Option<i64>,
    pub note: String,
}

fn tournament_row(r: &AnyRow) -> Result<TournamentRow, StoreError> {
    Ok(TournamentRow {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        kind: r.try_get("kind")?,
        variant: r.try_get("variant")?,
        variant_name: r.try_get("variant_name")?,
        variant_text: r.try_get("variant_text")?,
        control: TimeControl::from_stored(
            &r.try_get::<String, _>("clock_kind")?,
            r.try_get("clock_base_ms")?,
            r.try_get("clock_inc_ms")?,
        ),
        rated: r.try_get::<i64, _>("rated")? != 0,
        rounds: r.try_get("rounds")?,
        minutes: r.try_get("minutes")?,
        bye_points: r.try_get("bye_points")?,
        starts_ms: r.try_get("starts_ms")?,
        ends_ms: r.try_get("ends_ms")?,
        status: r.try_get("status")?,
        round: r.try_get("round")?,
        creator: r.try_get("creator")?,
        created_ms: r.try_get("created_ms")?,
        version: r.try_get("version")?,
        note: r.try_get("note")?,
    })
}

impl Store {
    async fn tournament_changed(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        id: &str,
    ) -> Result<(), StoreError> {
        if self.kind == "postgres" {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(TOURNAMENTS_CHANNEL)
                .bind(id)
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }

    /// Store a new tournament, unless its creator already has `most_open` not finished.
    /// Returns false when over that limit.
    pub async fn add_tournament(
        &self,
        t: &TournamentRow,
        most_open: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        if self.kind == "postgres" {
            // Two creations by one account at once cannot both pass the count.
            sqlx::query("SELECT pg_advisory_xact_lock(7362017)")
                .execute(&mut *tx)
                .await?;
        }
        let open: i64 = sqlx::query(
            "SELECT COUNT(*) FROM tournaments WHERE creator = $1 AND status <> 'finished'",
        )
        .bind(&t.creator)
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        if open >= most_open {
            return Ok(false);
        }
        let (base, inc) = t.control.stored();
        sqlx::query(
            "INSERT INTO tournaments (id, name, kind, variant, variant_name, variant_text,
             clock_kind, clock_base_ms, clock_inc_ms, rated, rounds, minutes, bye_points,
             starts_ms, ends_ms, status, round, creator, created_ms, version, note)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
             $18, $19, $20, $21)",
        )
        .bind(&t.id)
        .bind(&t.name)
        .bind(&t.kind)
        .bind(&t.variant)
        .bind(&t.variant_name)
        .bind(&t.variant_text)
        .bind(t.control.kind())
        .bind(base)
        .bind(inc)
        .bind(t.rated as i64)
        .bind(t.rounds)
        .bind(t.minutes)
        .bind(t.bye_points)
        .bind(t.starts_ms)
        .bind(t.ends_ms)
        .bind(&t.status)
        .bind(t.round)
        .bind(&t.creator)
        .bind(t.created_ms)
        .bind(t.version)
        .bind(&t.note)
        .execute(&mut *tx)
        .await?;
        self.tournament_changed(&mut tx, &t.id).await?;
        tx.commit().await?;
        Ok(true)
    }

    pub async fn tournament_row(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        sqlx::query("SELECT * FROM tournaments WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .map(|r| tournament_row(&r))
            .transpose()
    }

    /// The tournament `id` with its players and pairings.
    pub async fn tournament(&self, id: &str) -> Result<Option<Tournament>, StoreError> {
        let Some(row) = self.tournament_row(id).await? else {
            return Ok(None);
        };
        let players = sqlx::query(
            "SELECT p.entrant, p.user_id, u.name, p.rating, p.joined_ms, p.withdrawn
             FROM tournament_players p JOIN users u ON u.id = p.user_id
             WHERE p.tournament_id = $1 ORDER BY p.entrant",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            Ok(Player {
                entrant: r.try_get::<i64, _>(0)? as usize,
                user_id: r.try_get(1)?,
                name: r.try_get(2)?,
                rating: r.try_get(3)?,
                joined_ms: r.try_get(4)?,
                withdrawn: r.try_get::<i64, _>(5)? != 0,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
        let pairings = sqlx::query(
            "SELECT seq, round, white, black, game_id, result, created_ms, ended_ms
             FROM tournament_games WHERE tournament_id = $1 ORDER BY seq",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            Ok(Pairing {
                seq: r.try_get(0)?,
                round: r.try_get(1)?,
                white: r.try_get::<i64, _>(2)? as usize,
                black: r.try_get::<Option<i64>, _>(3)?.map(|b| b as usize),
                game_id: r.try_get(4)?,
                result: r.try_get(5)?,
                created_ms: r.try_get(6)?,
                ended_ms: r.try_get(7)?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(Some(Tournament {
            row,
            players,
            pairings,
        }))
    }

    /// Tournaments not finished, the soonest first, then the `finished` last finished; each
    /// with its number of players.
    pub async fn tournament_rows(
        &self,
        finished: i64,
    ) -> Result<Vec<(TournamentRow, i64)>, StoreError> {
        const PLAYERS: &str = "(SELECT COUNT(*) FROM tournament_players p
             WHERE p.tournament_id = t.id) AS players";
        let open = format!(
            "SELECT t.*, {PLAYERS} FROM tournaments t WHERE status <> 'finished'
             ORDER BY COALESCE(starts_ms, created_ms), id"
        );
        let done = format!(
            "SELECT t.*, {PLAYERS} FROM tournaments t WHERE status = 'finished'
             ORDER BY created_ms DESC, id LIMIT $1"
        );
        let mut rows = vec![];
        for r in sqlx::query(&open)
            .fetch_all(&self.pool)
            .await?
            .into_iter()
            .chain(
                sqlx::query(&done)
                    .bind(finished)
                    .fetch_all(&self.pool)
                    .await?,
            )
        {
            rows.push((tournament_row(&r)?, r.try_get("players")?));
        }
        Ok(rows)
    }

    /// Tournaments the director has work in: running, or due to start by `now`.
    pub async fn tournaments_to_direct(&self, now: i64) -> Result<Vec<String>, StoreError> {
        sqlx::query(
            "SELECT id FROM tournaments WHERE status = 'running'
             OR (status = 'created' AND starts_ms IS NOT NULL AND starts_ms <= $1)",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| r.try_get(0))
        .collect()
    }

    /// Move the tournament's version on in `tx`, if it is still `version` (any version when
    /// None) and not finished: false when another change came first.
    async fn bump(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        id: &str,
        version: Option<i64>,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournaments SET version = version + 1
             WHERE id = $1 AND status <> 'finished' AND ($2 < 0 OR version = $2)",
        )
        .bind(id)
        .bind(version.unwrap_or(-1))
        .execute(&mut **tx)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Add `user_id` to the tournament (or bring a withdrawn player back), rated `rating`.
    /// False when the tournament is finished or gone.
    pub async fn join_tournament(
        &self,
        id: &str,
        user_id: &str,
        rating: i64,
        now: i64,
        most_players: i64,
    ) -> Result<Result<(), &'static str>, StoreError> {
        let mut tx = self.pool.begin().await?;
        // The version's update locks the tournament's row (PostgreSQL): joins one at a time,
        // so each counts the players before it.
        if !self.bump(&mut tx, id, None).await? {
            return Ok(Err("the tournament is over"));
        }
        let back = sqlx::query(
            "UPDATE tournament_players SET withdrawn = 0
             WHERE tournament_id = $1 AND user_id = $2",
        )
        .bind(id)
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
        if back.rows_affected() == 0 {
            let n: i64 =
                sqlx::query("SELECT COUNT(*) FROM tournament_players WHERE tournament_id = $1")
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await?
                    .try_get(0)?;
            if n >= most_players {
                return Ok(Err("the tournament is full"));
            }
            sqlx::query(
                "INSERT INTO tournament_players (tournament_id, entrant, user_id, rating,
                 joined_ms, withdrawn) VALUES ($1, $2, $3, $4, $5, 0)",
            )
            .bind(id)
            .bind(n)
            .bind(user_id)
            .bind(rating)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        self.tournament_changed(&mut tx, id).await?;
        tx.commit().await?;
        Ok(Ok(()))
    }

    /// Withdraw `user_id`: before the start it leaves the list (and the entrants after it
    /// move up), after it is no longer paired. False when it was not playing.
    pub async fn withdraw_from_tournament(
        &self,
        id: &str,
        user_id: &str,
        started: bool,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        if !self.bump(&mut tx, id, None).await? {
            return Ok(false);
        }
        let done = if started {
            sqlx::query(
                "UPDATE tournament_players SET withdrawn = 1
                 WHERE tournament_id = $1 AND user_id = $2 AND withdrawn = 0",
            )
            .bind(id)
            .bind(user_id)
            .execute(&mut *tx)
            .await?
            .rows_affected()
        } else {
            // Before the start nothing refers to entrant numbers yet: renumber.
            let gone: Option<i64> = sqlx::query(
                "SELECT entrant FROM tournament_players WHERE tournament_id = $1 AND user_id = $2",
            )
            .bind(id)
            .bind(user_id)
            .fetch_optional(&mut *tx)
            .await?
            .map(|r| r.try_get(0))
            .transpose()?;
            match gone {
                None => 0,
                Some(e) => {
                    sqlx::query(
                        "DELETE FROM tournament_players WHERE tournament_id = $1 AND user_id = $2",
                    )
                    .bind(id)
                    .bind(user_id)
                    .execute(&mut *tx)
                    .await?;
                    // One by one upwards: the primary key holds at every row.
                    let later: Vec<i64> = sqlx::query(
                        "SELECT entrant FROM tournament_players
                         WHERE tournament_id = $1 AND entrant > $2 ORDER BY entrant",
                    )
                    .bind(id)
                    .bind(e)
                    .fetch_all(&mut *tx)
                    .await?
                    .iter()
                    .map(|r| r.try_get(0))
                    .collect::<Result<_, _>>()?;
                    for n in later {
                        sqlx::query(
                            "UPDATE tournament_players SET entrant = $3
                             WHERE tournament_id = $1 AND entrant = $2",
                        )
                        .bind(id)
                        .bind(n)
                        .bind(n - 1)
                        .execute(&mut *tx)
                        .await?;
                    }
                    1
                }
            }
        };
        if done == 0 {
            return Ok(false);
        }
        self.tournament_changed(&mut tx, id).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Withdraw the entrants `who` (players who forfeited a game): not paired again until
    /// they join again.
    pub async fn withdraw_entrants(&self, id: &str, who: &[usize]) -> Result<(), StoreError> {
        if who.is_empty() {
            return Ok(());
        }
        let mut tx = self.pool.begin().await?;
        if !self.bump(&mut tx, id, None).await? {
            return Ok(());
        }
        for &e in who {
            sqlx::query(
                "UPDATE tournament_players SET withdrawn = 1
                 WHERE tournament_id = $1 AND entrant = $2",
            )
            .bind(id)
            .bind(e as i64)
            .execute(&mut *tx)
            .await?;
        }
        self.tournament_changed(&mut tx, id).await?;
        tx.commit().await
    }

    /// Start the tournament by hand, now: its start time becomes `now`. False if it has
    /// started or finished meanwhile.
    pub async fn start_tournament_now(&self, id: &str, now: i64) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE tournaments SET starts_ms = $2, version = version + 1
             WHERE id = $1 AND status = 'created'",
        )
        .bind(id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        self.tournament_changed(&mut tx, id).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Store a new round (or an Arena's new games): the games, their pairings and the
    /// tournament's new round and status, in one transaction, if the tournament is still at
    /// `version`. False (nothing stored) when another change came first.
    pub async fn store_round(
        &self,
        t: &TournamentRow,
        change: RoundChange,
        pairings: &[Pairing],
        games: &[GameRow],
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE tournaments SET version = version + 1, round = $3, status = $4,
             ends_ms = COALESCE($5, ends_ms), note = $6
             WHERE id = $1 AND version = $2 AND status <> 'finished'",
        )
        .bind(&t.id)
        .bind(t.version)
        .bind(change.round)
        .bind(change.status)
        .bind(change.ends_ms)
        .bind(&change.note)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        for g in games {
            Store::bind_game(sqlx::query(Store::INSERT), g)
                .execute(&mut *tx)
                .await?;
        }
        for p in pairings {
            sqlx::query(
                "INSERT INTO tournament_games (tournament_id, seq, round, white, black, game_id,
                 result, created_ms, ended_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .bind(&t.id)
            .bind(p.seq)
            .bind(p.round)
            .bind(p.white as i64)
            .bind(p.black.map(|b| b as i64))
            .bind(p.game_id.clone())
            .bind(p.result.clone())
            .bind(p.created_ms)
            .bind(p.ended_ms)
            .execute(&mut *tx)
            .await?;
        }
        self.tournament_changed(&mut tx, &t.id).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The games of tournament `id` over in storage but not yet counted.
    pub async fn tournament_games_over(&self, id: &str) -> Result<Vec<String>, StoreError> {
        sqlx::query(
            "SELECT t.game_id FROM tournament_games t JOIN games g ON g.id = t.game_id
             WHERE t.tournament_id = $1 AND t.result IS NULL AND g.finished = 1",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| r.try_get(0))
        .collect()
    }

    /// Count game `game_id`'s result (once: false if it was counted already).
    pub async fn count_tournament_game(
        &self,
        id: &str,
        game_id: &str,
        result: &str,
        ended_ms: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE tournament_games SET result = $3, ended_ms = $4
             WHERE tournament_id = $1 AND game_id = $2 AND result IS NULL",
        )
        .bind(id)
        .bind(game_id)
        .bind(result)
        .bind(ended_ms)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        self.bump(&mut tx, id, None).await?;
        self.tournament_changed(&mut tx, id).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The tournament game `game_id` belongs to, if any.
    pub async fn tournament_of_game(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        sqlx::query("SELECT tournament_id FROM tournament_games WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?
            .map(|r| r.try_get(0))
            .transpose()
    }
}

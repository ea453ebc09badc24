//! Storage: games and their steps in SQLite (default) or PostgreSQL, through one set of
//! migrations written in the SQL both understand. Every change is one transaction that also
//! bumps the game's version, so a change is either wholly stored or not at all.

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor, Row};

use crate::clock::{Clock, TimeControl};
use crate::glicko::Rating;

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
    // Clocks (clock.rs): the kind ('' none, 'live', 'corr'), base and increment, each side's
    // time left when the side to move's time began running, and since when (0: stopped).
    "ALTER TABLE games ADD COLUMN clock_kind TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE games ADD COLUMN clock_base_ms BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN clock_inc_ms BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN white_ms BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN black_ms BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN clock_since_ms BIGINT NOT NULL DEFAULT 0",
    // Accounts seated in a game (NULL: anonymous), rated or not, the rating change (JSON).
    "ALTER TABLE games ADD COLUMN white_user TEXT",
    "ALTER TABLE games ADD COLUMN black_user TEXT",
    "ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN rating_change TEXT",
    "CREATE INDEX games_by_white_user ON games (white_user)",
    "CREATE INDEX games_by_black_user ON games (black_user)",
    // Accounts: `id` is the lower-case user name; the password as an argon2id PHC string.
    "CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        created_ms BIGINT NOT NULL
    )",
    // Sessions by the BLAKE2s hash of the cookie's secret (the secret itself is not stored).
    "CREATE TABLE sessions (
        id_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id),
        created_ms BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL
    )",
    // Glicko-2 ratings per account and variant.
    "CREATE TABLE ratings (
        user_id TEXT NOT NULL REFERENCES users(id),
        variant TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        rd DOUBLE PRECISION NOT NULL,
        vol DOUBLE PRECISION NOT NULL,
        games BIGINT NOT NULL,
        PRIMARY KEY (user_id, variant)
    )",
    // Who created the game (its caller's address, "ip:<address>"; '' for older games and
    // lobby games): each caller may hold only a share of the server-wide caps (admission.rs).
    "ALTER TABLE games ADD COLUMN created_by TEXT NOT NULL DEFAULT ''",
    // The lobby's challenges (lobby.rs), shared by every instance and kept across restarts.
    "CREATE TABLE challenges (
        id TEXT PRIMARY KEY,
        secret TEXT NOT NULL,
        owner TEXT NOT NULL,
        by_user TEXT,
        by_name TEXT,
        variant TEXT NOT NULL,
        clock_kind TEXT NOT NULL,
        clock_base_ms BIGINT NOT NULL,
        clock_inc_ms BIGINT NOT NULL,
        colour TEXT NOT NULL,
        rated BIGINT NOT NULL,
        created_ms BIGINT NOT NULL,
        seen_ms BIGINT NOT NULL,
        game_id TEXT,
        creator_link TEXT,
        cancelled BIGINT NOT NULL
    )",
    // The AI's searches as jobs (jobs.rs): one per game whose AI is to move, taken under a
    // lease by any instance's workers or a `cohort worker`.
    "CREATE TABLE ai_jobs (
        game_id TEXT PRIMARY KEY,
        class TEXT NOT NULL,
        queued_ms BIGINT NOT NULL,
        owner TEXT NOT NULL,
        lease_until_ms BIGINT NOT NULL
    )",
    "CREATE INDEX ai_jobs_by_lease ON ai_jobs (lease_until_ms)",
    // Takebacks, aborts, rematches (api/offers.rs): the side whose takeback request stands,
    // the side whose rematch offer stands, and the game a rematch created (NULL: none).
    "ALTER TABLE games ADD COLUMN takeback_offer TEXT",
    "ALTER TABLE games ADD COLUMN rematch_offer TEXT",
    "ALTER TABLE games ADD COLUMN rematch_id TEXT",
    // Chat (chat.rs): the lines of the lobby's room and of each game's two channels, and
    // each account's chat switch.
    "CREATE TABLE chat_lines (
        id TEXT PRIMARY KEY,
        room TEXT NOT NULL,
        poster TEXT NOT NULL,
        by_name TEXT,
        seat TEXT,
        body TEXT NOT NULL,
        posted_ms BIGINT NOT NULL
    )",
    "CREATE INDEX chat_lines_by_room ON chat_lines (room, posted_ms)",
    "CREATE INDEX chat_lines_by_poster ON chat_lines (poster, posted_ms)",
    "CREATE TABLE user_settings (
        user_id TEXT PRIMARY KEY REFERENCES users(id),
        chat_off BIGINT NOT NULL DEFAULT 0
    )",
    // Analyses (analysis.rs): the engine's view of a finished game's turns or of one
    // position, with what each cost its owner's budget.
    "CREATE TABLE analyses (
        id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        game_id TEXT,
        variant TEXT NOT NULL,
        state TEXT NOT NULL,
        error TEXT,
        total BIGINT NOT NULL,
        ms BIGINT NOT NULL,
        cost_ms BIGINT NOT NULL,
        points TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        updated_ms BIGINT NOT NULL
    )",
    "CREATE INDEX analyses_by_owner ON analyses (owner, created_ms)",
    // The address each chat line came from ('' for older lines): lines are limited per
    // address as well as per poster (chat.rs).
    "ALTER TABLE chat_lines ADD COLUMN address TEXT NOT NULL DEFAULT ''",
    "CREATE INDEX chat_lines_by_address ON chat_lines (address, posted_ms)",
    // Analyses made in a browser and saved with their finished game (analysis.rs,
    // `POST /api/games/<id>/analysis`): one a game, the latest saved.
    "CREATE TABLE game_analyses (
        game_id TEXT PRIMARY KEY,
        saver TEXT NOT NULL,
        ms BIGINT NOT NULL,
        points TEXT NOT NULL,
        saved_ms BIGINT NOT NULL
    )",
    "CREATE INDEX game_analyses_by_saver ON game_analyses (saver, saved_ms)",
    // Each save of a game's analysis (the hourly limit per caller counts them).
    "CREATE TABLE analysis_saves (
        saver TEXT NOT NULL,
        saved_ms BIGINT NOT NULL
    )",
    "CREATE INDEX analysis_saves_by_saver ON analysis_saves (saver, saved_ms)",
    // The address each analysis was asked from: it pays for the analyses of all its
    // accounts together (analysis.rs). A visitor's older analyses were its address's.
    "ALTER TABLE analyses ADD COLUMN address TEXT NOT NULL DEFAULT ''",
    "UPDATE analyses SET address = owner WHERE owner LIKE 'ip:%'",
    "CREATE INDEX analyses_by_address ON analyses (address, created_ms)",
    // The address each challenge was posted from: one address's open challenges are
    // limited, all its accounts together (lobby.rs).
    "ALTER TABLE challenges ADD COLUMN address TEXT NOT NULL DEFAULT ''",
    // Quick pairing (quick.rs): a seek's creator's rating when it was posted, and how far
    // from it an opponent's may be (NULL: anyone).
    "ALTER TABLE challenges ADD COLUMN rating BIGINT",
    "ALTER TABLE challenges ADD COLUMN rating_range BIGINT",
    // Fair AI compute by caller (jobs.rs): whose each AI job is ('' for jobs queued before
    // this), and when each caller's last job was taken (the caller served longest ago goes
    // first among equals).
    "ALTER TABLE ai_jobs ADD COLUMN caller TEXT NOT NULL DEFAULT ''",
    "CREATE INDEX ai_jobs_by_caller ON ai_jobs (caller)",
    "CREATE TABLE ai_callers (
        caller TEXT PRIMARY KEY,
        served_ms BIGINT NOT NULL
    )",
    "CREATE INDEX ai_callers_by_served ON ai_callers (served_ms)",
    // Analyses as jobs in the same queue (analysis_api.rs): a job's kind ('turn': the AI's
    // turn in game `game_id`; 'analysis': analysis `<id>` under the key `analysis:<id>`)
    // and what its taker needs (an analysis's source, JSON).
    "ALTER TABLE ai_jobs ADD COLUMN kind TEXT NOT NULL DEFAULT 'turn'",
    "ALTER TABLE ai_jobs ADD COLUMN payload TEXT NOT NULL DEFAULT ''",
    // Who is online (accounts.rs): when each account last asked anything.
    "ALTER TABLE users ADD COLUMN seen_ms BIGINT NOT NULL DEFAULT 0",
    // Tournaments (tournament_store.rs, director.rs): a tournament, its players numbered in
    // the order they joined, and its pairings (a game, or a Swiss round's bye: no black and
    // no game). `version` moves at every change, so that of instances pairing at once one
    // commits.
    "CREATE TABLE tournaments (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        variant TEXT NOT NULL,
        variant_name TEXT NOT NULL,
        variant_text TEXT NOT NULL,
        clock_kind TEXT NOT NULL,
        clock_base_ms BIGINT NOT NULL,
        clock_inc_ms BIGINT NOT NULL,
        rated BIGINT NOT NULL,
        rounds BIGINT NOT NULL,
        minutes BIGINT NOT NULL,
        bye_points BIGINT NOT NULL,
        starts_ms BIGINT,
        ends_ms BIGINT,
        status TEXT NOT NULL,
        round BIGINT NOT NULL,
        creator TEXT NOT NULL REFERENCES users(id),
        created_ms BIGINT NOT NULL,
        version BIGINT NOT NULL,
        note TEXT NOT NULL
    )",
    "CREATE INDEX tournaments_by_status ON tournaments (status)",
    "CREATE TABLE tournament_players (
        tournament_id TEXT NOT NULL REFERENCES tournaments(id),
        entrant BIGINT NOT NULL,
        user_id TEXT NOT NULL REFERENCES users(id),
        rating BIGINT NOT NULL,
        joined_ms BIGINT NOT NULL,
        withdrawn BIGINT NOT NULL,
        PRIMARY KEY (tournament_id, entrant),
        UNIQUE (tournament_id, user_id)
    )",
    "CREATE TABLE tournament_games (
        tournament_id TEXT NOT NULL REFERENCES tournaments(id),
        seq BIGINT NOT NULL,
        round BIGINT NOT NULL,
        white BIGINT NOT NULL,
        black BIGINT,
        game_id TEXT,
        result TEXT,
        created_ms BIGINT NOT NULL,
        ended_ms BIGINT,
        PRIMARY KEY (tournament_id, seq)
    )",
    "CREATE INDEX tournament_games_by_game ON tournament_games (game_id)",
];

/// A game's row: everything but its steps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    /// The game's clock (no clock: `TimeControl::None`).
    pub clock: Clock,
    /// The accounts seated (lower-case user ids), if any.
    pub white_user: Option<String>,
    pub black_user: Option<String>,
    /// A rated game between two accounts: the ratings change when it ends.
    pub rated: bool,
    /// The rating change once applied (JSON: see `Store::rate_game`), or
    /// `{"unrated": "<why>"}` for a rated game that ended too early to count.
    pub rating_change: Option<String>,
    /// The caller that created the game ("ip:<address>"; "" when not counted).
    pub created_by: String,
    /// The side ("white"/"black") asking to take back the last turn, if any.
    pub takeback_offer: Option<String>,
    /// A finished game: the side offering a rematch, if any.
    pub rematch_offer: Option<String>,
    /// A finished game: the id of the rematch it led to, once made.
    pub rematch_id: Option<String>,
}

/// A change to store in one transaction.
pub enum Change<'a> {
    /// Append the step at `ply` (0-based).
    Step { ply: i64, text: &'a str },
    /// Remove the step at `ply` (undo inside a turn).
    Unstep { ply: i64 },
    /// Remove every step from `from_ply` on (an accepted takeback).
    Takeback { from_ply: i64 },
    /// Only the game row changes (draw offer, resignation, agreement).
    Row,
}

#[derive(Clone)]
pub struct Store {
    pub(crate) pool: AnyPool,
    pub kind: &'static str,
    /// The URL it was opened with (PostgreSQL: a listener opens its own connection).
    url: String,
    /// Set when the store closes: the listener of other instances' changes stops.
    closed: tokio::sync::watch::Sender<bool>,
    /// Who this process is in the AI job queue (jobs.rs): "host:pid:token".
    pub instance: String,
}

/// The PostgreSQL channel on which a committed change of a game is announced, its id the
/// payload: every instance on the database hears it (`App`'s follower, lib.rs).
pub const GAMES_CHANNEL: &str = "cohort_games";
/// The PostgreSQL channel on which a change of the lobby is announced.
pub const LOBBY_CHANNEL: &str = "cohort_lobby";
/// The PostgreSQL channel on which a new AI job is announced (jobs.rs): idle workers wake.
pub const JOBS_CHANNEL: &str = "cohort_jobs";
/// The PostgreSQL channel on which a new chat line or a changed chat switch is announced
/// (chat.rs, `Announce`).
pub const CHAT_CHANNEL: &str = "cohort_chat";
/// The PostgreSQL channel on which a change of a tournament is announced, its id the
/// payload (tournament_store.rs).
pub const TOURNAMENTS_CHANNEL: &str = "cohort_tournaments";

pub type StoreError = sqlx::Error;

/// "host:pid:token": the machine, the process, and a token that tells apart two stores one
/// process opens (tests run several instances in one process).
fn instance_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "host".into());
    let mut b = [0u8; 4];
    getrandom::getrandom(&mut b).expect("the operating system's random source");
    let token: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("{host}:{}:{token}", std::process::id())
}

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
            crate::database_url::connectable(url)
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
            url: url.clone(),
            closed: tokio::sync::watch::channel(false).0,
            instance: instance_name(),
        };
        store.migrate().await?;
        Ok(store)
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        if self.kind == "postgres" {
            // Instances started at once migrate one after another: the first runs the
            // migrations, the others wait here and then find nothing left to do. (Even
            // `CREATE TABLE IF NOT EXISTS` races without it: two creators collide on the
            // table's type name.)
            sqlx::query("SELECT pg_advisory_xact_lock(7362016)")
                .execute(&mut *tx)
                .await?;
        }
        tx.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
            .await?;
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
        if done > MIGRATIONS.len() {
            // A database a newer Cohort has migrated: refuse it rather than write the older
            // version over the newer one (the next newer start would then rerun migrations).
            return Err(StoreError::Protocol(format!(
                "the database's schema is version {done}, newer than this cohort knows ({}): \
                 run a newer cohort on it",
                MIGRATIONS.len()
            )));
        }
        if done == MIGRATIONS.len() {
            return tx.commit().await;
        }
        for sql in &MIGRATIONS[done..] {
            tx.execute(*sql).await?;
        }
        sqlx::query("UPDATE schema_version SET version = $1")
            .bind(MIGRATIONS.len() as i64)
            .execute(&mut *tx)
            .await?;
        tx.commit().await
    }

    /// Every column of a new game row, in the order `bind_game` binds them.
    pub(crate) const INSERT: &'static str =
        "INSERT INTO games (id, variant, start, white, black, ai_agent,
         ai_time_ms, white_token, black_token, draw_offer, ending, finished, version, created_ms,
         updated_ms, creator_token, variant_text, clock_kind, clock_base_ms, clock_inc_ms,
         white_ms, black_ms, clock_since_ms, white_user, black_user, rated, rating_change,
         created_by, takeback_offer, rematch_offer, rematch_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
         $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31)";

    pub(crate) fn bind_game<'q>(
        q: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
        g: &'q GameRow,
    ) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
        q.bind(&g.id)
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
            .bind(g.clock.control.kind())
            .bind(g.clock.control.stored().0)
            .bind(g.clock.control.stored().1)
            .bind(g.clock.remaining_ms[0])
            .bind(g.clock.remaining_ms[1])
            .bind(g.clock.since_ms)
            .bind(g.white_user.clone())
            .bind(g.black_user.clone())
            .bind(g.rated as i64)
            .bind(g.rating_change.clone())
            .bind(&g.created_by)
            .bind(g.takeback_offer.clone())
            .bind(g.rematch_offer.clone())
            .bind(g.rematch_id.clone())
    }

    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        Self::bind_game(sqlx::query(Self::INSERT), g)
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
        Self::bind_game(sqlx::query(Self::INSERT), g)
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

    /// PostgreSQL: announce that game `id` changed, delivered when `tx` commits (to every
    /// instance listening; to none if it rolls back). Nothing on SQLite.
    async fn announce(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        id: &str,
    ) -> Result<(), StoreError> {
        if self.kind == "postgres" {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(GAMES_CHANNEL)
                .bind(id)
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
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
            Change::Takeback { from_ply } => {
                sqlx::query("DELETE FROM steps WHERE game_id = $1 AND ply >= $2")
                    .bind(&row.id)
                    .bind(from_ply)
                    .execute(&mut *tx)
                    .await?;
            }
            Change::Row => {}
        }
        self.announce(&mut tx, &row.id).await?;
        Self::update_row(&mut tx, row).await?;
        tx.commit().await
    }

    /// The changing columns of `row` written over the stored row, if the stored version is
    /// still `row.version - 1` (otherwise `RowNotFound`: a stale writer changes nothing).
    async fn update_row(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        row: &GameRow,
    ) -> Result<(), StoreError> {
        let done = sqlx::query(
            "UPDATE games SET draw_offer = $1, ending = $2, finished = $3, version = $4,
             updated_ms = $5, white_ms = $6, black_ms = $7, clock_since_ms = $8,
             takeback_offer = $9, rematch_offer = $10, rematch_id = $11
             WHERE id = $12 AND version = $13",
        )
        .bind(row.draw_offer.clone())
        .bind(row.ending.clone())
        .bind(row.finished as i64)
        .bind(row.version)
        .bind(row.updated_ms)
        .bind(row.clock.remaining_ms[0])
        .bind(row.clock.remaining_ms[1])
        .bind(row.clock.since_ms)
        .bind(row.takeback_offer.clone())
        .bind(row.rematch_offer.clone())
        .bind(row.rematch_id.clone())
        .bind(&row.id)
        .bind(row.version - 1)
        .execute(&mut **tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(sqlx::Error::RowNotFound);
        }
        Ok(())
    }

    /// A rematch: the new game `new` stored and the finished game `old` (its `rematch_id`
    /// set, its version bumped) updated in one transaction, so that two accepts at once make
    /// one rematch (the second finds the version moved on and stores nothing).
    pub async fn commit_rematch(&self, old: &GameRow, new: &GameRow) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        Self::bind_game(sqlx::query(Self::INSERT), new)
            .execute(&mut *tx)
            .await?;
        self.announce(&mut tx, &old.id).await?;
        Self::update_row(&mut tx, old).await?;
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
            clock: Clock {
                control: TimeControl::from_stored(
                    &r.try_get::<String, _>("clock_kind")?,
                    r.try_get("clock_base_ms")?,
                    r.try_get("clock_inc_ms")?,
                ),
                remaining_ms: [r.try_get("white_ms")?, r.try_get("black_ms")?],
                since_ms: r.try_get("clock_since_ms")?,
            },
            white_user: r.try_get("white_user")?,
            black_user: r.try_get("black_user")?,
            rated: r.try_get::<i64, _>("rated")? != 0,
            rating_change: r.try_get("rating_change")?,
            created_by: r.try_get("created_by")?,
            takeback_offer: r.try_get("takeback_offer")?,
            rematch_offer: r.try_get("rematch_offer")?,
            rematch_id: r.try_get("rematch_id")?,
        })
    }

    const COLUMNS: &'static str = "id, variant, start, white, black, ai_agent, ai_time_ms,
        white_token, black_token, draw_offer, ending, finished, version, created_ms, updated_ms,
        creator_token, variant_text, clock_kind, clock_base_ms, clock_inc_ms, white_ms, black_ms,
        clock_since_ms, white_user, black_user, rated, rating_change, created_by, takeback_offer,
        rematch_offer, rematch_id";

    /// The stored version of game `id` (None: no such game): whether a copy is current.
    pub async fn version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        let r = sqlx::query("SELECT version FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        r.map(|r| r.try_get::<i64, _>(0)).transpose()
    }

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

    /// AI-against-AI games not finished, less those without a clock that nothing changed
    /// in since `idle_before` (adjourned: they hold no place in the cap; 0 counts all).
    pub async fn count_ai_games(&self, idle_before: i64) -> Result<i64, StoreError> {
        self.count_games("white = 'ai' AND black = 'ai'", None, idle_before)
            .await
    }

    /// Games with a custom variant not finished, less the idle ones without a clock (as
    /// [`Store::count_ai_games`]).
    pub async fn count_custom_games(&self, idle_before: i64) -> Result<i64, StoreError> {
        self.count_games("variant_text <> ''", None, idle_before)
            .await
    }

    /// AI-against-AI games not finished that `caller` created (idle ones without a clock
    /// left out).
    pub async fn count_ai_games_by(
        &self,
        caller: &str,
        idle_before: i64,
    ) -> Result<i64, StoreError> {
        self.count_games("white = 'ai' AND black = 'ai'", Some(caller), idle_before)
            .await
    }

    /// Games with a custom variant not finished that `caller` created (idle ones without a
    /// clock left out).
    pub async fn count_custom_games_by(
        &self,
        caller: &str,
        idle_before: i64,
    ) -> Result<i64, StoreError> {
        self.count_games("variant_text <> ''", Some(caller), idle_before)
            .await
    }

    /// Unfinished games of a kind (`which`, an SQL condition), of one creator if given, that
    /// have a clock or changed since `idle_before`.
    async fn count_games(
        &self,
        which: &str,
        caller: Option<&str>,
        idle_before: i64,
    ) -> Result<i64, StoreError> {
        let by = if caller.is_some() {
            " AND created_by = $2"
        } else {
            ""
        };
        let sql = format!(
            "SELECT COUNT(*) FROM games WHERE finished = 0 AND {which}
             AND (clock_kind <> '' OR updated_ms >= $1){by}"
        );
        let mut q = sqlx::query(&sql).bind(idle_before);
        if let Some(c) = caller {
            q = q.bind(c);
        }
        q.fetch_one(&self.pool).await?.try_get(0)
    }

    /// Create an account; false if the name is taken (whatever its case).
    pub async fn create_user(
        &self,
        id: &str,
        name: &str,
        hash: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO users (id, name, password_hash, created_ms) VALUES ($1, $2, $3, $4)",
        )
        .bind(id)
        .bind(name)
        .bind(hash)
        .bind(now)
        .execute(&self.pool)
        .await;
        match done {
            Ok(_) => Ok(true),
            Err(e)
                if e.as_database_error()
                    .is_some_and(|d| d.is_unique_violation()) =>
            {
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }

    /// An account's display name and password hash.
    pub async fn user(&self, id: &str) -> Result<Option<(String, String)>, StoreError> {
        let r = sqlx::query("SELECT name, password_hash FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        r.map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).transpose()
    }

    /// End all but the `keep` newest sessions of `user`; how many ended.
    pub async fn keep_newest_sessions(&self, user: &str, keep: i64) -> Result<u64, StoreError> {
        let r = sqlx::query(
            "DELETE FROM sessions WHERE user_id = $1 AND id_hash NOT IN (
                 SELECT id_hash FROM sessions WHERE user_id = $1
                 ORDER BY created_ms DESC, id_hash DESC LIMIT $2)",
        )
        .bind(user)
        .bind(keep)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected())
    }

    pub async fn create_session(
        &self,
        id_hash: &str,
        user: &str,
        now: i64,
        expires_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO sessions (id_hash, user_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)",
        )
        .bind(id_hash)
        .bind(user)
        .bind(now)
        .bind(expires_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The account (id, name) of a session that has not expired.
    pub async fn session_user(
        &self,
        id_hash: &str,
        now: i64,
    ) -> Result<Option<(String, String)>, StoreError> {
        let r = sqlx::query(
            "SELECT u.id, u.name FROM sessions s JOIN users u ON u.id = s.user_id
             WHERE s.id_hash = $1 AND s.expires_ms > $2",
        )
        .bind(id_hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        r.map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).transpose()
    }

    pub async fn delete_session(&self, id_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
            .bind(id_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// End every session of an account (log out everywhere); how many there were.
    pub async fn delete_sessions_of(&self, user: &str) -> Result<u64, StoreError> {
        let r = sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(user)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected())
    }

    /// A rated game that ended too early to be rated: marked so, once (no rating changes).
    pub async fn mark_unrated(&self, game_id: &str, why: &str) -> Result<String, StoreError> {
        let change = serde_json::json!({ "unrated": why }).to_string();
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE games SET rating_change = $1, version = version + 1
             WHERE id = $2 AND rating_change IS NULL",
        )
        .bind(&change)
        .bind(game_id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 1 {
            self.announce(&mut tx, game_id).await?;
        }
        tx.commit().await?;
        Ok(change)
    }

    /// An account's ratings: (variant, rating, games), best known first.
    pub async fn ratings_of(&self, user: &str) -> Result<Vec<(String, Rating, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT variant, rating, rd, vol, games FROM ratings WHERE user_id = $1
             ORDER BY games DESC, variant",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get(0)?,
                    Rating {
                        rating: r.try_get(1)?,
                        rd: r.try_get(2)?,
                        vol: r.try_get(3)?,
                    },
                    r.try_get(4)?,
                ))
            })
            .collect()
    }

    /// Rate a finished game between two accounts, once: both ratings (Glicko-2, one game as
    /// a rating period) and the game's `rating_change` in one transaction. Returns the
    /// change as stored (JSON text), or the one stored before if the game was rated already.
    /// `pair_limit` (most games, window in ms): when the two accounts already had that many
    /// games rated (in either colours) in the window before now, the game is stored unrated
    /// instead, with the reason, and no rating changes.
    pub async fn rate_game(
        &self,
        game_id: &str,
        variant: &str,
        white: &str,
        black: &str,
        white_score: f64,
        pair_limit: (i64, i64),
    ) -> Result<String, StoreError> {
        let mut tx = self.pool.begin().await?;
        // PostgreSQL: the game's row stays locked until the rating commits, so that instances
        // rating the same game at once rate it once.
        let lock = if self.kind == "postgres" {
            " FOR UPDATE"
        } else {
            ""
        };
        let done: Option<String> = sqlx::query(&format!(
            "SELECT rating_change FROM games WHERE id = $1{lock}"
        ))
        .bind(game_id)
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        if let Some(done) = done {
            return Ok(done);
        }
        // Rated games of this pair in the window (PostgreSQL: counted under the game's lock;
        // two of the pair's games rated at once by two instances may both count, once each).
        let (most, window_ms) = pair_limit;
        let rated_before: i64 = sqlx::query(
            "SELECT COUNT(*) FROM games
             WHERE rated = 1 AND id <> $1 AND updated_ms >= $2
               AND rating_change IS NOT NULL AND rating_change NOT LIKE '{\"unrated\"%'
               AND ((white_user = $3 AND black_user = $4) OR (white_user = $4 AND black_user = $3))",
        )
        .bind(game_id)
        .bind(now_ms() - window_ms)
        .bind(white)
        .bind(black)
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        if rated_before >= most {
            let hours = window_ms / 3_600_000;
            let why = format!(
                "the same two accounts already played {rated_before} rated games in {hours} hours \
                 (at most {most} change ratings)"
            );
            let change = serde_json::json!({ "unrated": why }).to_string();
            sqlx::query("UPDATE games SET rating_change = $1, version = version + 1 WHERE id = $2")
                .bind(&change)
                .bind(game_id)
                .execute(&mut *tx)
                .await?;
            self.announce(&mut tx, game_id).await?;
            tx.commit().await?;
            return Ok(change);
        }
        let mut before = [(Rating::default(), 0i64); 2];
        for (i, user) in [white, black].iter().enumerate() {
            let r = sqlx::query(
                "SELECT rating, rd, vol, games FROM ratings WHERE user_id = $1 AND variant = $2",
            )
            .bind(*user)
            .bind(variant)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(r) = r {
                before[i] = (
                    Rating {
                        rating: r.try_get(0)?,
                        rd: r.try_get(1)?,
                        vol: r.try_get(2)?,
                    },
                    r.try_get(3)?,
                );
            }
        }
        let (w, b) = crate::glicko::rate_game(before[0].0, before[1].0, white_score);
        for (i, (user, after)) in [(white, w), (black, b)].iter().enumerate() {
            sqlx::query("DELETE FROM ratings WHERE user_id = $1 AND variant = $2")
                .bind(*user)
                .bind(variant)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO ratings (user_id, variant, rating, rd, vol, games)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(*user)
            .bind(variant)
            .bind(after.rating)
            .bind(after.rd)
            .bind(after.vol)
            .bind(before[i].1 + 1)
            .execute(&mut *tx)
            .await?;
        }
        let side = |user: &str, b: Rating, a: Rating| {
            serde_json::json!({
                "user": user,
                "before": b.rating.round() as i64,
                "after": a.rating.round() as i64,
                "delta": a.rating.round() as i64 - b.rating.round() as i64,
                "rd": a.rd.round() as i64,
            })
        };
        let change = serde_json::json!({
            "white": side(white, before[0].0, w),
            "black": side(black, before[1].0, b),
        })
        .to_string();
        // A new version: every instance's copy of the game takes the change on its next
        // refresh, and watchers elsewhere are told (`announce`).
        sqlx::query("UPDATE games SET rating_change = $1, version = version + 1 WHERE id = $2")
            .bind(&change)
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
        self.announce(&mut tx, game_id).await?;
        tx.commit().await?;
        Ok(change)
    }

    /// Finished rated games whose ratings were not applied yet (a crash in between).
    pub async fn unrated_finished(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE finished = 1 AND rated = 1 AND rating_change IS NULL",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| r.try_get(0)).collect()
    }

    /// The games an account sits in, newest change first (at most `limit`).
    pub async fn games_of(&self, user: &str, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {} FROM games WHERE white_user = $1 OR black_user = $2
             ORDER BY updated_ms DESC LIMIT $3",
            Self::COLUMNS
        );
        let rows = sqlx::query(&sql)
            .bind(user)
            .bind(user)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(Self::game_row).collect()
    }

    /// Account `id` asked something at `now` ("who is online").
    pub async fn note_seen(&self, id: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE users SET seen_ms = $1 WHERE id = $2 AND seen_ms < $3")
            .bind(now)
            .bind(id)
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// When account `id` last asked anything (0: never, or unknown).
    pub async fn seen_ms(&self, id: &str) -> Result<i64, StoreError> {
        let r = sqlx::query("SELECT seen_ms FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match r {
            Some(r) => r.try_get(0)?,
            None => 0,
        })
    }

    /// The names of the accounts that asked anything since `since`, the latest first.
    pub async fn online_users(&self, since: i64, limit: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT name FROM users WHERE seen_ms > $1 ORDER BY seen_ms DESC, name LIMIT $2",
        )
        .bind(since)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }

    /// An account's rating in each variant after each of its rated games, oldest first,
    /// with the rating before the first: (variant, [(ms, rating)]).
    pub async fn rating_history(
        &self,
        user: &str,
    ) -> Result<Vec<(String, Vec<(i64, i64)>)>, StoreError> {
        let rows = sqlx::query(
            "SELECT variant, updated_ms, rating_change, created_ms FROM games
             WHERE (white_user = $1 OR black_user = $2) AND rating_change IS NOT NULL
             ORDER BY updated_ms, id",
        )
        .bind(user)
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        let mut out: Vec<(String, Vec<(i64, i64)>)> = Vec::new();
        for r in &rows {
            let variant: String = r.try_get(0)?;
            let change: String = r.try_get(2)?;
            let Ok(change) = serde_json::from_str::<serde_json::Value>(&change) else {
                continue;
            };
            // This player's side of the change; an unrated game has neither.
            let Some(mine) = ["white", "black"]
                .iter()
                .map(|s| &change[s])
                .find(|c| c["user"] == user)
            else {
                continue;
            };
            let (Some(before), Some(after)) = (mine["before"].as_i64(), mine["after"].as_i64())
            else {
                continue;
            };
            let i = match out.iter().position(|(v, _)| *v == variant) {
                Some(i) => i,
                None => {
                    out.push((variant, vec![(r.try_get(3)?, before)]));
                    out.len() - 1
                }
            };
            out[i].1.push((r.try_get(1)?, after));
        }
        Ok(out)
    }

    /// Delete expired sessions.
    pub async fn purge_sessions(&self, now: i64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE expires_ms <= $1")
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Close: the AI jobs this process holds go back to the queue (others take them at
    /// once, not when their leases run out), then the connections close.
    pub async fn close(&self) {
        self.closed.send_replace(true);
        if let Err(e) = self.release_ai(&self.instance).await {
            eprintln!(
                "cohort: the AI jobs of {} not given back: {e}",
                self.instance
            );
        }
        self.pool.close().await;
    }

    /// PostgreSQL: a listener on `GAMES_CHANNEL`, `LOBBY_CHANNEL` and `JOBS_CHANNEL`, on a connection of its own (it reconnects
    /// by itself if the connection drops). None on SQLite, which has one instance.
    pub async fn listen_games(&self) -> Result<Option<sqlx::postgres::PgListener>, StoreError> {
        if self.kind != "postgres" {
            return Ok(None);
        }
        let mut listener = sqlx::postgres::PgListener::connect(&self.url).await?;
        listener
            .listen_all([
                GAMES_CHANNEL,
                LOBBY_CHANNEL,
                JOBS_CHANNEL,
                CHAT_CHANNEL,
                TOURNAMENTS_CHANNEL,
            ])
            .await?;
        Ok(Some(listener))
    }

    /// Becomes true when the store closes.
    pub fn closed(&self) -> tokio::sync::watch::Receiver<bool> {
        self.closed.subscribe()
    }
}

//! The storage suite, run against SQLite (a temporary file) and against PostgreSQL (the
//! server named by COHORT_TEST_POSTGRES; scripts/test starts one and sets it). Without
//! that variable the PostgreSQL tests fail unless COHORT_SKIP_POSTGRES=1 says to skip them.

use cohort_rules::Rules;
use cohort_rules::{builtin, StepList};
use cohort_server::clock::{Clock, TimeControl};
use cohort_server::live::LiveGame;
use cohort_server::store::{now_ms, Change, GameRow, Store};

use crate::common;
use common::{postgres_url, with_fresh_database};

fn row(id: &str, variant: &str) -> GameRow {
    let v = builtin(variant).unwrap();
    GameRow {
        id: id.into(),
        variant: variant.into(),
        start: v.start().to_text(),
        white: "human".into(),
        black: "human".into(),
        ai_agent: "engine".into(),
        ai_time_ms: 200,
        white_token: "w".repeat(32),
        black_token: "b".repeat(32),
        creator_token: String::new(),
        variant_text: String::new(),
        draw_offer: None,
        ending: None,
        finished: false,
        version: 1,
        created_ms: now_ms(),
        updated_ms: now_ms(),
        ..GameRow::default()
    }
}

fn unique(tag: &str) -> String {
    format!("{tag}{}{}", now_ms(), std::process::id())
}

/// Play `n` pseudo-random legal steps, committing each; return the final position text.
async fn play_and_store(store: &Store, live: &mut LiveGame, n: usize, seed: u64) -> String {
    let mut x = seed | 1;
    for _ in 0..n {
        if live.game.result().is_some() {
            break;
        }
        let mut list = StepList::new();
        live.game.legal_steps(&mut list);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let step = list.as_slice()[(x % list.len() as u64) as usize];
        let text = live.game.position().step_text(step);
        let mut next = live.clone();
        let canonical = next.play(&text).unwrap();
        next.row.version += 1;
        next.row.finished = next.game.result().is_some();
        let ply = next.game.steps().len() as i64 - 1;
        store
            .commit(
                &next.row,
                Change::Step {
                    ply,
                    text: &canonical,
                },
            )
            .await
            .unwrap();
        *live = next;
    }
    live.game.position().to_text()
}

/// The clock, the accounts seated, sessions and ratings round trip (migrations 5 to 19).
async fn clocks_accounts_ratings(store: &Store) {
    let (a, b) = (unique("alice"), unique("bob"));
    assert!(store
        .create_user(&a, "Alice", "$argon2id$v=19$x", 1)
        .await
        .unwrap());
    assert!(
        !store
            .create_user(&a, "ALICE", "$argon2id$v=19$y", 2)
            .await
            .unwrap(),
        "a taken id"
    );
    assert!(store
        .create_user(&b, "Bob", "$argon2id$v=19$z", 3)
        .await
        .unwrap());
    assert_eq!(
        store.user(&a).await.unwrap(),
        Some(("Alice".into(), "$argon2id$v=19$x".into()))
    );
    let mut r = row(&unique("clk"), "chess");
    r.clock = Clock::start(
        TimeControl::Live {
            base_ms: 60_000,
            inc_ms: 1_000,
        },
        1_000,
    );
    r.clock.remaining_ms = [12_345, 54_321];
    r.white_user = Some(a.clone());
    r.black_user = Some(b.clone());
    r.rated = true;
    store.insert_game(&r).await.unwrap();
    assert_eq!(store.game(&r.id).await.unwrap().unwrap().0, r);
    // A change stores the clock with it.
    r.version += 1;
    r.clock.switch(cohort_rules::Side::White, 3_000, 0);
    store.commit(&r, Change::Row).await.unwrap();
    let back = store.game(&r.id).await.unwrap().unwrap().0;
    assert_eq!(back.clock, r.clock);
    assert_eq!(back.clock.remaining_ms, [11_345, 54_321]);
    let corr = TimeControl::Correspondence {
        per_turn_ms: 86_400_000,
    };
    let mut c = row(&unique("corr"), "chess");
    c.clock = Clock::start(corr, 7);
    store.insert_game(&c).await.unwrap();
    assert_eq!(
        store.game(&c.id).await.unwrap().unwrap().0.clock.control,
        corr
    );
    // Finished and rated once, whatever the number of calls.
    r.version += 1;
    r.finished = true;
    r.ending = Some("time black".into());
    store.commit(&r, Change::Row).await.unwrap();
    assert!(store.unrated_finished().await.unwrap().contains(&r.id));
    let change = store
        .rate_game(&r.id, "chess", &a, &b, 1.0, (3, 86_400_000))
        .await
        .unwrap();
    assert_eq!(
        store
            .rate_game(&r.id, "chess", &a, &b, 1.0, (3, 86_400_000))
            .await
            .unwrap(),
        change
    );
    assert!(!store.unrated_finished().await.unwrap().contains(&r.id));
    let v: serde_json::Value = serde_json::from_str(&change).unwrap();
    assert_eq!(v["white"]["after"], 1662);
    assert_eq!(v["black"]["after"], 1338);
    let ra = store.ratings_of(&a).await.unwrap();
    assert_eq!(ra.len(), 1);
    assert_eq!(
        (ra[0].0.as_str(), ra[0].1.rating.round() as i64, ra[0].2),
        ("chess", 1662, 1)
    );
    assert_eq!(
        store.game(&r.id).await.unwrap().unwrap().0.rating_change,
        Some(change)
    );
    let games: Vec<String> = store
        .games_of(&b, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(games, [r.id.clone()]);
    // Sessions expire and end.
    let h = unique("hash");
    store.create_session(&h, &a, 100, 1_000).await.unwrap();
    assert_eq!(
        store.session_user(&h, 999).await.unwrap(),
        Some((a.clone(), "Alice".into()))
    );
    assert_eq!(store.session_user(&h, 1_000).await.unwrap(), None);
    store.delete_session(&h).await.unwrap();
    assert_eq!(store.session_user(&h, 500).await.unwrap(), None);
}

async fn suite(url: &str) {
    // Migrations run once: opening again finds the schema in place.
    let store = Store::open(url).await.expect("open");
    let again = Store::open(url).await.expect("open a second time");
    again.close().await;

    for variant in ["chesimals-1", "mini-chieftain", "lifeform", "chess"] {
        let id = unique(&variant.replace('-', ""));
        let r = row(&id, variant);
        store.insert_game(&r).await.unwrap();
        let mut live = LiveGame::replay(r.clone(), &[]).unwrap();
        let end = play_and_store(&store, &mut live, 60, id.len() as u64 * 7919).await;
        // Read back: the same steps replay to the same position.
        let (stored_row, steps) = store.game(&id).await.unwrap().expect("stored game");
        assert_eq!(stored_row.version, live.row.version, "{variant}: version");
        assert_eq!(
            steps.len(),
            live.game.steps().len(),
            "{variant}: step count"
        );
        let replayed = LiveGame::replay(stored_row, &steps).unwrap();
        assert_eq!(
            replayed.game.position().to_text(),
            end,
            "{variant}: replayed position"
        );
    }

    // A stale writer (version not one above the stored one) changes nothing.
    let id = unique("stale");
    let r = row(&id, "mini-chieftain");
    store.insert_game(&r).await.unwrap();
    let mut stale = r.clone();
    stale.version = 5;
    let err = store
        .commit(
            &stale,
            Change::Step {
                ply: 0,
                text: "d2-d3",
            },
        )
        .await;
    assert!(err.is_err(), "a stale commit must fail");
    let (after, steps) = store.game(&id).await.unwrap().unwrap();
    assert_eq!(
        (after.version, steps.len()),
        (1, 0),
        "nothing stored by a failed commit"
    );

    // Undo removes exactly the last step; removing a step that is not there fails whole.
    let mut next = r.clone();
    next.version = 2;
    store
        .commit(
            &next,
            Change::Step {
                ply: 0,
                text: "d2-d3",
            },
        )
        .await
        .unwrap();
    next.version = 3;
    assert!(store
        .commit(&next, Change::Unstep { ply: 4 })
        .await
        .is_err());
    let (after, steps) = store.game(&id).await.unwrap().unwrap();
    assert_eq!(
        (after.version, steps.clone()),
        (2, vec!["d2-d3".to_string()])
    );
    store
        .commit(&next, Change::Unstep { ply: 0 })
        .await
        .unwrap();
    let (after, steps) = store.game(&id).await.unwrap().unwrap();
    assert_eq!((after.version, steps.len()), (3, 0));

    // A duplicate step number is refused (the primary key), and the version stays.
    next.version = 4;
    store
        .commit(
            &next,
            Change::Step {
                ply: 0,
                text: "d2-d3",
            },
        )
        .await
        .unwrap();
    next.version = 5;
    assert!(store
        .commit(
            &next,
            Change::Step {
                ply: 0,
                text: "e2-e3"
            }
        )
        .await
        .is_err());
    let (after, _) = store.game(&id).await.unwrap().unwrap();
    assert_eq!(after.version, 4);

    // Endings and draw offers are stored with the row.
    next.version = 5;
    next.draw_offer = Some("white".into());
    store.commit(&next, Change::Row).await.unwrap();
    next.version = 6;
    next.draw_offer = None;
    next.ending = Some("resign black".into());
    next.finished = true;
    store.commit(&next, Change::Row).await.unwrap();
    let (after, steps) = store.game(&id).await.unwrap().unwrap();
    assert_eq!(after.ending.as_deref(), Some("resign black"));
    assert!(after.finished);
    let replayed = LiveGame::replay(after, &steps).unwrap();
    assert!(
        replayed.game.result().is_some(),
        "a resigned game replays as finished"
    );
    assert!(!store.game_ids(true, 1000).await.unwrap().contains(&id));
    assert!(store.game_ids(false, 100000).await.unwrap().contains(&id));

    // AI against AI: the creator's token is stored, and the game counts while it goes on.
    let before = store.count_ai_games(0).await.unwrap();
    let id = unique("aiai");
    let mut r = row(&id, "mini-chieftain");
    r.white = "ai".into();
    r.black = "ai".into();
    r.creator_token = "c".repeat(32);
    store.insert_game(&r).await.unwrap();
    assert_eq!(store.count_ai_games(0).await.unwrap(), before + 1);
    let (after, _) = store.game(&id).await.unwrap().unwrap();
    assert_eq!(after, r);
    r.version = 2;
    r.ending = Some("stopped".into());
    r.finished = true;
    store.commit(&r, Change::Row).await.unwrap();
    assert_eq!(store.count_ai_games(0).await.unwrap(), before);
    let (after, steps) = store.game(&id).await.unwrap().unwrap();
    assert!(LiveGame::replay(after, &steps)
        .unwrap()
        .game
        .result()
        .is_some());
    clocks_accounts_ratings(&store).await;
    store.close().await;
}

/// A database made before the creator token existed (three migrations) opens: the column is
/// added with '' for the games already there, which read back and replay as before.
async fn old_database_opens(url: &str) {
    use sqlx::Executor;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    for sql in [
        "CREATE TABLE schema_version (version BIGINT NOT NULL)",
        "INSERT INTO schema_version (version) VALUES (3)",
        "CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, start TEXT NOT NULL,
            white TEXT NOT NULL, black TEXT NOT NULL, ai_agent TEXT NOT NULL,
            ai_time_ms BIGINT NOT NULL, white_token TEXT NOT NULL, black_token TEXT NOT NULL,
            draw_offer TEXT, ending TEXT, finished BIGINT NOT NULL, version BIGINT NOT NULL,
            created_ms BIGINT NOT NULL, updated_ms BIGINT NOT NULL)",
        "CREATE TABLE steps (game_id TEXT NOT NULL REFERENCES games(id), ply BIGINT NOT NULL,
            step TEXT NOT NULL, PRIMARY KEY (game_id, ply))",
        "CREATE INDEX games_by_update ON games (updated_ms)",
        "INSERT INTO games VALUES ('old1', 'mini-chieftain',
            'hnsccsnh/mmmmmmmm/8/8/8/8/MMMMMMMM/HNSCCSNH w', 'ai', 'ai', 'random', 100,
            'w', 'b', NULL, NULL, 0, 2, 1, 1)",
        "INSERT INTO steps VALUES ('old1', 0, 'd2-d3')",
    ] {
        pool.execute(sql).await.unwrap();
    }
    pool.close().await;
    let store = Store::open(url).await.expect("an old database opens");
    let (r, steps) = store.game("old1").await.unwrap().unwrap();
    assert_eq!(r.creator_token, "");
    assert_eq!(r.clock, Clock::default(), "an old game has no clock");
    assert_eq!(
        (r.white_user.clone(), r.rated, r.rating_change.clone()),
        (None, false, None)
    );
    assert_eq!(steps, ["d2-d3"]);
    LiveGame::replay(r, &steps).unwrap();
    assert_eq!(store.count_ai_games(0).await.unwrap(), 1);
    let new = row(&unique("new"), "chess");
    store.insert_game(&new).await.unwrap();
    store.close().await;
    // And again: the migration ran once.
    Store::open(url).await.unwrap().close().await;
    // A database a newer Cohort migrated is refused, and its version is left as it was.
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let version = |pool: sqlx::AnyPool| async move {
        let r = sqlx::query("SELECT version FROM schema_version")
            .fetch_one(&pool)
            .await
            .unwrap();
        sqlx::Row::try_get::<i64, _>(&r, 0).unwrap()
    };
    let known = version(pool.clone()).await;
    pool.execute("UPDATE schema_version SET version = version + 5")
        .await
        .unwrap();
    let err = Store::open(url)
        .await
        .err()
        .expect("a newer schema is refused");
    assert!(
        err.to_string().contains("newer than this cohort knows"),
        "{err}"
    );
    assert_eq!(version(pool.clone()).await, known + 5);
    pool.execute("UPDATE schema_version SET version = version - 5")
        .await
        .unwrap();
    pool.close().await;
}

/// Three instances started at once on a fresh PostgreSQL database all come up: the
/// migrations run once, under a lock, not three times in a race.
#[tokio::test(flavor = "multi_thread")]
async fn instances_started_at_once_migrate_once_on_postgres() {
    let Some(url) = postgres_url("instances_started_at_once_migrate_once_on_postgres") else {
        return;
    };
    with_fresh_database(&url, "cohort_race_", |db| async move {
        let open = |db: String| async move { Store::open(&db).await };
        let opened = futures_join3(open(db.clone()), open(db.clone()), open(db)).await;
        for (i, s) in opened.into_iter().enumerate() {
            let s = s.unwrap_or_else(|e| panic!("instance {i}: {e}"));
            s.insert_game(&row(&unique(&format!("race{i}")), "chess"))
                .await
                .unwrap();
            s.close().await;
        }
    })
    .await;
}

/// Three futures run at once, their results in order.
async fn futures_join3<T: Send + 'static>(
    a: impl std::future::Future<Output = T> + Send + 'static,
    b: impl std::future::Future<Output = T> + Send + 'static,
    c: impl std::future::Future<Output = T> + Send + 'static,
) -> Vec<T> {
    let (a, b, c) = (tokio::spawn(a), tokio::spawn(b), tokio::spawn(c));
    vec![a.await.unwrap(), b.await.unwrap(), c.await.unwrap()]
}

#[tokio::test(flavor = "multi_thread")]
async fn old_database_opens_on_sqlite() {
    let dir = std::env::temp_dir().join(unique("cohort-old-"));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.join("old.db").display());
    old_database_opens(&url).await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn old_database_opens_on_postgres() {
    let Some(url) = postgres_url("old_database_opens_on_postgres") else {
        return;
    };
    // A database of its own, dropped afterwards.
    with_fresh_database(&url, "cohort_old_", |db| async move {
        old_database_opens(&db).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn storage_on_sqlite() {
    let dir = std::env::temp_dir().join(unique("cohort-storage-"));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}", dir.join("games.db").display());
    suite(&url).await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn storage_on_postgres() {
    if let Some(url) = postgres_url("storage_on_postgres") {
        suite(&url).await;
    }
}

/// A password holding the characters a URL reserves (`p@ss/w:rd#1`), written raw in the
/// database URL as an operator would: the store connects (the password is percent-encoded
/// before connecting), and the URL prints with the whole password masked (issue 47, item 9:
/// this failed to connect, and the masked error printed everything after the `/`).
#[tokio::test(flavor = "multi_thread")]
async fn a_password_with_url_characters_connects_on_postgres() {
    use sqlx::Executor;
    let Some(url) = postgres_url("a_password_with_url_characters_connects_on_postgres") else {
        return;
    };
    with_fresh_database(&url, "cohort_urlpass_", |db| async move {
        let role = format!("cohort_urlpass_{}", std::process::id());
        let admin = sqlx::AnyPool::connect(&db).await.unwrap();
        let _ = admin
            .execute(format!("DROP ROLE IF EXISTS {role}").as_str())
            .await;
        admin
            .execute(format!("CREATE ROLE {role} LOGIN SUPERUSER PASSWORD 'p@ss/w:rd#1'").as_str())
            .await
            .unwrap();
        let (_, host_and_db) = db.rsplit_once('@').unwrap();
        let raw = format!("postgres://{role}:p@ss/w:rd#1@{host_and_db}");
        assert_eq!(
            cohort_server::mask_password(&raw),
            format!("postgres://{role}:***@{host_and_db}")
        );
        let store = Store::open(&raw)
            .await
            .unwrap_or_else(|e| panic!("connecting as {role} failed: {e}"));
        store
            .insert_game(&row(&unique("urlpass"), "chess"))
            .await
            .unwrap();
        store.close().await;
        // A wrong password is refused, and its error does not print the password.
        let wrong = format!("postgres://{role}:p@ss/w:rd#2@{host_and_db}");
        let err = match Store::open(&wrong).await {
            Ok(_) => panic!("a wrong password connected"),
            Err(e) => e.to_string(),
        };
        assert!(!err.contains("rd#2") && !err.contains("w:rd"), "{err}");
        // The role owns the tables it migrated: those go first.
        admin
            .execute(format!("DROP OWNED BY {role}").as_str())
            .await
            .unwrap();
        admin
            .execute(format!("DROP ROLE {role}").as_str())
            .await
            .unwrap();
        admin.close().await;
    })
    .await;
}

//! Takebacks, aborts and rematches (docs/server.md, "Takebacks, aborts, rematches"): who may
//! ask and answer, what each removes or makes, the refusals (with the game unchanged), and
//! that storage holds the outcome (a second instance on the same database sees it).

use cohort_rules::Rules;
use std::sync::Arc;

use axum::http::StatusCode;
use cohort_server::clock::{Clock, TimeControl};
use cohort_server::store::{now_ms, GameRow};
use cohort_server::App;
use serde_json::{json, Value};

use crate::common;
use common::*;

/// A chess game between two people (one step a turn): its id and the two seats' tokens.
async fn new_game(app: &Arc<App>, extra: Value) -> (String, String, String) {
    let mut req = json!({"variant": "chess", "white": "human", "black": "human"});
    for (k, v) in extra.as_object().unwrap() {
        req[k] = v.clone();
    }
    let (s, created) = post(app, "/api/games", req).await;
    assert_eq!(s, StatusCode::OK, "{created}");
    let tok = |side: &str| created["tokens"][side].as_str().unwrap_or("").to_string();
    (
        created["id"].as_str().unwrap().to_string(),
        tok("white"),
        tok("black"),
    )
}

async fn step(app: &Arc<App>, id: &str, token: &str, text: &str) -> Value {
    let (s, v) = post(
        app,
        &format!("/api/games/{id}/step"),
        json!({"token": token, "step": text}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{text}: {v}");
    v
}

/// A refused request: its status and code, and the game exactly as before it.
async fn refused(
    app: &Arc<App>,
    id: &str,
    path: &str,
    body: Value,
    status: StatusCode,
    code: &str,
) -> Value {
    let before = get(app, &format!("/api/games/{id}")).await;
    let (s, v) = post(app, &format!("/api/games/{id}/{path}"), body.clone()).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (status, Some(code)),
        "{path} {body}: {v}"
    );
    assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    let after = get(app, &format!("/api/games/{id}")).await;
    for field in [
        "version",
        "position",
        "turns",
        "takeback_offer",
        "result",
        "rematch_offer",
        "rematch",
    ] {
        assert_eq!(before[field], after[field], "{path} {body} changed {field}");
    }
    v
}

fn turn_steps(v: &Value) -> Vec<String> {
    v["turns"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["steps"].as_array().unwrap().clone())
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// The takeback rules on `a`, with `b` a second instance on the same database.
async fn takeback_flow(a: &Arc<App>, b: &Arc<App>) {
    let (id, white, black) = new_game(a, json!({"clock": {"minutes": 5, "increment": 2}})).await;
    let tb = |token: &str, action: &str| json!({"token": token, "action": action});
    // Nothing to take back before a turn; nothing pending; bad tokens; bad actions.
    refused(
        a,
        &id,
        "takeback",
        tb(&white, "offer"),
        StatusCode::CONFLICT,
        "nothing_to_take_back",
    )
    .await;
    refused(
        a,
        &id,
        "takeback",
        tb(&black, "accept"),
        StatusCode::CONFLICT,
        "no_takeback_offer",
    )
    .await;
    refused(
        a,
        &id,
        "takeback",
        tb(&"0".repeat(32), "offer"),
        StatusCode::FORBIDDEN,
        "forbidden",
    )
    .await;
    refused(
        a,
        &id,
        "takeback",
        tb(&white, "please"),
        StatusCode::BAD_REQUEST,
        "invalid_field",
    )
    .await;
    refused(
        a,
        &id,
        "takeback",
        json!({"token": white}),
        StatusCode::BAD_REQUEST,
        "bad_request",
    )
    .await;

    step(a, &id, &white, "e2-e4").await;
    let (s, v) = post(a, &format!("/api/games/{id}/takeback"), tb(&white, "offer")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["takeback_offer"], "white");
    assert_eq!(v["seat"], "white");
    // The request shows to everyone, the other instance included.
    assert_eq!(
        get(b, &format!("/api/games/{id}")).await["takeback_offer"],
        "white"
    );
    refused(
        a,
        &id,
        "takeback",
        tb(&white, "offer"),
        StatusCode::CONFLICT,
        "takeback_offer_standing",
    )
    .await;
    refused(
        a,
        &id,
        "takeback",
        tb(&white, "accept"),
        StatusCode::CONFLICT,
        "no_takeback_offer",
    )
    .await;
    refused(
        a,
        &id,
        "takeback",
        tb(&"0".repeat(32), "accept"),
        StatusCode::FORBIDDEN,
        "forbidden",
    )
    .await;
    // Declined: the request is gone, the turn stays.
    let (s, v) = post(
        a,
        &format!("/api/games/{id}/takeback"),
        tb(&black, "decline"),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["takeback_offer"], Value::Null);
    assert_eq!(turn_steps(&v), ["e2-e4"]);

    // A step clears a standing request.
    post(a, &format!("/api/games/{id}/takeback"), tb(&white, "offer")).await;
    let v = step(a, &id, &black, "e7-e5").await;
    assert_eq!(
        v["takeback_offer"],
        Value::Null,
        "a step answers the request"
    );

    // Black asks after its own turn; White accepts on the other instance: Black's turn is
    // gone, in storage too, and Black is to move again.
    let (s, v) = post(a, &format!("/api/games/{id}/takeback"), tb(&black, "offer")).await;
    assert_eq!(
        (s, v["takeback_offer"].as_str()),
        (StatusCode::OK, Some("black")),
        "{v}"
    );
    let before = get(a, &format!("/api/games/{id}")).await;
    let white_ms = before["clock"]["white_ms"].as_i64().unwrap();
    let (s, v) = post(
        b,
        &format!("/api/games/{id}/takeback"),
        tb(&white, "accept"),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(turn_steps(&v), ["e2-e4"]);
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["takeback_offer"], Value::Null);
    assert_eq!(
        v["version"].as_i64().unwrap(),
        before["version"].as_i64().unwrap() + 1
    );
    // The clock: Black's runs again; White's time is what it was (no time given back or
    // charged for the takeback).
    assert_eq!(v["clock"]["running"], "black");
    let white_after = v["clock"]["white_ms"].as_i64().unwrap();
    assert!(
        (white_after - white_ms).abs() < 1000,
        "White's clock moved: {white_ms} -> {white_after}"
    );
    assert_eq!(a.store.steps(&id).await.unwrap(), ["e2-e4"]);
    let seen = get(a, &format!("/api/games/{id}")).await;
    assert_eq!(turn_steps(&seen), ["e2-e4"], "the first instance reloads");
    assert_eq!(seen["version"], v["version"]);
    // Play goes on from there: Black plays another move.
    let v = step(a, &id, &black, "c7-c5").await;
    assert_eq!(turn_steps(&v), ["e2-e4", "c7-c5"]);

    // Against the AI: refused, nothing pending.
    let (s, created) = post(
        a,
        "/api/games",
        json!({"variant": "chess", "white": "human", "black": "ai", "ai": {"agent": "random", "time_ms": 50}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{created}");
    let ai_game = created["id"].as_str().unwrap().to_string();
    let me = created["tokens"]["white"].as_str().unwrap().to_string();
    step(a, &ai_game, &me, "e2-e4").await;
    let (s, v) = post(
        a,
        &format!("/api/games/{ai_game}/takeback"),
        tb(&me, "offer"),
    )
    .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::CONFLICT, Some("ai_declines_takebacks")),
        "{v}"
    );
    assert_eq!(
        get(a, &format!("/api/games/{ai_game}")).await["takeback_offer"],
        Value::Null
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn takeback_asked_declined_cleared_and_accepted() {
    let (dir, url) = temp_db("offers-takeback");
    let a = App::open(&url).await.unwrap();
    let b = App::open(&url).await.unwrap();
    takeback_flow(&a, &b).await;
    a.store.close().await;
    b.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn takeback_on_postgres() {
    let Some(url) = postgres_url("takeback_on_postgres") else {
        return;
    };
    // A database of its own: the schema this branch migrates to stays out of the shared one.
    with_fresh_database(&url, "cohort_offers", |db| async move {
        let a = App::open(&db).await.unwrap();
        let b = App::open(&db).await.unwrap();
        takeback_flow(&a, &b).await;
        rematch_flow(&a).await;
        a.store.close().await;
        b.store.close().await;
    })
    .await;
}

/// A rated chess game between the accounts alice (White) and bob (Black), stored directly.
async fn rated_game(app: &Arc<App>, id: &str) -> (String, String) {
    for user in ["alice", "bob"] {
        let _ = app
            .store
            .create_user(user, user, "not a hash", now_ms())
            .await
            .unwrap();
    }
    let now = now_ms();
    let row = GameRow {
        id: id.into(),
        variant: "chess".into(),
        start: cohort_rules::builtin("chess").unwrap().start().to_text(),
        white: "human".into(),
        black: "human".into(),
        ai_agent: "engine".into(),
        ai_time_ms: 200,
        white_token: "a".repeat(32),
        black_token: "b".repeat(32),
        version: 1,
        created_ms: now,
        updated_ms: now,
        clock: Clock::start(
            TimeControl::Live {
                base_ms: 180_000,
                inc_ms: 2000,
            },
            now,
        ),
        white_user: Some("alice".into()),
        black_user: Some("bob".into()),
        rated: true,
        ..GameRow::default()
    };
    app.store.insert_game(&row).await.unwrap();
    ("a".repeat(32), "b".repeat(32))
}

#[tokio::test(flavor = "multi_thread")]
async fn abort_before_two_turns_only_and_unrated() {
    let (dir, url) = temp_db("offers-abort");
    let app = App::open(&url).await.unwrap();
    let (id, white, black) = new_game(&app, json!({})).await;
    refused(
        &app,
        &id,
        "abort",
        json!({"token": "0".repeat(32)}),
        StatusCode::FORBIDDEN,
        "forbidden",
    )
    .await;
    refused(
        &app,
        &id,
        "abort",
        json!({}),
        StatusCode::BAD_REQUEST,
        "bad_request",
    )
    .await;
    assert_eq!(
        get(&app, &format!("/api/games/{id}")).await["can_abort"],
        true
    );
    step(&app, &id, &white, "e2-e4").await;
    // One turn played: Black (not to move) may still abort.
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/abort"),
        json!({"token": black}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["reason"], "aborted");
    assert_eq!(v["result"]["winner"], Value::Null);
    assert_eq!(v["can_abort"], false);
    let rec = get(&app, &format!("/api/games/{id}/record?format=json")).await;
    assert_eq!(
        (rec["result"].as_str(), rec["reason"].as_str()),
        (Some("*"), Some("aborted")),
        "{rec}"
    );
    assert!(
        rec["text"]
            .as_str()
            .unwrap()
            .contains("[Termination \"aborted\"]"),
        "{}",
        rec["text"]
    );
    refused(
        &app,
        &id,
        "step",
        json!({"token": white, "step": "e7-e5"}),
        StatusCode::CONFLICT,
        "game_over",
    )
    .await;
    refused(
        &app,
        &id,
        "abort",
        json!({"token": white}),
        StatusCode::CONFLICT,
        "game_over",
    )
    .await;
    // The ending survives a restart.
    app.store.close().await;
    drop(app);
    let app = App::open(&url).await.unwrap();
    assert_eq!(
        get(&app, &format!("/api/games/{id}")).await["result"]["reason"],
        "aborted"
    );

    // Two turns played: refused, resign instead.
    let (id, white, black) = new_game(&app, json!({})).await;
    step(&app, &id, &white, "e2-e4").await;
    step(&app, &id, &black, "e7-e5").await;
    assert_eq!(
        get(&app, &format!("/api/games/{id}")).await["can_abort"],
        false
    );
    let v = refused(
        &app,
        &id,
        "abort",
        json!({"token": white}),
        StatusCode::CONFLICT,
        "too_late_to_abort",
    )
    .await;
    assert!(v["error"].as_str().unwrap().contains("resign"), "{v}");

    // A rated game aborted: no rating changes, and the game says why.
    let (white, _) = rated_game(&app, "ratedabort").await;
    step(&app, "ratedabort", &white, "e2-e4").await;
    let (s, v) = post(&app, "/api/games/ratedabort/abort", json!({"token": white})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let v = get(&app, "/api/games/ratedabort").await;
    assert_eq!(v["unrated"], "the game was aborted", "{v}");
    assert_eq!(v["rating_change"], Value::Null);
    assert!(app.store.ratings_of("alice").await.unwrap().is_empty());
    assert!(app.store.ratings_of("bob").await.unwrap().is_empty());
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The rematch rules on `app`.
async fn rematch_flow(app: &Arc<App>) {
    let (id, white, black) = new_game(app, json!({"clock": {"minutes": 3, "increment": 2}})).await;
    let rm = |token: &str, action: &str| json!({"token": token, "action": action});
    refused(
        app,
        &id,
        "rematch",
        rm(&white, "offer"),
        StatusCode::CONFLICT,
        "game_not_over",
    )
    .await;
    step(app, &id, &white, "e2-e4").await;
    let (s, v) = post(
        app,
        &format!("/api/games/{id}/resign"),
        json!({"token": black}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    refused(
        app,
        &id,
        "rematch",
        rm(&"0".repeat(32), "offer"),
        StatusCode::FORBIDDEN,
        "forbidden",
    )
    .await;
    refused(
        app,
        &id,
        "rematch",
        rm(&white, "accept"),
        StatusCode::CONFLICT,
        "no_rematch_offer",
    )
    .await;
    refused(
        app,
        &id,
        "rematch/seat",
        json!({"token": white}),
        StatusCode::CONFLICT,
        "no_rematch",
    )
    .await;
    let (s, v) = post(
        app,
        &format!("/api/games/{id}/rematch"),
        rm(&black, "offer"),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["rematch_offer"].as_str(), &v["rematch"]),
        (Some("black"), &Value::Null)
    );
    refused(
        app,
        &id,
        "rematch",
        rm(&black, "offer"),
        StatusCode::CONFLICT,
        "rematch_offer_standing",
    )
    .await;
    refused(
        app,
        &id,
        "rematch",
        rm(&black, "accept"),
        StatusCode::CONFLICT,
        "no_rematch_offer",
    )
    .await;
    // White declines, Black offers again, White accepts.
    let (s, v) = post(
        app,
        &format!("/api/games/{id}/rematch"),
        rm(&white, "decline"),
    )
    .await;
    assert_eq!(
        (s, &v["rematch_offer"]),
        (StatusCode::OK, &Value::Null),
        "{v}"
    );
    post(
        app,
        &format!("/api/games/{id}/rematch"),
        rm(&black, "offer"),
    )
    .await;
    let (s, v) = post(
        app,
        &format!("/api/games/{id}/rematch"),
        rm(&white, "accept"),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let new_id = v["rematch"].as_str().expect("the rematch's id").to_string();
    let mine = &v["rematch_seat"];
    assert_eq!(
        (mine["id"].as_str(), mine["seat"].as_str()),
        (Some(new_id.as_str()), Some("black")),
        "{v}"
    );
    let white_now = mine["token"].as_str().unwrap().to_string();
    assert_eq!(mine["link"], format!("/game/{new_id}?token={white_now}"));
    // Black learns its seat with its old token; nobody else can.
    let (s, theirs) = post(
        app,
        &format!("/api/games/{id}/rematch/seat"),
        json!({"token": black}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{theirs}");
    assert_eq!(theirs["seat"], "white");
    let black_now = theirs["token"].as_str().unwrap().to_string();
    assert!(![&white, &black, &white_now].contains(&&black_now));
    refused(
        app,
        &id,
        "rematch/seat",
        json!({"token": "0".repeat(32)}),
        StatusCode::FORBIDDEN,
        "forbidden",
    )
    .await;
    // The watchers' view names the rematch but holds no token.
    let watched = get(app, &format!("/api/games/{id}")).await;
    assert_eq!(watched["rematch"], new_id.as_str());
    let text = watched.to_string();
    assert!(
        !text.contains(&white_now) && !text.contains(&black_now),
        "a token leaked: {text}"
    );
    refused(
        app,
        &id,
        "rematch",
        rm(&black, "offer"),
        StatusCode::CONFLICT,
        "rematch_made",
    )
    .await;
    // The new game: the same variant and clock, colours swapped, fresh.
    let g = get(app, &format!("/api/games/{new_id}?token={black_now}")).await;
    assert_eq!(g["seat"], "white");
    assert_eq!(
        get(app, &format!("/api/games/{new_id}?token={white_now}")).await["seat"],
        "black"
    );
    assert_eq!(
        (g["variant"].as_str(), g["clock"]["control"].as_str()),
        (Some("chess"), Some("3+2"))
    );
    assert!(
        turn_steps(&g).is_empty() && g["result"].is_null() && g["version"] == 1,
        "{g}"
    );
    step(app, &new_id, &black_now, "d2-d4").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn rematch_offered_accepted_colours_swapped() {
    let (dir, url) = temp_db("offers-rematch");
    let app = App::open(&url).await.unwrap();
    rematch_flow(&app).await;

    // A rated game between accounts: the rematch is rated, the accounts swapped.
    let (white, black) = rated_game(&app, "ratedrematch").await;
    post(
        &app,
        "/api/games/ratedrematch/resign",
        json!({"token": white}),
    )
    .await;
    let (s, v) = post(
        &app,
        "/api/games/ratedrematch/rematch",
        json!({"token": white, "action": "offer"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = post(
        &app,
        "/api/games/ratedrematch/rematch",
        json!({"token": black, "action": "accept"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let g = get(
        &app,
        &format!("/api/games/{}", v["rematch"].as_str().unwrap()),
    )
    .await;
    assert_eq!(g["rated"], true);
    assert_eq!(g["accounts"], json!({"white": "bob", "black": "alice"}));

    // Against the AI: made at once, the AI now White (and moving).
    let (s, created) = post(
        &app,
        "/api/games",
        json!({"variant": "chess", "white": "human", "black": "ai", "ai": {"agent": "random", "time_ms": 50}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{created}");
    let ai_game = created["id"].as_str().unwrap().to_string();
    let me = created["tokens"]["white"].as_str().unwrap().to_string();
    post(
        &app,
        &format!("/api/games/{ai_game}/resign"),
        json!({"token": me}),
    )
    .await;
    let (s, v) = post(
        &app,
        &format!("/api/games/{ai_game}/rematch"),
        json!({"token": me, "action": "offer"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["rematch_seat"]["seat"], "black");
    let g = get(
        &app,
        &format!("/api/games/{}", v["rematch"].as_str().unwrap()),
    )
    .await;
    assert_eq!(g["players"]["black"], "human");
    assert_ne!(g["players"]["white"], "human");
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A turn of many steps: the takeback removes the whole last turn and the steps of the turn
/// in progress, in storage too.
#[tokio::test(flavor = "multi_thread")]
async fn takeback_of_a_turn_of_several_steps_and_the_turn_in_progress() {
    let (dir, url) = temp_db("offers-multistep");
    let app = App::open(&url).await.unwrap();
    let (id, white, black) = new_game(&app, json!({"variant": "chesimals-1"})).await;
    let start = get(&app, &format!("/api/games/{id}")).await["position"].clone();
    // A legal step that captures nothing, as the view lists them.
    let quiet = |v: &Value| {
        v["legal"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["captures"].as_array().unwrap().is_empty())
            .unwrap()["text"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let opening = quiet(&get(&app, &format!("/api/games/{id}")).await);
    step(&app, &id, &white, &opening).await;
    let v = step(&app, &id, &white, "end").await;
    assert_eq!(v["to_move"], "black");
    let first = quiet(&v);
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/takeback"),
        json!({"token": white, "action": "offer"}),
    )
    .await;
    assert_eq!(
        (s, v["takeback_offer"].as_str()),
        (StatusCode::OK, Some("white")),
        "{v}"
    );
    // Black's step clears it; White asks again with Black mid-turn.
    let v = step(&app, &id, &black, &first).await;
    assert_eq!(v["takeback_offer"], Value::Null);
    assert_eq!(v["turn_steps"], json!([first]));
    post(
        &app,
        &format!("/api/games/{id}/takeback"),
        json!({"token": white, "action": "offer"}),
    )
    .await;
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/takeback"),
        json!({"token": black, "action": "accept"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["position"], start, "back at the start");
    assert_eq!(v["to_move"], "white");
    assert!(
        turn_steps(&v).is_empty() && v["turn_steps"] == json!([]),
        "{v}"
    );
    assert!(app.store.steps(&id).await.unwrap().is_empty());
    // A restart replays the same game.
    app.store.close().await;
    drop(app);
    let app = App::open(&url).await.unwrap();
    let again = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(
        (&again["position"], &again["version"]),
        (&start, &v["version"])
    );
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

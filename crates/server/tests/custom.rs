//! Custom variants and piece diagrams (crates/server/src/custom.rs): bad variant files
//! answered with JSON errors naming the line and field, oversize files refused, a game in a
//! custom variant that survives a restart (API, and storage on SQLite and PostgreSQL) and
//! whose record names its variant, the limits on custom-variant games, and the move diagrams
//! checked against the rules crate's own destinations.

use axum::body::Body;
use axum::http::StatusCode;
use cohort_rules::{builtin_variants, Side};
use cohort_rules::{Rules, SearchHooks};
use cohort_server::live::LiveGame;
use cohort_server::store::{now_ms, GameRow, Store};
use cohort_server::{App, Config};
use serde_json::{json, Value};

use crate::common;
use common::*;

const TINY: &str = "# a 6x6 Chieftain game
[tiny]
base = mini-chieftain
name = Tiny Chieftain
board = 6x6
setup = 1ccm2/6/6/6/6/2CMC1 w
";

async fn check(app: &std::sync::Arc<App>, text: &str) -> (StatusCode, Value) {
    post(app, "/api/variants/check", json!({ "text": text })).await
}

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_variant_files_give_json_errors_with_line_and_field() {
    let (dir, url) = temp_db("custom-bad");
    let app = App::open(&url).await.unwrap();
    let seventeen: String = (0..17)
        .map(|i| format!("[v{i}]\nbase = mini-chieftain\nname = V{i}\n"))
        .collect();
    // Limits of the loader: more than 200 units, more than 16 piece kinds.
    let crowded = TINY.replace("6x6", "16x16").replace(
        "1ccm2/6/6/6/6/2CMC1",
        &[vec!["M".repeat(16); 14], vec!["c15".into(), "C15".into()]]
            .concat()
            .join("/"),
    );
    let kinds: String = (b'A'..=b'Q')
        .map(|c| format!("piece {} = P{}, W\n", c as char, c as char))
        .collect();
    let many_kinds = TINY.replace("base = mini-chieftain\n", "").replace(
        "board = 6x6\n",
        &format!("board = 6x6\ncommand = range\n{kinds}"),
    );
    // (file, line, field, words in the message)
    let cases: Vec<(String, usize, &str, &[&str])> = vec![
        (
            TINY.replace(
                "board = 6x6",
                "board = 6x6\npiece C = Chieftain, K^Y, leader royal",
            ),
            6,
            "piece C",
            &["unknown atom 'Y'"],
        ),
        (
            TINY.replace("6x6", "20x20"),
            5,
            "board",
            &["FILESxRANKS", "20x20"],
        ),
        (
            TINY.replace("name = Tiny Chieftain", "name = Tiny\nquiet_turns = 5"),
            5,
            "quiet_turns",
            &["unknown field", "quiet-turns"],
        ),
        (
            TINY.replace("board = 6x6", "board 6x6"),
            5,
            "",
            &["expected 'field = value'"],
        ),
        (TINY.replace("1ccm2", "1ccq2"), 6, "setup", &["q"]),
        (TINY.replace("[tiny]", "[chess]"), 2, "", &["defined twice"]),
        (
            TINY.replace("mini-chieftain", "mini-chieftan"),
            3,
            "base",
            &["mini-chieftan"],
        ),
        (
            TINY.replace("base = mini-chieftain\n", "")
                .replace("board", "command = range\nboard"),
            2,
            "piece",
            &["missing"],
        ),
        (seventeen, 49, "", &["at most 16 variants"]),
        (crowded, 6, "setup", &["more than 200 units"]),
        (many_kinds, 2, "piece", &["at most 16 piece kinds"]),
    ];
    let before = get(&app, "/api/games").await;
    for (text, line, field, words) in &cases {
        let (s, v) = check(&app, text).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{text}: {v}");
        let e = &v["errors"][0];
        assert_eq!(e["line"], json!(line), "line of {v}");
        assert_eq!(e["field"], json!(field), "field of {v}");
        let error = v["error"].as_str().unwrap();
        assert!(error.starts_with(&format!("custom.ini:{line}:")), "{error}");
        for w in *words {
            assert!(error.contains(w), "'{w}' in {error}");
            assert!(e["message"].as_str().unwrap().contains(w), "'{w}' in {e}");
        }
        // Starting a game with it is refused with the same sentence, and nothing is stored.
        let (s, g) = post(
            &app,
            "/api/games",
            json!({"variant": "tiny", "variant_text": text, "white": "human", "black": "ai"}),
        )
        .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{g}");
        assert_eq!(g["error"], v["error"]);
    }
    // Requests that are not a file at all.
    for (body, words) in [
        (json!({}).to_string(), "missing field `text`"),
        (json!({"text": 5}).to_string(), "invalid type"),
        ("{\"text\": ".to_string(), "malformed JSON"),
        (json!({"text": "  \n"}).to_string(), "empty"),
    ] {
        let (s, v) = call(&app, "POST", "/api/variants/check", Body::from(body)).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
        assert!(v["error"].as_str().unwrap().contains(words), "{words}: {v}");
    }
    // A file that loads, but not the variant asked for.
    let (s, g) = post(
        &app,
        "/api/games",
        json!({"variant": "other", "variant_text": TINY, "white": "human", "black": "human"}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(
        g["error"]
            .as_str()
            .unwrap()
            .contains("defines tiny, not 'other'"),
        "{g}"
    );
    assert_eq!(get(&app, "/api/games").await, before, "no game was stored");
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn oversize_files_are_refused() {
    let (dir, url) = temp_db("custom-size");
    let app = App::open(&url).await.unwrap();
    // 64 KiB and one byte of comments: refused before it is read.
    let mut text = TINY.to_string();
    while text.len() <= 64 * 1024 {
        text.push_str("# padding padding padding padding padding padding padding padding\n");
    }
    let (s, v) = check(&app, &text).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("at most 65536"),
        "{v}"
    );
    let (s, v) = post(
        &app,
        "/api/games",
        json!({"variant": "tiny", "variant_text": text, "white": "human", "black": "human"}),
    )
    .await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    // The same file cut to 64 KiB loads.
    let mut ok = TINY.to_string();
    while ok.len() + 70 < 64 * 1024 {
        ok.push_str("# padding padding padding padding padding padding padding padding\n");
    }
    let (s, v) = check(&app, &ok).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // A body over the route's limit: a JSON error too.
    let huge = json!({ "text": "#".repeat(300 * 1024) }).to_string();
    let (s, v) = call(&app, "POST", "/api/variants/check", Body::from(huge)).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("request body over"),
        "{v}"
    );
    // Other routes keep their 16 KiB limit.
    let big = json!({"token": "x".repeat(20 * 1024)}).to_string();
    let (s, _) = call(&app, "POST", "/api/games/abc/step", Body::from(big)).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_good_file_shows_its_start_pieces_and_warnings() {
    let (dir, url) = temp_db("custom-good");
    let app = App::open(&url).await.unwrap();
    let text = format!("{TINY}cap = 3\n");
    let (s, v) = check(&app, &text).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let t = &v["variants"][0];
    assert_eq!(
        (t["id"].as_str(), t["files"].as_u64(), t["ranks"].as_u64()),
        (Some("tiny"), Some(6), Some(6))
    );
    assert_eq!(t["start"]["position"], "1ccm2/6/6/6/6/2CMC1 w");
    assert_eq!(t["start"]["units"].as_array().unwrap().len(), 6);
    assert_eq!(t["command"], "range");
    let pieces = t["pieces"].as_array().unwrap();
    let letters: Vec<&str> = pieces
        .iter()
        .map(|p| p["letter"].as_str().unwrap())
        .collect();
    assert_eq!(letters, ["C", "H", "S", "N", "M"]);
    // The AI levels a game of it may ask for, in the engine's words (a game of many-step
    // turns: the same table as Chesimals I's).
    let builtin = get(&app, "/api/ai/levels?variant=chieftain").await;
    assert_eq!(t["ai_levels"], builtin, "{}", t["ai_levels"]);
    // The Knight from c3 (the middle of 6x6) on an empty board.
    let n = &pieces[3];
    assert_eq!(
        (n["moves"].as_str(), n["from"].as_str()),
        (Some("N"), Some("c3"))
    );
    let mut to = strs(&n["empty"]["moves"]);
    to.sort();
    assert_eq!(to, ["a2", "a4", "b1", "b5", "d1", "d5", "e2", "e4"]);
    assert_eq!(strs(&n["empty"]["captures"]).len(), 8);
    // The warning: cap is not read under the range model, with its line and field.
    let w = &v["warnings"][0];
    assert_eq!(
        (w["line"].as_u64(), w["field"].as_str()),
        (Some(7), Some("cap")),
        "{w}"
    );
    assert!(w["message"]
        .as_str()
        .unwrap()
        .contains("range does not read it"));
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_custom_game_survives_a_restart_and_its_record_names_the_variant() {
    let (dir, url) = temp_db("custom-restart");
    let app = App::open(&url).await.unwrap();
    let (s, created) = post(
        &app,
        "/api/games",
        json!({"variant": "tiny", "variant_text": TINY, "white": "human", "black": "human"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["tokens"]["white"].as_str().unwrap().to_string();
    let black = created["tokens"]["black"].as_str().unwrap().to_string();
    let step = |token: &str, step: &str| json!({"token": token, "step": step});
    for (tok, st) in [
        (&white, "d1-d2"),
        (&white, "end"),
        (&black, "c6-b5"),
        (&black, "end"),
        (&white, "c1-c2"),
    ] {
        let (s, v) = post(&app, &format!("/api/games/{id}/step"), step(tok, st)).await;
        assert_eq!(s, StatusCode::OK, "{st}: {v}");
    }
    let before = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(before["variant"], "tiny");
    assert_eq!(before["name"], "Tiny Chieftain");
    assert_eq!(before["custom"], true);
    assert_eq!(
        (before["files"].as_u64(), before["ranks"].as_u64()),
        (Some(6), Some(6))
    );
    app.store.close().await;
    drop(app);

    let app = App::open(&url).await.unwrap();
    let after = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(after["position"], before["position"]);
    assert_eq!(after["turn_steps"], json!(["c1-c2"]));
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["name"], "Tiny Chieftain");
    // The game goes on after the restart.
    let (s, v) = post(&app, &format!("/api/games/{id}/step"), step(&white, "end")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // Its record names the variant and carries its file; the replay works in it.
    let record = get(&app, &format!("/api/games/{id}/record?format=json")).await;
    assert_eq!(record["variant"], "tiny");
    assert_eq!(record["variant_name"], "Tiny Chieftain");
    assert_eq!(record["variant_file"], TINY);
    assert_eq!(record["turns"], json!([["d1-d2"], ["c6-b5"], ["c1-c2"]]));
    let at2 = get(&app, &format!("/api/games/{id}?at=2")).await;
    assert_eq!(at2["position"], "1ccm2/6/6/6/3M2/2C1C1 b");
    // A built-in game's record has no variant file.
    let (_, plain) = post(
        &app,
        "/api/games",
        json!({"variant": "chess", "white": "human", "black": "human"}),
    )
    .await;
    let r = get(
        &app,
        &format!(
            "/api/games/{}/record?format=json",
            plain["id"].as_str().unwrap()
        ),
    )
    .await;
    assert!(r.get("variant_file").is_none(), "{r}");
    assert_eq!(r["variant_name"], "Chess (FIDE)");
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The store keeps a custom game's file: written, read back after reopening, replayed.
async fn store_round_trip(url: &str) {
    let store = Store::open(url).await.unwrap();
    let v = cohort_server::custom::load(TINY).unwrap();
    let id = format!("cu{}{}", now_ms(), std::process::id());
    let row = GameRow {
        id: id.clone(),
        variant: "tiny".into(),
        start: v[0].start().to_text(),
        white: "human".into(),
        black: "human".into(),
        ai_agent: "engine".into(),
        ai_time_ms: 200,
        white_token: "w".repeat(32),
        black_token: "b".repeat(32),
        creator_token: String::new(),
        variant_text: TINY.into(),
        draw_offer: None,
        ending: None,
        finished: false,
        version: 1,
        created_ms: now_ms(),
        updated_ms: now_ms(),
        ..GameRow::default()
    };
    let running = store.count_custom_games(0).await.unwrap();
    store.insert_game(&row).await.unwrap();
    assert_eq!(store.count_custom_games(0).await.unwrap(), running + 1);
    store.close().await;
    let store = Store::open(url).await.unwrap();
    let (back, steps) = store.game(&id).await.unwrap().unwrap();
    assert_eq!(back, row);
    let live = LiveGame::replay(back, &steps).unwrap();
    assert_eq!(live.variant().name, "Tiny Chieftain");
    assert_eq!(live.game.position().to_text(), "1ccm2/6/6/6/6/2CMC1 w");
    // A row whose file no longer loads is reported, not a panic.
    let mut broken = row.clone();
    broken.variant_text = "[tiny]\nboard = 99x1\n".into();
    let e = LiveGame::replay(broken, &[]).err().unwrap();
    assert!(
        e.contains("custom variant file") && e.contains("board"),
        "{e}"
    );
    store.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn custom_game_storage_on_sqlite() {
    let (dir, url) = temp_db("custom-store");
    store_round_trip(&url).await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn custom_game_storage_on_postgres() {
    if let Some(url) = postgres_url("custom_game_storage_on_postgres") {
        store_round_trip(&url).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn custom_games_are_limited_per_caller_and_in_all() {
    let (dir, url) = temp_db("custom-limits");
    let config = Config {
        ai_workers: 1,
        max_custom_games: 3,
        custom_games_per_hour: 2,
        ..Config::default()
    };
    let app = App::open_with(&url, config.clone()).await.unwrap();
    let new = json!({"variant": "tiny", "variant_text": TINY, "white": "human", "black": "human"});
    let mut ids = vec![];
    for _ in 0..2 {
        let (s, v) = post(&app, "/api/games", new.clone()).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        ids.push(v);
    }
    // The third from the same caller in the hour: refused, nothing stored.
    let listed = get(&app, "/api/games").await.as_array().unwrap().len();
    let (s, v) = post(&app, "/api/games", new.clone()).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("in the last hour"),
        "{v}"
    );
    assert_eq!(
        get(&app, "/api/games").await.as_array().unwrap().len(),
        listed
    );
    // Built-in variants are not limited this way.
    let (s, _) = post(
        &app,
        "/api/games",
        json!({"variant": "chess", "white": "human", "black": "human"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    app.store.close().await;
    drop(app);

    // In all: a restart forgets the hour (it is kept in memory) but not the games in
    // progress, counted in storage: 2 running, the limit 3.
    let app = App::open_with(&url, config).await.unwrap();
    let (s, v) = post(&app, "/api/games", new.clone()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = post(&app, "/api/games", new.clone()).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("at most 3 games with custom variants"),
        "{v}"
    );
    // One ends (resigned): a place is free again, but this caller has used its hour.
    let first = &ids[0];
    let (s, _) = post(
        &app,
        &format!("/api/games/{}/resign", first["id"].as_str().unwrap()),
        json!({"token": first["tokens"]["white"]}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = post(&app, "/api/games", new.clone()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = post(&app, "/api/games", new).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn piece_diagrams() {
    let (dir, url) = temp_db("custom-diagram");
    let app = App::open(&url).await.unwrap();
    let sorted = |v: &Value| {
        let mut s = strs(v);
        s.sort();
        s
    };
    // A Knight from d4 on an empty board: 8 squares, all of them captures too.
    let d = get(&app, "/api/variants/chess/diagram?piece=N&square=d4").await;
    assert_eq!(
        sorted(&d["empty"]["moves"]),
        ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"]
    );
    assert_eq!(
        sorted(&d["empty"]["captures"]),
        sorted(&d["empty"]["moves"])
    );
    // On the start board from d4: the Black Pawns it attacks are captures, e2 and c2 (own
    // Pawns) are not destinations.
    assert_eq!(sorted(&d["board"]["captures"]), Vec::<String>::new());
    assert_eq!(
        sorted(&d["board"]["moves"]),
        ["b3", "b5", "c6", "e6", "f3", "f5"]
    );
    let d = get(&app, "/api/variants/chess/diagram?piece=N&square=d6").await;
    assert_eq!(sorted(&d["board"]["captures"]), ["b7", "c8", "e8", "f7"]);
    // A White Pawn moves forward and captures diagonally; a Black one the other way.
    let d = get(&app, "/api/variants/chess/diagram?piece=P&square=e4").await;
    assert_eq!(
        (
            sorted(&d["empty"]["moves"]),
            sorted(&d["empty"]["captures"])
        ),
        (
            vec!["e5".to_string()],
            vec!["d5".to_string(), "f5".to_string()]
        )
    );
    let d = get(
        &app,
        "/api/variants/chess/diagram?piece=P&square=e4&side=black",
    )
    .await;
    assert_eq!(sorted(&d["empty"]["captures"]), ["d3", "f3"]);
    // A rider stops at the first unit.
    let d = get(&app, "/api/variants/chess/diagram?piece=R&square=a3").await;
    assert_eq!(sorted(&d["board"]["captures"]), ["a7"]);
    assert_eq!(strs(&d["board"]["moves"]).len(), 3 + 7);

    // Leaders: a Chieftain activates every kind within 3 squares.
    let c = get(
        &app,
        "/api/variants/mini-chieftain/diagram?piece=C&square=d4",
    )
    .await;
    let info = &c["leader_info"];
    assert_eq!(info["model"], "range");
    assert_eq!(info["range"], 3);
    assert_eq!(strs(&info["activates"]), ["C", "H", "S", "N", "M"]);
    assert_eq!(strs(&info["reach_empty"]).len(), 7 * 7);
    // The bent general from d4: 24 squares within two king steps.
    assert_eq!(strs(&c["empty"]["moves"]).len(), 24);
    // Chesimal Fusion: the Prince's two modes with what they activate and how Pawns move.
    let p = get(
        &app,
        "/api/variants/chesimal-fusion-1/diagram?piece=C&square=b2",
    )
    .await;
    let modes = p["leader_info"]["modes"].as_array().unwrap();
    let summary: Vec<(String, Vec<String>, String)> = modes
        .iter()
        .map(|m| {
            (
                m["mode"].as_str().unwrap().into(),
                strs(&m["activates"]),
                m["remap"][0]["moves"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                "ortho".to_string(),
                vec!["K".into(), "C".into(), "W".into(), "P".into()],
                "W".to_string()
            ),
            (
                "dia".to_string(),
                vec!["K".into(), "C".into(), "E".into(), "P".into()],
                "F".to_string()
            ),
        ]
    );
    assert!(
        p["board"]["real"].as_bool().unwrap(),
        "a Prince stands on b2"
    );
    // At the turn start it may lead, in either mode (the rules' legal lead steps).
    assert_eq!(
        strs(&p["board"]["lead_now"]),
        ["lead:b2:ortho", "lead:b2:dia"]
    );
    // The linked units of the Prince on b2 in the start position come from the board.
    assert!(strs(&p["leader_info"]["reach_board"]).len() > 3);
    // A Pawn has no move of its own; led, it moves as the leader's mode says.
    let pawn = get(
        &app,
        "/api/variants/chesimal-fusion-1/diagram?piece=P&square=h6",
    )
    .await;
    assert_eq!(strs(&pawn["empty"]["moves"]).len(), 0);
    let led: Vec<(String, String, usize)> = pawn["as_activated"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["leader"].as_str().unwrap().into(),
                a["mode"].as_str().unwrap().into(),
                strs(&a["empty"]["moves"]).len(),
            )
        })
        .collect();
    assert_eq!(
        led,
        [
            ("K".into(), "".into(), 8),
            ("C".into(), "ortho".into(), 4),
            ("C".into(), "dia".into(), 4)
        ]
    );
    // A chesimal's Chief: its chain.
    let ch = get(&app, "/api/variants/chesimals-1/diagram?piece=C&square=b2").await;
    assert_eq!(ch["leader_info"]["model"], "chain");
    assert_eq!(
        sorted(&ch["leader_info"]["reach_board"]),
        ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"]
    );

    // Chessma 84: the diagram carries the game view's board (84 squares, the edge labels)
    // and its squares come from the rules' moves on the two boards, in Chessma notation: a
    // Knight on b1 leaps to the corner z0 (board A), never to d1' (board B alone).
    let cm = get(&app, "/api/variants/chessma-84/diagram?piece=N&square=b1").await;
    let info = get(&app, "/api/variants/chessma-84").await;
    for key in ["files", "ranks", "file_labels", "rank_labels", "squares"] {
        assert_eq!(
            cm[key], info["start"][key],
            "{key}: as the game view has it"
        );
    }
    assert_eq!(cm["squares"].as_array().unwrap().len(), 84);
    assert_eq!(strs(&cm["rank_labels"])[1], "1'");
    assert_eq!(sorted(&cm["empty"]["moves"]), ["a3", "c3", "d2", "z0"]);
    assert_eq!(sorted(&cm["board"]["moves"]), ["a3", "c3", "z0"]);
    // A Queen on d4 reaches the primed squares through the twin rows (34 in all).
    let q = get(&app, "/api/variants/chessma-84/diagram?piece=Q&square=d4").await;
    let moves = strs(&q["empty"]["moves"]);
    let mut primed: Vec<String> = moves
        .iter()
        .filter(|s| s.ends_with('\''))
        .cloned()
        .collect();
    primed.sort();
    assert_eq!(moves.len(), 34);
    assert_eq!(primed, ["a1'", "d1'", "d8'", "g1'", "h8'"]);
    // Other variants carry their layout too (no labels, every square).
    assert_eq!(d["squares"].as_array().unwrap().len(), 64);

    // Bad requests: JSON errors.
    for (uri, status, words) in [
        (
            "/api/variants/chess/diagram?piece=Z",
            StatusCode::BAD_REQUEST,
            "not a piece letter",
        ),
        (
            "/api/variants/chess/diagram?piece=N&square=z9",
            StatusCode::BAD_REQUEST,
            "not a square",
        ),
        (
            "/api/variants/chess/diagram?piece=N&side=red",
            StatusCode::BAD_REQUEST,
            "white or black",
        ),
        (
            "/api/variants/chess/diagram?colour=red",
            StatusCode::BAD_REQUEST,
            "unknown field",
        ),
        (
            "/api/variants/nope/diagram?piece=N",
            StatusCode::NOT_FOUND,
            "unknown variant",
        ),
        (
            "/api/games/nope/diagram?piece=N",
            StatusCode::NOT_FOUND,
            "no game",
        ),
    ] {
        let (s, v) = call(&app, "GET", uri, Body::empty()).await;
        assert_eq!(s, status, "{uri}: {v}");
        assert!(v["error"].as_str().unwrap().contains(words), "{uri}: {v}");
    }

    // A custom variant's diagram, from its text.
    let (s, t) = post(
        &app,
        "/api/variants/diagram",
        json!({"text": TINY, "piece": "N", "square": "a1"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{t}");
    assert_eq!(sorted(&t["empty"]["moves"]), ["b3", "c2"]);
    let (s, t) = post(
        &app,
        "/api/variants/diagram",
        json!({"text": "[x]\n", "piece": "N"}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{t}");

    // Every unit of the side to move in every built-in start position (FIDE chess aside: its
    // own core adds check): the diagram on the board is where the rules say the unit goes.
    for v in builtin_variants().iter().filter(|v| !v.fide) {
        let start = v.start();
        let side = start.side_to_move();
        for u in cohort_rules::all_units(&start).filter(|u| u.side == side) {
            let sq = v.geometry.square_name(u.square);
            let letter = v.pieces[u.kind as usize].letter;
            let d = get(
                &app,
                &format!(
                    "/api/variants/{}/diagram?piece={letter}&square={sq}&side={}",
                    v.id,
                    if side == Side::White {
                        "white"
                    } else {
                        "black"
                    }
                ),
            )
            .await;
            let mut shown = strs(&d["board"]["moves"]);
            shown.extend(strs(&d["board"]["captures"]));
            shown.sort();
            let mut rules: Vec<String> = start
                .destinations(u.square)
                .iter()
                .map(|s| v.geometry.square_name(s))
                .collect();
            rules.sort();
            assert_eq!(shown, rules, "{} {letter} on {sq}", v.id);
            assert!(d["board"]["real"].as_bool().unwrap());
        }
    }

    // A game's diagram: its variant (a custom one here) and its board now.
    let (_, g) = post(
        &app,
        "/api/games",
        json!({"variant": "tiny", "variant_text": TINY, "white": "human", "black": "human"}),
    )
    .await;
    let gid = g["id"].as_str().unwrap();
    let tok = g["tokens"]["white"].as_str().unwrap();
    post(
        &app,
        &format!("/api/games/{gid}/step"),
        json!({"token": tok, "step": "d1-d2"}),
    )
    .await;
    let d = get(&app, &format!("/api/games/{gid}/diagram?piece=M&square=d2")).await;
    assert_eq!(d["variant"], "tiny");
    assert_eq!(
        d["board"]["position"],
        get(&app, &format!("/api/games/{gid}")).await["position"]
    );
    assert!(d["board"]["real"].as_bool().unwrap());
    // The Man moved this turn: by the rules it may not move again, though its moves exist.
    assert_eq!(strs(&d["board"]["legal_now"]).len(), 0);
    assert_eq!(strs(&d["board"]["moves"]).len(), 6);
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

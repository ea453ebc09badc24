//! Every event visible: the server reports, step by step, which units each step took off the
//! board and from where (captures on the destination and elsewhere, Lifeform's regulations at
//! the turn's end), and before a turn ends, what ending it now would remove.

use axum::http::StatusCode;
use cohort_server::App;
use serde_json::{json, Value};

use crate::common;
use common::*;

/// The removal lists as sorted (square, letter, side) triples.
fn units(list: &Value) -> Vec<(String, String, String)> {
    let mut out: Vec<_> = list
        .as_array()
        .unwrap_or_else(|| panic!("a list of removed units: {list}"))
        .iter()
        .map(|u| {
            (
                u["square"].as_str().unwrap().to_string(),
                u["letter"].as_str().unwrap().to_string(),
                u["side"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

fn triple(sq: &str, letter: &str, side: &str) -> (String, String, String) {
    (sq.into(), letter.into(), side.into())
}

async fn new_game(app: &std::sync::Arc<App>, variant: &str, position: &str) -> (String, Value) {
    let (s, created) = post(
        app,
        "/api/games",
        json!({"variant": variant, "white": "human", "black": "human", "position": position}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{created}");
    (
        created["id"].as_str().unwrap().to_string(),
        created["tokens"].clone(),
    )
}

async fn play(app: &std::sync::Arc<App>, id: &str, token: &Value, step: &str) -> Value {
    let (s, v) = post(
        app,
        &format!("/api/games/{id}/step"),
        json!({"token": token, "step": step}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{step}: {v}");
    v
}

#[tokio::test(flavor = "multi_thread")]
async fn lifeform_regulations_are_reported_before_and_after_the_end() {
    let (dir, url) = temp_db("events-lifeform");
    let app = App::open(&url).await.unwrap();
    // White: Head b2, Torso c1, Limb d2 (next to the Torso), Foot e3 (linked by the Limb).
    // The Torso stepping to b1 leaves the Limb unlinked, and with it the Foot.
    let (id, tokens) = new_game(&app, "lifeform", "3qk3/8/8/8/8/4N3/1K1P4/2Q5 w").await;
    let v = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(v["end_preview"], Value::Null, "no end before the main move");
    assert_eq!(v["turn_removed"], json!([]));

    let v = play(&app, &id, &tokens["white"], "c1-b1").await;
    assert_eq!(
        v["turn_removed"],
        json!([[]]),
        "a main move without capture"
    );
    assert_eq!(
        units(&v["end_preview"]["removed"]),
        vec![triple("d2", "P", "white"), triple("e3", "N", "white")],
        "{}",
        v["end_preview"]
    );
    assert_eq!(v["end_preview"]["result"], Value::Null);
    // The preview is played on a copy: the board still has both units.
    for sq in ["d2", "e3"] {
        assert!(v["units"]
            .as_array()
            .unwrap()
            .iter()
            .any(|u| u["square"] == sq));
    }

    // The Limb follows to c1, next to the Torso: only the Foot would go now.
    let v = play(&app, &id, &tokens["white"], "d2-c1").await;
    assert_eq!(
        units(&v["end_preview"]["removed"]),
        vec![triple("e3", "N", "white")]
    );
    // Undo brings the first preview back.
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/undo"),
        json!({"token": tokens["white"]}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(units(&v["end_preview"]["removed"]).len(), 2);

    let v = play(&app, &id, &tokens["white"], "end").await;
    let turn = &v["turns"][0];
    assert_eq!(turn["steps"], json!(["c1-b1", "end"]));
    assert_eq!(units(&turn["removed"][0]), vec![]);
    assert_eq!(
        units(&turn["removed"][1]),
        vec![triple("d2", "P", "white"), triple("e3", "N", "white")],
        "the regulations' removals belong to `end`"
    );
    let mut lost: Vec<&str> = v["captured"]["white"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    lost.sort();
    assert_eq!(lost, ["N", "P"]);
    for sq in ["d2", "e3"] {
        assert!(!v["units"]
            .as_array()
            .unwrap()
            .iter()
            .any(|u| u["square"] == sq));
    }
    // The same report in a replayed view and after a restart (rebuilt from the stored steps).
    let past = get(&app, &format!("/api/games/{id}?at=2")).await;
    assert_eq!(past["turns"][0]["removed"], turn["removed"]);
    drop(app);
    let app = App::open(&url).await.unwrap();
    let again = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(again["turns"][0]["removed"], turn["removed"]);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn captures_on_and_off_the_destination_are_reported() {
    let (dir, url) = temp_db("events-chess");
    let app = App::open(&url).await.unwrap();
    let (id, tokens) = new_game(
        &app,
        "chess",
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
    )
    .await;
    // An ordinary capture: the pawn on d5, taken where the capturer lands.
    let v = play(&app, &id, &tokens["white"], "e4xd5").await;
    assert_eq!(
        units(&v["turns"][0]["removed"][0]),
        vec![triple("d5", "p", "black")]
    );
    assert_eq!(v["end_preview"], Value::Null, "a chess turn is one move");
    // A quiet move removes nothing.
    let v = play(&app, &id, &tokens["black"], "e7-e5").await;
    assert_eq!(units(&v["turns"][1]["removed"][0]), vec![]);
    // En passant: the pawn taken stands on e5, not on the destination e6.
    let v = play(&app, &id, &tokens["white"], "d5xe6").await;
    assert_eq!(
        v["turns"][2]["steps"],
        json!(["d5-e6"]),
        "written as a move"
    );
    assert_eq!(
        units(&v["turns"][2]["removed"][0]),
        vec![triple("e5", "p", "black")]
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_lifeform_capture_mid_turn_is_reported_on_its_step() {
    let (dir, url) = temp_db("events-hand");
    let app = App::open(&url).await.unwrap();
    // White's Hand on c1 takes the Black Foot on c5 by a rook slide of four.
    let (id, tokens) = new_game(&app, "lifeform", "3qk3/8/8/2n5/8/8/1P1K4/2BQ4 w").await;
    let v = get(&app, &format!("/api/games/{id}")).await;
    let legal: Vec<&str> = v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["text"].as_str().unwrap())
        .collect();
    assert!(legal.contains(&"c1xc5"), "{legal:?}");
    let v = play(&app, &id, &tokens["white"], "c1xc5").await;
    assert_eq!(
        units(&v["turn_removed"][0]),
        vec![triple("c5", "n", "black")]
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn rules_of_a_variant_from_its_data() {
    let (dir, url) = temp_db("events-rules");
    let app = App::open(&url).await.unwrap();
    let v = get(&app, "/api/variants/mini-chieftain").await;
    assert_eq!(v["name"], "mini-Chieftain");
    assert!(v["reconstructed"]
        .as_str()
        .unwrap()
        .contains("reconstructed"));
    let pieces = v["pieces"].as_array().unwrap();
    let chieftain = pieces.iter().find(|p| p["letter"] == "C").unwrap();
    assert_eq!(chieftain["name"], "Chieftain");
    assert_eq!(chieftain["moves"], "K^");
    assert_eq!(chieftain["leader"], true);
    assert!(chieftain["words"]
        .as_str()
        .unwrap()
        .contains("bent two-step"));
    assert!(
        v["command_rules"][0]
            .as_str()
            .unwrap()
            .contains("within 3 squares"),
        "{}",
        v["command_rules"]
    );
    assert_eq!(v["start"]["units"].as_array().unwrap().len(), 32);
    let life = get(&app, "/api/variants/lifeform").await;
    let hand = life["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["letter"] == "B")
        .unwrap()
        .clone();
    assert_eq!(hand["role"], "hand");
    assert!(hand["words"].as_str().unwrap().contains(
        "knight's leap (two squares one way, one the other); or up to 4 squares orthogonally"
    ));
    assert_eq!(life["reconstructed"], "");
    let (s, e) = call(&app, "GET", "/api/variants/nope", axum::body::Body::empty()).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(e["error"]
        .as_str()
        .unwrap()
        .contains("unknown variant 'nope'"));
    let (s, _) = call(&app, "GET", "/rules/nope", axum::body::Body::empty()).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let _ = std::fs::remove_dir_all(dir);
}

/// The rules page of Chessma 84 states the game end of RULES-DETAILS.md 7.5 and nothing
/// else, and how each Ultima piece captures (or that it never does), from the rules crate.
#[tokio::test(flavor = "multi_thread")]
async fn rules_of_chessma_84_from_the_rules_crate() {
    let (dir, url) = temp_db("events-chessma-rules");
    let app = App::open(&url).await.unwrap();
    let v = get(&app, "/api/variants/chessma-84").await;
    let victory = v["victory"].as_str().unwrap().to_string();
    let draws: Vec<String> = v["draws"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap().to_string())
        .collect();
    let end = format!("{victory}\n{}", draws.join("\n"));
    for statement in [
        "Checkmate wins",
        "on both boards",
        "Stalemate with the stalemated King on a corner square (z0, z9, i0 or i9) is a win for the stalemating player",
        "Stalemate with the King anywhere but on a corner is a draw",
        "fifty-move rule applies as in FIDE chess",
        "Threefold repetition",
    ] {
        assert!(end.contains(statement), "'{statement}' missing from: {end}");
    }
    // Nothing but 7.5: neither insufficient material nor a lost game for want of a turn.
    let page = v.to_string().to_lowercase();
    assert!(!page.contains("insufficient material"), "{page}");
    assert!(!page.contains("no legal turn"), "{page}");
    assert!(!page.contains("never capturing"), "{page}");
    let pieces = v["pieces"].as_array().unwrap();
    let words = |letter: &str| {
        pieces
            .iter()
            .find(|p| p["letter"] == letter)
            .unwrap_or_else(|| panic!("no piece {letter}"))["words"]
            .as_str()
            .unwrap()
            .to_string()
    };
    for (letter, capture) in [
        ("I", "Never captures: it freezes every adjacent enemy piece"),
        (
            "U",
            "Never captures: moving along an empty line onto an enemy piece, it pushes",
        ),
        ("L", "Captures by leaping over enemy pieces"),
        (
            "W",
            "Captures the adjacent enemy piece it moves directly away from",
        ),
        ("C", "Captures together with its King"),
        ("E", "Captures once per game, Go-style"),
        ("S", "Never captures: it exchanges places with any piece"),
        (
            "X",
            "Captures each enemy piece only by that piece's own way",
        ),
    ] {
        let w = words(letter);
        assert!(
            w.contains(capture),
            "{letter}: '{capture}' missing from: {w}"
        );
    }
    assert!(words("P").contains("promotes"), "{}", words("P"));
    assert_eq!(v["sections"][0]["title"], "Two boards", "{}", v["sections"]);
    // Other variants keep the rules made from their data, without sections.
    let chess = get(&app, "/api/variants/chess").await;
    assert!(chess["victory"]
        .as_str()
        .unwrap()
        .contains("insufficient material"));
    assert_eq!(chess["sections"], json!([]));
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_creator_token_marks_the_creator_view() {
    let (dir, url) = temp_db("events-creator");
    let app = App::open(&url).await.unwrap();
    let (s, created) = post(
        &app,
        "/api/games",
        json!({"variant": "mini-chieftain", "white": "ai", "black": "ai", "ai": {"agent": "random", "time_ms": 50}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let id = created["id"].as_str().unwrap();
    let tok = created["creator_token"].as_str().unwrap();
    let v = get(&app, &format!("/api/games/{id}?token={tok}")).await;
    assert_eq!(v["creator"], true);
    assert_eq!(v["seat"], Value::Null);
    let v = get(&app, &format!("/api/games/{id}?token={}", "0".repeat(32))).await;
    assert_eq!(v.get("creator"), None);
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/stop"),
        json!({"token": tok}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["reason"], "agreement");
    let _ = std::fs::remove_dir_all(dir);
}

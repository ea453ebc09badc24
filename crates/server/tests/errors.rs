//! Typed errors through the API: every error body carries a stable `code`, an illegal step
//! also the rules' `reason` (`Illegal::code`), and docs/server.md lists every code.

use axum::http::StatusCode;
use cohort_rules::Rules;
use cohort_rules::{builtin, Game, Illegal, Position, Side};
use cohort_server::error::Code;
use cohort_server::App;
use serde_json::{json, Value};

use crate::common;
use common::*;

/// A step of a White unit, after `first`, that the rules refuse because the unit belongs to
/// another chesimal than the one the turn moves (found with the rules crate itself).
fn other_chesimal_step(first: &str) -> String {
    let v = builtin("chesimals-1").unwrap();
    let mut g = Game::new(v.start());
    g.play_text(first).unwrap();
    let pos: &Position = g.position();
    let geo = &v.geometry;
    let squares: Vec<_> = geo.squares.iter().collect();
    for u in cohort_rules::all_units(pos).filter(|u| u.alive && u.side == Side::White) {
        for &to in &squares {
            let text = format!("{}-{}", geo.square_name(u.square), geo.square_name(to));
            if let Err(e) = pos.parse_step(&text) {
                if matches!(e.illegal, Some(Illegal::OtherChesimal { .. })) {
                    return text;
                }
            }
        }
    }
    panic!("no step of another chesimal after {first}");
}

#[tokio::test(flavor = "multi_thread")]
async fn illegal_steps_carry_code_and_reason() {
    let (dir, url) = temp_db("typed-errors");
    let app = App::open(&url).await.unwrap();
    let (s, created) = post(
        &app,
        "/api/games",
        json!({"variant": "chesimals-1", "white": "human", "black": "human"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["tokens"]["white"].as_str().unwrap().to_string();
    let black = created["tokens"]["black"].as_str().unwrap().to_string();
    let step_uri = format!("/api/games/{id}/step");
    let view = get(&app, &format!("/api/games/{id}")).await;
    let first = view["legal"][0]["text"].as_str().unwrap().to_string();
    let (s, v) = post(&app, &step_uri, json!({"token": white, "step": first})).await;
    assert_eq!(s, StatusCode::OK, "{v}");

    // A unit of another chesimal, after the turn's first step.
    let other = other_chesimal_step(&first);
    let (s, v) = post(&app, &step_uri, json!({"token": white, "step": other})).await;
    assert!(s.is_client_error(), "{other}: {s} {v}");
    assert_eq!(v["code"], "illegal_step", "{v}");
    assert_eq!(v["reason"], "other_chesimal", "{v}");
    assert!(v["error"].as_str().unwrap().contains("chesimal"), "{v}");

    // Other codes: not your turn, bad step text, a Black unit, unknown game, game over.
    let cases: Vec<(String, Value, StatusCode, &str, Option<&str>)> = vec![
        (
            step_uri.clone(),
            json!({"token": black, "step": "c7-c6"}),
            StatusCode::CONFLICT,
            "not_your_turn",
            None,
        ),
        (
            step_uri.clone(),
            json!({"token": white, "step": "hello"}),
            StatusCode::BAD_REQUEST,
            "bad_step",
            None,
        ),
        (
            step_uri.clone(),
            json!({"token": white, "step": "b11-b10"}),
            StatusCode::BAD_REQUEST,
            "illegal_step",
            Some("not_your_unit"),
        ),
        (
            step_uri.clone(),
            json!({"token": "0".repeat(32), "step": "end"}),
            StatusCode::FORBIDDEN,
            "forbidden",
            None,
        ),
        (
            "/api/games/nosuchgame/step".into(),
            json!({"token": white, "step": "end"}),
            StatusCode::NOT_FOUND,
            "not_found",
            None,
        ),
        (
            format!("/api/games/{id}/draw"),
            json!({"token": white, "action": "accept"}),
            StatusCode::CONFLICT,
            "no_draw_offer",
            None,
        ),
        (
            "/api/games".into(),
            json!({"variant": "nope", "white": "human", "black": "human"}),
            StatusCode::BAD_REQUEST,
            "unknown_variant",
            None,
        ),
    ];
    for (uri, body, status, code, reason) in cases {
        let (s, v) = post(&app, &uri, body.clone()).await;
        assert_eq!(s, status, "{uri} {body}: {v}");
        assert_eq!(v["code"], code, "{uri} {body}: {v}");
        match reason {
            Some(r) => assert_eq!(v["reason"], r, "{uri} {body}: {v}"),
            None => assert!(v.get("reason").is_none(), "{uri} {body}: {v}"),
        }
    }
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/resign"),
        json!({"token": white}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = post(&app, &step_uri, json!({"token": black, "step": "end"})).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::CONFLICT, Some("game_over")),
        "{v}"
    );
    app.store.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

/// docs/server.md lists every error code with its status, and every reason of an illegal step.
#[test]
fn every_code_is_documented() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/server.md"))
        .unwrap();
    for c in Code::ALL {
        let row = format!("| `{}` | {} |", c.as_str(), c.status().as_u16());
        assert!(doc.contains(&row), "docs/server.md lacks the row {row}");
    }
    for r in Illegal::all() {
        let row = format!("| `{}` |", r.code());
        assert!(doc.contains(&row), "docs/server.md lacks the reason {row}");
    }
    let mut codes: Vec<&str> = Illegal::all().iter().map(|r| r.code()).collect();
    codes.sort();
    codes.dedup();
    assert_eq!(
        codes.len(),
        Illegal::all().len(),
        "two reasons share a code"
    );
}

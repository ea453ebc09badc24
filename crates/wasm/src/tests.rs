//! The calls the JavaScript API makes, natively (the same code runs on wasm32).

use super::*;

#[test]
fn the_outside_families_load() {
    for id in ["ataxx", "breakthrough"] {
        let s = Session::new(id, None).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert!(s.perft(1) > 0, "{id}");
    }
    assert!(variants_json().contains("\"ataxx\""));
}

#[test]
fn bad_input_is_an_error_with_the_rules_message() {
    let e = Session::new("no-such-variant", None)
        .err()
        .expect("an error");
    assert!(e.contains("unknown variant 'no-such-variant'"), "{e}");
    let e = Session::new("chess", Some("not a position"))
        .err()
        .expect("an error");
    assert!(e.starts_with("position:"), "{e}");
    let e = Session::new("[bad]\nboard = 0x0\n", None)
        .err()
        .expect("an error");
    assert!(!e.is_empty());
    let mut s = Session::new("chess", None).unwrap();
    let e = s.make(StepArg::Text("e2-e5")).err().expect("illegal");
    assert!(e.contains("e2"), "{e}");
    assert!(s.make(StepArg::Index(10_000)).is_err());
    assert!(s.set_position("junk").is_err());
    assert_eq!(
        s.position(),
        Session::new("chess", None).unwrap().position()
    );
}

#[test]
fn steps_make_and_unmake_across_turns() {
    let mut s = Session::new("chess", None).unwrap();
    let start = s.position();
    let steps: Value = serde_json::from_str(&s.legal_steps_json()).unwrap();
    assert_eq!(steps.as_array().unwrap().len(), 20);
    let first = &steps[0];
    for field in ["index", "text", "from", "to", "kind"] {
        assert!(first.get(field).is_some(), "{field} in {first}");
    }
    let fx: Value = serde_json::from_str(&s.make(StepArg::Text("e2-e4")).unwrap()).unwrap();
    assert_eq!(fx["effects"][0]["type"], "moved");
    assert_eq!(fx["sideToMove"], "black");
    s.make(StepArg::Text("d7-d5")).unwrap();
    let fx: Value = serde_json::from_str(
        &s.make(StepArg::Text("e4xd5"))
            .unwrap_or_else(|_| s.make(StepArg::Text("e4-d5")).unwrap()),
    )
    .unwrap();
    assert!(
        fx["effects"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "removed"),
        "{fx}"
    );
    assert!(s.unmake() && s.unmake() && s.unmake());
    assert!(!s.unmake());
    assert_eq!(s.position(), start);
    assert_eq!(s.outcome_json(), "null");
    let view: Value = serde_json::from_str(&s.view_json()).unwrap();
    assert_eq!(view["units"].as_array().unwrap().len(), 32);
    assert_eq!(view["movable"].as_array().unwrap().len(), 10);
}

#[test]
fn a_search_reports_its_depths_and_answers_a_legal_turn() {
    let mut s = Session::new("chieftain", None).unwrap();
    let mut depths = 0;
    let out = s
        .search(None, Some(20_000), &mut |msg| {
            let v: Value = serde_json::from_str(msg).unwrap();
            assert!(v["depth"].as_u64().unwrap() >= 1);
            depths += 1;
            false
        })
        .unwrap();
    assert!(depths > 0);
    let out: Value = serde_json::from_str(&out).unwrap();
    let turn = out["turn"].as_array().unwrap();
    assert!(!turn.is_empty());
    for step in turn {
        s.make(StepArg::Text(step.as_str().unwrap())).unwrap();
    }
    assert_eq!(s.side_to_move(), "black");
    // Told to stop at its first report, it still answers a whole turn.
    let out = s.search(Some(10_000), None, &mut |_| true).unwrap();
    let out: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["stopped"], true);
    assert!(!out["turn"].as_array().unwrap().is_empty());
}

#[test]
fn the_view_carries_the_boards_layout_names_and_colours() {
    // Chessma 84: labelled edges, holes, two sheets; every square listed as the server's view.
    let s = Session::new("chessma-84", None).unwrap();
    let view: Value = serde_json::from_str(&s.view_json()).unwrap();
    let v = cohort_rules::builtin("chessma-84").unwrap();
    let squares = view["squares"].as_array().unwrap();
    assert_eq!(squares.len(), v.geometry.squares.iter().count());
    assert!(squares
        .iter()
        .any(|q| !q["sheets"].as_array().unwrap().is_empty()));
    assert_eq!(
        view["file_labels"],
        serde_json::json!(v.geometry.file_labels)
    );
    assert_eq!(
        view["rank_labels"],
        serde_json::json!(v.geometry.rank_labels)
    );
    // Piece names by letter, and each unit's colour.
    let s = Session::new("chesimals-1", None).unwrap();
    let view: Value = serde_json::from_str(&s.view_json()).unwrap();
    assert!(view["pieces"].as_object().unwrap().len() > 1);
    for u in view["units"].as_array().unwrap() {
        assert!(u["colour"].as_str().unwrap().starts_with('#'), "{u}");
    }
}

#[test]
fn marks_are_the_servers_and_bad_points_are_an_error() {
    let points = r#"[
        {"at": 0, "side": "white", "score": 30, "best": ["e2-e4"], "played": ["e2-e4"]},
        {"at": 1, "side": "black", "score": 20, "best": ["e7-e5"], "played": ["f7-f6"]},
        {"at": 2, "side": "white", "score": 400, "best": ["d1-h5"], "played": ["a2-a3"]},
        {"at": 3, "side": "black", "score": -600, "best": ["d8-h4"], "played": ["d8-h4"]},
        {"at": 4, "side": null, "score": 0}
    ]"#;
    let out: Vec<Value> = serde_json::from_str(&marks_json(points).unwrap()).unwrap();
    assert_eq!(out[0]["mark"], Value::Null);
    assert_eq!(out[1]["mark"], "blunder");
    assert!(out[1]["loss"].as_f64().unwrap() > 0.3);
    assert_eq!(out[2]["mark"], "blunder");
    assert_eq!(out[3]["mark"], Value::Null);
    assert!(marks_json("nope").is_err());
    assert!(marks_json(r#"[{"score": "x"}]"#)
        .unwrap_err()
        .contains("points[0].score"));
}

#[test]
fn a_search_answers_its_turn_as_data_and_the_view_says_why_not() {
    let mut s = Session::new("chess", None).unwrap();
    let out: Value =
        serde_json::from_str(&s.search(None, Some(2000), &mut |_| false).unwrap()).unwrap();
    assert_eq!(out["side"], "white");
    assert_eq!(out["white_score"], out["score"]);
    assert_eq!(out["decisive"], false);
    assert_eq!(
        out["moves"].as_array().unwrap().len(),
        out["turn"].as_array().unwrap().len()
    );
    let v: Value = serde_json::from_str(&s.view_json()).unwrap();
    assert!(v["why_not"].is_object());
}

/// The view names the pieces giving check (`checkers`) while the game goes on, and shows no
/// check and no checker once it is over (a checkmate: the Queen's check ended the game).
#[test]
fn the_view_names_checkers_until_the_game_is_over() {
    let s = Session::new("chess", Some("4k3/8/8/8/1b6/8/8/4K2r w - - 0 1")).unwrap();
    let v: Value = serde_json::from_str(&s.view_json()).unwrap();
    assert_eq!(v["check"], serde_json::json!(["e1"]));
    let mut squares: Vec<&str> = v["checkers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["square"].as_str().unwrap())
        .collect();
    squares.sort();
    assert_eq!(squares, ["b4", "h1"], "{}", v["checkers"]);
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let s = Session::new("chess", Some(mated)).unwrap();
    let v: Value = serde_json::from_str(&s.view_json()).unwrap();
    assert!(!v["outcome"].is_null(), "{}", v["outcome"]);
    assert_eq!(
        (v["check"].clone(), v["checkers"].clone()),
        (serde_json::json!([]), serde_json::json!([]))
    );
}

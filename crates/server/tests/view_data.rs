//! The game view's data for the pages (docs/server.md, `squares` and `steps`): the board's
//! squares from the rules' geometry, holes and sheets included, whatever the position string
//! holds (a spent Encloser `E'`), and the legal steps with their kind, squares and what they
//! remove, so the pages parse no notation.

use serde_json::{json, Value};

use crate::common;
use common::*;

async fn game(app: &std::sync::Arc<cohort_server::App>, body: Value) -> (String, String, Value) {
    let (s, created) = post(app, "/api/games", body).await;
    assert!(s.is_success(), "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["tokens"]["white"].as_str().unwrap().to_string();
    let view = get(app, &format!("/api/games/{id}")).await;
    (id, white, view)
}

fn names(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|q| q["name"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn squares_and_steps_as_data() {
    let (dir, url) = temp_db("view-data");
    let app = cohort_server::App::open(&url).await.unwrap();

    // Chessma 84 with a spent Encloser on d4 and a Withdrawer that takes on both boards.
    let position = "1********1/*8*/*8*/*7k*/*8*/*8*/*1P1E'4*/*8*/*8*/*4K3*/*8*/1********1 w - - -";
    let (_, _, v) = game(
        &app,
        json!({"variant": "chessma-84", "white": "human", "black": "human", "position": position}),
    )
    .await;
    let squares = names(&v["squares"]);
    assert_eq!(squares.len(), 84, "{squares:?}");
    let row: Vec<&Value> = v["squares"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|q| q["rank"] == 5)
        .collect();
    let row_names: Vec<&str> = row.iter().map(|q| q["name"].as_str().unwrap()).collect();
    assert_eq!(row_names, ["a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4"]);
    for (i, q) in row.iter().enumerate() {
        assert_eq!(q["file"], i + 1, "{q}");
        assert_eq!(q["sheets"], json!(["A", "B"]), "{q}");
    }
    let twin = v["squares"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["name"] == "e1'")
        .unwrap();
    assert_eq!(
        *twin,
        json!({"name": "e1'", "file": 5, "rank": 1, "sheets": ["B"]})
    );
    assert!(!squares.contains(&"z4".to_string()) && !squares.contains(&"a0".to_string()));
    // Every step: text, kind, squares; `legal` is `steps` without `end`.
    let steps = v["steps"].as_array().unwrap();
    let legal = v["legal"].as_array().unwrap();
    let unit_steps: Vec<&Value> = steps.iter().filter(|s| s["kind"] != "end").collect();
    assert_eq!(unit_steps.len(), legal.len());
    for (s, l) in unit_steps.iter().zip(legal) {
        assert_eq!(s["text"], l["text"]);
        assert_eq!(s["from"], l["from"]);
        assert_eq!(s["to"], l["to"]);
        assert_eq!(s["removes"], l["captures"], "Chessma: removes = captures");
        assert!(s["removes"].is_array());
    }

    // Chess: promotions are kind `promote` with their letter; a capture removes its square.
    let (id, white, v) = game(
        &app,
        json!({"variant": "chess", "white": "human", "black": "human",
               "position": "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1"}),
    )
    .await;
    let promos: Vec<&Value> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "promote")
        .collect();
    assert_eq!(promos.len(), 8, "e8 and xd8, four kinds each: {promos:?}");
    let q = promos
        .iter()
        .find(|s| s["to"] == "d8" && s["promote"] == "Q")
        .unwrap();
    assert_eq!(q["from"], "e7");
    assert_eq!(q["removes"], json!(["d8"]));
    assert_eq!(q["drop"], Value::Null);
    // The older `legal` list says what each step takes in every game, as `removes` does.
    let exd8 = v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["text"] == q["text"])
        .unwrap();
    assert_eq!(exd8["captures"], json!(["d8"]));
    let text = q["text"].as_str().unwrap().to_string();
    let (s, after) = post(
        &app,
        &format!("/api/games/{id}/step"),
        json!({"token": white, "step": text}),
    )
    .await;
    assert!(s.is_success(), "{after}");
    // The played step as data, in its turn (`moves`, parallel to `steps`).
    let mut played: Vec<Value> = vec![];
    for t in after["turns"].as_array().unwrap() {
        played.extend(t["moves"].as_array().unwrap().iter().cloned());
    }
    played.extend(after["turn_moves"].as_array().unwrap().iter().cloned());
    assert_eq!(played[0]["from"], "e7");
    assert_eq!(played[0]["to"], "d8");
    assert_eq!(played[0]["kind"], "promote");
    assert_eq!(played[0]["promote"], "Q");

    // The lead model: lead steps with their modes; drops with their letter.
    let (_, _, v) = game(
        &app,
        json!({"variant": "chesimal-fusion-1", "white": "human", "black": "human"}),
    )
    .await;
    let leads: Vec<&Value> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "lead")
        .collect();
    assert!(!leads.is_empty());
    for s in &leads {
        assert_eq!(s["from"], s["to"]);
        let text = s["text"].as_str().unwrap();
        match s["lead_mode"].as_str() {
            Some(mode) => assert!(text.ends_with(&format!(":{mode}")), "{s}"),
            None => assert_eq!(text.matches(':').count(), 1, "{s}"),
        }
    }
    let (_, _, v) = game(
        &app,
        json!({"variant": "lifeform-free", "white": "human", "black": "human"}),
    )
    .await;
    let drops: Vec<&Value> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "drop")
        .collect();
    assert!(!drops.is_empty());
    for s in drops {
        assert_eq!(s["from"], Value::Null);
        let text = s["text"].as_str().unwrap();
        assert_eq!(
            text,
            format!(
                "{}@{}",
                s["drop"].as_str().unwrap(),
                s["to"].as_str().unwrap()
            )
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The flags and sentences the pages use instead of the model's name come from the rules:
/// a one-step turn, whether the command overlay applies, the link rule (friendly units or
/// the chesimal, as the variant says) and the overlay's legend.
#[tokio::test(flavor = "multi_thread")]
async fn command_flags_and_link_rule_from_the_rules() {
    let (dir, url) = temp_db("view-command");
    let app = cohort_server::App::open(&url).await.unwrap();
    let flags = |v: &Value| {
        (
            v["one_step_turns"].as_bool().unwrap(),
            v["shows_command"].as_bool().unwrap(),
        )
    };
    let text = |v: &Value, key: &str| v[key].as_str().unwrap_or("").to_string();
    for (variant, one_step, shows) in [
        ("chess", true, false),
        ("chessma-84", true, false),
        ("lifeform", false, false),
        ("chesimals-1", false, true),
        ("mini-chieftain", false, true),
        ("chesimal-fusion-1", false, true),
    ] {
        let (_, _, v) = game(
            &app,
            json!({"variant": variant, "white": "human", "black": "human"}),
        )
        .await;
        assert_eq!(flags(&v), (one_step, shows), "{variant}");
        assert!(
            v["command"].is_string(),
            "{variant}: the model's name is still sent"
        );
        assert_eq!(v["link_rule"].is_string(), shows, "{variant}");
        assert_eq!(v["command_legend"].is_string(), shows, "{variant}");
    }
    let (_, _, chain) = game(
        &app,
        json!({"variant": "chesimals-1", "white": "human", "black": "human"}),
    )
    .await;
    assert!(text(&chain, "link_rule").contains("own chesimal"));
    let (_, _, fusion) = game(
        &app,
        json!({"variant": "chesimal-fusion-1", "white": "human", "black": "human"}),
    )
    .await;
    assert!(text(&fusion, "link_rule").contains("friendly"));
    let (_, _, range) = game(
        &app,
        json!({"variant": "mini-chieftain", "white": "human", "black": "human"}),
    )
    .await;
    assert!(text(&range, "command_legend").contains("within 3"));
    // A chain variant of one's own with links through any friendly unit.
    let file = "[cf]\nbase = chesimals-1\nname = CF\nlinks = friendly\n";
    let (s, created) = post(
        &app,
        "/api/games",
        json!({"variant": "cf", "variant_text": file, "white": "human", "black": "human"}),
    )
    .await;
    assert!(s.is_success(), "{created}");
    let id = created["id"].as_str().unwrap();
    let v = get(&app, &format!("/api/games/{id}")).await;
    let rule = text(&v, "link_rule");
    assert!(
        rule.contains("friendly") && !rule.contains("own chesimal"),
        "{rule}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Chessma 84's captures off the destination, in the game view's `removes`: for each of the
/// inventor's worked examples (../shared/testdata/chessma-examples.tsv: a position, a step,
/// and the position after it, from two implementations independent of this one), the
/// view's step names as many squares as enemy units the step takes off, each holding an
/// enemy unit before it. A family that reported no removals fails here.
#[tokio::test(flavor = "multi_thread")]
async fn chessma_removals_match_the_worked_examples() {
    use cohort_rules::{all_units, Position, Rules};
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/testdata/chessma-examples.tsv");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (the shared test data)", path.display()));
    let (dir, url) = temp_db("view-chessma-removes");
    let app = cohort_server::App::open(&url).await.unwrap();
    let v = cohort_rules::builtin("chessma-84").unwrap();
    let (mut checked, mut captures) = (0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (name, before, step, after) = (f[0], f[1], f[2], f[3]);
        let (_, _, view) = game(
            &app,
            json!({"variant": "chessma-84", "white": "human", "black": "human", "position": before}),
        )
        .await;
        let listed = view["steps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["text"] == step)
            .unwrap_or_else(|| panic!("{name}: {step} not among the view's steps"));
        let removes = names_of(&listed["removes"]);
        let b = Position::parse(&v, before).unwrap();
        let a = Position::parse(&v, after).unwrap();
        let enemy = b.side_to_move().other();
        let count = |p: &Position| all_units(p).filter(|u| u.side == enemy).count();
        assert_eq!(
            removes.len(),
            count(&b) - count(&a),
            "{name}: {step} removes {removes:?}"
        );
        for sq in &removes {
            let at = v.geometry.parse_square(sq).unwrap();
            assert_eq!(b.unit_at(at).map(|u| u.side), Some(enemy), "{name}: {sq}");
        }
        checked += 1;
        captures += removes.len();
    }
    assert!(
        checked >= 10 && captures >= 10,
        "{checked} examples, {captures} captures"
    );
    let _ = std::fs::remove_dir_all(dir);
}

fn names_of(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|q| q.as_str().unwrap().to_string())
        .collect()
}

/// The view names the units that give check (`checkers`, from the rules' `Explain::checkers`)
/// beside the royal squares in check (`check`, unchanged): Chessma 84's Rook on board B's
/// row 8' and Long Leaper together, FIDE chess's Rook and Bishop; empty when not in check.
#[tokio::test(flavor = "multi_thread")]
async fn checkers_name_the_pieces_giving_check() {
    let (dir, url) = temp_db("view-checkers");
    let app = cohort_server::App::open(&url).await.unwrap();
    // Chessma 84: White King e4; Black King a8, Rook e8' (down the e-file of board B) and
    // Long Leaper b7 (along the diagonal b7-c6-d5 over the King onto f3).
    let position = "1********1/*4r3*/*k7*/*1l6*/*8*/*8*/*4K3*/*8*/*8*/*8*/*8*/1********1 w - - -";
    let (_, _, v) = game(
        &app,
        json!({"variant": "chessma-84", "white": "human", "black": "human", "position": position}),
    )
    .await;
    assert_eq!(v["check"], json!(["e4"]), "{}", v["position"]);
    let mut checkers = v["checkers"].as_array().unwrap().clone();
    checkers.sort_by_key(|c| c["square"].as_str().unwrap().to_string());
    assert_eq!(
        Value::Array(checkers),
        json!([
            {"square": "b7", "piece": "Long Leaper", "letter": "L", "how": "can take the King by leaping over it"},
            {"square": "e8'", "piece": "Rook", "letter": "R", "how": "attacks the King"},
        ])
    );
    // FIDE chess: a Rook on h1 and a Bishop on b4 check e1.
    let (_, _, v) = game(
        &app,
        json!({"variant": "chess", "white": "human", "black": "human", "position": "4k3/8/8/8/1b6/8/8/4K2r w - - 0 1"}),
    )
    .await;
    assert_eq!(v["check"], json!(["e1"]));
    let mut squares: Vec<&str> = v["checkers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["square"].as_str().unwrap())
        .collect();
    squares.sort();
    assert_eq!(squares, ["b4", "h1"], "{}", v["checkers"]);
    // Not in check: an empty list.
    let (_, _, v) = game(
        &app,
        json!({"variant": "chessma-84", "white": "human", "black": "human"}),
    )
    .await;
    assert_eq!(
        (v["check"].clone(), v["checkers"].clone()),
        (json!([]), json!([]))
    );
    let _ = std::fs::remove_dir_all(dir);
}

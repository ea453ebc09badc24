//! `cohort analyze` prints the turn the engine plays: on won positions of the tactical suite
//! (a win inside the turn), its `turn:` is the turn `cohort engine` answers to `go` with the
//! same node budget, and that turn wins.

use cohort_rules::Rules;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use cohort_rules::{builtin, Game, Outcome, Position};

const BIN: &str = env!("CARGO_BIN_EXE_cohort");
const NODES: &str = "20000";

/// Two won positions of each variant in the suite, and the one from issue 28 (mini-chieftain:
/// `g1-e3` then `b6xa8` takes the last Chieftain; analyze used to print `g1-e3 end`).
fn positions() -> Vec<(String, String)> {
    let suite = include_str!("../../engine/tests/tactics.tsv");
    let mut out: Vec<(String, String)> = vec![];
    for line in suite
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        if f[1] == "win" && out.iter().filter(|(v, _)| v == f[0]).count() < 2 {
            out.push((f[0].to_string(), f[3].to_string()));
        }
    }
    out.push(("mini-chieftain".into(), "c6m/8/1N6/8/8/8/8/6CC w".into()));
    out
}

fn analyze_turn(variant: &str, position: &str) -> Vec<String> {
    let out = Command::new(BIN)
        .args(["analyze", "--variant", variant, "--position", position])
        .args(["--time", "600000", "--nodes", NODES])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{variant} {position}: {text}");
    let turn = text
        .lines()
        .find_map(|l| l.strip_prefix("turn: "))
        .unwrap_or_else(|| panic!("no turn line: {text}"));
    turn.split_whitespace().map(String::from).collect()
}

/// Whether `turn` (without its `end`, as records write it) wins at once from `position`.
fn wins(variant: &str, position: &str, turn: &[String]) -> bool {
    let v = builtin(variant).unwrap();
    let mut game = Game::new(Position::parse(&v, position).unwrap());
    let mover = game.position().side_to_move();
    for s in turn {
        if game.play_text(s).is_err() {
            return false;
        }
    }
    game.result().map(|r| r.0) == Some(Outcome::Win(mover))
}

#[test]
fn analyze_prints_the_turn_cohort_engine_plays_and_it_wins() {
    let positions = positions();
    assert!(positions.len() >= 10, "{} positions", positions.len());
    let mut engine = Command::new(BIN)
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = engine.stdin.take().unwrap();
    let mut output = BufReader::new(engine.stdout.take().unwrap());
    let mut read_until = |stop: &dyn Fn(&str) -> bool| -> String {
        loop {
            let mut line = String::new();
            assert!(
                output.read_line(&mut line).unwrap() > 0,
                "cohort engine exited"
            );
            let line = line.trim().to_string();
            assert!(!line.starts_with("error"), "{line}");
            if stop(&line) {
                return line;
            }
        }
    };
    writeln!(input, "cohort").unwrap();
    input.flush().unwrap();
    read_until(&|l| l == "ready");
    for (variant, position) in &positions {
        writeln!(
            input,
            "variant {variant}\nposition {position}\ngo nodes {NODES}"
        )
        .unwrap();
        input.flush().unwrap();
        let best = read_until(&|l| l.starts_with("bestturn"));
        let played: Vec<String> = best
            .split_whitespace()
            .skip(1)
            .filter(|s| *s != "end")
            .map(String::from)
            .collect();
        let analyzed: Vec<String> = analyze_turn(variant, position)
            .into_iter()
            .filter(|s| s != "end")
            .collect();
        assert_eq!(analyzed, played, "{variant} {position}");
        assert!(
            wins(variant, position, &played),
            "{variant} {position}: {played:?} does not win"
        );
    }
    writeln!(input, "quit").unwrap();
    input.flush().unwrap();
    assert!(engine.wait().unwrap().success());
}

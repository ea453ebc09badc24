//! Every perft number of ../shared/testdata (computed by independent implementations of
//! RULES.md), read at test time.

use std::path::PathBuf;

use cohort_rules::{builtin, perft::perft, Position};

fn testdata(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/testdata")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Rows of a TSV file, comments skipped.
fn rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

fn check(variant: &str, position: Option<&str>, depth: u32, expected: u64) -> Option<String> {
    let v = builtin(variant).unwrap_or_else(|| panic!("variant {variant} is not built in"));
    let mut pos = match position {
        Some(p) => Position::parse(&v, p).unwrap_or_else(|e| panic!("{variant}: {e}")),
        None => v.start(),
    };
    let got = perft(&mut pos, depth);
    (got != expected).then(|| {
        format!(
            "{variant} depth {depth} {}: expected {expected}, got {got}",
            position.unwrap_or("start")
        )
    })
}

/// Check every row of a testdata file; `with_position` says whether column 4 holds one.
fn check_file(name: &str, min_rows: usize, with_position: bool) {
    let data = rows(&testdata(name));
    assert!(data.len() >= min_rows, "{name} has too few rows");
    let failures: Vec<String> = data
        .iter()
        .filter_map(|r| {
            let position = with_position.then(|| r[3].as_str());
            check(
                &r[0],
                position,
                r[1].parse().unwrap(),
                r[2].parse().unwrap(),
            )
        })
        .collect();
    assert!(failures.is_empty(), "{name}:\n{}", failures.join("\n"));
}

#[test]
fn perft_from_start_positions() {
    check_file("perft-start.tsv", 20, false);
}

#[test]
fn perft_from_mid_game_positions() {
    check_file("perft-positions.tsv", 10, true);
}

#[test]
fn perft_lifeform() {
    check_file("lifeform-perft.tsv", 50, true);
}

/// Chesimals 0.1, 0.5, 0.75, 1.0 and Chesimal Fusion I (RULES.md sections 3 and 4).
#[test]
fn perft_chesimals_experimental_and_fusion() {
    let data = rows(&testdata("fusion-perft.tsv"));
    assert!(data.len() >= 60, "fusion-perft.tsv has too few rows");
    let failures: Vec<String> = data
        .iter()
        .filter_map(|r| {
            check(
                &r[0],
                r.get(3).map(String::as_str),
                r[1].parse().unwrap(),
                r[2].parse().unwrap(),
            )
        })
        .collect();
    assert!(
        failures.is_empty(),
        "fusion-perft.tsv:\n{}",
        failures.join("\n")
    );
}

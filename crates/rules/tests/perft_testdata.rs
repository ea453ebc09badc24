//! Every perft number of ../shared/testdata (computed by independent implementations of
//! RULES.md), read at test time.

use cohort_rules::Rules;
use std::path::PathBuf;

use cohort_rules::{builtin, builtin_variants, perft::perft, Position, StepList};

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

/// Perft whose leaves are the steps `legal_steps` lists (each node's list made and unmade,
/// the last ply's list counted), checking at every node that `count_steps` (what perft.rs
/// counts at its leaves, and what the cores count in bulk) equals the listed number.
fn listed_perft(pos: &mut Position, depth: u32, wrong: &mut Vec<String>) -> u64 {
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    if pos.count_steps() != list.len() as u64 && wrong.len() < 5 {
        wrong.push(format!(
            "{}: count_steps {} but {} listed",
            pos.to_text(),
            pos.count_steps(),
            list.len()
        ));
    }
    if depth <= 1 {
        return if depth == 0 { 1 } else { list.len() as u64 };
    }
    let mut nodes = 0;
    for &step in list.iter() {
        let undo = pos.make(step);
        nodes += listed_perft(pos, depth - 1, wrong);
        pos.unmake(step, undo);
    }
    nodes
}

/// Bulk counting at the leaves (perft.rs: `count_steps`, or a core's own recursion) gives
/// the same numbers as counting the listed legal steps, in every built-in variant from its
/// start and in a mid-game position of each testdata file.
#[test]
fn leaf_counts_equal_the_listed_legal_steps() {
    let mut cases: Vec<(String, Option<String>, u32)> = builtin_variants()
        .iter()
        .map(|v| (v.id.clone(), None, 3))
        .collect();
    for (file, per_variant) in [
        ("perft-positions.tsv", 1),
        ("fusion-perft.tsv", 1),
        ("lifeform-perft.tsv", 3),
        ("chessma-perft.tsv", 3),
    ] {
        // The first distinct positions of each variant in the file, at depth 2.
        let mut taken: Vec<(String, String)> = Vec::new();
        for r in rows(&testdata(file)) {
            let Some(position) = r.get(3) else { continue };
            let of_variant = taken.iter().filter(|(id, _)| *id == r[0]).count();
            if of_variant < per_variant && !taken.iter().any(|(_, p)| p == position) {
                taken.push((r[0].clone(), position.clone()));
                cases.push((r[0].clone(), Some(position.clone()), 2));
            }
        }
    }
    assert!(cases.len() >= 25, "{} cases", cases.len());
    let mut wrong = Vec::new();
    for (id, position, depth) in &cases {
        let v = builtin(id).unwrap_or_else(|| panic!("{id} is not built in"));
        let mut pos = match position {
            Some(p) => Position::parse(&v, p).unwrap_or_else(|e| panic!("{id} {p}: {e}")),
            None => v.start(),
        };
        for d in 1..=*depth {
            let bulk = perft(&mut pos, d);
            let listed = listed_perft(&mut pos, d, &mut wrong);
            if bulk != listed {
                wrong.push(format!(
                    "{id} depth {d} {}: bulk {bulk}, listed {listed}",
                    position.as_deref().unwrap_or("start")
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

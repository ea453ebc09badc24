//! Chesimal Fusion I (RULES.md section 4) and Chesimals 0.75 (section 3), a test per rule.

use crate::common;
use cohort_rules::{Explain, Rules, SearchHooks};
use cohort_rules::{Outcome, Position, Side, StepList};
use common::*;

/// A Fusion position: White's units as given, Black's two Kings far away (group numbers are
/// for display only, so every unit is written in group 1).
fn fusion(white: &[(&str, &str)], black: &[(&str, &str)]) -> Position {
    let mut units: Vec<(&str, &str)> = white.to_vec();
    if black.is_empty() {
        units.extend([("p12", "k(2)"), ("a12", "k(3)")]);
    } else {
        units.extend(black.iter().copied());
    }
    pos("chesimal-fusion-1", &place(16, 12, &units, 'w'))
}

/// The Prince on a1 boxed in by its own Knights, which a Prince never activates; a King on h1.
fn boxed_prince() -> Position {
    fusion(
        &[
            ("a1", "C(1)"),
            ("a2", "N(1)"),
            ("b1", "N(1)"),
            ("b2", "N(1)"),
            ("h1", "K(2)"),
        ],
        &[],
    )
}

fn step_texts(p: &Position) -> Vec<String> {
    let mut list = StepList::new();
    p.legal_steps(&mut list);
    list.iter().map(|s| p.step_text(*s)).collect()
}

#[test]
fn lead_is_legal_only_when_a_unit_move_follows() {
    let p = boxed_prince();
    let steps = step_texts(&p);
    assert!(steps.contains(&"lead:h1".to_string()), "{steps:?}");
    assert!(!steps.iter().any(|s| s.starts_with("lead:a1")), "{steps:?}");
    let e = p.parse_step("lead:a1:ortho").unwrap_err();
    assert_eq!(
        e.to_string(),
        "lead:a1:ortho is illegal: no unit move would then be legal (a lead must be followed by one)"
    );
    assert_eq!(
        e.illegal,
        Some(cohort_rules::Illegal::LeadWithoutMove),
        "{e}"
    );
    let e = p.parse_step("lead:a2").unwrap_err();
    assert_eq!(e.illegal, Some(cohort_rules::Illegal::NotALeader), "{e}");
    let e = p.parse_step("lead:a1:sideways").unwrap_err();
    assert_eq!(
        e.illegal, None,
        "a mode that does not exist is malformed: {e}"
    );
    // Nothing but lead steps at a turn start; `end` needs a unit move first.
    assert!(steps.iter().all(|s| s.starts_with("lead:")));
    let mut q = p.clone();
    play(&mut q, "lead:h1");
    assert!(!legal(&q, "end"), "end before any unit move");
    play(&mut q, "h1-h2");
    assert!(legal(&q, "end"));
}

#[test]
fn prince_modes_choose_the_kinds_and_how_pawns_move() {
    let white = [
        ("h6", "C(1)"),
        ("h7", "W(1)"),
        ("g7", "E(1)"),
        ("i6", "P(1)"),
        ("a1", "K(2)"),
        ("b1", "K(2)"),
    ];
    let mut ortho = fusion(&white, &[]);
    play(&mut ortho, "lead:h6:ortho");
    assert!(
        !dests(&ortho, "h7").is_empty(),
        "Ortho activates Warmachines"
    );
    assert!(
        dests(&ortho, "g7").is_empty(),
        "Ortho does not activate Elephants"
    );
    assert_eq!(
        dests(&ortho, "i6"),
        names("i7 i5 j6"),
        "Pawns move as Wazirs"
    );
    let mut dia = fusion(&white, &[]);
    play(&mut dia, "lead:h6:dia");
    assert!(
        dests(&dia, "h7").is_empty(),
        "Dia does not activate Warmachines"
    );
    assert!(!dests(&dia, "g7").is_empty(), "Dia activates Elephants");
    assert_eq!(dests(&dia, "i6"), names("j7 j5 h5"), "Pawns move as Ferzes");
    // A King's Pawns move as Guards (king steps); a Pawn not activated has no move.
    let mut king = fusion(&[("h6", "K(1)"), ("i6", "P(1)"), ("a1", "K(2)")], &[]);
    play(&mut king, "lead:h6");
    assert_eq!(dests(&king, "i6"), names("i7 i5 j6 j7 j5 h5 h7"));
    assert!(fusion(&white, &[]).destinations(sq("i6")).is_empty());
    // A mode must be named for a Prince, and never for a King.
    assert!(fusion(&white, &[]).parse_step("lead:h6").is_err());
    assert!(king_start().parse_step("lead:f2:ortho").is_err());
}

fn king_start() -> Position {
    cohort_rules::builtin("chesimal-fusion-1").unwrap().start()
}

fn sq(name: &str) -> cohort_rules::Square {
    cohort_rules::builtin("chesimal-fusion-1")
        .unwrap()
        .geometry
        .parse_square(name)
        .unwrap()
}

/// A King (or Prince) on d4 with Pawns on every square around it and a second ring.
fn crowd(leader: &str) -> Position {
    let mut white: Vec<(String, String)> = vec![("d4".into(), format!("{leader}(1)"))];
    for f in b'b'..=b'f' {
        for r in 2..=6 {
            let name = format!("{}{}", f as char, r);
            if name != "d4" && (name.as_str() != "f6") {
                white.push((name, "P(1)".into()));
            }
        }
    }
    white.push(("a12".into(), "K(2)".into()));
    let refs: Vec<(&str, &str)> = white
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    fusion(&refs, &[("p12", "k(2)"), ("p11", "k(3)")])
}

#[test]
fn a_king_activates_six_others_and_itself() {
    let mut p = crowd("K");
    play(&mut p, "lead:d4");
    // Six Pawns of the outer ring move out.
    play(&mut p, "b2-a1 b3-a2 b4-a3 b5-a4 b6-a5 e5-f6");
    assert!(
        dests(&p, "e6").is_empty(),
        "a seventh other unit is refused"
    );
    let e = p.parse_step("e6-e7").unwrap_err();
    assert_eq!(
        e.illegal,
        Some(cohort_rules::Illegal::OthersUsed { others: 6 }),
        "{e}"
    );
    // The King still moves itself: its own seventh activation (e5 is free now).
    play(&mut p, "d4-e5");
    assert_eq!(step_texts(&p), vec!["end".to_string()]);
}

#[test]
fn a_prince_activates_nine_with_itself() {
    let mut p = crowd("C");
    play(&mut p, "lead:d4:dia");
    play(&mut p, "b2-a1 b3-a2 b4-a3 b5-a4 b6-a5 c6-b7 d6-c7 e5-f6");
    // Eight Pawns moved; the Prince is the ninth.
    play(&mut p, "d4-e5");
    assert_eq!(step_texts(&p), vec!["end".to_string()]);
    // Or nine Pawns, and then the Prince may not move.
    let mut q = crowd("C");
    play(
        &mut q,
        "lead:d4:dia b2-a1 b3-a2 b4-a3 b5-a4 b6-a5 c6-b7 d6-c7 e6-d7 e5-f6",
    );
    assert_eq!(step_texts(&q), vec!["end".to_string()]);
}

#[test]
fn knights_only_by_a_king_but_chains_run_through_them() {
    // Prince a1, Knight b2, Pawn c3 touching only the Knight.
    let white = [
        ("a1", "C(1)"),
        ("b2", "N(1)"),
        ("c3", "P(1)"),
        ("h1", "K(2)"),
        ("g2", "N(2)"),
    ];
    let mut p = fusion(&white, &[]);
    play(&mut p, "lead:a1:dia");
    assert!(
        dests(&p, "b2").is_empty(),
        "a Prince never activates a Knight"
    );
    assert_eq!(
        p.parse_step("b2-c4").unwrap_err().illegal,
        Some(cohort_rules::Illegal::NotActivatable)
    );
    assert_eq!(
        dests(&p, "c3"),
        names("b4 d4 d2"),
        "linked through the Knight"
    );
    let mut k = fusion(&white, &[]);
    play(&mut k, "lead:h1");
    assert!(!dests(&k, "g2").is_empty(), "a King activates its Knight");
}

#[test]
fn moved_units_are_links() {
    // Prince a1, Pawns b2 and d4 (d4 not linked: c3 is empty).
    let mut p = fusion(
        &[
            ("a1", "C(1)"),
            ("b2", "P(1)"),
            ("d4", "P(1)"),
            ("h1", "K(2)"),
        ],
        &[],
    );
    play(&mut p, "lead:a1:dia");
    assert!(dests(&p, "d4").is_empty(), "not linked yet");
    play(&mut p, "b2-c3"); // c3 touches d4 and still b2? no: a1-b2 empty now
                           // c3 is no longer next to a1, so nothing links d4 to the Prince.
    assert!(dests(&p, "d4").is_empty());
    let mut q = fusion(
        &[
            ("a1", "C(1)"),
            ("b2", "P(1)"),
            ("b1", "P(1)"),
            ("d3", "P(1)"),
            ("h1", "K(2)"),
        ],
        &[],
    );
    play(&mut q, "lead:a1:dia");
    assert!(dests(&q, "d3").is_empty());
    play(&mut q, "b1-c2"); // moved, still next to b2 and now next to d3
    assert!(
        !dests(&q, "d3").is_empty(),
        "linked through the Pawn that moved"
    );
    assert!(dests(&q, "c2").is_empty(), "each unit moves once");
}

#[test]
fn an_activated_leader_only_moves() {
    // King e1 leads; its Prince f2 moves to h3, next to Pawns i3 i4 far from the King.
    let mut p = fusion(
        &[
            ("e1", "K(2)"),
            ("f2", "C(1)"),
            ("i3", "P(1)"),
            ("i4", "P(1)"),
            ("a12", "K(3)"),
        ],
        &[("p12", "k(2)"), ("p11", "k(3)")],
    );
    play(&mut p, "lead:e1 f2-h3");
    assert!(
        dests(&p, "i3").is_empty(),
        "the Prince does not activate; no chain to the King"
    );
    let v = p.command_view();
    let lead = v.leading.expect("a leader leads");
    assert_eq!((lead.budget, lead.used), (7, 1));
}

#[test]
fn the_game_ends_the_moment_the_second_king_falls() {
    let mut p = fusion(
        &[("e1", "K(2)"), ("e2", "P(1)"), ("a1", "K(3)")],
        &[("f3", "k(2)")],
    );
    play(&mut p, "lead:e1 e2xf3");
    assert_eq!(p.outcome(), Some(Outcome::Win(Side::White)));
    assert!(step_texts(&p).is_empty(), "not even end");
}

/// Chesimals 0.75: leader d1 (royal) and Guards as given; Black's leader far away.
fn hyper(white: &[(&str, &str)], black: &[(&str, &str)]) -> Position {
    let mut units = white.to_vec();
    units.push(("p12", "c(1)"));
    units.extend(black.iter().copied());
    pos("chesimals-0.75", &place(16, 12, &units, 'w'))
}

#[test]
fn hyper_units_relink_before_every_move() {
    // Leader a1, Guards a2 a3: a3 is linked through a2.
    let mut p = hyper(&[("a1", "C(1)"), ("a2", "G(1)"), ("a3", "G(1)")], &[]);
    play(&mut p, "a2-b1"); // b1 touches a1 but not a3
    assert!(dests(&p, "a3").is_empty(), "a3 lost its link");
    play(&mut p, "b1-b2"); // the same Guard again: b2 touches a1 and a3
    assert!(!dests(&p, "a3").is_empty(), "linked again");
    play(&mut p, "b2-a2"); // and back to a square it left
}

#[test]
fn hyper_captures_on_each_move_and_stops_at_seven() {
    // Leader b1, Guard b2; Black Guards on c2 and c1, both next to the leader.
    let mut p = hyper(
        &[("b1", "C(1)"), ("b2", "G(1)")],
        &[("c2", "g(1)"), ("c1", "g(1)")],
    );
    play(&mut p, "b2xc2 c2xc1");
    assert_eq!(
        p.occupied(Side::Black).count(),
        1,
        "both Black Guards taken, the leader left"
    );
    // The leader alone makes the remaining five moves, then only `end`.
    play(&mut p, "b1-a1 a1-a2 a2-a3 a3-a2 a2-a3");
    assert_eq!(step_texts(&p), vec!["end".to_string()]);
    assert_eq!(
        p.parse_step("a3-a4").unwrap_err().illegal,
        Some(cohort_rules::Illegal::CapReached { cap: 7 })
    );
}

/// `is_legal` on a `lead` step (the search asks it of stored steps) answers what the list of
/// legal steps says: every own and enemy square, every mode, and a lead that names a
/// destination, in the start position, a boxed-in Prince's and one mid-game.
#[test]
fn is_legal_agrees_with_the_listed_lead_steps() {
    use cohort_rules::{Step, StepKind};
    let boxed = boxed_prince();
    let start = cohort_rules::builtin("chesimal-fusion-1").unwrap().start();
    let mut later = start.clone();
    for text in [
        "lead:b2:ortho",
        "b3-b4",
        "end",
        "lead:b11:ortho",
        "b10-b9",
        "end",
    ] {
        play(&mut later, text);
    }
    let modes = 3u8;
    let (mut listed_total, mut asked) = (0, 0);
    for p in [boxed, start, later] {
        let mut list = StepList::new();
        p.legal_steps(&mut list);
        let listed: Vec<Step> = list.iter().copied().collect();
        listed_total += listed.len();
        for sq in (p.occupied(Side::White) | p.occupied(Side::Black)).iter() {
            for mode in 0..=modes {
                for to in [sq, cohort_rules::Square::new(0, 0)] {
                    let step = Step {
                        from: sq,
                        to,
                        kind: StepKind::Lead(mode),
                    };
                    asked += 1;
                    assert_eq!(
                        p.is_legal(step),
                        listed.contains(&step),
                        "{} in {}",
                        p.step_text(step),
                        p.to_text()
                    );
                }
            }
        }
    }
    assert!(listed_total >= 6 && asked > 300, "{listed_total} {asked}");
}

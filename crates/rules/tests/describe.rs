//! Each command model describes itself (command/, `Describe`): the link rule worded from the
//! variant's data, the interface's flags, and a leader's diagram that activates exactly the
//! units the model's own command code lets move.

use std::sync::Arc;

use crate::common::Rng;
use cohort_rules::describe::command_presentation;
use cohort_rules::diagram::piece_diagram;
use cohort_rules::{
    builtin, builtin_variants, parse_variants, Bitboard, Explain, Position, Rules, StepKind,
    StepList, Variant,
};

fn custom(text: &str) -> Arc<Variant> {
    parse_variants("describe.ini", text, &builtin_variants())
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .remove(0)
}

/// The link rule of `v` (the sentence the game page's hint shows).
fn link_rule(v: &Arc<Variant>) -> String {
    command_presentation(v)
        .link_rule
        .unwrap_or_else(|| panic!("{}: no link rule", v.id))
}

/// The words a leader's diagram says of its command (the first leader kind's).
fn leader_text(v: &Arc<Variant>) -> String {
    let start = v.start();
    let kind = v.pieces.iter().position(|p| p.leader).unwrap();
    let sq = cohort_rules::all_units(&start)
        .find(|u| u.kind as usize == kind)
        .map(|u| u.square)
        .unwrap();
    piece_diagram(&start, kind, start.side_to_move(), sq)
        .command
        .unwrap()
        .text
}

fn assert_friendly(v: &Arc<Variant>) {
    let rule = link_rule(v);
    assert!(rule.contains("friendly"), "{}: {rule}", v.id);
    assert!(!rule.contains("own chesimal"), "{}: {rule}", v.id);
    assert!(leader_text(v).contains("friendly"), "{}", v.id);
    let legend = command_presentation(v).legend.unwrap();
    assert!(legend.contains("friendly"), "{}: {legend}", v.id);
}

fn assert_group(v: &Arc<Variant>) {
    let rule = link_rule(v);
    assert!(rule.contains("own chesimal"), "{}: {rule}", v.id);
    assert!(!rule.contains("friendly"), "{}: {rule}", v.id);
    assert!(!leader_text(v).contains("friendly"), "{}", v.id);
    let legend = command_presentation(v).legend.unwrap();
    assert!(!legend.contains("friendly"), "{}: {legend}", v.id);
}

/// The link rule is a sentence of the rules page too: one wording.
fn assert_on_rules_page(v: &Arc<Variant>) {
    let rule = link_rule(v);
    let page = v.start().rules_text().command;
    assert!(page.contains(&rule), "{}: {rule} not in {page:?}", v.id);
}

#[test]
fn chain_link_rule_names_friendly_units_or_the_chesimal() {
    let group = builtin("chesimals-1").unwrap();
    assert_group(&group);
    assert_on_rules_page(&group);
    let friendly = custom("[cf]\nbase = chesimals-1\nname = CF\nlinks = friendly\n");
    assert_friendly(&friendly);
    assert_on_rules_page(&friendly);
    let p = command_presentation(&group);
    assert!(p.shows_command && !p.one_step_turns);
}

#[test]
fn lead_link_rule_names_friendly_units_or_the_group() {
    let friendly = builtin("chesimal-fusion-1").unwrap();
    assert_friendly(&friendly);
    assert_on_rules_page(&friendly);
    let group = custom("[lg]\nbase = chesimal-fusion-1\nname = LG\nlinks = group\n");
    assert_group(&group);
    assert_on_rules_page(&group);
    let p = command_presentation(&group);
    assert!(p.shows_command && !p.one_step_turns);
}

#[test]
fn range_rule_names_the_range_and_no_links() {
    let v = builtin("mini-chieftain").unwrap();
    let rule = link_rule(&v);
    assert!(rule.contains("within 3 squares"), "{rule}");
    assert!(rule.contains("Chieftain"), "{rule}");
    assert!(
        !rule.contains("chain") && !rule.contains("friendly"),
        "{rule}"
    );
    let near = custom("[near]\nbase = mini-chieftain\nname = Near\nrange = 2\n");
    assert!(link_rule(&near).contains("within 2 squares"));
    let legend = command_presentation(&near).legend.unwrap();
    assert!(
        legend.starts_with("Boxes") && legend.contains("within 2"),
        "{legend}"
    );
    let p = command_presentation(&v);
    assert!(p.shows_command && !p.one_step_turns);
}

#[test]
fn single_and_body_have_no_link_rule_and_no_overlay() {
    for (id, one_step) in [("chess", true), ("chessma-84", true), ("lifeform", false)] {
        let v = builtin(id).unwrap();
        let p = command_presentation(&v);
        assert_eq!(p.one_step_turns, one_step, "{id}");
        assert!(!p.shows_command, "{id}");
        assert_eq!((p.link_rule, p.legend), (None, None), "{id}");
        assert!(!v.start().rules_text().command.is_empty(), "{id}");
    }
    let single = builtin("chess").unwrap().start().rules_text().command;
    assert_eq!(
        single,
        ["One unit moves, and the turn ends with that move."]
    );
    let body = builtin("lifeform").unwrap().start().rules_text().command;
    assert!(body[0].starts_with("A turn is one main move"), "{body:?}");
}

/// The units a leader's diagram says it activates on `pos` (its own square left out).
fn diagram_reach(pos: &Position, sq: cohort_rules::Square) -> Bitboard {
    let u = pos.unit_at(sq).unwrap();
    piece_diagram(pos, u.kind as usize, u.side, sq)
        .command
        .expect("a leader's command")
        .reach_board
}

/// Own units of the side to move of the kinds in `mask`.
fn of_kinds(pos: &Position, mask: u16) -> Bitboard {
    let side = pos.side_to_move();
    cohort_rules::all_units(pos)
        .filter(|u| u.side == side && mask >> u.kind & 1 != 0)
        .map(|u| u.square)
        .collect()
}

fn leaders(pos: &Position) -> Vec<cohort_rules::Unit> {
    let v = pos.variant().clone();
    let side = pos.side_to_move();
    cohort_rules::all_units(pos)
        .filter(|u| u.side == side && v.pieces[u.kind as usize].leader)
        .collect()
}

/// Positions at turn starts of random games of `v` (the start included).
fn turn_starts(v: &Arc<Variant>, games: u64, steps: usize) -> Vec<Position> {
    let mut out = vec![v.start()];
    for seed in 1..=games {
        let mut rng = Rng(seed * 0x9e37_79b9_7f4a_7c15);
        let mut p = v.start();
        let mut list = StepList::new();
        for _ in 0..steps {
            if p.outcome().is_some() {
                break;
            }
            p.legal_steps(&mut list);
            if list.is_empty() {
                break;
            }
            let step = list.as_slice()[rng.below(list.len())];
            p.make(step);
            if p.at_turn_start() {
                out.push(p.clone());
            }
        }
    }
    out
}

/// Chain model: at a turn start the units a leader activates are the movers of its
/// chesimal.
fn chain_matches(v: &Arc<Variant>) {
    let mut checked = 0;
    for pos in turn_starts(v, 6, 60) {
        if pos.outcome().is_some() {
            continue;
        }
        let movers = pos.movable_units();
        for l in leaders(&pos) {
            let side = pos.side_to_move();
            let group: Bitboard = cohort_rules::all_units(&pos)
                .filter(|u| u.side == side && u.group == l.group)
                .map(|u| u.square)
                .collect();
            let expected = movers & group & !Bitboard::from_square(l.square);
            assert_eq!(
                diagram_reach(&pos, l.square),
                expected,
                "{}: the leader on {:?} in {}",
                v.id,
                l.square,
                pos.to_text()
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "{}: {checked} leaders checked", v.id);
}

#[test]
fn chain_diagram_activates_what_the_chain_model_moves() {
    chain_matches(&builtin("chesimals-1").unwrap());
    chain_matches(&custom(
        "[cf]\nbase = chesimals-1\nname = CF\nlinks = friendly\n",
    ));
    chain_matches(&custom(
        "[guards]\nbase = chesimals-1\nname = G\nactivates C = GC\n",
    ));
}

/// Range model: with one leader, the units it activates are the movers at a turn start;
/// with several, the leaders' sets and squares cover the movers.
fn range_matches(v: &Arc<Variant>) {
    let mut checked = 0;
    for pos in turn_starts(v, 6, 40) {
        if pos.outcome().is_some() {
            continue;
        }
        let movers = pos.movable_units();
        let mut covered = Bitboard::EMPTY;
        let own = leaders(&pos);
        for l in &own {
            let reach = diagram_reach(&pos, l.square);
            assert_eq!(reach & !movers, Bitboard::EMPTY, "{}", pos.to_text());
            covered |= reach;
            if movers.has(l.square) {
                covered.set(l.square);
            }
            checked += 1;
        }
        assert_eq!(covered, movers, "{}: {}", v.id, pos.to_text());
    }
    assert!(checked > 20, "{}: {checked} leaders checked", v.id);
}

#[test]
fn range_diagram_activates_what_the_range_model_moves() {
    range_matches(&builtin("mini-chieftain").unwrap());
    range_matches(&builtin("chieftain").unwrap());
    range_matches(&custom(
        "[men]\nbase = mini-chieftain\nname = M\nactivates C = MC\n",
    ));
    // One Chieftain: exactly its set.
    let v = custom("[one]\nbase = mini-chieftain\nname = One\nrange = 2\n");
    let text = crate::common::place(
        8,
        8,
        &[
            ("c3", "C"),
            ("b2", "M"),
            ("e5", "N"),
            ("f6", "M"),
            ("a1", "H"),
            ("h8", "c"),
        ],
        'w',
    );
    let pos = Position::parse(&v, &text).unwrap();
    let c3 = v.geometry.parse_square("c3").unwrap();
    let reach = diagram_reach(&pos, c3);
    assert_eq!(reach, pos.movable_units() & !Bitboard::from_square(c3));
    let names: Vec<String> = reach.iter().map(|s| v.geometry.square_name(s)).collect();
    assert_eq!(names, ["a1", "b2", "e5"]);
}

/// Lead model: once a leader leads in a mode, the units it may activate besides itself are
/// the diagram's set of that leader, of the mode's kinds.
fn lead_matches(v: &Arc<Variant>) {
    let mut checked = 0;
    for pos in turn_starts(v, 4, 40) {
        if pos.outcome().is_some() {
            continue;
        }
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        for &step in list.iter() {
            let StepKind::Lead(mode) = step.kind else {
                continue;
            };
            let m = &v.lead_modes[mode as usize];
            let reach = diagram_reach(&pos, step.from) & of_kinds(&pos, m.activates);
            let mut led = pos.clone();
            led.make(step);
            let movers = led.movable_units() & !Bitboard::from_square(step.from);
            assert_eq!(
                reach,
                movers,
                "{}: {} in {}",
                v.id,
                pos.step_text(step),
                pos.to_text()
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "{}: {checked} lead steps checked", v.id);
}

#[test]
fn lead_diagram_activates_what_the_lead_model_moves() {
    lead_matches(&builtin("chesimal-fusion-1").unwrap());
    lead_matches(&custom(
        "[lg]\nbase = chesimal-fusion-1\nname = LG\nlinks = group\n",
    ));
}

/// What a player reads of a built-in variant (its name, summary, what is reconstructed, its
/// pieces' names) cites no file of the project: the rules pages are read by players, who
/// have neither RULES.md nor docs/ (issue 45: they said "RULES.md section 4").
#[test]
fn player_facing_texts_cite_no_project_file() {
    for v in builtin_variants() {
        let mut texts = vec![v.name.clone(), v.summary.clone(), v.reconstructed.clone()];
        texts.extend(v.pieces.iter().map(|p| p.name.clone()));
        for t in texts {
            for cited in ["RULES.md", "RULES-DETAILS", "docs/", "NOTATION.md"] {
                assert!(!t.contains(cited), "{}: \"{t}\" cites {cited}", v.id);
            }
        }
    }
}

//! `Explain::refusal` finds why a step is refused from the step itself. Its answer is the one
//! reading the step's text back gives (`parse_step(step_text(step))`, as `refusal` itself
//! once found it): the same reason and sentence, or `NoSuchStep` where the text reads as a
//! legal step or as no step at all. Checked over random legal and illegal steps of every
//! kind, in positions along random games of the built-in families (turn starts, mid-turn,
//! placement, game over), and on a few steps with their answers written out.

use cohort_rules::{builtin, Illegal, Position, Square, Step, StepError, StepKind, StepList};
use cohort_rules::{Explain, Rules};
use std::collections::BTreeSet;

/// The variants played: every command model, Lifeform with and without its placement,
/// FIDE chess and Chessma 84.
const VARIANTS: [&str; 10] = [
    "chesimals-1",
    "chesimals-2",
    "chieftain",
    "mini-chieftain",
    "micro-chieftain",
    "chesimal-fusion-1",
    "lifeform",
    "lifeform-free",
    "chess",
    "chessma-84",
];

/// A small deterministic generator (xorshift64): the same steps on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// Positions along a few random games from the start: every fourth step's, and the last
/// (often a finished game).
fn positions(start: &Position, rng: &mut Rng) -> Vec<Position> {
    let mut out = vec![start.clone()];
    for game in 0..4 {
        let mut p = start.clone();
        for ply in 0..40 + 40 * game {
            let mut list = StepList::new();
            p.legal_steps(&mut list);
            if list.is_empty() {
                break;
            }
            p.make(list.as_slice()[rng.below(list.len())]);
            if ply % 4 == 0 {
                out.push(p.clone());
            }
        }
        out.push(p);
    }
    out
}

/// A step of any kind the position's family may be asked about: near a legal one (its
/// squares with another kind, or its start with another destination) or anywhere.
fn some_step(p: &Position, legal: &[Step], rng: &mut Rng) -> Step {
    let v = p.variant();
    let squares: Vec<Square> = v.geometry.squares.iter().collect();
    let pick = |rng: &mut Rng| squares[rng.below(squares.len())];
    let (from, to) = match (legal.is_empty(), rng.below(3)) {
        (false, 0) => {
            let s = legal[rng.below(legal.len())];
            (s.from, s.to)
        }
        (false, 1) => (legal[rng.below(legal.len())].from, pick(rng)),
        _ => {
            let from = pick(rng);
            (from, if rng.below(5) == 0 { from } else { pick(rng) })
        }
    };
    let pieces = v.pieces.len();
    let kind = match rng.below(12) {
        0 => StepKind::End,
        1 => StepKind::Pin,
        2 => StepKind::Promote(rng.below(pieces) as u8),
        3 if v.is_chessma() => StepKind::Push(rng.below(v.geometry.sheets.len()) as u8),
        3 => StepKind::Push(0),
        4 if !v.lead_modes.is_empty() => StepKind::Lead(rng.below(v.lead_modes.len()) as u8),
        5 => {
            let kind = rng.below(pieces) as u8;
            // Chessma 84 marks a spent Encloser's drop with the high bit.
            let spent = if v.is_chessma() && rng.below(2) == 0 {
                0x80
            } else {
                0
            };
            StepKind::Drop(kind | spent)
        }
        _ => StepKind::Move,
    };
    Step { from, to, kind }
}

/// What reading the step's text back says of it: the refusal it gives, or `NoSuchStep` with
/// the text when it reads as a legal step or as no step at all.
fn by_text(p: &Position, step: Step) -> StepError {
    let text = p.step_text(step);
    match p.parse_step(&text) {
        Err(e) if e.illegal.is_some() => e,
        _ => {
            let message = format!("{text} is illegal: {}", Illegal::NoSuchStep);
            StepError {
                illegal: Some(Illegal::NoSuchStep),
                message,
            }
        }
    }
}

#[test]
fn refusal_agrees_with_reading_the_step_text() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut seen: BTreeSet<&'static str> = BTreeSet::new();
    let mut checked = 0;
    for id in VARIANTS {
        let v = builtin(id).unwrap();
        for p in positions(&v.start(), &mut rng) {
            let mut list = StepList::new();
            p.legal_steps(&mut list);
            let legal = list.as_slice().to_vec();
            for _ in 0..150 {
                let step = some_step(&p, &legal, &mut rng);
                if p.is_legal(step) {
                    continue;
                }
                let refusal = p.refusal(step);
                assert_eq!(refusal, by_text(&p, step), "{id} {} {step:?}", p.to_text());
                seen.insert(refusal.illegal.as_ref().expect("a reason").code());
                checked += 1;
            }
        }
    }
    assert!(checked > 50_000, "{checked} refusals");
    // The random steps reach every reason of the families but a few that need positions
    // built for them (command.rs and fusion.rs have those).
    let built = [
        "cap_reached",
        "leader_lost",
        "lead_without_move",
        "others_used",
    ];
    let missing: Vec<&str> = Illegal::all()
        .iter()
        .map(|i| i.code())
        .filter(|c| !seen.contains(c) && !built.contains(c))
        .collect();
    assert!(
        missing.is_empty(),
        "never refused for {missing:?}; saw {seen:?}"
    );
}

/// The index of the piece written `letter` in variant `id`.
fn kind(id: &str, letter: char) -> u8 {
    builtin(id).unwrap().kind_of_letter(letter).unwrap() as u8
}

#[test]
fn refusals_written_out() {
    // (variant, from ("" for a drop: its `to`), to, kind, reason, sentence), at the start.
    let cases = [
        (
            "chess",
            "e2",
            "e5",
            StepKind::Move,
            Illegal::NoSuchMove,
            "e2-e5 is illegal: no legal move does that (blocked, or it would expose the king)",
        ),
        (
            "chess",
            "e7",
            "e5",
            StepKind::Move,
            Illegal::NotYourUnit,
            "e7-e5 is illegal: the piece on e7 is Black's",
        ),
        (
            "chess",
            "e2",
            "e4",
            StepKind::Promote(kind("chess", 'P')),
            Illegal::NoSuchStep,
            "e2-e4=P is illegal: no legal step does that here",
        ),
        (
            "chesimals-1",
            "a1",
            "a1",
            StepKind::End,
            Illegal::EndTooEarly,
            "'end' needs at least one unit move in the turn first",
        ),
        (
            "chesimals-1",
            "e5",
            "e6",
            StepKind::Move,
            Illegal::NoUnit,
            "e5-e6 is illegal: there is no unit on e5",
        ),
        (
            "lifeform-free",
            "",
            "e4",
            StepKind::Drop(kind("lifeform-free", 'K')),
            Illegal::OutsidePlacementZone { ranks: 3 },
            "K@e4 is illegal: White places on its first 3 ranks only",
        ),
        (
            "chessma-84",
            "",
            "e4",
            StepKind::Drop(kind("chessma-84", 'Q')),
            Illegal::DropRefused,
            "step 'Q@e4' is illegal: no such piece in the pocket, or the square is taken, or \
             the drop captures, gives check or leaves the King in check",
        ),
        (
            "chessma-84",
            "e2",
            "e3",
            StepKind::Push(0),
            Illegal::WrittenOtherwise,
            "step 'e2-e3/A' is illegal: write it e2-e3",
        ),
    ];
    for (id, from, to, kind, illegal, message) in cases {
        let p = builtin(id).unwrap().start();
        let geo = &p.variant().geometry;
        let to = geo.parse_square(to).unwrap();
        let from = geo.parse_square(from).unwrap_or(to);
        let step = Step { from, to, kind };
        assert!(!p.is_legal(step), "{id} {step:?}");
        let e = p.refusal(step);
        assert_eq!(e.illegal, Some(illegal), "{id} {step:?}: {e}");
        assert_eq!(e.message, message, "{id} {step:?}");
        assert_eq!(e, by_text(&p, step), "{id} {step:?}");
    }
}

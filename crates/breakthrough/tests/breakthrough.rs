//! The outside family through the public interface: perft (against a plain reference
//! written here on a mailbox), make/unmake and the hash, what steps report, the engine's
//! search, and matches through the match runner.

use cohort_breakthrough::Breakthrough;
use cohort_engine::matches::play_game;
use cohort_engine::{EngineAgent, Limits, RandomAgent};
use cohort_rules::perft::{count, count_made, divide_of};
use cohort_rules::{Effect, Effects, Explain, Outcome, Rules, Side, Square, Step, StepList};

/// A second, independent Breakthrough: a 64-square mailbox, moves found square by square.
#[derive(Clone)]
struct Mailbox {
    cells: [i8; 64], // 1 White, -1 Black, 0 empty
    white_to_move: bool,
}

impl Mailbox {
    fn of(b: &Breakthrough) -> Mailbox {
        let mut cells = [0; 64];
        b.for_each_unit(|u| {
            cells[u.square.rank() as usize * 8 + u.square.file() as usize] =
                if u.side == Side::White { 1 } else { -1 };
        });
        Mailbox {
            cells,
            white_to_move: b.side_to_move() == Side::White,
        }
    }
    fn won(&self) -> bool {
        let far = |v: i8, rank: usize| (0..8).any(|f| self.cells[rank * 8 + f] == v);
        far(1, 7) || far(-1, 0) || !self.cells.contains(&1) || !self.cells.contains(&-1)
    }
    fn moves(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        if self.won() {
            return out;
        }
        let me: i8 = if self.white_to_move { 1 } else { -1 };
        for from in 0..64 {
            if self.cells[from] != me {
                continue;
            }
            let (f, r) = ((from % 8) as i32, (from / 8) as i32);
            let r2 = r + me as i32;
            if !(0..8).contains(&r2) {
                continue;
            }
            for df in [-1, 0, 1] {
                let f2 = f + df;
                if !(0..8).contains(&f2) {
                    continue;
                }
                let to = (r2 * 8 + f2) as usize;
                let target = self.cells[to];
                if target == 0 || (df != 0 && target == -me) {
                    out.push((from, to));
                }
            }
        }
        out
    }
    fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        for (from, to) in self.moves() {
            let saved = self.clone();
            self.cells[to] = self.cells[from];
            self.cells[from] = 0;
            self.white_to_move = !self.white_to_move;
            n += self.perft(depth - 1);
            *self = saved;
        }
        n
    }
}

fn sq(i: usize) -> Square {
    Square::new((i % 8) as u8, (i / 8) as u8)
}

#[test]
fn perft_agrees_with_an_independent_mailbox_count() {
    for depth in 1..=4 {
        let mut b = Breakthrough::start();
        let ours = count(&mut b, depth);
        let reference = Mailbox::of(&b).perft(depth);
        assert_eq!(ours, reference, "depth {depth}");
        assert_eq!(
            count_made(&mut b, depth),
            reference,
            "made leaves, depth {depth}"
        );
        assert_eq!(
            b,
            Breakthrough::start(),
            "perft leaves the position as it found it"
        );
    }
    // Divide sums to the total and names each first step once.
    let mut b = Breakthrough::start();
    let d = divide_of(&mut b, 3);
    assert_eq!(d.len(), 22);
    assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), count(&mut b, 3));
    // And from a middle game with captures both ways and a win near.
    let mut mid = Breakthrough::from_sets(
        1 << 8 | 1 << 27 | 1 << 28 | 1 << 50,
        1 << 35 | 1 << 36 | 1 << 55 | 1 << 20,
        Side::White,
    );
    for depth in 1..=5 {
        assert_eq!(
            count(&mut mid, depth),
            Mailbox::of(&mid).perft(depth),
            "middle game, depth {depth}"
        );
    }
}

/// Deterministic pseudo-random numbers for the random games.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn make_unmake_hash_and_effects_hold_in_random_games() {
    let mut rng = Rng(0x5EED);
    let mut list = StepList::new();
    let mut fx = Effects::new();
    let mut steps = 0;
    for _ in 0..200 {
        let mut b = Breakthrough::start();
        while b.outcome().is_none() {
            b.legal_steps(&mut list);
            let reference: Vec<(Square, Square)> = Mailbox::of(&b)
                .moves()
                .into_iter()
                .map(|(f, t)| (sq(f), sq(t)))
                .collect();
            let mut listed: Vec<(Square, Square)> = list.iter().map(|s| (s.from, s.to)).collect();
            listed.sort_by_key(|(f, t)| (f.index(), t.index()));
            let mut expected = reference.clone();
            expected.sort_by_key(|(f, t)| (f.index(), t.index()));
            assert_eq!(listed, expected, "{}", b.to_text());
            if list.is_empty() {
                break;
            }
            let s = list.as_slice()[rng.below(list.len())];
            let before = b.clone();
            let victim = b.unit_at(s.to);
            let undo = b.make_reporting(s, &mut fx);
            steps += 1;
            assert_eq!(b.hash(), b.compute_hash(), "incremental hash after {s:?}");
            // The effects are the board's difference: the mover moved, the victim left.
            let removed: Vec<_> = fx.removed().collect();
            match victim {
                Some(v) => assert_eq!(removed, vec![(v.side, 0, s.to, true)]),
                None => assert!(removed.is_empty()),
            }
            assert!(fx.iter().any(
                |e| matches!(e, Effect::Moved { from, to, .. } if *from == s.from && *to == s.to)
            ));
            let mut back = b.clone();
            back.unmake(s, undo);
            assert_eq!(back, before, "unmake restores the position");
        }
    }
    assert!(steps > 5_000, "{steps} steps played");
}

#[test]
fn the_engine_searches_it_and_takes_a_win() {
    // White to move with a pawn on b7: b7-b8 (or a capture on the far rank) wins at once.
    let b = Breakthrough::from_sets(1 << 49 | 1 << 8, 1 << 63 | 1 << 62 | 1 << 40, Side::White);
    let engine = EngineAgent::new(b.variant());
    let limits = Limits {
        time: None,
        nodes: Some(20_000),
        seed: 1,
        threads: 1,
        clock: None,
    };
    let (out, stats) = engine.think_on(&b, &limits, 8, None, |_, _| {});
    let best = out.best.expect("a step");
    let mut after = b.clone();
    after.make(best);
    assert_eq!(after.outcome(), Some(Outcome::Win(Side::White)), "{best:?}");
    assert!(stats.nodes > 0);
    // Black to move must stop a pawn that would otherwise run through: on c6 it takes it.
    let threat = Breakthrough::from_sets(1 << 42 | 1 << 0, 1 << 51 | 1 << 63, Side::Black);
    let turn = engine.turn_on(&threat, &limits);
    assert_eq!(
        turn.steps,
        vec![Step::new(sq(51), sq(42))],
        "d7xc6 is Black's only move that does not lose"
    );
}

#[test]
fn matches_play_it_and_the_engine_beats_random_play() {
    // Through the one game layer (`Game`, `play_game`, records) that plays every family.
    cohort_rules::register(&cohort_breakthrough::FAMILY);
    let variant = cohort_rules::builtin("breakthrough").expect("a registered family's variant");
    let mut engine = EngineAgent::new(&variant);
    let limits = |seed| Limits {
        time: None,
        nodes: Some(3_000),
        seed,
        threads: 1,
        clock: None,
    };
    let mut engine_wins = 0;
    for game in 0..6u64 {
        let engine_side = if game % 2 == 0 {
            Side::White
        } else {
            Side::Black
        };
        let (l, r) = (limits(7 + game), limits(42 + game));
        let record = if engine_side == Side::White {
            play_game(variant.start(), &mut engine, &l, &mut RandomAgent, &r, 200)
        } else {
            play_game(variant.start(), &mut RandomAgent, &l, &mut engine, &r, 200)
        };
        assert!(!record.turns.is_empty());
        assert!(record.illegal.is_none(), "{:?}", record.illegal);
        let won = if engine_side == Side::White {
            "1-0"
        } else {
            "0-1"
        };
        if record.result == won {
            engine_wins += 1;
            assert!(
                ["a pawn reached the far rank", "every enemy pawn taken"]
                    .contains(&record.reason.as_str()),
                "the family's own end: {}",
                record.reason
            );
        }
    }
    assert_eq!(
        engine_wins, 6,
        "the engine wins every game against random play"
    );
}

/// A family that writes no `refusal` of its own gets the interface's: the reason from the
/// step and `why_not`, in the sentence `<step> is illegal: <reason>`.
#[test]
fn the_default_refusal_says_why_from_the_step() {
    use cohort_rules::{Illegal, StepKind};
    let b = Breakthrough::start();
    let geo = &b.variant().geometry;
    let sq = |name: &str| geo.parse_square(name).unwrap();
    let step = |from: &str, to: &str| Step::new(sq(from), sq(to));
    for (step, illegal, message) in [
        (
            step("e4", "e5"),
            Illegal::NoUnit,
            "e4-e5 is illegal: there is no unit there",
        ),
        (
            step("e7", "e6"),
            Illegal::NotYourUnit,
            "e7-e6 is illegal: that unit is not the side to move's",
        ),
        (
            step("e1", "e2"),
            Illegal::NoLegalMove,
            "e1xe2 is illegal: the piece has no legal move",
        ),
        (
            step("e2", "e4"),
            Illegal::CannotReach,
            "e2-e4 is illegal: the unit cannot reach that square",
        ),
        (
            Step {
                kind: StepKind::End,
                ..step("e4", "e4")
            },
            Illegal::NoSuchStep,
            "e4-e4 is illegal: no legal step does that here",
        ),
    ] {
        assert!(!b.is_legal(step), "{step:?}");
        let e = b.refusal(step);
        assert_eq!(e.illegal, Some(illegal), "{step:?}: {e}");
        assert_eq!(e.message, message, "{step:?}");
    }
}

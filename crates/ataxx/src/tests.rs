//! The family through its public interface: perft (the published counts, and a plain
//! reference written here on a mailbox), make/unmake and the hash, what steps report, each
//! end, and matches through the match runner.

use super::*;
use cohort_engine::matches::play_game;
use cohort_engine::{EngineAgent, Limits, RandomAgent};
use cohort_rules::perft::{count, count_made};

/// A second, independent Ataxx: a 7x7 mailbox, moves found square by square.
#[derive(Clone)]
struct Mailbox {
    cells: [[i8; 7]; 7], // [rank][file]: 1 White, -1 Black, 0 empty, 2 blocked
    me: i8,
    clock: u32,
}

/// A move of the mailbox: a clone to a square, a jump, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum MbMove {
    Clone(usize, usize),
    Jump(usize, usize, usize, usize),
    Pass,
}

impl Mailbox {
    fn of(a: &Ataxx) -> Mailbox {
        let text = a.to_text();
        let words: Vec<&str> = text.split(' ').collect();
        let mut cells = [[0i8; 7]; 7];
        for (i, row) in words[0].split('/').enumerate() {
            let r = 6 - i;
            let mut f = 0;
            for c in row.chars() {
                match c {
                    'x' => cells[r][f] = 1,
                    'o' => cells[r][f] = -1,
                    '-' => cells[r][f] = 2,
                    d => {
                        f += d.to_digit(10).unwrap() as usize;
                        continue;
                    }
                }
                f += 1;
            }
        }
        Mailbox {
            cells,
            me: if words[1] == "x" { 1 } else { -1 },
            clock: words[2].parse().unwrap(),
        }
    }
    fn count(&self, v: i8) -> usize {
        self.cells.iter().flatten().filter(|&&c| c == v).count()
    }
    /// The squares at king distance exactly `d` (1 or 2) of (r, f).
    fn near(r: usize, f: usize, d: i32) -> impl Iterator<Item = (usize, usize)> {
        (-d..=d)
            .flat_map(move |dr| (-d..=d).map(move |df| (dr, df)))
            .filter(move |(dr, df)| dr.abs().max(df.abs()) == d)
            .map(move |(dr, df)| (r as i32 + dr, f as i32 + df))
            .filter(|(tr, tf)| (0..7).contains(tr) && (0..7).contains(tf))
            .map(|(tr, tf)| (tr as usize, tf as usize))
    }
    /// The moves of side `v` other than the pass.
    fn moves_of(&self, v: i8) -> Vec<MbMove> {
        let mut out = Vec::new();
        for r in 0..7 {
            for f in 0..7 {
                if self.cells[r][f] != 0 {
                    continue;
                }
                if Self::near(r, f, 1).any(|(a, b)| self.cells[a][b] == v) {
                    out.push(MbMove::Clone(r, f));
                }
            }
        }
        for r in 0..7 {
            for f in 0..7 {
                if self.cells[r][f] != v {
                    continue;
                }
                for (a, b) in Self::near(r, f, 2) {
                    if self.cells[a][b] == 0 {
                        out.push(MbMove::Jump(r, f, a, b));
                    }
                }
            }
        }
        out
    }
    /// The moves of the side to move: none once the game is over, a pass when it has none.
    fn moves(&self) -> Vec<MbMove> {
        let (mine, theirs) = (self.moves_of(self.me), self.moves_of(-self.me));
        let over = self.count(1) == 0
            || self.count(-1) == 0
            || self.count(0) == 0
            || (mine.is_empty() && theirs.is_empty())
            || self.clock >= 100;
        match () {
            _ if over => vec![],
            _ if mine.is_empty() => vec![MbMove::Pass],
            _ => mine,
        }
    }
    fn play(&mut self, m: MbMove) {
        let at = match m {
            MbMove::Pass => None,
            MbMove::Clone(r, f) => Some((r, f)),
            MbMove::Jump(r, f, a, b) => {
                self.cells[r][f] = 0;
                Some((a, b))
            }
        };
        self.clock = if matches!(m, MbMove::Clone(..)) {
            0
        } else {
            self.clock + 1
        };
        if let Some((r, f)) = at {
            self.cells[r][f] = self.me;
            for (a, b) in Self::near(r, f, 1) {
                if self.cells[a][b] == -self.me {
                    self.cells[a][b] = self.me;
                }
            }
        }
        self.me = -self.me;
    }
    fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => return 1,
            1 => return self.moves().len() as u64,
            _ => {}
        }
        self.moves()
            .into_iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(m);
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// The mailbox's form of a step.
fn mb(step: Step) -> MbMove {
    let rf = |s: Square| (s.rank() as usize, s.file() as usize);
    match step.kind {
        StepKind::Pass => MbMove::Pass,
        StepKind::Drop(_) => {
            let (r, f) = rf(step.to);
            MbMove::Clone(r, f)
        }
        _ => {
            let ((r, f), (a, b)) = (rf(step.from), rf(step.to));
            MbMove::Jump(r, f, a, b)
        }
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

fn pos(text: &str) -> Ataxx {
    Ataxx::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn steps_of(a: &Ataxx) -> Vec<Step> {
    let mut list = StepList::new();
    a.legal_steps(&mut list);
    list.iter().copied().collect()
}

#[test]
fn perft_from_the_start_gives_the_published_counts() {
    let mut a = Ataxx::start();
    assert_eq!(a.to_text(), "x5o/7/7/7/7/7/o5x x 0 1");
    for (depth, expected) in [16, 256, 6460, 155888, 4752668].into_iter().enumerate() {
        let depth = depth as u32 + 1;
        assert_eq!(count(&mut a, depth), expected, "depth {depth}");
    }
    // Every leaf made and unmade, and by the generic counter (steps listed, not counted).
    assert_eq!(count_made(&mut a, 4), 155888);
    let mut list = StepList::new();
    let mut generic = 0;
    a.legal_steps(&mut list);
    for &s in list.iter() {
        let undo = a.make(s);
        let mut inner = StepList::new();
        a.legal_steps(&mut inner);
        for &t in inner.iter() {
            let u = a.make(t);
            generic += a.count_steps();
            a.unmake(t, u);
        }
        a.unmake(s, undo);
    }
    assert_eq!(generic, 6460);
    assert_eq!(
        a,
        Ataxx::start(),
        "perft leaves the position as it found it"
    );
}

#[test]
fn perft_agrees_with_an_independent_mailbox_count() {
    let check = |a: &mut Ataxx, depth: u32, what: &str| {
        let reference = Mailbox::of(a).perft(depth);
        assert_eq!(count(a, depth), reference, "{what}: depth {depth}");
        assert_eq!(
            count_made(a, depth),
            reference,
            "{what}: made, depth {depth}"
        );
    };
    let mut start = Ataxx::start();
    for depth in 1..=4 {
        check(&mut start, depth, "start");
    }
    // Blocked squares (a common opening layout), and a side that must pass: Black's stone
    // on a1 has every square within two taken by White.
    let mut positions = vec![
        "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1".to_string(),
        "7/7/7/7/xxx4/xxx4/oxx4 o 0 1".to_string(),
        "x-1-1-o/7/-5-/3x3/-5-/7/o-1-1-x o 7 9".to_string(),
    ];
    // And middle games reached by random play (the mailbox plays them, clones three times
    // in four where it can, so that the board fills as in a real game).
    let mut rng = Rng(0xA7A7);
    for plies in [34, 40, 46] {
        let mut m = Mailbox::of(&Ataxx::start());
        let mut a = Ataxx::start();
        for _ in 0..plies {
            let moves = m.moves();
            let clones: Vec<MbMove> = moves
                .iter()
                .copied()
                .filter(|m| matches!(m, MbMove::Clone(..)))
                .collect();
            let pick = if !clones.is_empty() && rng.below(4) != 0 {
                clones[rng.below(clones.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            let mut next = m.clone();
            next.play(pick);
            if next.moves().is_empty() {
                break; // not into a finished game
            }
            m = next;
            let step = steps_of(&a).into_iter().find(|&s| mb(s) == pick).unwrap();
            a.make(step);
        }
        positions.push(a.to_text());
    }
    let forced = pos(&positions[1]);
    assert_eq!(steps_of(&forced), vec![Step::PASS], "Black must pass");
    for text in &positions {
        let mut a = pos(text);
        let before = a.clone();
        for depth in 1..=4 {
            check(&mut a, depth, text);
        }
        assert_eq!(a, before);
    }
}

#[test]
fn make_unmake_hash_and_effects_hold_in_random_games() {
    let mut rng = Rng(0x5EED);
    let mut fx = Effects::new();
    let (mut steps, mut passes, mut jumps_with_flips) = (0, 0, 0);
    let starts = [
        "x5o/7/7/7/7/7/o5x x 0 1",
        "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
        "x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1",
    ];
    for game in 0..60 {
        let mut a = pos(starts[game % starts.len()]);
        while a.outcome().is_none() {
            let list = steps_of(&a);
            // The same steps as the mailbox.
            let mut ours: Vec<MbMove> = list.iter().map(|&s| mb(s)).collect();
            let mut reference = Mailbox::of(&a).moves();
            ours.sort();
            reference.sort();
            assert_eq!(ours, reference, "{}", a.to_text());
            // Every step and its unmake restores the position, its text and its hash.
            let before = a.clone();
            let text = a.to_text();
            for &s in &list {
                assert!(a.is_legal(s));
                assert_eq!(a.parse_step(&a.step_text(s)), Ok(s));
                let undo = a.make(s);
                assert_eq!(a.hash(), a.compute_hash(), "after {s:?} in {text}");
                a.unmake(s, undo);
                assert_eq!(a, before, "unmake of {s:?} in {text}");
                assert_eq!(a.to_text(), text);
                assert_eq!(a.hash(), a.compute_hash());
            }
            let s = list[rng.below(list.len())];
            let mut m = Mailbox::of(&a);
            m.play(mb(s));
            let undo = a.make_reporting(s, &mut fx);
            steps += 1;
            // The effects are the board's difference.
            let flips = fx
                .iter()
                .filter(|e| matches!(e, Effect::SideChanged { .. }))
                .count();
            assert_eq!(flips as u32, undo.flipped.count_ones());
            match s.kind {
                StepKind::Pass => {
                    passes += 1;
                    assert!(fx.is_empty())
                }
                StepKind::Drop(_) => assert!(matches!(fx.as_slice()[0], Effect::Placed { .. })),
                _ => {
                    jumps_with_flips += (flips > 0) as u32;
                    assert!(matches!(fx.as_slice()[0], Effect::Moved { .. }))
                }
            }
            assert!(!fx.captures());
            assert_eq!(Mailbox::of(&a).cells, m.cells, "{}", a.to_text());
            assert_eq!(a.hash(), a.compute_hash());
            assert_eq!(pos(&a.to_text()), a, "the text reads back");
        }
        assert!(a.count_steps() == 0 && steps_of(&a).is_empty());
        assert_eq!(a.without_steps(), (a.outcome().unwrap(), a.end_reason()));
    }
    assert!(steps > 3_000, "{steps} steps played");
    assert!(passes > 0 && jumps_with_flips > 0, "{passes} passes");
}

#[test]
fn a_jump_reports_the_move_and_each_stone_that_turned() {
    // White jumps a1-c3: the Black stones on b2, b4 and d3 turn, the one on e5 stays.
    let mut a = pos("7/7/4o2/1o5/3o3/1o5/x6 x 0 1");
    let step = a.parse_step("a1-c3").unwrap();
    assert_eq!(step, Step::new(Square::new(0, 0), Square::new(2, 2)));
    assert_eq!(a.parse_step("a1c3"), Ok(step));
    let mut fx = Effects::new();
    let before = a.clone();
    let undo = a.make_reporting(step, &mut fx);
    let sq = |t: &str| before.variant().geometry.parse_square(t).unwrap();
    let turned = |t: &str| Effect::SideChanged {
        side: Side::White,
        kind: 0,
        square: sq(t),
    };
    assert_eq!(
        fx.as_slice(),
        &[
            Effect::Moved {
                side: Side::White,
                kind: 0,
                from: sq("a1"),
                to: sq("c3"),
            },
            turned("b2"),
            turned("d3"),
            turned("b4"),
        ]
    );
    assert_eq!(a.to_text(), "7/7/4o2/1x5/2xx3/1x5/7 o 1 1");
    assert_eq!(a.clock(), 1, "a jump counts towards the draw");
    a.unmake(step, undo);
    assert_eq!(a, before);
    // A clone is reported as a stone placed; it restarts the count.
    let mut b = pos("7/7/7/7/7/1o5/x6 x 5 3");
    let clone = b.parse_step("b1").unwrap();
    assert_eq!(clone, Step::drop(0, sq("b1")));
    assert_eq!(
        b.parse_step("a1-b1"),
        Ok(clone),
        "from a neighbour: the clone"
    );
    b.make_reporting(clone, &mut fx);
    assert_eq!(
        fx.as_slice(),
        &[
            Effect::Placed {
                side: Side::White,
                kind: 0,
                square: sq("b1"),
            },
            turned("b2"),
        ]
    );
    assert_eq!(b.to_text(), "7/7/7/7/7/1x5/xx5 o 0 3");
    // Texts it refuses.
    let s = Ataxx::start();
    for bad in [
        "d4", "a7", "g7-e7", "a1-c3", "a7-d4", "pass", "x", "a7-c5-e3",
    ] {
        assert!(s.parse_step(bad).is_err(), "{bad}");
    }
    assert_eq!(s.parse_step("a7-c5").map(|s| s.kind), Ok(StepKind::Move));
    assert_eq!(s.step_text(Step::PASS), "pass");
    assert_eq!(s.step_text(s.parse_step("b6").unwrap()), "b6");
    assert_eq!(s.step_text(s.parse_step("g1e3").unwrap()), "g1-e3");
}

#[test]
fn each_end_with_its_outcome_and_reason() {
    let play = |text: &str, step: &str| {
        let mut a = pos(text);
        assert_eq!(a.outcome(), None, "{text}");
        let s = a.parse_step(step).unwrap();
        a.make(s);
        (a.outcome(), a.end_reason(), a)
    };
    // The board is full: White fills the last square and turns two stones (30 - 19).
    let full = "xxxxxxx/ooooooo/xxxxxxx/ooooooo/xxxxxxx/ooooooo/xxxxxx1 x 0 1";
    let (o, r, a) = play(full, "g1");
    assert_eq!((o, r), (Some(Outcome::Win(Side::White)), BOARD_FULL));
    assert_eq!((a.stones(Side::White), a.stones(Side::Black)), (30, 19));
    assert!(steps_of(&a).is_empty());
    assert_eq!(a.without_steps(), (Outcome::Win(Side::White), BOARD_FULL));
    // Full and level: a draw.
    let (o, r, _) = play(
        "xxxxxxx/ooooooo/xxxxxxx/ooooooo/oxxxxxx/-oooooo/ooooox1 x 0 1",
        "g1",
    );
    assert_eq!((o, r), (Some(Outcome::Draw), BOARD_FULL));
    // A side has no stones: Black turns White's last one.
    let (o, r, _) = play("7/7/7/7/7/1o5/x6 o 0 1", "a2");
    assert_eq!((o, r), (Some(Outcome::Win(Side::Black)), NO_STONES));
    // Neither side can move: White clones to b1; the square left empty, d4, is out of
    // everyone's reach, walled in by blocked squares.
    let walled = "------o/-------/-------/---1---/-------/-------/x1----- x 0 1";
    let (o, r, a) = play(walled, "b1");
    assert_eq!((o, r), (Some(Outcome::Win(Side::White)), NO_MOVES));
    assert!(a.empty() != 0);
    // 100 half-moves without a clone: a jump at 99 draws; a clone at 99 does not.
    let (o, r, a) = play("x5o/7/7/7/7/7/o5x x 99 60", "a7-c5");
    assert_eq!((o, r), (Some(Outcome::Draw), NO_CLONE));
    assert_eq!(a.clock(), 100);
    let (o, _, a) = play("x5o/7/7/7/7/7/o5x x 99 60", "b6");
    assert_eq!((o, a.clock()), (None, 0));
    // A pass counts too: Black's forced pass at 99 draws.
    let (o, r, _) = play("7/7/7/7/xxx4/xxx4/oxx4 o 99 60", "pass");
    assert_eq!((o, r), (Some(Outcome::Draw), NO_CLONE));
    // A position read already over is over (and says why).
    let over = pos("7/7/7/7/7/7/x6 o 0 1");
    assert_eq!(over.outcome(), Some(Outcome::Win(Side::White)));
    assert_eq!(over.end_reason(), NO_STONES);
    // A game layer sees the same ends, and the pass as a turn of its own.
    let variant = VARIANT.clone();
    let mut game =
        cohort_rules::Game::new(cohort_rules::Position::parse(&variant, walled).unwrap());
    game.play_text("b1").unwrap();
    assert_eq!(game.result(), Some((Outcome::Win(Side::White), NO_MOVES)));
    let mut game = cohort_rules::Game::new(
        cohort_rules::Position::parse(&variant, "7/7/7/7/xxx4/xxx4/oxx4 o 0 1").unwrap(),
    );
    game.play_text("pass").unwrap();
    assert_eq!(game.position().side_to_move(), Side::White);
    assert_eq!(game.result(), None);
}

#[test]
fn the_engine_beats_random_play() {
    cohort_rules::register(&FAMILY);
    let variant = cohort_rules::builtin("ataxx").expect("a registered family's variant");
    let mut engine = EngineAgent::new(&variant);
    let limits = |seed| Limits {
        time: None,
        nodes: Some(2_000),
        seed,
        threads: 1,
        clock: None,
    };
    let mut engine_wins = 0;
    for game in 0..4u64 {
        let engine_white = game % 2 == 0;
        let (l, r) = (limits(7 + game), limits(42 + game));
        let record = if engine_white {
            play_game(variant.start(), &mut engine, &l, &mut RandomAgent, &r, 300)
        } else {
            play_game(variant.start(), &mut RandomAgent, &l, &mut engine, &r, 300)
        };
        assert!(record.illegal.is_none(), "{:?}", record.illegal);
        let won = if engine_white { "1-0" } else { "0-1" };
        if record.result == won {
            engine_wins += 1;
            assert!(
                [
                    "the board is full",
                    "a side has no stones",
                    "neither side can move"
                ]
                .contains(&record.reason.as_str()),
                "the family's own end: {}",
                record.reason
            );
        }
    }
    assert_eq!(
        engine_wins, 4,
        "the engine wins every game against random play"
    );
}

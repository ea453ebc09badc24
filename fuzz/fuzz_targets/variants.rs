//! Fuzz the variant loader: any text is either refused with a VariantError or loads into
//! variants that then never panic and keep their invariants: the start position prints and
//! re-parses to itself; it generates, makes and unmakes steps (divide at depth 2, or at
//! depth 1 when the start has more than 256 steps, to bound the work), the divide adding up
//! to perft and leaving the position as it was; and a few turns of steps picked at random
//! (seeded by the input) play, every step legal, made and unmade back to the same hash,
//! the incremental hash equal to the recomputed one, every position between turns printing
//! and re-parsing to itself.
#![no_main]

use cohort_rules::Rules;
use std::sync::{Arc, OnceLock};

use cohort_rules::{builtin_variants, parse_variants, perft, Position, StepList, Variant};
use libfuzzer_sys::fuzz_target;

fn known() -> &'static [Arc<Variant>] {
    static V: OnceLock<Vec<Arc<Variant>>> = OnceLock::new();
    V.get_or_init(builtin_variants)
}

/// A small deterministic generator (xorshift64*), seeded by the input.
struct Rng(u64);

impl Rng {
    fn new(data: &[u8]) -> Rng {
        let seed = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        });
        Rng(seed | 1)
    }
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as usize % n
    }
}

fn reparses(v: &Arc<Variant>, pos: &Position) {
    let printed = pos.to_text();
    let again = Position::parse(v, &printed).expect("a printed position re-parses");
    assert_eq!(again.to_text(), printed);
    assert_eq!(again.hash(), pos.hash(), "{printed}");
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(variants) = parse_variants("fuzz.ini", &text, known()) else {
        return;
    };
    let mut rng = Rng::new(data);
    for v in variants {
        let mut pos = v.start();
        reparses(&v, &pos);
        let (before_text, before_hash) = (pos.to_text(), pos.hash());
        // Divide: per first step, the perft below it; the sum is perft of the whole.
        let depth = if pos.count_steps() > 256 { 1 } else { 2 };
        let parts = perft::divide(&mut pos, depth);
        let total: u64 = parts.iter().map(|&(_, n)| n).sum();
        assert_eq!(total, perft::perft(&mut pos, depth), "divide adds up to perft");
        assert_eq!(parts.len() as u64, pos.count_steps(), "a divide line per step");
        assert_eq!((pos.to_text(), pos.hash()), (before_text, before_hash), "restored");
        // A few turns of random legal steps (at most 4 turns and 64 steps).
        let mut list = StepList::new();
        let (mut turns, mut steps) = (0, 0);
        while turns < 4 && steps < 64 && pos.outcome().is_none() {
            pos.legal_steps(&mut list);
            assert_eq!(list.len() as u64, pos.count_steps(), "listed = counted");
            if list.is_empty() {
                break;
            }
            let step = list.iter().copied().nth(rng.below(list.len())).unwrap();
            assert!(pos.is_legal(step), "{}", pos.step_text(step));
            let side = pos.side_to_move();
            let before = pos.hash();
            let undo = pos.make(step);
            assert_eq!(pos.hash(), pos.compute_hash(), "incremental hash");
            pos.unmake(step, undo);
            assert_eq!(pos.hash(), before, "unmake restores the hash");
            pos.make(step);
            steps += 1;
            if pos.side_to_move() != side {
                turns += 1;
                reparses(&v, &pos);
            }
        }
    }
});

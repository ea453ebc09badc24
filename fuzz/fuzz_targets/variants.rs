//! Fuzz the variant loader: any text is either refused with a VariantError or loads into
//! variants that then never panic: the start position generates, makes and unmakes steps
//! (divide at depth 2), prints and re-parses, and a few random turns play.
#![no_main]

use std::sync::{Arc, OnceLock};

use cohort_rules::{builtin_variants, parse_variants, perft, StepList, Variant};
use libfuzzer_sys::fuzz_target;

fn known() -> &'static [Arc<Variant>] {
    static V: OnceLock<Vec<Arc<Variant>>> = OnceLock::new();
    V.get_or_init(builtin_variants)
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(variants) = parse_variants("fuzz.ini", &text, known()) else {
        return;
    };
    for v in variants {
        let mut pos = v.start();
        let printed = pos.to_text();
        let again = cohort_rules::Position::parse(&v, &printed).expect("the start re-parses");
        assert_eq!(again.to_text(), printed);
        // Bounded work: divide at depth 1, then walk a short game taking the first steps.
        let _ = perft::divide(&mut pos, 1);
        let mut list = StepList::new();
        for _ in 0..40 {
            pos.legal_steps(&mut list);
            let Some(&step) = list.iter().next() else { break };
            let before = pos.hash();
            let undo = pos.make(step);
            assert_eq!(pos.hash(), pos.compute_hash(), "incremental hash");
            pos.unmake(step, undo);
            assert_eq!(pos.hash(), before);
            pos.make(step);
        }
    }
});

//! Fuzz the position and step parsers: any input is either rejected with an error or
//! accepted as something that prints and re-parses to itself. Never a panic.
//!
//! Input: a built-in variant's id, a newline, then position text, optionally followed by
//! '|' and a turn to apply to it (`chess\n<position>|e2-e4`). The variant is named, not
//! picked by index, so a seed keeps opening its variant when the built-in list changes; an
//! input whose first line names no built-in variant is skipped. The seeds in
//! fuzz/corpus-seed/parsers name every built-in variant.
#![no_main]

use cohort_rules::Rules;
use std::sync::{Arc, OnceLock};

use cohort_rules::{builtin_variants, Position, Variant};
use libfuzzer_sys::fuzz_target;

fn variants() -> &'static [Arc<Variant>] {
    static V: OnceLock<Vec<Arc<Variant>>> = OnceLock::new();
    V.get_or_init(builtin_variants)
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Some((id, rest)) = text.split_once('\n') else {
        return;
    };
    let Some(v) = variants().iter().find(|v| v.id == id) else {
        return;
    };
    // Position text, then optionally '|' and a turn to apply to it.
    let (pos_text, turn) = match rest.split_once('|') {
        Some((p, t)) => (p, Some(t)),
        None => (rest, None),
    };
    let mut pos = match Position::parse(v, pos_text) {
        Ok(p) => p,
        Err(_) => v.start(),
    };
    // What parses prints as something that parses to the same position.
    let printed = pos.to_text();
    let again = Position::parse(v, &printed).expect("a printed position parses");
    assert_eq!(again.to_text(), printed);
    assert_eq!(again.hash(), pos.hash());
    if let Some(turn) = turn {
        let before = pos.to_text();
        let hash = pos.hash();
        match cohort_rules::apply_turn(&mut pos, turn) {
            Err(_) => {
                assert_eq!(pos.to_text(), before, "a refused turn changes nothing");
                assert_eq!(pos.hash(), hash);
            }
            Ok(_) => {
                // An applied turn leaves a position that prints and re-parses to itself.
                assert_eq!(pos.hash(), pos.compute_hash(), "incremental hash");
                let printed = pos.to_text();
                let again = Position::parse(v, &printed).expect("a position after a turn parses");
                assert_eq!(again.to_text(), printed);
            }
        }
        for word in turn.split_whitespace() {
            // A step that parses prints back as text that parses to the same step.
            if let Ok(step) = pos.parse_step(word) {
                let printed = pos.step_text(step);
                assert_eq!(pos.parse_step(&printed), Ok(step), "{word} -> {printed}");
            }
        }
    }
});

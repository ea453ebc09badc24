//! Fuzz the position and step parsers: any input is either rejected with an error or
//! accepted as something that prints and re-parses to itself. Never a panic.
#![no_main]

use std::sync::{Arc, OnceLock};

use cohort_rules::{builtin_variants, Position, Variant};
use libfuzzer_sys::fuzz_target;

fn variants() -> &'static [Arc<Variant>] {
    static V: OnceLock<Vec<Arc<Variant>>> = OnceLock::new();
    V.get_or_init(builtin_variants)
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let v = &variants()[selector as usize % variants().len()];
    let text = String::from_utf8_lossy(rest);
    // Position text, then optionally '|' and a turn to apply to it.
    let (pos_text, turn) = match text.split_once('|') {
        Some((p, t)) => (p.to_string(), Some(t.to_string())),
        None => (text.to_string(), None),
    };
    let mut pos = match Position::parse(v, &pos_text) {
        Ok(p) => p,
        Err(_) => v.start(),
    };
    let printed = pos.to_text();
    let again = Position::parse(v, &printed).expect("a printed position parses");
    assert_eq!(again.to_text(), printed);
    assert_eq!(again.hash(), pos.hash());
    if let Some(turn) = turn {
        let before = pos.to_text();
        let hash = pos.hash();
        if pos.apply_turn(&turn).is_err() {
            assert_eq!(pos.to_text(), before, "a refused turn changes nothing");
            assert_eq!(pos.hash(), hash);
        }
        for word in turn.split_whitespace() {
            let _ = pos.parse_step(word);
        }
    }
});

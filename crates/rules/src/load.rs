//! Variants loaded for play. The data model (variant/) reads a variant file and knows no
//! family; the family that plays a variant reads its setup here, so a file whose setup its
//! family cannot read is refused at load, on the setup's line.

use std::sync::{Arc, LazyLock, Mutex};

use crate::family::Position;
use crate::interface::Rules;
use crate::registry::{self, FamilyEntry};
use crate::variant::{
    builtin_unchecked, parse_variants_with, warnings_with, SetupFacts, Variant, VariantError,
};

impl Variant {
    /// The start position, on the variant's family (its setup was read at load).
    pub fn start(self: &Arc<Self>) -> Position {
        Position::parse(self, &self.setup).expect("setup validated at load")
    }
}

/// Reads a setup as the variant's family does.
fn check_setup(variant: &Arc<Variant>) -> Result<(), String> {
    Position::parse(variant, &variant.setup)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Parse a variant file. `known` are variants it may name as `base` (for example the
/// built-ins). Every variant's setup is read by its family.
pub fn parse_variants(
    file: &str,
    text: &str,
    known: &[Arc<Variant>],
) -> Result<Vec<Arc<Variant>>, VariantError> {
    parse_variants_with(file, text, known, &check_setup)
}

/// All built-in variants, in file order, each setup read by its family once, then those of
/// the registered families (registry.rs).
pub fn builtin_variants() -> Vec<Arc<Variant>> {
    static CHECKED: LazyLock<Vec<Arc<Variant>>> = LazyLock::new(|| {
        let all = builtin_unchecked();
        for v in &all {
            if let Err(e) = check_setup(v) {
                panic!("built-in variant {}: setup: {e}", v.id);
            }
        }
        all
    });
    let mut all = CHECKED.clone();
    all.extend(registry::registered_variants());
    all
}

/// Settings that load but make no sense together, or do nothing: (file, line, field, why).
pub fn variant_warnings(file: &str, text: &str, known: &[Arc<Variant>]) -> Vec<VariantError> {
    warnings_with(file, text, known, &check_setup, &|v| {
        let start = v.start();
        let mut kinds_on_board = 0u64;
        start.for_each_unit(|u| kinds_on_board |= 1 << u.kind);
        SetupFacts {
            kinds_on_board,
            over: start.outcome().is_some(),
            no_step: start.outcome().is_none() && start.count_steps() == 0,
        }
    })
}

/// Register a family from outside this crate (a second registration of the same name
/// changes nothing). Its variant files are read now: a bad file is a bug of the family
/// crate, and panics here.
pub fn register(entry: &'static FamilyEntry) {
    // One registration at a time, whole: a second caller waits, then finds it done. (A
    // family's `parse` must not register, or it would wait on itself.)
    static REGISTERING: Mutex<()> = Mutex::new(());
    let _one = REGISTERING.lock().unwrap_or_else(|e| e.into_inner());
    if registry::family(entry.name).is_some() {
        return;
    }
    // Listed before its files are read: their setups are read by the family itself.
    registry::add(entry);
    let mut variants = Vec::new();
    for (file, text) in entry.variant_files {
        match parse_variants(file, text, &builtin_variants()) {
            Ok(v) => variants.extend(v),
            Err(e) => panic!("family {}: {e}", entry.name),
        }
    }
    registry::set_variants(entry.name, variants);
}

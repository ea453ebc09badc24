//! Families registered from outside this crate. A family crate describes itself in a
//! `FamilyEntry` (its name, its variant files, how it reads a position); the one list of
//! families (crates/families) registers each entry once at start-up, and from then on its
//! variants are built in everywhere: `builtin_variants`, `Variant::start`, `Position::parse`.

use std::sync::{Arc, Mutex, RwLock};

use crate::outside::OutsideGame;
use crate::unit_board::PositionError;
use crate::variant::Variant;

/// A game family written outside the rules crate.
pub struct FamilyEntry {
    /// The name its variants give in their `family` field.
    pub name: &'static str,
    /// Its built-in variant files: (file name, text).
    pub variant_files: &'static [(&'static str, &'static str)],
    /// Reads a position string of one of its variants.
    pub parse: fn(&Arc<Variant>, &str) -> Result<OutsideGame, PositionError>,
}

/// The registered families and the variants of their files, parsed at registration.
static REGISTERED: RwLock<Vec<(&'static FamilyEntry, Vec<Arc<Variant>>)>> = RwLock::new(Vec::new());

/// Register a family (a second registration of the same name changes nothing). Its
/// variant files are read now: a bad file is a bug of the family crate, and panics here.
pub fn register(entry: &'static FamilyEntry) {
    // One registration at a time, whole: a second caller waits, then finds it done. (A
    // family's `parse` must not register, or it would wait on itself.)
    static REGISTERING: Mutex<()> = Mutex::new(());
    let _one = REGISTERING.lock().unwrap_or_else(|e| e.into_inner());
    if family(entry.name).is_some() {
        return;
    }
    // The entry is listed before its files are read: their setups are read by it.
    REGISTERED
        .write()
        .expect("the registry lock")
        .push((entry, Vec::new()));
    let mut variants = Vec::new();
    for (file, text) in entry.variant_files {
        let known = crate::builtin_variants();
        match crate::parse_variants(file, text, &known) {
            Ok(v) => variants.extend(v),
            Err(e) => panic!("family {}: {e}", entry.name),
        }
    }
    let mut all = REGISTERED.write().expect("the registry lock");
    if let Some(slot) = all.iter_mut().find(|(e, _)| e.name == entry.name) {
        slot.1 = variants;
    }
}

/// The registered family of this name.
pub fn family(name: &str) -> Option<&'static FamilyEntry> {
    REGISTERED
        .read()
        .expect("the registry lock")
        .iter()
        .find(|(e, _)| e.name == name)
        .map(|(e, _)| *e)
}

/// The names of the registered families, in registration order.
pub fn family_names() -> Vec<&'static str> {
    let all = REGISTERED.read().expect("the registry lock");
    all.iter().map(|(e, _)| e.name).collect()
}

/// The built-in variants of the registered families, in registration order.
pub(crate) fn registered_variants() -> Vec<Arc<Variant>> {
    let all = REGISTERED.read().expect("the registry lock");
    all.iter().flat_map(|(_, v)| v.iter().cloned()).collect()
}

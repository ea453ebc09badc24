//! Families registered from outside this crate. A family crate describes itself in a
//! `FamilyEntry` (its name, its variant files, how it reads a position); the one list of
//! families (crates/families) registers each entry once at start-up (`crate::register`,
//! load.rs), and from then on its variants are built in everywhere: `builtin_variants`,
//! `Variant::start`, `Position::parse`. This module only keeps the list.

use std::sync::{Arc, RwLock};

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

/// List a family, its variants not read yet (`crate::register` reads them and calls
/// `set_variants`).
pub(crate) fn add(entry: &'static FamilyEntry) {
    REGISTERED
        .write()
        .expect("the registry lock")
        .push((entry, Vec::new()));
}

/// The variants of a listed family's files.
pub(crate) fn set_variants(name: &str, variants: Vec<Arc<Variant>>) {
    let mut all = REGISTERED.write().expect("the registry lock");
    if let Some(slot) = all.iter_mut().find(|(e, _)| e.name == name) {
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

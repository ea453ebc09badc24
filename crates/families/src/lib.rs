//! The one list of game families written outside the rules crate. Each family crate
//! describes itself in a `cohort_rules::FamilyEntry`; `register` hands every one of them to
//! the rules crate's registry, after which its variants are built in everywhere: the
//! command line (perft, match, analyze, play, replay, serve), the server and the web.
//! Adding a family is one line here and its crate in the workspace (docs/architecture.md,
//! "Adding a game family").

/// Every family from outside the rules crate.
pub fn families() -> [&'static cohort_rules::FamilyEntry; 2] {
    [&cohort_breakthrough::FAMILY, &cohort_ataxx::FAMILY]
}

/// Register every family (once; later calls change nothing).
pub fn register() {
    for family in families() {
        cohort_rules::register(family);
    }
}

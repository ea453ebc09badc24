//! The JSON the pages and the API show of any position: the board view, side names, group
//! colours, steps as data and results in words. Written once in the cohort-view crate
//! (crates/view), which the WebAssembly module shares, so that a board drawn from the
//! module's view and one drawn from the server's show the same.

pub use cohort_view::*;

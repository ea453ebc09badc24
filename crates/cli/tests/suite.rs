//! Every integration test of cohort-cli in one binary (one link instead of one per
//! file: the test command's build time is dominated by linking test binaries). Each file
//! stays a module of its own; `cargo test -p cohort-cli --test suite <module>::` runs one.

mod analyze;
mod balance;
mod cli;
mod records;

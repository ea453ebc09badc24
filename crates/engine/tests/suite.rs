//! Every integration test of cohort-engine in one binary (one link instead of one per
//! file: the test command's build time is dominated by linking test binaries). Each file
//! stays a module of its own; `cargo test -p cohort-engine --test suite <module>::` runs one.

mod agents;
mod tactics;

//! Every integration test of cohort-server in one binary (one link instead of one per
//! file: the test command's build time is dominated by linking test binaries). Each file
//! stays a module of its own; `cargo test -p cohort-server --test suite <module>::` runs one.
//! memory.rs, security_memory.rs measure this process's memory and so stay binaries of their own.

mod accounts;
mod analysis;
mod api;
mod body_errors;
mod budgets;
mod chat;
mod clocks;
mod common;
mod custom;
mod errors;
mod events;
mod fair_ai;
mod instances;
mod jobs;
mod offers;
mod quick;
mod records;
mod saved_analysis;
mod scheduler;
mod security;
mod sockets;
mod storage;
mod tournaments;
mod view_data;

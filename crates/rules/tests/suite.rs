//! Every integration test of cohort-rules in one binary (one link instead of one per
//! file: the test command's build time is dominated by linking test binaries). Each file
//! stays a module of its own; `cargo test -p cohort-rules --test suite <module>::` runs one.

mod checkers;
mod chess;
mod chessma;
mod chessma_diagram;
mod chessma_fifty_moves;
mod chessma_roundtrip;
mod command;
mod common;
mod describe;
mod effects;
mod fusion;
mod game;
mod lifeform;
mod limits;
mod movement;
mod perft_testdata;
mod position_errors;
mod properties;
mod refusal;

//! The generic unit view (`Position`) of the games that run on cores of their own (FIDE
//! chess, Chessma 84): kept in step with the core for the interface, the notation and
//! `Game`. The engine and perft search the cores themselves (`FideGame`, `ChessmaGame`).

mod chess;
mod chessma;

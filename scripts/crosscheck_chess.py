#!/usr/bin/env python3
"""Cross-check `cohort perft --divide` for chess against python-chess on random positions.

Positions come from random play from the start (a seeded generator, so runs repeat);
for each, every first move's perft count at the given depth must agree.
Usage: scripts/crosscheck_chess.py [--positions 1000] [--depth 3] [--seed 1] [--cohort PATH]
Prints one line per mismatch and a summary line 'N passed, M failed'; exit status 1 on any
mismatch.
"""
import argparse
import random
import subprocess
import sys

import chess


def py_perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += py_perft(board, depth - 1)
        board.pop()
    return total


def py_divide(board, depth):
    out = {}
    for move in board.legal_moves:
        board.push(move)
        out[move.uci()] = py_perft(board, depth - 1) if depth > 1 else 1
        board.pop()
    return out


def to_uci(step):
    """Our step text (e2-e4, e7xd8=Q) in UCI form (e2e4, e7d8q)."""
    s = step.replace("-", "").replace("x", "")
    if "=" in s:
        s, piece = s.split("=")
        s += piece.lower()
    return s


def cohort_divide(cohort, fen, depth):
    out = subprocess.run(
        [cohort, "perft", "--variant", "chess", "--position", fen, "--depth", str(depth), "--divide"],
        capture_output=True, text=True, check=True,
    ).stdout.split("\n")
    lines = [l for l in out if l.strip()]
    total = int(lines[-1])
    rows = {}
    for line in lines[:-1]:
        step, count = line.split()
        rows[to_uci(step)] = int(count)
    return rows, total


def random_position(rng):
    board = chess.Board()
    for _ in range(rng.randrange(0, 120)):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over(claim_draw=False):
            break
        # Prefer captures, promotions and castling now and then, so positions get varied.
        special = [m for m in moves if board.is_capture(m) or m.promotion or board.is_castling(m)]
        board.push(rng.choice(special if special and rng.random() < 0.3 else moves))
    return board


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cohort", default="target/release/cohort")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    passed = failed = 0
    for i in range(args.positions):
        board = random_position(rng)
        fen = board.fen(en_passant="fen")
        # Perft ignores draw rules (NOTATION.md): compare move trees even in drawn positions.
        theirs = py_divide(board, args.depth)
        ours, total = cohort_divide(args.cohort, fen, args.depth)
        ok = ours == theirs and total == sum(theirs.values())
        if not ok:
            diff = sorted(set(ours.items()) ^ set(theirs.items()))
            print(f"MISMATCH {fen}: {diff[:6]}")
        passed += ok
        failed += not ok
        if (i + 1) % 100 == 0:
            print(f"... {i + 1} positions checked", file=sys.stderr)
    print(f"crosscheck: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

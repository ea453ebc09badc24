#!/usr/bin/env python3
"""python-chess's UCI client plays full games against `cohort uci`.

The engine plays one side (alternating colours) at a short movetime; python-chess plays the
other with random legal moves (seeded). Every bestmove must be legal (python-chess raises
otherwise) and the protocol must never fail. Prints 'N passed, M failed'.
Usage: scripts/uci_games.py [--games 10] [--movetime 0.03] [--cohort PATH]
"""
import argparse
import random
import sys

import chess
import chess.engine


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--movetime", type=float, default=0.03)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--cohort", default="target/release/cohort")
    args = ap.parse_args()
    rng = random.Random(7)
    passed = failed = 0
    engine = chess.engine.SimpleEngine.popen_uci([args.cohort, "uci"])
    try:
        assert engine.id.get("name") == "Cohort", engine.id
        for g in range(args.games):
            board = chess.Board()
            engine_colour = chess.WHITE if g % 2 == 0 else chess.BLACK
            try:
                while not board.is_game_over(claim_draw=True) and board.ply() < args.max_plies:
                    if board.turn == engine_colour:
                        result = engine.play(board, chess.engine.Limit(time=args.movetime), game=g)
                        if result.move is None or result.move not in board.legal_moves:
                            raise RuntimeError(f"illegal or missing bestmove {result.move} in {board.fen()}")
                        board.push(result.move)
                    else:
                        board.push(rng.choice(list(board.legal_moves)))
                outcome = board.outcome(claim_draw=True)
                print(f"game {g + 1}: {board.ply()} plies, engine {'white' if engine_colour else 'black'}, "
                      f"result {board.result(claim_draw=True)} ({outcome.termination.name if outcome else 'ply cap'})")
                passed += 1
            except Exception as e:  # a protocol or legality error fails this game
                print(f"game {g + 1}: FAILED: {e!r}")
                failed += 1
    finally:
        engine.quit()
    print(f"uci games: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

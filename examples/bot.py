#!/usr/bin/env python3
"""A bot that speaks Cohort's engine protocol (docs/protocol.md) in a few lines.

It plays random turns, taking a capture whenever it can, and knows no rules itself: it asks a
`cohort engine` child for the legal steps (`steps`) after every step it picks. Try it:

    cohort match --variant micro-chieftain --a "cmd:python3 examples/bot.py" --b engine --games 2
    cohort bot --server http://127.0.0.1:8080 --game <id> --token <token> -- python3 examples/bot.py

The `cohort` binary is $COHORT_BIN, else target/release/cohort of this repository, else the
one on PATH. $BOT_SEED makes its choices repeatable.
"""
import os
import random
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
built = os.path.join(here, "..", "target", "release", "cohort")
cohort = os.environ.get("COHORT_BIN") or (built if os.path.exists(built) else "cohort")
rules = subprocess.Popen([cohort, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
random.seed(os.environ.get("BOT_SEED"))


def say(line):
    print(line, flush=True)


def ask(*lines):
    """Send lines to the rules engine; its answers up to the `ready` that `isready` brings."""
    rules.stdin.write("".join(line + "\n" for line in lines) + "isready\n")
    rules.stdin.flush()
    answers = []
    while (line := rules.stdout.readline()) and line.strip() != "ready":
        answers.append(line.strip())
    return answers


start, played = "startpos", []
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cmd, args = words[0], words[1:]
    if cmd == "cohort":
        say("id name random capturer (examples/bot.py)")
        say("ready")
    elif cmd == "isready":
        say("ready")
    elif cmd in ("variant", "position"):
        answers = ask(line.strip())
        for answer in answers:  # `variant <id> <name>`, or an `error` line: pass it on
            say(answer)
        if cmd == "position" and not any(a.startswith("error") for a in answers):
            cut = args.index("steps") if "steps" in args else len(args)
            start, played = " ".join(args[:cut]), args[cut + 1:]
    elif cmd == "go":
        turn = []
        while True:
            legal = ask(f"position {start} steps {' '.join(played + turn)}", "steps")[-1].split()[1:]
            if not legal:  # the game is over
                break
            captures = [s for s in legal if "x" in s]
            moves = [s for s in legal if s != "end"]
            step = random.choice(captures or (["end"] if "end" in legal and random.random() < 0.5 else moves or legal))
            turn.append(step)
            show = ask(f"position {start} steps {' '.join(played + turn)}", "show")[-1].split()
            if step == "end" or show[show.index("turnstart") + 1] == "true" or show[show.index("result") + 1] != "*":
                break
        say("bestturn " + " ".join(turn))
    elif cmd == "stop":
        pass
    elif cmd == "quit":
        break
    else:
        say(f"error unknown command '{cmd}'")
rules.stdin.write("quit\n")
rules.stdin.close()
rules.wait()

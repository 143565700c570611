"""Speed of the play, whole games and tables of the other games of the rules, beside
the two-player engine in the same process.

- ``play --game``: one decision, 2,000 draws of the other seats' cards, the rest of the
  play by the lookahead; baseline: the two-player engine's lookahead advice, 2,000
  draws (``play --policy lookahead``).
- ``simulate --game``: whole games a second, every seat by the hand policy and the
  lookahead; baseline: the two-player engine's games (expert throws, lookahead play).
- ``discard --game --others hand``: one hand, 2,000 sampled deals of the other seats.
- ``table --game five-card``: the whole table, into a temp dir.

Compile is excluded (each is run once first); the crib-by-rank tables of the hand
policy are built once a process (their cost is printed). Run from the repository
root::

    .venv/bin/python benchmarks/bench_game_play.py
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import crib_analyze as ca
from crib_analyze.crib.any_game_cribs import crib_tables

GAMES = 400
ADVICE = {
    "three": ("dealer", "5C 9D KS 2H", "4D", "7H 3S"),
    "four": ("right", "7C KD 2S 3S", "9H", "5H 4C"),
    "five": ("left", "5C 9D KS 2H", "4D", ""),
    "five-card": ("pone", "5C 9D KS", "4D", ""),
}


def timed(run: object) -> float:
    t = time.perf_counter()
    run()  # type: ignore[operator]
    return time.perf_counter() - t


def main() -> None:
    t = time.perf_counter()
    crib_tables((1,))
    crib_tables((2,))
    crib_tables((1, 2))
    print(f"crib-by-rank tables (once a process): {time.perf_counter() - t:.1f} s")

    def base_advice() -> None:
        ca.advise_play("pone", "7C 8D 2C", "5H", played="3D 10S", policy="lookahead")

    base_advice()
    base = timed(base_advice)
    print(f"baseline advice (two players, lookahead, 2,000 draws): {base:.3f} s")
    print("| game | seat | seconds a decision | x baseline |")
    for game, (seat, hand, starter, played) in ADVICE.items():

        def advice(g: str = game, s: str = seat, h: str = hand, c: str = starter,
                   p: str = played) -> None:  # fmt: skip
            ca.advise_play(s, h, c, played=p, game=g)

        advice()
        sec = timed(advice)
        print(f"| {game} | {seat} | {sec:.3f} | {sec / base:.1f} |")

    ca.simulate(20, seed=1, play_policy="lookahead")
    base_games = GAMES / timed(lambda: ca.simulate(GAMES, seed=2, play_policy="lookahead"))
    print(f"baseline games (two players, expert throws, lookahead): {base_games:.0f} games/s")
    print("| game | games/s | x baseline |")
    for game in ca.games().game:
        ca.simulate(8, seed=1, game=game)
        n = GAMES // 4 if game == "canadian-doubles" else GAMES
        rate = n / timed(lambda g=game, k=n: ca.simulate(k, seed=2, game=g))
        print(f"| {game} | {rate:.0f} | {rate / base_games:.2f} |")

    print("| game | seat | discard --others hand, seconds |")
    for game, seat, hand in [
        ("three", "dealer", "5H 6S 4D JC QH"),
        ("five", "left", "5H 6S 4D JC QH"),
        ("canadian-doubles", "dealer", "5H 6S 4D JC QH 5C 7D 8D 9S KH"),
    ]:
        ca.analyze(hand, game=game, seat=seat, others="hand", samples=20)
        sec = timed(lambda h=hand, g=game, s=seat: ca.analyze(h, game=g, seat=s, others="hand"))
        print(f"| {game} | {seat} | {sec:.3f} |")

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "five.parquet"
        ca.generate_table(out, game="five-card")  # compile
        sec = timed(lambda: ca.generate_table(out, game="five-card"))
        print(f"table --game five-card: {sec:.1f} s (1,344,590 rows)")
    print("reproduce: .venv/bin/python benchmarks/bench_game_play.py")


if __name__ == "__main__":
    main()

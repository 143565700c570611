"""Strength in every game (issue 35, item 5): duplicate whole games, new players against
the baseline (the hand policy's throws, the lookahead's play).

For each game, one side plays the new way and the others the baseline. Game g's first
dealer is ``g % P`` and the P games of a rotation group are dealt the same packs, deal
by deal (:mod:`crib_analyze.board.table_game_kernels`), so the new side sits in every
seat of the same cards: a duplicate match. With identical players each group is a
permutation and every side wins exactly its share (tested), so any departure from the
fair share is the new side's doing. The new side's share of wins is given with its
standard error over the rotation groups, and its points a deal by source (the heels,
the play, the hands, the crib) less the baseline players' mean.

Three comparisons per game, to separate the parts:

* **throws**: the game's expert model (``--throw-policy expert``) against the hand
  policy, both playing the lookahead;
* **play**: the solver (40 draws a decision) against the lookahead, both throwing by
  the hand policy (two, three and five players each for themselves: the solver's
  tables; five players' first cards by the lookahead, too many hidden to solve; it is
  far slower);
* **both**: the expert's throws and the solver's play together.

``--reverse`` measures the throws the other way round: one side throwing by the hand
policy among seats that throw by the expert model (which throws better, whoever the
others are).

Target (issue 35): the new players win significantly more in every game, by more than
3 s.e.

Run from the repository root::

    .venv/bin/python benchmarks/bench_game_players.py [--quick] [--game NAME ...]
        [--only throws|play|both ...] [--games N] [--seed N] [--jokers N]
        [--throw-fives] [--lowball]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from crib_analyze.artifacts.game_models import game_model
from crib_analyze.board import table_game_kernels as tgk
from crib_analyze.board.table_games import THROW_MODELS, sides_of, table_deal
from crib_analyze.play.table_play_kernels import LOWBALL_CODES, POLICY_CODES
from crib_analyze.rules import GAMES, game
from crib_analyze.settings import JOKER_MODEL_GAMES

from common import reproduce_command

SEED = 35
SOURCES = ("heels", "play", "hands", "crib")
# (name, new throws, new play, games at full size): the baseline is hand + lookahead
COMPARISONS = {
    "throws": ("expert", "lookahead", 30_000),
    "play": ("hand", "solver", 900),
    "both": ("expert", "solver", 900),
}
SOLVER_GAMES = ("five-dealt", "five-card", "three", "three-dealer-six", "five")


def match(
    name: str,
    throws: str,
    play: str,
    games: int,
    seed: int,
    jokers: int = 0,
    base_throws: str = "hand",
    throw_fives: bool = False,
    lowball: bool = False,
) -> dict[str, object]:
    """The new side's (the side of player 0) record against the baseline in ``games``
    whole games (a multiple of the players: whole rotation groups), with ``jokers`` in
    the pack (and throw fives, lowball: the first side to the target loses); the
    baseline seats throw by ``base_throws``."""
    rules = game(name, jokers=jokers, throw_fives=throw_fives, lowball=lowball)
    if "expert" in (throws, base_throws) and game_model(rules) is None:
        raise SystemExit(f"{name} with {jokers} jokers has no expert model to measure")
    p = rules.players
    games -= games % p
    sides = sides_of(rules)
    new = sides == sides[0]
    codes = LOWBALL_CODES if lowball else POLICY_CODES  # lowball: each for the fewest
    table = table_deal(rules, codes["lookahead"])._replace(
        policies=np.where(new, codes[play], codes["lookahead"]).astype(np.int64),
        throws=np.where(new, THROW_MODELS.index(throws), THROW_MODELS.index(base_throws)).astype(
            np.int64
        ),
    )
    n_sides = int(sides.max()) + 1
    start = time.perf_counter()
    results, _, _, by_player = tgk.play_table_games(
        games, seed, 0, table, np.zeros(n_sides, np.int64), rules.pone_start, -1, False
    )
    seconds = time.perf_counter() - start
    first = results[:, 0] == sides[0]  # the new side first to the target
    won = (~first if lowball else first).reshape(-1, p).mean(axis=1)  # by rotation group
    deals = results[:, 3].sum()
    per_new = by_player[:, new, :].sum(axis=(0, 1)) / (deals * new.sum())
    per_base = by_player[:, ~new, :].sum(axis=(0, 1)) / (deals * (~new).sum())
    points = dict(zip(SOURCES, (per_new - per_base).tolist(), strict=False))  # no penalty here
    return {
        "game": name, "games": games, "throws": throws, "play": play,
        "win": float(won.mean()), "win_se": float(won.std(ddof=1) / np.sqrt(len(won))),
        "fair": 1 / n_sides, "points": points,
        "seconds": seconds,
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the games")
    parser.add_argument("--game", action="append", help="only these games")
    parser.add_argument("--only", choices=tuple(COMPARISONS), action="append")
    parser.add_argument("--games", type=int, help="games a comparison (default: its own)")
    parser.add_argument(
        "--reverse", action="store_true",
        help="throws the other way round: the hand policy's seat among expert seats",
    )  # fmt: skip
    parser.add_argument(
        "--seed", type=int, default=SEED,
        help=f"the packs' seed (default {SEED}; another gives games independent of it)",
    )  # fmt: skip
    parser.add_argument(
        "--jokers", type=int, default=0, help="jokers in the pack (default games: those "
        "whose joker models ship, the standard one)",
    )  # fmt: skip
    parser.add_argument("--throw-fives", action="store_true", help="the throw fives variant")
    parser.add_argument(
        "--lowball", action="store_true",
        help="loser's cribbage (two sides only: the first to the target loses)",
    )  # fmt: skip
    args = parser.parse_args()
    default = JOKER_MODEL_GAMES if args.jokers else [g for g in GAMES if g != "standard"]
    names = args.game or default
    if args.lowball:  # a game of lowball has two sides (the rules name no loser of three)
        names = [n for n in names if len(set(game(n).teams)) == 2]
    match("three", "expert", "lookahead", 6, SEED)  # compile before timing
    head = f"{'game':18s} {'new':18s} {'games':>6s} {'win':>7s} {'fair':>6s} {'gain':>6s} "
    print(head + f"{'s.e.':>5s} {'z':>5s}  points a deal vs baseline (heels play hands crib) secs")
    for name in names:
        for label, (throws, play, full) in COMPARISONS.items():
            if args.only and label not in args.only:
                continue
            if play == "solver" and name not in SOLVER_GAMES:
                continue
            n = args.games or (max(full // 10, 60) if args.quick else full)
            base = "hand"
            if args.reverse:  # the other way round: which of the two throws better
                if label != "throws":
                    continue
                throws, base = "hand", "expert"
            r = match(
                name, throws, play, n, args.seed, args.jokers, base, args.throw_fives,
                args.lowball,
            )  # fmt: skip
            gain = r["win"] - r["fair"]  # type: ignore[operator]
            z = gain / r["win_se"] if r["win_se"] else float("nan")  # type: ignore[operator]
            pts = " ".join(f"{v:+.3f}" for v in r["points"].values())  # type: ignore[union-attr]
            shown = name + (f"+{args.jokers}jk" if args.jokers else "")
            shown += ("+5s" if args.throw_fives else "") + ("+low" if args.lowball else "")
            print(f"{shown:18s} {label + ' ' + throws + '+' + play:18s} {r['games']:6d} "
                  f"{r['win']:7.4f} {r['fair']:6.3f} {gain:+6.3f} {r['win_se']:5.3f} {z:5.1f}  "
                  f"{pts}  {r['seconds']:.0f}", flush=True)  # fmt: skip
    print("reproduce:", reproduce_command("bench_game_players.py"))


if __name__ == "__main__":
    main()

"""The card that wins at a table of two sides and under a variant (``play --score`` with
``--game`` or a variant), and what it stands on, each beside a baseline in the same
process:

* **a variant's board made on its first use**: the deals simulated and every position
  solved (with each half of the deals, for the error), for each variant, against the
  plain standard game's board of as many deals made the same way (the board of back ten
  is swept until nothing moves: ``board/signed_dp_kernels.py``);
* **one answer**: ``table_play_odds`` for a position of the play (2,000 draws, each
  weighed by the throws), against the standard game's own ``play_odds`` (its reading of
  the opponent, no draws) at the same position;
* **the hand policy's hand mean**: the starters grouped by rank and by suit, against
  every starter scored (the kernel before 2026-12-05), on random hands;
* **the game played on where there is no board** (five players, three under back ten):
  three players without a variant valued both ways on the same draws, the board of
  three against every draw's game played on to its end (time, the best card, the
  largest gap in the chances), then the two games that have no board.

Run from the repository root (``--deals`` 200000 is the size made on first use)::

    .venv/bin/python benchmarks/bench_table_play_odds.py [--deals N]
        [--only boards|answer|mean|onward]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from common import SEED, reproduce_command

VARIANTS = {
    "throw fives": {"throw_fives": True},
    "zero penalty": {"penalty": "zero"},
    "back ten": {"penalty": "back-ten"},
    "one joker": {"jokers": 1},
    "lowball": {"lowball": True},
}


def boards(deals: int) -> None:
    from crib_analyze.board.table_boards import _build_board
    from crib_analyze.rules import game

    def made(rules) -> tuple[float, dict]:  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        _, provenance = _build_board(rules, deals, SEED, "lookahead", None, None, None)
        return time.perf_counter() - start, provenance

    made(game("standard"))  # compile the plain route
    base, _ = made(game("standard"))
    print(f"boards of {deals:,} deals; the plain game's: {base:.1f} s")
    print(f"{'variant':<14} {'s':>7} {'x plain':>8} {'first dealer':>13} {'rms error':>10}")
    for name, kw in VARIANTS.items():
        made(game("standard", **kw)) if name in ("back ten", "one joker") else None  # compile
        seconds, prov = made(game("standard", **kw))
        print(f"{name:<14} {seconds:>7.1f} {seconds / base:>7.1f}x "
              f"{prov['first_dealer_wins']:>13.4f} {prov['win_error']['rms']:>10.5f}")  # fmt: skip


def answer() -> None:
    from crib_analyze.artifacts.board_table import load_board
    from crib_analyze.artifacts.expert_model import load_model
    from crib_analyze.artifacts.game_boards import GameBoard
    from crib_analyze.board import table_play_odds as tpo
    from crib_analyze.board.play_odds import play_odds
    from crib_analyze.play.advice import play_position
    from crib_analyze.play.table_advice import table_position
    from crib_analyze.rules import game

    board = load_board()
    tpo.board_of = lambda rules: (GameBoard("standard", board.values), {})  # the same board
    model = load_model()
    heads = f"{'position':<34} {'table ms':>9} {'standard ms':>12} {'ratio':>6}"
    print(f"{heads}  best (table / standard)")
    for hand, played, score in [("5C 9D KS 2H", "7H", (110, 115)),
                                ("3C 9D KS 2H", "7H", (117, 110)),
                                ("9D KS", "AH 2D 3C 4S AC", (100, 104))]:  # fmt: skip
        at = table_position(game("standard"), "dealer", hand, "4D", played, "")
        pos = play_position("dealer", hand, "4D", (), played)
        for _ in range(2):  # the first compiles
            start = time.perf_counter()
            ours = tpo.table_play_odds(at, score, 2000, SEED)
            mid = time.perf_counter()
            theirs = play_odds(pos, score, model, board)
            end = time.perf_counter()
        mine = at.mine[ours.codes[int(np.argmax(ours.p_win))] % 4]
        std = theirs.cards[int(np.argmax(theirs.p_win))]
        t, s = (mid - start) * 1e3, (end - mid) * 1e3
        name = f"{hand} after {played} at {score[0]}-{score[1]}"
        from crib_analyze.cards import format_card

        print(f"{name:<34} {t:>9.0f} {s:>12.0f} {t / s:>5.0f}x  "
              f"{format_card(mine)} {ours.p_win.max():.3f} / {format_card(std)} "
              f"{theirs.p_win.max():.3f}")  # fmt: skip


def mean() -> None:
    from crib_analyze.crib.any_game_kernels import hand_mean
    from crib_analyze.jit import njit
    from crib_analyze.scoring.any_hand_kernels import wild_show_points

    @njit
    def every_starter(cards: np.ndarray, size: int, unseen: np.ndarray) -> float:
        total = 0
        for s in unseen:
            total += wild_show_points(cards, size, s, False)
        return total / unseen.shape[0]

    @njit
    def loop(fn, hands: np.ndarray, unseen: np.ndarray) -> float:  # type: ignore[no-untyped-def]
        acc = 0.0
        for i in range(hands.shape[0]):
            acc += fn(hands[i], 4, unseen[i])
        return acc

    rng = np.random.default_rng(SEED)
    hands = np.array([rng.choice(52, 6, replace=False) for _ in range(20_000)], np.int64)
    unseen = np.array([[c for c in range(52) if c not in h][:46] for h in hands], np.int64)
    got = [loop(f, hands[:10], unseen[:10]) for f in (hand_mean, every_starter)]  # compile
    assert abs(got[0] - got[1]) < 1e-9
    times = []
    for f in (hand_mean, every_starter):
        start = time.perf_counter()
        loop(f, hands, unseen)
        times.append((time.perf_counter() - start) / len(hands) * 1e6)
    print(f"hand mean, 46 starters: grouped {times[0]:.2f} us, every starter {times[1]:.2f} us, "
          f"{times[1] / times[0]:.1f}x")  # fmt: skip


def onward() -> None:
    from crib_analyze.api import advise_play_rows
    from crib_analyze.board import table_boards
    from crib_analyze.board import table_play_odds as tpo
    from crib_analyze.rules import game as rules_of

    def timed(name: str, hand: str, played: str, score: tuple[int, ...], **kw):  # type: ignore[no-untyped-def]
        game = rules_of(name, **kw)
        advise_play_rows("dealer", hand, "4D", played=played, game=game, score=score,
                         samples=50)  # compile  # fmt: skip
        start = time.perf_counter()
        rows = advise_play_rows("dealer", hand, "4D", played=played, game=game, score=score,
                                samples=2000, seed=SEED)  # fmt: skip
        return time.perf_counter() - start, rows

    print(f"{'three, 2,000 draws':<26} {'board s':>8} {'played on s':>12} {'ratio':>6} "
          f"{'best':>10} {'largest gap':>12} {'its s.e.':>9}")  # fmt: skip
    for score in [(105, 104, 106), (110, 108, 109), (60, 70, 50)]:
        board_s, board = timed("three", "6C 9D KS 2H", "7H 3S", score)
        tpo.has_board = lambda rules: False
        on_s, on = timed("three", "6C 9D KS 2H", "7H 3S", score)
        tpo.has_board = table_boards.has_board
        mine = dict(zip(board["card"].tolist(), board["p_win"].tolist(), strict=True))
        cards, wins, ses = (on[k].tolist() for k in ("card", "p_win", "p_win_se"))
        gaps = [(abs(p - mine[c]), se) for c, p, se in zip(cards, wins, ses, strict=True)]
        gap, se = max(gaps)
        best = f"{board['card'].tolist()[0]}/{on['card'].tolist()[0]}"
        name = "-".join(map(str, score))
        print(f"{name:<26} {board_s:>8.2f} {on_s:>12.2f} {on_s / board_s:>5.1f}x "
              f"{best:>10} {gap:>12.4f} {se:>9.4f}")  # fmt: skip
    for game, hand, played, score, kw in [
        ("three", "6C 9D KS 2H", "7H 3S", (100, 95, 110), {"penalty": "back-ten"}),
        ("five", "6C 9D KS 2H", "7H 3S 2C 4C", (100, 95, 110, 90, 80), {}),
    ]:  # fmt: skip
        seconds, rows = timed(game, hand, played, score, **kw)
        print(f"{game} {'-'.join(map(str, score))} {kw or ''}: {seconds:.2f} s, best "
              f"{rows['card'].tolist()[0]} {rows['p_win'].tolist()[0]:.3f} "
              f"(s.e. {rows['p_win_se'].tolist()[0]:.3f})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000, help="deals a board [20000]")
    parser.add_argument("--only", choices=("boards", "answer", "mean", "onward"))
    args = parser.parse_args()
    if args.only in (None, "mean"):
        mean()
    if args.only in (None, "answer"):
        answer()
    if args.only in (None, "onward"):
        onward()
    if args.only in (None, "boards"):
        boards(args.deals)
    print("reproduce:", reproduce_command("bench_table_play_odds.py"))


if __name__ == "__main__":
    main()

"""A hand's discard ranking as plain numpy columns, shared by DataFrames and renderers.

The command line renders these columns directly (no pandas on its path, so it starts
quickly); :mod:`crib_analyze.frames` wraps the same columns in a DataFrame.

Columns, one row per discard, best first by the ranking key:

=================  =======  ===========================================================
column             dtype    meaning
=================  =======  ===========================================================
rank               int64    1 = best by the sort key
discard            str      the two cards thrown, canonical text
keep               str      the four cards kept
forced             str      throw fives: the fives the rule makes you throw (only then)
hand_mean          float64  exact mean hand points over the 46 unseen starters
hand_min/max       int64    worst / best hand over those starters
hand_sd            float64  standard deviation over those starters
p_need             float64  P(hand >= need) (only when ``need`` is given)
p_hand_zero        float64  with a penalty variant: P(the kept hand scores nothing)
crib_mean          float64  the crib for the chosen role (NaN with no role when the two
                            roles' cribs differ)
crib_se            float64  its standard error (0 for exact models)
p_crib_zero        float64  with a penalty variant: P(the role's crib scores nothing)
penalty            float64  the points the variant moves, expected, from your side
                            (in the net): zero penalty 1, back ten 10 a zero
net                float64  the chosen role's net (only with a role)
peg_own            float64  with the play counted: what the chosen role pegs
peg_opp            float64  what its opponent pegs
peg_net            float64  peg_own - peg_opp
total              float64  net + peg_net: the ranking key by default
loss               float64  points behind the chosen role's best throw (only with a role;
                            in lowball, points above the lowest)
near_tie           bool     within NEAR_TIE_POINTS of the role's best, with another throw
                            also that close: a coin flip (only with a role)
dealer_crib_mean   float64  as dealer: your own crib (the opponent throws as pone)
dealer_crib_se     float64
pone_crib_mean     float64  as pone: the dealer's crib (the opponent throws as dealer)
pone_crib_se       float64
dealer_heels       float64  as dealer: expected heels, 2 x unseen jacks / 46
dealer_net         float64  hand_mean + dealer_crib_mean + dealer_heels (+ dealer_penalty)
pone_net           float64  hand_mean - pone_crib_mean (+ pone_penalty)
dealer_p_crib_zero float64  with a penalty variant, as dealer: P(your crib scores nothing)
dealer_penalty     float64  the points it moves as dealer: -cost x (P(hand 0) + P(crib 0))
pone_p_crib_zero   float64  as pone: P(the dealer's crib scores nothing)
pone_penalty       float64  as pone: -cost x P(hand 0) + cost x P(crib 0)
dealer_peg_own     float64  with the play counted, as dealer: what you peg
dealer_peg_opp     float64  what the pone pegs
dealer_peg_se      float64  standard error of their difference
dealer_total       float64  dealer_net + dealer_peg_own - dealer_peg_opp
pone_peg_own       float64  the same as pone
pone_peg_opp       float64
pone_peg_se        float64
pone_total         float64  pone_net + pone_peg_own - pone_peg_opp
dealer_loss        float64  points behind the dealer's best throw
pone_loss          float64  points behind the pone's best throw
dealer_best        bool     a best throw for the dealer (the one tie rule)
pone_best          bool     a best throw for the pone
points_rank        int64    the rank by points (with ``score``: the ranking above is by
                            the goal, and this says where points alone would put it)
p_win              float64  with ``score``: the chance of winning the game (simulated)
p_win_se           float64  its standard error
p_skunk            float64  the chance of winning by a skunk or more
p_skunked          float64  the chance of losing by a skunk or more
match_points       float64  expected match points, mine minus theirs, under ``scoring``
match_se           float64  its standard error
goal_loss          float64  behind the best throw by the goal (P(win) or match points)
goal_loss_se       float64  its standard error (paired over the shared deals)
verdict            str      with a role: the answer in words on the row it names ("as
                            dealer: throw JC QH, keep 5H 6S 4D 5C: 4.84 points better
                            than 5H QH"; from a score, the throw for the goal and the
                            one that scores more points), empty on the other rows
dealer_verdict     str      with no role: the dealer's answer, on the row it names
pone_verdict       str      the pone's
role               str      dealer, pone or both
opponent           str      the crib's opponent model: expert, random or sampled
model              str      the expert model used ("" for none)
pegging            str      where the pegging values come from ("none" without the play)
=================  =======  ===========================================================

Prefixes name *your* role: ``dealer_*`` is everything as seen when you deal.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from crib_analyze.cards import as_one_joker, format_cards
from crib_analyze.discard.engine import DiscardAnalysis, best_discards, rank_order
from crib_analyze.discard.meta import DiscardMeta, variant_notes
from crib_analyze.discard.penalties import penalty_points
from crib_analyze.discard.reasons import role_reasons, throw_starters
from crib_analyze.discard.verdict import best_and_next, goal_verdict, points_verdict
from crib_analyze.errors import UsageError
from crib_analyze.position import Seat, p_skunk, p_skunked
from crib_analyze.results import Rows
from crib_analyze.rules import FIVE_RANK
from crib_analyze.settings import GOALS, NEAR_TIE_POINTS, NEED, ROLES, SORT_KEYS, TOP, check_choice

if TYPE_CHECKING:  # a position's throws come from the board, above this layer
    from crib_analyze.board.throws import PositionThrows

ROLE_COLUMNS = [
    "crib_mean", "crib_se", "p_crib_zero", "penalty", "net", "peg_own", "peg_opp", "peg_net",
    "total", "loss", "near_tie",
]  # fmt: skip
COLUMNS = [
    "rank",
    "discard",
    "keep",
    "forced",
    "hand_mean",
    "hand_min",
    "hand_max",
    "hand_sd",
    "p_need",
    "p_hand_zero",
    *ROLE_COLUMNS,
    "dealer_crib_mean",
    "dealer_crib_se",
    "pone_crib_mean",
    "pone_crib_se",
    "dealer_heels",
    "dealer_net",
    "pone_net",
    "dealer_p_crib_zero",
    "dealer_penalty",
    "pone_p_crib_zero",
    "pone_penalty",
    "dealer_peg_own",
    "dealer_peg_opp",
    "dealer_peg_se",
    "dealer_total",
    "pone_peg_own",
    "pone_peg_opp",
    "pone_peg_se",
    "pone_total",
    "dealer_loss",
    "pone_loss",
    "dealer_best",
    "pone_best",
    "points_rank",
    "p_win",
    "p_win_se",
    "p_skunk",
    "p_skunked",
    "match_points",
    "match_se",
    "goal_loss",
    "goal_loss_se",
    "verdict",
    "dealer_verdict",
    "pone_verdict",
    "role",
    "opponent",
    "model",
    "pegging",
]
TEXT_COLUMNS = ("discard", "keep", "forced", "role", "opponent", "model", "pegging")


def discard_rows(
    analysis: DiscardAnalysis,
    role: str | None = None,
    need: int | None = None,
    sort: str | None = None,
    top: int | None = None,
    position: PositionThrows | None = None,
    goal: str = "win",
) -> Rows:
    """The ranking of one hand's 15 discards, best first by ``sort`` for ``role`` (the
    dealer's with no role): by default the total with the play counted, else the net.
    ``top`` keeps the best N; with no role and the total or net as the key, the best N
    of each role (rows keep their rank in the dealer's order). With ``position`` (the
    throws valued from a score, for ``role``), rows are ranked by ``goal``: "win" (the
    chance of winning) or "match" (expected match points), and ``points_rank`` keeps
    the points ranking beside it."""
    sort, need, top = _checked(analysis, role, sort, need, top)
    cols, nets, zero = _hand_columns(analysis, need)
    peg = _peg_parts(analysis)
    if sort == "total" and not peg:
        raise UsageError("sort by 'total' needs the play counted (pegging)")
    # a role's value: its total with the play counted, else its net
    value: dict[str, np.ndarray] = {r: nets[r] + peg[r]["net"] if peg else nets[r] for r in ROLES}
    if analysis.lowball:  # loser's cribbage: the fewest points (net or total) is best
        value = {r: -v for r, v in value.items()}
    legal = analysis.legal if analysis.legal is not None else np.ones(len(nets["dealer"]), bool)
    legal = legal & _distinct(analysis)  # two jokers held: each throw once
    if not legal.all():  # throw fives: the best among the throws allowed (each once)
        value = {r: np.where(legal, v, -np.inf) for r, v in value.items()}
    if analysis.legal is not None:
        cols["forced"] = np.array(
            [format_cards([c for c in d if c >> 2 == FIVE_RANK]) for d in analysis.discards],
            dtype=object,
        )
    losses: dict[str, np.ndarray] = {r: value[r].max() - value[r] for r in ROLES}
    cols |= _role_columns(analysis, role, nets, zero, peg, value, losses)
    cols |= _both_columns(analysis, role, nets, peg, value, losses)
    keys = _sort_keys(cols, role, sort)
    order = rank_order([-k for k in keys] if analysis.lowball else keys)
    if position is not None:
        order = _position_columns(cols, position, role, goal, order, value)
    verdicts, reasons = _verdict_columns(cols, value, legal, role, position, goal, analysis)
    order, rank = _kept_rows(order, legal, top, role, sort, value)
    columns = {"rank": rank}
    columns |= {name: cols[name][order] for name in COLUMNS if name in cols}
    forced = sorted({str(f) for f in cols["forced"][legal]} - {""}) if "forced" in cols else []
    meta = DiscardMeta(
        role=role, opponent=analysis.opponent, model=analysis.model, samples=analysis.samples,
        seed=analysis.seed, policy=analysis.policy, need=need, sort=sort, heels=analysis.heels,
        near_tie_points=NEAR_TIE_POINTS, pegging=analysis.pegging, penalty=analysis.penalty,
        throw_fives=analysis.legal is not None, lowball=analysis.lowball, jokers=analysis.jokers,
        hand=analysis.hand, verdicts=verdicts, reasons=reasons, forced=tuple(forced),
        starters=_starters(analysis, legal, need, order), verdict="\n".join(verdicts.values()),
    )  # fmt: skip
    if position is not None:
        meta = replace(
            meta, score=position.score, goal=goal, scoring=position.scoring,
            position_samples=position.samples, position_seed=position.seed,
            position_play=position.play,
        )  # fmt: skip
    return Rows(columns, meta=replace(meta, notes=variant_notes(meta)))


def _distinct(analysis: DiscardAnalysis) -> np.ndarray:
    """(15,) True for each throw but those the same as an earlier one save for which of
    two jokers held it holds (the jokers are the same card: the throw is shown once)."""
    seen: set[tuple[int, ...]] = set()
    out = np.ones(len(analysis.discards), bool)
    for i, d in enumerate(analysis.discards):
        key = as_one_joker(d)
        out[i] = key not in seen
        seen.add(key)
    return out


def _checked(
    analysis: DiscardAnalysis,
    role: str | None,
    sort: str | None,
    need: int | None,
    top: int | None,
) -> tuple[str, int | None, int | None]:
    """The ranking's options checked: the sort key (the role's total when the play is
    counted, else its net), ``need`` and ``top``."""
    if role is not None:
        check_choice("role", role, ROLES)
    if sort is None:
        sort = "total" if analysis.peg_own is not None else "net"
    check_choice("sort key", sort, SORT_KEYS)
    if need is not None:
        need = NEED.check(need)
    if sort == "need" and need is None:
        raise UsageError("`sort` need requires `need` N")
    if top is not None:
        top = TOP.check(top)
    return sort, need, top  # fmt: skip


def _hand_columns(
    analysis: DiscardAnalysis, need: int | None
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The kept hands' columns, each role's net (hand and crib, heels, a penalty
    variant's points) and the penalty's own columns (empty without one)."""
    scores = analysis.hand_scores
    hand_mean = scores.mean(axis=1)
    nets = {
        "dealer": hand_mean + analysis.dealer_crib + analysis.heels,
        "pone": hand_mean - analysis.pone_crib,
    }
    zero: dict[str, np.ndarray] = {}
    if analysis.penalty != "none" and analysis.p_crib_zero is not None:
        p_hand_zero = (scores == 0).mean(axis=1)
        moved = penalty_points(analysis.penalty, p_hand_zero, analysis.p_crib_zero)
        zero = {"p_hand_zero": p_hand_zero}
        for seat in Seat:
            zero[f"{seat.role}_p_crib_zero"] = analysis.p_crib_zero[seat]
            zero[f"{seat.role}_penalty"] = moved[seat]
            nets[seat.role] = nets[seat.role] + moved[seat]
    cols: dict[str, np.ndarray] = {
        "discard": np.array([format_cards(d) for d in analysis.discards], dtype=object),
        "keep": np.array([format_cards(k) for k in analysis.keeps], dtype=object),
        "hand_mean": hand_mean,
        "hand_min": scores.min(axis=1).astype(np.int64),
        "hand_max": scores.max(axis=1).astype(np.int64),
        "hand_sd": scores.std(axis=1),
    }
    if need is not None:
        cols["p_need"] = (scores >= need).mean(axis=1)
    return cols | zero, nets, zero


def _peg_parts(analysis: DiscardAnalysis) -> dict[str, dict[str, np.ndarray]]:
    """Each role's pegging (own, the opponent's, their difference and its s.e.); empty
    when the play is not counted."""
    if analysis.peg_own is None or analysis.peg_opp is None or analysis.peg_se is None:
        return {}
    peg: dict[str, dict[str, np.ndarray]] = {}
    for seat in Seat:  # analysis rows are by seat
        own, opp = analysis.peg_own[seat], analysis.peg_opp[seat]
        peg[seat.role] = {"own": own, "opp": opp, "net": own - opp, "se": analysis.peg_se[seat]}
    return peg


def _role_columns(
    analysis: DiscardAnalysis,
    role: str | None,
    nets: dict[str, np.ndarray],
    zero: dict[str, np.ndarray],
    peg: dict[str, dict[str, np.ndarray]],
    value: dict[str, np.ndarray],
    losses: dict[str, np.ndarray],
) -> dict[str, np.ndarray]:
    """The chosen role's columns (crib, net, pegging, total, loss, near tie); with no role
    the crib alone, when both roles' cribs are the same (NaN otherwise)."""
    dealer_crib, pone_crib = analysis.dealer_crib, analysis.pone_crib
    if role is None:
        if np.array_equal(dealer_crib, pone_crib):
            return {"crib_mean": dealer_crib, "crib_se": analysis.dealer_crib_se}
        nan = np.full(len(dealer_crib), np.nan)
        return {"crib_mean": nan, "crib_se": nan.copy()}
    crib, crib_se = (
        (dealer_crib, analysis.dealer_crib_se)
        if role == "dealer"
        else (pone_crib, analysis.pone_crib_se)
    )
    loss = losses[role]
    close = loss <= NEAR_TIE_POINTS
    cols = {"crib_mean": crib, "crib_se": crib_se, "net": nets[role]}
    if zero:
        cols |= {"p_crib_zero": zero[f"{role}_p_crib_zero"], "penalty": zero[f"{role}_penalty"]}
    if peg:
        cols |= {
            "peg_own": peg[role]["own"],
            "peg_opp": peg[role]["opp"],
            "peg_net": peg[role]["net"],
            "total": nets[role] + peg[role]["net"],  # in points (``value`` is the aim)
        }
    return cols | {"loss": loss, "near_tie": close & (close.sum() > 1)}


def _both_columns(
    analysis: DiscardAnalysis,
    role: str | None,
    nets: dict[str, np.ndarray],
    peg: dict[str, dict[str, np.ndarray]],
    value: dict[str, np.ndarray],
    losses: dict[str, np.ndarray],
) -> dict[str, np.ndarray]:
    """Both roles' columns, as seen from each (``dealer_*`` as dealer, ``pone_*`` as
    pone), each role's best, and what the rows were made from."""
    n = len(nets["dealer"])
    dealer_best, pone_best = best_discards(value["dealer"], value["pone"])
    cols = {
        "dealer_crib_mean": analysis.dealer_crib,
        "dealer_crib_se": analysis.dealer_crib_se,
        "pone_crib_mean": analysis.pone_crib,
        "pone_crib_se": analysis.pone_crib_se,
        "dealer_heels": np.full(n, analysis.heels),
        "dealer_net": nets["dealer"],
        "pone_net": nets["pone"],
    }
    for r in ROLES if peg else ():
        cols |= {
            f"{r}_peg_own": peg[r]["own"],
            f"{r}_peg_opp": peg[r]["opp"],
            f"{r}_peg_se": peg[r]["se"],
            f"{r}_total": nets[r] + peg[r]["net"],
        }
    return cols | {
        "dealer_loss": losses["dealer"],
        "pone_loss": losses["pone"],
        "dealer_best": dealer_best,
        "pone_best": pone_best,
        "role": np.full(n, role or "both", dtype=object),
        "opponent": np.full(n, analysis.opponent, dtype=object),
        "model": np.full(n, analysis.model or "", dtype=object),
        "pegging": np.full(n, analysis.pegging or "none", dtype=object),
    }


def _position_columns(
    cols: dict[str, np.ndarray],
    position: PositionThrows,
    role: str | None,
    goal: str,
    order: np.ndarray,
    value: dict[str, np.ndarray],
) -> np.ndarray:
    """Adds the throws' values from a score to ``cols`` (the points rank beside) and
    returns the order by ``goal``, points breaking ties."""
    if role != position.role:
        raise UsageError("a position is valued for one role: give the same role")
    check_choice("goal", goal, GOALS)
    n = len(order)
    points_rank = np.empty(n, np.int64)
    points_rank[order] = np.arange(1, n + 1)
    by_goal = position.p_win if goal == "win" else position.match_points
    goal_se = position.p_win_diff_se if goal == "win" else position.match_diff_se
    cols |= {
        "points_rank": points_rank,
        "p_win": position.p_win,
        "p_win_se": position.p_win_se,
        "p_skunk": p_skunk(position.outcomes),
        "p_skunked": p_skunked(position.outcomes),
        "match_points": position.match_points,
        "match_se": position.match_se,
        "goal_loss": by_goal.max() - by_goal,
        "goal_loss_se": goal_se,
    }
    return rank_order([by_goal, value[role]])


def _verdict_columns(
    cols: dict[str, np.ndarray],
    value: dict[str, np.ndarray],
    legal: np.ndarray,
    role: str | None,
    position: PositionThrows | None,
    goal: str,
    analysis: DiscardAnalysis,
) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Adds each role's verdict column (the words on the row they name, from
    :mod:`crib_analyze.discard.verdict`) to ``cols``; returns the verdicts and, from
    points, the reasons the best beats the next."""
    n = len(legal)
    discards, keeps = list(cols["discard"]), list(cols["keep"])
    said: list[tuple[str, tuple[str, int]]]
    if position is not None and role is not None:
        by_goal = position.p_win if goal == "win" else position.match_points
        said = [(role, goal_verdict(
            role, position.score, goal, by_goal, value[role], discards, keeps, legal,
            position.play,
        ))]  # fmt: skip
    else:
        roles = [role] if role is not None else list(ROLES)
        said = [
            (r, points_verdict(r, value[r], discards, keeps, legal, analysis.lowball))
            for r in roles
        ]
    verdicts: dict[str, str] = {}
    reasons: dict[str, list[str]] = {}
    for who, (text, row) in said:
        column = np.full(n, "", dtype=object)
        column[row] = text  # on the row it names
        cols["verdict" if role is not None else f"{who}_verdict"] = column
        verdicts[who] = text
        _, runner = best_and_next(value[who], legal)
        if runner is not None and position is None:
            reasons[who] = role_reasons(cols, who, row, runner, analysis.lowball)
    return verdicts, reasons


def _kept_rows(
    order: np.ndarray,
    legal: np.ndarray,
    top: int | None,
    role: str | None,
    sort: str,
    value: dict[str, np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """The rows shown, in order, and their ranks: the legal throws, the best ``top``
    (with no role and the total or net as the key, the best ``top`` of each role)."""
    order = order[legal[order]]
    rank = np.arange(1, len(order) + 1, dtype=np.int64)
    if top is None:
        return order, rank
    keep = np.zeros(len(legal), bool)  # by row of the 15 (``order`` holds legal rows only)
    keep[order[:top]] = True
    if role is None and sort in ("net", "total"):  # the best N of the pone too
        by_pone = rank_order([value["pone"]])
        keep[by_pone[legal[by_pone]][:top]] = True
    return order[keep[order]], rank[keep[order]]


def _starters(
    analysis: DiscardAnalysis, legal: np.ndarray, need: int | None, order: np.ndarray
) -> dict[str, dict[str, str]]:
    """Each throw's starters (by its discard's text): those with which its hand is the
    best of the throws', and with ``need`` those that reach it (a joker cut, "JK",
    among them when the pack holds one)."""
    taken = set(int(c) for c in analysis.hand)
    unseen = [c for c in range(52 + analysis.jokers) if c not in taken]
    per = throw_starters(analysis.hand_scores, unseen, legal, need, -1 if analysis.lowball else 1)
    names = [format_cards(d) for d in analysis.discards]
    return {names[i]: per[i] for i in order}


def _sort_keys(cols: dict[str, np.ndarray], role: str | None, sort: str) -> list[np.ndarray]:
    who = role or "dealer"
    net = cols[f"{who}_total"] if f"{who}_total" in cols else cols[f"{who}_net"]
    if sort in ("net", "total"):
        return [cols[f"{who}_{sort}"]] if sort == "total" else [cols[f"{who}_net"]]
    if sort == "hand":
        return [cols["hand_mean"], net]
    if sort == "crib":
        crib = cols["pone_crib_mean"] if role == "pone" else cols["dealer_crib_mean"]
        return [-crib if role == "pone" else crib, net]
    return [cols["p_need"], net]  # need: the chance of reaching it, then the role's value


def distribution_rows(analysis: DiscardAnalysis, ranked: Rows) -> Rows:
    """The exact distribution of each kept hand's score over the 46 unseen starters, in
    long form: one row per (throw, points 0..29), throws in ``ranked``'s order, with
    the number of starters, the probability and P(hand >= points)."""
    position = {d: i for i, d in enumerate(format_cards(x) for x in analysis.discards)}
    order = [position[d] for d in ranked["discard"]]
    scores = analysis.hand_scores[order]
    counts = np.stack([np.bincount(s, minlength=30)[:30] for s in scores])
    at_least = counts[:, ::-1].cumsum(axis=1)[:, ::-1]
    n_throws, n_points = counts.shape
    total = scores.shape[1]
    columns = {
        "rank": np.repeat(ranked["rank"], n_points),
        "discard": np.repeat(ranked["discard"], n_points),
        "keep": np.repeat(ranked["keep"], n_points),
        "points": np.tile(np.arange(n_points, dtype=np.int64), n_throws),
        "starters": counts.ravel().astype(np.int64),
        "probability": counts.ravel() / total,
        "p_at_least": at_least.ravel() / total,
    }
    meta = ranked.meta if isinstance(ranked.meta, DiscardMeta) else DiscardMeta()
    return Rows(columns, meta=replace(meta, distribution=True))

"""Which card to play now: each legal card's expected pegging differential for the rest
of the play, by simulation, and the card the policy would lay.

The position is rebuilt from the play so far (:mod:`crib_analyze.play.sequence`): the
count, the cards since the restart, whose turn it is, and what the opponent's goes say
about its cards. The opponent's remaining cards are drawn from those the player cannot
see (weighted by the expert model's kept-rank prior, consistent with its goes); after
each candidate card both players play the policy to the end. All candidates meet the
same draws (common random numbers).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from crib_analyze.artifacts.expert_model import ExpertModel, load_model
from crib_analyze.cards import CardLike, CardsLike, parse_card, parse_cards, value_of
from crib_analyze.errors import CardError, UsageError
from crib_analyze.play import play_policy_kernels as pk
from crib_analyze.play.matches import kept_rank_weights, policy_code
from crib_analyze.play.sequence import PLAYERS, PlayError, score_sequence
from crib_analyze.rng_kernels import rng_for
from crib_analyze.settings import DEFAULT_PLAY_POLICY, PLAY_SAMPLES, SEARCH_SAMPLES, check_choice


@dataclass(frozen=True)
class Advice:
    """Per legal card (best first): the mean differential, its standard error, and which
    card the policy lays."""

    cards: list[int]
    value: np.ndarray
    se: np.ndarray
    policy_card: int
    count: int
    samples: int
    policy: str


def advise(
    role: str,
    hand: CardsLike,
    starter: CardLike | None = None,
    discards: CardsLike | None = None,
    played: CardsLike = (),
    policy: str = DEFAULT_PLAY_POLICY,
    samples: int = PLAY_SAMPLES.default,
    seed: int = 0,
    model: ExpertModel | None = None,
) -> Advice:
    """Rank the cards ``role`` can lay now, holding ``hand`` after the play ``played``."""
    check_choice("role", role, PLAYERS)
    code = policy_code(policy)
    if samples < 2:
        raise UsageError(f"samples must be at least 2, got {samples}")
    mine = parse_cards(hand)
    if not 1 <= len(mine) <= 4:
        raise CardError(f"hold one to four cards, got {len(mine)}")
    thrown = parse_cards(discards) if discards is not None else []
    cut = parse_card(starter) if starter is not None else None
    play = score_sequence(played)
    laid = [e for e in play.events if e.card >= 0]
    me = PLAYERS.index(role)
    known = [*mine, *thrown, *([cut] if cut is not None else []), *(e.card for e in laid)]
    if len(set(known)) != len(known):
        raise CardError("a card is given twice (hand, discards, starter and play so far)")
    mine_laid = sum(e.player == role for e in laid)
    if len(mine) + mine_laid != 4:
        raise PlayError(f"you laid {mine_laid} card(s) and hold {len(mine)}: that is not four")
    if play.complete or len(laid) == 8:
        raise PlayError("the play is over")
    if play.turn != me:
        raise PlayError(f"it is the {PLAYERS[play.turn]}'s turn to lay, not yours")
    legal = [c for c in mine if play.count + value_of(c) <= 31]
    if not legal:
        raise PlayError(f"no card of yours fits at {play.count}: say go")
    opponent_left = 4 - sum(e.player != role for e in laid)
    # what the opponent's goes say: at count c it held no card of value <= 31 - c
    gone = 0
    for e in play.events:
        if e.player != role and e.card < 0:
            gone = max(gone, 31 - e.count)
        if e.player == role and e.card >= 0 and "go 1" in e.reasons and e.count < 31:
            gone = max(gone, 31 - e.count)  # nobody could lay after this card
    hands = np.full((2, 4), -1, np.int64)
    hands[me, : len(mine)] = mine
    seq = np.zeros(9, np.int64)
    seq[: len(play.ranks)] = play.ranks
    state = np.array([len(play.ranks), play.count, me], np.int64)
    seen = np.zeros(52, np.bool_)
    for c in known:
        seen[c] = True
    for c in mine:
        seen[c] = False  # the kernel adds the player's own cards itself
    gone_above = np.zeros(2, np.int64)
    gone_above[me] = gone
    weights = kept_rank_weights(model or load_model())
    values = pk.candidate_values(
        hands, me, seq, state, seen, weights, gone_above, code, samples, seed, opponent_left
    )
    slots = [s for s in range(len(mine)) if mine[s] in legal]
    mean = np.nanmean(values[:, slots], axis=0)
    se = np.nanstd(values[:, slots], axis=0, ddof=1) / np.sqrt(samples)
    order = np.argsort(-mean, kind="stable")
    # the policy's own choice: it sees only how many cards the opponent holds, so any
    # unseen cards stand in for them
    stand_in = hands.copy()
    unseen = [c for c in range(52) if not seen[c] and c not in mine]
    stand_in[1 - me, :opponent_left] = unseen[:opponent_left]
    work, fwork, _ = pk.new_workspace()
    choice = pk.choose_slot(
        code, stand_in, me, seq.copy(), state.copy(), seen.copy(), weights,
        gone_above.copy(), SEARCH_SAMPLES.default, rng_for(seed, samples), work[24:64], fwork,
    )  # fmt: skip
    return Advice(
        cards=[mine[slots[i]] for i in order],
        value=mean[order],
        se=se[order],
        policy_card=mine[choice],
        count=play.count,
        samples=samples,
        policy=policy,
    )

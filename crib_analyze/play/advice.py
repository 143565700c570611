"""Which card to play now: each legal card's expected pegging differential for the rest
of the play, and the card the policy would lay.

The position is rebuilt from the play so far (:mod:`crib_analyze.play.sequence`): the
count, the cards since the restart, whose turn it is, and what the opponent's goes say
about its cards.

* With the ``solver`` policy the opponent is *read*
  (:mod:`crib_analyze.play.inference_kernels`): every hand it may hold is weighted by
  its throw, by each card it has laid and by its go's, and for each of them the rest
  of the play is solved exactly; a card's value is the weighted mean. Nothing is
  sampled: the values are exact under that model, and the marked card is the best.
* With the other policies the opponent's remaining cards are drawn from those the
  player cannot see (weighted by the expert model's kept-rank prior, consistent with
  its goes); after each candidate card both players play the policy to the end (the
  ``search`` policy's continuations are played by ``lookahead``). All candidates meet
  the same draws (common random numbers).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from crib_analyze.artifacts.expert_model import ExpertModel, load_model
from crib_analyze.cards import CardLike, CardsLike, parse_card, parse_cards, value_of
from crib_analyze.errors import CardError, UsageError
from crib_analyze.play import inference_kernels as ik
from crib_analyze.play import play_policy_kernels as pk
from crib_analyze.play.card_reasons import card_reasons
from crib_analyze.play.matches import kept_rank_weights, play_reader, policy_code
from crib_analyze.play.sequence import GO, PLAYERS, PlayError, ScoredPlay, score_sequence
from crib_analyze.rng_kernels import rng_for
from crib_analyze.settings import (
    DEFAULT_PLAY_POLICY,
    PLAY_SAMPLES,
    SEARCH_SAMPLES,
    SOLVER_LEAD_SLACK,
    SOLVER_TAU,
    check_choice,
)
from crib_analyze.words import counted


@dataclass(frozen=True)
class Advice:
    """Per legal card (best first): the mean differential, its standard error, and which
    card the policy lays."""

    cards: list[int]
    value: np.ndarray
    se: np.ndarray
    policy_card: int
    count: int
    samples: int  # draws, or the opponent hands solved (solver)
    policy: str
    continuation: str  # how the rest of the play is played after each card
    weighted_by: str  # what the opponent's cards were weighted by
    reasons: dict[int, str] = field(default_factory=dict)  # card -> why, in words


def play_for(played: CardsLike, me: int) -> ScoredPlay:
    """The play so far as the seat ``me`` asking what to lay reads it: where the record
    leaves the turn with the opponent, whose cards are unknown, the opponent could not
    lay (its card would be written), so its go is implied (players write "go" once)."""
    play = score_sequence(played)
    if play.turn != me and not play.complete:
        tokens = [played] if isinstance(played, str) else list(played)
        try:
            implied = score_sequence([*tokens, "go"])
        except PlayError:  # the opponent could lay (a go there is impossible)
            return play
        if implied.turn == me:
            return implied
    return play


@dataclass(frozen=True)
class PlayPosition:
    """A position of the play as the player to lay sees it, checked: its cards (ids),
    the play so far, the legal cards, and the arrays the kernels take (``hands`` (2, 4)
    with the player's own row, ``seq`` the ranks since the reset, ``state`` [n, count,
    turn], ``seen`` the cards it cannot be dealt, ``gone_above`` what the opponent's
    go's rule out)."""

    role: str
    me: int
    mine: list[int]
    thrown: list[int]
    cut: int | None
    play: ScoredPlay
    legal: list[int]
    opponent_left: int
    hands: np.ndarray
    seq: np.ndarray
    state: np.ndarray
    seen: np.ndarray
    gone_above: np.ndarray
    reasons: dict[int, str]

    @property
    def my_laid(self) -> list[int]:
        """The cards the player has laid so far."""
        return [e.card for e in self.play.events if e.card >= 0 and e.player == self.role]


def play_position(
    role: str,
    hand: CardsLike,
    starter: CardLike | None = None,
    discards: CardsLike | None = None,
    played: CardsLike = (),
) -> PlayPosition:
    """The position ``role`` lays from, holding ``hand`` after the play ``played``
    (CardError or PlayError where the cards do not make one)."""
    check_choice("role", role, PLAYERS)
    mine = parse_cards(hand)
    if not 1 <= len(mine) <= 4:
        raise CardError(f"hold one to four cards, got {len(mine)}")
    thrown = parse_cards(discards) if discards is not None else []
    cut = parse_card(starter) if starter is not None else None
    me = PLAYERS.index(role)
    play = play_for(played, me)
    laid = [e for e in play.events if e.card >= 0]
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
    opponent_left = 4 - sum(e.player != role for e in laid)
    unseen_cards = [c for c in range(52) if c not in set(known)]
    why = card_reasons(mine, play.ranks, play.count, unseen_cards, opponent_left) if legal else {}
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
    return PlayPosition(
        role, me, mine, thrown, cut, play, legal, opponent_left, hands, seq, state, seen,
        gone_above, why,
    )  # fmt: skip


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
    policy_code(policy)  # a bad policy is said before bad cards
    return advise_at(play_position(role, hand, starter, discards, played), policy, samples,
                     seed, model)  # fmt: skip


def advise_at(
    pos: PlayPosition,
    policy: str = DEFAULT_PLAY_POLICY,
    samples: int = PLAY_SAMPLES.default,
    seed: int = 0,
    model: ExpertModel | None = None,
) -> Advice:
    """:func:`advise` at a position already made by :func:`play_position`."""
    code = policy_code(policy)
    if samples < 2:
        raise UsageError(f"samples must be at least 2, got {samples}")
    mine, legal, me, seen = pos.mine, pos.legal, pos.me, pos.seen
    if not legal:  # the answer is go: nothing to choose, nothing valued
        return Advice(
            cards=[GO], value=np.array([np.nan]), se=np.array([np.nan]), policy_card=GO,
            count=pos.play.count, samples=0, policy=policy,
            continuation=f"no card of yours fits at {pos.play.count}: say go",
            weighted_by="nothing (no choice to make)",
        )  # fmt: skip
    m = model or load_model()
    if policy == "solver":
        return replace(_solver_advice(pos, seed, m), reasons=pos.reasons)
    weights = kept_rank_weights(m)
    values = pk.candidate_values(
        pos.hands, me, pos.seq, pos.state, seen, weights, pos.gone_above, code, samples, seed,
        pos.opponent_left,
    )  # fmt: skip
    slots = [s for s in range(len(mine)) if mine[s] in legal]
    mean = np.nanmean(values[:, slots], axis=0)
    se = np.nanstd(values[:, slots], axis=0, ddof=1) / np.sqrt(samples)
    order = np.argsort(-mean, kind="stable")
    if policy == "search":  # its choice is its own estimate: the best of these same draws
        choice = slots[int(order[0])]
    else:  # a rule of the cards in view: any unseen cards stand in for the opponent's
        stand_in = pos.hands.copy()
        unseen = [c for c in range(52) if not seen[c] and c not in mine]
        stand_in[1 - me, : pos.opponent_left] = unseen[: pos.opponent_left]
        work, fwork, _ = pk.new_workspace()
        choice = pk.choose_slot(
            code, stand_in, me, pos.seq.copy(), pos.state.copy(), seen.copy(),
            play_reader(m, reads=False), pos.gone_above.copy(), SEARCH_SAMPLES.default,
            rng_for(seed, samples), work[24:64], fwork,
        )  # fmt: skip
    then = "lookahead" if policy == "search" else policy
    return Advice(
        cards=[mine[slots[i]] for i in order],
        value=mean[order],
        se=se[order],
        policy_card=mine[choice],
        count=pos.play.count,
        samples=samples,
        policy=policy,
        continuation=f"the rest of the play simulated {samples:,} times, both playing {then}",
        weighted_by="the expert model's kept ranks, consistent with its go's",
        reasons=pos.reasons,
    )


@dataclass(frozen=True)
class OpponentReading:
    """What the solver makes of the opponent at a position: the reader and its reading
    (``reading[0][me]`` the weights of the opponent's keeps, ``reading[1]`` the ranks
    each has laid), how many of its cards were read and whether its lead was."""

    reader: ik.Reader
    reading: tuple[np.ndarray, ...]
    read: int
    lead_read: bool


def read_opponent(pos: PlayPosition, model: ExpertModel) -> OpponentReading:
    """The solver's reading of the opponent from everything it has shown: its throw (by
    the expert model), each card it has laid and its go's."""
    role, mine, thrown, cut, play = pos.role, pos.mine, pos.thrown, pos.cut, pos.play
    me = pos.me
    opp = 1 - me
    reader = play_reader(model, hands=ik.N_KEEPS)
    reading = pk.new_reading()
    weights, laid = reading[0][me], reading[1]
    kept = np.full((2, 4), -1, np.int64)
    kept[me] = [*mine, *pos.my_laid]
    throws = np.full(4, -1, np.int64)
    throws[2 * me : 2 * me + len(thrown)] = thrown
    pk.start_reading(reader, me, kept, throws, -1 if cut is None else cut, weights)
    rank_weights, keeps, leads = reader.rank_weights, reader.keeps, reader.leads
    no_lead = np.zeros(0, np.int64)
    lead_read = False
    public = np.zeros(13, np.int64)
    if cut is not None:
        public[cut >> 2] += 1
    ranks: list[int] = []
    my_left = 4
    gone_me = 0  # what the opponent knows of my cards from my go's
    read = 0
    first_card = next((e for e in play.events if e.card >= 0), None)
    for e in play.events:
        if e.card < 0:
            if e.player == role:
                gone_me = max(gone_me, 31 - e.count)
            continue
        before = e.count - value_of(e.card)
        if before == 0:
            ranks = []
        if e.player != role:
            round_ranks = np.zeros(16, np.int64)
            round_ranks[: len(ranks)] = ranks
            # the deal's lead, by the pone: read from the solver's own leads if known
            first = e is first_card and opp == 0 and cut is not None and len(leads) > 0
            lead_read |= first
            ik.read_lay(
                weights, keeps, laid[opp], e.card >> 2, round_ranks, len(ranks), before,
                public, gone_me, my_left, rank_weights[opp], SOLVER_TAU.default,
                leads[cut >> 2] if first and cut is not None else no_lead,
                SOLVER_LEAD_SLACK.default,
            )  # fmt: skip
            laid[opp, e.card >> 2] += 1
            read += 1
            if "go 1" in e.reasons and e.count < 31:
                gone_me = max(gone_me, 31 - e.count)  # I could not lay after it
        else:
            my_left -= 1
        public[e.card >> 2] += 1
        ranks.append(e.card >> 2)
        if e.count == 31 or "go 1" in e.reasons:
            ranks = []
    return OpponentReading(reader, reading, read, lead_read)


def _solver_advice(pos: PlayPosition, seed: int, model: ExpertModel) -> Advice:
    """The solver's values: the opponent read from everything it has shown, each hand
    it may hold solved exactly (every live hand: nothing sampled)."""
    r = read_opponent(pos, model)
    reader, reading, read, lead_read = r.reader, r.reading, r.read, r.lead_read
    hands, seq, state, gone_above, mine, legal = (
        pos.hands, pos.seq, pos.state, pos.gone_above, pos.mine, pos.legal
    )  # fmt: skip
    me = pos.me
    solved = pk.solver_values(
        hands, me, seq, state, reader, reading, gone_above, rng_for(seed, 0), ik.N_KEEPS
    )
    if solved == 0:
        raise PlayError("no hand the opponent could hold fits the play so far")
    slots = [s for s in range(len(mine)) if mine[s] in legal]
    mean = np.array([reading[6][s] for s in slots])
    order = np.argsort(-mean, kind="stable")
    laid_text = f"{read} card{'s' if read != 1 else ''} laid" if read else "no card laid yet"
    return Advice(
        cards=[mine[slots[i]] for i in order],
        value=mean[order],
        se=np.zeros(len(slots)),
        policy_card=mine[slots[int(order[0])]],
        count=pos.play.count,
        samples=solved,
        policy="solver",
        continuation=f"the rest of the play solved exactly for each of "
        f"{counted(solved, 'hand')} the opponent may hold",
        weighted_by=(
            f"its throw (the expert model), its play ({laid_text}; "
            + (
                f"its lead by the solver's own leads, slack {SOLVER_LEAD_SLACK.default:g}; "
                if lead_read
                else ""
            )
            + f"a softmax of lookahead values, tau {SOLVER_TAU.default:g}) and its go's"
        ),
    )

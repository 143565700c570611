"""Which card to lay now in any game of the rules (2 to 5 players, partners, the old
five-card game): each legal card valued by the rest of the play, simulated.

The play so far is read by :func:`~crib_analyze.play.sequence.score_table_sequence`
(who laid what, the count, whose turn, who has said go). The other seats' cards are
drawn at random from the cards the player cannot see (a seat that has said go in this
count holds none that fits), the same draws for every card compared, and the rest of
the play is played by :mod:`~crib_analyze.play.table_play_kernels` (every seat by the
lookahead, or the greedy policy), or solved exactly for each draw with every card
known (``policy`` "solver", :mod:`~crib_analyze.play.table_solver_kernels`: perfect
information Monte Carlo, the other seats' cards drawn at random). A card's ``net`` is
its side's points in the rest of the play less the mean of every other side's: the
pegging differential of two players, for any table. In lowball (``rules.lowball``)
every seat lays by the policy's lowball form (the solver: each seat for its fewest) and
the lowest net is best.

**Throw fives** (``rules.throw_fives``): every seat threw its fives to the crib, so the
other seats' cards are drawn from the unseen cards but the fives. A seat dealt more
fives than its throw takes keeps the rest (with five cards and one thrown, about 4% of
seats; with six and two thrown, under 1%): the draws leave that out. **The penalties**
change the shows, not the play: the advice is the same as without them.

**Jokers** (``rules.jokers``): a joker is laid as any rank, chosen when it is laid; it
may repeat a card already in play. The player's joker is valued as each rank that fits
(an option each, over the same draws; the best is the one kept), and every joker in the
rest of the play, the other seats' included, is laid as the rank that serves its seat
best: the solver tries each, lookahead and greedy lay it as the rank they value most
there. The other seats' cards are drawn from the unseen cards and the jokers not in
view.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from crib_analyze.cards import JOKER_IDS, CardLike, CardsLike, parse_cards
from crib_analyze.errors import UsageError
from crib_analyze.play import table_play_kernels as tk
from crib_analyze.play.rules_kernels import card_value, rank_value
from crib_analyze.play.sequence import GO, PlayError, play_tokens, score_table_sequence
from crib_analyze.play.table_solver_kernels import NAMED
from crib_analyze.rules import FIVE_RANK, MAX_COUNT, Rules
from crib_analyze.settings import ANY_GAME_PLAY_POLICIES, PLAY_SAMPLES, SEED, check_choice

SAY_GO = -1  # the option of a player that cannot lay


@dataclass(frozen=True)
class TableAdvice:
    """Each option of the player to lay (a card id, or :data:`SAY_GO`), best first."""

    rules: Rules
    seat: int
    count: int
    options: list[int]
    own: np.ndarray  # the side's mean points in the rest of the play
    others: np.ndarray  # the other sides' mean points, averaged over the sides
    net: np.ndarray  # own - others
    net_se: np.ndarray  # its standard error over the draws
    samples: int
    policy: str
    named: list[int] | None = None  # per option, the rank a joker is laid as (-1: a card)
    codes: list[int] | None = None  # per option, its code (TablePosition.codes)
    position: TablePosition | None = None  # where it was asked


@dataclass(frozen=True)
class TablePosition:
    """A position of the play at any table, as the rollouts read it: ``seat`` to lay
    ``mine`` (card ids, jokers 52 and 53) after the play so far; ``row`` its cards in
    slots, ``codes`` its options (slots; a joker's with the rank named, see
    :func:`_options`; :data:`SAY_GO` when none fits), ``held`` each seat's cards left,
    ``unseen`` the cards the other seats may hold, ``laid`` (N, 4) the card ids each
    seat has laid (a joker laid as 52 + the jokers laid before it), ``thrown`` the
    player's throw as given, ``dead`` the unseen cards no seat holds (the fives thrown
    under throw fives)."""

    rules: Rules
    seat: int
    mine: list[int]
    cut: int
    thrown: list[int]
    row: np.ndarray
    codes: np.ndarray
    named: list[int]
    options: list[int]
    held: np.ndarray
    unseen: np.ndarray
    dead: list[int]
    said_go: np.ndarray
    ranks: list[int]  # the ranks laid since the reset
    count: int
    last: int  # the seat that laid the last card (-1: none yet)
    laid: np.ndarray


def table_position(
    rules: Rules,
    seat: str | int,
    hand: CardsLike,
    starter: CardLike,
    played: CardsLike = "",
    discards: CardsLike = "",
) -> TablePosition:
    """The position of the play ``seat`` lays in, holding ``hand``, after ``played``
    (one clear UsageError or PlayError for a position that cannot be)."""
    s = rules.seat(seat)
    name = rules.seat_names[s]
    jokers = rules.jokers
    mine, cut, thrown = _cards(hand, jokers), _cards([starter], jokers), _cards(discards, jokers)
    play = score_table_sequence(played, rules, None, jokers)
    tokens, wild_at = play_tokens(played, jokers)
    laid_at = [i for i, t in enumerate(tokens) if t != GO]  # the tokens of cards laid, in order
    wild = {k for k, i in enumerate(laid_at) if i in wild_at}  # the jokers among them
    laid_events = [e for e in play.events if e.card != GO]
    laid_cards = [e.card for k, e in enumerate(laid_events) if k not in wild]
    laid = [sum(1 for e in play.events if e.card != GO and e.player == n) for n in rules.seat_names]
    known = [c for c in [*mine, *cut, *thrown] if c not in JOKER_IDS] + laid_cards
    if len(set(known)) != len(known):
        raise UsageError("a card is given twice (your hand, the starter, discards, the play)")
    in_view = sum(c in JOKER_IDS for c in [*mine, *cut, *thrown]) + len(wild)
    if in_view > jokers:
        raise UsageError(f"{in_view} jokers in view: the pack holds {jokers}")
    if play.complete:
        raise PlayError(f"the play of {rules.name} is over: nothing to lay")
    if play.turn != s:
        raise PlayError(f"it is the {rules.seat_names[play.turn]}'s turn, not the {name}'s")
    left = rules.hand_size - laid[s]
    if len(mine) != left:
        raise UsageError(f"the {name} has laid {laid[s]} and holds {left} cards: got {len(mine)}")
    row = np.full(4, -1, np.int64)
    row[: len(mine)] = mine
    options, named = _options(mine, play.count)
    # the cards the other seats may hold: under throw fives, no five (thrown to the crib)
    dead = {c for c in range(52) if c >> 2 == FIVE_RANK} if rules.throw_fives else set()
    free = [j for j in JOKER_IDS if j not in mine][: jokers - in_view]  # jokers not in view
    unseen = np.array([c for c in range(52) if c not in {*known, *dead}] + free, np.int64)
    if len(unseen) < int(sum(rules.hand_size - k for k in laid)) - len(mine):
        raise UsageError("too few unseen cards for the other seats' hands")
    by_seat = np.full((rules.players, 4), -1, np.int64)
    jokers_laid = 0
    for k, e in enumerate(laid_events):
        p = rules.seat_names.index(e.player)
        at = int((by_seat[p] >= 0).sum())
        if k in wild:
            by_seat[p, at] = JOKER_IDS[0] + jokers_laid
            jokers_laid += 1
        else:
            by_seat[p, at] = e.card
    last_card = [e for e in play.events if e.card != GO]
    return TablePosition(
        rules=rules, seat=s, mine=mine, cut=cut[0], thrown=thrown, row=row,
        codes=np.array(options or [SAY_GO], np.int64), named=named, options=options,
        held=np.array([rules.hand_size - k for k in laid], np.int64), unseen=unseen,
        dead=sorted(c for c in dead if c not in known), said_go=np.array(play.said_go, np.bool_),
        ranks=list(play.ranks), count=play.count,
        last=rules.seat_names.index(last_card[-1].player) if last_card else -1, laid=by_seat,
    )  # fmt: skip


def advise_table(
    rules: Rules,
    seat: str | int,
    hand: CardsLike,
    starter: CardLike,
    played: CardsLike = "",
    discards: CardsLike = "",
    samples: int = PLAY_SAMPLES.default,
    seed: int = SEED.default,
    policy: str = ANY_GAME_PLAY_POLICIES[0],
    most_hidden: int | None = None,
    every_name: bool = False,
) -> TableAdvice:
    """Rank what ``seat`` can lay now, holding ``hand``, after ``played``; the solver
    gives way to the lookahead while the other seats hold more than ``most_hidden``
    cards (None: it solves whatever they hold; ``policy`` in the result says which).
    A joker is given as the rank it is best laid as, or with ``every_name`` as every
    rank that fits (for a ranking by other values)."""
    rules.refuse_variants("play advice", ("lowball", "throw", "penalty", "jokers"))
    check_choice("play policy", policy, ANY_GAME_PLAY_POLICIES)
    PLAY_SAMPLES.check(samples)
    SEED.check(seed)
    pos = table_position(rules, seat, hand, starter, played, discards)
    s, jokers, mine = pos.seat, rules.jokers, pos.mine
    row, codes, options, named = pos.row, pos.codes, pos.options, pos.named
    held, unseen = pos.held, pos.unseen
    count, last, said_go = pos.count, pos.last, pos.said_go
    laid_cards = [int(c) for c in pos.laid.ravel() if 0 <= c < 52]
    seen = np.zeros(52 + jokers, np.bool_)  # a joker laid in a rollout is seen there
    seen[[c for c in [pos.cut, *laid_cards] if c not in JOKER_IDS]] = True
    if policy == "solver" and most_hidden is not None and held.sum() - held[s] > most_hidden:
        policy = "lookahead"  # a draw's solve with that many cards hidden takes seconds
    seq = np.zeros(tk.SEQ_SIZE, np.int64)
    seq[: len(pos.ranks)] = pos.ranks
    teams = np.array(rules.teams, np.int64)
    if policy == "solver":
        from crib_analyze.play import table_solver_kernels as ts

        solved = np.zeros(ts.SEQ_SIZE, np.int64)
        solved[: len(pos.ranks)] = pos.ranks
        points = ts.solved_rollouts(
            row, s, held, unseen, said_go, codes, solved, len(pos.ranks), count, last,
            teams, rules.play_once, -1 if rules.lowball else 1, samples, seed,
        )  # fmt: skip
    else:
        codes_of = tk.LOWBALL_CODES if rules.lowball else tk.POLICY_CODES
        policies = np.full(rules.players, codes_of[policy], np.int64)
        points = tk.table_rollouts(
            row, s, held, unseen, said_go, codes, seen, seq, len(pos.ranks), count,
            last, policies, teams, rules.play_once, samples, seed,
        )  # fmt: skip
    sides = sorted(set(rules.teams))
    by_side = np.stack([points[:, :, teams == t].sum(axis=2) for t in sides], axis=2).astype(
        np.float64
    )  # (options, samples, sides)
    mine_side = sides.index(rules.teams[s])
    own = by_side[:, :, mine_side]
    rest = np.delete(by_side, mine_side, axis=2).mean(axis=2)
    net = own - rest
    order = np.argsort(net.mean(axis=1) * (1 if rules.lowball else -1), kind="stable")
    if jokers and options and not every_name:  # a joker's best rank only: the rank it is laid as
        best_rank = next((i for i in order if named[i] >= 0), -1)
        order = np.array([i for i in order if named[i] < 0 or i == best_rank], np.int64)
    se = net.std(axis=1, ddof=1) / np.sqrt(samples)
    return TableAdvice(
        rules=rules,
        seat=s,
        count=count,
        options=[int(mine[codes[i] % NAMED]) if codes[i] >= 0 else SAY_GO for i in order],
        own=own.mean(axis=1)[order],
        others=rest.mean(axis=1)[order],
        net=net.mean(axis=1)[order],
        net_se=se[order],
        samples=samples,
        policy=policy,
        named=[named[i] for i in order] if jokers and options else None,
        codes=[int(codes[i]) for i in order],
        position=pos,
    )


def _cards(cards: CardsLike | list[CardLike], jokers: int) -> list[int]:
    """Card ids, a joker (JK) 52 or 53 when the pack holds them."""
    if not jokers:
        return list(parse_cards(cards))
    from crib_analyze.scoring.jokers import parse_with_jokers

    return parse_with_jokers(cards, jokers)


def _options(mine: list[int], count: int) -> tuple[list[int], list[int]]:
    """(codes, named): each card of ``mine`` that fits at ``count`` (its slot), and a
    joker as each rank that fits (its slot + NAMED * (1 + rank); the first joker only:
    two are the same card in the play); ``named`` the rank of each (-1: a card)."""
    codes: list[int] = []
    named: list[int] = []
    for i, c in enumerate(mine):
        if c in JOKER_IDS:
            if any(d in JOKER_IDS for d in mine[:i]):
                continue
            for r in range(13):
                if count + rank_value(r) <= MAX_COUNT:
                    codes.append(i + NAMED * (1 + r))
                    named.append(r)
        elif count + card_value(c) <= MAX_COUNT:
            codes.append(i)
            named.append(-1)
    return codes, named

"""Plain-Python twins of the kernels, written for obviousness rather than speed.

Cards use the package's encoding (card = 4 * rank + suit, rank 0..12 = A..K,
suit 0..3 = C D H S) but nothing here imports the package's scoring code.
"""

from __future__ import annotations

from itertools import combinations, product

JACK = 10


def rank(card: int) -> int:
    return card // 4


def suit(card: int) -> int:
    return card % 4


def value(card: int) -> int:
    return min(rank(card) + 1, 10)


#: a joker (id 52 or 53) laid in the play as rank r, written JOKER_LAID + 13 * (id - 52) + r:
#: the rules let a joker be any card, so in the play it is laid as any rank
JOKER_LAID = 1000


def laid_rank(card: int) -> int:
    """The rank a card laid counts as: its own, or the one a joker was laid as."""
    return (card - JOKER_LAID) % 13 if card >= JOKER_LAID else rank(card)


def held_card(card: int) -> int:
    """The card of the hand a laid card was: itself, or the joker."""
    return 52 + (card - JOKER_LAID) // 13 if card >= JOKER_LAID else card


def lays_of(card: int, count: int) -> list[int]:
    """The ways to lay ``card`` at ``count`` without passing 31: the card itself, or a
    joker as each rank (ace to king) that fits."""
    if card >= 52:
        return [
            JOKER_LAID + 13 * (card - 52) + r for r in range(13) if count + min(r + 1, 10) <= 31
        ]
    return [card] if count + value(card) <= 31 else []


def naive_breakdown(hand4: list[int], starter: int, crib: bool = False) -> dict[str, int]:
    """Score four cards plus a starter, category by category."""
    cards = [*hand4, starter]
    fifteens = 0
    for size in range(2, 6):
        for combo in combinations(cards, size):
            if sum(value(c) for c in combo) == 15:
                fifteens += 2
    pairs = 0
    for a, b in combinations(cards, 2):
        if rank(a) == rank(b):
            pairs += 2
    runs = 0
    for size in (5, 4, 3):
        count = 0
        for combo in combinations(cards, size):
            ranks = sorted(rank(c) for c in combo)
            if all(ranks[i + 1] == ranks[i] + 1 for i in range(size - 1)):
                count += 1
        if count:
            runs = size * count
            break
    flush = 0  # the hand's cards all of one suit (three in five-card cribbage, else four)
    if len({suit(c) for c in hand4}) == 1:
        if suit(starter) == suit(hand4[0]):
            flush = len(hand4) + 1
        elif not crib:
            flush = len(hand4)
    nobs = 1 if any(rank(c) == JACK and suit(c) == suit(starter) for c in hand4) else 0
    return {"fifteens": fifteens, "pairs": pairs, "runs": runs, "flush": flush, "nobs": nobs}


def naive_score(hand4: list[int], starter: int, crib: bool = False) -> int:
    return sum(naive_breakdown(hand4, starter, crib).values())


def naive_wild_score(hand: list[int], starter: int, crib: bool = False) -> int:
    """The show with jokers (ids 52 and 53) among the hand and the starter: each joker
    any card of the 52, one already there included, the best of every assignment (nobs
    is one point however many jack of the starter's suit there are, as
    :func:`naive_breakdown` counts it)."""
    cards = [*hand, starter]
    where = [i for i, c in enumerate(cards) if c >= 52]
    best = -1
    for assigned in product(range(52), repeat=len(where)):
        five = list(cards)
        for i, c in zip(where, assigned, strict=True):
            five[i] = c
        best = max(best, naive_score(five[:-1], five[-1], crib))
    return best


def discards_of(hand6: list[int]) -> list[tuple[list[int], list[int]]]:
    """(thrown, kept) for the 15 discards, thrown pairs in lexicographic position order."""
    out = []
    for i, j in combinations(range(6), 2):
        thrown = [hand6[i], hand6[j]]
        kept = [c for p, c in enumerate(hand6) if p not in (i, j)]
        out.append((thrown, kept))
    return out


def unseen(cards: list[int]) -> list[int]:
    return [c for c in range(52) if c not in cards]


def naive_hand_scores(hand6: list[int], kept: list[int]) -> list[int]:
    """Hand points of the kept four with every unseen starter, ascending card id."""
    return [naive_score(kept, s) for s in unseen(hand6)]


def naive_zero_chances(hand6: list[int], thrown: list[int]) -> tuple[float, float]:
    """P(the kept four score nothing) over every unseen starter, and P(the crib scores
    nothing) over every completion by the random opponent: each pair of the 46 unseen
    cards, then each starter of the other 44, alike (the rules' show, dealt out)."""
    kept = [c for c in hand6 if c not in thrown]
    rest = unseen(hand6)
    hand = [naive_score(kept, s) == 0 for s in rest]
    crib = [
        naive_score([*thrown, a, b], s, crib=True) == 0
        for a, b in combinations(rest, 2)
        for s in rest
        if s not in (a, b)
    ]
    return sum(hand) / len(hand), sum(crib) / len(crib)


# --- an opponent's throw combined with our cards -------------------------------------------
#
# Written from the model's rules (docs/expert_model.md), not from the kernels:
# the opponent throws ranks (a, b) with probability sum_c W[a, b, c]; among the card
# pairs of those ranks still unseen, each suited pair weighs F[a, b] / 4 and each
# offsuit pair (1 - F[a, b]) / 12 (their full-deck shares), normalised; the starter has
# rank c with probability W[a, b, c] / sum_c W[a, b, c], each unseen card of that rank
# other than the thrown ones equally likely.


def naive_pair_starter_joint(
    hand: list[int], W: list[list[list[float]]], F: list[list[float]]
) -> dict[tuple[int, int, int], float]:
    """{(e1, e2, starter): probability} for an opponent throwing {e1 < e2}."""
    rest = unseen(hand)
    joint: dict[tuple[int, int, int], float] = {}
    pairs_of: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for e1, e2 in combinations(rest, 2):
        key = (min(rank(e1), rank(e2)), max(rank(e1), rank(e2)))
        pairs_of.setdefault(key, []).append((e1, e2))
    for (a, b), pairs in pairs_of.items():
        p_ranks = sum(W[a][b][c] for c in range(13))
        if p_ranks <= 0:
            continue

        def weight(e1: int, e2: int, a: int = a, b: int = b) -> float:
            if a == b:
                return 1.0
            return F[a][b] / 4 if suit(e1) == suit(e2) else (1 - F[a][b]) / 12

        norm = sum(weight(e1, e2) for e1, e2 in pairs)
        even = norm <= 0  # only pairs the model never throws are left: share evenly
        for e1, e2 in pairs:
            p_pair = p_ranks * (1 / len(pairs) if even else weight(e1, e2) / norm)
            for c in range(13):
                starters = [s for s in rest if rank(s) == c and s not in (e1, e2)]
                for s in starters:
                    p = p_pair * (W[a][b][c] / p_ranks) / len(starters)
                    if p:
                        joint[(e1, e2, s)] = p
    return joint


def naive_policy_weights(
    hand: list[int],
    multisets: list[tuple[int, ...]],
    pi: list[list[float]],
    suited: list[list[float]],
) -> tuple[list[list[list[float]]], list[list[float]]]:
    """W[a][b][c] and F[a][b] of an opponent whose six cards are a uniform 6-subset of
    our unseen cards and which throws by a per-multiset policy: a hand of sorted ranks
    m throws positions (i, j) (lexicographic discard d) with probability pi[m][d],
    suited with probability suited[m][d]; the starter is uniform over the 40 cards left."""
    from math import comb

    left = [4] * 13
    for c in hand:
        left[rank(c)] -= 1
    n_unseen = sum(left)
    hands_total = comb(n_unseen, 6)
    positions = list(combinations(range(6), 2))
    mass = [[[0.0] * 13 for _ in range(13)] for _ in range(13)]
    pair_mass = [[0.0] * 13 for _ in range(13)]
    suited_mass = [[0.0] * 13 for _ in range(13)]
    for m, ranks in enumerate(multisets):
        p_hand = 1.0
        for r in set(ranks):
            p_hand *= comb(left[r], ranks.count(r))
        p_hand /= hands_total
        if p_hand == 0:
            continue
        for d, (i, j) in enumerate(positions):
            if pi[m][d] == 0:
                continue
            a, b = ranks[i], ranks[j]
            pair_mass[a][b] += p_hand * pi[m][d]
            suited_mass[a][b] += p_hand * suited[m][d]
            for c in range(13):
                starters_left = left[c] - ranks.count(c)
                mass[a][b][c] += p_hand * pi[m][d] * starters_left / (n_unseen - 6)
    F = [
        [suited_mass[a][b] / pair_mass[a][b] if pair_mass[a][b] > 0 else 0.0 for b in range(13)]
        for a in range(13)
    ]
    return mass, F


def naive_compact_weights(
    hand: list[int], P: list[list[float]], K: list[list[list[float]]]
) -> list[list[list[float]]]:
    """W[a][b][c] of a compact throw model (docs/expert_model.md): the rank pair (a, b)
    has probability proportional to P[a][b] x (card pairs of those ranks still unseen)
    / (card pairs in a full deck); given it, the starter's rank is c in proportion to
    the unseen cards of rank c left after the throw, less the opponent's expected kept
    cards of rank c, K[a][b][c], scaled by the share of that rank still unseen."""
    from math import comb

    left = [4] * 13
    for c in hand:
        left[rank(c)] -= 1
    W = [[[0.0] * 13 for _ in range(13)] for _ in range(13)]
    total = 0.0
    for a in range(13):
        for b in range(a, 13):
            unseen_pairs = comb(left[a], 2) if a == b else left[a] * left[b]
            deck_pairs = 6 if a == b else 16
            p_pair = P[a][b] * unseen_pairs / deck_pairs
            if p_pair <= 0:
                continue
            share = []
            for c in range(13):
                thrown = (c == a) + (c == b)
                available = left[c] - thrown
                kept = K[a][b][c] * available / (4 - thrown) if 4 - thrown > 0 else 0.0
                share.append(max(available - kept, 0.0))
            if sum(share) <= 0:
                continue
            for c in range(13):
                W[a][b][c] = p_pair * share[c] / sum(share)
            total += p_pair
    return [[[w / total for w in row] for row in plane] for plane in W]


def naive_best_response_stats(
    cards: list[list[int]], weight: list[float], value: list[list[float]], tol: float
) -> tuple[list[list[float]], list[list[float]], list[list[list[float]]]]:
    """Raw-hand-weighted throw statistics of each hand's best discards (ties within
    ``tol`` share the hand's weight): rank-pair mass, its suited part, kept ranks."""
    mass = [[0.0] * 13 for _ in range(13)]
    suited_mass = [[0.0] * 13 for _ in range(13)]
    kept = [[[0.0] * 13 for _ in range(13)] for _ in range(13)]
    for hand, w, values in zip(cards, weight, value, strict=True):
        top = max(values)
        best = [d for d, v in enumerate(values) if v >= top - tol]
        for d in best:
            thrown, keep = discards_of(hand)[d]
            a, b = sorted(rank(c) for c in thrown)
            share = w / len(best)
            mass[a][b] += share
            if suit(thrown[0]) == suit(thrown[1]):
                suited_mass[a][b] += share
            for c in keep:
                kept[a][b][rank(c)] += share
    return mass, suited_mass, kept


# --- the play ------------------------------------------------------------------------------
#
# From the rules: the pone leads; players alternate laying cards and announcing the count
# (A = 1, faces 10), never past 31. A player who cannot lay says go and the other lays
# while able. When neither can, whoever laid the last card scores 1 (none extra at 31),
# the count restarts from 0 and the other player leads. 15 -> 2, 31 -> 2, pairs 2/6/12 for
# 2/3/4 of a rank in a row, a run of the latest k >= 3 cards in any order -> k; nothing
# spans a restart; the last card of the play scores 1 (2 for 31, no more).


def naive_lay_points(ranks: list[int], count: int) -> tuple[int, list[str]]:
    """Points and reasons for the last of ``ranks`` (the cards since the restart)."""
    points, why = 0, []
    if count == 15:
        points, why = points + 2, [*why, "fifteen"]
    if count == 31:
        points, why = points + 2, [*why, "31"]
    same = 1
    while same < len(ranks) and ranks[-1 - same] == ranks[-1]:
        same += 1
    if same >= 2:  # every pair among the last cards of a rank: 2, 6, 12 (20, 30 with jokers)
        points += same * (same - 1)
        why.append(
            {2: "pair", 3: "pair royal", 4: "double pair royal", 5: "five of a kind",
             6: "six of a kind"}[same]
        )  # fmt: skip
    for k in range(min(len(ranks), 7), 2, -1):
        last = sorted(ranks[-k:])
        if last == list(range(last[0], last[0] + k)):
            points += k
            why.append(f"run of {k}")
            break
    return points, why


def naive_play(
    pone: list[int], dealer: list[int], choose
) -> list[tuple[int, int, int, int, list[str]]]:
    """Play a deal; ``choose(player, legal_cards, history)`` picks a card. Returns one
    (player, card, count after, points, reasons) per card laid, go and last card included."""
    hands = [list(pone), list(dealer)]
    out: list[tuple[int, int, int, int, list[str]]] = []
    count, ranks, turn, said_go = 0, [], 0, [False, False]
    last_player = None
    while hands[0] or hands[1]:
        legal = [c for c in hands[turn] if count + value(c) <= 31]
        if not legal:
            said_go[turn] = True
            other = 1 - turn
            if said_go[other] or not [c for c in hands[other] if count + value(c) <= 31]:
                # neither can lay: the go point, then a restart; the other side leads
                player, card, cnt, pts, why = out[-1]
                if count < 31:
                    out[-1] = (player, card, cnt, pts + 1, [*why, "go"])
                count, ranks, said_go = 0, [], [False, False]
                turn = 1 - last_player if hands[1 - last_player] else last_player
                continue
            turn = other
            continue
        card = choose(turn, legal, list(out))
        hands[turn].remove(card)
        count += value(card)
        ranks.append(rank(card))
        pts, why = naive_lay_points(ranks, count)
        out.append((turn, card, count, pts, why))
        last_player = turn
        if count == 31:
            count, ranks, said_go = 0, [], [False, False]
            turn = 1 - turn if hands[1 - turn] else turn
            continue
        if not said_go[1 - turn]:
            turn = 1 - turn
    player, card, cnt, pts, why = out[-1]
    if cnt != 31:  # the last card of the play
        out[-1] = (player, card, cnt, pts + 1, [*why, "last card"])
    return out


class _Decision(Exception):
    """Raised by :func:`naive_play_values`'s chooser when the prefix runs out."""

    def __init__(self, player: int, legal: list[int]) -> None:
        self.player, self.legal = player, legal


def _replay(pone: list[int], dealer: list[int], prefix: list[int]):
    """Play ``prefix`` (cards in order) by :func:`naive_play`; the player to lay next
    and its legal cards, or the finished play."""
    it = iter(prefix)

    def choose(player: int, legal: list[int], history: list) -> int:
        card = next(it, None)
        if card is None:
            raise _Decision(player, legal)
        assert card in legal, (card, legal)
        return card

    try:
        return None, naive_play(pone, dealer, choose)
    except _Decision as d:
        return d, None


def naive_play_values(pone: list[int], dealer: list[int], prefix: list[int]) -> dict[int, int]:
    """Perfect play with both hands known, by brute force over every continuation:
    for each card the player to lay after ``prefix`` may lay, its points minus the
    other's for the rest of the play (from the prefix on) when both then maximise
    their own differential."""
    done = len(prefix)

    def value(cards: list[int], me: int) -> int:
        d, out = _replay(pone, dealer, cards)
        if d is None:
            return sum((p if pl == me else -p) for pl, _, _, p, _ in out[done:])
        results = [value([*cards, c], me) for c in d.legal]
        return max(results) if d.player == me else min(results)

    d, _ = _replay(pone, dealer, prefix)
    assert d is not None, "the play is over"
    return {c: value([*prefix, c], d.player) for c in d.legal}


# --- the board: a game to a target, deal by deal ------------------------------------
# From (my score a, theirs b, whether I deal), a deal is one of the given event lists,
# each equally likely: (player, points) in the order scored, player 0 the pone and 1
# the dealer. Whoever first reaches the target wins at once; the loser's score then
# says how: under lines[0] a skunk, under lines[1] a double, under lines[2] a triple.
# Otherwise the next deal starts from the new scores with the deal passing over.


def naive_board(deals: list[list[tuple[int, int]]], target: int, lines: tuple[int, int, int]):
    """f(a, b, i_deal) -> [P(win), P(win skunk), P(double), P(triple), the same four
    losses, expected deals to the end], by top-down recursion."""
    from functools import cache

    def how(loser: int) -> int:
        return sum(loser < line for line in lines)

    @cache
    def f(a: int, b: int, i_deal: bool) -> tuple[float, ...]:
        me = 1 if i_deal else 0
        total = [0.0] * 9
        for events in deals:
            mine, theirs, over = a, b, None
            for player, points in events:
                if player == me:
                    mine += points
                    if mine >= target:
                        over = how(theirs)
                        break
                else:
                    theirs += points
                    if theirs >= target:
                        over = 4 + how(mine)
                        break
            if over is not None:
                total[over] += 1.0
                total[8] += 1.0
            else:
                after = f(mine, theirs, not i_deal)
                for k in range(8):
                    total[k] += after[k]
                total[8] += 1.0 + after[8]
        return tuple(t / len(deals) for t in total)

    return f


# --- the board of three: each for themselves, deal by deal ---------------------------
# From the scores (the dealer's left, the middle seat, the dealer), a deal is one of the
# given event lists, each equally likely: (seat, points) in the order scored. Whoever
# first reaches the target wins at once, with a skunk if another is then under the
# line. Otherwise the next deal starts from the new scores, dealt by the dealer's left.


def naive_three_board(deals: list[list[tuple[int, int]]], target: int, line: int):
    """f(left, middle, dealer) -> [P(left wins), P(middle), P(dealer), the same three with
    a skunk, expected deals to the end], by top-down recursion."""
    from functools import cache

    @cache
    def f(left: int, middle: int, dealer: int) -> tuple[float, ...]:
        total = [0.0] * 7
        for events in deals:
            score = [left, middle, dealer]
            winner = None
            for seat, points in events:
                score[seat] += points
                if score[seat] >= target:
                    winner = seat
                    break
            total[6] += 1.0
            if winner is not None:
                total[winner] += 1.0
                if any(score[o] < line for o in range(3) if o != winner):
                    total[3 + winner] += 1.0
                continue
            # the left deals next: it sits last, the middle seat now left of it
            after = f(score[1], score[2], score[0])
            for was, now in ((0, 2), (1, 0), (2, 1)):
                total[was] += after[now]
                total[3 + was] += after[3 + now]
            total[6] += after[6]
        return tuple(t / len(deals) for t in total)

    return f


# --- second place in the game of three (the continuation game) ---------------------
# When a seat first reaches the target it wins; the deal goes on, and the first of the
# other two to reach the target after it takes second place, in that deal or in the
# deals that follow (the winner still dealt, its points no longer counted). The deal
# passes to the left as before.


def naive_three_second(deals: list[list[tuple[int, int]]], target: int):
    """f(left, middle, dealer) -> [P(left second), P(middle), P(dealer)]: the game by
    top-down recursion until the first win, then the race of the other two solved by
    repeating its equations until they hold (a deal in which neither scores leads back
    round the table to the same scores)."""
    from functools import cache

    def rotated(after: list[float]) -> list[float]:
        # the left deals next: the old middle is the new left, the old dealer the new
        # middle, the old left the new dealer (old seat s is new seat (s + 2) % 3)
        return [after[(s + 2) % 3] for s in range(3)]

    race: dict[tuple[int, int, int, int], list[float]] = {}
    for w in range(3):
        for a in range(target):
            for b in range(target):
                for c in range(target):
                    if (a, b, c)[w] == 0:
                        race[(w, a, b, c)] = [0.0, 0.0, 0.0]

    def race_step(w: int, score0: tuple[int, int, int]) -> list[float]:
        total = [0.0, 0.0, 0.0]
        for events in deals:
            score = list(score0)
            second = None
            for seat, points in events:
                if seat == w:
                    continue
                score[seat] += points
                if score[seat] >= target:
                    second = seat
                    break
            if second is not None:
                total[second] += 1.0
                continue
            after = [score[1], score[2], score[0]]
            after[(w + 2) % 3] = 0  # the winner's score is not counted
            nxt = race[((w + 2) % 3, *after)]
            for s, v in enumerate(rotated(nxt)):
                total[s] += v
        return [t / len(deals) for t in total]

    for _ in range(10_000):
        change = 0.0
        for (w, *score), value in race.items():
            new = race_step(w, tuple(score))
            change = max(change, max(abs(x - y) for x, y in zip(new, value, strict=True)))
            value[:] = new
        if change < 1e-15:
            break
    else:
        raise AssertionError("the race did not settle in 10,000 sweeps")

    @cache
    def f(left: int, middle: int, dealer: int) -> tuple[float, ...]:
        total = [0.0, 0.0, 0.0]
        for events in deals:
            score = [left, middle, dealer]
            winner = second = None
            for seat, points in events:
                if seat == winner:
                    continue
                score[seat] += points
                if score[seat] >= target:
                    if winner is None:
                        winner = seat
                    else:
                        second = seat
                        break
            if second is not None:
                total[second] += 1.0
                continue
            if winner is not None:
                after = [score[1], score[2], score[0]]
                after[(winner + 2) % 3] = 0
                nxt = race[((winner + 2) % 3, *after)]
            else:
                nxt = list(f(score[1], score[2], score[0]))
            for s, v in enumerate(rotated(nxt)):
                total[s] += v
        return tuple(t / len(deals) for t in total)

    return f


def naive_greedy(seat: int, legal: list[int], ranks: list[int], count: int) -> int:
    """A chooser for :func:`naive_table_play`: the card worth most now, the first of
    ties (by :func:`naive_lay_points`)."""
    best, best_card = -1, legal[0]
    for c in legal:
        pts, _ = naive_lay_points([*ranks, laid_rank(c)], count + min(laid_rank(c) + 1, 10))
        if pts > best:
            best, best_card = pts, c
    return best_card


def naive_table_lookahead(
    hands: list[list[int]], seat: int, ranks: list[int], count: int, seen: set[int],
    teams: list[int],
) -> tuple[int, int]:  # fmt: skip
    """The card the lookahead lays at a table, from its description: (the slot of
    ``hands[seat]``, the rank a joker is laid as, else -1); (-1, -1) if none fits.

    ``hands`` per seat, card ids with -1 for cards laid (jokers 52 and 53); ``ranks`` the
    round so far; ``seen`` the cards the seat has seen laid or cut. Each way to lay a card
    (a joker as each rank that fits, ace first) is worth its points now, less the
    expected best reply of the next player who can lay after it (plus it, for a
    partner; nothing when that is the seat itself or nobody). That player holds its k
    cards among those the seat cannot see (four of each rank less those seen and its
    own; jokers aside), each card held with chance min(1, k / cards unseen),
    independently; its reply is its best card's points. The first of equal values wins.
    """
    players = len(hands)

    def fits(card: int, at: int) -> bool:  # a joker can always be laid as an ace
        return (card >= 52 and at < 31) or (0 <= card < 52 and at + value(card) <= 31)

    unseen = [4] * 13
    for c in seen | {c for c in hands[seat] if c >= 0}:
        if c < 52:
            unseen[rank(c)] -= 1
    best, choice = -1e18, (-1, -1)
    for slot, card in enumerate(hands[seat]):
        if card < 0:
            continue
        for r in range(13) if card >= 52 else [rank(card)]:
            after = count + min(r + 1, 10)
            if after > 31:
                continue
            worth = float(naive_lay_points([*ranks, r], after)[0])
            rest = [h if s != seat else [c for i, c in enumerate(h) if i != slot]
                    for s, h in enumerate(hands)]  # fmt: skip
            replier = next(
                (t for t in [(seat + i) % players for i in range(1, players + 1)]
                 if any(fits(c, after) for c in rest[t] if c >= 0)), None,
            )  # fmt: skip
            if replier is not None and replier != seat:
                k = sum(c >= 0 for c in rest[replier])
                chance = min(1.0, k / sum(unseen))
                replies = sorted(
                    (naive_lay_points([*ranks, r, q], after + min(q + 1, 10))[0], q)
                    for q in range(13) if unseen[q] and after + min(q + 1, 10) <= 31
                )[::-1]  # fmt: skip
                expect, none_better = 0.0, 1.0  # E[best] = sum of pts x P(it is the best held)
                for pts, q in replies:
                    holds = 1.0 - (1.0 - chance) ** unseen[q]
                    expect += pts * holds * none_better
                    none_better *= 1.0 - holds
                worth += expect if teams[replier] == teams[seat] else -expect
            if worth > best + 1e-12:
                best, choice = worth, (slot, r if card >= 52 else -1)
    return choice


def naive_least(seat: int, legal: list[int], ranks: list[int], count: int) -> int:
    """A lowball chooser for :func:`naive_table_play`: the card worth least now, the first
    of ties."""
    best, best_card = 99, legal[0]
    for c in legal:
        pts, _ = naive_lay_points([*ranks, laid_rank(c)], count + min(laid_rank(c) + 1, 10))
        if pts < best:
            best, best_card = pts, c
    return best_card


def naive_table_play(
    hands: list[list[int]], choose, once: bool = False
) -> list[tuple[int, int, int, int, list[str]]]:
    """The play round a table of ``len(hands)`` players, written from the rules text.

    The player on the dealer's left (seat 0) lays first and the turn goes left. A player
    who cannot lay without passing 31 says go and sits out the rest of that count. When
    nobody can lay, the last player to lay pegs 1 for the go (31 has already pegged 2),
    the count starts again, and the player to the left of the last one to lay (and
    holding cards) leads. The last card of all pegs 1 (not on 31). With ``once`` (the
    old five-card game) the play ends at the first go or 31. ``choose(seat, legal, ranks,
    count)`` picks a card (``ranks``: those laid since the count started). Returns
    (seat, card, count after, points, reasons) per card."""
    hands = [list(h) for h in hands]
    n = len(hands)
    out: list[tuple[int, int, int, int, list[str]]] = []
    count, ranks, turn, last = 0, [], 0, -1
    sat_out = [False] * n
    ended_early = False
    while any(hands):
        if all(sat_out[s] or not hands[s] for s in range(n)):
            seat, card, cnt, pts, why = out[-1]
            out[-1] = (seat, card, cnt, pts + 1, [*why, "go"])
            if once:
                ended_early = True
                break
            count, ranks, sat_out = 0, [], [False] * n
            turn = (last + 1) % n
            while not hands[turn]:
                turn = (turn + 1) % n
            continue
        if not hands[turn] or sat_out[turn]:
            turn = (turn + 1) % n
            continue
        legal = [x for c in hands[turn] for x in lays_of(c, count)]
        if not legal:
            sat_out[turn] = True  # go
            turn = (turn + 1) % n
            continue
        card = choose(turn, legal, list(ranks), count)
        hands[turn].remove(held_card(card))
        count += min(laid_rank(card) + 1, 10)
        ranks.append(laid_rank(card))
        pts, why = naive_lay_points(ranks, count)
        out.append((turn, card, count, pts, why))
        last = turn
        if count == 31:
            if once:
                ended_early = True
                break
            count, ranks, sat_out = 0, [], [False] * n
            turn = (last + 1) % n
            while any(hands) and not hands[turn]:
                turn = (turn + 1) % n
            continue
        turn = (turn + 1) % n
    seat, card, cnt, pts, why = out[-1]
    if not ended_early and cnt != 31:
        out[-1] = (seat, card, cnt, pts + 1, [*why, "last card"])
    return out


def naive_split(
    cards: list[int],
    keep: int,
    throw: int,
    passes: int,
    own_crib: bool,
    crib_one,
    crib_two,
    lowball: bool = False,
    fives: bool = False,
    jokers: int = 0,
) -> tuple[list[int], list[int], list[int]]:
    """The hand policy's split of ``cards``: the kept hand's mean show over every starter
    the seat cannot see, plus the passed hand's, plus (own crib) or minus the crib's mean
    of the thrown ranks (``crib_one[r]``, ``crib_two[r][q]``); the highest, or in
    ``lowball`` the lowest. Ties: the kept cards dealt earliest (the smallest set of
    positions read as binary digits), then the passed cards dealt latest. With ``fives``
    (throw fives: every five held goes to the crib) the throw holds every five, or
    only fives when there are more than it takes. With ``jokers`` in the pack (ids 52
    and 53: each wild, the best card for the show) a joker may be the starter, and a
    joker thrown is rank 13 of the tables."""
    starters = [c for c in range(52 + jokers) if c not in cards]
    means: dict[tuple[int, ...], float] = {}

    def mean(hand: list[int]) -> float:
        key = tuple(hand)
        if key not in means:
            means[key] = sum(naive_wild_score(hand, s) for s in starters) / len(starters)
        return means[key]

    options = []
    for kept in combinations(range(len(cards)), keep):
        rest = [i for i in range(len(cards)) if i not in kept]
        for passed in combinations(rest, passes):
            thrown = [i for i in rest if i not in passed]
            held_fives = [i for i in range(len(cards)) if rank(cards[i]) == 4]
            if fives and sum(i in thrown for i in held_fives) < min(len(held_fives), throw):
                continue
            v = mean([cards[i] for i in kept])
            if passes:
                v += mean([cards[i] for i in passed])
            ranks = [rank(cards[i]) for i in thrown]
            crib = (
                crib_one[ranks[0]] if throw == 1 else crib_two[ranks[0]][ranks[1]] if throw else 0
            )
            v += crib if own_crib else -crib
            kmask = sum(1 << i for i in kept)
            pmask = sum(1 << i for i in passed)
            options.append((v, kmask, pmask, kept, thrown, passed))
    if lowball:
        options = [(-o[0], *o[1:]) for o in options]
    top = max(o[0] for o in options)
    tied = [o for o in options if o[0] >= top - 1e-9]
    v, _, _, kept, thrown, passed = min(tied, key=lambda o: (o[1], -o[2]))
    return [cards[i] for i in kept], [cards[i] for i in thrown], [cards[i] for i in passed]


def naive_table_game(rules, decks, crib_one, crib_two, sides, start, first_dealer, continuation,
                     choose, lowball=False, tables=None, forced=None, fives=False,
                     penalty="none", jokers=0):  # fmt: skip
    """One whole game of ``rules`` from the rules text, deal by deal from ``decks`` (each
    a shuffled pack): the deal (each seat from the dealer's left its cards in turn, then
    the pack's cards to the crib, then the starter), the throws (:func:`naive_split`),
    heels, the play (:func:`naive_table_play` with ``choose``), the hands from the
    dealer's left, the crib. A side wins the moment it reaches the target; with
    ``continuation`` the rest play on for second place; in ``lowball`` every seat splits
    for the fewest points, and the side reported is the first to the target (the
    loser). ``tables(player, seat)``, if given, is the (one, two) a player throws by in
    that seat (else every player throws by ``crib_one`` and ``crib_two``); ``forced``
    (seat, kept, thrown, passed cards) makes that seat split so in the first deal. ``start``
    each side's points
    (players round the table; ``sides[p]`` player p's side). Returns (winner, second or
    -1, deals, the sides' scores when won, points[seat][source] summed over whole
    deals; sources heels, pegging, hand, crib; the same by player, the player in seat s
    being (dealer + 1 + s) % P: the deal passes to the left). ``fives`` and ``penalty``
    play the variants: each seat's throw takes its fives; a show of nothing gives the
    next player round from its owner who is an opponent 1 ("zero"), or takes 10 from its
    owner ("back-ten", no score below 0): a fifth source, scored right after that
    show. ``jokers`` (ids 52 and 53 in the packs) are wild: a joker counts in each
    show as its best card, is laid as any rank (the ``choose`` picks one of
    :func:`lays_of`), is thrown as rank 13 of the tables, and a joker cut gives the
    dealer heels as a jack does."""
    P = rules.players
    score = list(start)
    points = [[0] * 5 for _ in range(P)]
    by_player = [[0] * 5 for _ in range(P)]
    winner, second, done = -1, -1, set()
    at_win = None
    dealer = first_dealer
    deals = 0
    for deck in decks:
        deals += 1
        side = [sides[(dealer + 1 + s) % P] for s in range(P)]
        pos = 0
        dealt_cards = []
        for s in range(P):
            dealt_cards.append(list(deck[pos : pos + rules.dealt[s]]))
            pos += rules.dealt[s]
        crib = list(deck[pos : pos + rules.crib_from_deck])
        starter = deck[pos + rules.crib_from_deck]
        hands = [[] for _ in range(P)]
        for s in range(P):
            if not rules.dealt[s]:
                continue
            keep = rules.dealt[s] - rules.thrown[s] - rules.passed[s]
            one, two = (crib_one, crib_two) if tables is None else tables((dealer + 1 + s) % P, s)
            if forced is not None and forced[0] == s and deals == 1:  # the first deal's
                kept, thrown, passed = (list(part) for part in forced[1:])
            else:
                kept, thrown, passed = naive_split(
                    dealt_cards[s], keep, rules.thrown[s], rules.passed[s],
                    side[s] == side[P - 1], one, two, lowball, fives, jokers,
                )  # fmt: skip
            hands[s] = kept
            crib += thrown
            if passed:
                mate = next(o for o in range(P) if o != s and side[o] == side[s])
                hands[mate] = passed
        events = []
        if rank(starter) == JACK or starter >= 52:
            events.append((P - 1, 2, 0))
        for seat, _, _, pts, _ in naive_table_play(hands, choose, rules.play_once):
            events.append((seat, pts, 1))
        shows = [(s, naive_wild_score(hands[s], starter), 2) for s in range(P)]
        shows.append((P - 1, naive_wild_score(crib, starter, crib=True), 3))
        for owner, pts, source in shows:
            events.append((owner, pts, source))
            if pts == 0 and penalty == "back-ten":
                events.append((owner, -10, 4))
            elif pts == 0 and penalty == "zero":
                others = [o % P for o in range(owner + 1, owner + P)]
                other = next(o for o in others if side[o] != side[owner])
                events.append((other, 1, 4))
        over = False
        for seat, pts, source in events:
            points[seat][source] += pts
            by_player[(dealer + 1 + seat) % P][source] += pts
            t = side[seat]
            if (winner >= 0 and not continuation) or t in done or second >= 0:
                continue
            score[t] = max(0, score[t] + pts)
            if score[t] >= rules.target:
                done.add(t)
                if winner < 0:
                    winner, at_win = t, list(score)
                else:
                    second = t
        over = (winner >= 0 and not continuation) or second >= 0
        dealer = (dealer + 1) % P
        if over:
            break
    return winner, second, deals, at_win, points, by_player


class _TableDecision(Exception):
    """Raised by :func:`naive_table_value`'s chooser when the prefix runs out."""

    def __init__(self, seat: int, legal: list[int], ranks: list[int], count: int) -> None:
        self.seat, self.legal, self.ranks, self.count = seat, legal, ranks, count


def _table_replay(hands: list[list[int]], prefix: list[int], once: bool):
    """Play ``prefix`` (cards in order) by :func:`naive_table_play`: the decision next
    (seat, legal cards, ranks since the count started, count), or the finished play."""
    it = iter(prefix)

    def choose(seat: int, legal: list[int], ranks: list[int], count: int) -> int:
        card = next(it, None)
        if card is None:
            raise _TableDecision(seat, legal, ranks, count)
        assert card in legal, (card, legal)
        return card

    try:
        return None, naive_table_play(hands, choose, once)
    except _TableDecision as d:
        return d, None


def naive_table_value(
    hands: list[list[int]], teams: list[int], prefix: list[int], once: bool = False,
    aim: int = 1, done: int | None = None,
) -> list[int]:  # fmt: skip
    """Perfect play at a table whose cards are all known, by brute force: the points each
    seat pegs from card ``done`` of the play on (``len(prefix)`` unless given) when, from
    the end of ``prefix``, every seat lays the card that gives its side the most points
    less the mean of the other sides' points (the least with ``aim`` -1), the first of
    equal cards in its hand. Cards of one rank are one card in the play (suits do not
    count there): a seat tries the first of them only, so that a tie between them, which
    can leave the other seats different points, is broken the same way every time."""
    from fractions import Fraction

    done = len(prefix) if done is None else done
    d, out = _table_replay(hands, prefix, once)
    if d is None:
        points = [0] * len(hands)
        for seat, _, _, p, _ in out[done:]:
            points[seat] += p
        return points
    sides = sorted(set(teams))
    best: list[int] | None = None
    best_goal = Fraction(0)
    ranks_tried: set[tuple[bool, int]] = set()
    for card in d.legal:
        key = (card >= JOKER_LAID, laid_rank(card))  # a joker stays a joker in the hand
        if key in ranks_tried:  # the same card in the play as one tried
            continue
        ranks_tried.add(key)
        v = naive_table_value(hands, teams, [*prefix, card], once, aim, done)
        by_side = {t: sum(v[s] for s in range(len(v)) if teams[s] == t) for t in sides}
        own = by_side[teams[d.seat]]
        others = [by_side[t] for t in sides if t != teams[d.seat]]
        goal = own - Fraction(sum(others), len(others))
        if best is None or aim * goal > aim * best_goal:
            best, best_goal = v, goal
    assert best is not None
    return best


def starter_set(text: str, unseen: list[int]) -> set[int]:
    """The cards a starters text names ("none", "any", "all but ...", "any 5, JC 8D"),
    read back among ``unseen``."""
    if text == "none":
        return set()
    if text == "any":
        return set(unseen)
    if text.startswith("all but "):
        return set(unseen) - starter_set(text.removeprefix("all but "), unseen)
    named: set[int] = set()
    for item in text.split(", "):
        if item == "JK":  # a joker cut: either joker
            named |= {c for c in unseen if c >= 52}
        elif item.startswith("any "):
            rank = "A234567891JQK".index(item.removeprefix("any ")[0])
            named |= {c for c in unseen if c < 52 and c >> 2 == rank}
        else:
            named |= {4 * "A23456789TJQK".index(w[0]) + "CDHS".index(w[1]) for w in item.split()}
    return named


# --- throw fives: the crib when every other seat obeys the rule -----------------------------


def naive_fives_throw(hand: list[int], slots: int, rng) -> list[int]:  # type: ignore[no-untyped-def]
    """A throw of ``slots`` cards from ``hand`` by the rule "every five you hold goes to
    the crib" (as many as the slots take, chosen at random; the rest at random)."""
    fives = [c for c in hand if rank(c) == 4]
    if len(fives) >= slots:
        return rng.sample(fives, slots)
    others = [c for c in hand if rank(c) != 4]
    return fives + rng.sample(others, slots - len(fives))


def naive_fives_patterns(  # type: ignore[no-untyped-def]
    held: list[int], seats: list[tuple[int, int]], deck: int, deals: int, rng
) -> dict[tuple[int, int], int]:
    """How often, over ``deals`` deals played out as the rules say, the crib's cards
    other than the seat's own hold j fives and the starter is a five (s 1): the unseen
    cards shuffled and dealt to the other ``seats`` (dealt, thrown), each throwing by
    the rule, then ``deck`` cards from the pack to the crib, then the cut."""
    pack = unseen(held)
    counts: dict[tuple[int, int], int] = {}
    for _ in range(deals):
        rng.shuffle(pack)
        at = 0
        crib: list[int] = []
        for dealt, thrown in seats:
            crib += naive_fives_throw(pack[at : at + dealt], thrown, rng)
            at += dealt
        crib += pack[at : at + deck]
        starter = pack[at + deck]
        key = (sum(rank(c) == 4 for c in crib), int(rank(starter) == 4))
        counts[key] = counts.get(key, 0) + 1
    return counts


def naive_weighted_crib(  # type: ignore[no-untyped-def]
    held: list[int], thrown: list[int], w, jokers: int = 0
) -> tuple[float, float]:
    """(mean, P(0)) of the crib of ``thrown`` and every set of the other cards (as many
    as fill four) with every starter, all of the unseen cards (of a pack with ``jokers``
    jokers, ids 52 and 53, none of them a five), each set of j fives and starter (s 1 a
    five) weighing ``w[j][s]``: the rules' show, card by card, each joker at its best."""
    rest = [c for c in range(52 + jokers) if c not in held]
    mean = zero = 0.0
    for others in combinations(rest, 4 - len(thrown)):
        j = sum(rank(c) == 4 for c in others)
        for s in rest:
            if s in others:
                continue
            p = w[j][int(rank(s) == 4)]
            points = naive_wild_score([*thrown, *others], s, crib=True)
            mean += p * points
            zero += p * (points == 0)
    return mean, zero


def naive_scores_array(crib4, starters, crib: bool = True):  # type: ignore[no-untyped-def]
    """The show of many hands at once (numpy arrays: ``crib4`` (N, 4) card ids, each with
    its starter (N,)), from the rules text as :func:`naive_score` is: fifteens 2, pairs
    2, runs (each maximal run of 3 or more, once per card combination), the flush (a
    crib's only with all five), nobs 1."""
    import numpy as np

    cards = np.concatenate([np.asarray(crib4), np.asarray(starters)[:, None]], axis=1)
    ranks, suits = cards >> 2, cards & 3
    values = np.minimum(ranks + 1, 10)
    points = np.zeros(len(cards), np.int64)
    for size in range(2, 6):  # fifteens
        for combo in combinations(range(5), size):
            points += 2 * (values[:, list(combo)].sum(axis=1) == 15)
    for i, j in combinations(range(5), 2):  # pairs
        points += 2 * (ranks[:, i] == ranks[:, j])
    counts = np.zeros((len(cards), 14), np.int64)  # a rank's count; rank 13 stays 0
    for k in range(5):
        np.add.at(counts, (np.arange(len(cards)), ranks[:, k]), 1)
    length = np.zeros(len(cards), np.int64)
    ways = np.ones(len(cards), np.int64)
    for r in range(14):  # runs: close each maximal run at a missing rank
        present = counts[:, r] > 0
        ended = ~present & (length >= 3)
        points += np.where(ended, length * ways, 0)
        length = np.where(present, length + 1, 0)
        ways = np.where(present, ways * np.maximum(counts[:, r], 1), 1)
    same = (suits[:, :4] == suits[:, :1]).all(axis=1)  # flush
    if crib:
        points += 5 * (same & (suits[:, 4] == suits[:, 0]))
    else:
        points += np.where(same, 4 + (suits[:, 4] == suits[:, 0]), 0)
    nobs = ((ranks[:, :4] == JACK) & (suits[:, :4] == suits[:, 4:5])).any(axis=1)
    return points + nobs


def naive_weighted_crib_array(held: list[int], thrown: list[int], w) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """:func:`naive_weighted_crib` with the shows scored all at once
    (:func:`naive_scores_array`): every set and starter still dealt card by card."""
    import numpy as np

    rest = unseen(held)
    sets = np.array(list(combinations(rest, 4 - len(thrown))), np.int64)
    rows, starters = [], []
    for s in rest:
        keep = ~(sets == s).any(axis=1)
        rows.append(sets[keep])
        starters.append(np.full(int(keep.sum()), s))
    others = np.concatenate(rows)
    starter = np.concatenate(starters)
    crib4 = np.concatenate([np.tile(thrown, (len(others), 1)), others], axis=1)
    points = naive_scores_array(crib4, starter)
    j = (others >> 2 == 4).sum(axis=1)
    p = np.asarray(w)[j, (starter >> 2 == 4).astype(np.int64)]
    return float((p * points).sum()), float(p[points == 0].sum())

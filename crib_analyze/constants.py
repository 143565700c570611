"""The numbers of the rules, and the seats' places on a seat axis: the one module the
compiled kernels read constants from.

The kernel cache is named by a digest of the kernel modules and of this module
(:mod:`crib_analyze.kernel_source`), so an edit anywhere else (a default in
:mod:`crib_analyze.settings`, a game of :mod:`crib_analyze.rules`, the version) never
recompiles a kernel. :mod:`crib_analyze.rules` and :mod:`crib_analyze.position` name
these same values for the rest of the code. It imports nothing.

>>> MAX_COUNT, HEELS_POINTS, (PONE_SEAT, DEALER_SEAT)
(31, 2, (0, 1))
"""

from __future__ import annotations

TARGET = 121  # the game is won by the first to reach it
SKUNK_LINES = (91, 61, 31)  # a loser under these is skunked, double, triple skunked
HEELS_POINTS = 2  # a jack cut as the starter gives the dealer 2 at the cut
NOBS_POINTS = 1  # a jack of the starter's suit in a hand or crib
MAX_COUNT = 31  # the count of the play never passes 31
CARDS_DEALT = 6  # to each player
CARDS_KEPT = 4  # each player throws two to the dealer's crib
JACK_RANK = 10  # rank index of the jack (A = 0 ... K = 12)
FIVE_RANK = 4  # rank index of the five (the throw fives variant)
FIRST_JOKER = 52  # the jokers variant: the first joker's card id (the second is 53)
JOKER_RANK = 13  # a joker's rank in the tables of thrown ranks with jokers (its id >> 2)
CRIB_SIZE = 4  # in every game of the rules: the crib shows four cards and the starter
# the play's solver in a played deal draws and solves only when the other seats hold at
# most this many cards (four players hold 12 at the lead); before (five players' first
# cards: a draw at the lead costs ~75 ms) it lays by the lookahead
SOLVER_MOST_HIDDEN = 12
# variants: a hand or crib that scores nothing in the show
ZERO_PENALTY_POINTS = 1  # zero penalty: the opponent scores 1
BACK_TEN_POINTS = 10  # back ten: it costs its owner 10
# a six-card hand's throws, in the one order of every throw axis: the position pairs
# (i, j), i < j, of the hand's cards, lexicographic; the other four positions are kept
DISCARD_POSITIONS = tuple((i, j) for i in range(6) for j in range(i + 1, 6))
KEEP_POSITIONS = tuple(tuple(p for p in range(6) if p not in pair) for pair in DISCARD_POSITIONS)
N_DISCARDS = 15
N_MULTISETS = 18_395  # rank multisets of six cards (none more than four of a rank)
N_UNSEEN = 46  # 52 - 6: the starters a holder of six cards cannot see
TIE_TOLERANCE = 1e-9  # points: throws this close to the best are tied for best
# the two seats of a deal, in the one order of every seat axis (position.Seat)
PONE_SEAT = 0  # leads the play and counts first
DEALER_SEAT = 1  # owns the crib

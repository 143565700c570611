"""The rules of the game this package plays: two players, six cards each, game to 121.

One place for each rule's numbers; engines and kernels read them from here (kernels
as compile-time constants). The counting itself lives with its engine: the show in
:mod:`crib_analyze.scoring.show_kernels`, the play in
:mod:`crib_analyze.play.rules_kernels`. Other games of the rules (three to five
players, five-card cribbage, partners) and variants will be added as values of a
``Rules`` type here.

>>> TARGET, SKUNK_LINES, HEELS_POINTS, MAX_COUNT
(121, (91, 61, 31), 2, 31)
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

"""Board position: the game is won at 121, so throws are judged by the chance of winning.

Modules, from the bottom: :mod:`~crib_analyze.board.event_kernels` (a deal as its
scoring events in the order they are scored), :mod:`~crib_analyze.board.dp_kernels` (the
dynamic programme over every position), :mod:`~crib_analyze.board.board_table` (the
shipped table of win and match-outcome probabilities, and how it is built).
"""

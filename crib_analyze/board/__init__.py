"""Board position: the game is won at 121, so throws are judged by the chance of winning.

Modules, from the bottom: :mod:`~crib_analyze.board.event_kernels` (a deal as its
scoring events in the order they are scored), :mod:`~crib_analyze.board.dp_kernels` (the
dynamic programme over every position), :mod:`~crib_analyze.board.throw_choice_kernels`
(how a player with real cards throws), :mod:`~crib_analyze.board.position_kernels` and
:mod:`~crib_analyze.board.game_kernels` (throws from a score, whole games);
:mod:`~crib_analyze.board.expert_throws` (the expert's throws with real cards),
:mod:`~crib_analyze.board.build` (building the board table),
:mod:`~crib_analyze.board.throws` (a hand's throws from a score) and
:mod:`~crib_analyze.board.games` (simulated games, local or on Dask).
"""

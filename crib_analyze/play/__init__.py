"""The play (pegging): its rules as numba kernels, play policies, the pegging value of
every keep, and the advice of which card to play.

Modules, from the bottom: :mod:`~crib_analyze.play.rules_kernels` (legal plays, points
of a laid card, go and resets), :mod:`~crib_analyze.play.policy_kernels` (greedy,
lookahead and search policies, whole deals), :mod:`~crib_analyze.play.sequence` (a play
given as cards, checked and scored), :mod:`~crib_analyze.play.matches` (duplicate
matches between policies), :mod:`~crib_analyze.play.pegging_table` (the shipped table
of pegging values and how it is built).
"""

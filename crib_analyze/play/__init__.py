"""The play (pegging): its rules, play policies, whole deals, and what they are worth.

Modules, from the bottom: :mod:`~crib_analyze.play.rules_kernels` (legal plays, points
of a laid card, go and resets), :mod:`~crib_analyze.play.play_policy_kernels` (greedy,
lookahead and search policies, whole deals), :mod:`~crib_analyze.play.pegging_kernels`
(deals around a kept hand), :mod:`~crib_analyze.play.sequence` (a play given as cards,
checked and scored), :mod:`~crib_analyze.play.matches` (duplicate matches between
policies), :mod:`~crib_analyze.play.pegging_values` (the pegging table's build, and one
hand's throws played with its real cards), :mod:`~crib_analyze.play.advice` (which card
to lay now).
"""

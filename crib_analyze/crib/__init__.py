"""The math every engine shares, as numba kernels: a six-card hand's throws and the kept
hand over the starters (:mod:`~crib_analyze.crib.hand_kernels`), the random opponent's
crib (:mod:`~crib_analyze.crib.random_crib_kernels`), the crib against any opponent
model (:mod:`~crib_analyze.crib.combine_kernels`), the compact throw model and the
tabulated throw policy (:mod:`~crib_analyze.crib.throw_model_kernels`,
:mod:`~crib_analyze.crib.throw_policy_kernels`), the suit classes of six-card hands
(:mod:`~crib_analyze.crib.hand_classes`) and dealing cards
(:mod:`~crib_analyze.crib.dealing_kernels`); values of every class at once
(:mod:`~crib_analyze.crib.class_kernels`)."""

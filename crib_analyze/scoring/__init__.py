"""The show: fifteens, pairs, runs, flush and nobs. :mod:`~crib_analyze.scoring.show_kernels`
counts points fast (the rank part is a table over sorted ranks); :mod:`~crib_analyze.scoring.show`
validates cards and counts a show the way a player announces it."""

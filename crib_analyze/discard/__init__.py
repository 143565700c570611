"""The discard engine: every throw of one hand under an opponent model
(:mod:`~crib_analyze.discard.engine`), their ranking as result rows
(:mod:`~crib_analyze.discard.ranking`), and the discard trainer
(:mod:`~crib_analyze.discard.trainer`)."""

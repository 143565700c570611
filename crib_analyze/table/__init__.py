"""The full discard table, every suit-distinct hand x 15 throws: what a run computes
(:mod:`~crib_analyze.table.spec`), the numbers of one chunk
(:mod:`~crib_analyze.crib.class_kernels`, :mod:`~crib_analyze.table.compute`),
finished chunks on disk (:mod:`~crib_analyze.table.chunks`) and the table file itself
(:mod:`~crib_analyze.table.file`)."""

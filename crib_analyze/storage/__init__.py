"""Files written whole or not at all, and checked when read: atomic writes
(:mod:`~crib_analyze.storage.atomic`), artifact files with a format and a provenance
(:mod:`~crib_analyze.storage.npz`), checkpoints of long builds
(:mod:`~crib_analyze.storage.checkpoint`)."""

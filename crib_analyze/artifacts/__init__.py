"""What ships with the package, as types with their loaders (no builders here): the
expert model (:mod:`~crib_analyze.artifacts.expert_model`), the pegging table
(:mod:`~crib_analyze.artifacts.pegging_table`) and the board table
(:mod:`~crib_analyze.artifacts.board_table`)."""

"""Building the expert opponent: values over every suit class of six-card hands
(:mod:`~crib_analyze.expert.class_values`) and the fictitious-play fixed point that
finds the self-consistent throw models (:mod:`~crib_analyze.expert.builder`)."""

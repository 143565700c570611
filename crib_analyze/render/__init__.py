"""Results laid out for people and programs: the text every front end shows (the
command line's output, the page's 80-column view), CSV and JSON. Layout only: every
number, verdict and note comes with the result (:mod:`crib_analyze.results`)."""

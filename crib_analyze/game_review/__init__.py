"""Game review: a recorded game read, checked and graded decision by decision."""

"""``python -m crib_analyze`` runs the command-line interface."""

from crib_analyze.cli import main

main()

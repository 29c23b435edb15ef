"""Scores of extracted output against the corpus' ground truth. Pure functions, no I/O."""

"""Metrics computed from transcripts and run records, one module per system."""

"""Stage 1: reading sources (YAML, Markdown) with the positions needed for error messages."""

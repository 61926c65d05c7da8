"""Stage 5: writing outputs, atomically, so a failed build never leaves a half-written file."""

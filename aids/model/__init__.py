"""Stage 2: the document model. One module per aid kind; KINDS maps a source's `kind:` to it.

A kind module provides:
  KIND, TEMPLATE          its name (as in sources) and its Jinja2 template
  FORMATS                 {"html": renderer, "pdf": renderer}: how its outputs are made
  read(src, game, problems) -> model    the model built from a parsed source, problems gathered
  localize(model, lz) -> dict           the template context in one language
and the model has `id`, `kind`, `title` and `messages()` (every translatable Text).
"""
from __future__ import annotations

from types import ModuleType

from . import sequence

KINDS: dict[str, ModuleType] = {
    sequence.KIND: sequence,
}

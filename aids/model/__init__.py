"""Stage 2: the document model. One module per aid kind; KINDS maps a source's `kind:` to it.

A kind module provides:
  KIND, TEMPLATE                  its name (as in sources) and its Jinja2 template (HTML, and the PDF
                                  through WeasyPrint unless the kind renders its PDF itself)
  display_name(lz) -> str         what the kind is called, in the reader's language
  read(src, game, problems)       the model built from a parsed source, every problem gathered
  localize(model, lz, edition)    the template context (dict with at least "title") in one language
optionally:
  link(model, models, problems)   resolve references into the game's other aids, after all are read
                                  (models: id -> model, or None for an aid that failed to read)
  render_pdf(model, localized, lz, context, edition) -> {suffix: Rendered}   a PDF renderer of its own;
                                  context["print_pdf"](html, page_size, margins=None) prints HTML the default way
  STANDALONE = False              the kind is a part (a table): read, linked and extracted, but built
                                  only inside the aids that embed it
  EMBED_TEMPLATE                  a template rendering the localized aid (`aid`) inside another aid's page,
                                  headings starting at `heading_level` (a booklet embeds it by id); such a
                                  kind's localize also takes `rules` ({number: anchor} of the booklet)
and the model has `id`, `kind`, `title`, `source` and `messages()` (every translatable Text).
"""
from __future__ import annotations

from types import ModuleType

from . import booklet, card, playsheet, sequence, table

KINDS: dict[str, ModuleType] = {
    sequence.KIND: sequence,
    card.KIND: card,
    booklet.KIND: booklet,
    table.KIND: table,
    playsheet.KIND: playsheet,
}

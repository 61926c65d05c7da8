"""Stage 2: the document model. One module per kind of aid reads a parsed source into typed dataclasses,
every problem gathered with its position; `text` holds the translatable text, `quantity` the values.
The kinds themselves (what the pipeline calls) are `aids.kinds`, under the contract of `aids.kind`."""

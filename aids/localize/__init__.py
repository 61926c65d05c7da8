"""Stage 3: localization. Catalogs (extract, update, compile) and the Localizer that turns model text,
numbers, dates and enumerations into one language."""

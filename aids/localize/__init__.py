"""Stage 3: localization. The Localizer (one language: catalog text, CLDR numbers, dates, plurals), one
module a kind turning its model into plain values of that language, and the gettext catalogs."""

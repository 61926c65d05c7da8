"""aids: printable wargame aids from one source, localized through gettext catalogs."""
__version__ = "0.1.0"

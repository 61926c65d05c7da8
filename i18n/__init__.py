"""Gettext catalogs; the package ships its own domain (aids.po) from here as aids.i18n."""

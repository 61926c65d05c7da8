"""Jinja2 templates and print CSS of aids (shipped inside the package as aids.templates)."""

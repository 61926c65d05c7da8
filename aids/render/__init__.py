"""Stage 4: rendering a localized model to HTML (Jinja2) and PDF (WeasyPrint; ReportLab for cards)."""

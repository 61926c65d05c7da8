"""Ordered lists of the samples' booklets as a reader reads them in the PDF: each item under the number its web
page gives it, a list that goes on after a paragraph ("3." after "1." and "2.") included (issue 44)."""
from __future__ import annotations

import lxml.html

from . import lines


def test_every_ordered_list_of_a_sample_pdf_numbered_as_on_its_page(sample):
    project, _ = sample
    checked, resumed = 0, 0
    for page in sorted(project.output.rglob("*.html")):
        pdf = page.with_suffix(".pdf")
        lists = lxml.html.parse(str(page)).xpath("//ol[@start]") if pdf.is_file() else []
        if not lists:
            continue
        shown = [" ".join(line.text.split()) for sheet in lines.pages(pdf) for block in sheet for line in block]
        for ol in lists:
            start = int(ol.get("start"))
            resumed += start != 1
            for number, item in enumerate(ol.findall("li"), start):
                first = item.text_content().split()[0]
                assert any(line.startswith(f"{number}. {first}") for line in shown), \
                    (f"{pdf.relative_to(project.output)}: no line '{number}. {first} ...'",
                     [line for line in shown if line.endswith(first) or f" {first}" in line])
                checked += 1
    assert checked > 40 and resumed == 3  # GCACW's lists; the Valmora rules' sequence of play, resumed at 3

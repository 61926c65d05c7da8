"""The samples as the seed documents give them (/work/shared/seeds in the project's history: facts, figures and
titles carry over exactly), read back from the PDFs and pages a reader gets."""
import re

import pytest

from ..helpers import pdf_text

LANGS = ["pl", "en", "ru"]


def lines_of(project, *path: str) -> list[str]:
    return [re.sub(r"\s+", " ", line).strip() for line in pdf_text(project.output.joinpath(*path)).splitlines()]


@pytest.mark.parametrize("lang", LANGS)
def test_gcacw_line_of_bac_and_aio_goes_on_after_the_colon(sample, lang):
    """`i&nbsp;<strong>AIO</strong>` cut the line after "AIO:" where it had room (render/pdf.py,
    join_before_elements)."""
    lines = [line for line in lines_of(sample[0], "gcacw", lang, "sequence-of-play.pdf") if "AIO:" in line]
    assert lines and not any(line.endswith("AIO:") for line in lines), lines
    if lang == "pl":
        assert "BAC i AIO: inicjatywę może zdobyć Unia albo Konfederacja" in lines[0]

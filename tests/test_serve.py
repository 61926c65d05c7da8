"""`aids serve` in a real browser (Debian's chromium through Selenium): edit a catalog entry, see the page
change; break a source, see the positioned error in the page; fix it, see the error go."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from aids.localize.catalogs import po_path

from .helpers import make_project
from .localize.test_catalogs import extract_update, translate

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = [pytest.mark.system,
              pytest.mark.skipif(not (CHROMIUM and DRIVER),
                                 reason="chromium and chromium-driver (installed by ./bootstrap test) are missing")]


@pytest.fixture
def server(tmp_path):
    root = make_project(tmp_path, languages=("pl", "en"))
    extract_update(root)
    translate(po_path(root / "i18n", "en", "demo"), {"seq/prep": "Preparation"})
    process = subprocess.Popen([sys.executable, "-m", "aids", "--project", str(root), "serve", "--lang", "en",
                                "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert process.stdout is not None
    line = process.stdout.readline()  # printed once the first build is done
    assert "serving build at http://127.0.0.1:" in line, line
    url = line.split(" at ", 1)[1].split("/ ", 1)[0]
    yield root, url
    process.terminate()
    process.wait(10)
    process.stdout.close()


@pytest.fixture
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def wait_for(predicate, seconds=60.0):
    from selenium.common.exceptions import StaleElementReferenceException

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            value = predicate()
        except StaleElementReferenceException:  # the page reloaded between finding an element and reading it
            value = None
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("timed out")


def test_an_edited_translation_shows_in_the_open_page_and_errors_in_it(server, browser):
    from selenium.webdriver.common.by import By

    root, url = server
    browser.get(f"{url}/demo/en/seq.html")
    assert "Preparation" in browser.find_element(By.TAG_NAME, "body").text
    pdf = root / "build/demo/en/seq.pdf"
    pdf_before = pdf.stat().st_mtime_ns

    # a translator saves the catalog: the page reloads by itself with the new text, then the PDF is rewritten
    translate(po_path(root / "i18n", "en", "demo"), {"seq/prep": "Set-up before the battle"})
    wait_for(lambda: "Set-up before the battle" in browser.find_element(By.TAG_NAME, "body").text)
    wait_for(lambda: pdf.stat().st_mtime_ns != pdf_before)

    # a broken source: the error, with its position, in the page; the server goes on
    source = root / "games/demo/sequence.yaml"
    good = source.read_text(encoding="utf-8")
    source.write_text(good.replace("{ref:red-combat/resolve}", "{ref:nowhere}"), encoding="utf-8")
    panel = wait_for(lambda: [e for e in browser.find_elements(By.ID, "aids-errors") if e.is_displayed()])[0]
    assert "games/demo/sequence.yaml:26:64: reference to unknown id 'nowhere'" in panel.text

    # fixed: the panel goes, the page is the last good one
    source.write_text(good, encoding="utf-8")
    wait_for(lambda: not browser.find_element(By.ID, "aids-errors").is_displayed())
    assert "Set-up before the battle" in browser.find_element(By.TAG_NAME, "body").text

    # the start page lists what was built; nothing outside the output folder is served
    browser.get(f"{url}/")
    links = [a.text for a in browser.find_elements(By.TAG_NAME, "a")]
    assert "demo/en/seq.html" in links and "demo/en/seq.pdf" in links
    browser.get(f"{url}/../aids.yaml")
    assert "languages" not in browser.find_element(By.TAG_NAME, "body").text
    assert Path(root / "build/demo/en/seq.html").read_text(encoding="utf-8").count("aids-errors") == 0


def test_the_terminal_says_what_each_rebuild_did_and_every_error_the_page_shows(tmp_path):
    """Each save: a line naming what changed, a line per part rebuilt (what, how many files, how long), and each
    error as the command line prints it, the same the page's panel shows."""
    import threading

    root = make_project(tmp_path, languages=("pl", "en"))
    extract_update(root)
    process = subprocess.Popen([sys.executable, "-m", "aids", "--project", str(root), "serve", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env={**os.environ, "PYTHONWARNINGS": "ignore"})
    lines: list[str] = []
    assert process.stdout is not None
    reader = threading.Thread(target=lambda: lines.extend(iter(process.stdout.readline, "")), daemon=True)
    reader.start()
    try:
        wait_until = time.monotonic() + 120
        while not any(line.startswith("serving build at") for line in lines):
            assert time.monotonic() < wait_until and process.poll() is None, lines
            time.sleep(0.1)
        assert lines[0].rstrip().endswith("errors: 0"), lines
        source = root / "games/demo/sequence.yaml"
        good = source.read_text(encoding="utf-8")
        source.write_text(good.replace("{ref:red-combat/resolve}", "{ref:nowhere}"), encoding="utf-8")
        error = "games/demo/sequence.yaml:26:64: reference to unknown id 'nowhere'"
        wait_for(lambda: any(error in line for line in lines) and any(
            line.startswith("rebuilt the rest") for line in lines[lines.index(next(
                line for line in lines if error in line)):]))
        start = next(i for i, line in enumerate(lines) if line.startswith("changed: "))
        assert lines[start].strip() == "changed: games/demo/sequence.yaml", lines
        assert re.match(r"rebuilt demo \(pl\): 0 file\(s\) in \d+\.\d\d s, 1 error\(s\):$", lines[start + 1].strip()), \
            lines
        assert error in lines[start + 2]
        seen = len(lines)
        source.write_text(good, encoding="utf-8")
        wait_for(lambda: any(line.startswith("rebuilt the rest") for line in lines[seen:]))
        fixed = [line.strip() for line in lines[seen:]]
        assert fixed[0] == "changed: games/demo/sequence.yaml" and not any("error" in line for line in fixed), fixed
        # back to the last good sources: their files are up to date, nothing to write
        assert re.match(r"rebuilt demo \(pl\): 0 file\(s\) in \d+\.\d\d s$", fixed[1]), fixed
        assert re.match(r"rebuilt demo \(every language\): 0 file\(s\) in \d+\.\d\d s$", fixed[2]), fixed
    finally:
        process.terminate()
        process.wait(10)
        reader.join(10)  # to the end of what it printed, before the pipe is closed
        process.stdout.close()

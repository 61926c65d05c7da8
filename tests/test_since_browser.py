""""What changed since the version I know" in a real browser (chromium through Selenium, as tests/test_browser.py
drives it): from the game page a reader picks 1.0, reads the changes since it by their printed numbers, follows
one to its rule, which is marked (the bar in the margin), as is a change released in 1.1 that the page since
1.1 does not mark; the language switcher keeps the rule and the version."""
from __future__ import annotations

import functools
import threading

import pytest

from .test_browser import Quiet, browser, open_page, wait_for  # noqa: F401 (browser: the module's fixture)
from .test_since import GAME, released  # noqa: F401 (released: the project released as 1.0 and 1.1)

pytestmark = pytest.mark.system

BAR = "return getComputedStyle(document.getElementById(arguments[0]), '::after').borderLeftStyle;"


@pytest.fixture(scope="module")
def served(released):  # noqa: F811
    from http.server import ThreadingHTTPServer
    output = released / "build"
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(output)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_reader_sees_the_changes_since_the_version_they_know(served, browser):  # noqa: F811
    from selenium.webdriver.common.by import By

    open_page(browser, f"{served}/{GAME}/en/index.html")
    browser.find_element(By.CSS_SELECTOR, '.site-since-versions a[data-version="1.0"]').click()
    wait_for(lambda: browser.find_element(By.TAG_NAME, "h1").text == "Changes since version 1.0", what="the list")
    numbers = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".site-changes .change-number")]
    assert "3, step 1" in [n.replace("\xa0", " ") for n in numbers]  # as the sequence prints it
    browser.find_element(By.CSS_SELECTOR, 'a[href="sequence-of-play.html#combat/fire"]').click()
    wait_for(lambda: browser.current_url.endswith("/en/since-1.0/sequence-of-play.html#combat/fire"), what="the rule")
    # marked: the step reworded in 1.1 and the one added since; not a step that never changed
    assert browser.execute_script(BAR, "combat/fire") == "solid"
    assert browser.execute_script(BAR, "end-of-turn/rally") == "solid"
    assert browser.execute_script(BAR, "movement/move") != "solid"
    # the same rule since 1.1: the reworded step was released then, it is not marked
    browser.find_element(By.CSS_SELECTOR, '.site-since a[data-version="1.1"]').click()
    wait_for(lambda: browser.current_url.endswith("/en/since-1.1/sequence-of-play.html#combat/fire"),
             what="the rule since 1.1")
    assert browser.execute_script(BAR, "combat/fire") != "solid"
    assert browser.execute_script(BAR, "end-of-turn/rally") == "solid"
    # another language: the same rule, the same version
    browser.find_element(By.CSS_SELECTOR, '.site-languages a[hreflang="pl"]').click()
    wait_for(lambda: browser.current_url.endswith("/pl/since-1.1/sequence-of-play.html#combat/fire"),
             what="the rule in Polish")


def test_a_judge_reads_what_a_rule_said_in_a_release(served, browser):  # noqa: F811
    from selenium.webdriver.common.by import By

    open_page(browser, f"{served}/{GAME}/en/index.html")
    browser.find_element(By.CSS_SELECTOR, '.site-history-links a[href="history/sequence-of-play.html"]').click()
    item = wait_for(lambda: browser.find_element(By.ID, "sequence-of-play/combat/fire"), what="the history")
    said = [e.text for e in item.find_elements(By.TAG_NAME, "dd")]
    assert said == ["Each unit with a fire order fires at one enemy unit within range.",
                    "Each unit with a fire order fires at one enemy unit in range and in sight."]

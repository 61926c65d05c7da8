"""The archive of releases in a real browser (tests/test_browser.py's chromium and server, over the samples' build):
the version switcher keeps the reader at the same rule and says when it is not there, and an old number in a link
lands on the item that had it, with a note of its number now."""
# ruff: noqa: F811  (the fixtures `site` and `browser` are tests/test_browser.py's, imported: their arguments shadow them)
from __future__ import annotations

import pytest

from .test_browser import browser, open_page, phone, site, wait_for  # noqa: F401

pytestmark = pytest.mark.system

PAGE = "valmora-1809/cm/en/turn-sequence.html"


def note(browser) -> str:
    """The note of the page's #anchor, if shown."""
    return browser.execute_script(
        "var n = document.querySelector('.site-anchor-note'); return n && !n.hidden && n.offsetHeight > 0 ? "
        "n.textContent.replace(/\\u00a0/g, ' ') : '';")


def top_of(browser, element_id: str) -> float:
    return browser.execute_script(f"return document.getElementById({element_id!r}).getBoundingClientRect().top")


def at_its_place(browser, element_id: str) -> bool:
    """The element at the top of the window, or as near as the end of the page lets it come."""
    top = top_of(browser, element_id)
    bottom = browser.execute_script("return window.innerHeight + window.scrollY >= document.body.scrollHeight - 2")
    return -2 <= top < 50 or (bottom and 0 <= top < browser.execute_script("return window.innerHeight"))


def test_switching_the_version_keeps_the_rule_and_says_when_it_is_not_there(site, browser):
    from selenium.webdriver.common.by import By

    phone(browser)
    open_page(browser, f"{site.url}/{PAGE}#fire/musketry")
    assert note(browser) == ""  # the rule is there
    browser.find_element(By.CSS_SELECTOR, ".site-versions a[href*='/2.0/']").click()
    wait_for(lambda: browser.current_url == f"{site.url}/valmora-1809/2.0/cm/en/turn-sequence.html#fire/musketry",
             what=f"the rule in version 2.0 (at {browser.current_url})")
    wait_for(lambda: at_its_place(browser, "fire/musketry"), what="the rule at the top of the window")
    banner = browser.find_element(By.CSS_SELECTOR, ".site-archived")
    assert banner.is_displayed() and banner.text.startswith("Version 2.0 of 14 September 2026, as released.")
    # a step of 2.0 that 2.1 removed: the current page says it is not there
    browser.get(f"{site.url}/valmora-1809/2.0/cm/en/turn-sequence.html#end-of-turn/markers")
    wait_for(lambda: at_its_place(browser, "end-of-turn/markers"), what="the removed step in 2.0")
    browser.find_element(By.XPATH, "//ul[@class='site-versions']//a[text()='current']").click()
    wait_for(lambda: browser.current_url == f"{site.url}/{PAGE}#end-of-turn/markers", what="the current page")
    assert wait_for(lambda: note(browser), what="the note") == \
        "The place linked to is not in this version: the page is shown from the top."
    assert browser.execute_script("return window.scrollY") == 0


@pytest.mark.parametrize("fragment", ["4.4,%20step%202", "4.4,step2", "4.4,%C2%A0step%C2%A02"])
def test_an_old_number_lands_on_its_renumbered_rule_with_a_note(site, browser, fragment):
    phone(browser)
    open_page(browser, f"{site.url}/{PAGE}#{fragment}")
    assert wait_for(lambda: note(browser), what="the note") == "4.4, step 2 in version 2.0 is now 4.4, step 3."
    wait_for(lambda: at_its_place(browser, "fire/musketry"), what="the renumbered step at the top of the window")
    assert top_of(browser, "fire/skirmish") < 0  # the step now numbered 4.4, step 2 is above, out of sight


def test_an_old_number_of_a_removed_rule_says_so_and_a_link_within_the_page_clears_the_note(site, browser):
    phone(browser)
    open_page(browser, f"{site.url}/{PAGE}#4.6,%20step%201")
    assert wait_for(lambda: note(browser), what="the note") == "4.6, step 1 in version 2.0 is no longer in the rules."
    browser.execute_script("location.hash = '#fire/skirmish'")
    wait_for(lambda: note(browser) == "", what="the note gone")

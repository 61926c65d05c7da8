"""Changes since any release: `aids build --since`, the site's "changes since the version I know" pages, the
history of every rule and the Atom feed. A demonstration project (aids init) released three times: 1.0; 1.1
with a step reworded; then, unreleased, a step removed, one added and a table value changed."""
import shutil

import pytest

from .helpers import pdf_text
from .test_release import GAME, edit, marked, run


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    """The project released as 1.0 and 1.1, with later edits not released yet, built in HTML."""
    root = tmp_path_factory.mktemp("since") / "demo"
    assert run("init", root)[0] == 0
    folder = root / "games" / GAME
    assert run("--project", root, "release", "1.0", "--date", "2026-01-10")[0] == 0
    edit(folder / "sequence.yaml", "fires at one enemy unit within range.",
         "fires at one enemy unit in range and in sight.")
    code, _, err = run("--project", root, "release", "1.1", "--date", "2026-03-05")
    assert code == 0, err
    edit(folder / "sequence.yaml", '''      - id: orders
        text: "Each player gives each of their units one order, to move or to fire."
''', "")
    edit(folder / "sequence.yaml", '''      - id: advance''', '''      - id: rally
        text: "Each unit out of contact may rally."
      - id: advance''')
    edit(folder / "terrain.yaml", "{id: woods, label: Woods, cells: [2, -2]}", "{id: woods, label: Woods, cells: [3, -2]}")
    code, _, err = run("--project", root, "build", "--jobs", "1", "--format", "html")
    assert code == 0, err
    return root


def test_build_since_marks_every_change_since_that_release(released, tmp_path):
    root = tmp_path / "demo"
    shutil.copytree(released, root)
    page = root / "build" / GAME / "en" / "sequence-of-play.html"
    # since the latest release (1.1): the reworded step is not marked, it was released in 1.1
    assert marked(page.read_text(encoding="utf-8")) == (["end-of-turn/rally"], ["command/initiative"])
    code, _, err = run("--project", root, "build", "--jobs", "1", "--since", "1.0", "--lang", "en")
    assert code == 0, err
    # since 1.0: the change of 1.1 and those after it, composed by stable key
    assert marked(page.read_text(encoding="utf-8")) == (["combat/fire", "end-of-turn/rally"], ["command/initiative"])
    assert "Changes since version 1.0 are marked" in page.read_text(encoding="utf-8").replace("\xa0", " ")
    text = " ".join(pdf_text(root / "build" / GAME / "en" / "sequence-of-play.pdf").replace("\xa0", " ").split())
    assert "Changes since version 1.0 are marked with a bar in the margin." in text
    # the next build without --since marks against the latest release again (nothing reused wrongly)
    assert run("--project", root, "build", "--jobs", "1", "--format", "html", "--lang", "en")[0] == 0
    assert marked(page.read_text(encoding="utf-8"))[0] == ["end-of-turn/rally"]


def test_build_since_an_unknown_version_says_which_there_are(released):
    code, out, err = run("--project", released, "build", "--since", "0.9", "--format", "html")
    assert code == 1 and "Traceback" not in err
    assert err.strip().splitlines()[-1] == \
        f"games/{GAME}/game.yaml:1:1: game {GAME} has no release 0.9 (expected: one of: 1.0, 1.1)"

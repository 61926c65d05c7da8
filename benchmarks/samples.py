"""The samples as a scratch project for the benchmarks: they never build into the repository's own build/.

    from samples import ROOT, scratch   # a benchmark script's own folder is on sys.path when it is run
"""
from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def scratch(into: Path) -> Path:
    """A copy of the samples' games and catalogs in `into`/project, with the repository's aids.yaml (the aids
    source tree's own catalog left out)."""
    root = into / "project"
    for name in ("games", "i18n"):
        shutil.copytree(ROOT / name, root / name, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
    (root / "aids.yaml").write_text((ROOT / "aids.yaml").read_text().replace("ui_domain: true", "ui_domain: false"))
    return root

"""Record again the digests (outputs.sha256) of every release snapshot of a project, as this version of aids renders
them: after an upgrade of aids (or, in this repository, a change of a template) that changes what a release
renders to, `aids build` reports each such output as "rebuilt is not the file released". Run this once the change
is meant, to accept the new rendering as the released one; keep a file under releases/<version>/kept/ instead to
publish the released bytes themselves (docs/guide/releases-and-archive.md).

    .venv/bin/python contrib/record-release-digests.py [PROJECT]
"""
from __future__ import annotations

import sys
from pathlib import Path

from aids.config import read_project
from aids.folder import Folder
from aids.releases import archive, release, snapshot


def main(root: Path) -> None:
    project = read_project(root)
    for game_id in project.game_ids():
        game = project.read_game(game_id)
        for version in release.versions(game):
            if snapshot.has_snapshot(game, version):
                (Folder(game.folder) / snapshot.FOLDER / version).remove(snapshot.DIGESTS)
                print(project.show(archive.record_digests(project, game, version)))


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "."))

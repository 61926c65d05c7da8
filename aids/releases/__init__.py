"""A game's releases: its state recorded as a version, what changed since, and what is made from a release.

    release      `aids release` and `aids changes`: release records written and read, compared with the sources
    snapshot     a release's sources kept beside its record, so that it can be rebuilt as released
    wording      how an item reads now or as a release printed it (changelogs, errata, the site's release pages)
    archive      every release with a snapshot rebuilt and published beside the current state
    errata       `aids errata VERSION`: the changes since a printed version, placed where they stood in its PDF
    rulings      a game's rulings against its rules, and those to review since the release they were given for
"""

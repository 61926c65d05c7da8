"""The web site of the output folder: its paths and navigation, the home and game pages, and the pages about a
game's releases.

    navigation   the site's paths, the language switcher, the titles and numbers a page names other aids by
    publishing   which aid is published in which language
    site         the home page and each game's pages
    since, history, feed, release_pages   the pages since each release, each aid's history, the feed, what they share
    archive_pages   what the archive of releases adds to every page: the version switcher, the old numbers
"""

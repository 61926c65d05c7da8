"""A Weblate add-on for aids' catalogs: every PO file Weblate commits is in GNU gettext's layout.

Weblate writes PO files through translate-toolkit, which breaks long lines at other places than GNU gettext
does (after a hyphen, after an opening parenthesis). aids, like GNU msgcat, msgmerge and Poedit, writes GNU's
layout (`msgcat --width=79`), so without this add-on the next `aids update` would rewrap what Weblate wrote, and
Weblate's next commit would wrap it back. The add-on runs GNU msgcat on each file before Weblate commits it: the
translations, comments, flags and header Weblate wrote are kept, only the line breaks become GNU's.

Install: put this file on Weblate's Python path and add it to Weblate's settings,
    from weblate.addons.defaults import DEFAULT_WEBLATE_ADDONS
    WEBLATE_ADDONS = (*DEFAULT_WEBLATE_ADDONS, "aids_gnu_layout.GnuLayoutAddon")
then install the add-on "aids: GNU gettext layout" on each component (or through the API: POST
/api/components/<project>/<component>/addons/ with {"name": "aids.gnu_layout"}). Needs GNU gettext's msgcat.
docs/translating/weblate.md describes the whole set-up.
"""
from __future__ import annotations

import os
import subprocess
from typing import ClassVar

from weblate.addons.base import BaseAddon
from weblate.addons.events import AddonEvent

WIDTH = 79  # aids' (aids/localize/po.py), GNU msgcat's and Poedit's


class GnuLayoutAddon(BaseAddon):
    events: ClassVar[set[AddonEvent]] = {AddonEvent.EVENT_PRE_COMMIT}
    name = "aids.gnu_layout"
    verbose = "aids: GNU gettext layout"
    description = "Lays every PO file out as GNU msgcat does (width 79) before it is committed."
    compat: ClassVar[dict] = {"file_format": {"po", "po-mono"}}

    def pre_commit(self, translation, author: str, store_hash: bool, activity_log_id: int | None = None) -> None:
        filename = translation.get_filename()
        if not filename or not os.path.exists(filename):
            return
        done = subprocess.run(["msgcat", f"--width={WIDTH}", "-o", filename, filename], capture_output=True,
                              text=True, env={**os.environ, "LC_ALL": "C.UTF-8"}, check=False)
        if done.returncode != 0:
            translation.component.log_error("msgcat failed on %s: %s", filename, done.stderr)
            return
        if store_hash:
            translation.store_hash()

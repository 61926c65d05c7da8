"""The translators' tools beside the catalogs, as commands: `aids budgets` (how long each translation of a
fitted aid may get) and `aids context` (a picture of each text where it prints), each optionally sent to a
Weblate (--weblate URL --weblate-project SLUG, the token in WEBLATE_TOKEN); and `aids weblate components`
(commands/weblate_setup.py)."""
from __future__ import annotations

from ..errors import AidsError, Position, Problem


def budgets_command(project, args) -> int:
    from ..pipeline.budgets import budgets
    from .weblate import components, flag_budgets
    weblate = weblate_of(args)
    found: dict[str, dict[str, dict[tuple[str, str], int]]] = {}  # game -> language -> its budgets
    for measured in budgets(project, args.game, args.lang):
        grown = "".join(f"; {aid}: every text may grow by {share * 100:.0f} %" for aid, share in
                        measured.shares.items())
        print(f"{measured.game} {measured.lang}: {measured.budgets} budget(s){grown}"
              + "".join(f"; {aid} does not fit as it is" for aid in measured.full)
              + ("" if measured.written or not measured.budgets else " (catalog unchanged)"))
        if measured.given:
            found.setdefault(measured.game, {})[measured.lang] = measured.given
    for game_id, given in found.items() if weblate is not None else ():
        for component in components(project, [game_id]):  # each language's own budgets, none on the source
            flagged = flag_budgets(weblate, args.weblate_project, component.slug, component.source_language, given)
            print(f"{args.weblate.rstrip('/')}/projects/{args.weblate_project}/{component.slug}/: max-length on "
                  + ", ".join(f"{count} string(s) in {lang}" for lang, count in flagged.items()))
    return 0


def weblate_of(args):
    """The Weblate of --weblate, its token and project checked before anything is done; None without it."""
    from .weblate import Weblate
    if args.weblate and not args.weblate_project:
        raise AidsError(Problem(Position("--weblate"), "no Weblate project named", "--weblate-project SLUG"))
    return Weblate(args.weblate) if args.weblate else None


def context_command(project, args) -> int:
    from .context import FOLDER, context
    from .weblate import components, upload
    weblate = weblate_of(args)  # its token checked before the pictures are taken
    made = context(project, args.game, args.lang)
    for (game_id, lang), entries in made.made.items():
        folder = project.output / FOLDER / game_id / lang
        print(f"{project.show(folder)}: {len(entries)} picture(s)")
        sent = weblate is not None and lang == project.read_game(game_id).source_language
        for component in components(project, [game_id]) if sent else []:  # each catalog's: a text where it is
            tied = upload(weblate, args.weblate_project, component.slug, lang, folder, entries)
            print(f"{args.weblate.rstrip('/')}/projects/{args.weblate_project}/{component.slug}/: {tied} "
                  "screenshot(s) tied to their strings")
    return 0


def weblate_command(project, args) -> int:
    from .weblate_setup import components_command
    return components_command(project, args, weblate_of(args))


# what a translator reads beside the .po, and the Weblate components that hold the catalogs
TRANSLATORS_TOOLS = {"budgets": budgets_command, "context": context_command, "weblate": weblate_command}

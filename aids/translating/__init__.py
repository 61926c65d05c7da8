"""The translator's side of a project: catalogs kept in step with the sources (translations: extract, update,
compile) and the tools of a translation team (translators: stats, check, pseudo, drafts)."""

"""The build engine: from a project's sources to its written files, above every stage.

    pipeline     the plan (which aids, editions, languages, formats) and one aid's render through the stages
    fingerprint  what an output is made of, as a digest (the cache compares them)
    jobs         the one path from sources to files: a job (aid x edition x language), as any worker runs it
    pool, cluster, shards   where jobs run: this process, a pool of processes, a Dask cluster, a shard of the plan
    progress     what a build tells whoever watches it
    builder      `aids build`: jobs planned, run, written an aid at a time, the cache and the stamp kept
    outputs      an aid's files in the output folder: their names, those gone or failed
    tournament   what a build makes after the aids: bilingual PDFs and event packets, cached by the jobs' digests
    budgets      `aids budgets`: how far each translation of a fitted aid may grow, measured through the pipeline

The web site (aids/site/) and the releases (aids/releases/) sit at the same rank: a job renders an aid's page with
the site's navigation and its rulings, the site and the archive render through this pipeline.
"""

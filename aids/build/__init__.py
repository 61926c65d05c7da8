"""The build: from a project's sources to its written files, above every stage.

    pipeline     the plan (which aids, editions, languages, formats) and one aid's render through the stages
    fingerprint  what an output is made of, as a digest (the cache compares them)
    jobs         the one path from sources to files: a job (aid x edition x language), as any worker runs it
    pool, cluster, shards   where jobs run: this process, a pool of processes, a Dask cluster, a shard of the plan
    builder      `aids build`: jobs planned, run, written an aid at a time, the cache and the stamp kept
    outputs, publishing, site   what is published: files of aids gone or failed, the web site
    release      a game's state recorded as a version, and what changed since
"""

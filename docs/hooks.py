"""MkDocs hook: the reference pages made from aids' code (aids/commands/reference.py) join the site's files."""
from __future__ import annotations

import ast
import tempfile
from pathlib import Path

from mkdocs.structure.files import File, Files

from aids.commands import reference


def on_files(files: Files, config) -> Files:
    with tempfile.TemporaryDirectory(prefix="aids-reference-") as scratch:
        made = reference.pages(Path(scratch))
    for path, text in made.items():
        files.append(File.generated(config, path, content=text))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    """The benchmarks page ends with the list of the scripts, from their own docstrings."""
    if page.file.src_uri != "development/benchmarks.md":
        return markdown
    return markdown.rstrip() + "\n\n" + scripts(Path(config.config_file_path).parent / "benchmarks") + "\n"


def scripts(folder: Path) -> str:
    out = ["## The scripts", "", "What each script in `benchmarks/` measures, from its own description:"]
    for path in sorted(folder.glob("*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text("utf-8"))) or ""
        summary, _, rest = doc.partition("\n")
        out += ["", f"### `{path.name}`", "", summary]
        if rest.strip():
            out += ["", "```", rest.strip("\n"), "```"]
    return "\n".join(out)

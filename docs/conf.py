# Sphinx configuration of the project's documentation: `make docs` builds docs/ into
# build/docs/ (offline; the API reference is generated from the docstrings).
project = "azlatency"
author = "azlatency contributors"
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3
napoleon_google_docstring = False
napoleon_numpy_docstring = True
autodoc_typehints = "description"
autodoc_member_order = "bysource"
html_theme = "alabaster"
html_title = "azlatency"
# Code blocks in the docs show real output (csv, JSON with "..."): no lexer is needed.
suppress_warnings = ["myst.xref_missing", "myst.header", "misc.highlighting_failure"]

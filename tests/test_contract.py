"""Every registered parser meets the contract of ``parsers._base`` (:class:`Parser`), defines
no hook the reader does not know, and the parsers' modules import each other in no circle."""

from __future__ import annotations

import ast
import inspect
import io
import tokenize
from pathlib import Path

import pytest

import azlatency
from azlatency.parsers import REGISTRY, get, tools
from azlatency.parsers._base import HOOKS, Parser, ToolInfo, hook

PKG = Path(azlatency.__file__).parent


@pytest.mark.parametrize("tool", tools())
def test_parser_meets_the_contract(tool):
    module = get(tool)
    assert isinstance(module, Parser), f"{tool}: needs INFO, locate and parse"
    assert isinstance(module.INFO, ToolInfo) and module.INFO.tool == tool
    params = inspect.signature(module.parse).parameters
    assert [p for p in params if params[p].kind is inspect.Parameter.KEYWORD_ONLY][:2] == [
        "source",
        "strict",
    ]
    assert module.INFO.variants and set(module.INFO.open_ended) <= set(module.INFO.variants)
    if hook(module, "parse_bytes") is not None:
        assert hook(module, "whole_file") is not None, "parse_bytes is reached via whole_file"
    cleans = hook(module, "PARSE_BYTES_CLEANS")
    assert cleans is None or (isinstance(cleans, bool) and hook(module, "parse_bytes"))


def test_only_declared_hooks_are_asked_for():
    with pytest.raises(KeyError, match="not a declared parser hook"):
        hook(get("ping"), "parse_fast")
    reader = "".join(p.read_text() for p in sorted((PKG / "reader").glob("*.py")))
    for name in HOOKS:
        assert f'hook(module, "{name}")' in reader, f"{name} declared but never used"
    assert "getattr(module" not in reader and "hasattr(module" not in reader


def _imports(path: Path, mods: set[str]) -> set[str]:
    """The azlatency modules ``path`` imports (relative imports resolved, any nesting):
    ``from pkg import name`` is the module ``pkg.name`` when there is one, else ``pkg``."""
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    package = parts[:-1] if parts[-1] != "__init__" else parts[:-1]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            if not mod.startswith("azlatency"):
                continue
            for a in node.names:
                out.add(f"{mod}.{a.name}" if f"{mod}.{a.name}" in mods else mod)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("azlatency"))
    return out


def _graph() -> dict[str, set[str]]:
    mods = {}
    for path in PKG.rglob("*.py"):
        rel = list(path.relative_to(PKG.parent).with_suffix("").parts)
        if rel[-1] == "__init__":
            rel = rel[:-1]
        mods[".".join(rel)] = path
    return {m: {d for d in _imports(p, set(mods)) if d in mods and d != m} for m, p in mods.items()}


def test_no_import_circles():
    """A module never imports (directly or through others) a module that imports it back:
    a circle means two rooms that are one.  Imports inside functions count too."""
    graph = _graph()
    index, low, stack, on, circles = {}, {}, [], set(), []

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert not circles, "import circles: " + "; ".join(" <-> ".join(c) for c in circles)


LOWER = ("azlatency.stats", "azlatency.plots")
ABOVE = ("azlatency.campaign", "azlatency.report", "azlatency.make_run", "azlatency.cli")


def test_stats_and_plots_import_no_layer_above():
    """stats/ and plots/ are frames in, frames (or axes) out: no store, no campaign, no
    report."""
    graph = _graph()
    bad = sorted(
        f"{m} -> {d}"
        for m, deps in graph.items()
        if m.startswith(LOWER)
        for d in deps
        if d.startswith(ABOVE)
    )
    assert not bad, bad


def test_registry_names_modules_that_exist():
    for tool, name in REGISTRY.items():
        assert (PKG / "parsers" / f"{name}.py").is_file() or (
            PKG / "parsers" / name / "__init__.py"
        ).is_file(), tool


# The package's own private helpers every room may use (not another room's insides).
SHARED_PRIVATE = {"azlatency._version", "azlatency._console"}
# parsers._base is the parser contract; the reader hosts the parsers and reads it.
ALLOWED_REACH = {
    (f"azlatency.reader{m}", f"azlatency.parsers.{part}")
    for m in ("", ".files", ".joined", ".openers", ".outline", ".spans", ".strays", ".tables")
    for part in ("_base", "_lines")
}


def _room(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_no_room_imports_another_rooms_private_names():
    """A module may import another room's (top-level package's) public names only: a private
    module or ``_name`` of stats/ used by campaign/ or report/ is an interface nobody declared."""
    bad = []
    for path in PKG.rglob("*.py"):
        rel = list(path.relative_to(PKG.parent).with_suffix("").parts)
        package = rel[:-1]
        module = ".".join(rel[:-1] if rel[-1] == "__init__" else rel)
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            if not target.startswith("azlatency") or _room(target) == _room(module):
                continue
            if target in SHARED_PRIVATE or (module, target) in ALLOWED_REACH:
                continue
            private = [p for p in target.split(".")[1:] if p.startswith("_")]
            private += [a.name for a in node.names if a.name.startswith("_")]
            if private:
                bad.append(f"{module} -> {target}: {', '.join(private)}")
    assert not bad, bad


def test_output_paths_are_defined_once():
    """``paths.py`` alone joins ``raw``, ``processed``, ``reports``, ``build`` or ``.derived``
    onto a folder (issue 42: three definitions had drifted apart)."""
    joined = {"raw", "processed", "reports", "build", ".derived"}
    found = []
    for path in sorted(PKG.rglob("*.py")):
        if path.name == "paths.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.BinOp)
                and isinstance(node.op, ast.Div)
                and isinstance(node.right, ast.Constant)
                and node.right.value in joined
            ):
                found.append(f"{path.relative_to(PKG)}:{node.lineno}")
    assert not found, f"join these through azlatency.paths: {found}"


def test_the_contract_module_holds_the_contract_only():
    """``parsers/_base.py`` defines what a parser exposes and returns, nothing else: the line
    helpers live in ``parsers/_lines.py`` (issue 42)."""
    tree = ast.parse((PKG / "parsers" / "_base.py").read_text())
    defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    assert defined == {"ToolInfo", "Parser", "hook", "Span", "Summary", "Run", "Parsed"}


LONGEST = 60  # lines of code a function may have (issue 42) without a comment saying why
_NOT_CODE = {
    tokenize.COMMENT,
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENDMARKER,
}


def _code_lines(text: str) -> set[int]:
    """The lines holding code: not blank, not only a comment."""
    lines = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type not in _NOT_CODE:
            lines.update(range(tok.start[0], tok.end[0] + 1))
    return lines


def _docstrings(tree: ast.AST) -> set[int]:
    lines = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            lines.update(range(body[0].lineno, body[0].end_lineno + 1))
    return lines


def long_functions(text: str) -> dict[str, int]:
    """Each function's lines of code, from its ``def`` to its end (no blank line, comment or
    docstring; decorators not counted), where over :data:`LONGEST` and the comment lines
    right above it (or its decorators) do not say 'Over 60 lines' and why."""
    tree = ast.parse(text)
    lines = text.split("\n")
    code = _code_lines(text) - _docstrings(tree)
    found = {}
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        n = sum(1 for k in range(node.lineno, node.end_lineno + 1) if k in code)
        top = min([d.lineno for d in node.decorator_list] + [node.lineno]) - 1
        above = []
        while top >= 1 and lines[top - 1].lstrip().startswith("#"):
            above.append(lines[top - 1])
            top -= 1
        if n > LONGEST and not any("Over 60 lines" in a for a in above):
            found[f"{node.name}:{node.lineno}"] = n
    return found


def test_long_functions_are_counted_as_lines_of_code():
    head = "def f():\n    '''doc\n    more'''\n    # a comment\n\n"
    text = head + "    x = 1\n" * 61
    assert long_functions(text) == {"f:1": 62}
    assert long_functions(head + "    x = 1\n" * 59) == {}  # 60 lines with the def
    why = "# Over 60 lines on purpose: one sequence, read top to bottom.\n@decorated\n"
    assert long_functions(why + text) == {}


def test_no_function_is_over_60_lines_of_code_unexplained():
    """Issue 42: a function over 60 lines of code holds several things; split it, or say
    above it why not ('# Over 60 lines on purpose: ...')."""
    found = {
        f"{path.relative_to(PKG)}:{name}": n
        for path in sorted(PKG.rglob("*.py"))
        for name, n in long_functions(path.read_text(encoding="utf-8")).items()
    }
    assert not found, found

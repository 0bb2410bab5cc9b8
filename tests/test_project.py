"""The set-up a new user relies on: environment.yml agrees with pyproject.toml, README shows
the two commands, CI calls `make test`."""

from __future__ import annotations

import re
import tomllib

import yaml

from tests.conftest import ROOT


def test_environment_yml_installs_the_project_extras():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert pip == ["-r requirements/dev.lock", "-e ."]  # what `make setup` installs
    assert "--extra dev" in (ROOT / "requirements" / "dev.lock").read_text().split("\n")[1]
    # the dev extra pulls in every other extra, so the lock (and the env) has all of them
    extras = pyproject["project"]["optional-dependencies"]
    def pulled(extra: str) -> set[str]:
        """The extras `extra` pulls in, itself included, followed through azlatency[...]."""
        seen = {extra}
        for dep in extras[extra]:
            if m := re.fullmatch(r"azlatency\[([\w,]+)\]", dep):
                for name in m.group(1).split(","):
                    seen |= pulled(name)
        return seen

    assert pulled("dev") == set(extras)
    assert {"stats", "plots"} <= pulled("notebooks")
    python = next(d for d in env["dependencies"] if isinstance(d, str) and d.startswith("python"))
    assert python.split(">=")[1] == pyproject["project"]["requires-python"].lstrip(">=")


def test_readme_opens_with_the_two_commands():
    head = (ROOT / "README.md").read_text().split("\n## ")[0]
    assert "make run" in head and "make test" in head


def test_ci_runs_make_test():
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_every_dependency_has_a_lower_bound():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    deps = list(pyproject["project"]["dependencies"])
    for extra in pyproject["project"]["optional-dependencies"].values():
        deps += [d for d in extra if not d.startswith("azlatency[")]
    assert all(">=" in d for d in deps), [d for d in deps if ">=" not in d]


def _declared() -> list[str]:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    deps = list(pyproject["project"]["dependencies"])
    for extra in pyproject["project"]["optional-dependencies"].values():
        deps += [d for d in extra if not d.startswith("azlatency[")]
    return deps


def test_the_lock_pins_every_declared_dependency_within_its_range():
    from packaging.requirements import Requirement

    pins = {}
    for line in (ROOT / "requirements" / "dev.lock").read_text().splitlines():
        if m := re.match(r"^([A-Za-z0-9_.-]+)==(\S+)", line):
            pins[m[1].lower().replace("_", "-")] = m[2]
    for dep in _declared():
        req = Requirement(dep.split("#")[0])
        name = req.name.lower().replace("_", "-")
        assert name in pins, f"{name} is declared but not in requirements/dev.lock: make lock"
        assert req.specifier.contains(pins[name], prereleases=True), (name, pins[name])


# Distribution name -> the module it is imported as, where they differ.
_MODULE = {"pyyaml": "yaml", "pytest-xdist": "xdist", "myst-nb": "myst_nb",
           "dask": "distributed"}  # dask[distributed]: the engine uses its Client
# Used without an import statement: a command, a plugin or a tool the code runs.
_NOT_IMPORTED = {
    "pytest-xdist": "pytest -n (Makefile)",
    "ruff": "make test / lint",
    "nbstripout": "strips notebook outputs (docs/notebooks.md)",
    "ipykernel": "the notebooks' kernel (Makefile)",
    "myst-nb": "the site's Sphinx extension (report/site.py conf)",
}


def test_every_declared_dependency_is_used():
    """Declare what is used: each dependency is imported by the package, the tests or the
    benchmarks, or listed above with what runs it."""
    from packaging.requirements import Requirement

    code = "\n".join(p.read_text(errors="replace") for folder in ("azlatency", "tests",
                      "benchmarks") for p in (ROOT / folder).rglob("*.py"))
    code += (ROOT / "Makefile").read_text()
    unused = []
    for dep in _declared():
        name = Requirement(dep.split("#")[0]).name.lower()
        module = _MODULE.get(name, name.replace("-", "_"))
        if name in _NOT_IMPORTED:
            continue
        if not re.search(rf"^\s*(import|from) {module}\b", code, re.M):
            unused.append(name)
    assert not unused, f"declared but never imported: {unused}"

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

    assert pulled("dev") == set(extras) - {"lab"}  # JupyterLab: `make lab` adds it
    assert {"notebooks"} <= pulled("lab")
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

    def pins(lock: str) -> dict[str, str]:
        out = {}
        for line in (ROOT / "requirements" / lock).read_text().splitlines():
            if m := re.match(r"^([A-Za-z0-9_.-]+)==(\S+)", line):
                out[m[1].lower().replace("_", "-")] = m[2]
        return out

    dev, lab = pins("dev.lock"), pins("lab.lock")
    # make lab installs lab.lock over dev.lock's environment: every version they share agrees
    assert {k: v for k, v in lab.items() if k in dev} == dev
    for dep in _declared():
        req = Requirement(dep.split("#")[0])
        name = req.name.lower().replace("_", "-")
        got = dev.get(name) or lab.get(name)
        assert got, f"{name} is declared but not in requirements/*.lock: make lock"
        assert req.specifier.contains(got, prereleases=True), (name, got)


# Distribution name -> the module it is imported as, where they differ.
_MODULE = {
    "pyyaml": "yaml",
    "pytest-xdist": "xdist",
    "myst-nb": "myst_nb",
    "dask": "distributed",
    "pillow": "PIL",
}  # dask[distributed]: the engine uses its Client
# Used without an import statement: a command, a plugin or a tool the code runs.
_NOT_IMPORTED = {
    "pytest-xdist": "pytest -n (Makefile)",
    "ruff": "make test / lint",
    "nbstripout": "strips notebook outputs (docs/notebooks.md)",
    "ipykernel": "the notebooks' kernel (Makefile)",
    "myst-nb": "the site's Sphinx extension (report/site.py conf)",
    "furo": "the site's theme (report/site.py conf: html_theme)",
    "jupyterlab": "make lab",
    "twine": "python -m twine check (tests/test_release.py, docs/releasing.md)",
}


def test_every_declared_dependency_is_used():
    """Declare what is used: each dependency is imported by the package, the tests or the
    benchmarks, or listed above with what runs it."""
    from packaging.requirements import Requirement

    code = "\n".join(
        p.read_text(errors="replace")
        for folder in ("azlatency", "tests", "benchmarks")
        for p in (ROOT / folder).rglob("*.py")
    )
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


def test_the_repository_workflow_runs_the_make_targets():
    """.github/workflows/ci.yml: lint, `make test` on Python 3.11-3.13, the report kept as an
    artifact, and the studies `make test` samples (`make test-slow`) and the newest allowed
    versions on a schedule; the same targets as .ci/run."""
    wf = yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text())
    jobs = wf["jobs"]
    runs = {name: " ".join(s.get("run", "") for s in job["steps"]) for name, job in jobs.items()}
    assert "make lint" in runs["lint"] and "make test" in runs["test"]
    assert jobs["test"]["strategy"]["matrix"]["python"] == ["3.11", "3.12", "3.13"]
    assert "make run" in runs["report"]
    upload = next(s for s in jobs["report"]["steps"] if "upload-artifact" in s.get("uses", ""))
    assert upload["with"]["path"] == "reports/"
    assert "make test-latest" in runs["latest"] and "make test-slow" in runs["slow"]
    for target in ("lint:", "test:", "test-slow:", "run:", "test-latest:"):
        assert f"\n{target}" in (ROOT / "Makefile").read_text()

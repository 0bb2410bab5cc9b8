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
    assert "-e .[dev]" in pip
    # the dev extra pulls in every other extra, so the conda env has all of them
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

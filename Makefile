# Two commands a newcomer needs: `make run` and `make test`. Each sets up .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
UV := $(VENV)/bin/uv
STAMP := $(VENV)/.installed-dev
# The environment make installs: every version pinned (regenerate with `make lock`).
LOCK := requirements/dev.lock

.PHONY: run test test-slow bench lint setup clean site lock test-latest docs lab

# The venv without ensurepip's copy of pip (3 of setup's 15 s): this Python's pip installs uv
# into it (pip 22.3+ has --python) and uv adds pip; an older pip makes the venv as usual.
$(PY):
	$(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) -m pip --python $(PY) install -q uv || \
		{ rm -rf $(VENV) && $(PYTHON) -m venv $(VENV) && $(PY) -m pip install -q uv; }
	$(UV) pip install -q --python $(PY) pip

# Bytecode: where PYTHONDONTWRITEBYTECODE is set (CI images often set it) every process —
# each import worker, notebook kernel and pytest worker — would compile pandas, scipy and
# matplotlib from source again, 4 s of a 6.5 s start.  Make's commands write the bytecode of
# what they import (into .venv and azlatency/), and setup imports what a report's and the
# tests' processes start with, in two processes, so that they find it written.  Compiling
# every installed file instead (uv's --compile-bytecode) took 15 of setup's 22 s.
unexport PYTHONDONTWRITEBYTECODE
WARM_PAGES := import azlatency.cli, azlatency.report.run, azlatency.campaign.worker, pandera.pandas, \
	ruptures; from azlatency.report import _kernel; _kernel.warm()
WARM_REST := import sphinx.builders.html, myst_nb.sphinx_ext, furo, ipykernel.kernelapp, debugpy, \
	papermill.engines, pytest, xdist, hypothesis

# Reinstall when the dependency list changes.
$(STAMP): pyproject.toml $(LOCK) | $(PY)
	$(UV) pip install -q --python $(PY) -r $(LOCK)
	$(UV) pip install -q --python $(PY) --no-deps -e .
	$(PY) -m ipykernel install --sys-prefix --name python3 >/dev/null
	$(PY) -c "$(WARM_REST)" & rest=$$!; $(PY) -c "$(WARM_PAGES)" && wait $$rest
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(PY) -m azlatency.make_run

# `make test`: lint; the quick checks, stopping at the first failure (a broken parser or layer
# shows in seconds); then everything else on two workers, each notebook run once.  Tests
# marked `slow` (the CI recipe in a fresh virtualenv; the metamorphic checks in both modes on
# every file, six foreign lines a file, big ones at every sampled position; every overflow
# replacement; all coverage designs; every fixture mapped; 300 lines a tool's openers match)
# are left to `make test-slow`; `make test` keeps a sample of each, turn by turn over the
# files (3 min 12 s-4 min 28 s on two cores after the quick checks, 2026-11-28; 6 min 37 s-
# 7 min 2 s on the slower 2-core machine of 2026-11-27).
QUICK := tests/test_fixtures.py tests/test_contract.py
PYTEST := $(PY) -m pytest -n 2 --dist loadgroup
test: $(STAMP)
	$(PY) -m ruff check azlatency tests benchmarks
	$(PY) -m ruff format --check azlatency tests benchmarks
	$(PYTEST) -x -q -m "not slow" $(QUICK)
	$(PYTEST) -m "not slow" $(addprefix --ignore=,$(QUICK))

test-slow: $(STAMP)
	$(PYTEST) -m slow

# Pin every dependency again from pyproject.toml's ranges (commit the result).
lock: | $(PY)
	$(UV) pip compile -q pyproject.toml --extra dev --universal --python-version 3.11 -o $(LOCK)
	$(UV) pip compile -q pyproject.toml --extra dev --extra lab --universal --python-version 3.11 \
		-c $(LOCK) -o requirements/lab.lock

# The newest versions pyproject.toml allows, in a venv of their own: run it on a schedule to
# see a release break us before users do.
test-latest: | $(PY)
	$(PYTHON) -m venv .venv-latest
	$(UV) pip install -q --upgrade --python .venv-latest/bin/python -e ".[dev]"
	.venv-latest/bin/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	.venv-latest/bin/python -m pytest -n 2 --dist loadgroup -m "not slow"

# JupyterLab on the report notebooks, with the project's kernel and the bundled campaigns
# imported (the notebooks' defaults read them); edit a parameters cell and run.
lab: $(STAMP)
	$(UV) pip install -q --python $(PY) -r requirements/lab.lock
	$(PY) -m azlatency.make_run --import-only
	$(PY) -m jupyter lab notebooks/

# The documentation with its API reference, generated from the docstrings.
docs: $(STAMP)
	$(PY) -m sphinx -q -E -W -b html docs build/docs

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

lint: $(STAMP)
	$(PY) -m ruff check azlatency tests benchmarks
	$(PY) -m ruff format --check azlatency tests benchmarks

clean:
	rm -rf data/processed reports .pytest_cache build

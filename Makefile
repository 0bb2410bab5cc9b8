# Two commands a newcomer needs: `make run` and `make test`. Each sets up .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
UV := $(VENV)/bin/uv
STAMP := $(VENV)/.installed-dev

.PHONY: run test bench lint setup clean site

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip uv

# Reinstall when the dependency list changes.  Bytecode is compiled at install time: where
# PYTHONDONTWRITEBYTECODE is set (CI images often set it) every process — each pytest worker,
# notebook kernel and import worker — otherwise compiles pandas, scipy and matplotlib from
# source again, 4 s of a 6.5 s start.
$(STAMP): pyproject.toml | $(PY)
	$(UV) pip install -q --compile-bytecode --python $(PY) -e ".[dev]"
	$(PY) -m compileall -q azlatency >/dev/null
	$(PY) -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(PY) -m azlatency.make_run

test: $(STAMP)
	$(PY) -m ruff check azlatency tests benchmarks
	$(PY) -m pytest -n 2 --dist loadgroup

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

lint: $(STAMP)
	$(PY) -m ruff check azlatency tests benchmarks
	$(PY) -m ruff format --check azlatency tests benchmarks

clean:
	rm -rf data/processed reports .pytest_cache build

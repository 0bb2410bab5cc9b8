"""Metamorphic tests over every fixture and corpus file (``tests/_metamorphic.py``): a foreign
line inserted, the file cut short, a run's lines duplicated must never change a table without
a warning or a located error (strict), and in the default mode never cost a run either (a
foreign line or a copy is never fatal: the run kept, the line named).  A sample of positions
per file keeps ``make test`` quick (``python -m tests._metamorphic all --every`` tries every
position and prints the table of outcomes); the counts are printed at the end of the run.
"""

from __future__ import annotations

import pytest

import azlatency
from tests import _metamorphic as mm
from tests.conftest import FIXTURES

FILES = mm.files()
GROUPS: dict[str, list] = {}
for _path in FILES:
    GROUPS.setdefault(f"{_path.parent.parent.name}/{_path.parent.name}", []).append(_path)

# Positions tried per file and mode in make test (make test-slow: six foreign lines a file in
# both modes; the full study, python -m tests._metamorphic all --every: every position).
POSITIONS = {"insert": 3, "truncate": 1, "duplicate": 1}
SLOW_POSITIONS = {**POSITIONS, "insert": 6}
# A file this big (two ethr corpus logs of 0.4 and 1.9 MB) is read whole at each position:
# one position here (74 s of the 90 s its group took), all six in make test-slow.
BIG = 128 * 1024


# make test reads each file in one mode per check, turn by turn: strict for one file and the
# default (lenient) mode for the next, the other way round in the next check, so every file
# meets both modes across the three checks and every check both modes across the files.
# make test-slow tries both modes of every check on every file.
_TURN = {"insert": 0, "truncate": 1, "duplicate": 0}
MODES = ((True, 0), (False, 1))


def _positions(check: str, path, every: bool) -> int:
    if every:
        return SLOW_POSITIONS[check]
    return POSITIONS[check] if path.stat().st_size <= BIG else 1


def _modes(check: str, i: int, every: bool) -> tuple:
    return MODES if every else (MODES[(i + _TURN[check]) % 2],)


def _check(check: str, group: str, record_property, every: bool = False) -> None:
    tried, silent = 0, []
    for i, path in enumerate(GROUPS[group]):
        for strict, seed in _modes(check, i, every):
            k = _positions(check, path, every)
            trials = list(mm.TRIALS[check](path, strict=strict, k=k, seed=seed))
            silent += mm.failures(trials, strict=strict)
            tried += len(trials)
    record_property("metamorphic", (check, tried, len(silent)))
    assert not silent, "\n".join(map(str, silent))


def _groups() -> list:
    """The groups, each bound to one xdist worker: its three checks share the files' own
    readings (``_metamorphic._base``)."""
    return [
        pytest.param(g, marks=pytest.mark.xdist_group(f"metamorphic-{g}")) for g in sorted(GROUPS)
    ]


@pytest.mark.parametrize("group", _groups())
def test_a_foreign_line_changes_nothing_unseen(group, record_property):
    _check("insert", group, record_property)


@pytest.mark.parametrize("group", _groups())
def test_a_cut_never_claims_a_whole_run(group, record_property):
    _check("truncate", group, record_property)


@pytest.mark.parametrize("group", _groups())
def test_a_pasted_copy_is_named(group, record_property):
    _check("duplicate", group, record_property)


@pytest.mark.slow
@pytest.mark.parametrize("check", sorted(POSITIONS))
@pytest.mark.parametrize("group", sorted(GROUPS))
def test_every_check_in_both_modes(group, check, record_property):
    """make test-slow: every file in both modes, big files at every sampled position."""
    _check(check, group, record_property, every=True)


def test_a_run_print_changes_with_its_own_rows_only():
    """The harness itself: one sample changed changes that run's print and no other's; a
    column that only another run fills, or that no run fills, changes none."""
    tables = azlatency.read(
        FIXTURES / "ping" / "ping--win10-windows-de-cp850-timeout-unreachable-transcribed.txt"
    )
    before = mm.run_prints(tables)
    samples = tables.samples
    row = samples.index[samples["rtt_us"].notna()][0]
    changed = list(tables.runs["run_id"]).index(samples.loc[row, "run_id"])
    other = 1 - changed
    samples.loc[row, "rtt_us"] += 1.0
    after = mm.run_prints(tables)
    assert after[other] == before[other] and after[changed] != before[changed]
    assert after[changed][0::2] == before[changed][0::2]  # its meta and summaries: the same

    only = samples["run_id"].eq(tables.runs["run_id"].iloc[other])
    tables.samples = samples.assign(only_other=only.map({True: 1.0, False: None}), empty=None)
    again = mm.run_prints(tables)
    assert again[changed] == after[changed] and again[other] != after[other]

"""A samples frame cut into groups of ``by`` and, within each, into runs, by position.

``grouping(...).groupby(by)`` and then each part's ``groupby("run_id")`` took every group's
rows of every column it read, Arrow strings one take each, after merging the run columns of
``by`` into every sample and sorting a few million rows by a string run id: 6.4 s of the
synthetic campaign's 8.9 s of percentiles (issue 39).  A group's key is a function of its
unit: the run, and the run's values of the ``by`` columns the samples hold (a label).  So the
groups come from the units (a few hundred rows: the run columns of ``by`` merged into these),
the order from integer run codes, and each part is only positions into arrays read once
(:class:`common.Columns`).  The groups, their keys, their runs and the order of their rows are
those of the frame path, which still serves samples with a run id missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property

import numpy as np
import pandas as pd

from .common import (
    READ_COLUMNS,
    Columns,
    Observations,
    _in_order,
    attach,
    by_execution,
    grouping,
    observations,
    observe,
    ordered,
)


class Group:
    """One group of ``by``: its key, its runs' observations (by run id, as
    ``groupby("run_id", sort=True)`` gives them) and every observation of the group."""

    def __init__(self, key, cols: Columns | None, pos, part=None, column=None):
        self.key = key  # as ``frame.groupby(by)`` yields it
        self._cols, self._pos, self._part, self._column = cols, pos, part, column

    @cached_property
    def runs(self) -> list[Observations]:
        if self._part is not None:
            parts = self._part.groupby("run_id", sort=True)
            return [observations(p, self._column) for _, p in parts]
        assert self._cols is not None  # a group without its part has the columns
        return [observe(self._cols, p) for p in self._pos]

    @cached_property
    def whole(self) -> Observations:
        """Every observation of the group, run after run in measurement order."""
        if self._part is not None:
            return observations(self._part, self._column)
        assert self._cols is not None
        return observe(self._cols, np.concatenate(self._pos))

    @property
    def n_runs(self) -> int:
        if self._part is not None:
            return self._part["run_id"].nunique()
        return len(self._pos)


def groups(
    samples: pd.DataFrame, runs: pd.DataFrame | None, by: list[str], column: str
) -> Iterator[Group]:
    """The groups of ``by`` (sorted, missing values a group of their own) of ``samples``, as
    ``grouping(samples, runs, by, column).groupby(by, sort=True, dropna=False)`` gives them;
    ``by=[]`` is one group of every sample, keyed ``()``."""
    if "run_id" not in samples.columns or samples["run_id"].hasnans:
        yield from _frame_groups(samples, runs, by, column)
        return
    unit, units = _units(samples, by)
    keyed = attach(units, runs, by)
    if not len(samples):
        return
    # the run of each sample where the run is the unit: its execution unless runs are a group
    named = units if "run_id" in by else by_execution(units, runs)
    ucode, names = pd.factorize(named["run_id"], sort=True)
    rc = ucode[unit]
    cols = Columns.of(samples, column, runs=False)
    cols.runs = np.asarray(names.astype(str), dtype=object)[rc]
    order = _measurement_order(samples, rc)
    keys, of_unit = _unit_groups(keyed, by)
    row_group = of_unit[unit][order]
    order = order[np.argsort(row_group, kind="stable")]
    ends = np.cumsum(np.bincount(row_group, minlength=len(keys)))
    for key, pos in zip(keys, np.split(order, ends[:-1])):
        cut = np.flatnonzero(np.diff(rc[pos])) + 1
        yield Group(key, cols, np.split(pos, cut))


def _units(samples: pd.DataFrame, by: list[str]) -> tuple[np.ndarray, pd.DataFrame]:
    """Each row's unit, a run or a run and its values of the ``by`` columns the samples hold
    (as a label), and the frame of the units (their run id and those columns, the first row
    of each): a group's key is a function of its unit."""
    own = [c for c in by if c != "run_id" and c in samples.columns]
    key = pd.factorize(samples["run_id"])[0].astype(np.int64)
    for c in own:
        codes, uniques = pd.factorize(samples[c], use_na_sentinel=False)
        key = pd.factorize(key * max(len(uniques), 1) + codes)[0].astype(np.int64)
    unit = pd.factorize(key)[0]
    first = pd.Series(unit).drop_duplicates().index.to_numpy()
    return unit, samples[["run_id", *own]].iloc[first].reset_index(drop=True)


def _measurement_order(samples: pd.DataFrame, rc: np.ndarray) -> np.ndarray:
    """Row positions in ``ordered``'s order (a stable sort by run, seq, send and receive
    time, missing values last), the run ids replaced by their sorted codes ``rc``.  The sort
    is numpy's lexsort of each key's (missing, value): pandas sorts a nullable integer column
    through a Categorical of it, 0.36 s for the synthetic campaign's 9.5 * 10^5 samples."""
    keys = [k for k in READ_COLUMNS[1:4] if k in samples.columns]
    light = pd.DataFrame({"run_id": rc, **{k: samples[k].array for k in keys}})
    if _in_order(light, ["run_id", *keys]):
        return np.arange(len(light))
    if not all(light[k].dtype.kind in "iufb" for k in keys):
        return ordered(light).index.to_numpy()
    columns = []
    for k in reversed(keys):  # lexsort's last key is the first one sorted by
        col = light[k]
        exact = getattr(col.dtype, "numpy_dtype", col.dtype)  # Int64: int64, not float
        columns += [col.to_numpy(dtype=exact, na_value=0), col.isna().to_numpy()]
    by_run = np.argsort(rc, kind="stable")
    if _ordered_within(rc[by_run], [c[by_run] for c in columns]):
        return by_run
    return np.lexsort([*columns, rc])


def _ordered_within(runs: np.ndarray, columns: list[np.ndarray]) -> bool:
    """Whether each run's rows (``runs`` sorted, the rows of each in their order in the frame)
    are already in the order of ``columns`` (lexsort's keys, the last one first): ties kept as
    they are, as the stable lexsort keeps them.  Then sorting the runs alone is the whole
    sort: the store holds a run's samples in order, not its runs in the order of their ids,
    and the lexsort of the synthetic campaign's 9.5 * 10^5 samples by seven keys took 0.15 s,
    seven times a report page."""
    ok = np.ones(max(len(runs) - 1, 0), dtype=bool)  # all keys equal: a tie, kept in order
    for c in columns:
        a, b = c[:-1], c[1:]
        ok = (a < b) | ((a == b) & ok)
    return bool(np.all(ok | (runs[1:] != runs[:-1])))


def _unit_groups(keyed: pd.DataFrame, by: list[str]) -> tuple[list, np.ndarray]:
    """The group keys of ``keyed``'s rows (one per run) in ``groupby`` order, and each row's
    group number."""
    of_unit = np.zeros(len(keyed), dtype=np.int64)
    if not by:
        return [()], of_unit
    index = pd.Series(np.arange(len(keyed)))
    keys = []
    for i, (key, members) in enumerate(
        index.groupby([keyed[c] for c in by], sort=True, dropna=False)
    ):
        keys.append(key)
        of_unit[members.to_numpy()] = i
    return keys, of_unit


def _frame_groups(samples, runs, by, column) -> Iterator[Group]:
    """The groups cut from the frame (``by`` columns of the samples, missing run ids)."""
    frame = grouping(samples, runs, by, column)
    if not by:
        if len(frame):
            yield Group((), None, None, frame, column)
        return
    for key, part in frame.groupby(by, sort=True, dropna=False):
        yield Group(key, None, None, part, column)

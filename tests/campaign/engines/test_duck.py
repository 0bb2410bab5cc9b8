"""DuckDB over the store: summarize_store(engine="duckdb") gives the rows of the pandas path
(assert_frame_equal), its SQL pieces equal their numpy counterparts, and the lazy entry points
read the dataset."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import azlatency
from azlatency import campaign, stats
from azlatency.campaign import dataset
from azlatency.campaign.engines import duck
from azlatency.campaign.sql import connect
from azlatency.units import BasisError
from tests.conftest import SYNTH

pytestmark = pytest.mark.xdist_group("engines")


def _ids(t, basis="rtt"):
    return t.runs.loc[t.runs["latency_basis"] == basis, "run_id"]


def _pandas(t, ids, **kw):
    return stats.summarize(t.samples[t.samples["run_id"].isin(ids)], t.runs, **kw)


@pytest.mark.parametrize("dependence", ["auto", "iid", "batch"])
def test_synthetic_campaign_per_run_equals_pandas(synth, dependence):
    _, root, t = synth
    ids = _ids(t)
    got = campaign.summarize_store(SYNTH, root, run_ids=ids, dependence=dependence)  # default
    pd.testing.assert_frame_equal(got, _pandas(t, ids, dependence=dependence))
    assert got["run_id"].nunique() == 46


def test_half_rtt_and_the_basis_check(synth):
    _, root, t = synth
    ids = _ids(t, "half_rtt")
    got = campaign.summarize_store(SYNTH, root, run_ids=ids, metric="half_rtt", engine="duckdb")
    pd.testing.assert_frame_equal(got, _pandas(t, ids, metric="half_rtt"))
    with pytest.raises(BasisError) as want:
        stats.summarize(t.samples, t.runs)
    with pytest.raises(BasisError) as have:
        campaign.summarize_store(SYNTH, root, engine="duckdb")
    assert str(have.value) == str(want.value)  # the same runs named


@pytest.mark.parametrize(
    ("by", "unit"),
    [
        (["src_zone", "dst_zone"], "auto"),
        ("placement", "run"),
        ("placement", "packet"),
        (["tool", "run_id"], "auto"),
    ],
)
def test_synthetic_groups_equal_pandas(synth, by, unit, monkeypatch):
    _, root, t = synth
    ids = _ids(t)
    read = []  # groups handed to group_rows (their rows read); the others are SQL's
    original = duck._Query.read
    monkeypatch.setattr(duck._Query, "read", lambda self, r: read.append(r) or original(self, r))
    got = campaign.summarize_store(SYNTH, root, run_ids=ids, by=by, unit=unit, engine="duckdb")
    pd.testing.assert_frame_equal(got, _pandas(t, ids, by=by, unit=unit))
    groups = got.groupby(by if isinstance(by, list) else [by], dropna=False).ngroups
    if unit == "packet":  # packets pooled across runs: the pooled series is needed
        assert len(read) == groups
    else:  # runs as the unit, or one uncensored run: SQL
        assert groups - len(read) > 0 and len(got) > 0


def test_real_captures_equal_pandas(captures, monkeypatch):
    _, root, t = captures
    monkeypatch.setattr(duck, "CHUNK_ROWS", 100)  # the runs read for group_rows: many chunks
    for basis in ("rtt", "half_rtt"):  # sockperf's latency logs are half-RTT
        ids = _ids(t, basis)
        got = campaign.summarize_store("captures", root, run_ids=ids, metric=basis)
        pd.testing.assert_frame_equal(got, _pandas(t, ids, metric=basis))
        pd.testing.assert_frame_equal(
            got,
            campaign.summarize_store("captures", root, run_ids=ids, metric=basis, engine="pyarrow"),
        )
        assert got["run_id"].nunique() >= 3
        if basis == "rtt":  # ping's timeouts are counted out in SQL as in pandas
            assert got.loc[got["stat"] == "count", "note"].str.contains("excluded").any()


def _query(store_root, name, t, ids):
    folder = store_root / name
    cols = dataset.read_schema(folder, "samples").names
    return duck._Query(connect(folder, order=True), cols, "rtt_us", sorted(ids))


@pytest.mark.parametrize("by", [["run_id"], ["tool", "run_id"]])
@pytest.mark.parametrize("dependence", ["iid", "auto"])
def test_short_runs_are_sql_long_ones_numpy_censored_ones_group_rows(
    synth, captures, monkeypatch, by, dependence
):
    """Per run (and per group of one run): with ``dependence="iid"`` a run of fewer than
    SERIES_ROWS rows is SQL's; with ``"auto"`` its interval rests on a bound of its lag-1
    autocorrelation (issue 29), which needs the series, so it is read and given to group_rows.
    A longer uncensored run goes to the numpy path, a censored run to group_rows; the rows are
    summarize's."""
    sent, read, sql = [], [], []
    series, original_read, original_rows = duck._series, duck._Query.read, duck._rows.series

    def spy(q, per_run, run_ids, kw, slow):
        sent.extend(run_ids)
        yield from series(q, per_run, run_ids, kw, slow)

    monkeypatch.setattr(duck, "_series", spy)
    monkeypatch.setattr(
        duck._Query, "read", lambda self, r: read.extend(r) or original_read(self, r)
    )
    monkeypatch.setattr(
        duck._rows, "series", lambda r, *a: sql.append(r["run_id"]) or original_rows(r, *a)
    )
    seen = {"sql": 0, "numpy": 0, "group_rows": 0}
    for name, (_, root, t) in ((SYNTH, synth), ("captures", captures)):
        ids = _ids(t)
        sent.clear(), read.clear(), sql.clear()
        got = campaign.summarize_store(name, root, run_ids=ids, by=by, dependence=dependence)
        pd.testing.assert_frame_equal(got, _pandas(t, ids, by=by, dependence=dependence))
        kept = t.samples[t.samples["run_id"].isin(ids)]
        rows = kept.groupby("run_id").size()
        censored = set(kept.loc[kept["status"] == "censored", "run_id"])
        # an observation is an ok row with a value (ping -s 8 prints replies without times)
        ok = (kept["status"] == "ok") & np.isfinite(kept["rtt_us"].astype(float))
        n = kept[ok].groupby("run_id").size().reindex(rows.index, fill_value=0)
        short = rows < duck.SERIES_ROWS
        few = set(rows[short & (n < 2)].index) - censored  # (no interval: either path says so)
        plain = set(rows[short & (n >= 2)].index) - censored
        if dependence == "auto":  # a short run's bound needs its series: not SQL's
            few, plain = few | plain, set()
        numpy = set(rows[~short].index) - censored | (few if by == ["run_id"] else set())
        assert set(sent) == numpy
        seq = kept.groupby("run_id")["seq"]
        unordered = set(rows.index[(seq.count() < rows) | (seq.nunique() < seq.count())])
        assert set(read) == censored | (unordered & numpy) | (few - numpy)  # file order: ties
        assert set(sql) == plain
        seen["sql"] += len(sql)
        seen["numpy"] += len(sent)
        seen["group_rows"] += len(read)
    assert min(seen.values()) >= (3 if dependence == "iid" else 0), seen


def test_values_by_rank_and_quantile_cont(captures):
    """The order statistics SQL reads by rank are np.sort's; DuckDB's quantile_cont is numpy's
    linear interpolation (the estimate is computed from the ranks, so it is exact)."""
    _, root, t = captures
    ids = _ids(t)
    q = _query(root, "captures", t, ids)
    per_run = q.per_run()
    rid = max(per_run, key=lambda r: per_run[r]["n"])
    ok = t.samples[(t.samples["run_id"] == rid) & (t.samples["status"] == "ok")]
    xs = np.sort(ok["rtt_us"].to_numpy(dtype=float))
    ranks = np.array([0, 1, len(xs) // 2, len(xs) - 1])
    assert q.values_at({rid: ranks})[rid] == dict(zip(ranks.tolist(), xs[ranks].tolist()))
    cont = azlatency.query(
        "captures",
        f"""SELECT quantile_cont(rtt_us, [0.5, 0.99]) FROM samples
        WHERE run_id = '{rid}' AND status = 'ok'""",
        root,
    ).fetchall()[0][0]
    assert cont == pytest.approx(np.quantile(xs, [0.5, 0.99]).tolist(), rel=1e-12)


def test_lazy_load_and_query(captures):
    _, root, t = captures
    lazy = azlatency.load("captures", root, lazy=True)
    assert lazy.samples.shape[0] == len(t.samples) and lazy.runs.shape[0] == len(t.runs)
    got = azlatency.query(
        "captures",
        """SELECT tool, count(*) AS n FROM samples
        WHERE status = 'ok' GROUP BY tool ORDER BY tool""",
        root,
    ).to_df()
    ok = t.samples[t.samples["status"] == "ok"].merge(t.runs[["run_id", "tool"]], on="run_id")
    want = ok.groupby("tool").size()
    assert got["tool"].tolist() == want.index.tolist() and got["n"].tolist() == want.tolist()
    joined = lazy.query("SELECT count(*) FROM samples JOIN runs USING (run_id, tool)").fetchall()
    assert joined[0][0] == len(t.samples)


def test_an_unknown_engine_is_refused(captures):
    _, root, _ = captures
    with pytest.raises(ValueError, match="engine must be one of duckdb, pyarrow, dask"):
        campaign.summarize_store("captures", root, engine="spark")


def test_rows_out_of_order_repeated_or_null_seq_equal_pandas(synth, tmp_path, monkeypatch):
    """The numpy path reads runs unsorted and puts them in ``seq`` order itself.  A store
    whose sample rows are shuffled (stretches of one run out of order, runs interleaved),
    with one run whose ``seq`` repeats and one with a NULL ``seq`` (both left to
    ``group_rows``, where file order breaks the ties), still gives summarize's rows."""
    import shutil

    import pyarrow as pa
    import pyarrow.parquet as pq

    _, root, t = synth
    shutil.copytree(root / SYNTH, tmp_path / SYNTH)
    (path,) = (tmp_path / SYNTH / "samples").glob("tool=sockperf/*.parquet")
    tbl = pq.read_table(path)
    ids = sorted(set(_ids(t)) & set(tbl.column("run_id").to_pylist()))
    assert len(ids) >= 4
    rng = np.random.default_rng(3)
    blocks = np.array_split(np.arange(tbl.num_rows), 40)  # stretches spanning runs
    order = np.concatenate([blocks[i] for i in rng.permutation(len(blocks))])
    seq = tbl.column("seq").to_numpy().copy()
    run = np.asarray(tbl.column("run_id").to_pylist())
    big = [r for r, _ in pd.Series(run).value_counts().items() if r in ids][:2]  # numpy's
    repeated, nulled = np.flatnonzero(run == big[0]), np.flatnonzero(run == big[1])
    seq[repeated[5]] = seq[repeated[4]]  # a repeated seq: tx time, then file order decide
    mask = np.zeros(tbl.num_rows, bool)
    mask[nulled[7]] = True
    tbl = tbl.set_column(
        tbl.schema.get_field_index("seq"), "seq", pa.array(seq, pa.int64(), mask=mask)
    ).take(order)
    pq.write_table(tbl, path, row_group_size=997)

    loaded = azlatency.load(SYNTH, root=tmp_path)
    read: list = []  # runs handed to group_rows
    original = duck._Query.read
    monkeypatch.setattr(duck._Query, "read", lambda self, r: read.extend(r) or original(self, r))
    sent: list = []  # runs given to the numpy path
    series = duck._series

    def spy(q, per_run, run_ids, kw, slow):
        sent.extend(run_ids)
        yield from series(q, per_run, run_ids, kw, slow)

    monkeypatch.setattr(duck, "_series", spy)
    monkeypatch.setattr(duck, "CHUNK_ROWS", 1000)
    got = campaign.summarize_store(SYNTH, tmp_path, run_ids=ids, engine="duckdb")
    pd.testing.assert_frame_equal(got, _pandas(loaded, ids))
    assert big[0] in sent  # the longest run is autocorrelated: numpy's
    # Only the repeated or NULL seq went to group_rows; every other run, though its rows
    # came shuffled, was put in order by numpy.
    assert set(sent) & set(read) == {r for r in big if r in sent}
    assert len(set(sent) - set(read)) >= 3


@pytest.mark.parametrize("dependence", ["auto", "iid", "batch"])
def test_long_runs_skip_the_moments_pass_and_equal_pandas(synth, captures, monkeypatch, dependence):
    """Uncensored runs of SERIES_ROWS rows or more go straight to the numpy path: the GROUP BY
    pass of moments reads only the others, and the rows are still summarize's (runs with
    losses, short series, censored runs and ``iid`` among them; at 300, runs of 50 to 299
    observations are left to test, and go to the numpy path from ``split``)."""
    monkeypatch.setattr(duck, "SERIES_ROWS", 300)
    asked: list = []
    original = duck._Query.per_run
    monkeypatch.setattr(
        duck._Query, "per_run", lambda self, r=None: asked.append(r) or original(self, r)
    )
    for name, (_, root, t) in ((SYNTH, synth), ("captures", captures)):
        ids = _ids(t)
        asked.clear()
        got = campaign.summarize_store(name, root, run_ids=ids, dependence=dependence)
        pd.testing.assert_frame_equal(got, _pandas(t, ids, dependence=dependence))
        rows = t.samples[t.samples["run_id"].isin(ids)].groupby("run_id").size()
        (short,) = asked
        assert set(short) < set(ids) and set(rows[rows < 300].index) <= set(short)


@pytest.mark.parametrize("literal_max", [0, 10_000])
def test_the_scan_names_its_runs_in_sql_or_joins_a_table(synth, monkeypatch, literal_max):
    """The numpy path's scan filters its runs by a literal list (few runs) or a semi-join with
    a registered table (many): both give summarize's rows, ``run_ids`` a subset of the store."""
    monkeypatch.setattr(duck, "LITERAL_MAX", literal_max)
    sent: list[str] = []
    original = duck._Query.__init__

    def spy(self, con, *a):
        original(self, con, *a)
        sql = con.sql
        self.con = type(
            "Con",
            (),
            {
                "sql": lambda _, q: sent.append(q) or sql(q),
                "register": lambda _, *r: con.register(*r),
                "execute": lambda _, *r: con.execute(*r),
            },
        )()

    monkeypatch.setattr(duck._Query, "__init__", spy)
    _, root, t = synth
    ids = _ids(t)[::2]
    got = campaign.summarize_store(SYNTH, root, run_ids=ids)
    pd.testing.assert_frame_equal(got, _pandas(t, ids))
    (scan,) = [q for q in sent if "FROM obs_all" in q]
    assert ("SELECT run_id FROM series_runs" in scan) == (literal_max == 0)


def test_run_counts_come_from_the_footers_of_large_inputs_files(synth, tmp_path, monkeypatch):
    """A linked input's file (each row group one run, no censored row) is counted from its
    footer, the other files by the SQL pass over them alone: the same counts as the rows
    themselves, censored runs among the others, and summarize's rows."""
    raw, _, t = synth
    sizes = t.samples.groupby("run_id").size()
    monkeypatch.setattr(dataset, "LINK_ROWS", int(sizes.median()))
    monkeypatch.setattr(duck, "SERIES_ROWS", 300)
    azlatency.import_campaign(raw, root=tmp_path, workers=1)
    folder = tmp_path / SYNTH
    files = dataset.table_files(folder, "samples")
    pure, others = dataset.footer_runs(files)
    assert pure and others and set(others) < set(files)
    assert {r: sizes[r] for r in pure} == {r: sum(n for *_, n in gs) for r, gs in pure.items()}
    censored = set(t.samples.loc[t.samples["status"] == "censored", "run_id"])
    assert censored and not censored & set(pure)
    ids = _ids(t)
    q = _query(tmp_path, SYNTH, t, ids)
    got = q.counts(folder)
    kept = t.samples[t.samples["run_id"].isin(ids)]
    assert {r: c["rows"] for r, c in got.items()} == kept.groupby("run_id").size().to_dict()
    assert {r for r, c in got.items() if c["n_cens"]} == censored & set(ids)
    assert set(q.placed) == set(pure)
    read = []  # the long runs of those files are read from their row groups, not scanned
    original = duck._series_rows.read_series
    monkeypatch.setattr(
        duck._series_rows,
        "read_series",
        lambda groups, *a: read.append(groups[0][0]) or original(groups, *a),
    )
    pd.testing.assert_frame_equal(
        campaign.summarize_store(SYNTH, tmp_path, run_ids=ids), _pandas(t, ids)
    )
    run_of = {f: r for r, gs in pure.items() for f, *_ in gs}
    read_runs = [run_of[f] for f in read]  # every long run among them, and found-dependent ones
    long = {r for r in set(pure) & set(ids) if sizes[r] >= duck.SERIES_ROWS}
    assert long and long <= set(read_runs) <= set(pure) & set(ids)
    assert len(read_runs) == len(set(read_runs))

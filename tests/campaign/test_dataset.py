"""The store as a dataset (docs/store.md): hive-partitioned samples readable with plain DuckDB
SQL and plain pyarrow.dataset, a manifest that lists every file, format-1 stores migrated."""

from __future__ import annotations

import json
import shutil

import duckdb
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from azlatency import campaign, schema
from azlatency.campaign import dataset, store
from tests.campaign.conftest import tree_digest
from tests.conftest import FIXTURES


@pytest.fixture
def mixed(copy_campaign):
    """seed002 (reported values only) plus real captures of three sample-giving tools."""
    raw = copy_campaign("seed002-ppg-latte")
    for tool, pattern in (
        ("sockperf", "*fulllog*.csv"),
        ("ping", "*-D*.txt"),
        ("echo_csv", "*20probes.csv"),
    ):
        for f in sorted((FIXTURES / tool).glob(pattern)):
            if ".expected." not in f.name:
                shutil.copy(f, raw / f.name)
    return raw


def test_samples_are_partitioned_by_tool_and_ordered_by_run(mixed, stores):
    campaign.import_campaign(mixed, root=stores, workers=1)
    folder = stores / mixed.name
    t = campaign.load(folder)
    files = dataset.table_files(folder, "samples")
    tools = {f.parent.name for f in files}
    assert tools == {"tool=echo_csv", "tool=ping", "tool=sockperf"}
    tool_of = dict(zip(t.runs["run_id"], t.runs["tool"]))
    first = pq.read_schema(files[0])
    for f in files:
        tbl = pq.read_table(f)
        ids = tbl["run_id"].to_pylist()
        assert {tool_of[r] for r in ids} == {f.parent.name.removeprefix("tool=")}
        assert ids == sorted(ids)  # row groups ordered by run
        assert pq.read_schema(f).equals(first)  # one schema: no merging needed to read
    assert "tool" not in first.names  # the partition key lives in the path only
    assert sum(pq.read_metadata(f).num_rows for f in files) == len(t.samples) > 3000


# dask's Parquet reader calls reset_index(inplace=True), which pandas 3.1 deprecates
@pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.reset_index")
def test_plain_duckdb_and_pyarrow_read_the_store(mixed, stores):
    """No azlatency code: the SQL and the dataset calls a user would write from docs/store.md."""
    campaign.import_campaign(mixed, root=stores, workers=1)
    folder = stores / mixed.name
    t = campaign.load(folder)
    want = t.samples.merge(t.runs[["run_id", "tool"]], on="run_id").groupby("tool").size()

    con = duckdb.connect()
    got = con.sql(f"""
        SELECT s.tool, count(*) AS n, sum(s.rtt_us) AS rtt
        FROM read_parquet('{folder}/samples/*/*.parquet', hive_partitioning = true,
                          hive_types = {{'tool': VARCHAR}}) s
        JOIN read_parquet('{folder}/runs/*.parquet') r USING (run_id)
        WHERE s.tool = r.tool
        GROUP BY s.tool ORDER BY s.tool""").fetchall()
    assert [(tool, n) for tool, n, _ in got] == list(want.items())
    assert got[1][2] == pytest.approx(
        t.samples.loc[
            t.samples.run_id.map(dict(zip(t.runs.run_id, t.runs.tool))) == "ping", "rtt_us"
        ].sum()
    )
    types = {
        r[0]: r[1]
        for r in con.sql(
            f"DESCRIBE SELECT * FROM read_parquet('{folder}/runs/*.parquet')"
        ).fetchall()
    }
    # zones stay strings; nanosecond UTC timestamps stay nanoseconds
    assert types["src_zone"] == "VARCHAR" and types["start_time"] == "TIMESTAMPTZ_NS"

    part = ds.partitioning(pa.schema([("tool", pa.string())]), flavor="hive")
    tbl = ds.dataset(folder / "samples", format="parquet", partitioning=part).to_table()
    assert tbl.num_rows == len(t.samples) and tbl.schema.field("tool").type == pa.string()
    assert sorted(pc.unique(tbl["tool"]).to_pylist()) == list(want.index)

    dd = pytest.importorskip("dask.dataframe")  # docs/store.md's Dask call
    frame = dd.read_parquet(
        folder / "samples",
        dataset={"partitioning": {"flavor": "hive", "schema": pa.schema([("tool", pa.string())])}},
    )
    counts = frame.groupby("tool").size().compute().sort_index()
    assert counts.index.tolist() == list(want.index) and counts.tolist() == want.tolist()


def test_a_numeric_looking_partition_stays_a_string(tmp_path):
    """DESIGN §7: undeclared, hive key "1" comes back as int32; declared, it is "1"."""
    part = tmp_path / "samples" / "tool=1"
    part.mkdir(parents=True)
    pq.write_table(pa.table({"run_id": ["a"]}), part / "part-0.parquet")
    assert dataset.arrow_dataset(tmp_path).to_table()["tool"].to_pylist() == ["1"]
    guessed = ds.dataset(tmp_path / "samples", format="parquet", partitioning="hive")
    assert pa.types.is_integer(guessed.schema.field("tool").type)  # the trap, for the record


def test_manifest_lists_every_file_and_an_empty_table_keeps_its_file(copy_campaign, stores):
    raw = copy_campaign("seed004-echo-uksouth")  # reported values only: no samples
    campaign.import_campaign(raw, root=stores, workers=1)
    folder = stores / raw.name
    manifest = json.loads((folder / "manifest.json").read_text())
    listed = {name for info in manifest["tables"].values() for name in info["files"]}
    on_disk = {
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*.parquet")
        if not p.relative_to(folder).as_posix().startswith("cache/")
    }
    assert (
        listed
        == on_disk
        == {
            "runs/part-0.parquet",
            "summaries/part-0.parquet",
            f"samples/tool={dataset.HIVE_NULL}/part-0.parquet",
        }
    )
    assert manifest["tables"]["samples"]["rows"] == 0
    assert manifest["tables"]["runs"]["files"]["runs/part-0.parquet"][
        "sha256"
    ] == store.file_sha256(folder / "runs" / "part-0.parquet")
    n = duckdb.sql(
        f"SELECT count(*) FROM read_parquet('{folder}/samples/*/*.parquet', "
        "hive_partitioning = true, hive_types = {'tool': VARCHAR})"
    ).fetchall()[0][0]
    assert n == 0


def _as_format_1(folder):
    """Rewrite a store as format 1 wrote it: three files, the manifest's sha256 per table."""
    manifest = json.loads((folder / "manifest.json").read_text())
    info = {}
    for table in dataset.TABLES:  # format 1 held the columns with values only
        tbl = dataset.read(folder, table, manifest["tables"][table]["columns"])
        meta = {**tbl.schema.metadata, b"azlatency.format_version": b"1"}
        store.write_table(tbl.replace_schema_metadata(meta), folder / f"{table}.parquet")
        shutil.rmtree(folder / table)
        info[table] = {
            "rows": tbl.num_rows,
            "columns": tbl.column_names,
            "sha256": store.file_sha256(folder / f"{table}.parquet"),
        }
    manifest.update(format_version=1, tables=info)
    (folder / "manifest.json").write_text(json.dumps(manifest))


def _sorted(df):
    keys = [c for c in ("run_id", "seq", "stat", "metric") if c in df.columns]
    return df.sort_values(keys, kind="stable").reset_index(drop=True)


def test_a_format_1_store_migrates_on_load(mixed, stores):
    campaign.import_campaign(mixed, root=stores, workers=1)
    folder = stores / mixed.name
    before = campaign.load(folder)
    _as_format_1(folder)
    assert (folder / "samples.parquet").is_file()
    after = campaign.load(folder)  # migrates in place, then reads
    manifest = json.loads((folder / "manifest.json").read_text())
    assert (manifest["format_version"], manifest["migrated_from"]) == (schema.FORMAT_VERSION, 1)
    assert not (folder / "samples.parquet").exists()
    assert {f.parent.name for f in dataset.table_files(folder, "samples")} == {
        "tool=echo_csv",
        "tool=ping",
        "tool=sockperf",
    }
    for table in ("runs", "samples", "summaries"):
        a, b = getattr(before, table), getattr(after, table)
        assert len(a) > 0
        assert _sorted(a).equals(_sorted(b)), table
    assert (
        pq.read_schema(folder / "runs" / "part-0.parquet").metadata[b"azlatency.format_version"]
        == str(schema.FORMAT_VERSION).encode()
    )


def test_a_format_1_store_reimports_cleanly_then_stands(mixed, stores, tmp_path):
    campaign.import_campaign(mixed, root=stores, workers=1)
    folder = stores / mixed.name
    fresh = tree_digest(folder)
    _as_format_1(folder)
    again = campaign.import_campaign(mixed, root=stores, workers=1)
    assert again.changed and again.reused == 0  # the old cache's stamp names format 1
    assert not (folder / "samples.parquet").exists()
    assert tree_digest(folder) == fresh  # byte for byte the store a first import writes
    stamped = tree_digest(folder, mtimes=True)
    idle = campaign.import_campaign(mixed, root=stores, workers=1)
    assert idle.changed is False and tree_digest(folder, mtimes=True) == stamped  # untouched


def test_a_hook_table_is_written_listed_and_compared(mixed, stores, monkeypatch):
    """dataset.EXTRA_TABLES (a table built from the written store): the hook's files join the store,
    its manifest and the "nothing changed" check."""
    seen = []

    def per_run_counts(folder):
        samples = dataset.read(folder, "samples", ["run_id"])
        values, counts = pc.value_counts(samples["run_id"]).flatten()
        seen.append(len(counts))
        (folder / "sketches").mkdir()
        pq.write_table(
            pa.table({"run_id": values, "n": counts}), folder / "sketches" / "part-0.parquet"
        )

    monkeypatch.setitem(dataset.EXTRA_TABLES, "sketches", per_run_counts)
    campaign.import_campaign(mixed, root=stores, workers=1)
    folder = stores / mixed.name
    manifest = json.loads((folder / "manifest.json").read_text())
    assert list(manifest["tables"]["sketches"]["files"]) == ["sketches/part-0.parquet"]
    assert manifest["tables"]["sketches"]["rows"] == seen[0] > 5
    stamped = tree_digest(folder, mtimes=True)
    assert campaign.import_campaign(mixed, root=stores, workers=1).changed is False
    assert tree_digest(folder, mtimes=True) == stamped
    (folder / "sketches" / "part-0.parquet").unlink()  # a lost file is rewritten
    assert campaign.import_campaign(mixed, root=stores, workers=1).changed is True
    assert (folder / "sketches" / "part-0.parquet").is_file()


def test_unchanged_partitions_are_linked_not_rewritten(mixed, stores, tmp_path):
    """A new ping log changes the ping partition only: the sockperf and echo files are the old
    files (hard links, same inode), and the store is the one a first import writes."""
    campaign.import_campaign(mixed, root=stores, workers=1)
    folder = stores / mixed.name
    inodes = {f.parent.name: f.stat().st_ino for f in dataset.table_files(folder, "samples")}
    extra = sorted((FIXTURES / "ping").glob("*linux-c15-i0.2-gap-partial-loss.txt"))[0]
    shutil.copy(extra, mixed / extra.name)
    again = campaign.import_campaign(mixed, root=stores, workers=1)
    assert again.changed and again.parsed == 1
    now = {f.parent.name: f.stat().st_ino for f in dataset.table_files(folder, "samples")}
    assert now["tool=sockperf"] == inodes["tool=sockperf"]
    assert now["tool=echo_csv"] == inodes["tool=echo_csv"]
    assert now["tool=ping"] != inodes["tool=ping"]
    campaign.import_campaign(mixed, root=tmp_path / "fresh", workers=1)
    assert tree_digest(folder) == tree_digest(tmp_path / "fresh" / mixed.name)


def test_a_partition_is_cut_into_files_at_source_file_boundaries(
    mixed, stores, tmp_path, monkeypatch
):
    """With FILE_ROWS small, the sockperf partition is several files (part-0, part-1, ...)
    written by two threads.  No run spans two files, every file keeps the run order, the
    rows are those of a one-file store, a re-import with nothing changed writes nothing,
    and a new file of another tool leaves them linked."""
    campaign.import_campaign(mixed, root=tmp_path / "one", workers=1)
    whole = campaign.load(tmp_path / "one" / mixed.name)
    monkeypatch.setattr(dataset, "FILE_ROWS", 1000)
    monkeypatch.setattr(dataset, "WRITE_THREADS", 2)
    campaign.import_campaign(mixed, root=stores, workers=1)
    folder = stores / mixed.name
    files = dataset.table_files(folder, "samples")
    sockperf = [f for f in files if f.parent.name == "tool=sockperf"]
    assert len(sockperf) >= 3
    assert [f.name for f in sockperf] == [f"part-{k}.parquet" for k in range(len(sockperf))]
    seen: set[str] = set()
    last = ""
    for f in sockperf:  # in reading order: runs ascend across files too
        ids = pq.read_table(f, columns=["run_id"])["run_id"].to_pylist()
        assert ids == sorted(ids) and ids[0] >= last
        assert not (set(ids) & seen)  # a run lives in one file
        seen |= set(ids)
        last = ids[-1]
    t = campaign.load(folder)
    assert t.samples.equals(whole.samples)
    # pyarrow's dataset lists the files in the same order (part-2 before part-10)
    got = dataset.arrow_dataset(folder).to_table(columns=["run_id"])["run_id"].to_pylist()
    assert got == t.samples["run_id"].tolist()
    manifest = json.loads((folder / store.MANIFEST).read_text(encoding="utf-8"))
    assert set(manifest["tables"]["samples"]["files"]) == {
        f.relative_to(folder).as_posix() for f in files
    }
    assert campaign.import_campaign(mixed, root=stores, workers=1).changed is False
    inodes = {f: f.stat().st_ino for f in sockperf}
    extra = sorted((FIXTURES / "ping").glob("*linux-c15-i0.2-gap-partial-loss.txt"))[0]
    shutil.copy(extra, mixed / extra.name)
    assert campaign.import_campaign(mixed, root=stores, workers=1).changed
    assert {f: f.stat().st_ino for f in sockperf} == inodes  # linked, not rewritten


def test_files_are_read_in_the_order_they_were_cut(tmp_path):
    part = tmp_path / "samples" / "tool=sockperf"
    part.mkdir(parents=True)
    for k in (10, 2, 0, 1, 11):
        pq.write_table(pa.table({"run_id": [f"r{k:02d}"]}), part / f"part-{k}.parquet")
    names = [f.name for f in dataset.table_files(tmp_path, "samples")]
    assert names == [f"part-{k}.parquet" for k in (0, 1, 2, 10, 11)]
    rows = dataset.arrow_dataset(tmp_path).to_table()["run_id"].to_pylist()
    assert rows == ["r00", "r01", "r02", "r10", "r11"]


def test_a_large_part_is_its_own_file_in_the_plan():
    """A whole (linked) part takes the next number; the packed parts around it keep order."""
    rows, tools = [10, 500, 10, 10, 700], [["a"], ["a"], ["a"], ["b"], ["a"]]
    plan = dataset.plan_files(rows, tools, [False, True, False, False, True])
    assert plan == {
        "samples/tool=a/part-0.parquet": [0],
        "samples/tool=a/part-1.parquet": [1],
        "samples/tool=a/part-2.parquet": [2],
        "samples/tool=b/part-0.parquet": [3],
        "samples/tool=a/part-3.parquet": [4],
    }
    assert dataset.plan_files(rows[1:3], tools[1:3], [True, False]) == {
        "samples/tool=a/part-0.parquet": [0],
        "samples/tool=a/part-1.parquet": [1],
    }


def test_a_large_part_is_linked_from_the_cache_not_rewritten(mixed, stores, tmp_path, monkeypatch):
    """With LINK_ROWS small, every sockperf full log is a samples file that is its cache
    file (one inode): the samples read back are those of a store whose files were all
    written, in the same order, and plain DuckDB reads the same rows."""
    campaign.import_campaign(mixed, root=tmp_path / "packed", workers=1)
    packed = campaign.load(tmp_path / "packed" / mixed.name)
    assert all(
        f.stat().st_nlink == 1
        for f in dataset.table_files(tmp_path / "packed" / mixed.name, "samples")
    )
    monkeypatch.setattr(dataset, "LINK_ROWS", 700)  # the full logs: 767-1099 rows
    campaign.import_campaign(mixed, root=stores, workers=1)
    folder = stores / mixed.name
    files = dataset.table_files(folder, "samples")
    cache = {f.stat().st_ino: f.name for f in (folder / store.CACHE).glob("*.samples.parquet")}
    linked = [f for f in files if f.stat().st_ino in cache]
    sockperf = [f for f in files if f.parent.name == "tool=sockperf"]
    big = [f for f in sockperf if pq.read_metadata(f).num_rows >= 700]
    assert len(big) == 3 and set(big) == {f for f in linked if f in sockperf}
    assert not [f for f in linked if f.parent.name == "tool=ping"]  # small: packed
    for f in linked:  # in the target schema, ordered by run, as a written file would be
        assert pq.read_schema(f).equals(dataset.sample_target(), check_metadata=True)
        ids = pq.read_table(f, columns=["run_id"])["run_id"].to_pylist()
        assert ids == sorted(ids)
    t = campaign.load(folder)
    assert t.samples.equals(packed.samples)
    assert list(t.samples.columns) == list(packed.samples.columns)
    n = duckdb.sql(
        f"SELECT count(*), sum(rtt_us) FROM read_parquet('{folder}/samples/*/*.parquet')"
    ).fetchall()[0]
    assert n[0] == len(packed.samples) and n[1] == pytest.approx(packed.samples.rtt_us.sum())
    manifest = json.loads((folder / store.MANIFEST).read_text(encoding="utf-8"))
    assert campaign.import_campaign(mixed, root=stores, workers=1).changed is False
    assert json.loads((folder / store.MANIFEST).read_text(encoding="utf-8")) == manifest
    assert dataset.intact(folder, manifest)


def test_two_campaigns_read_as_one_table_without_schema_merging(mixed, stores, tmp_path):
    """Every samples file holds every declared column, so a glob over two campaigns of
    different tools is one table to DuckDB and pyarrow, no union_by_name, no unification."""
    campaign.import_campaign(mixed, root=stores, workers=1)
    pings = tmp_path / "pings"
    pings.mkdir()
    for f in sorted((FIXTURES / "ping").glob("*-D*.txt")):
        if ".expected." not in f.name:
            shutil.copy(f, pings / f.name)
    campaign.import_campaign(pings, root=stores, workers=1)
    a, b = campaign.load(stores / mixed.name), campaign.load(stores / "pings")
    assert set(a.samples.columns) != set(b.samples.columns)  # the valued columns differ
    files = sorted(stores.glob("*/samples/*/*.parquet"))
    first = pq.read_schema(files[0])
    assert all(pq.read_schema(f).equals(first) for f in files)
    got = duckdb.sql(
        f"SELECT count(*), count(rtt_us), count(DISTINCT run_id) "
        f"FROM read_parquet('{stores}/*/samples/*/*.parquet')"
    ).fetchall()[0]
    both = pd.concat([a.samples, b.samples])
    assert got == (len(both), both["rtt_us"].notna().sum(), both["run_id"].nunique())
    assert ds.dataset([str(f) for f in files]).to_table().num_rows == len(both)

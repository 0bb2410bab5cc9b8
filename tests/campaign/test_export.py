"""``azlatency export`` (issue 41): a campaign's runs and summaries as CSV, NDJSON,
OpenMetrics and InfluxDB line protocol, round-tripped through the real systems — pandas,
Prometheus' ``promtool`` (lint, backfill into a TSDB, a query of it) and an InfluxDB 1.x
started on loopback — wherever Debian's ``prometheus`` and ``influxdb`` are installed
(``.ci/run`` installs them; elsewhere those tests skip and say why)."""

from __future__ import annotations

import io
import json
import re
import shutil
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from azlatency.campaign import load
from azlatency.campaign.export import BASE, export, influx, openmetrics, points
from azlatency.cli import main
from tests.conftest import SYNTH

PROMTOOL = shutil.which("promtool")
INFLUXD = shutil.which("influxd")
needs_promtool = pytest.mark.skipif(
    PROMTOOL is None, reason="promtool is not installed (Debian package prometheus)"
)
needs_influxd = pytest.mark.skipif(
    INFLUXD is None, reason="influxd is not installed (Debian package influxdb, 1.x)"
)
KEY = ["run_id", "metric", "stat", "source"]


@pytest.fixture(scope="module")
def store(synth):
    """(store root, tables, points) of the tiny synthetic campaign (tests/conftest.py)."""
    _, root, _ = synth
    tables = load(SYNTH, root, columns=["time_ns"])
    return root, tables, points(tables)


def test_points_are_every_summary_and_run_count_with_tags_units_and_times(store):
    _, tables, p = store
    s = tables.summaries
    got = p[p["source"] != "run"]
    assert len(got) == int(np.isfinite(s["value"]).sum())
    assert (got["name"] == got["metric"] + "_" + got["unit"].replace({"bps": "bits_per_second"}))[
        got["unit"].isin(["us", "bps", "bytes", "pct"])
    ].all()
    loss = p[(p["metric"] == "loss") & (p["source"] == "run")]
    assert set(loss["name"]) == {"loss_pct"}
    assert len(loss) == tables.runs["loss_pct"].notna().sum()
    assert {"campaign", "run_id", "tool", "scenario", "src_zone", "label_synthetic"} <= set(p)
    # a time where the run has one: its start_time, else its first timed sample
    runs = tables.runs.set_index("run_id")
    first = tables.samples.groupby("run_id")["time_ns"].min()
    for rid, ts in p.drop_duplicates("run_id").set_index("run_id")["timestamp_ns"].items():
        st = runs.loc[rid, "start_time"]
        want = st.value if pd.notna(st) else first.get(rid, pd.NA)
        assert (pd.isna(ts) and pd.isna(want)) or ts == want, rid
    assert p["timestamp_ns"].notna().any() and p["timestamp_ns"].isna().any()


def test_csv_and_ndjson_round_trip_through_pandas(store):
    root, _, p = store
    readers = (
        ("csv", lambda f: pd.read_csv(f, dtype={"timestamp_ns": "Int64"})),
        # read_json turns integers with gaps into floats: the ISO time is exact
        (
            "ndjson",
            lambda f: pd.read_json(f, lines=True, precise_float=True).assign(
                timestamp_ns=lambda d: _ns(d)
            ),
        ),  # fmt: skip
    )
    for fmt, reader in readers:
        text = export(SYNTH, root, format=fmt).text
        read = reader(io.StringIO(text))
        assert len(read) == len(p) and list(read.columns) == list(p.columns)
        # row for row, in the order written: the same keys, the same floats to the last bit
        for col in (*KEY, "name"):
            assert (read[col].astype(str) == p[col].astype(str)).all(), (fmt, col)
        assert (read["value"].to_numpy() == p["value"].to_numpy()).all(), fmt
        assert (read["timestamp_ns"].fillna(-1) == p["timestamp_ns"].fillna(-1)).all(), fmt


def _ns(frame: pd.DataFrame) -> pd.Series:
    when = pd.to_datetime(frame["time"], utc=True, format="ISO8601").dt.as_unit("ns")
    out = pd.Series(when.astype("int64"), index=frame.index, dtype="Int64")
    out[when.isna()] = pd.NA  # never through float64: it cannot hold nanoseconds since 1970
    return out


def test_untimed_runs_and_bad_requests(store):
    root, _, p = store
    timed = p["timestamp_ns"].notna()
    skip = export(SYNTH, root, format="influx")
    keep = export(SYNTH, root, format="influx", untimed="keep")
    assert skip.rows == timed.sum() and keep.rows == len(p)
    assert skip.untimed_runs == p.loc[~timed, "run_id"].nunique() and skip.untimed_left_out
    with pytest.raises(ValueError, match="format must be one of csv, ndjson"):
        export(SYNTH, root, format="parquet")


def _fake() -> pd.DataFrame:
    """Two points whose tags need escaping in both formats."""
    return pd.DataFrame(
        {
            "campaign": ["a b,c=d", 'q"uote\\back'],
            "run_id": ["r1", "r2"],
            "scenario": ["line\nbreak", pd.NA],
            "name": ["rtt_us", "throughput_receiver_bits_per_second"],
            "metric": ["rtt", "throughput_receiver"],
            "stat": ["p99.9", "mean"],
            "unit": ["us", "bps"],
            "value": [123.456, 9.5e9],
            "source": ["computed", "reported"],
            "level": [np.nan, 0.99],
            "timestamp_ns": pd.array([1_780_000_000_123_456_789, 1_780_000_001_000_000_000],
                                     dtype="Int64"),
        }
    )  # fmt: skip


def test_escaping_and_units_of_the_two_line_formats():
    om = openmetrics(_fake())
    assert 'campaign="q\\"uote\\\\back"' in om and 'scenario="line\\nbreak"' in om
    assert "azlatency_rtt_seconds{" in om and " 0.000123456 1780000000\n" in om
    assert "# UNIT azlatency_throughput_receiver_bytes_per_second bytes_per_second" in om
    assert " 1187500000.0 1780000001\n" in om and om.endswith("# EOF\n")
    lp = influx(_fake()).splitlines()
    assert len(lp) == 2 and lp[0].startswith("rtt_us,campaign=a\\ b\\,c\\=d,")
    assert "scenario=line\\nbreak" in lp[0]  # a line break cannot be written: two characters
    assert lp[0].endswith(" value=123.456 1780000000123456789")
    assert "level=0.99" in lp[1] and "scenario" not in lp[1]


@needs_promtool
def test_openmetrics_escapes_pass_promtool():
    res = subprocess.run([PROMTOOL, "check", "metrics"], input=openmetrics(_fake().iloc[[1]]),
                         capture_output=True, text=True)  # fmt: skip
    assert res.returncode == 0, res.stdout + res.stderr


def _dump(tsdb: Path, match: str) -> list[tuple[dict, float, int]]:
    (tsdb / "wal").mkdir(exist_ok=True)  # `tsdb dump` opens the head's WAL too
    res = subprocess.run([PROMTOOL, "tsdb", "dump", f"--match={match}", str(tsdb)],
                         capture_output=True, text=True, check=True)  # fmt: skip
    out = []
    for line in res.stdout.splitlines():
        m = re.fullmatch(r"\{(.*)\} (\S+) (\d+)", line)
        labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m[1]))
        out.append((labels, float(m[2]), int(m[3])))
    return out


@needs_promtool
def test_openmetrics_lints_backfills_and_queries_back(store, tmp_path):
    root, _, p = store
    result = export(SYNTH, root, format="openmetrics")
    path = tmp_path / "campaign.om"
    path.write_text(result.text)
    lint = subprocess.run([PROMTOOL, "check", "metrics"], input=result.text,
                          capture_output=True, text=True)  # fmt: skip
    assert lint.returncode == 0, lint.stdout + lint.stderr
    tsdb = tmp_path / "tsdb"
    made = subprocess.run([PROMTOOL, "tsdb", "create-blocks-from", "openmetrics", str(path),
                           str(tsdb)], capture_output=True, text=True)  # fmt: skip
    assert made.returncode == 0, made.stdout + made.stderr
    dumped = _dump(tsdb, '{__name__=~"azlatency_.+"}')
    timed = p[p["timestamp_ns"].notna()]
    assert len(dumped) == len(timed) == result.rows
    want = {(r["run_id"], r["metric"], r["stat"], r["source"]): r for r in timed.to_dict("records")}
    for labels, value, ts_ms in dumped:
        r = want[(labels["run_id"], _metric(labels["__name__"]), labels["stat"], labels["source"])]
        factor = BASE.get(r["unit"], ("", 1.0))[1]
        assert value == pytest.approx(r["value"] * factor, rel=1e-12), labels
        assert ts_ms == r["timestamp_ns"] // 10**9 * 1000
    # a query by label: the round trips of one run, in seconds
    one = timed[(timed["metric"] == "rtt") & (timed["unit"] == "us")].iloc[0]
    got = _dump(tsdb, f'azlatency_rtt_seconds{{run_id="{one["run_id"]}"}}')
    assert {lb["stat"] for lb, _, _ in got} == set(
        timed[(timed["run_id"] == one["run_id"]) & (timed["name"] == "rtt_us")]["stat"]
    )


def _metric(family: str) -> str:
    name = family.removeprefix("azlatency_").removesuffix("_value")
    for base, _ in sorted(set(BASE.values()), key=lambda b: -len(b[0])):
        if base and name.endswith("_" + base):
            return name[: -len(base) - 1]
    return name


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def influxdb(tmp_path):
    """An InfluxDB 1.x on loopback ports of its own, in a folder of its own; its HTTP URL."""
    http, rpc = _free_port(), _free_port()
    conf = tmp_path / "influxdb.conf"
    d = tmp_path / "influx"
    conf.write_text(
        f'reporting-enabled = false\nbind-address = "127.0.0.1:{rpc}"\n'
        f'[meta]\n  dir = "{d}/meta"\n  logging-enabled = false\n'
        f'[data]\n  dir = "{d}/data"\n  wal-dir = "{d}/wal"\n  query-log-enabled = false\n'
        "[monitor]\n  store-enabled = false\n[continuous_queries]\n  enabled = false\n"
        f'[http]\n  bind-address = "127.0.0.1:{http}"\n  log-enabled = false\n'
    )
    log = (tmp_path / "influxd.log").open("w")
    proc = subprocess.Popen([INFLUXD, "run", "-config", str(conf)], stdout=log, stderr=log)
    url = f"http://127.0.0.1:{http}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{url}/ping", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("influxd did not answer /ping: " + (tmp_path / "influxd.log").read_text())
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def _influx(url: str, path: str, *, data: bytes | None = None, **query) -> bytes:
    req = urllib.request.Request(f"{url}{path}?{urllib.parse.urlencode(query)}", data=data)
    with urllib.request.urlopen(req, timeout=30) as res:
        return res.read()


@needs_influxd
def test_influx_line_protocol_is_taken_and_queried_back(store, influxdb):
    root, _, p = store
    result = export(SYNTH, root, format="influx")
    _influx(influxdb, "/query", data=b"", q="CREATE DATABASE azl")
    _influx(influxdb, "/write", data=result.text.encode(), db="azl", precision="ns")
    timed = p[p["timestamp_ns"].notna()]
    rows = []
    for name in sorted(set(timed["name"])):
        out = json.loads(_influx(influxdb, "/query", db="azl", epoch="ns",
                                 q=f'SELECT * FROM "{name}"'))  # fmt: skip
        for series in out["results"][0].get("series", []):
            frame = pd.DataFrame(series["values"], columns=series["columns"])
            rows.append(frame.assign(name=series["name"]))
    got = pd.concat(rows, ignore_index=True)
    assert len(got) == len(timed) == result.rows
    both = got.merge(timed, on=["name", "run_id", "stat", "source"], suffixes=("", "_want"))
    assert len(both) == len(timed)
    assert (both["value"] == both["value_want"]).all()  # the same float, to the last bit
    assert (both["time"] == both["timestamp_ns"].astype("int64")).all()
    assert (both["scenario"].fillna("") == both["scenario_want"].fillna("")).all()
    # tags that need escaping come back as written (a line break as the two characters \n)
    _influx(influxdb, "/write", data=influx(_fake()).encode(), db="azl", precision="ns")
    out = json.loads(_influx(influxdb, "/query", db="azl", q='SELECT * FROM "rtt_us" WHERE '
                             "run_id = 'r1'"))["results"][0]["series"][0]  # fmt: skip
    row = dict(zip(out["columns"], out["values"][0]))
    assert (row["campaign"], row["scenario"], row["value"]) == ("a b,c=d", "line\\nbreak", 123.456)
    out = json.loads(
        _influx(
            influxdb,
            "/query",
            db="azl",
            q="SELECT * FROM \"throughput_receiver_bits_per_second\" WHERE run_id = 'r2'",
        )
    )
    row = dict(
        zip(out["results"][0]["series"][0]["columns"], out["results"][0]["series"][0]["values"][0])
    )
    assert row["campaign"] == 'q"uote\\back' and row["level"] == "0.99"


def test_export_command_writes_the_file(synth, tmp_path):
    raw, root, _ = synth
    out = tmp_path / "x.csv"
    data = root.parent / "data-for-cli"
    (data / "processed").mkdir(parents=True, exist_ok=True)
    if not (data / "processed" / SYNTH).exists():
        shutil.copytree(root / SYNTH, data / "processed" / SYNTH)
    res = CliRunner().invoke(main, ["export", SYNTH, "--data", str(data), "--format", "csv",
                                    "-o", str(out)])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert pd.read_csv(out)["name"].str.contains("rtt_us").any()
    bad = CliRunner().invoke(main, ["export", SYNTH, "--data", str(data), "--format", "xml"])
    assert bad.exit_code == 2

"""Expected-output files beside fixtures (jc style), and the comparison the walker uses.

``python tests/_expected.py tests/fixtures/<tool>/<file>...`` writes ``<stem>.expected.json``
for each fixture from the current parser output.  Review the diff before committing: the
file is the claim the test checks.  A fixture that must fail holds ``{"error": "<text>"}``.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
_SKIP_RUN_COLS = {"source_sha256", "run_id", "source_path"}


def expected_path(fixture: Path) -> Path:
    return fixture.with_name(fixture.stem + ".expected.json")


def fixture_files() -> list[Path]:
    out = []
    for f in sorted(FIXTURES.rglob("*")):
        if not f.is_file() or f.name in ("SOURCES.md", "README.md") or ".expected." in f.name:
            continue
        out.append(f)
    return out


def _clean(value):
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return None
    if value is pd.NaT:  # a run without start_time: NaT is neither None nor NA
        return None
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    if hasattr(value, "item"):
        return value.item()
    return value


def _records(df: pd.DataFrame) -> list[dict]:
    return [
        {k: _clean(v) for k, v in row.items() if _clean(v) is not None}
        for row in df.to_dict(orient="records")
    ]


def describe(tables) -> dict:
    runs = tables.runs
    index = {rid: i for i, rid in enumerate(runs["run_id"])}
    run_records = [{k: v for k, v in r.items() if k not in _SKIP_RUN_COLS} for r in _records(runs)]
    summaries = [
        [index[r.run_id], _metric(r), r.stat, _clean(r.value), r.unit, r.source]
        + ([_clean(r.level)] if not pd.isna(r.level) else [])
        for r in tables.summaries.itertuples()
    ]
    samples = tables.samples
    sample_desc = {"rows": len(samples)}
    if len(samples):
        s = samples.drop(columns=["run_id"])
        sample_desc["columns"] = list(s.columns)
        sample_desc["head"] = _records(s.head(3))
        sample_desc["tail"] = _records(s.tail(2))
    return {"runs": run_records, "summaries": summaries, "samples": sample_desc}


def _metric(row) -> str:
    """The metric, with its hop when the statistic is one hop's (mtr): ``rtt@hop2``, so that
    the hops of one run stay apart in the comparison."""
    hop = getattr(row, "hop", None)
    return row.metric if hop is None or pd.isna(hop) else f"{row.metric}@hop{int(hop)}"


def _close(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        try:
            return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
        except (TypeError, ValueError):
            return False
    return a == b


def compare(actual: dict, expected: dict) -> list[str]:
    """Differences between two ``describe`` outputs (expected may be a subset for runs)."""
    problems = []
    if len(actual["runs"]) != len(expected["runs"]):
        problems.append(f"runs: {len(actual['runs'])} != expected {len(expected['runs'])}")
    for i, (a, e) in enumerate(zip(actual["runs"], expected["runs"])):
        for key, value in e.items():
            if not _close(a.get(key), value):
                problems.append(f"run {i} {key}: {a.get(key)!r} != expected {value!r}")
    if "summaries" in expected:
        problems += _summaries(actual["summaries"], expected["summaries"])
    if "samples" in expected:
        problems += _samples(actual["samples"], expected["samples"])
    return problems


def _summaries(actual: list, expected: list) -> list[str]:
    act = {tuple(r[:3]) + (r[5],): r for r in actual}
    exp = {tuple(r[:3]) + (r[5],): r for r in expected}
    problems = [f"summary missing: {key}" for key in exp.keys() - act.keys()]
    problems += [f"summary unexpected: {key} = {act[key][3]}" for key in act.keys() - exp.keys()]
    for key in exp.keys() & act.keys():
        if len(act[key]) != len(exp[key]) or not all(
            _close(x, y) for x, y in zip(act[key], exp[key])
        ):
            problems.append(f"summary {key}: {act[key]} != expected {exp[key]}")
    return problems


def _samples(as_: dict, es: dict) -> list[str]:
    problems = []
    if es.get("rows") != as_.get("rows"):
        problems.append(f"sample rows: {as_.get('rows')} != expected {es.get('rows')}")
    for part in ("head", "tail"):
        for i, (a, e) in enumerate(zip(as_.get(part, []), es.get(part, []))):
            for key in e.keys() | a.keys():
                if not _close(a.get(key), e.get(key)):
                    problems.append(f"sample {part}[{i}] {key}: {a.get(key)!r} != {e.get(key)!r}")
    return problems


def read_fixture(path: Path, **kw):
    import azlatency

    return azlatency.read(path, source=path.relative_to(FIXTURES).as_posix(), **kw)


def write(path: Path) -> Path:
    from azlatency.errors import ParseError

    out = expected_path(path)
    try:
        data = describe(read_fixture(path))
    except ParseError as exc:
        data = {"error": str(exc)}
    out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    for arg in sys.argv[1:]:
        if ".expected." in Path(arg).name:  # a shell glob caught an expected file: not a fixture
            print(f"skipped {arg}")
            continue
        print(write(Path(arg).resolve()))

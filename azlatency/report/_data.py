"""Loading campaigns for a report, picking runs, and what the last import said about them."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .. import paths, schema
from ..campaign.import_report import ISSUES, REASONS
from ..campaign.load import load, load_report, read_manifest, store_path
from ..errors import AzlatencyError
from ..parsers.ping.runs import WHOLE_MS
from ..schema import Tables
from . import _memo

PathLike = str | os.PathLike[str]


def names(campaigns: str | Sequence[str]) -> list[str]:
    """A campaign name or a list of them, as a list (papermill passes either)."""
    return [campaigns] if isinstance(campaigns, str) else list(campaigns)


def one_campaign(campaigns: str | Sequence[str]) -> str:
    """The one campaign a page shows: a page never pools campaigns (a real and a synthetic
    one least of all); comparing two campaigns is ``azlatency compare``'s question."""
    got = names(campaigns)
    if len(got) != 1:
        raise AzlatencyError(
            f"this page shows one campaign at a time, got {len(got)} ({', '.join(got)}): run "
            "it once per campaign (azlatency report does), or compare campaigns with "
            "azlatency compare"
        )
    return got[0]


def figures_dir(reports_dir: PathLike | None = None, figures: PathLike | None = None) -> Path:
    """The figures folder: ``figures`` when given, else ``<reports_dir>/figures``."""
    out = (
        Path(figures).expanduser()
        if figures is not None
        else paths.reports_dir(reports_dir) / "figures"
    )
    out.mkdir(parents=True, exist_ok=True)
    return out


def load_campaigns(
    campaigns: str | Sequence[str], data_root: PathLike | None = None, *, samples: bool = True
) -> Tables:
    """The tables of one or several imported campaigns, concatenated (``runs.campaign`` says
    which campaign a run belongs to).  A campaign that was never imported is an error that
    says how to import it: a report must not quietly leave a campaign out.  A run the
    import named as one read twice (``repeated_run``: a copy, or a console beside its log) is
    left out, so no statistic counts one run twice; the store keeps it and the page's
    caveats say so (:func:`repeats`)."""

    root = paths.processed_dir(data_root)
    wanted = names(campaigns)
    print_ = _fingerprint(wanted, root, samples)
    if print_ is not None and print_ in _LOADED:
        _LOADED[print_] = _LOADED.pop(print_)  # the most recently used last
        return _memo.stamp(_shallow(_LOADED[print_]), print_, _derived(wanted, root))
    parts = [_once(load(name, root, samples=samples), repeats(name, root)) for name in wanted]
    tables = Tables.concat(_distinct_ids(parts) if len(parts) > 1 else parts)
    tables = Tables(_python_strings(tables.runs), tables.samples, tables.summaries)
    if print_ is None:
        return tables
    _keep(print_, tables)
    return _memo.stamp(_shallow(tables), print_, _derived(wanted, root))


# The tables loaded in this process, least recently used first.  A report's two kernels each
# take the next page of a queue that goes round the campaigns (report.run._longest_first), so
# a kernel seldom runs two pages of one campaign in a row: keeping only the last campaign, the
# bundled campaigns' 58 pages read their stores 55 times (the synthetic one's 18 MB, 0.5 to
# 1 s a read, seven times a kernel), 12 of the pages' 88 s.  Kept up to LOADED_BYTES, the
# last one always.
_LOADED: dict[str, Tables] = {}
LOADED_BYTES = 1024**3  # 1 GiB a kernel (two kernels: 2 GiB); the bundled nine take 0.29 GB


def _keep(fingerprint: str, tables: Tables) -> None:
    _LOADED[fingerprint] = tables
    size = {k: _nbytes(t) for k, t in _LOADED.items()}
    while len(_LOADED) > 1 and sum(size.values()) > LOADED_BYTES:
        del size[next(iter(_LOADED))]
        del _LOADED[next(iter(_LOADED))]


# The runs' text columns as pandas' ``str`` kept in Python objects, not Arrow arrays: the same
# dtype (missing is NaN, the same methods), but a page filters the runs frame (a few hundred
# rows, 33 text columns) some thousand times, and each filter of an Arrow column is a
# pyarrow ``take`` call of its own: 20,000 of them, 1.7 s of synthetic-westeurope's pages in
# one profile.  The cold report of the bundled campaigns took 11 % less CPU (67-71 s against
# 76-79 s, two runs each, alternating).  The samples stay Arrow (a million rows).
_PY_STR = pd.StringDtype("python", na_value=np.nan)


def _python_strings(frame: pd.DataFrame) -> pd.DataFrame:
    cols = {c: _PY_STR for c in frame.columns if str(frame[c].dtype) == "str"}
    return frame.astype(cols) if cols else frame


def _nbytes(t: Tables) -> int:
    """Memory of the tables' columns, not walking Python strings (the runs' text: a few
    hundred rows; the samples and summaries are Arrow and numbers)."""
    return sum(int(df.memory_usage(index=True, deep=False).sum()) for df in t)


def _shallow(t: Tables) -> Tables:
    return Tables(t.runs.copy(deep=False), t.samples.copy(deep=False), t.summaries.copy(deep=False))


def _fingerprint(wanted: list[str], root: Path | None, samples: bool) -> str | None:
    """The stores' manifests (every table file's SHA-256): what the tables are made of."""

    h = hashlib.sha256(f"samples={samples}".encode())
    for name in wanted:
        m = read_manifest(store_path(name, root))
        if m is None:
            return None
        h.update(json.dumps(m, sort_keys=True, default=str).encode())
    return h.hexdigest()


def _derived(wanted: list[str], root: Path | None) -> Path | None:
    """Where a single campaign's derived results are kept (``report._memo``)."""
    if len(wanted) != 1:
        return None

    return paths.derived_dir(store_path(wanted[0], root).name, root)


def repeats(name: str, root: Path | None) -> list[str]:
    """The runs of campaign ``name`` its import named as one read twice (``repeated_run``):
    each is a run before it again."""
    m = read_manifest(store_path(name, root)) or {}
    quality = (m.get("report") or {}).get("quality") or []
    return sorted({q["run_id"] for q in quality if q.get("issue") == "repeated_run"})


def _once(t: Tables, repeated: list[str]) -> Tables:
    if not repeated:
        return t
    return Tables(
        *(df[~df["run_id"].isin(repeated)].reset_index(drop=True) if len(df) else df for df in t)
    )


def _distinct_ids(parts: list[Tables]) -> list[Tables]:
    """A run id is derived from the file's bytes, so the same log copied into two campaigns
    gives both the same id; joined on run_id they would mix.  Only then are the ids of the
    campaigns that share one made ``<campaign>/<run_id>``."""
    seen: dict[str, int] = {}
    for t in parts:
        for rid in set(t.runs["run_id"].astype(str)):
            seen[rid] = seen.get(rid, 0) + 1
    shared = {rid for rid, n in seen.items() if n > 1}
    if not shared:
        return parts
    out = []
    for t in parts:
        if not set(t.runs["run_id"].astype(str)) & shared or t.runs.empty:
            out.append(t)
            continue
        name = str(t.runs["campaign"].iloc[0])

        def fix(df: pd.DataFrame, name: str = name) -> pd.DataFrame:
            return df.assign(run_id=name + "/" + df["run_id"].astype(str)) if len(df) else df

        out.append(Tables(fix(t.runs), fix(t.samples), fix(t.summaries)))
    return out


def subset(tables: Tables, runs: pd.DataFrame) -> Tables:
    """The tables restricted to ``runs`` (a subset of ``tables.runs``)."""
    ids = set(runs["run_id"])
    return Tables(
        runs.reset_index(drop=True),
        tables.samples[tables.samples["run_id"].isin(ids)].reset_index(drop=True),
        tables.summaries[tables.summaries["run_id"].isin(ids)].reset_index(drop=True),
    )


def latency_runs(
    runs: pd.DataFrame,
    *,
    tool: str | Sequence[str] | None = None,
    basis: str | None = None,
    windows: bool = False,
) -> pd.DataFrame:
    """Runs that measured latency (their ``latency_basis`` is set), of ``tool`` and ``basis``.

    A window of an execution (a run labelled ``window``, e.g. seed 004's "last 100 records")
    whose whole execution is also a run is left out unless ``windows``: a page's
    campaign-level figures describe executions, not fragments (notebook 30 asks for them)."""
    out = runs[runs["latency_basis"].notna()]
    if not windows:
        out = executions_only(out)
    if tool is not None:
        out = out[out["tool"].isin(names(tool))]
    if basis is not None:
        out = out[out["latency_basis"] == basis]
    return out.reset_index(drop=True)


def executions_only(runs: pd.DataFrame) -> pd.DataFrame:
    """``runs`` without the windows (runs labelled ``window``, e.g. seed 004's "last 100
    records") of an execution that is also a run of its own: counting both would count the
    window's probes twice.  Windows with no whole run beside them (owping ``-N``) stay."""
    if runs.empty or "execution" not in runs.columns:
        return runs
    win = labels(runs).get("window", pd.Series(None, index=runs.index)).notna()
    whole = set(runs.loc[~win & runs["execution"].notna(), "execution"].astype(str))
    return runs[~(win & runs["execution"].astype(str).isin(whole))]


def throughput_runs(runs: pd.DataFrame, summaries: pd.DataFrame) -> pd.DataFrame:
    """Runs with a throughput figure (iperf3, ntttcp, qperf ``*_bw``, ethr ...)."""
    has = summaries.loc[
        summaries["metric"].astype(str).str.startswith("throughput") & summaries["unit"].eq("bps"),
        "run_id",
    ]
    return runs[runs["run_id"].isin(set(has))].reset_index(drop=True)


def sample_runs(samples: pd.DataFrame, column: str) -> set[str]:
    """Run ids with at least one observation in ``column``: an ``ok`` sample with a value, or
    a censored one with its bound (Windows ping's ``time<1ms``)."""
    if column not in samples.columns or samples.empty:
        return set()
    status = samples["status"].astype(str)
    ok = status.eq("ok") & samples[column].notna()
    if "censor_high_us" in samples.columns:
        ok |= status.eq("censored") & samples["censor_high_us"].notna()
    return _ids(samples.loc[ok, "run_id"])


def _ids(run_ids: pd.Series) -> set[str]:
    """The distinct run ids of a column of them (one per sample): hashed, not iterated in
    Python (``set(column)`` over the 9.5 * 10^5 samples of ``make run``'s campaigns, 50
    times, was 23 of ``contrasts``' 27.5 s)."""
    return {str(r) for r in run_ids.unique()}


def map_runs(run_ids: pd.Series, mapping) -> pd.Series:
    """``run_ids.map(mapping)``, mapped once per distinct run: a map hashes every row's
    Arrow string as a Python object (0.14 s for 9.5 * 10^5 samples).  Same values, and the
    same dtype: a map takes the mapping's values, so its dtype is theirs (and missing where
    a run is not in it, which the runs give exactly when a row does)."""
    if run_ids.hasnans:
        return run_ids.map(mapping)
    codes, uniques = pd.factorize(run_ids)
    per_run = pd.Series(uniques, dtype=run_ids.dtype).map(mapping)
    return pd.Series(per_run.array.take(codes), index=run_ids.index, name=run_ids.name)


def histogram_runs(samples: pd.DataFrame) -> set[str]:
    """Run ids whose samples are histogram bins (latte ``-hist``)."""
    if samples.empty or "bin_high_us" not in samples.columns:
        return set()
    h = samples["kind"].astype(str).eq("histogram") & samples["count"].fillna(0).gt(0)
    return _ids(samples.loc[h, "run_id"])


def labels(runs: pd.DataFrame) -> pd.DataFrame:
    """``runs.labels`` (JSON objects) as columns, one row per run, indexed like ``runs``."""
    parsed = [json.loads(x) if isinstance(x, str) and x else {} for x in runs["labels"]]
    return pd.DataFrame(parsed, index=runs.index)


def synthetic(runs: pd.DataFrame) -> list[str]:
    """Campaigns among ``runs`` made by ``azlatency.synth`` (their runs carry the label
    ``synthetic: "true"``): a report must say so wherever it shows them."""
    if runs.empty:
        return []
    lab = labels(runs)
    if "synthetic" not in lab.columns:
        return []
    hit = lab["synthetic"].astype("string").str.lower().eq("true").fillna(False)
    return sorted(runs.loc[hit, "campaign"].dropna().astype(str).unique())


# ---------------------------------------------------------------------------------------------
# What the import said


def import_overview(
    campaigns: str | Sequence[str], data_root: PathLike | None = None
) -> dict[str, pd.DataFrame]:
    """Per campaign, from the stores' manifests (no table is read):

    ``campaigns`` (files imported / not imported, runs, samples, summaries, quality notes),
    ``tools`` (runs per tool), ``not_imported`` (every file left out, with the reason) and
    ``quality`` (runs per issue, with what the issue means)."""

    root = paths.processed_dir(data_root)
    rows, tools, skipped, quality = [], [], [], []
    for name in names(campaigns):
        rep = load_report(name, root)
        status = rep.files["status"].value_counts()
        rows.append(
            {
                "campaign": name,
                "files_imported": int(status.get("imported", 0)),
                "files_not_imported": int(status.get("not_imported", 0)),
                "runs": rep.counts.get("runs", 0),
                "samples": rep.counts.get("samples", 0),
                "summaries": rep.counts.get("summaries", 0),
                "quality_notes": len(rep.quality),
            }
        )
        runs = load(name, root, samples=False).runs
        for tool, n in runs["tool"].value_counts().sort_index().items():
            tools.append({"campaign": name, "tool": tool, "runs": int(n)})
        for r in rep.not_imported.to_dict("records"):
            skipped.append({"campaign": name, **r, "meaning": REASONS.get(r["reason"], "")})
        q = rep.quality
        for issue, g in q.groupby("issue", sort=False):
            quality.append(
                {
                    "campaign": name,
                    "issue": issue,
                    "runs": g["run_id"].nunique(),
                    "files": g["source_path"].nunique(),
                    "meaning": ISSUES.get(issue, ""),
                    "example": str(g["detail"].iloc[0]),
                }
            )
    return {
        "campaigns": pd.DataFrame(
            rows,
            columns=[
                "campaign",
                "files_imported",
                "files_not_imported",
                "runs",
                "samples",
                "summaries",
                "quality_notes",
            ],
        ),
        "tools": pd.DataFrame(tools, columns=["campaign", "tool", "runs"]),
        "not_imported": pd.DataFrame(
            skipped,
            columns=["campaign", "path", "reason", "detail", "line", "duplicate_of", "meaning"],
        ),
        "quality": pd.DataFrame(
            quality, columns=["campaign", "issue", "runs", "files", "meaning", "example"]
        ),
    }


def empty_tables() -> Tables:
    return Tables(schema.empty("runs"), schema.empty("samples"), schema.empty("summaries"))


def strings(frame: pd.DataFrame, name: str) -> pd.Series:
    """``frame[name]`` as strings (missing: NA); all NA where ``frame`` has no such column."""
    if name in frame:
        return frame[name].astype("string")
    return pd.Series(pd.NA, index=frame.index, dtype="string")


def host_pair(row: pd.Series) -> str:
    """``'vm-a→10.0.0.5'``: the hosts (else the addresses) of a run's two ends, ``?`` for an
    end the log does not name; empty when it names neither."""
    src = next((row[c] for c in ("src_host", "src_ip") if pd.notna(row.get(c))), None)
    dst = next((row[c] for c in ("dst_host", "dst_ip") if pd.notna(row.get(c))), None)
    return f"{src or '?'}→{dst or '?'}" if src is not None or dst is not None else ""


def whole_ms(runs: pd.DataFrame) -> bool:
    """Whether every one of ``runs`` printed its round trips in whole milliseconds, truncated
    (Windows ping and Test-Connection: '1ms' is 1.000-1.999 ms): a figure of them is known
    only to lie in [figure, figure + 1 ms)."""
    said = runs["warnings"] if "warnings" in runs else pd.Series(dtype="string")
    return bool(len(runs)) and bool(
        said.astype("string").str.contains(WHOLE_MS).fillna(False).all()
    )

"""Connections per second by zone pair (ncps, ethr ``-t c``): the rates their runs gave, for
a question that asks of them.  'How many connections per second from zone 1 to zone 2?' was
answered by ncps's handshake latency ('By ncps, 1→2 is 11.5 µs'), though its headline figure
is the rate ('###ENDCPS 4010')."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pandas as pd

from ..schema import Tables
from ._show import counted

_WORDS = re.compile(
    r"\bconnections? (?:per second|a second|/ ?s)|\bconnection rates?\b|\bcps\b|\bconns?/s\b",
    re.IGNORECASE,
)


def asks_connection_rate(question: str | None) -> bool:
    """Whether ``question`` asks of connections per second."""
    return bool(_WORDS.search(question or ""))


def connection_rates(tables: Tables) -> pd.DataFrame:
    """Per zone pair and tool: the connections per second of its runs with both zones known
    (``connections_per_s``' mean: ncps's printed rate, or the mean of ethr's interval rates,
    ``intervals`` saying how many; several runs: the median of theirs, with their range).
    ncps prints the rate at both ends of one test: a pair's client runs are its figure where
    it has any, else its server runs (``server``)."""
    s = tables.summaries
    s = s[s["metric"].eq("connections_per_s") & s["stat"].eq("mean")]
    s = s.sort_values("source", key=lambda x: x.ne("reported"), kind="stable")
    first = s.drop_duplicates("run_id").set_index("run_id")
    runs = tables.runs[tables.runs["run_id"].isin(first.index)]
    runs = runs[runs["src_zone"].notna() & runs["dst_zone"].notna()]
    cols = ["pair", "tool", "rate", "low", "high", "n_runs", "server", "intervals"]
    if runs.empty:
        return pd.DataFrame(columns=cols)
    computed = first["n"].where(first["source"].ne("reported"))
    runs = runs.assign(
        pair=runs["src_zone"].astype(str) + "→" + runs["dst_zone"].astype(str),
        rate=runs["run_id"].map(first["value"]).astype(float),
        server=runs["role"].astype("string").eq("server").fillna(False).to_numpy(),
        intervals=runs["run_id"].map(computed).fillna(0).astype(int),
    )
    rows = []
    for (pair, tool), g in runs.groupby(["pair", "tool"], sort=True):
        g = g[~g["server"]] if (~g["server"]).any() else g
        v = g["rate"]
        server, intervals = bool(g["server"].all()), int(g["intervals"].iloc[0])
        rows.append([pair, tool, float(v.median()), v.min(), v.max(), len(v), server, intervals])
    return pd.DataFrame(rows, columns=cols)


def _rate(value: float) -> str:
    """'4010', '10080', '12.5': a rate a second as a count is read."""
    return f"{value:.0f}" if value >= 1000 else f"{value:.4g}"


def _said(r: pd.Series) -> str:
    """'printed by the tool; one run', 'the mean of its 2 interval rates; one run', or the
    median of several runs' rates with their range."""
    whose = "; the server's figure" if r["server"] else ""
    if r["n_runs"] == 1:
        how = (
            f"the mean of its {r['intervals']} interval rates"
            if r["intervals"]
            else "printed by the tool"
        )
        return f"{how}; one run{whose}"
    span = f"{_rate(r['low'])}–{_rate(r['high'])}"
    return f"the median of {r['n_runs']} runs' rates, {span} a second; no interval{whose}"


def connection_rate_claims(tables: Tables, named: Sequence[str], statement) -> list[dict]:
    """The statements answering a question of connections per second: each named pair's rate
    by each tool that gave one (a named pair none did, said first), or where the question
    names none, each tool's lowest and highest pair.  ``statement``: the answer's statement
    maker (``_answer._statement``)."""
    rates = connection_rates(tables)
    if rates.empty:
        text = (
            "**No run with both zones known gave connections per second** (ncps and ethr -t c "
            "measure them)."
        )
        return [statement("answer", "zone pair", text, evidence="none")]
    rows = []
    if missing := [p for p in named if p not in set(rates["pair"])]:
        text = (
            f"**{', '.join(missing)}: no figure of connections per second** (the pairs with "
            f"one are {', '.join(sorted(set(rates['pair'])))})."
        )
        rows.append(statement("answer", "zone pair", text, a=missing[0], evidence="none"))
    for tool, g in rates.groupby("tool", sort=True):
        g = g.sort_values("rate", kind="stable")
        if named:
            for _, r in g[g["pair"].isin(named)].iterrows():
                text = (
                    f"**By {tool}, {r['pair']} made {_rate(r['rate'])} connections per second** "
                    f"({_said(r)})."
                )
                rows.append(statement("answer", "zone pair", text, a=r["pair"], tool=tool,
                                      estimate=r["rate"]))  # fmt: skip
            continue
        rows.append(statement("answer", "zone pair", _ranked(tool, g), tool=tool))
    return rows


def _ranked(tool: str, g: pd.DataFrame) -> str:
    """One tool's pairs by their rates (``g``, lowest first): its lowest and highest, or its
    one pair."""
    lo, hi = g.iloc[0], g.iloc[-1]
    if len(g) == 1:
        return (
            f"**By {tool}, only {lo['pair']} has a figure: {_rate(lo['rate'])} connections per "
            f"second** ({_said(lo)})."
        )
    each = ", ".join(f"{r['pair']} {_rate(r['rate'])}" for _, r in g.iterrows())
    plain = g["n_runs"].eq(1).all() and not (g["server"].any() or g["intervals"].any())
    how = (
        "printed by the tool, one run each: no test"
        if plain
        else "; ".join(f"{r['pair']}: {_said(r)}" for _, r in g.iterrows())
    )
    return (
        f"**By {tool}, lowest {lo['pair']} ({_rate(lo['rate'])} connections per second), "
        f"highest {hi['pair']} ({_rate(hi['rate'])}), over {counted(len(g), 'zone pair')}** "
        f"({each}; {how})."
    )

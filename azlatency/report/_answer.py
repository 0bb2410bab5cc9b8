"""A campaign page's first lines: its question, answered by claims (``report._claims``).

``campaign.yaml`` may say what the campaign was run to find out (``question:``), what that
compares (``compare:``: one or several of placement, zone pair, message size, VM size,
accelerated networking, stability, baseline — answered in that order) and what the write-up
concluded (``conclusion:``, quoted beside our answer).  Without ``compare`` the page takes
the factors the question names (``QUESTION_WORDS``), else the factor most of the
campaign's contrasts vary, and the fleet baseline when the campaign
states expectations.  Each answer is a list of claims, the strongest evidence first; other
contrasts the campaign allows follow under "Also measured".
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..schema import Tables
from ..stats.asymmetry import directed, flow
from . import _claims as C
from ._asked import (
    _CHANGE,
    _CHANGED,
    _SIDES,
    _named,
    asked_other_stat,
    asked_rate,
    asked_stat,
    asked_threshold,
    asked_times,
    asks_latency_too,
    asks_throughput,
    loss_and_speed,
    named_pairs,
    named_tools,
)
from ._baseline import _fmt
from ._claims import side_name, throughput_context
from ._compare import (
    CROSS_REFERENCE,
    FACTOR_NAMES,
    FACTORS,
    Estimator,
    context_text,
    contrast_pairs,
    cross_tool,
    mixed_protocols,
    summarising_runs,
)
from ._connections import asks_connection_rate, connection_rate_claims
from ._data import labels, latency_runs
from ._latency import apart
from ._longrun import (
    analyse_session,
    long_runs,
    reported_segments,
    session_words,
    sessions,
    span_words,
)
from ._matrix_stats import per_hop_runs, run_loss
from ._memo import memo
from ._one_way import zone_figures
from ._pages import (
    bin_ratio,
    bins_apart,
    cell_value,
    cells_without_value,
    of_one_stat,
    tool_pair_claims,
    tool_pair_rows,
)
from ._show import counted, fmt, fmt_bound, fmt_interval, printed_range
from ._throughput import HELD, paced_note
from ._zones import (
    NO_SIZE,
    end_to_end_runs,
    held_out,
    matrix_runs,
    zone_pair_medians,
    zoned_runs,
)

PathLike = str | os.PathLike[str]
COMPARE_FACTOR = {
    "placement": "placement",
    "message size": "msg_size_bytes",
    "VM size": "vm_size",
    "accelerated networking": "accelerated_networking",
}


def _names(compare: str | Sequence[str] | None) -> list[str]:
    if compare is None:
        return []
    return [compare] if isinstance(compare, str) else list(compare)


def _inferred(tables: Tables, has_baseline: bool) -> list[str]:
    """No ``compare:`` and a question that names no factor: the factor most contrasts of
    latency or throughput vary (and the baseline when stated)."""
    counts: dict[str, int] = {}
    throughput = C.throughput_contrast_runs(tables)
    for f, *_ in (*contrast_pairs(tables.runs), *contrast_pairs(throughput, held=HELD)):
        counts[f] = counts.get(f, 0) + 1
    out = ["baseline"] if has_baseline else []
    if counts:
        best = max(counts, key=lambda f: (counts[f], -FACTORS.index(f)))
        out.append(next(k for k, v in COMPARE_FACTOR.items() if v == best))
    return out


@memo
def campaign_answer(
    tables: Tables,
    question: str | None = None,
    compare: str | Sequence[str] | None = None,
    *,
    conclusion: str | None = None,
    baseline: pd.DataFrame | None = None,
    against: str | None = None,
    no_comparison: str | None = None,
    level: float = 0.95,
    rng=None,
) -> tuple[str, pd.DataFrame]:
    """(Markdown: the question, our answer as claims, the author's conclusion; the claims).

    ``baseline``: the fleet verdicts (``report.baseline``) when the campaign states
    expectations.  ``against``: the findings of its comparison with the campaign its
    ``campaign.yaml`` names as ``baseline:`` (``report.compare_findings``, page 60's answer),
    which answer a question about what changed; where there is none, ``no_comparison`` says
    why (``report.baseline_comparison``'s reason), said to a question about what changed."""
    asked = _names(compare)
    has_baseline = baseline is not None and len(baseline) > 0
    named = [] if asked else _named(question)
    inferred = not asked and not named
    if named:
        asked = ["baseline"] * has_baseline + named
    elif inferred:
        asked = _inferred(tables, has_baseline)
    lines = [
        f"**Question.** {question.strip()}"
        if question
        else "**Question** (not stated in campaign.yaml): what differs between the "
        "conditions this campaign measured?"
    ]
    parts, done = [], set()
    if change_first := bool(against and _CHANGED.search(question or "")):
        # 'Did sockperf latency from zone 1 to zone 2 get worse than in the baseline
        # campaign?' was answered by this campaign's 1→2 first, the change after it
        lines += [_AGAINST, against]
        parts.append(_against_claims(against))
    for name in asked:
        claims = _answer_to(tables, name, baseline, level, rng, question)
        parts.append(claims)
        how = (
            " (campaign.yaml's `compare:` does not say; the question names it)"
            if named and name != "baseline"
            else " (campaign.yaml's `compare:` does not say; the factor most contrasts vary)"
            if inferred and name in COMPARE_FACTOR
            else ""
        )
        title = f"**Answer, by {name}{how}:**"
        lines.append(title)
        lines.append(C.markdown(claims) if len(claims) else _nothing(name, tables))
        done.add(COMPARE_FACTOR.get(name))
    closing = _closing(tables, asked, done, question, against, no_comparison, level, rng,
                       said=change_first)  # fmt: skip
    for line, part in closing:
        lines.append(line)
        if part is not None:
            parts.append(part)
    if conclusion:
        quoted = "\n".join(f"> {x}" for x in conclusion.strip().splitlines())
        lines.append(f"**The write-up concluded:**\n\n{quoted}")
    claims = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=C.COLUMNS)
    return "\n\n".join(lines), claims.reindex(columns=C.COLUMNS)


_AGAINST = "**Answer, against the baseline campaign** (page 60 gives every comparison):"


def _against_claims(against: str) -> pd.DataFrame:
    said = against.strip().replace("**", "")  # every comparison, as the page says it
    return _frame([_statement("answer", "baseline campaign", said, evidence="mixed")])


def _closing(tables, asked, done, question, against, no_comparison, level, rng, said=False):
    """(line, claims or None) of the answer's closing sections: the baseline campaign's
    comparison (or why there is none, to a question about what changed), 'Nothing to
    compare' where nothing was asked, and the contrasts the question does not ask about;
    ``said``: the comparison came first, as the question asked what changed."""
    if said:
        pass  # the comparison answered first: no 'Nothing to compare' after it
    elif against:
        yield _AGAINST, None
        yield against, _against_claims(against)
    elif no_comparison and _CHANGE.search(question or ""):
        # synthetic-ab-before, the baseline of two others, asked 'What changed against the
        # baseline campaign?' was answered 'no two latency or throughput runs differ in one
        # condition alone ... and no baseline campaign is compared'
        text = f"Not compared: {no_comparison}"
        yield (
            f"**Answer, against the baseline campaign:** {text}",
            _frame([_statement("answer", "baseline campaign", text, evidence="none")]),
        )
    elif not asked:  # no compare:, no expectations, no two runs differ in one condition alone
        what = ", ".join(FACTOR_NAMES[f] for f in FACTORS)
        text = (
            "Nothing to compare: no two latency or throughput runs differ in one condition "
            f"alone ({what}, "
            "as the logs and campaign.yaml say them), and no baseline campaign is compared; "
            "what each measured is below."
        )
        yield (
            f"**Answer:** {text}",
            _frame([_statement("answer", "", text, evidence="the runs' conditions")]),
        )
    rest = [f for f in FACTORS if f not in done]
    others = C.contrast_claims(tables, factors=rest, level=level, rng=rng) if rest else None
    if others is not None and len(others):
        others = others.assign(section="also")
        yield "**Also measured** (contrasts the question does not ask about):", others
        yield C.markdown(others), None


def tool_claims(tables: Tables, tools: Sequence[str], level: float = 0.95) -> pd.DataFrame:
    """The first tool a question names against the second (page 40's figures: the pairs of
    VMs both measured, as round trips), in the answer's section."""
    a, b = tools[:2]
    agree = cross_tool(tables, reference=(b, *CROSS_REFERENCE), level=level)
    ran = set(tables.runs["tool"].dropna())
    out = tool_pair_claims(agree, a, b, ran).assign(section="answer", factor="tool", a=a, b=b)
    used = pd.concat(tool_pair_rows(agree, a, b))  # its figures: samples, histogram, printed
    out["evidence"] = _zone_evidence(used)[1] if len(used) else "none"
    return out.reindex(columns=C.COLUMNS)


_BREAK = re.compile(r"\bbr(?:eak|eaks|oke|oken)\b|\bdisconnect\w*", re.IGNORECASE)


def _nothing(name: str, tables: Tables | None = None) -> str:
    what = FACTOR_NAMES.get(COMPARE_FACTOR.get(name, ""), name)
    col = COMPARE_FACTOR.get(name)
    runs = tables.runs if tables is not None else None
    if col and runs is not None and len(runs) and (col not in runs or runs[col].isna().all()):
        # the reason is that no run's value is known, not that runs differ in more
        return (
            f"Nothing to compare: no run's {what} is known (the logs do not say it; "
            "campaign.yaml's rules or hosts can)."
        )
    return {
        "stability": "Nothing to say: no long run with timed samples and no printed table of "
        "the records before a break.",
        "baseline": "Nothing to say: campaign.yaml states no `expectations:`.",
        "zone pair": "Nothing to say: fewer than two zone pairs have a latency run whose "
        "direction is known, or a throughput run of one tool and condition.",
    }.get(name, f"Nothing to compare: no two latency or throughput runs differ in {what} alone.")


def _answer_to(tables, name: str, baseline, level: float, rng, question=None) -> pd.DataFrame:
    if name in COMPARE_FACTOR:
        # the statistic the question names: 'What is the p99.9 latency across zones?' was
        # answered by medians
        claims = C.contrast_claims(
            tables, factors=[COMPARE_FACTOR[name]], level=level, rng=rng, stat=asked_stat(question)
        )
        sides = _SIDES[name](question) if name in _SIDES else []
        claims = _named_first(claims, sides)
        if other := asked_other_stat(question):
            claims = pd.concat([_other_by(tables, name, other), claims], ignore_index=True)
        if tp := asks_throughput(question):  # 'Is throughput across zones lower ...?' got
            claims = _first(claims, lambda a, b, basis: basis == "throughput")  # latency first
            if not claims["basis"].eq("throughput").any():
                claims = pd.concat([_no_throughput(tables, name), claims], ignore_index=True)
        claims = _sides_times(claims, name, sides, question, tp)
        if (bound := asked_threshold(question)) and sides and not tp:
            held = _side_threshold(claims, sides, bound, COMPARE_FACTOR[name])
            claims = pd.concat([held, claims], ignore_index=True) if len(held) else claims
        sizes = size_claims(claims) if name == "message size" else _empty()
        return pd.concat([sizes, claims], ignore_index=True) if len(sizes) else claims
    if name == "zone pair":
        lost = _empty()
        if other := asked_other_stat(question):
            of_loss, question = loss_and_speed(question)
            lost = other_stat_claims(tables, named_pairs(of_loss), other, level)
            if not asks_latency_too(question):  # '..., and is 1→3 slower than 1→2?' too
                return lost
        of_throughput = asks_throughput(question)
        asked, times = named_pairs(question), asked_times(question, throughput=of_throughput)
        claims = zone_claims(
            tables, level=level, asked=asked, rng=rng, times=times, throughput=of_throughput,
            stat=asked_stat(question), threshold=asked_threshold(question),
            rate=asked_rate(question),
        )  # fmt: skip
        if asks_connection_rate(question):  # its rates first, as asked (it got latency)
            named = list(dict.fromkeys(p for pairs in asked for p in pairs))
            rates = _frame(connection_rate_claims(tables, named, _statement))
            claims = pd.concat([rates, claims], ignore_index=True)
        return pd.concat([lost, claims], ignore_index=True) if len(lost) else claims
    if name == "tool":
        return tool_claims(tables, named_tools(question), level)
    if name == "stability":
        claims = stability_claims(tables)
        if _BREAK.search(question or "") and len(claims):  # the breaks first, as asked
            broke = claims["text"].str.contains(r"\bbroke\b", regex=True)
            claims = claims.iloc[np.argsort((~broke).to_numpy(), kind="stable")]
        return claims.reset_index(drop=True)
    if name == "baseline":
        if baseline is None:
            return _empty()
        vms = _named_vms(baseline, question)
        two = _vm_pair_claims(baseline, *vms[:2]) if len(vms) >= 2 else _empty()
        return pd.concat([two, baseline_claims(baseline)], ignore_index=True)
    raise ValueError(f"compare: {name!r} is not one of {', '.join(COMPARE_FACTOR)}, ...")


def _named_first(claims: pd.DataFrame, sides: Sequence[str]) -> pd.DataFrame:
    """``claims`` with the contrasts between sides a question names first (a range with its
    pairs): 'Is a proximity placement group faster than an availability set?' was
    answered by five placement contrasts before 'availability set is 1.16× proximity
    placement group'."""
    want = set(sides)
    return _first(claims, lambda a, b, _: {a, b} <= want) if len(sides) >= 2 else claims


def _first(claims: pd.DataFrame, wanted) -> pd.DataFrame:
    """``claims`` with the contrasts (a range with its pairs) whose ``wanted(a, b, basis)``
    holds first, in their order."""
    if claims.empty:
        return claims
    top = claims["parent"].isna() | claims["parent"].astype(str).eq("")
    group = top.cumsum()  # a range's pairs follow it
    heads = claims[top]
    first = {
        g for g, a, b, basis in zip(group[top], heads["a"], heads["b"], heads["basis"])
        if wanted(a, b, basis)
    }  # fmt: skip
    if not first:
        return claims
    key = (~group.isin(first)).astype(int)
    return claims.iloc[np.argsort(key.to_numpy(), kind="stable")].reset_index(drop=True)


_SIZE = re.compile(r"(\d+) B messages")  # a side as _claims.side_name says a message size


def size_claims(claims: pd.DataFrame) -> pd.DataFrame:
    """Per context of the message-size contrasts ``claims`` (a tool, protocol, ...: what the
    two sides share) with three or more sizes, one statement of the sizes in order with each
    size's value as its contrasts give it, and whether the value rises with size.  'How does
    latency grow with message size?' was answered by fifteen ratios against 1 B messages,
    one per size, and never said that qperf's tcp_lat fell from 46.9 µs at 16 B to 13.8 µs
    at 64 B.  A context whose contrasts give one size two values (several pairs of
    endpoints) has no one series: no statement."""
    if claims.empty:
        return _empty()
    c = claims[claims["kind"].isin(["ratio", "pair"]) & claims["value_a"].notna()]
    c = c[c["value_b"].notna() & c["factor"].eq("msg_size_bytes")]
    rows = []
    for (context, basis, stat), g in c.groupby(["context", "basis", "stat"], sort=False):
        values: dict[int, float] = {}
        one = True
        for side, v in (*zip(g["a"], g["value_a"]), *zip(g["b"], g["value_b"])):
            m = _SIZE.fullmatch(str(side))
            if m is None:
                continue
            size = int(m[1])
            one &= np.isclose(values.setdefault(size, float(v)), float(v))
        if len(values) < 3 or not one:
            continue
        apart = claims[claims["context"].eq(context) & ~claims.index.isin(g.index)]
        left = {
            int(m[1])
            for side in (*apart["a"], *apart["b"])
            if (m := _SIZE.fullmatch(str(side))) and int(m[1]) not in values
        }
        rows.append(_size_statement(values, left, g, str(context), str(basis), str(stat)))
    return _frame(rows) if rows else _empty()


def _size_statement(
    values: dict[int, float], left: set[int], g: pd.DataFrame, context, basis, stat
) -> dict:
    sizes = sorted(values)
    seq = np.array([values[k] for k in sizes])
    unit = "bps" if basis == "throughput" else "us"
    lo, hi = sizes[int(seq.argmin())], sizes[int(seq.argmax())]
    step = np.diff(seq)
    trend = (
        "rising with size"
        if (step > 0).all()
        else "falling with size"
        if (step < 0).all()
        else "not rising steadily with size"
    )
    said = f"{C.STAT_WORDS.get(stat, stat)} {C.BASIS_WORDS.get(basis, basis)}"
    each = ", ".join(f"{k} B {fmt(values[k], unit)}" for k in sizes)
    kinds = set(g["evidence"].astype(str))
    evidence = kinds.pop() if len(kinds) == 1 else "mixed"
    one = (g[["n_runs_a", "n_runs_b"]] == 1).all(axis=None)
    how = {
        "printed values": f"printed values{', one run a size' if one else ''}: no test",
        "tested across runs": "each against its partner, tested across runs (below)",
    }.get(evidence, "as the contrasts below give them")
    tested = g[g["evidence"].eq("tested across runs")]
    if len(tested) and tested["direction"].astype(str).eq("none").all():
        # synthetic-westeurope's sockperf sweep, 'rising with size' above three contrasts
        # that each say 'not told apart' (2 runs a size): the trend is of the figures shown
        how += (
            "; none is told apart from its partner at this level: the trend is of the figures shown"
        )
    if left:
        how += f"; {', '.join(f'{k} B' for k in sorted(left))} not compared (below)"
    text = (
        f"**By message size ({context}; {said}): from {fmt(values[lo], unit)} at {lo} B to "
        f"{fmt(values[hi], unit)} at {hi} B, {trend}** ({each}; {how})"
    )
    return _statement(
        "answer", "msg_size_bytes", text, a=f"{lo} B messages", b=f"{hi} B messages",
        tool=str(g["tool"].iloc[0]), basis=basis, stat=stat, context=context,
        value_a=float(values[lo]), value_b=float(values[hi]),
        groups_a=[f"{k} B messages" for k in sizes], evidence=evidence,
    )  # fmt: skip


def _empty() -> pd.DataFrame:
    return pd.DataFrame(columns=C.COLUMNS)


def _statement(section: str, factor: str, text: str, **kw) -> dict:
    row = {
        "section": section,
        "kind": "statement",
        "factor": factor,
        "text": text,
        "evidence": kw.pop("evidence", "printed values"),
        **kw,
    }
    row["claim_id"] = f"{factor}:{kw.get('a', '')}:{kw.get('stat', '')}:{len(text)}"
    return row


def _frame(rows: list[dict]) -> pd.DataFrame:
    out = pd.DataFrame(rows).reindex(columns=C.COLUMNS)
    out["text"] = [C.render(r) for r in out.to_dict("records")]
    return out


# ---------------------------------------------------------------------------------------------
# Zone pairs


def zone_claims(
    tables: Tables,
    *,
    level: float = 0.95,
    asked: Sequence[tuple[str, ...]] = (),
    rng=None,
    times: tuple[float, str] | None = None,
    throughput: bool = False,
    stat: str = "p50",
    threshold: tuple[float, str, str] | None = None,
    rate: tuple[float, str, str] | None = None,
) -> pd.DataFrame:
    """The zone pairs from fastest to slowest by latency (:func:`latency_zone_claims`), then
    by throughput, a statement for each tool and condition (:func:`throughput_zone_claims`);
    first, what the question asks of the pairs it names (:func:`named_pairs`: 'is zone 1 →
    zone 3 slower than zone 1 → zone 2?'), the one against the other
    (:func:`named_pair_claims`), held against the factor it asks about (``times``:
    :func:`asked_times`).  A question of ``throughput`` (:func:`asks_throughput`) is answered
    by throughput first, its factor held against the throughput figures alone.  ``stat``: the
    statistic the named pairs are set against each other by (:func:`asked_stat`);
    ``threshold`` the bound one named pair's figures are held against (:func:`asked_threshold`),
    ``rate`` a throughput bound (:func:`asked_rate`)."""
    two = [p for p in asked if len(p) == 2]
    by_latency = [
        named_pair_claims(
            tables,
            asked,
            level=level,
            rng=rng,
            times=None if throughput else times,
            stat=stat,
            threshold=threshold,
        ),
        latency_zone_claims(tables, level=level),
    ]
    by_throughput = throughput_zone_claims(
        tables,
        level,
        named=asked if throughput else two,
        times=times if throughput else None,
        say_unmeasured=throughput,
        rate=rate if throughput else None,
    )
    parts = [by_throughput, *by_latency] if throughput else [*by_latency, by_throughput]
    parts = [p for p in parts if len(p)]
    return pd.concat(parts, ignore_index=True) if parts else _empty()


def _side_of(low: float, high: float, bound: float) -> str | None:
    """'above' where ``low`` is over ``bound``, 'below' where ``high`` is under it, else None
    (the bound within the interval or range, or the figure itself)."""
    return "above" if low > bound else "below" if high < bound else None


def _threshold_claims(found: dict, pair: str, threshold: tuple[float, str, str]) -> list[dict]:
    """Each tool's figure of ``pair`` held against the bound the question asks about: its
    interval above or below it, or the bound inside it; a figure without an interval by
    its value alone; a figure known only as a bound where that bound decides."""
    bound, _, words = threshold
    rows = []
    for tool, (_, cell) in found.items():
        r = cell[pair]
        stat, basis = str(r["stat"]), str(r["basis"])
        what = f"{C.STAT_WORDS.get(stat, stat)} {C.BASIS_WORDS.get(basis, basis)}"
        est, lo, hi = (r.get(k) for k in ("estimate", "ci_low", "ci_high"))
        b_lo, b_hi = r.get("bound_low"), r.get("bound_high")
        shown = f"{fmt(bound)}"
        if pd.notna(est) and pd.notna(lo) and pd.notna(hi):
            side = _side_of(lo, hi, bound)
            within = f"not told from {shown}: it is within the {r['level']:.0%} interval"
            verdict, figure = f"{side} {shown}" if side else within, fmt_interval(r)
        elif pd.notna(est):
            side = _side_of(est, est, bound)
            alone = f"{side} {shown} by the figure alone" if side else f"{shown} itself"
            verdict, figure = f"{alone} (no interval)", fmt_interval(r)
        elif pd.notna(b_hi) and b_hi <= bound or pd.notna(b_lo) and b_lo >= bound:
            verdict = f"{'below' if pd.notna(b_hi) and b_hi <= bound else 'above'} {shown}"
            figure = fmt_bound(r)
        elif pd.notna(b_hi) or pd.notna(b_lo):
            verdict, figure = f"its bound cannot tell it from {shown}", fmt_bound(r)
        else:
            continue
        text = (
            f"**{words[0].upper()}{words[1:]}? By {tool}, {pair}'s {what} is {figure}: {verdict}**."
        )
        rows.append(_statement("answer", "zone pair", text, a=pair, tool=tool, basis=basis,
                               stat=stat, estimate=est, ci_low=lo, ci_high=hi,
                               evidence=_cells_evidence([r])))  # fmt: skip
    return rows


def other_stat_claims(
    tables: Tables, asked: Sequence[tuple[str, ...]], stat: str, level: float = 0.95
) -> pd.DataFrame:
    """Per tool with zoned runs, its probe loss (total lost over total sent) or jitter of each
    pair the question names, as page 20's matrix of ``stat`` gives it; where it names none,
    each tool's lowest and highest pair; a named pair no run measured, said so first."""
    named = list(dict.fromkeys(p for pairs in asked for p in pairs))
    rows, seen = [], set()
    # every tool with both zones of a run known, not only those of a latency matrix: owping's
    # one-way sessions lost 19.5 % at 3→1, and the answer said 'no run with zones known
    # measured it'
    ends = end_to_end_runs(tables)
    zoned = ends[ends["src_zone"].notna() & ends["dst_zone"].notna()]
    for tool in sorted(set(zoned["tool"])):
        m = zone_pair_medians(tables, tool=tool, level=level, stat=stat)
        m = m.dropna(subset=["estimate"])
        m = m.assign(pair=_pairs_of(m))
        runs = flow(zoned[zoned["tool"] == tool])
        # a question naming no pair: the pairs the matrix's size leaves out said apart
        rest = sorted(set(_pairs_of(runs)) - set(m["pair"])) if not named else []
        m = _at_their_size(tables, m, tool, runs, named or rest, stat, level)
        if m.empty:
            continue
        seen |= set(m["pair"])
        if named:  # each named pair the tool measured, in the question's order
            mine = m.set_index("pair")
            for pair in [p for p in named if p in mine.index]:
                r = mine.loc[pair]
                text = f"**By {tool}, {pair} {_other_figure(r, stat)}** ({r['note'] or 'page 20'})."
                rows.append(_statement("answer", "zone pair", text, a=pair, tool=tool, stat=stat,
                                       estimate=r["estimate"], evidence=_cells_evidence([r])))  # fmt: skip
            continue
        rows.append(_other_span(m[~m["pair"].isin(rest)], tool, stat, m[m["pair"].isin(rest)]))
    if missing := [p for p in named if p not in seen]:
        word = {"loss": "probe loss", "jitter": "jitter"}[stat]
        traced = [e for e in unmatrixed(tables, missing) if _TRACED in e]
        how = " end to end" if traced else ""
        text = (
            f"**{', '.join(missing)}: no figure of {word}** (no run with zones known "
            + (
                f"measured it{how}; the pairs with one are {', '.join(sorted(seen))}"
                if seen
                else f"measured it{how}"
            )
            + (f"; {'; '.join(traced)}: a {word} per hop, not the pair's)." if traced else ").")
        )
        rows.insert(0, _statement("answer", "zone pair", text, a=missing[0], evidence="none"))
    return _frame(rows) if rows else _empty()


def _at_their_size(
    tables: Tables,
    m: pd.DataFrame,
    tool: str,
    runs: pd.DataFrame,
    named: Sequence[str],
    stat: str,
    level: float,
) -> pd.DataFrame:
    """``m``, one tool's matrix of loss or jitter (its most common message size), with each
    of ``named`` (the question's pairs, or those the matrix leaves out) that the tool's
    ``runs`` (its data's ways) measured at another size, from the matrix at that size, its
    note saying so ('...; from its 1 run at 56 B: the zone matrix's are at 32 B'): a ping
    run of 56 B lost 12 of 600 probes at 2→1 beside 32 B runs of 1→3, and 'Is there packet
    loss between zone 1 and zone 2?' was 'no run with zones known measured it'."""
    usual = m["msg_size_bytes"].iloc[0] if len(m) else None
    extra = []
    for pair in [p for p in named if p not in set(m["pair"])]:
        size = _shared_size(runs, [pair])
        if size is None or (usual is not None and pd.notna(usual) and size == usual):
            continue
        other = zone_pair_medians(tables, tool=tool, msg_size=size, level=level, stat=stat)
        row = other[_pairs_of(other).eq(pair) & other["estimate"].notna()]
        if len(row):
            said = _from_size(size, usual, row["n_runs"].iloc[0])
            note = "; ".join(x for x in (str(row["note"].iloc[0] or ""), said) if x)
            extra.append(row.assign(pair=pair, note=note))
    return pd.concat([m, *extra], ignore_index=True) if extra else m


def _other_span(m: pd.DataFrame, tool: str, stat: str, apart: pd.DataFrame | None = None) -> dict:
    """A tool's lowest and highest pair of loss or jitter (each pair, where all are alike);
    ``apart``: pairs of another message size than the matrix's, each said after it ('Which
    zone pair loses the most packets?' was '... each of 2 zone pairs (1→3, 3→1) lost 0 %' of
    32 B runs beside a 56 B run that lost 2 % at 2→1)."""
    if m.empty and apart is not None and len(apart):
        m, apart = apart.iloc[:1], apart.iloc[1:]
    lo, hi = m.loc[m["estimate"].idxmin()], m.loc[m["estimate"].idxmax()]
    span = (
        f"{lo['pair']} {_other_figure(lo, stat)}"
        if len(m) == 1
        else f"each of {len(m)} zone pairs ({', '.join(m['pair'])}) "
        + ("lost " if stat == "loss" else "at ")
        + cell_value(lo["estimate"], stat)
        if lo["estimate"] == hi["estimate"]  # not 'lowest 1→2 (0 %), highest 1→2 (0 %)'
        else f"lowest {lo['pair']} ({_other_figure(lo, stat)}), highest {hi['pair']} "
        f"({_other_figure(hi, stat)}), over {len(m)} zone pairs"
    )
    text = f"**By {tool}, {span}** (page 20 gives each pair)."
    if apart is not None and len(apart):
        each = "; ".join(
            f"{r['pair']} {_other_figure(r, stat)} ({r['note']})" for _, r in apart.iterrows()
        )
        text += f" Not set beside them, at another message size: {each}."
    return _statement("answer", "zone pair", text, tool=tool, stat=stat,
                      evidence=_zone_evidence(m)[1])  # fmt: skip


def _other_figure(r, stat: str) -> str:
    """'lost 0.019 % of 109416 probes' or 'has a jitter of 12.3 µs (rfc3550 ...)'."""
    if stat == "loss":
        n = f" of {int(r['n'])} probes" if pd.notna(r.get("n")) else ""
        return f"lost {cell_value(r['estimate'], stat)}{n}"
    how = f" ({r['definition']})" if pd.notna(r.get("definition")) else ""
    return f"has a jitter of {fmt(r['estimate'])}{how}"


def _times_claims(
    out: pd.DataFrame, a: str, b: str, times: tuple[float, str], factor: str = "zone pair"
) -> list[dict]:
    """Each tool's ratio of ``a`` to ``b`` held against the factor the question asks about:
    'Is zone 1 → zone 3 ten times slower than zone 1 → zone 2?' was given 9.91× (95% CI
    9.64 to 10.20) and left the reader to see that ten times is inside it.  A contrast of
    placements or VM sizes whose sides hold several groups is held pair by pair, each named."""
    target, words = times
    rows = []
    for r in out.to_dict("records"):
        est, lo, hi = (r.get(k) for k in ("estimate", "ci_low", "ci_high"))
        if r.get("kind") not in ("ratio", "pair") or not (pd.notna(est) and est > 0):
            continue
        ci = pd.notna(lo) and pd.notna(hi) and lo > 0
        ga, gb = r.get("groups_a"), r.get("groups_b")
        if r["a"] != a:  # the claim put the slower side first: turned back to the question's
            est, lo, hi = 1 / est, (1 / hi if ci else lo), (1 / lo if ci else hi)
            ga, gb = gb, ga
        said = f"By {r['tool']}, {a} is {est:.2f}× {b}"
        if r.get("kind") == "pair":  # 'cross-zone (1→2 · zone matrix) is 2.48× same zone ...'
            said = f"By {r['tool']}, {a} ({', '.join(ga)}) is {est:.2f}× {b} ({', '.join(gb)})"
        t = f"{target:.3g}×"
        if not ci:
            verdict = f"{said}: no interval to hold {t} against** ({r['evidence']})."
        elif lo <= target <= hi:
            verdict = (
                f"{said}, and {t} is within its {r['level']:.0%} interval** ({lo:.2f} to {hi:.2f})."
            )
        else:
            side = "more" if lo > target else "less"
            verdict = f"{said}, {side} than {t}** ({r['level']:.0%} CI {lo:.2f} to {hi:.2f})."
        text = f"**{words[0].upper()}{words[1:]}? {verdict}"
        rows.append(_statement("answer", factor, text, a=a, b=b, tool=r["tool"],
                               estimate=est, ci_low=lo, ci_high=hi, level=r.get("level"),
                               evidence=r["evidence"]))  # fmt: skip
    return rows


def _side_threshold(claims: pd.DataFrame, sides: Sequence[str], bound, factor: str):
    """Each named side's latency figure, as its contrasts give it (a value, or a published
    range), held against the bound the question asks about: 'Is latte's latency with a PPG
    under 50 µs?' got the placement contrasts and no word on 50 µs.  A side's figure here has
    no interval of its own (a contrast's interval is of its ratio)."""
    value, _, words = bound
    rows, seen = [], set()
    for r in claims.to_dict("records"):
        if r.get("kind") not in ("ratio", "pair") or r.get("basis") == "throughput":
            continue
        for side, k in ((r["a"], "a"), (r["b"], "b")):
            est, low = r.get(f"value_{k}"), r.get(f"value_{k}_low")
            low = low if pd.notna(low) and low != est else None
            groups = r.get(f"groups_{k}")
            groups = ", ".join(groups) if isinstance(groups, list | tuple | np.ndarray) else ""
            key = (side, r["tool"], r.get("context"), est, low, groups)
            if side not in sides or key in seen or not pd.notna(est):
                continue
            seen.add(key)
            shown = f"{fmt(low).removesuffix(' µs')}–{fmt(est)}" if low is not None else fmt(est)
            where = _side_of(low if low is not None else est, est, value)
            verdict = (
                f"{where} {fmt(value)}" if where
                else f"its range spans {fmt(value)}" if low is not None else f"{fmt(value)} itself"
            )  # fmt: skip
            how = "a published range" if low is not None else "by the figure alone, no interval"
            what = f"{C.STAT_WORDS.get(r['stat'], r['stat'])} {C.BASIS_WORDS.get(r['basis'], r['basis'])}"
            text = (
                f"**{words[0].upper()}{words[1:]}? By {r['tool']}, {side}'s {what}"
                + (f" ({groups})" if groups else "")
                + f" is {shown}: "
                f"{verdict}** ({r.get('context')}; {how})."
            )
            rows.append(_statement("answer", factor, text, a=side, tool=r["tool"], stat=r["stat"],
                                   basis=r["basis"], estimate=est, evidence=r.get("evidence")))  # fmt: skip
    return _frame(rows) if rows else _empty()


def _other_by(tables: Tables, name: str, stat: str) -> pd.DataFrame:
    """Per tool, each side of a factor's probe loss, its runs pooled (total lost over total
    sent, as page 20's matrix pools a zone pair's): 'Is there packet loss across regions?'
    (seed 004) got the placement contrasts of latency.  Where no run counts its probes, or
    of jitter, said so above the latency contrasts."""
    col = COMPARE_FACTOR[name]
    what = FACTOR_NAMES.get(col, name)
    runs = end_to_end_runs(tables)  # as page 20's matrix counts them: each probe once
    runs = runs[runs["mode"].ne("throughput")] if "mode" in runs else runs
    loss = run_loss(tables, runs).merge(runs[["run_id", "tool", col]], on="run_id")
    loss = loss[loss[col].notna()]
    printed_only = loss[loss["sent"].isna()]  # a percentage alone pools with nothing
    loss = loss[loss["sent"].notna()]
    if stat != "loss" or loss.empty:
        why = (
            "page 20 gives jitter per zone pair"
            if stat == "jitter"
            else f"no run whose {what} is known counts the probes it sent and lost"
        )
        word = "probe loss" if stat == "loss" else stat
        text = f"**No figure of {word} by {what}** ({why}); the contrasts below are of latency."
        return _frame([_statement("answer", col, text, stat=stat, evidence="none")])
    rows = []
    for tool, g in loss.groupby("tool", sort=True):
        each = [
            f"{side_name(col, v)} {cell_value(100 * x['lost'].sum() / x['sent'].sum(), 'loss')} "
            f"of {int(x['sent'].sum())} probes ({counted(len(x), 'run')})"
            for v, x in g.groupby(col, sort=True)
        ]
        left = (printed_only["tool"] == tool).sum()
        left = f"; {counted(int(left), 'run')} printed only a percentage: left out" if left else ""
        text = (
            f"**By {tool}, probes lost: {'; '.join(each)}** (total lost / total sent{left}; no "
            "test)."
        )
        counts = set(g["from"]) == {"counts"}  # printed counts, else counted from samples
        one = g.groupby(col)["run_id"].size().max() == 1
        evidence = (
            "intervals across runs" if not one
            else "printed values" if counts else "samples, one run a side"
        )  # fmt: skip
        rows.append(_statement("answer", col, text, tool=tool, stat="loss", evidence=evidence))
    return _frame(rows)


def _no_throughput(tables: Tables, name: str) -> pd.DataFrame:
    """A question of throughput by a factor no two throughput runs differ in alone, said so
    above the latency contrasts that follow (the tiny synthetic campaign's throughput runs
    are all cross-zone)."""
    col, what = COMPARE_FACTOR[name], FACTOR_NAMES.get(COMPARE_FACTOR[name], name)
    runs = C.throughput_contrast_runs(tables)
    seen = sorted({side_name(col, v) for v in runs[col].dropna()}) if col in runs else []
    held = (
        f"the throughput runs' {what}: {', '.join(seen)}"
        if seen
        else f"no throughput run's {what} is known"
    )
    text = (
        f"**By throughput: no two runs differ in {what} alone** ({held}); the contrasts below "
        "are of latency."
    )
    return _frame([_statement("answer", col, text, evidence="the runs' conditions")])


def _sides_times(
    claims: pd.DataFrame, name: str, sides: Sequence[str], question, throughput: bool = False
) -> pd.DataFrame:
    """The factor a question asks of the two placements or VM sizes it names, held against
    each tool's contrast of them, first: 'Is a proximity placement group twice as fast as an
    availability set?' got 'availability set is 1.13× proximity placement group' and no word
    on twice.  A question of ``throughput``: its throughput contrasts alone."""
    times = asked_times(question, throughput=throughput)
    if times is None or len(sides) < 2 or claims.empty:
        return claims
    a, b = sides[:2]
    mine = claims[[{x, y} == {a, b} for x, y in zip(claims["a"], claims["b"])]]
    mine = mine[mine["basis"].eq("throughput") == throughput]
    held = _times_claims(mine, a, b, times, factor=COMPARE_FACTOR[name])
    return pd.concat([_frame(held), claims], ignore_index=True) if held else claims


def named_pair_claims(
    tables: Tables,
    asked: Sequence[tuple[str, ...]],
    *,
    level: float = 0.95,
    rng=None,
    times: tuple[float, str] | None = None,
    stat: str = "p50",
    threshold: tuple[float, str, str] | None = None,
) -> pd.DataFrame:
    """What the question asks of each pair or two it names (:func:`named_pairs`), in its
    order: one pair's figures (:func:`_one_pair_claims`), or the first of two against the
    second: by each tool that measured both, the runs of the one against the runs of the
    other as a contrast is estimated (run level from samples, with its interval and test where
    each side has the runs for one; else the printed values), its tool's message size and
    basis as in its zone matrix; where no tool did, which tool measured which (two tools'
    figures are not set side by side: hping3 -S times a TCP handshake, fping an ICMP echo).
    'Is zone 1 → zone 3 slower than zone 1 → zone 2?' was answered by the fastest and slowest
    pair of one tool.  The tests of every contrast the question asks are one family (Holm):
    'between zone 1 and zone 3 against between zone 1 and zone 2' asks two, 1→3 against 1→2
    and 3→1 against 2→1 (each was adjusted over its own tools alone)."""
    parts: list = []
    contrasts: list[dict] = []
    est: Estimator | None = None  # made once, where a tool measured both pairs of a two
    fold: set[str] | None = None  # summarising_runs: once, a pass over every sample
    for pairs in asked:
        if len(pairs) == 1:
            parts.append(_one_pair_claims(tables, pairs[0], level, times=times, rng=rng,
                                          stat=stat, threshold=threshold))  # fmt: skip
            continue
        a, b = pairs[:2]
        found, seen = _pair_cells(tables, (a, b), level, stat)
        cells = {tool: c for tool, (_, c) in found.items()}
        both = {t: c for t, c in cells.items() if len(c) == 2}
        if not both:
            gone = _elsewhere(tables, (a, b), cells)
            parts.append(
                _not_compared(a, b, cells, gone) if cells else _unmeasured((a, b), seen, out=gone)
            )
            continue
        valued = {t: c for t, c in both.items() if c[a]["estimate"] > 0 < c[b]["estimate"]}
        if est is None or fold is None:
            est = Estimator(tables, stat=stat, level=level, rng=rng)
            fold = summarising_runs(tables)
        made = [
            _pair_contrast(est, tool, c[a], a, b, level, fold, other=c[b])
            for tool, c in valued.items()
        ]
        contrasts += [_stat_said(x, stat) for x in made if x]
        bounded = [  # Windows ping's medians among 'time<1ms' replies: no ratio, the bounds said
            _statement("answer", "zone pair", f"**{a} against {b}: {_bound_order(c, a, b)}no "
                       f"ratio** ({tool}; {a} {_cell(c[a])}, {b} {_cell(c[b])}: a figure known "
                       "only as a bound, or none).", a=a, b=b, tool=tool,
                       evidence=_cells_evidence(c.values()))
            for tool, c in both.items() if tool not in valued
        ]  # fmt: skip
        parts.append((a, b, _frame(bounded) if bounded else _empty()))
    out = C.finish_claims(pd.DataFrame(contrasts), level, "holm")
    frames = []
    for part in parts:
        if isinstance(part, pd.DataFrame):
            frames.append(part)
            continue
        a, b, bounded = part
        mine = out[[{x, y} == {a, b} for x, y in zip(out["a"], out["b"])]]
        if times is not None and len(mine):  # the question's own factor answered first
            frames.append(_frame(_times_claims(mine, a, b, times)))
        frames += [mine, bounded]
    frames = [f for f in frames if len(f)]
    return pd.concat(frames, ignore_index=True) if frames else _empty()


def _stat_said(claim: dict, asked: str) -> dict:
    """A contrast of another statistic than the one asked says so: 'Is 1→2 slower than 2→1 at
    the p99?' got latte's '1→2 is 1.19× 2→1 (...; mean round trip; ...)' (its runs' test is
    of their printed means; its p99 is of the pooled histogram), the mean unexplained."""
    used = str(claim.get("stat"))
    if used == asked:
        return claim
    word = C.STAT_WORDS.get(asked, asked)
    why = (
        f"the {word} was asked; this contrast of {claim['tool']}'s runs is of their "
        f"{C.STAT_WORDS.get(used, used)}s"
    )
    return {**claim, "also": "; ".join(x for x in (claim.get("also"), why) if x)}


def _not_compared(a: str, b: str, cells: dict, elsewhere: Sequence[str] = ()) -> pd.DataFrame:
    """Two named pairs no tool measured both of: which tool measured which, or which pair no
    latency run measured, or (``elsewhere``, :func:`_elsewhere`) measured only outside a zone
    matrix."""
    where = {
        p: "; ".join(f"{p} by {t} ({_cell(c[p])})" for t, c in cells.items() if p in c)
        for p in (a, b)
    }
    missing = [p for p, w in where.items() if not w]
    why = (
        _outside(missing, elsewhere)
        if missing
        else "no tool measured both; two tools' figures are not set side by side"
    )
    text = f"**{a} against {b}: not compared** ({'; '.join([*filter(None, where.values()), why])})."
    shown = [r for c in cells.values() for r in c.values()]
    return _frame(
        [_statement("answer", "zone pair", text, a=a, b=b, evidence=_cells_evidence(shown))]
    )


def _pair_cells(
    tables: Tables, pairs: Sequence[str], level: float, stat: str = "p50"
) -> tuple[dict[str, tuple], list[str]]:
    """Per tool with zoned latency runs that measured any of ``pairs`` ('1→3'): its zone
    matrix and the matrix's row of each of those pairs it has; and every pair the tools'
    matrices hold.  A tool's matrix is at its most common message size; where that leaves a
    named pair out and another size holds them all, the matrix at that size (a campaign of
    netperf at 1 B whose 1→3 ran at 64 B only: '1→3 against 1→2: not compared (... no latency
    run measured 1→3)', page 10 showing 1→3's netperf median)."""
    out, seen = {}, set()
    zoned = zoned_runs(tables.runs)
    for tool in sorted(set(zoned["tool"])):
        m = zone_pair_medians(tables, tool=tool, level=level, stat=stat)
        rows = _rows_of(m, pairs)
        if len(rows) < len(pairs):
            size = _shared_size(zoned[zoned["tool"] == tool], pairs)
            usual = None if m.empty else m["msg_size_bytes"].iloc[0]
            usual = NO_SIZE if usual is not None and pd.isna(usual) else usual  # runs of none
            if size is not None and size != usual:
                m = zone_pair_medians(tables, tool=tool, msg_size=size, level=level, stat=stat)
                m.attrs["from_size"] = (size, usual)
                rows = _rows_of(m, pairs)
        seen |= set(_pairs_of(m))
        if rows:
            out[tool] = (m, rows)
    return out, sorted(seen)


def _from_size(size: int | str, usual, n_runs) -> str:
    """Where a pair's figure of a matrix asked at another size than the tool's usual one
    (``usual``) came from: 'from its 1 run at 64 B: the zone matrix's are at 1 B'."""
    n = 1 if pd.isna(n_runs) else int(n_runs)
    runs = f"{n} run{'s' if n > 1 else ''}"
    runs += " that printed no message size" if size == NO_SIZE else f" at {size} B"
    if usual == NO_SIZE:
        return f"from its {runs}: the zone matrix's are of runs that printed none"
    return f"from its {runs}" + (
        f": the zone matrix's are at {int(usual)} B" if pd.notna(usual) else ""
    )


def _pairs_of(m: pd.DataFrame) -> pd.Series:
    """'1→3' of each row's zones."""
    return m["src_zone"].astype(str) + "→" + m["dst_zone"].astype(str)


def _rows_of(m: pd.DataFrame, pairs: Sequence[str]) -> dict[str, pd.Series]:
    key = _pairs_of(m)
    return {p: m[key.eq(p)].iloc[0] for p in pairs if key.eq(p).any()}


def _shared_size(runs: pd.DataFrame, pairs: Sequence[str]) -> int | str | None:
    """The message size at which one tool's ``runs`` measured every pair of ``pairs`` (the
    one with the most runs of them, a printed one before :data:`NO_SIZE`), or None."""
    key = _pairs_of(runs)
    mine = runs[key.isin(pairs)].assign(_pair=key)
    sizes = [
        (len(g), pd.notna(size), -1 if pd.isna(size) else int(size))
        for size, g in mine.groupby("msg_size_bytes", sort=True, dropna=False)
        if set(g["_pair"]) >= set(pairs)
    ]
    if not sizes:
        return None
    _, printed, size = max(sizes)
    return size if printed else NO_SIZE


def _elsewhere(tables: Tables, pairs: Sequence[str], cells: dict) -> list[str]:
    """The runs of those of ``pairs`` no matrix in ``cells`` holds, that a tool's zone matrix
    left out to hold all but the zones fixed ('netperf's 1 run of 64 B (1→3)')."""
    missing = [p for p in pairs if not any(p in c for c in cells.values())]
    zoned = zoned_runs(tables.runs)
    fold = summarising_runs(tables) if missing else set()
    out = []
    for tool in sorted(set(zoned["tool"])) if missing else ():
        kept, *_ = matrix_runs(tables.runs, tool, None, None, only=missing, summaries=fold)
        out += [f"{tool}'s {h}" for h in kept.attrs.get("held_out") or []]
    return out + unmatrixed(tables, missing)


# How :func:`unmatrixed` names the runs of a pair no zone matrix holds, by why not.
_ONE_WAY, _TRACED = "of one-way delay", "tracing each hop"
_WHY_NOT = {
    _ONE_WAY: "as one-way delays, which a zone matrix of round trips does not hold (page 40 sets "
    "them beside the round trip)",
    _TRACED: "by traces, a round trip and a loss per hop, which no zone matrix holds",
}


def unmatrixed(tables: Tables, missing: Sequence[str]) -> list[str]:
    """Per tool, its runs of the ``missing`` pairs that no zone matrix holds: one-way sessions,
    each by the way it flowed ('owping's 1 run of one-way delay (2→1)'), and traced paths
    ('mtr's 1 run tracing each hop (2→3)'): 'no latency run measured 2→1' was said of a
    campaign whose owping sessions measured it, and 'no run with zones known measured' the
    loss of a pair mtr traced."""
    traced = per_hop_runs(tables.summaries)
    r = flow(tables.runs[tables.runs["src_zone"].notna() & tables.runs["dst_zone"].notna()])
    r = r[_pairs_of(r).isin(missing)] if len(r) else r
    ways = latency_runs(r)
    kinds = {
        _ONE_WAY: ways[ways["latency_basis"].eq("one_way").fillna(False)],
        _TRACED: r[r["run_id"].isin(traced)],
    }
    return [
        f"{tool}'s {counted(len(g), 'run')} {why} ("
        + (
            zone_figures(tables, g, _pairs_of(g))
            if why == _ONE_WAY
            else ", ".join(sorted(set(_pairs_of(g))))
        )
        + ")"
        for why, runs in kinds.items()
        for tool, g in runs.groupby("tool", sort=True)
    ]


def _outside(missing: Sequence[str], elsewhere: Sequence[str]) -> str:
    """Why the ``missing`` pairs have no figure: no latency run, or only runs a matrix
    leaves out (``elsewhere``), or one-way delays and traces, which no matrix holds
    (:func:`unmatrixed`)."""
    if not elsewhere:
        return f"no latency run measured {' or '.join(missing)}"
    held = [e for e in elsewhere if not any(w in e for w in _WHY_NOT)]
    said = [
        f"in runs a zone matrix leaves out, to hold all but the zones fixed: {'; '.join(held)}"
    ] if held else []  # fmt: skip
    for w, why in _WHY_NOT.items():
        if mine := [e for e in elsewhere if w in e]:
            said.append(f"{why}: {'; '.join(mine)}")
    return f"{' and '.join(missing)} measured only " + "; and ".join(said)


def _unmeasured(
    pairs: Sequence[str],
    seen: Sequence[str],
    what="latency",
    gone: Sequence[str] = (),
    out: Sequence[str] = (),
) -> pd.DataFrame:
    """The pairs a question names, none of which a ``what`` (latency, throughput) run
    measured (or, given, those of them in ``gone``), said so with the pairs the runs did
    measure (seed 004, asked of 1→3 and 1→2, answered by its 1→1 and 2→1 alone, as if it had
    been asked which pair is slowest); nothing where no such run's zones are known (its other
    statements answer).  ``out``: the runs of them a zone matrix left out (:func:`_elsewhere`),
    said instead."""
    if not seen and not out:
        return _empty()
    one_way = bool(out) and all(_ONE_WAY in e for e in out)  # their figures said, not 'none'
    head = (
        f"{pairs[0]} against {pairs[1]}: {'one-way delays only' if one_way else 'not compared'}"
        if len(pairs) > 1
        else f"{pairs[0]}: {'no round-trip figure' if one_way else 'no figure'}"
    )
    text = (
        f"**{head}** ({_outside(pairs, out)})."
        if out
        else f"**{head}** (no {what} run measured {' or '.join(gone or pairs)}; the {what} "
        f"runs' zone pairs are {', '.join(seen)})."
    )
    row = _statement("answer", "zone pair", text, a=pairs[0], b=pairs[-1], evidence="none")
    return _frame([row])


def _cells_evidence(cells) -> str:
    """A statement's evidence (docs/claims.md's words) from the zone-matrix rows it shows."""
    return _zone_evidence(pd.DataFrame(list(cells)))[1]


def _one_pair_claims(
    tables: Tables,
    pair: str,
    level: float,
    *,
    times: tuple[float, str] | None = None,
    rng=None,
    stat: str = "p50",
    threshold: tuple[float, str, str] | None = None,
) -> pd.DataFrame:
    """A question naming one pair ('how slow is zone 1 → zone 3?'): by each tool that measured
    it, its figure (``stat``) with its interval, and where it stands among that tool's pairs;
    with a factor (``times``), which of the tool's other pairs it is that factor of first;
    with a bound (``threshold``, :func:`asked_threshold`), each figure held against it first."""
    rows = []
    found, seen = _pair_cells(tables, [pair], level, stat)
    if not found:
        return _unmeasured([pair], seen, out=_elsewhere(tables, [pair], found))
    # the tools whose figure has an interval first: 'How slow is zone 1 → zone 3?' of
    # synthetic-westeurope opened with ping's 2035 µs (no interval) and qperf's printed 718
    # µs half round trip, sockperf's 1428 µs (95% CI 1378–1452) third
    found = dict(sorted(found.items(), key=lambda kv: not _has_interval(kv[1][1][pair])))
    if threshold is not None:
        rows += _threshold_claims(found, pair, threshold)
    if times is not None:
        est = Estimator(tables, stat=stat, level=level, rng=rng)
        fold = summarising_runs(tables)  # once: a pass over every sample without the memo
        made = [_factor_of_pairs(est, tool, m, c[pair], pair, times, level, fold)
                for tool, (m, c) in found.items()]  # fmt: skip
        # the tools whose runs give intervals first
        rows += [row for _, row in sorted((x for x in made if x), key=lambda x: x[0])]
    for tool, (m, cell) in found.items():
        r = cell[pair]
        stat, basis = str(r["stat"]), str(r["basis"])
        what = f"{C.STAT_WORDS.get(stat, stat)} {C.BASIS_WORDS.get(basis, basis)}"
        # ranked among the pairs of the same statistic: a printed mean (netperf's classic
        # 1→3, 223.7 µs) was '7.46× the fastest' against 1→2's histogram median (30 µs)
        every = m.dropna(subset=["estimate"])
        known = every[every["stat"] == stat]
        kind = "figure" if len(known) == len(every) else C.STAT_WORDS.get(stat, stat)
        figure = fmt_interval(r) if pd.notna(r["estimate"]) else fmt_bound(r) or _no_value(r)
        stand = ""
        if pd.notna(r["estimate"]) and len(known) > 1:
            rank = int((known["estimate"] < r["estimate"]).sum())
            low = known.loc[known["estimate"].idxmin()]
            place = (
                "the fastest"
                if rank == 0
                else "the slowest"
                if rank == len(known) - 1
                else f"faster than {counted(len(known) - 1 - rank, 'other')}"
            )
            stand = (
                f": {place} of its {len(known)} pairs with a {kind}"
                + (f", {r['estimate'] / low['estimate']:.2f}× the fastest, "
                   f"{low['src_zone']}→{low['dst_zone']}{bins_apart(r, low)}" if rank else "")
            )  # fmt: skip
        what += f"; its figure {said}" if (said := apart(r)) else ""
        what += (
            f"; {_from_size(*m.attrs['from_size'], r['n_runs'])}" if "from_size" in m.attrs else ""
        )
        text = f"**By {tool}, {pair} is {figure}**{stand} ({what})."
        rows.append(_statement("answer", "zone pair", text, a=pair, tool=tool, basis=basis,
                               stat=stat, evidence=_cells_evidence([r])))  # fmt: skip
    return _frame(rows) if rows else _empty()


def _has_interval(r: pd.Series) -> bool:
    return bool(pd.notna(r.get("ci_low")) and pd.notna(r.get("ci_high")))


def _factor_of_pairs(
    est: Estimator,
    tool: str,
    m: pd.DataFrame,
    cell: pd.Series,
    pair: str,
    times,
    level: float,
    fold: set[str],
) -> tuple[bool, dict] | None:
    """'Is zone 1 → zone 3 really ten times slower?' names one pair and a factor, not what it
    is that factor of: by ``tool``, ``pair`` against each of its other pairs (as
    :func:`_pair_contrast` sets them), grouped by whether the factor lies within the ratio's
    interval, below it or above it; and whether no ratio had an interval."""
    target, words = times
    t = f"{target:.3g}×"
    groups: dict[str, list[str]] = {"within": [], "more": [], "less": [], "untested": []}
    for _, other in m.dropna(subset=["estimate"]).iterrows():
        q = f"{other['src_zone']}→{other['dst_zone']}"
        c = _pair_contrast(est, tool, cell, pair, q, level, fold, other) if q != pair else None
        if c is None or not (pd.notna(c["estimate"]) and c["estimate"] > 0):
            continue
        lo, hi = c.get("ci_low"), c.get("ci_high")
        if not (pd.notna(lo) and pd.notna(hi)):
            groups["untested"].append(f"{q} ({c['estimate']:.2f}×)")
            continue
        side = "within" if lo <= target <= hi else "more" if lo > target else "less"
        groups[side].append(f"{q} ({c['estimate']:.2f}×, {lo:.2f} to {hi:.2f})")
    said = {
        "within": f"is {t}, within the {level:.0%} interval, of {', '.join(groups['within'])}",
        "more": f"is more than {t} {', '.join(groups['more'])}",
        "less": f"is less than {t} {', '.join(groups['less'])}",
        "untested": f"against {', '.join(groups['untested'])}: no interval to hold {t} against",
    }
    parts = [said[k] for k in said if groups[k]]
    if not parts:
        return None
    text = f"**{words[0].upper()}{words[1:]}? By {tool}, {pair} {parts[0]}**" + "".join(
        f"; {x.removeprefix('is ')}" for x in parts[1:]
    )
    row = _statement("answer", "zone pair", f"{text}.", a=pair, tool=tool,
                     evidence=_cells_evidence([cell]))  # fmt: skip
    return parts[0].startswith("against"), row


def _bound_order(cells: dict, a: str, b: str) -> str:
    """Which of two pairs is the faster where a bound tells it, though no ratio can: a median
    below 1000 µs (Windows ping's 'time<1ms') against one of at least 1000 µs ('1→2 is the
    faster, '), or ''.  'Is zone 1 to zone 2 slower than zone 1 to zone 3?' said 'no ratio'
    and not which."""

    def below(x: pd.Series, y: pd.Series) -> bool:  # x's figure lies below y's, bound or not
        top = x["estimate"] if pd.notna(x["estimate"]) else x.get("bound_high")
        low = y["estimate"] if pd.notna(y["estimate"]) else y.get("bound_low")
        exact = pd.notna(x["estimate"]) and pd.notna(y["estimate"])
        return not exact and pd.notna(top) and pd.notna(low) and float(top) <= float(low)

    for fast, slow in ((a, b), (b, a)):
        if below(cells[fast], cells[slow]):
            return f"{fast} is the faster, "
    return ""


def _cell(r: pd.Series) -> str:
    """A zone pair's figure, or its bound, or 'no value' and why."""
    return fmt(r["estimate"]) if pd.notna(r["estimate"]) else fmt_bound(r) or _no_value(r)


def _no_value(r: pd.Series) -> str:
    """'no value (no p99: the tool printed only mean)', 'no value (5 of 5 runs cannot give
    p99 (too short or censored))': the first clause of the cell's note (a p99 asked of qperf,
    or of runs of 77 probes, was 'no value')."""
    note = r.get("note")
    why = note.split("; ")[0] if isinstance(note, str) and note.strip() else ""
    return f"no value ({why})" if why else "no value"


def _pair_contrast(
    est: Estimator,
    tool: str,
    cell: pd.Series,
    a: str,
    b: str,
    level: float,
    fold: set[str],
    other: pd.Series | None = None,
):
    """Tool ``tool``'s runs of zone pair ``a`` against its runs of ``b`` (the message size and
    basis of its matrix, ``cell``; ``other``: ``b``'s cell), a ratio claim as a contrast's;
    None without runs.  ``fold``: :func:`summarising_runs`, not counted among the runs it
    leaves out.  Where both cells are of whole milliseconds (``step_us``), what the steps
    leave of the ratio is said ('2→3 is 1.50× 1→3' of Windows ping's 1.5 ms and 1 ms medians
    could be 0.75× to 2.5×)."""
    r = est.runs
    size, basis = cell["msg_size_bytes"], str(cell["basis"])
    # the runs its matrix holds: all but the zones fixed (1→1's runs with AN off or in a
    # proximity placement group were pooled with the rest, 30 runs against 2→2's 6)
    size_ = NO_SIZE if pd.isna(size) else int(size)
    kept, *_ = matrix_runs(est.tables.runs, tool, basis, size_, only=(a, b), summaries=fold)
    pair = _pairs_of(r)
    mine = r["run_id"].isin(kept["run_id"])
    runs_a, runs_b = r[mine & pair.eq(a)], r[mine & pair.eq(b)]
    if runs_a.empty or runs_b.empty:
        return None
    out = est("zone pair", runs_b, runs_a)
    cells = other is not None and pd.isna(out.get("estimate")) and _of_cells(cell, other)
    if cells:
        out = _cells_ratio(cell, other, (a, runs_a), (b, runs_b))
    held = {c: kept[c].dropna().unique() for c in ("vm_size", "accelerated_networking")}
    context = context_text(
        {"tool": tool, **({"msg_size_bytes": size} if pd.notna(size) else {}),
         **{c: v[0] for c, v in held.items() if len(v) == 1}}, "zone pair"
    )  # fmt: skip
    base = {"section": "answer", "factor": "zone pair", "context": context, "tool": tool,
            "stat": est.stat, "basis": basis, "level": level}  # fmt: skip
    claim = C._pair_claim(base, a, b, {**out, "groups_a": [a], "groups_b": [b]})
    left = kept.attrs.get("held_out") or []
    held = f"not in it, to hold all but the zones fixed: {'; '.join(left)}" if left else ""
    # the contrast's own (a run that printed no median: 'not in its side's figure') was
    # overwritten, so 2→1's second lagscope run was left out of '1→2 is 1.30× 2→1' unsaid
    coarse, span = "", {}
    # whole milliseconds (both cells' step_us): the contrast is of the cells' own samples; a
    # cell known only to a bin is not (its printed runs' values stand apart)
    steps = other is not None and pd.notna(cell.get("step_us")) and pd.notna(other.get("step_us"))
    if steps or (cells and pd.isna(out.get("bound_low"))):  # the cells' bins, unbounded
        # said the slower first, as the claim is (C._oriented)
        hi, lo = (cell, other) if cell["estimate"] >= other["estimate"] else (other, cell)
        coarse, span = bins_apart(hi, lo).removeprefix("; but "), _bin_span(cell, other)
    also = "; ".join(x for x in (coarse, claim.get("also") or "", held) if x)
    return {**claim, "kind": "ratio", "runs_a": sorted(runs_a["run_id"]),
            "runs_b": sorted(runs_b["run_id"]), "also": also, **span}  # fmt: skip


def _of_cells(cell: pd.Series, other: pd.Series) -> bool:
    """Whether two pairs' cells of one matrix give a ratio their runs did not: both with a
    figure of one statistic, one from samples and the other printed or from a histogram."""
    kinds = {cell.get("source"), other.get("source")}
    return (
        pd.notna(cell.get("estimate"))
        and pd.notna(other.get("estimate"))
        and float(other["estimate"]) > 0
        and cell.get("stat") == other.get("stat")
        and "samples" in kinds
        and len(kinds) == 2
    )


def _cells_ratio(cell: pd.Series, other: pd.Series, side_a: tuple, side_b: tuple) -> dict:
    """The ratio of two zone matrix cells (``cell``, of ``side_a``'s pair and runs, against
    ``other``) where their runs give no statistic in common to contrast: lagscope's -R dump
    at 1→2 (a median from its samples) against its frequency table at 1→3 (a median from
    the histogram) was '1→3 vs 1→2: not compared (lagscope): no common printed statistic',
    though page 20 gives both.  A printed range (twping's median known to its 100 µs
    bucket) bounds the ratio, as :func:`_compare._reported_row` bounds printed ones."""
    (a, runs_a), (b, runs_b) = side_a, side_b
    said = "; ".join(
        f"{pair}'s {_ZONE_SOURCES.get(str(c.get('source')), (str(c.get('source')),))[0]}"
        for pair, c in ((a, cell), (b, other))
    )
    va, vb = float(cell["estimate"]), float(other["estimate"])
    out = {
        "stat": cell["stat"],
        "value_a": va,
        "value_b": vb,
        "estimate": va / vb,
        "method": "ratio of the zone matrix's figures",
        "source": "cells",
        "unit_of_analysis": "figure",
        "note": f"figures of two kinds ({said}): their ratio, no test",
        "n_runs_a": len(runs_a),
        "n_runs_b": len(runs_b),
        "testable": False,
    }
    ra, rb = printed_range(cell), printed_range(other)
    if ra or rb:
        (lo_a, hi_a), (lo_b, hi_b) = ra or (va, va), rb or (vb, vb)
        out.update(bound_low=lo_a / hi_b, bound_high=hi_a / lo_b, value_a_low=lo_a,
                   value_b_low=lo_b)  # fmt: skip
        out["note"] += "; bounds from printed ranges, not a confidence interval"
    return out


def throughput_zone_claims(
    tables: Tables,
    level: float = 0.95,
    named: Sequence[tuple[str, ...]] = (),
    times: tuple[float, str] | None = None,
    say_unmeasured: bool = False,
    rate: tuple[float, str, str] | None = None,
) -> pd.DataFrame:
    """Per tool and condition (``_throughput.HELD``, message size, VM size, accelerated
    networking), the zone pairs by their runs' throughput figures, lowest first, where two or
    more pairs have one: 'By throughput, zones 1→2 carry 0.23× 1→1 (ntttcp, ...)'.  A
    campaign asking which zone pair has the lowest throughput was answered 'fewer than two
    zone pairs have a latency run'.  Where the question sets a pair against another
    (``named``) and a condition measured both, not as its lowest and highest, the one against
    the other comes first (:func:`_throughput_row` makes both statements), and before it the
    ratio of the one to the other held against the factor the question asks about
    (``times``, :func:`_throughput_times`); of one pair named with a factor ('Does zone 1 →
    zone 3 carry half?'), its ratio to each other pair of the condition.  With
    ``say_unmeasured`` (a question of throughput), a named pair no throughput run measured
    is said so first, with the pairs they did measure; with ``rate`` (:func:`asked_rate`), a
    named pair's figure held against it first."""
    tp = C.throughput_contrast_runs(tables, level)
    # a figure of 0 bit/s is one (a UDP run whose every datagram was lost): the slowest pair
    tp = tp[tp["src_zone"].notna() & tp["dst_zone"].notna() & (tp["estimate"] >= 0)].copy()
    if tp.empty:
        return _empty()
    extra = ["msg_size_bytes", "vm_size", "accelerated_networking", *HELD]
    flow = directed(tp, throughput=True).set_index("run_id")
    tp["pair"] = tp["run_id"].map(flow["src_zone"] + "→" + flow["dst_zone"])  # the data's way
    mixed = mixed_protocols(tp, latency=False)
    verdicts, pairwise, rows, covered, ranked = [], [], [], set(), set()
    for _, g in tp.groupby([c for c in extra if c in tp.columns], dropna=False, sort=True):
        pairs = g.groupby("pair", sort=False)["estimate"].agg(["median", "size"])
        if len(pairs) < 2:
            continue
        pairs = pairs.sort_values("median")
        ranked.update(pairs.index)
        held = dict(g.iloc[0][[c for c in extra if c in g]].dropna())
        context = throughput_context(held, "", mixed)
        # the two pairs the question names, where this condition measured them and they are
        # not its lowest and highest (its own statement then sets them side by side)
        ends = {pairs.index[0], pairs.index[-1]}
        every = _throughput_row(g, pairs, context)
        for asked in named:
            if not set(asked) <= set(pairs.index):
                continue
            covered.add(asked)
            if len(asked) == 1:  # one pair and a factor: against each other pair
                if times is not None:
                    verdicts.append(_throughput_times(every, times, pairs, asked[0]))
                if rate is not None:
                    verdicts.append(_rate_claim(pairs.loc[asked[0]], asked[0], rate, every))
                if times is None and rate is None:  # its figure first, then its condition's
                    verdicts.append(_one_of_them(pairs, asked[0], every))
                continue
            a, b = asked
            two = _throughput_row(g[g["pair"].isin([a, b])], pairs.loc[[a, b]], context, True)
            if times is not None:
                verdicts.append(_throughput_times(two, times))
            if {a, b} != ends:
                pairwise.append(two)
        rows.append(every)
    rows = verdicts + pairwise + rows
    out = _frame(rows) if rows else _empty()
    if not say_unmeasured:
        return out
    # 'Is throughput from zone 1 to zone 3 lower than within zone 1?' of runs that measured
    # 1→2 and 2→1 alone was answered '1→2 carries 0.99× 2→1', first
    by = [c for c in extra if c in tp.columns]
    back = _bidir_reverse(tables, tp)
    seen = sorted(set(tp["pair"].dropna()))
    said = [_throughput_unmeasured(p, seen, tp, by, mixed, back) for p in named if p not in covered]
    return _throughput_unranked(out, said, tp, by, mixed, seen, ranked=ranked, named=bool(named))


def _throughput_unranked(
    out: pd.DataFrame,
    said: list[pd.DataFrame],
    tp: pd.DataFrame,
    by: list[str],
    mixed,
    seen: list[str],
    *,
    ranked: set[str],
    named: bool,
) -> pd.DataFrame:
    """The zone-pair statements ``out`` with what no condition ranked: after the named pairs'
    ``said``, where no condition measured two pairs, each pair's figures by condition; else,
    for a question naming no pair, the pairs no condition ranked (``seen``: every pair with a
    figure; ``ranked``: those some condition ranked)."""
    if out.empty and not said and seen:
        # 'Which zone pair has the lowest throughput?' of two pairs measured in two conditions
        # (ethr over TCP at 2→1, over UDP at 3→1), or of one pair (psping -b at 2→3), was
        # answered by latency alone, unsaid
        text = (
            (
                f"**By throughput, no one tool and condition measured two zone pairs** "
                f"({'; '.join(_by_condition(tp, seen, by, mixed))}: two conditions' figures "
                "are not set side by side)."
            )
            if len(seen) > 1
            else f"**By throughput, only {seen[0]} was measured: no pair to rank it against** "
            f"({'; '.join(_by_condition(tp, seen, by, mixed))})."
        )
        said = [_frame([_statement("answer", "zone pair", text, evidence="none")])]
    if not named and not out.empty and (alone := [p for p in seen if p not in ranked]):
        # 'Which zone pair has the lowest throughput?' left out, unsaid, the pairs measured
        # only in a condition of their own (iperf 2 -d flows beside plain runs)
        text = (
            f"**Not ranked with them:** {'; '.join(_by_condition(tp, alone, by, mixed))} (each "
            "the only zone pair of its tool and condition; two conditions' figures are not set "
            "side by side)."
        )
        out = pd.concat([out, _frame([_statement("answer", "zone pair", text, evidence="none")])])
    return pd.concat([*said, out], ignore_index=True) if said else out


def _bidir_reverse(tables: Tables, tp: pd.DataFrame) -> dict[str, list[str]]:
    """Per zone pair, the --bidir runs whose reverse flow (server to client) went that way, as
    the throughput figures give a --bidir run by its forward flow: 'iperf3's --bidir run of
    2→3, its reverse flow 100 Mbit/s received (printed)'.  'What is the throughput from zone
    3 to zone 2?' was 'no throughput run measured 3→2' of a --bidir run of 2→3."""
    both = tp[tp["direction"].eq("bidir").fillna(False)] if "direction" in tp else tp.iloc[:0]
    s = tables.summaries
    s = s[s["run_id"].isin(both["run_id"]) & s["source"].eq("reported") & s["stat"].eq("mean")]
    out: dict[str, list[str]] = {}
    for r in both.itertuples():
        mine = s[s["run_id"] == r.run_id].set_index("metric")["value"]
        got = next(
            (f"{fmt(float(mine[m]), 'bps')} {w} (printed)" for m, w in _REVERSE if m in mine),
            "no figure printed",
        )
        out.setdefault(f"{r.dst_zone}→{r.src_zone}", []).append(
            f"{r.tool}'s --bidir run of {r.src_zone}→{r.dst_zone}, its reverse flow {got}"
        )
    return out


# A --bidir run's reverse flow's printed figure, as _throughput._FIGURES orders the forward's.
_REVERSE = (("throughput_receiver_reverse", "received"), ("throughput_sender_reverse", "sent"))


def _rate_claim(figure: pd.Series, pair: str, rate: tuple[float, str, str], row: dict) -> dict:
    """A named pair's throughput (``figure``: the median of its runs and how many) held
    against the bound the question asks: 'More than 5 Gbit/s? By throughput, 1→3 carries 7.48
    Gbit/s: above 5 Gbit/s (qperf, ...)'.  No interval: a throughput figure is one run's, or a
    median of runs."""
    bound, _, words = rate
    value, n = float(figure["median"]), int(figure["size"])
    verdict = _side_of(value, value, bound) or "at"
    runs = "one run" if n == 1 else f"the median of {n} runs"
    text = (
        f"**{words[0].upper()}{words[1:]}? By throughput, {pair} carries {_fmt(value, 'bps')}: "
        f"{verdict} {_fmt(bound, 'bps')}** ({row.get('how') or row.get('context')}; {pair}: "
        f"{runs}, no interval)."
    )
    return _statement("answer", "zone pair", text, a=pair, tool=row.get("tool"),
                      estimate=value, evidence=row.get("evidence"))  # fmt: skip


def _one_of_them(pairs: pd.DataFrame, pair: str, row: dict) -> dict:
    """A named pair's throughput and where it stands among its condition's pairs (``pairs``,
    lowest first; ``row``: the condition's statement): 'What is the throughput from zone 1 to
    zone 2?' was answered by the condition's lowest and highest pair, 1→2's figure among
    theirs."""
    value, n = float(pairs.loc[pair, "median"]), int(pairs.loc[pair, "size"])
    lo, hi = pairs.index[0], pairs.index[-1]
    where = (
        f"the lowest of its condition's {len(pairs)} pairs"
        if pair == lo
        else f"the highest of its condition's {len(pairs)} pairs"
        if pair == hi
        else f"between {lo} ({fmt(float(pairs.loc[lo, 'median']), 'bps')}) and {hi} "
        f"({fmt(float(pairs.loc[hi, 'median']), 'bps')})"
    )
    runs = "one run" if n == 1 else f"the median of {n} runs"
    text = (
        f"**By throughput, {pair} carries {fmt(value, 'bps')}, {where}** "
        f"({row.get('how') or row.get('context')}; {pair}: {runs}, no interval)."
    )
    return _statement("answer", "zone pair", text, a=pair, tool=row.get("tool"),
                      basis="throughput", estimate=value, evidence=row.get("evidence"))  # fmt: skip


def _throughput_unmeasured(
    pairs: tuple[str, ...],
    seen: list[str],
    tp: pd.DataFrame,
    by: list[str],
    mixed,
    back: dict[str, list[str]] | None = None,
) -> pd.DataFrame:
    """Named pairs no one throughput condition measured: which no run measured, or that no
    one tool and condition measured both, with each one's figures by condition (``tp``'s
    rows grouped ``by``): 'the statements below give each where it was measured' promised
    1→3's netperf figure, which no statement gave (a condition of one pair has none); a pair
    measured only as a --bidir run's reverse flow (``back``, :func:`_bidir_reverse`) says so."""
    gone = [p for p in pairs if p not in seen]
    if gone and any(p in (back or {}) for p in gone):
        head = f"{pairs[0]} against {pairs[1]}: not compared" if len(pairs) > 1 else ""
        why = [
            f"{p} measured only as the reverse flow of a --bidir run, which the throughput "
            f"figures give by its forward flow: {'; '.join(back[p])}"
            if p in back
            else f"no throughput run measured {p}"
            for p in gone
        ]
        text = f"**{head or gone[0] + ': not among the throughput figures'}** ({'; '.join(why)})."
        row = _statement("answer", "zone pair", text, a=pairs[0], b=pairs[-1], evidence="none")
        return _frame([row])
    if gone:
        return _unmeasured(pairs, seen, "throughput", gone)
    each = _by_condition(tp, pairs, by, mixed)
    if len(pairs) == 1:  # 'What is the throughput from zone 2 to zone 1?' raised IndexError
        text = (
            f"**{pairs[0]}'s throughput, by condition:** {'; '.join(each)} (no condition that "
            "measured it measured another zone pair, and two conditions' figures are not set "
            "side by side)."
        )
        row = _statement("answer", "zone pair", text, a=pairs[0], evidence="none")
        return _frame([row])
    text = (
        f"**{pairs[0]} against {pairs[1]}: not compared** ({'; '.join(each)}; no one tool and "
        "condition measured both, and two conditions' figures are not set side by side)."
    )
    row = _statement("answer", "zone pair", text, a=pairs[0], b=pairs[-1], evidence="none")
    return _frame([row])


def _by_condition(tp: pd.DataFrame, pairs: Sequence[str], by: list[str], mixed) -> list[str]:
    """Each of ``pairs``' throughput figures by condition (``tp``'s rows grouped ``by``):
    '1→3 by netperf, 16384 B, 1 stream, ...: 1.497 Gbit/s (one run)'."""
    each = []
    for p in pairs:
        for _, g in tp[tp["pair"] == p].groupby(by, dropna=False, sort=True):
            held = dict(g.iloc[0][by].dropna())
            runs = "one run" if len(g) == 1 else f"the median of {len(g)} runs"
            figure = fmt(float(g["estimate"].median()), "bps")
            each.append(f"{p} by {throughput_context(held, '', mixed)}: {figure} ({runs})")
    return each


def _throughput_times(
    row: dict, times: tuple[float, str], pairs: pd.DataFrame | None = None, one: str = ""
) -> dict:
    """A named pair's throughput against the other's (``row``: :func:`_throughput_row` of the
    two, in the question's order) held against the question's factor: a throughput figure
    is one run's, or a median of printed figures, never tested across runs, so no interval
    holds it ('Half? By iperf3, 1→3 carries 0.65× 1→2: no interval to hold 0.5× against').
    One pair named (``one``; ``row``: the condition's statement, ``pairs`` its medians):
    its ratio to each other pair, as a question naming one pair and a factor does not say
    what it is that factor of."""
    target, words = times
    if one:
        mine = pairs.loc[one, "median"]
        each = [
            f"{mine / v:.2f}× {q}" if v > 0 else f"{q} carries nothing"
            for q, v in pairs["median"].items()
            if q != one
        ]
        est, a, b, carries = np.nan, one, "", ", ".join(each)
    else:
        est, (a, b) = row["estimate"], (row["a"], row["b"])
        carries = (  # a ratio is empty where b carried nothing (a UDP run that lost all)
            f"{est:.2f}× {b}"
            if pd.notna(est)
            else f"{fmt(row['value_a'], 'bps')} where {b} carries nothing"
            if row["value_a"] > 0
            else f"nothing, nor does {b}"
        )
    text = (
        f"**{words[0].upper()}{words[1:]}? By throughput, {a} carries {carries}: no interval "
        f"to hold {target:.3g}× against** ({row['how']}, no test across runs)."
    )
    return _statement(
        "answer", "zone pair", text, a=a, b=b, tool=row["tool"], basis="throughput",
        stat="mean", estimate=est, evidence=row["evidence"],
    )  # fmt: skip


def _throughput_row(
    g: pd.DataFrame, pairs: pd.DataFrame, context: str, named: bool = False
) -> dict:
    """One condition's zone pairs by throughput (``g``: its runs; ``pairs``: each pair's median
    figure and run count), the first against the last: all its pairs, lowest first ('1→3
    carries 0.63× 3→3'), or the two a question names (``named``), in its order ('1→3 carries
    0.68× 1→2')."""
    lo, hi = pairs.index[0], pairs.index[-1]
    each = (" vs " if named else ", ").join(
        f"{p} {fmt(r['median'], 'bps')}"
        + (f" (median of {int(r['size'])} runs)" if r["size"] > 1 else "")
        for p, r in pairs.iterrows()
    )
    kinds = set(g["source"].astype(str))
    how = (
        "means of each run's interval rates"
        if kinds == {"samples"}
        else "printed by the tool"
        if kinds == {"reported"}
        else "printed or from interval rates"
    )
    sizes = sorted({int(n) for n in pairs["size"]})
    unit = "one run each" if sizes == [1] else f"{sizes[0]} to {sizes[-1]} runs a pair"
    low, high = pairs.loc[lo, "median"], pairs.loc[hi, "median"]
    notes = [paced_note(g)]
    back = g[g["direction"].astype("string").eq("reverse").fillna(False)]
    if len(back):
        how = "-R, or iperf 2's second way of -d or -r" if back["tool"].eq("iperf2").any() else "-R"
        notes.append(f"a reverse-mode run ({how}) by the way its data went, server to client")
    notes = "".join(f"; {x}" for x in notes if x)
    ratio = low / high if high > 0 else np.nan
    said = (
        f"{lo} carries {ratio:.2f}× {hi}"
        if low > 0 < high
        else f"{lo} carries nothing against {hi}"
        if low == 0 < high
        else f"{hi} carries nothing against {lo}"
        if high == 0 < low
        else f"neither {lo} nor {hi} carries anything"
        if named
        else f"{lo} carries nothing nor any pair"
    )
    text = (
        f"**By throughput, {said}** ({context}; {each}; {unit}, {how}, no test across runs{notes})"
    )
    return _statement(
        "answer", "zone pair", text, a=lo, b=hi, tool=str(g["tool"].iloc[0]),
        basis="throughput", stat="mean", value_a=float(low), value_b=float(high),
        estimate=float(ratio), groups_a=list(pairs.index),
        evidence=_throughput_evidence(kinds, sizes), how=f"{context}; {unit}, {how}",
    )  # fmt: skip


def _throughput_evidence(kinds: set[str], sizes: list[int]) -> str:
    """A throughput zone statement's evidence (docs/claims.md's words): printed figures, the
    interval rates of one run a pair, or figures of several kinds or runs."""
    if kinds == {"reported"}:
        return "printed values"
    return "samples, one run a side" if kinds == {"samples"} and sizes == [1] else "mixed"


def latency_zone_claims(tables: Tables, *, level: float = 0.95) -> pd.DataFrame:
    """The zone pairs from fastest to slowest (the arrow only where the logs prove it), with
    how the figures were made; a statement per pair and one for the spread.  Pairs whose
    figure is known only as a bound (a median among Windows ping's ``time<1ms`` replies) are
    named with it, as page 20 names them; where fewer than two pairs have a figure of their
    own, the statement says so (it was 'fewer than two zone pairs have a latency run whose
    direction is known' of four Windows ping pairs filed by zone).  Then the zone pairs of
    each other tool, a statement each (a matrix is of one tool: fping's two pairs were 'the
    slowest zone pair' of a campaign whose hping3 and paping runs measured two more)."""
    every = zone_pair_medians(tables, level=level)
    chosen = every["tool"].iloc[0] if len(every) else None
    zoned = zoned_runs(tables.runs)
    others = sorted(set(zoned["tool"]) - {chosen})

    def alone(m: pd.DataFrame) -> bool:
        # one pair in the matrix and the tool's others in runs it leaves out: 'fewer than two
        # zone pairs have a latency run' was said of netperf's 1→2 at 1 B beside its 1→3
        # that printed no message size, and 'measured one zone pair' of another tool's
        tool = m["tool"].iloc[0] if len(m) else None
        return len(m) == 1 and _pairs_of(zoned[zoned["tool"] == tool]).nunique() > 1

    first = _latency_zone_row(every, first=True, by_tool=bool(others))
    solo = alone(every)
    if first is None and (solo or every["estimate"].notna().sum() == 1):
        # one pair in all (ethr's latency runs at 3→2 beside throughput runs elsewhere): its
        # figure, where 'Nothing to say: fewer than two zone pairs ...' withheld it
        first = _latency_zone_row(every, by_tool=bool(others), alone=solo)
    rows = [first]
    for tool in others:
        m = zone_pair_medians(tables, tool=tool, level=level)
        rows.append(_latency_zone_row(m, by_tool=True, alone=alone(m)))
    rows = [r for r in rows if r is not None]
    return _frame(rows) if rows else _empty()


def _latency_zone_row(
    every: pd.DataFrame, *, first: bool = False, by_tool: bool = False, alone: bool = False
) -> dict | None:
    """:func:`latency_zone_claims`' statement of one tool's zone matrix ``every`` (None where
    it has no pair; the ``first``, the page's own matrix, only where two or more have a
    figure or a bound: one pair is no answer to which is the fastest).  ``by_tool``: other
    tools' statements follow, so the slowest and fastest are said to be the tool's; ``alone``:
    the matrix's one pair is not all the tool measured."""
    m = every.dropna(subset=["estimate"])
    bounded = int((every.apply(fmt_bound, axis=1) != "").sum()) if len(m) < len(every) else 0
    if len(m) + bounded < (2 if first else 1):
        return None
    m = m.sort_values("estimate")
    tool, basis = str(every["tool"].iloc[0]), str(every["basis"].iloc[0])
    stats = set(every["stat"])
    stat = (
        "median"
        if stats == {"p50"}
        else "mean"  # qperf's one pair: no median stood in for
        if stats == {"mean"}
        else "median (mean where only a mean printed)"
    )
    unit, evidence = _zone_evidence(m if len(m) else every)
    if len(m) < 2:
        return _bounded_zone_row(every, m, tool, basis, stat, unit, evidence, alone=alone)
    same, rest = of_one_stat(m)  # a printed mean beside histogram medians: not set against
    lo, hi = same.iloc[0], same.iloc[-1]
    mixed = m["stat"].nunique() > 1  # a pair's printed mean beside others' medians: said
    each = ", ".join(
        f"{r.src_zone}→{r.dst_zone} {fmt(r.estimate)}"
        + (" (mean)" if mixed and r.stat == "mean" else "")
        for r in m.itertuples()
    )
    head = _zone_head(same, rest, f"By {tool}, " if by_tool else "")
    text = (
        f"**{head}** ({tool}, {stat} {basis.replace('_', ' ')}; {each}; {unit}). The arrows are "
        f"client → server where the addresses prove it; the matrix gives {_intervals_given(m)}"
    )
    if len(m) < len(every):
        text += cells_without_value(every, lo, hi)
    if held := held_out(m, others=False):  # the others' statements follow
        text += " " + held
    row = _statement(
        "answer",
        "zone pair",
        text,
        a=f"{hi.src_zone}→{hi.dst_zone}",
        b=f"{lo.src_zone}→{lo.dst_zone}",
        tool=tool,
        basis=basis,
        stat=str(lo["stat"]),
        value_a=float(hi.estimate),
        value_b=float(lo.estimate),
        estimate=float(hi.estimate / lo.estimate) if len(same) > 1 else None,  # one a stat
        **_bin_span(hi, lo) if len(same) > 1 else {},
        groups_a=[f"{r.src_zone}→{r.dst_zone}" for r in m.itertuples()],
        evidence=evidence,
    )
    return row


def _bin_span(hi: pd.Series, lo: pd.Series) -> dict:
    """The claim's ``estimate_low``/``estimate_high`` where a figure is known only to its bin."""
    span = bin_ratio(hi, lo)
    return {} if span is None else {"estimate_low": span[0], "estimate_high": span[1]}


def _intervals_given(m: pd.DataFrame) -> str:
    """What the zone matrix gives of the pairs ``m`` with a figure: 'every pair with its
    interval.', 'each pair's interval where it has one (2 of 3).' or why none has one."""
    has = int((m["ci_low"].notna() & m["ci_high"].notna()).sum())
    if has == len(m):
        return "every pair with its interval."
    if has:
        return f"each pair's interval where it has one ({has} of {len(m)})."
    return "every pair and why none has an interval."


def _zone_head(same: pd.DataFrame, rest: pd.DataFrame, by: str) -> str:
    """The zone-pair statement's bold head: the slowest pair against the fastest of the
    statistic most cells have (``same``, sorted), the cells of another statistic (``rest``)
    named apart; ``by``: 'By latte, ' where other tools' statements follow."""
    lo, hi = same.iloc[0], same.iloc[-1]
    word = C.STAT_WORDS.get(lo.stat, lo.stat)
    others = ", ".join(f"{r.src_zone}→{r.dst_zone}" for r in rest.itertuples())
    if rest.empty:
        head = (
            f"{by}{'the' if by else 'The'} slowest zone pair, {hi.src_zone}→{hi.dst_zone}, is "
            f"{hi.estimate / lo.estimate:.2f}× the fastest, {lo.src_zone}→{lo.dst_zone}"
            f"{bins_apart(hi, lo)}"
        )
    elif len(same) > 1:  # a printed mean (105.2 µs) was '3.51× the fastest', a median
        head = (
            f"{by}{'of' if by else 'Of'} the {len(same)} pairs with a {word}, the slowest, "
            f"{hi.src_zone}→{hi.dst_zone}, is {hi.estimate / lo.estimate:.2f}× the fastest, "
            f"{lo.src_zone}→{lo.dst_zone}{bins_apart(hi, lo)}; {others}'s figure"
            + ("s are" if len(rest) > 1 else " is")
            + " of another statistic, not set against them"
        )
    else:  # netperf's classic mean (223.7 µs) was '7.46×' a histogram's median (30 µs)
        head = (
            f"{by}{lo.src_zone}→{lo.dst_zone}'s figure is a {word}, {others}'s of another "
            "statistic: not set against each other"
        )
    return head


def _bounded_zone_row(
    every, m, tool: str, basis: str, stat: str, unit: str, evidence: str, *, alone: bool = False
):
    """The zone statement where fewer than two pairs have a figure of their own and the rest
    are known only as a bound: the pair that has one, then each bound and where the fastest
    may be (:func:`_pages.cells_without_value`); ``alone``: one pair in a matrix that left
    the tool's others out."""
    what = f"{stat} {basis.replace('_', ' ')}"
    one = m.iloc[0] if len(m) else None
    if one is not None and len(every) == 1:  # another tool's one pair, or the matrix's
        pair = f"{one.src_zone}→{one.dst_zone}"
        head = (
            f"Only {pair} is in {tool}'s zone matrix, at {fmt(one.estimate)}: no pair to set it "
            "against"
            if alone
            else f"{tool} measured one zone pair: {pair} at {fmt(one.estimate)}"
        )
        said = f"{what}; {unit.replace('one run each', 'one run')}"
    elif one is not None:
        pair = f"{one.src_zone}→{one.dst_zone}"
        head = f"Only {pair} has a {what} of its own: {fmt(one.estimate)}"
        said = f"{tool}; {unit}"
    else:
        head, said = f"No zone pair of {tool}'s has a {what} of its own", unit
    text = f"**{head}** ({said}).{cells_without_value(every, one, one)}"
    if held := held_out(every, others=False):
        text += " " + held
    pairs = [f"{r.src_zone}→{r.dst_zone}" for r in every.itertuples()]
    return _statement(
        "answer", "zone pair", text, tool=tool, basis=basis, stat=str(every["stat"].iloc[0]),
        groups_a=pairs, evidence=evidence,
    )  # fmt: skip


# Where a zone pair's figure came from, in the answer's words and as a claim's evidence.
_ZONE_SOURCES = {
    "reported": ("printed", "printed values"),
    "samples": ("from its samples", "samples, one run a side"),
    "histogram": ("from its histogram", "histogram bins, one run a side"),
}


def _zone_evidence(m: pd.DataFrame) -> tuple[str, str]:
    """What the zone pairs' figures are (the sentence's words, the claim's ``evidence``):
    several runs a pair, or one run each whose figure the tool printed or azlatency took from
    its samples or its histogram; and, where no pair has one, that there is no interval."""
    kinds = list(dict.fromkeys(m["source"].astype(str)))
    several = m["n_runs"].fillna(1) > 1
    if several.any() and kinds == ["reported"]:  # ethr's blocks: no interval across them
        unit = "printed values, a pair of several runs the median of theirs"
        evidence = "printed values"
    elif several.any():
        unit, evidence = "runs", "intervals across runs"
    elif kinds == ["reported"]:
        unit, evidence = "printed values of one run each", "printed values"
    elif len(kinds) == 1 and kinds[0] in _ZONE_SOURCES:
        unit, evidence = f"one run each, {_ZONE_SOURCES[kinds[0]][0]}", _ZONE_SOURCES[kinds[0]][1]
    else:
        said = [_ZONE_SOURCES.get(k, (k,))[0] for k in kinds]
        unit, evidence = f"one run each, {' or '.join(said)}", "mixed"
    if m[["ci_low", "ci_high"]].isna().all(axis=None):
        unit += ", none with an interval"
    for _, r in m.iterrows():  # netperf's classic table beside its -v 2 histogram: 'one run'
        if said := apart(r):
            unit += f"; {r['src_zone']}→{r['dst_zone']}'s {said}"
    return unit, evidence


# ---------------------------------------------------------------------------------------------
# Stability of long runs


def _broke_at(tables: Tables) -> dict[str, str]:
    """Scenario → when its connection broke, as printed (a ``broke_at`` label)."""
    runs = tables.runs
    if runs.empty:
        return {}
    lab = labels(runs)
    if "broke_at" not in lab.columns:
        return {}
    got = runs.assign(_b=lab["broke_at"]).dropna(subset=["_b"])
    return dict(zip(got["scenario"].astype(str), got["_b"].astype(str)))


def stability_claims(tables: Tables) -> pd.DataFrame:
    """How steady latency stayed and what ended the runs: the printed windows of the last
    records before a break (seed 004), their spread and the last window's change; the break
    times as printed; the printed p99 against the mean per scenario."""
    rows = []
    seg = reported_segments(tables)
    for scen, g in seg.groupby("scenario", sort=False):
        g = g.sort_values("from_end_first", ascending=False)
        last, before = g.iloc[-1], g.iloc[-2] if len(g) > 1 else None
        change = "" if before is None else f"; the last window {_delta(last, before)}"
        text = (
            f"**{scen}: the {len(g)} windows of {int(g['n'].iloc[0])} records before the "
            f"break average {fmt(g['mean'].min())} to {fmt(g['mean'].max())}** "
            f"({g['mean'].max() / g['mean'].min():.2f}× apart{change}; printed means without "
            "a spread: no test of a change)"
        )
        rows.append(_statement("answer", "stability", text, a=str(scen), stat="mean", basis="rtt"))
    rows += _session_rows(tables)
    rows += _tail_rows(tables)
    broke = _broke_at(tables)
    if broke:
        order = sorted(broke.items(), key=lambda kv: kv[1])
        when = "; ".join(f"{s} at {t}" for s, t in order)
        every = (
            "The connection" if len(order) == 1 else f"Every one of the {len(order)} connections"
        )
        text = f"**{every} broke** ({when}, as printed; the time zone is not given)"
        rows.append(_statement("answer", "stability", text, a="connections", stat="broke_at"))
    return _frame(rows) if rows else _empty()


def _session_rows(tables: Tables, min_hours: float = 1.0) -> list[dict]:
    """Each long session's breaks and change points from its timed samples, as page 30
    finds them; no long run but timed samples: how long the longest spans (a stability
    question was answered 'no long run with timed samples' of a folder of 10 s runs)."""
    found = sessions(tables, min_hours=min_hours)
    rows = []
    for name, runs in found:
        r = analyse_session(tables, name, runs)
        t = r["samples"].get("time_ns", r["samples"].get("tx_time_ns", pd.Series(dtype=float)))
        span = float(t.max() - t.min()) / 3.6e12 if t.notna().any() else 0.0
        text = (
            f"**{name}: {session_words(r)}** (over {span_words(span)} of timed samples, "
            f"{len(r['samples']):,} of them; {r['basis']}; change points by PELT on block "
            "medians, penalised by the long-run variance; breaks: gaps, bursts of drops, a run "
            "ending in a drop; page 30 draws them)"
        )
        rows.append(_statement("answer", "stability", text, a=name, basis=str(r["basis"]),
                               evidence="a session's timed samples"))  # fmt: skip
    longest = long_runs(tables, min_hours=0.0)
    if not found and len(longest):
        top = longest.iloc[0]
        what = f"{top['tool']}" + (
            f" {top['src_zone']}→{top['dst_zone']}" if pd.notna(top.get("src_zone")) else ""
        )
        text = (
            f"**No run is long enough to tell: the longest with timed samples, {what}'s "
            f"(`{str(top['source_path']).rsplit('/', 1)[-1]}`), spans "
            f"{span_words(float(top['span_h']))}** ({counted(len(longest), 'run')} with timed "
            f"samples; a long run spans {min_hours:g} h or more, as page 30 reads one)"
        )
        rows.append(_statement("answer", "stability", text, a=what, evidence="the runs' times"))
    return rows


def _delta(last: pd.Series, before: pd.Series) -> str:
    d = float(last["mean"] - before["mean"])
    word = "rose" if d > 0 else "fell"
    return f"{word} by {fmt(abs(d))} from the one before"


def _tail_rows(tables: Tables) -> list[dict]:
    """Per scenario with runs printing both a mean and a p99: the p99 as a multiple of the
    mean, each run's against its own (seed 004's 'Same AZ' paired a window's mean, 813.14 µs,
    with the whole run's p99 of 1050 µs, whose mean was 850 µs)."""
    s = tables.summaries[tables.summaries["source"] == "reported"]
    s = s.merge(tables.runs[["run_id", "scenario", "tool", "latency_basis"]], on="run_id")
    s = s[(s["metric"] == s["latency_basis"]) & s["stat"].isin(["mean", "p99"])]
    wide = s.pivot_table(index="run_id", columns="stat", values="value", aggfunc="first")
    if not {"mean", "p99"} <= set(wide.columns):
        return []
    wide = wide[(wide["mean"] > 0) & wide["p99"].notna()]
    runs = tables.runs.set_index("run_id").loc[wide.index, ["scenario", "tool"]]
    wide = wide.join(runs).dropna(subset=["scenario"]).assign(ratio=lambda w: w.p99 / w["mean"])
    tools = wide.groupby("scenario")["tool"].nunique()
    wide["label"] = [
        f"{sc} ({tool})" if tools[sc] > 1 else str(sc)
        for sc, tool in zip(wide["scenario"], wide["tool"])
    ]
    groups = wide.groupby("label", sort=False)
    if groups.ngroups < 2:
        return []
    each = []
    for label, g in sorted(groups, key=lambda kv: kv[1]["ratio"].median()):
        r = g.iloc[0]
        each.append(
            f"{label} {r['ratio']:.2f}× ({fmt(r['p99'])} against {fmt(r['mean'])})"
            if len(g) == 1
            else f"{label} {g['ratio'].min():.2f}× to {g['ratio'].max():.2f}× ({len(g)} runs)"
        )
    lo, hi = wide["ratio"].min(), wide["ratio"].max()
    n = len(wide)
    ev = "one run each" if n == groups.ngroups else f"{n} runs"
    text = (
        f"**The printed p99 is {lo:.2f}× to {hi:.2f}× the printed mean of its run** "
        f"({'; '.join(each)}; printed values, {ev}: no test)"
    )
    top = wide["ratio"].idxmax()
    return [_statement("answer", "stability", text, a=str(wide.at[top, "label"]), stat="p99/mean")]


# ---------------------------------------------------------------------------------------------
# Fleet baseline


def baseline_claims(table: pd.DataFrame) -> pd.DataFrame:
    """Which VM fails which check (with its evidence), and which to redeploy."""

    if table is None or table.empty:
        return _empty()
    rows = []
    counts = table["verdict"].astype(str).value_counts()
    summary = ", ".join(f"{n} {v}" for v, n in counts.items())
    vms, checks = table["vm"].nunique(), table["check"].nunique()
    text = f"**{counted(vms, 'VM')} × {counted(checks, 'check')}:** {summary}"
    rows.append(_statement("answer", "baseline", text, evidence="mixed"))
    for r in table[table["verdict"].astype(str) == "fails"].itertuples(index=False):
        value = _fmt(r.estimate, str(r.unit))
        if np.isfinite(r.ci_low) and np.isfinite(r.ci_high) and r.ci_low < r.ci_high:
            value += (
                f" ({r.level:.0%} CI {_fmt(r.ci_low, str(r.unit))}–{_fmt(r.ci_high, str(r.unit))})"
            )
        ev = (
            "one printed value" if r.evidence == "printed" and r.n_runs == 1 else f"{r.n_runs} runs"
        )
        text = f"**{r.vm} fails {r.check}:** {value}, target {r.target} ({ev})"
        rows.append(
            _statement(
                "answer", "baseline", text, a=str(r.vm), b=str(r.target), stat=str(r.stat),
                estimate=float(r.estimate), ci_low=r.ci_low, ci_high=r.ci_high,
                evidence="tested across runs" if r.unit_of_analysis == "run" else "printed values",
            )
        )  # fmt: skip
    flagged = table[table["advice"].astype(bool)]
    for vm, g in flagged.groupby("vm", sort=True):
        which = "; ".join(
            f"{c} ({x:.2f}× the peers' median)" for c, x in zip(g["check"], g["ratio_to_median"])
        )
        text = f"**Redeploy {vm} and test again:** it differs from its peers on {which}"
        rows.append(_statement("answer", "baseline", text, a=str(vm), stat="robust_z"))
    return _frame(rows)


def _named_vms(table: pd.DataFrame, question: str | None) -> list[str]:
    """The fleet's VMs ``question`` names, in its order ('Is cass-4 slower than cass-1?')."""
    at = {}
    for vm in table["vm"].dropna().astype(str).unique():
        if m := re.search(rf"(?<![\w-]){re.escape(vm)}(?![\w-])", question or "", re.IGNORECASE):
            at[vm] = m.start()
    return sorted(at, key=at.__getitem__)


def _vm_pair_claims(table: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """Two VMs a question names, the first against the second on each check both have a
    figure of: 'Is cass-4 slower than cass-1?' (seed 003) got the fleet's verdicts alone."""
    rows = []
    for check, g in table.groupby("check", sort=False):
        one = {str(r.vm): r for r in g.itertuples(index=False) if np.isfinite(r.estimate)}
        if a not in one or b not in one or not one[b].estimate:
            continue
        ra, rb = one[a], one[b]
        unit = str(ra.unit)
        text = (
            f"**{a} is {ra.estimate / rb.estimate:.2f}× {b} on {check}** ({_fmt(ra.estimate, unit)}"
            f" vs {_fmt(rb.estimate, unit)}; target {ra.target}: {a} {ra.verdict}, {b} "
            f"{rb.verdict}; each VM's figure with its own interval on page 50, the two not "
            "tested against each other)"
        )
        per_run = {ra.unit_of_analysis, rb.unit_of_analysis} == {"run"}
        printed = {ra.evidence, rb.evidence} == {"printed"} and ra.n_runs == rb.n_runs == 1
        evidence = "intervals across runs" if per_run else "printed values" if printed else "mixed"
        rows.append(_statement("answer", "baseline", text, a=a, b=b, stat=str(ra.stat),
                               estimate=ra.estimate / rb.estimate, evidence=evidence))  # fmt: skip
    return _frame(rows) if rows else _empty()


def claims_json(claims: pd.DataFrame) -> str:
    """The claims as the JSON a page writes beside itself."""
    return json.dumps(C.to_records(claims), indent=1, sort_keys=True, ensure_ascii=False)

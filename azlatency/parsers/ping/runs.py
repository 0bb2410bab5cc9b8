"""A ping run being read (``Acc``) and how it becomes a :class:`Run`: its samples (seqs
unwrapped, unmarked duplicates, ``lost`` rows for gaps), its meta per dialect, and its
reported and computed ``rtt`` summaries.  Which lines make up a run is ``ping.py``'s job;
the samples are numpy columns (``ping/samples.py``) until the frame is made.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd

from ..._console import counted
from ...errors import ParseError
from .._base import Run
from .._lines import RTT_PERCENTILES, constant_str, decimal_to_ns, host_and_ip, left_out
from .samples import (
    CODE,
    Samples,
    concat,
    from_chunk,
    from_rows,
    int64,
    message_str,
    status_str,
    with_lost,
    with_status,
)

TOOL = "ping"
WHOLE_MS = "Windows prints whole milliseconds"  # truncated: '1ms' is 1.000-1.999 ms
WINDOWS_RESOLUTION = (
    f"{WHOLE_MS}: rtt_us has a 1000 us resolution, and 'time<1ms' "
    "replies are censored (rtt_us empty, censor_high_us = 1000)"
)
_SLOW_LISTED = 5  # skipped lines named one by one in a warning; the rest are counted


def ms_to_us(text: str) -> float:
    """``'0.029'`` ms → ``29.0`` µs exactly (no ``0.029 * 1000 = 29.000000000000004``)."""
    whole, _, frac = text.partition(".")
    if len(frac) <= 3:
        return float(int(whole or "0") * 1000 + int((frac + "000")[:3]))
    return float(Decimal(text) * 1000)


@dataclass
class Acc:
    """A run being read."""

    first: int
    last: int
    kind: str | None = None  # "unix", "windows", "ps5", "ps7"
    votes: set[str] = field(default_factory=set)  # unix dialect evidence
    lang: str | None = None
    header: dict[str, Any] | None = None
    reply_ip: str | None = None  # Windows: the address the first reply came from
    rows: list[tuple] = field(default_factory=list)
    chunks: list[dict[str, Any]] = field(default_factory=list)
    counts: dict[str, Any] | None = None  # ints: read by ping.py within int64
    counts_idx: int | None = None  # line of the packets line
    rtt: dict[str, str] | None = None
    rtt_title: int | None = None  # line of Windows' "Approximate round trip times ..."
    title: dict[str, Any] | None = None
    pipe: int | None = None
    glued: set[int] = field(default_factory=set)
    joined: set[int] = field(default_factory=set)  # lines holding several of ping's lines
    warnings: list[str] = field(default_factory=list)
    cut: bool = False  # the output ends inside the statistics block
    elided: int | None = None  # the first '...' line of a shortened paste
    ps: dict[str, Any] = field(default_factory=dict)

    @property
    def has_packets(self) -> bool:
        return bool(self.rows or self.chunks)

    @property
    def done(self) -> bool:
        """The statistics block is complete: whatever packet line follows is another run."""
        return self.counts is not None

    def row(
        self,
        idx: int,
        seq,
        status: str,
        rtt=None,
        censor=None,
        ttl=None,
        size=None,
        ts=None,
        message=None,
    ) -> None:
        self.rows.append((idx, seq, status, rtt, censor, ttl, size, ts, message))
        self.last = max(self.last, idx)


# ---------------------------------------------------------------------------------------------
# Samples.


def samples_of(acc: Acc) -> Samples:
    """The run's packet lines (line reader rows and bulk-read chunks), in line order."""
    parts = [from_rows(acc.rows)] if acc.rows else []
    parts += [from_chunk(ch) for ch in acc.chunks]
    s = concat(parts)
    if len(parts) > 1 and not (s.idx[1:] >= s.idx[:-1]).all():
        s = s.take(np.argsort(s.idx, kind="stable"))
    return s


def unwrap(seq: np.ndarray) -> np.ndarray:
    """icmp_seq is 16 bits: after 65535 comes 0.  Keep counting instead, so that gaps and
    duplicates are found in runs longer than 65536 packets.  A jump of more than half the
    range backwards is a wrap; forwards, a late reply from before the wrap."""
    if len(seq) < 2:
        return seq
    d = np.diff(seq)
    jumps = np.flatnonzero((d < -32768) | (d > 32768))
    if not len(jumps):
        return seq
    step = np.zeros(len(seq), dtype=np.int64)
    step[jumps + 1] = np.where(d[jumps] < 0, 65536, -65536)
    return seq + np.cumsum(step)


def unix_samples(acc: Acc, s: Samples, first_seq: int) -> Samples:
    """Unwrapped seqs, unmarked duplicates, and a ``lost`` row for every seq that was sent
    but printed nothing.  Rows end up ordered by seq, then as printed."""
    has = s.has_seq
    every = bool(has.all())
    if every:  # (the common case, without a pass per mask)
        values = seq_int = unwrap(s.seq)
    else:
        values = np.where(has, s.seq, 0)
        seq_int = unwrap(values[has])
        values[has] = seq_int
    s = replace(s, seq=values)
    # iputils 20221126 prints no "(DUP!)" when pinging a broadcast address without -v,
    # yet counts the extra replies as duplicates: a second reply to one seq is one.
    ok = s.status == CODE["ok"]
    if not every:
        ok &= has
    answered = values if every and ok.all() else values[ok]
    if len(answered) > 1 and not (np.diff(answered) > 0).all():  # rising seqs: no repeat
        again = np.zeros(len(s), dtype=bool)
        again[ok] = pd.Series(answered).duplicated().to_numpy()
        if again.any():
            s = with_status(s, again, "duplicate")
    if not has.any():
        return s
    lo = first_seq if acc.header is not None else int(seq_int.min())
    hi = int(seq_int.max())
    if acc.counts is not None and acc.header is not None:
        hi = max(hi, first_seq + acc.counts["tx"] - 1)
    if hi - lo + 1 > 10**9:  # 32 years at 1 ping/s: a damaged count, not a run to fill in
        # At the line that made the range: the packets line, else the reply with the top seq.
        top = int(np.argmax(seq_int))
        at = (
            acc.counts_idx
            if hi > seq_int[top] and acc.counts_idx is not None
            else int(s.idx[has][top])
        )
        raise fail(at, f"expected at most 10**9 packets sent, got seqs {lo}..{hi}", None)
    seen = np.zeros(hi - lo + 1, dtype=bool)
    inside = seq_int[(seq_int >= lo) & (seq_int <= hi)]
    seen[inside - lo] = True
    lost = np.flatnonzero(~seen) + lo  # (np.setdiff1d hashes: 3 s on a million replies)
    key = values if every else np.where(has, values, np.iinfo(np.int64).max)  # no seq: last
    return with_lost(s, lost, key)


# ---------------------------------------------------------------------------------------------
# Summaries.


def reported(run: Run, acc: Acc) -> None:
    if acc.counts is not None:
        run.add("rtt", "count", acc.counts["received"], "count")
    if acc.rtt is None:
        return
    bounds = _windows_zero_bounds(acc.rtt) if acc.kind == "windows" else {}
    for name, value in acc.rtt.items():
        stat = {"avg": "mean", "stddev": "std", "std-dev": "std"}.get(name, name)
        if stat in bounds:  # as a censored reply's: the upper bound is the value
            low, high = bounds[stat]
            run.add("rtt", stat, high, "us", bound_low=low, bound_high=high)
        else:
            run.add("rtt", stat, ms_to_us(value), "us")


def _windows_zero_bounds(rtt: dict[str, str]) -> dict[str, tuple[float, float]]:
    """Bounds (µs) of Windows' printed statistics that read 0 ms.  Windows counts a
    ``time<1ms`` reply as 0 ms, so 'Minimum = 0ms' is a censored reply's '< 1 ms' and
    'Maximum = 0ms' says every reply was; 'Average = 0ms' is the sum of whole-ms replies over
    their count, rounded down, below 1: with the censored replies each below 1 ms, the mean
    lies below 2 ms, and below the maximum (1 ms when it read 0).  Read as 0 µs, a paste
    whose replies are left out ('...') said 'mean 0 µs'."""
    top = ms_to_us(rtt["max"])
    out = {k: (0.0, 1000.0) for k in ("min", "max") if ms_to_us(rtt[k]) == 0}
    if ms_to_us(rtt["avg"]) == 0:
        out["mean"] = (0.0, min(2000.0, top) if top > 0 else 1000.0)
    return out


def computed(run: Run, rtt: np.ndarray, censor: np.ndarray) -> None:
    """Statistics of the replies.  A censored reply ('time<1ms') is only known to lie in
    [0, bound]: the order statistics and the mean grow with it, so each is computed with it
    at 0 and at the bound; when the two differ, ``value`` is the upper one and
    ``bound_low``/``bound_high`` hold both.  The spread (std, mdev) has no such bounds and is
    left out when a reply is censored."""
    censored = ~np.isnan(censor)
    known = ~np.isnan(rtt)
    n = int(known.sum() + censored.sum())
    run.add("rtt", "count", n, "count", source="computed", n=n)
    if not n:
        return
    low = np.sort(np.concatenate((rtt[known], np.zeros(int(censored.sum())))))
    high = np.sort(np.concatenate((rtt[known], censor[censored]))) if censored.any() else low
    stats: list[tuple[str, Any]] = [
        ("mean", np.mean),
        ("min", lambda x: x[0]),
        ("max", lambda x: x[-1]),
    ]
    if not censored.any():
        # iputils' mdev: sqrt(mean(x^2) - mean(x)^2), a population figure; BSD's stddev too.
        stats.append(("mdev", lambda x: np.sqrt(max(np.mean(x * x) - np.mean(x) ** 2, 0.0))))
        if n > 1:
            stats.append(("std", lambda x: np.std(x, ddof=1)))
    # Inverted-CDF percentiles (numpy's method="inverted_cdf"): the smallest reply with at
    # least a fraction q of the replies at or below it, read off the sorted values.
    stats += [
        (stat, lambda x, q=q: x[max(math.ceil(n * q - 1e-9) - 1, 0)])
        for stat, q in RTT_PERCENTILES
        if n * (1 - q) >= 1 - 1e-9
    ]
    for stat, fn in stats:
        a = float(fn(low))
        b = float(fn(high)) if high is not low else a
        kw: dict[str, Any] = {"source": "computed", "n": n}
        if a != b:
            kw.update(bound_low=a, bound_high=b)
        run.add("rtt", stat, b, "us", **kw)


def fail(idx: int, reason: str, source: str | None, hint: str | None = None) -> ParseError:
    return ParseError(TOOL, source, idx + 1, reason, hint=hint)


def ts_ns(text: str | None) -> int | None:
    return decimal_to_ns(text) if text else None


def skipped_warning(lines: list[tuple[int, str]]) -> str:
    named = "; ".join(f"line {i + 1}: {t[:120]!r}" for i, t in lines[:_SLOW_LISTED])
    more = f"; and {len(lines) - _SLOW_LISTED} more" if len(lines) > _SLOW_LISTED else ""
    lines_ = counted(len(lines), "line", ("that is", "that are"))
    return f"skipped {lines_} not ping output: {named}{more}"


# ---------------------------------------------------------------------------------------------
# Finishing a run: meta, samples, summaries (ping.py decides which lines make the run).


def _unix_dialect(votes: set[str]) -> tuple[str, str, int]:
    """(parser_variant, os, first icmp_seq) from the evidence the lines gave."""
    if "iputils" in votes:
        return "iputils", "linux", 1
    if "busybox" in votes or ("busybox-stats" in votes and "bsd" not in votes):
        return "busybox", "busybox", 0
    if "macos" in votes:
        return "bsd", "macos", 0  # "Request timeout for icmp_seq" is macOS's own line
    return "bsd", "bsd", 0  # macOS and FreeBSD print the same; the os stays "bsd"


def finish(acc: Acc) -> Run:
    run = Run(line_start=acc.first + 1, line_end=acc.last + 1, warnings=list(acc.warnings))
    header = acc.header or {}
    meta: dict = {"latency_basis": "rtt", "complete": acc.counts is not None and not acc.cut}
    df = samples_of(acc) if acc.has_packets else None
    shown = 0 if df is None else len(df)  # before the lost replies' rows are added
    if acc.kind == "unix":
        variant, os_name, first_seq = _unix_dialect(acc.votes)
        if df is not None:
            df = unix_samples(acc, df, first_seq)
        meta.update(parser_variant=variant, os=os_name)
        if acc.lang:  # iputils' translated lines (l10n.py)
            meta["language"] = acc.lang
        _target(meta, header, acc.title and acc.title["host"])
        _unix_counts(meta, acc, df, variant)
    elif acc.kind == "windows":
        meta.update(parser_variant=f"windows-{acc.lang}", os="windows", language=acc.lang)
        _target(meta, header, acc.title and acc.title["ip"] or acc.reply_ip)
        _windows_counts(meta, acc, df)
        run.warnings.append(WINDOWS_RESOLUTION)
    else:
        _ps_meta(meta, acc, df)
        run.warnings.append(WINDOWS_RESOLUTION.replace("'time<1ms' replies", "0 ms rows"))
    ip = meta.get("dst_ip") or ""
    meta["protocol"] = "icmpv6" if ":" in ip or header.get("tail") == "ping6" else "icmp"
    if acc.glued:
        run.warnings.append(
            f"{counted(len(acc.glued), 'line')} held several replies run together (line breaks "
            "lost); "
            "they were split at each 'bytes from', and a stray digit before the reply size "
            "was dropped"
        )
    if acc.joined:
        where = ", ".join(f"line {i + 1}" for i in sorted(acc.joined)[:5])
        more = " ..." if len(acc.joined) > 5 else ""
        run.warnings.append(
            f"{counted(len(acc.joined), 'line')} held several of ping's lines run together "
            f"(line breaks lost), read one by one: {where}{more}"
        )
    if acc.pipe is not None:
        meta["labels"] = {"pipe": acc.pipe}
    cut = _rtt_missing(acc, df)
    if cut is not None:
        meta["complete"] = False
        run.warnings.append(cut)
    run.meta = meta
    reported(run, acc)
    if df is not None and acc.elided is not None:  # a subset picked by hand: not the run
        run.warnings.append(left_out(acc.elided + 1, shown, "replies", "reply"))
    elif df is not None:
        _summarize(run, df)
        run.samples = _columns(df, acc.kind)
    return run


def _rtt_missing(acc: Acc, df: Samples | None) -> str | None:
    """Why the statistics block ends short of its round-trip line, or None.  Every dialect
    prints that line after the packets line whenever a timed reply came back (iputils and
    BSD ``rtt``/``round-trip min/avg/max...``, BusyBox ``round-trip min/avg/max``, Windows
    ``Approximate round trip times ...`` and ``Minimum = ...``): a block that ends after the
    packets line without it was cut short.  No reply (total loss, errors only), replies
    without times (iputils below 16 bytes of payload) or Windows' "Destination host
    unreachable" replies, which Windows counts as received: no such line."""
    c = acc.counts
    if c is None or acc.rtt is not None or acc.kind not in ("unix", "windows"):
        return None
    if acc.kind == "windows":
        label = "'Minimum = ..., Maximum = ..., Average = ...'"
        timed = acc.rtt_title is not None
        if df is not None:
            timed = timed or bool(df.any_of("ok", "censored").any())
    else:
        label = "'rtt min/avg/max'" if "iputils" in acc.votes else "'round-trip min/avg/max'"
        if not c.get("received"):
            return None
        timed = True  # a summary-only block (-q, or a paste of the statistics)
        if df is not None:
            replies = df.any_of("ok", "duplicate", "censored")
            # replies printed without a time (iputils -s below 16): no rtt line either
            timed = not replies.any() or bool(
                (~np.isnan(df.rtt_us[replies])).any()
                or (~np.isnan(df.censor_high_us[replies])).any()
            )
    if not timed:
        return None
    return f"no {label} line after line {acc.last + 1} (cut short?): the reported rtt is missing"


def _target(meta: dict, header: dict, title: str | None) -> None:
    """Target and payload from the header; the statistics title names the target when the
    header is missing (a paste cut at the top) or gives no name (BSD ``PING6(...) ::1 -->
    ::1`` then ``--- localhost ping6 statistics ---``).  An empty name is no name."""
    host, ip = host_and_ip(header.get("host") or None, header.get("ip"))
    if host is None and title:
        named, addr = host_and_ip(title, None)
        if ip is None or addr is None:
            host, ip = named, ip or addr
    meta.update(dst_host=host, dst_ip=ip, src_ip=header.get("src"))
    if header.get("payload") is not None:
        meta["msg_size_bytes"] = header["payload"]  # an int64 already (ping.py)


def _unix_counts(meta: dict, acc: Acc, df: Samples | None, variant: str) -> None:
    c = acc.counts
    if c is None:
        return
    meta.update(packets_sent=c["tx"], packets_received=c["received"], loss_pct=float(c["loss"]))
    # All three print "+N duplicates" only when N > 0; iputils does the same for errors.
    meta["duplicates"] = c.get("duplicates", 0)
    if "errors" in c or variant == "iputils":
        meta["errors"] = c.get("errors", 0)
    elif df is not None:
        meta["errors"] = df.count("error")
    if "time_ms" in c:
        meta["duration_s"] = c["time_ms"] / 1000.0


def _windows_counts(meta: dict, acc: Acc, df: Samples | None) -> None:
    c = acc.counts
    if c is None:
        return
    loss = c.get("loss")
    if loss is None and c.get("cut") and c["tx"]:
        loss = 100.0 * c["lost"] / c["tx"]  # the line was cut before Windows' own figure
    meta.update(
        packets_sent=c["tx"],
        packets_received=c["received"],
        loss_pct=float(loss) if loss is not None else None,
    )
    if df is not None:
        meta["errors"] = df.count("error")


def _ps_meta(meta: dict, acc: Acc, df: Samples | None) -> None:
    meta.update(
        parser_variant="powershell-5" if acc.kind == "ps5" else "powershell-7",
        os="windows",
        complete=True,
    )
    host, ip = host_and_ip(acc.ps.get("host") or acc.ps.get("dest"), acc.ps.get("ip"))
    meta.update(dst_host=host, dst_ip=ip, src_host=acc.ps.get("src"))
    if df is None:
        return
    sizes = df.size[df.has_size]
    if len(sizes):
        meta["msg_size_bytes"] = int(sizes[0])
    sent = len(df)
    received = int(df.any_of("ok", "censored").sum())
    meta.update(
        packets_sent=sent,
        packets_received=received,
        errors=df.count("error"),
        loss_pct=100.0 * (sent - received) / sent if sent else None,
    )


def _summarize(run: Run, df: Samples) -> None:
    # iputils and BSD put duplicates into their min/avg/max too; so do we.
    use = df.any_of("ok", "duplicate", "censored")
    computed(run, df.rtt_us[use], df.censor_high_us[use])


def _columns(df: Samples, kind: str | None) -> pd.DataFrame:
    n = len(df)
    seq = np.arange(1, n + 1) if kind != "unix" else df.seq
    out = {
        "seq": int64(seq, df.has_seq if kind == "unix" else np.ones(n, dtype=bool)),
        "kind": constant_str("reply", n),
        "status": status_str(df.status),
    }
    if df.has_time.any():
        out["time_ns"] = int64(df.time_ns, df.has_time)
    out["rtt_us"] = df.rtt_us
    if kind != "unix":
        out["censor_high_us"] = df.censor_high_us
    out.update(
        ttl=int64(df.ttl, df.has_ttl),
        payload_bytes=int64(df.size, df.has_size),
        message=message_str(df),
    )
    return pd.DataFrame(out, copy=False)  # the columns are new: no copy of them

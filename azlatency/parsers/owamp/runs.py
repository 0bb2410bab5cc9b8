"""owping/twping sessions as runs: meta, summaries (with the bucket bounds of owping's
percentiles), samples."""

from __future__ import annotations

import re
import shlex
from decimal import Decimal

import numpy as np
import pandas as pd

from .. import _delay
from .._base import Run
from .._lines import computed, host_and_ip, samples_frame
from .grammar import DEFAULT_BUCKET_S, ntp_delay_us, ntp_ns, to_us
from .sessions import Block, Session

# What each delay line and -M key suffix measures: owping one way, twping the round trip and
# its halves (the reflector's processing time is taken out of twping's round trip).
DELAY_METRIC = {
    "one-way delay": "one_way",
    "round-trip time": "rtt",
    "send time": "send_delay",
    "reflect time": "receive_delay",
}
JITTER_METRIC = {"one-way": "", "two-way": "", "send": "_FWD", "reflect": "_BCK"}
SUFFIX = {"_FWD": "send_delay", "_BCK": "receive_delay", "_PROC": "server_processing"}
JITTER = {"": "jitter", "_FWD": "send_jitter", "_BCK": "receive_jitter"}
CLOCK_ERROR = {"": "clock_error", "_FWD": "send_clock_error", "_BCK": "receive_clock_error"}
_VALUED = set("cDFiLPsTzAkSBuabnN")  # owping/twping flags that take a value


def runs_of(block: Block) -> list[Run]:
    opts = _options(block.command)
    directions = _directions(block, opts)
    windows = _windows(block.sessions)
    runs = [
        session_run(block, s, opts, directions[k], windows[k]) for k, s in enumerate(block.sessions)
    ]
    ntp = [(no, text) for no, text in block.messages if text.startswith("NTP:")]
    said = [(no, text) for no, text in block.messages if not text.startswith("NTP:")]
    for run in runs:
        if ntp:
            run.meta["labels"]["ntp"] = "; ".join(text[5:].strip() for _, text in ntp)
        run.warnings[:0] = [f"line {no}: {block.tool}: {text}" for no, text in ntp + said]
        if block.offset_warning:
            run.warnings.append(
                f"line {block.offset_warning}: {block.tool}: directional delays may be "
                "inaccurate (a send or reflect delay came out negative: clocks out of sync)"
            )
    runs[0].warnings[:0] = block.warnings
    return runs


def _options(command: str | None) -> dict:
    """The flags of the command line that change what the output means, and its target."""
    opts: dict = {"bucket_s": None, "to": False, "from": False, "target": None}
    if not command:
        return opts
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    start = next((k for k, w in enumerate(words) if re.search(r"(?:^|/)[ot]wping$", w)), None)
    k = (start if start is not None else -1) + 1
    while k < len(words):
        w = words[k]
        if w.startswith("-") and len(w) > 1:
            flags = w[1:]
            if "t" in flags or "T" in flags:
                opts["to"] = True
            if "f" in flags or "F" in flags:
                opts["from"] = True
            if flags[-1] in _VALUED and len(flags) == 1 and k + 1 < len(words):
                if flags == "b":
                    opts["bucket_s"] = _decimal(words[k + 1])
                k += 1
        elif opts["target"] is None:
            opts["target"] = w
        k += 1
    return opts


def _decimal(text: str) -> Decimal | None:
    try:
        value = Decimal(text)
    except ArithmeticError:
        return None
    return value if value > 0 else None


def _directions(block: Block, opts: dict) -> list[str | None]:
    """owping's sessions in order: the ``to`` session (client → server, forward) first, then
    the ``from`` one (reverse); one only with ``-t`` or ``-f``, or when the other could not be
    fetched (owping: "Server denied request for to session data")."""
    if block.tool == "twping":
        return [None] * len(block.sessions)
    order, seen = [], {}
    for s in block.sessions:
        key = s.sid if s.sid and s.variant != "raw" else id(s)
        order.append(seen.setdefault(key, len(seen)))
    denied = any("for to session" in text for _, text in block.messages)
    lone = "reverse" if (opts["from"] and not opts["to"]) or denied else "forward"
    if len(seen) == 1:
        return [lone] * len(order)
    return ["forward" if k == 0 else "reverse" if k == 1 else None for k in order]


def _windows(sessions: list[Session]) -> list[int | None]:
    """``-N``: sub-sessions of one session share its SID; each is a window (0, 1, ...)."""
    count: dict[str, int] = {}
    for s in sessions:
        if s.sid:
            count[s.sid] = count.get(s.sid, 0) + 1
    out, k = [], {}
    for s in sessions:
        if s.sid and count[s.sid] > 1:
            out.append(k.setdefault(s.sid, 0))
            k[s.sid] += 1
        else:
            out.append(None)
    return out


# ---------------------------------------------------------------------------------------------
# One session


def session_run(
    block: Block, s: Session, opts: dict, direction: str | None, window: int | None
) -> Run:
    tool = block.tool
    main = "rtt" if tool == "twping" else "one_way"
    run = Run(line_start=s.first_no, line_end=s.last_no)
    labels: dict = {}
    if s.sid:
        labels["sid"] = s.sid
    run.meta.update(
        tool=tool,
        parser_variant=s.variant,
        latency_basis=main,
        protocol="udp",
        direction=direction,
        complete=s.done or s.variant == "raw",
        labels=labels,
    )
    if window is not None:
        run.meta["execution"] = f"{tool}:{s.sid}"  # the SID is the session's own id
        labels["window"] = window
    width = opts["bucket_s"] or _machine_width(s) or DEFAULT_BUCKET_S
    labels["bucket_width_s"] = float(width)
    w_us = float(width * 10**6)
    if s.variant == "machine":
        _machine(run, s, main, w_us)
    elif s.variant in ("summary", "verbose"):
        _text(run, s, main, w_us, opts["bucket_s"] is not None)
    if s.variant in ("verbose", "raw"):
        _packets(run, s, tool)
    if s.variant == "raw" and s.packets:
        labels["clock_sync"] = "sync" if all(p["sync"] for p in s.packets) else "unsync"
    _ends(run, s, opts, direction)
    if main == "one_way":
        _below_zero(run)
    if not run.meta["complete"]:
        run.warnings.append(
            f"the session's {'summary' if s.variant != 'machine' else 'SUMMARY block'} ends "
            f"at line {s.last_no} before its last line: the output was cut"
        )
    return run


def _below_zero(run: Run) -> None:
    """A one-way delay below 0 is no delay: the receiver's clock is behind the sender's by more
    than the delay, whatever owping's error estimate says (``err=9.01 ms`` beside -12.5 ms in a
    published pair of sessions).  Said, as the figures are kept as printed."""
    lows = [x.value for x in run.summaries if x.metric == "one_way" and x.stat == "min"]
    samples = run.samples
    if samples is not None and "one_way_us" in samples and samples.one_way_us.notna().any():
        lows.append(float(samples.one_way_us.min()))
    if not lows or min(lows) >= 0:
        return
    err = [x.value for x in run.summaries if x.metric == "clock_error"]
    said = f", owping's error estimate {max(err) / 1000:g} ms" if err else ""
    run.warnings.append(
        f"one-way delays below 0 (min {min(lows) / 1000:g} ms{said}): the receiver's clock is "
        "behind the sender's by more than the delay, so these one-way figures are a clock "
        "offset plus a delay, not delays"
    )


def _machine_width(s: Session) -> Decimal | None:
    if s.variant != "machine" or "BUCKET_WIDTH" not in s.machine:
        return None
    return _decimal(s.machine["BUCKET_WIDTH"][1])


def _ends(run: Run, s: Session, opts: dict, direction: str | None) -> None:
    """src = the client, dst = the server, whichever way a session's packets went (as
    iperf3's ``-R``): owping's reverse session is sent from the server to the client."""
    labels = run.meta["labels"]
    if s.ends is not None:
        a, ap, b, bp = s.ends
    elif s.variant == "machine" and "FROM_ADDR" in s.machine:
        get = lambda k: s.machine.get(k, (0, None))[1]  # noqa: E731
        a, ap, b, bp = get("FROM_ADDR"), get("FROM_PORT"), get("TO_ADDR"), get("TO_PORT")
    else:
        a = ap = b = bp = None
    if a is not None:
        labels.update(from_addr=a, from_port=ap, to_addr=b, to_port=bp)
        client, server = (b, a) if direction == "reverse" else (a, b)
        run.meta.update(src_ip=client or None, dst_ip=server or None)
    if opts["target"]:
        host, port = _split_target(opts["target"])
        name, ip = host_and_ip(host, None)
        run.meta["dst_host"] = name
        run.meta["dst_ip"] = run.meta.get("dst_ip") or ip
        run.meta["port"] = port


def _split_target(target: str) -> tuple[str, int | None]:
    m = re.match(r"^\[(?P<h>[^\]]+)\](?::(?P<p>\d+))?$|^(?P<h4>[^:]+):(?P<p4>\d+)$", target)
    if not m:
        return target, None
    port = m["p"] or m["p4"]
    return m["h"] or m["h4"], int(port) if port and int(port) < 65536 else None


# ---------------------------------------------------------------------------------------------
# Summaries


def _bucket_bounds(value: float, w: float) -> tuple[float, float] | None:
    """owping's histogram: bucket ``b = ceil(d/w)`` (``floor`` below 0), printed as ``b*w``;
    the delay lies in ``((b-1)w, bw]`` (``[bw, (b+1)w)`` below 0).  None when ``value`` is no
    multiple of ``w`` (to the ``%.3g`` printed): the bucket width was not ``w``."""
    b = round(value / w)
    if abs(b * w - value) > 0.006 * abs(value) + 1e-9:
        return None
    if b > 0:
        return (b - 1) * w, b * w
    if b < 0:
        return b * w, (b + 1) * w
    return 0.0, 0.0


def _add_bucketed(run: Run, metric: str, stat: str, value: float | None, w: float) -> bool:
    """A percentile read off the histogram, with its bucket's edges; False when the value is
    not on the bucket grid."""
    if value is None:
        return True
    bounds = _bucket_bounds(value, w)
    if bounds is None:
        run.add(metric, stat, value, "us")
        return False
    run.add(metric, stat, value, "us", bound_low=bounds[0], bound_high=bounds[1])
    return True


def _add_jitter(run: Run, metric: str, value: float | None, w: float) -> None:
    """P95 − P50, both bucket edges: the true difference lies within one bucket of it."""
    if value is not None:
        run.add(metric, "p95-p50", value, "us", bound_low=value - w, bound_high=value + w)


def _text(run: Run, s: Session, main: str, w: float, width_known: bool) -> None:
    labels, on_grid = run.meta["labels"], True
    for name in ("first", "last"):
        if name in s.lines:
            labels[f"{name}_local"] = s.lines[name]["t"]  # local time of the owping host
    if m := s.lines.get("counts"):
        _counts(run, int(m["sent"]), int(m["lost"]), float(m["pct"]))
        run.meta["duplicates"] = int(m["dups"]) + int(m.groupdict().get("rdups") or 0)
    for what, m in s.delays.items():
        metric, unit = DELAY_METRIC[what], m["unit"]
        run.add(metric, "min", to_us(m["min"], unit), "us")
        on_grid &= _add_bucketed(run, metric, "p50", to_us(m["p50"], unit), w)
        run.add(metric, "max", to_us(m["max"], unit), "us")
        suffix = {"send_delay": "_FWD", "receive_delay": "_BCK"}.get(metric, "")
        if m["err"] is not None:
            run.add(CLOCK_ERROR[suffix], "max", to_us(m["err"], unit), "us")
        if metric == main:
            labels["clock_sync"] = "unsync" if m["unsync"] else "sync"
    if m := s.lines.get("proc"):
        run.add("server_processing", "min", to_us(m["min"], m["unit"]), "us")
        run.add("server_processing", "max", to_us(m["max"], m["unit"]), "us")
    for what, m in s.jitters.items():
        _add_jitter(run, JITTER[JITTER_METRIC[what]], to_us(m["v"], m["unit"]), w)
    for m in s.percentiles:
        stat = "p" + format(Decimal(m["q"]).normalize(), "f")
        on_grid &= _add_bucketed(run, main, stat, to_us(m["v"], m["unit"]), w)
    if s.hops:
        labels["hops"] = "; ".join(s.hops)
    if m := s.lines.get("reordering"):
        labels["reordering"] = m.group(0).strip()
    if not on_grid:
        run.warnings.append(
            f"a median or percentile is not a multiple of the bucket width {w:g} µs "
            f"({'-b' if width_known else 'the default; -b?'}): kept without its bucket bounds"
        )


def _counts(run: Run, sent: int, lost: int, pct: float | None, source: str = "reported") -> None:
    received = max(sent - lost, 0)
    if sent == 0:  # owping prints "0 sent, 0 lost (0.000%)" for a session it could not fetch
        pct = None
        run.warnings.append(
            f"{run.meta['tool']}: 0 packets sent: the session measured nothing, and its loss "
            "is not estimable (not 0%)"
        )
    run.meta.update(
        packets_sent=sent,
        packets_received=received,
        loss_pct=pct if pct is not None else (100.0 * lost / sent if sent else None),
    )
    if source == "reported":  # computed counts come with the samples' statistics
        run.add(run.meta["latency_basis"], "count", received, "count")


def _machine(run: Run, s: Session, main: str, w: float) -> None:
    m = {k: v for k, (_, v) in s.machine.items()}
    labels = run.meta["labels"]
    if "SENT" in m and "LOST" in m:
        _counts(run, int(m["SENT"]), int(m["LOST"]), None)
    run.meta["duplicates"] = sum(int(m[k]) for k in ("DUPS", "DUPS_FWD", "DUPS_BCK") if k in m)
    if "START_TIME" in m and "END_TIME" in m:
        start, end = ntp_ns(int(m["START_TIME"])), ntp_ns(int(m["END_TIME"]))
        run.meta["start_time"] = pd.Timestamp(start, unit="ns", tz="UTC")
        run.meta["duration_s"] = (end - start) / 1e9
    us = lambda key: float(Decimal(m[key]) * 10**6)  # noqa: E731 - %g seconds → µs
    for suffix in ("", "_FWD", "_BCK", "_PROC"):
        metric = SUFFIX.get(suffix, main)
        for stat in ("MIN", "MAX"):
            if stat + suffix in m:
                run.add(metric, stat.lower(), us(stat + suffix), "us")
        if "MEDIAN" + suffix in m:
            _add_bucketed(run, metric, "p50", us("MEDIAN" + suffix), w)
        if "PDV" + suffix in m:
            _add_jitter(run, JITTER[suffix], us("PDV" + suffix), w)
        if "MAXERR" + suffix in m and suffix != "_PROC":
            run.add(CLOCK_ERROR[suffix], "max", us("MAXERR" + suffix), "us")
    labels["clock_sync"] = "sync" if m.get("SYNC") == "1" else "unsync"
    _machine_labels(run, m)
    _histogram(run, s, w)


def _machine_labels(run: Run, m: dict) -> None:
    labels = run.meta["labels"]
    if "LOSS_TIMEOUT" in m:
        labels["loss_timeout_s"] = int(m["LOSS_TIMEOUT"]) / 2**32  # OWAMP fixed point
    for key, name in (
        ("PACKET_PADDING", "padding_bytes"),
        ("SESSION_PACKET_COUNT", "session_packets"),
        ("SAMPLE_PACKET_COUNT", "sample_packets"),
    ):
        if key in m:
            labels[name] = int(m[key])
    if "DSCP" in m:
        labels["dscp"] = m["DSCP"]
    for key in ("MINTTL", "MAXTTL", "MINTTL_FWD", "MAXTTL_FWD", "MINTTL_BCK", "MAXTTL_BCK"):
        if key in m:
            labels[key.lower()] = int(m[key])
    if m.get("SESSION_FINISHED") == "0":
        run.warnings.append("SESSION_FINISHED 0: the session did not finish normally")


def _histogram(run: Run, s: Session, w: float) -> None:
    """``<BUCKETS>``: the delay histogram (twping: the round trip's column, the first)."""
    rows = [(b[0], b[1]) for b in s.buckets if b[1] > 0]
    if not rows:
        return
    edges = [_bucket_bounds(b * w, w) or (b * w, b * w) for b, _ in rows]
    run.samples = samples_frame(
        {
            "seq": pd.array([b for b, _ in rows], dtype="Int64"),
            "kind": "histogram",
            "status": "ok",
            "bin_low_us": np.array([e[0] for e in edges], dtype=float),
            "bin_high_us": np.array([e[1] for e in edges], dtype=float),
            "count": pd.array([n for _, n in rows], dtype="Int64"),
        }
    )
    total = sum(n for _, n in rows)
    received = run.meta.get("packets_received")
    if received is not None and total != received and not run.meta.get("duplicates"):
        run.warnings.append(f"the histogram holds {total} packets, SENT − LOST is {received}")


# ---------------------------------------------------------------------------------------------
# Packets (-v, -R)


def _packets(run: Run, s: Session, tool: str) -> None:
    rows = [_raw_row(p, tool) if s.variant == "raw" else _text_row(p, tool) for p in s.packets]
    if not rows:
        return
    seen: set[int] = set()
    for r in rows:  # a sequence number again: a duplicate of a packet already received
        if r["status"] == "ok" and r["seq"] in seen:
            r["status"] = "duplicate"
        seen.add(r["seq"])
    cols = {"seq": pd.array([r["seq"] for r in rows], dtype="Int64"), "kind": "packet"}
    cols["status"] = [r["status"] for r in rows]
    names = ("rtt_us", "send_delay_us", "receive_delay_us") if tool == "twping" else ("one_way_us",)
    for name in names:
        cols[name] = np.array([r.get(name, np.nan) for r in rows], dtype=float)
    main = names[0]
    ok = np.array([r["status"] == "ok" for r in rows])
    cols["ipdv_us"] = _delay.ipdv([r["seq"] for r in rows], cols[main], ok)
    for name in ("time_ns", "tx_time_ns", "rx_time_ns", "ttl"):
        values = [r.get(name) for r in rows]
        if any(v is not None for v in values):
            cols[name] = pd.array(values, dtype="Int64")
    cols["message"] = [r.get("message") for r in rows]
    run.samples = samples_frame(cols)
    for name in names:
        computed(run, name.removesuffix("_us"), cols[name][ok])
    computed(run, "ipdv", cols["ipdv_us"])
    if s.variant == "raw":
        _raw_meta(run, rows)


def _text_row(p: dict, tool: str) -> dict:
    m = p["m"]
    if m is None:
        return {"seq": p["seq"], "status": "lost", "message": "lost"}
    unit = m["unit"]
    row = {"seq": p["seq"], "status": "ok"}
    if tool == "twping":
        row.update(
            rtt_us=to_us(m["d"], unit),
            send_delay_us=to_us(m["fwd"], unit),
            receive_delay_us=to_us(m["bck"], unit),
        )
    else:
        row["one_way_us"] = to_us(m["d"], unit)
    if m["sent"]:  # -U: Unix times, %f (µs)
        row["tx_time_ns"] = row["time_ns"] = _unix_ns(m["sent"])
        row["rx_time_ns"] = _unix_ns(m["recv"])
    return row


def _unix_ns(text: str) -> int:
    whole, _, frac = text.partition(".")
    return int(whole) * 10**9 + int((frac + "000000000")[:9])


def _raw_row(p: dict, tool: str) -> dict:
    row = {"seq": p["seq"], "tx_time_ns": ntp_ns(p["st"]), "ttl": p["ttl"]}
    row["time_ns"] = row["tx_time_ns"]
    if p["lost"]:
        return {**row, "status": "lost", "message": "lost"}
    row.update(status="ok", rx_time_ns=ntp_ns(p["rt"]))
    if tool == "twping":
        proc = ntp_delay_us(p["srt"], p["rst"])
        row.update(
            send_delay_us=ntp_delay_us(p["st"], p["srt"]),
            receive_delay_us=ntp_delay_us(p["rst"], p["rt"]),
            rtt_us=ntp_delay_us(p["st"], p["rt"]) - proc,  # as twping: the reflector's time out
        )
    else:
        row["one_way_us"] = ntp_delay_us(p["st"], p["rt"])
    return row


def _raw_meta(run: Run, rows: list[dict]) -> None:
    """-R prints no summary: the counts are the records'."""
    seqs = {r["seq"] for r in rows}
    lost = {r["seq"] for r in rows if r["status"] == "lost"}
    _counts(run, len(seqs), len(lost), None, source="computed")
    dups = sum(r["status"] == "duplicate" for r in rows)
    if dups:
        run.meta["duplicates"] = dups

"""From what one sockperf execution printed to a :class:`Run`: the run columns, the reported
summaries and, for a ``--full-log``, the samples and the computed summaries.  Private to
:mod:`azlatency.parsers.sockperf`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .._base import Run
from . import fulllog

if TYPE_CHECKING:
    from .console import Execution, _Section

_BASIS = {"rtt": "rtt", "lat": "half_rtt", "latency": "half_rtt"}


def _digits(text: str | None) -> int | None:
    # Options of the command or parameters line; Execution._line checked at that line that
    # the ones read here (_console._INT_OPTS) fit int64.
    return int(text) if text is not None and re.fullmatch(r"\d+", text) else None


def _version(raw: str | None) -> str | None:
    """``3.6-no.git`` → ``3.6``; ``3.8-0.git31ee322aa82a`` → ``3.8``; ``2.5.233`` stays."""
    m = re.match(r"\d+(?:\.\d+)*", raw or "")
    return m.group(0) if m else None


def _role(ex: Execution, sec: _Section) -> str | None:
    if ex.role:
        return ex.role
    if ex.mode == "server":
        return "server"
    if ex.command or sec.content() or ex.total or ex.params:
        return "client"
    return None


def _basis(ex: Execution, sec: _Section, role: str | None, mode: str | None) -> str | None:
    for label in (sec.label, sec.summary_label, sec.csv_col):
        if label in _BASIS:
            return _BASIS[label]
    if "--full-rtt" in ex.params or "--full-rtt" in ex.opts:
        return "rtt"
    latency_mode = mode in ("ping-pong", "under-load", "playback")
    if role == "client" and (latency_mode or sec.total_loss or sec.no_valid or sec.stats):
        return "half_rtt"  # sockperf's default figure is half the round trip
    return None


def _mode(ex: Execution, sec: _Section, role: str | None) -> str | None:
    if ex.mode:
        return ex.mode
    if role == "server":
        return "server"
    if sec.throughput:
        return "throughput"
    if (_digits(ex.params.get("--reply-every")) or 1) > 1:
        return "under-load"  # only under-load replies to every N-th message
    meta = sec.run.meta
    sent, got = meta.get("packets_sent"), meta.get("packets_received")
    if sent and got and meta.get("dropped") == 0 and 2 * got < sent:
        # fewer than half the messages answered and none dropped: the server replied to every
        # N-th only (under-load's --reply-every, 100 by default: 2,501 sent, 26 received); a
        # ping-pong awaits each reply, and counts what it lost as dropped
        return "under-load"
    return None


def _variant(ex: Execution, sec: _Section, role: str | None) -> str:
    if role == "server":
        return "server"
    if sec.throughput:
        return "throughput"
    if sec.rows is not None:
        return "full-log"
    if sec.extended:
        return "console-3.8"
    version = tuple(int(x) for x in (_version(ex.version_raw) or "0").split("."))
    if sec.label == "lat" or (ex.version_raw and version < (3, 6)):
        return "console-legacy"  # ``avg-lat=`` up to 3.5
    return "console"


def _msg_size(ex: Execution, sec: _Section, role: str | None, mode: str | None) -> int | None:
    if sec.tp_msg_size is not None:
        return sec.tp_msg_size
    if _digits(ex.params.get("--msg-size")) is not None:
        return _digits(ex.params.get("--msg-size"))
    if role == "server":
        return None  # a server's -m is the largest message it accepts
    given = ex.opts.get("-m", ex.opts.get("--msg-size"))
    if given is not None:
        return _digits(given)
    if ex.command and mode != "playback":
        return 14  # sockperf's default message size
    return None


def _endpoint(ex: Execution, sec: _Section):
    ip, port, proto = ex.ips.get(sec.server_no or 0, (None, None, None))
    ip = ip or ex.opts.get("-i", ex.opts.get("--ip", ex.opts.get("--addr")))
    port = port if port is not None else _digits(ex.opts.get("-p", ex.opts.get("--port")))
    if proto is None and ex.command:
        tcp = "--tcp" in ex.opts or "--stream" in ex.opts
        proto = (
            "tcp" if tcp else ("udp" if "-f" not in ex.opts and "--file" not in ex.opts else None)
        )
    return ip, port, proto


def _complete(ex: Execution, sec: _Section, role: str | None) -> bool:
    interrupted = ex.end_why is not None and ex.end_why != "timer"
    if ex.errors or ex.cut:
        return False
    if role == "server":
        return ex.end_why is not None and ex.srv_received is not None
    if sec.throughput:
        return sec.bandwidth and not interrupted
    # sockperf prints a server's statistics once the test has ended, closing with <MIN>: a
    # paste that starts at 'Printing statistics' (without '[Total Run]') ran its full time.
    finished = ex.ended or bool(ex.total) or (sec.has_stats and sec.has_min)
    if sec.has_stats:
        done = sec.has_min and (sec.rows is None or sec.rows_closed)
    else:
        done = sec.no_valid or sec.total_loss
    return bool(done and finished and not interrupted)


def build_run(ex: Execution, sec: _Section) -> Run:
    run = sec.run
    meta = run.meta
    role = _role(ex, sec)
    mode = _mode(ex, sec, role)
    basis = _basis(ex, sec, role, mode) if not sec.throughput else None
    ip, port, proto = _endpoint(ex, sec)
    meta.update(
        tool="sockperf",
        tool_version=_version(ex.version_raw),
        parser_variant=_variant(ex, sec, role),
        role=role,
        mode=mode,
        protocol=proto,
        msg_size_bytes=_msg_size(ex, sec, role, mode),
        dst_ip=ip,
        port=port,
        latency_basis=basis,
        complete=_complete(ex, sec, role),
    )
    if ex.command:
        meta["command"] = ex.command
    labels = dict(ex.labels)
    if sec.throughput:
        labels.update(_paced(ex, sec, meta["msg_size_bytes"]))
    if labels:
        meta["labels"] = labels
    if role == "client" and basis and (sec.has_stats or sec.rows is not None):
        meta["warmup_excluded"] = True  # [Valid Duration] leaves the warm-up out
    if role == "server" and ex.srv_received is not None:
        meta["packets_received"] = ex.srv_received
    if sec.total_loss:
        meta.update(packets_received=0, loss_pct=100.0)
    _warnings(ex, sec, run)
    _summaries(ex, sec, run, basis, role)
    run.line_start = (ex.start if sec is ex.sections[0] else sec.first) + 1
    run.line_end = sec.last + 1
    return run


def _paced(ex: Execution, sec: _Section, size: int | None) -> dict[str, int]:
    """The message rate a throughput test was asked for (``--mps``, which sockperf's NOTE
    repeats: 'using msg-size=1000, mps=20000'), and the payload rate it makes: sockperf paces
    its sender at that rate, so a figure near it is the pace, not the path.  None for
    ``--mps=max``."""
    mps = _digits(sec.tp_mps) if sec.tp_mps else _digits(ex.opts.get("--mps"))
    if mps is None:
        return {}
    out = {"messages_per_second_asked": mps}
    if size:
        out["target_bitrate_bps"] = mps * size * 8
    return out


def _warnings(ex: Execution, sec: _Section, run: Run) -> None:
    notes = [f"sockperf: ERROR: {msg}" for msg in ex.errors]
    if ex.end_why not in (None, "timer") and ex.role != "server":  # servers stop on Ctrl-C
        notes.append(f"test interrupted by {ex.end_why}: figures cover the part before it")
    if sec.no_valid:
        notes.append("no valid observations (sockperf: 'No valid observations found')")
    if sec.total_loss:
        notes.append("no reply received from the server (total loss)")
    if sec.has_stats and not sec.has_min:
        notes.append("statistics end early (truncated output)")
    if sec.rows is not None and not sec.rows_closed:
        notes.append("full log ends without its closing line (truncated file)")
    run.warnings[:0] = notes
    run.warnings.extend(_shown_histogram(sec))


def _shown_histogram(sec: _Section) -> list[str]:
    """The console histogram checked against the observations it bins: drawn to scale, its
    bars hold one '#' an observation (sockperf 3.10's 87 + 20 + 3 of 110); scaled, each bar
    is its count over the unit, rounded up.  Its bins are not samples: the printed
    percentiles are finer than its bins."""
    if sec.shown is None or sec.count is None:
        return []
    unit, bars, line = sec.shown
    low, high = sum(max(b - 1, 0) * unit + (b > 0) for b in bars), sum(b * unit for b in bars)
    if not bars:
        return [f"the histogram shown at line {line} has no bins (cut short?)"]
    if low <= sec.count <= high:
        return []
    held = f"{high}" if unit == 1 else f"{low} to {high}"
    return [
        f"the histogram shown at line {line} holds {held} observations, the statistics "
        f"{sec.count}: cut short, or not this run's"
    ]


def _summaries(ex: Execution, sec: _Section, run: Run, basis: str | None, role) -> None:
    if sec.summary_mean is not None and "mean" not in sec.stats:
        sec.stats["mean"] = (sec.summary_mean, "us", None)
    elif sec.summary_mean is not None and abs(sec.summary_mean - sec.stats["mean"][0]) > 1e-9:
        run.warnings.append(
            f"'Summary' line says {sec.summary_mean} but avg line says {sec.stats['mean'][0]}"
        )
    metric = basis
    if sec.stats and metric is None:
        metric = "half_rtt"
        run.warnings.append("latency basis not stated; sockperf's default (half_rtt) assumed")
    for stat, (value, unit, level) in sec.stats.items():
        run.add(metric, stat, value, unit, level=level, n=sec.count)
    for metric_name, stat, value, unit in sec.extra:
        run.add(metric_name, stat, value, unit)
    if role == "client":
        for stat, value in ex.total.items():
            unit = "s" if stat in ("runtime", "warmup") else "count"
            run.add("total_run", stat, value, unit)
    if sec.rows is not None:
        _full_log(sec, run, basis)


def _full_log(sec: _Section, run: Run, basis: str | None) -> None:
    rows_basis = _BASIS.get(sec.csv_col or "") or basis or "rtt"
    if basis and rows_basis != basis:
        run.warnings.append(f"full log column is {rows_basis} but the summary is {basis}")
    run.samples = fulllog.samples(sec.rows, rows_basis)
    problem = fulllog.check_column(sec.rows, rows_basis)
    if problem:
        run.warnings.append(problem)
    values = run.samples[f"{rows_basis}_us"].to_numpy()
    if sec.rows.status is not None:  # pre-3.4 rows: only the replies sockperf counted
        values = values[sec.rows.status == "ok"]
    if not sec.rows_closed:  # a cut file: the rows are a prefix, comparing would only mislead
        run.warnings.append(
            f"computed statistics cover the {len(values)} rows before the cut"
            + (f" of {sec.count} observations" if sec.count is not None else "")
        )
    fulllog.add_computed(run, rows_basis, values, sec.level or 0.99, compare=sec.rows_closed)

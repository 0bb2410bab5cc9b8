"""What every mtr output becomes, whichever way it was printed: a trace of hops.

mtr measures each hop of a path on its own (a probe with TTL n times out at hop n), so a run
keeps the hops apart (docs/vocabulary.md, "Per-hop data"): one ``hop`` sample per host that
answered at a hop, and the hop's printed figures as summaries with ``hop`` set.  The run has no
end-to-end latency of its own (``latency_basis`` stays empty); only its counts and loss come
from the last hop, and only when that hop is the target.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation

import pandas as pd

from ...errors import ParseError
from .._base import Run
from .._lines import host_and_ip, is_ip, samples_frame

TOOL = "mtr"

# Column title -> (metric, stat, unit).  Times are printed in ms (``data_fields`` of mtr 0.95
# ``ui/mtr.c``: "N: Newest RTT(ms)" ...), stored in µs.  The jitter columns and their
# definitions: docs/vocabulary.md ("Jitter: always with its definition"), from ``ui/net.c``.
FIELDS: dict[str, tuple[str, str, str]] = {
    "Loss%": ("loss", "total", "pct"),
    "Drop": ("packets_dropped", "total", "count"),
    "Rcv": ("packets_received", "total", "count"),
    "Snt": ("packets_sent", "total", "count"),
    "Last": ("rtt", "last", "us"),
    "Best": ("rtt", "min", "us"),
    "Avg": ("rtt", "mean", "us"),
    "Wrst": ("rtt", "max", "us"),
    "StDev": ("rtt", "std", "us"),
    "Gmean": ("rtt", "gmean", "us"),
    "Jttr": ("ipdv", "last", "us"),
    "Javg": ("jitter", "mtr-javg", "us"),
    "Jmax": ("ipdv", "max", "us"),
    "Jint": ("jitter", "mtr-jint", "us"),
}
# --csv titles the field ' ' (the default order "LS NABWV" has a space in it) and prints under
# it the value of that field's callback, net_drop (mtr 0.95 ui/mtr.c, data_fields[0]).
BLANK = " "
COUNTS = {"Drop", "Rcv", "Snt", BLANK}
UNKNOWN_HOST = "???"


@dataclass
class Hop:
    number: int
    host: str | None  # None: nothing answered at this hop ('???')
    values: dict[str, str]  # title -> the text printed
    line: int  # 1-based within the block
    others: list[str] = field(default_factory=list)  # further hosts that answered here
    notes: list[str] = field(default_factory=list)  # AS number, MPLS labels


@dataclass
class Trace:
    """One mtr run as read from any of its formats."""

    variant: str
    hops: list[Hop] = field(default_factory=list)
    meta: dict = field(default_factory=dict)
    labels: dict = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    line_start: int = 1
    line_end: int = 1


def us(text: str) -> float:
    """mtr's milliseconds as µs, exactly as printed (``0.1`` -> 100.0, not 100.00000000000001)."""
    return float(Decimal(text) * 1000)


def check_value(title: str, text: str, *, source: str | None, line: int) -> str:
    """The printed value of ``title`` when it is a number of its kind, else a located error."""
    raw = text.strip()
    if title == "Loss%":
        raw = raw.removesuffix("%")  # '100.0' has lost its '%' to the next column (0.95)
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise ParseError(
            TOOL, source, line, f"expected a number under {title!r}, got {text!r}"
        ) from None
    if not value.is_finite() or value < 0 or (title in COUNTS and value != value.to_integral()):
        raise ParseError(
            TOOL, source, line, f"expected a count or time under {title!r}, got {text!r}"
        )
    if title == "Loss%" and value > 100:
        raise ParseError(TOOL, source, line, f"expected a loss of 0-100%, got {text!r}")
    if title in COUNTS and value >= 2**63:
        raise ParseError(
            TOOL,
            source,
            line,
            f"expected a count under {title!r}, got {text!r}: out of range for int64",
        )
    return raw


def hop_values(
    tokens: list[str], titles: list[str], whole: str, no: int, source, strict, warnings
) -> tuple[str, dict[str, str]] | None:
    """A hop line's host and its values under ``titles`` (the last ``len(titles)`` of its
    ``tokens``; ``whole``: the line).  None when the line has too few values or one that is no
    number of its kind: said in ``warnings``, or raised when ``strict``."""
    if len(tokens) < len(titles) + 1:
        reason = (
            f"expected a host and {len(titles)} values ({' '.join(titles)}), got "
            f"{whole.strip()[:80]!r}"
        )
        if strict:
            raise ParseError(TOOL, source, no, reason)
        warnings.append(f"line {no} skipped: {reason}")
        return None
    try:
        values = {
            t: check_value(t, v, source=source, line=no)
            for t, v in zip(titles, tokens[-len(titles) :])
        }
    except ParseError as exc:
        if strict:
            raise
        warnings.append(f"line {no} skipped: {exc.reason}")
        return None
    return " ".join(tokens[: -len(titles)]), values


def start_time(text: str) -> pd.Timestamp | None:
    """mtr >= 0.87 prints ``Start: 2026-11-25T16:16:26+0000`` (ISO 8601 with its offset);
    older versions print ``ctime()``, local time without a zone, which is no UTC instant."""
    try:
        when = datetime.strptime(text.strip(), "%Y-%m-%dT%H:%M:%S%z")
    except ValueError:
        return None
    return pd.Timestamp(when.astimezone(UTC))


# Options of mtr 0.95 that take a value (ui/mtr.c long_options), to find the target.
_VALUED = set("FcsiIaBQmfLPMuTyoUGEZ") - {"u", "T"}
_VALUED_LONG = {
    "--filename", "--report-cycles", "--psize", "--interval", "--interface", "--address",
    "--bitpattern", "--tos", "--max-ttl", "--first-ttl", "--localport", "--port", "--mark",
    "--max-unknown", "--gracetime", "--order", "--displaymode", "--timeout", "--aslookup",
}  # fmt: skip
_SHELL = re.compile(r"[|>]")


def from_command(command: str) -> dict:
    """Target, protocol and cycles said by an ``mtr ...`` command line."""
    tokens = _SHELL.split(command, 1)[0].split()
    out: dict = {"protocol": "icmp"}
    target, i = None, 1
    while i < len(tokens):
        tok = tokens[i]
        if tok in ("-u", "--udp"):
            out["protocol"] = "udp"
        elif tok in ("-T", "--tcp"):
            out["protocol"] = "tcp"
        elif tok in ("-c", "--report-cycles") and i + 1 < len(tokens):
            out["cycles"] = tokens[i + 1]
        if tok.startswith("--"):
            i += 1 if "=" in tok or tok not in _VALUED_LONG else 2
            continue
        if tok.startswith("-") and len(tok) > 1:
            flags = tok[1:]
            # a cluster like -rwc10 or -n: a valued flag takes the rest or the next token
            for k, flag in enumerate(flags):
                if flag in _VALUED:
                    i += 1 if k + 1 < len(flags) else 2
                    break
            else:
                i += 1
            continue
        target = tok
        i += 1
    if target is not None:
        out["target"] = target
    return out


def build(trace: Trace, *, source: str | None, strict: bool) -> Run:
    """The run of one trace: hop samples, per-hop summaries, counts from the target's hop."""
    run = Run(line_start=trace.line_start, line_end=trace.line_end)
    run.warnings.extend(trace.warnings)
    run.meta.update(
        tool=TOOL, parser_variant=trace.variant, mode="trace", latency_basis=None, complete=True
    )
    run.meta.update({k: v for k, v in trace.meta.items() if v is not None})
    if not trace.hops:
        raise ParseError(TOOL, source, trace.line_start, "an mtr report without a hop")
    _order(trace, source, strict, run.warnings)
    rows = []
    for hop in trace.hops:
        rows.extend(_rows(hop))
        _summaries(run, hop)
    run.samples = samples_frame(
        {
            "seq": pd.array([r[0] for r in rows], dtype="Int64"),
            "kind": "hop",
            "status": [r[1] for r in rows],
            "host": [r[2] for r in rows],
            "message": [r[3] for r in rows],
        }
    )
    _end_to_end(run, trace)
    labels = dict(trace.labels)
    labels["hops"] = len(trace.hops)
    run.meta["labels"] = labels
    return run


def _order(trace: Trace, source: str | None, strict: bool, warnings: list[str]) -> None:
    """Hops come in TTL order, each once (mtr prints net_min() .. net_max()); a repeated or
    backwards hop number is another trace pasted in, never silently merged."""
    seen: set[int] = set()
    for hop in trace.hops:
        if hop.number in seen or (seen and hop.number < max(seen)):
            reason = f"hop {hop.number} again after hop {max(seen)}: two traces run together?"
            if strict:
                raise ParseError(TOOL, source, hop.line, reason)
            warnings.append(f"line {hop.line}: {reason}")
        seen.add(hop.number)


def _rows(hop: Hop) -> list[tuple]:
    note = "; ".join(hop.notes) or None
    if hop.host is None:
        return [(hop.number, "lost", None, note)]
    rows = [(hop.number, "ok", hop.host, note)]
    for other in hop.others:
        # mtr lists every host that answered at this TTL, but prints figures for the hop,
        # not per host (--csv -w repeats the first host's on the extra row)
        rows.append(
            (hop.number, "ok", other, "also answered at this hop; its figures are the hop's")
        )
    return rows


def _answered(hop: Hop) -> bool:
    """Did any probe of this hop come back?  A hop that never answered prints 0.0 for every
    time (mtr 0.95: '???  100.0  5  0.0  0.0 ...'), which are no round trips."""
    if hop.host is None:
        return False
    if "Rcv" in hop.values:
        return Decimal(hop.values["Rcv"]) > 0
    if "Loss%" in hop.values:
        return Decimal(hop.values["Loss%"]) < 100
    return True


def _summaries(run: Run, hop: Hop) -> None:
    answered = _answered(hop)
    received = int(hop.values["Rcv"]) if "Rcv" in hop.values else None
    for title, text in hop.values.items():
        metric, stat, unit = FIELDS.get(title) or FIELDS["Drop"]  # BLANK is net_drop
        if unit == "us":
            if not answered:
                continue
            run.add(metric, stat, us(text), unit, n=received, hop=hop.number)
        else:
            run.add(metric, stat, float(text), unit, hop=hop.number)


def _end_to_end(run: Run, trace: Trace) -> None:
    """The run's counts and loss are the target's, when the last hop is known to be it.  It
    did not answer when the last hop is '???' or another address; a name against an address,
    or another name (a reverse lookup's), tells nothing either way."""
    last = trace.hops[-1]
    target = trace.meta.get("dst_ip") or trace.meta.get("dst_host")
    names = {trace.meta.get("dst_ip"), trace.meta.get("dst_host")} - {None}
    if target is None:
        return  # a report alone does not name its target (the command line would)
    shown = set() if last.host is None else {last.host, *_names(last.host)}
    if CUT in last.notes:  # a name the screen's width cut: the target's, if it begins so
        shown |= {n for n in names if n.startswith(last.host)}
    if not names & shown:
        said = "'???' (nothing answered)" if last.host is None else repr(last.host)
        ips = {x for x in shown if is_ip(x)}
        if last.host is not None and not (ips and trace.meta.get("dst_ip")):
            run.warnings.append(
                f"the last hop ({last.number}) is {said} and the target {target}: no telling "
                "whether it is the target (a name against an address, or a reverse lookup's "
                "name); the run has no end-to-end counts"
            )
            return
        run.warnings.append(
            f"the target {target} did not answer: the last hop ({last.number}) is {said}; the "
            "run has no end-to-end counts"
        )
        trace.labels["reached"] = False
        return
    trace.labels["reached"] = True
    values = last.values
    if "Snt" in values:
        run.meta["packets_sent"] = int(values["Snt"])
    if "Rcv" in values:
        run.meta["packets_received"] = int(values["Rcv"])
    if "Loss%" in values:
        run.meta["loss_pct"] = float(values["Loss%"])


# a hop's note: its host name was cut by the width of the screen it was copied from
CUT = "name cut by the screen's width"


_NAME_IP = re.compile(r"^(?P<name>\S+) \((?P<ip>[^)\s]+)\)$")


def _names(host: str) -> tuple[str, ...]:
    """``name (ip)`` (mtr -b) is both the name and the address."""
    m = _NAME_IP.match(host)
    return (m["name"], m["ip"]) if m else ()


def target_meta(target: str | None) -> dict:
    host, ip = host_and_ip(target, None)
    return {"dst_host": host, "dst_ip": ip}

"""mtr's machine formats: ``--json`` and ``--csv``.

``--json`` (mtr 0.94+, jansson)::

    {"report": {"mtr": {"src": "vm", "dst": "10.77.2.2", "tos": 0, "tests": 10,
                        "psize": "64", "bitpattern": "0x00"},
                "hubs": [{"count": 1, "host": "10.77.1.1", "Loss%": 0.0, "Snt": 10, ...}]}}

mtr 0.87-0.93 wrote the same keys by hand with ``printf``: ``"count": "1"``, ``"tests":
"10"``, ``"tos": "0x0"`` as strings, every time as ``%.2f`` (variant ``json-0.93``).  Times
are ms.  ``--csv`` (one header per trace, a trailing comma on it)::

    Mtr_Version,Start_Time,Status,Host,Hop,Ip,Loss%,Snt, ,Last,Avg,Best,Wrst,StDev,
    MTR.0.95,1795623455,OK,10.77.2.2,1,10.77.1.1,0.00,10,0,0.07,0.07,0.06,0.09,0.01

``Host`` is the target, ``Ip`` the hop; the blank-titled column is mtr's drop count; with
``-w`` a further host of a hop gets a row of its own with the hop's (first host's) figures.
"""

from __future__ import annotations

import json
import re

import pandas as pd

from ...errors import ParseError
from .._lines import json_document, stray
from .hops import BLANK, FIELDS, TOOL, UNKNOWN_HOST, Hop, Trace, check_value, target_meta

CSV_HEADER = re.compile(r"^\s*Mtr_Version,Start_Time,Status,Host,Hop,Ip,(?P<rest>.*?)\s*$")
CSV_ROW = re.compile(r"^\s*MTR\.(?P<version>[^,\s]+),(?P<rest>.*?)\s*$")
_DECODER = json.JSONDecoder(parse_float=str)  # times exactly as printed


# ---------------------------------------------------------------------------------------------
# JSON


def parse_json(text: str, source: str | None, strict: bool) -> list[Trace]:
    traces: list[Trace] = []
    warnings: list[str] = []
    i = _skip(text, 0)
    while i < len(text):
        text, doc, end = json_document(
            text,
            i,
            tool=TOOL,
            source=source,
            strict=strict,
            warnings=warnings,
            what="expected mtr --json output, broken at",
            decoder=_DECODER,
        )
        first = text.count("\n", 0, i) + 1
        traces.append(_json_trace(doc, text, i, end, first, source))
        traces[-1].warnings[:0] = warnings
        warnings = []
        i = _skip(text, end)
    return traces


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _json_trace(doc, text: str, a: int, b: int, first: int, source) -> Trace:
    try:
        report = doc["report"]
        head, hubs = report["mtr"], report["hubs"]
        if not isinstance(head, dict) or not isinstance(hubs, list):
            raise TypeError
    except (KeyError, TypeError):
        raise ParseError(
            TOOL, source, first, 'expected {"report": {"mtr": {...}, "hubs": [...]}}'
        ) from None
    old = any(isinstance(h, dict) and isinstance(h.get("count"), str) for h in hubs)
    trace = Trace(variant="json-0.93" if old else "json", line_start=first)
    trace.line_end = text.count("\n", 0, b) + 1
    trace.meta.update(target_meta(_text(head.get("dst"))), src_host=_text(head.get("src")))
    for key, label in (("tests", "cycles"), ("psize", "psize"), ("tos", "tos")):
        value = head.get(key)
        if value is not None:  # 0.93 wrote "tests": "10" as a string
            trace.labels[label] = int(value) if key == "tests" and str(value).isdigit() else value
    lines = [first + text.count("\n", a, m.start()) for m in re.finditer(r'"count"\s*:', text[a:b])]
    for k, hub in enumerate(hubs):
        no = lines[k] if k < len(lines) else first
        trace.hops.append(_hub(hub, no, source))
    return trace


def _text(value) -> str | None:
    return None if value is None else str(value)


def _hub(hub, no: int, source) -> Hop:
    if not isinstance(hub, dict) or "count" not in hub or "host" not in hub:
        raise ParseError(TOOL, source, no, 'expected a hub {"count": <hop>, "host": ..., ...}')
    try:
        number = int(hub["count"])
    except (TypeError, ValueError):
        raise ParseError(TOOL, source, no, f"expected a hop number, got {hub['count']!r}") from None
    values = {
        title: check_value(title, str(hub[title]), source=source, line=no)
        for title in hub
        if title in FIELDS
    }
    unknown = [k for k in hub if k not in FIELDS and k not in ("count", "host", "ASN")]
    if unknown:
        raise ParseError(TOOL, source, no, f"expected mtr's columns, got {unknown}")
    host = str(hub["host"])
    notes = [str(hub["ASN"])] if hub.get("ASN") else []
    return Hop(number, None if host == UNKNOWN_HOST else host, values, no, notes=notes)


# ---------------------------------------------------------------------------------------------
# CSV


def parse_csv(lines: list[str], source: str | None, strict: bool) -> list[Trace]:
    traces: list[Trace] = []
    titles: list[str] | None = None
    trace: Trace | None = None
    header = 0
    pending: list[str] = []  # lines skipped before the first row
    wrapped = 0  # the header's second line, when a copy wrapped it at its width
    for no, line in enumerate(lines, start=1):
        if not line.strip() or no == wrapped:
            continue
        if m := CSV_HEADER.match(line):
            rest, wrapped = _header_rest(m["rest"], lines, no)
            titles, header = _csv_titles(rest, source, no), no
            if wrapped:
                pending.append(
                    f"lines {no}-{wrapped}: the header broken in two (a copy wrapped at its "
                    "width?), read as one line"
                )
            trace = None
            continue
        m = CSV_ROW.match(line)
        if m is None or titles is None:
            if m is not None:
                raise ParseError(TOOL, source, no, "expected the 'Mtr_Version,...' header above")
            if titles is None:
                raise ParseError(TOOL, source, no, f"expected mtr --csv, got {line.strip()[:80]!r}")
            stray(TOOL, source, no, line, strict, trace.warnings if trace else pending)
            continue
        fields = m["rest"].split(",")
        if len(fields) != len(titles) + 4:
            reason = f"expected {len(titles) + 5} comma-separated fields, got {len(fields) + 1}"
            if strict or trace is None:
                raise ParseError(TOOL, source, no, reason)
            trace.warnings.append(f"line {no} skipped: {reason}")
            continue
        when, status, target, hop = fields[:4]
        key = (when, target)
        if trace is None or trace.labels.get("_key") != key:
            trace = _csv_trace(m["version"], when, status, target, no, source)
            if header:  # the first trace under a header starts at it
                trace.line_start, header = header, 0
            trace.warnings.extend(pending)
            pending.clear()
            trace.labels["_key"] = key
            traces.append(trace)
        _csv_hop(trace, titles, fields[4:], hop, no, source, strict)
    for t in traces:
        t.labels.pop("_key", None)
    if not traces and titles is not None:
        raise ParseError(TOOL, source, header, "an mtr --csv header without a row below it")
    return traces


def _header_rest(rest: str, lines: list[str], no: int) -> tuple[str, int]:
    """The header's columns after 'Ip,', and the number of its second line when a copy
    wrapped it at a space ('...,Loss%,Snt,' / ',Last,Avg,...': the space was mtr's blank
    column), else 0."""
    if no >= len(lines):
        return rest, 0
    nxt = lines[no].strip()
    if not nxt or CSV_ROW.match(nxt) or CSV_HEADER.match(nxt):
        return rest, 0
    joined = f"{rest} {nxt}"
    words = [w for w in joined.split(",") if w]
    if all(w in FIELDS or w in (BLANK, "Asn") for w in words):
        return joined, no + 1
    return rest, 0


def _csv_titles(rest: str, source, no: int) -> list[str]:
    titles = rest.split(",")
    if titles and titles[-1] == "":
        titles.pop()  # mtr ends the header with a comma
    # The ip column is followed by 'Asn' when mtr looked up AS numbers (-z)
    out = ["Ip"] + titles
    unknown = [t for t in titles if t not in FIELDS and t not in (BLANK, "Asn")]
    if unknown:
        raise ParseError(TOOL, source, no, f"expected mtr's columns, got {unknown}")
    return out


def _csv_trace(version: str, when: str, status: str, target: str, no: int, source) -> Trace:
    trace = Trace(variant="csv", line_start=no, line_end=no)
    try:
        start = pd.Timestamp(int(when), unit="s", tz="UTC")
    except (ValueError, OverflowError):
        raise ParseError(
            TOOL, source, no, f"expected a start time in epoch seconds, got {when!r}"
        ) from None
    trace.meta.update(target_meta(target), tool_version=version, start_time=start)
    if status != "OK":
        trace.labels["status"] = status
    return trace


def _csv_hop(trace: Trace, titles, fields, hop_text: str, no: int, source, strict) -> None:
    try:
        number = int(hop_text)
    except ValueError:
        raise ParseError(TOOL, source, no, f"expected a hop number, got {hop_text!r}") from None
    row = dict(zip(titles, fields))
    host = row.pop("Ip")
    notes = [row.pop("Asn")] if row.get("Asn") else []
    row.pop("Asn", None)
    trace.line_end = no
    last = trace.hops[-1] if trace.hops else None
    if last is not None and last.number == number:
        last.others.append(host)  # -w: a further host of the hop, the hop's figures repeated
        return
    values = {
        t: check_value(t if t != BLANK else "Drop", v, source=source, line=no)
        for t, v in row.items()
    }
    trace.hops.append(Hop(number, None if host == UNKNOWN_HOST else host, values, no, notes=notes))

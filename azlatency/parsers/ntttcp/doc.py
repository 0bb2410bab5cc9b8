"""ntttcp's structured outputs: XML (``-x`` on Linux, ``-xml`` on Windows) and JSON (``-j``).

Both are read into one neutral shape — root tag, attributes, ``<parameters>``, the
``<thread>`` elements and the remaining ``(tag, metric, text)`` entries — and turned into
:class:`~azlatency.parsers.ntttcp.Totals` by one function, so the two cannot drift apart.

Facts that forced a branch (corpus files under ``ntttcp/``):

* ntttcp-for-linux writes ``version="5.33-linux"`` and mimics NTttcp.exe's XML, but its
  ``MB``/``KB`` are 10^6/10^3 bytes (``total_bytes`` 89412.182016 MB over 60.234391 s is the
  1484.404 MB/s it prints, and ``Bps`` = MB/s × 10^6), while NTttcp.exe 5.35's are 2^20/2^10
  (its ``mbps`` = MB/s × 8.388608).  ``mbps`` and ``Bps`` are the same unit on both.
* ntttcp-for-linux fills the Windows-only fields (interrupts, DPCs, frame size, buffers,
  packets sent/received) with ``0``: placeholders, not measurements, so they are skipped.
  Its receiver writes ``packets_retransmitted`` 0 too: only the sender counts retransmits.
* Older ntttcp-for-linux (the WSL2 capture) names ``cycles_per_byte`` ``<cycles>`` and
  ``cpu_busy_all`` ``<cpu>``; on Windows ``<cpu>`` is the average over processors (0-100 %),
  which is a different figure, named ``cpu_avg``.
* NTttcp.exe's ``bufferCount`` is INT64_MAX when the run is timed (``-t``): kept exactly, as
  an int in ``labels``, never through a float.
* Reusing one ``-xml`` file appends documents, each with its own BOM.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any
from xml.etree.ElementTree import Element
from xml.etree.ElementTree import ParseError as XmlError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from ...errors import ParseError
from .._base import Span
from .._lines import in_code_span, json_document, strays_after
from .._ranges import int64, line_of
from .totals import TOOL, Totals, dec

_ROOT_OPEN = re.compile(r"<(ntttcp[sr])[\s>]")
_MIB, _MB = Decimal(2**20), Decimal(10**6)
# Windows-only figures (NTttcp.exe): tag[/metric] -> (metric, stat, unit)
_WINDOWS_EXTRA = {
    ("avg_bytes_per_compl", "B"): ("bytes_per_completion", "mean", "bytes"),
    ("avg_frame_size", "B"): ("frame_size", "mean", "bytes"),
    ("total_buffers", None): ("buffers", "total", "count"),
    ("throughput", "buffers/s"): ("buffers_per_s", "mean", "1/s"),
    ("avg_packets_per_interrupt", "packets/interrupt"): ("packets_per_interrupt", "mean", "ratio"),
    ("interrupts", "count/sec"): ("interrupts_per_s", "mean", "1/s"),
    ("dpcs", "count/sec"): ("dpcs_per_s", "mean", "1/s"),
    ("avg_packets_per_dpc", "packets/dpc"): ("packets_per_dpc", "mean", "ratio"),
}
_LINUX_CPU = {
    "user": "cpu_user",
    "system": "cpu_system",
    "idle": "cpu_idle",
    "iowait": "cpu_iowait",
    "softirq": "cpu_softirq",
    "cycles_per_byte": "cycles_per_byte",
    "cycles": "cycles_per_byte",
    "cpu_busy_all": "cpu_busy",
    "cpu": "cpu_busy",
}


@dataclass
class Doc:
    """One ntttcp document in neutral form."""

    root: str  # ntttcps (sender) or ntttcpr (receiver)
    attrs: dict[str, str]
    params: dict[str, str]
    threads: list[tuple[str, list[tuple[str, str | None, str]]]]  # (index, entries)
    entries: list[tuple[str, str | None, str]]
    variant: str
    line_start: int = 1
    line_end: int = 1
    warnings: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # the document's text, from line_start

    def get(self, tag: str, metric: str | None = None) -> str | None:
        return _get(self.entries, tag, metric)

    def line_of(self, key: str, text: str) -> int:
        """Where a bad value is: neither ElementTree nor json report positions, so the line
        holding its tag (key) and its text, else one holding its text, else the document's
        first line."""
        found = line_of(self.lines, self.line_start, key, text)
        return found if found != self.line_start else line_of(self.lines, self.line_start, text)


def _get(entries, tag: str, metric: str | None = None) -> str | None:
    for t, m, text in entries:
        if t == tag and (metric is None or m == metric):
            return text
    return None


# ---------------------------------------------------------------------------------------------
# XML


def locate_xml(lines: list[str]) -> list[Span]:
    """XML documents pasted into a note: from the root element's line to its closing tag."""
    spans = []
    i = 0
    while i < len(lines):
        m = _ROOT_OPEN.search(lines[i])
        if not m or in_code_span(lines[i], m.start()):  # a root named in prose
            i += 1
            continue
        close = f"</{m.group(1)}>"
        j = next((k for k in range(i, len(lines)) if close in lines[k]), None)
        end = len(lines) if j is None else j + 1
        spans.append(Span(i, end, TOOL))
        i = end
    return spans


def _documents(text: str) -> list[tuple[int, str]]:
    """(1-based line, text) of each document; appended documents are split at their roots."""
    starts = [m.start() for m in _ROOT_OPEN.finditer(text)]
    out = []
    for a, b in zip(starts, starts[1:] + [len(text)]):
        out.append((text.count("\n", 0, a) + 1, text[a:b].replace("\ufeff", "")))
    return out


def parse_xml(text: str, source: str | None) -> list[Totals]:
    docs = _documents(text)
    if not docs:
        raise ParseError(TOOL, source, None, "expected an <ntttcps> or <ntttcpr> XML document")
    out = []
    for line, body in docs:
        # Drop what follows the closing tag (the next document's <?xml ...?> declaration).
        root = _ROOT_OPEN.match(body).group(1)
        close = body.find(f"</{root}>")
        if close >= 0:
            body = body[: close + len(root) + 3]
        try:
            elem = fromstring(body)
        except XmlError as exc:
            row = exc.position[0] if getattr(exc, "position", None) else 1
            raise ParseError(
                TOOL,
                source,
                line + row - 1,
                f"malformed ntttcp XML: {exc}",
                hint="a truncated file (the run was cut) or an edited one",
            ) from None
        except DefusedXmlException as exc:
            raise ParseError(TOOL, source, line, f"refused unsafe XML: {exc!r}") from None
        doc = _from_element(elem)
        doc.line_start, doc.line_end = line, line + body.count("\n")
        doc.lines = body.split("\n")
        out.append(totals(doc, source))
    return out


def _entry(e: Element) -> tuple[str, str | None, str]:
    return e.tag, e.get("metric"), (e.text or "").strip()


def _from_element(root: Element) -> Doc:
    params: dict[str, str] = {}
    threads, entries = [], []
    for child in root:
        if child.tag == "parameters":
            params = {p.tag: (p.text or "").strip() for p in child}
        elif child.tag == "thread":
            threads.append((child.get("index", str(len(threads))), [_entry(e) for e in child]))
        else:
            entries.append(_entry(child))
    linux = root.get("version", "").endswith("-linux")
    return Doc(
        root.tag,
        dict(root.attrib),
        params,
        threads,
        entries,
        "xml-linux" if linux else "xml-windows",
    )


# ---------------------------------------------------------------------------------------------
# JSON (ntttcp-for-linux -j): the XML tree with every value a string.


# ntttcp-for-linux's own -j (util.c write_result_into_json_file, 1.4.0-1.4.3, captured with
# 1.4.3) names the XML's tags in camelCase, a few otherwise; these are the others.  A document
# converted from the XML by a script (xmltodict's convention) keeps the XML's tags and puts an
# attribute under '@name' and an element's text under '#text'.
_JSON_TAGS = {
    "realTime": "realtime",
    "throughputs": "throughput",
    "interrupt": "interrupts",
    "interruptTotal": "total_interrupts",
    "tcpAverageRtt metric": "tcp_average_rtt",  # written so, with the value "<n> us"
    "threads": "thread",
    "bufferCount": "bufferCount",  # the XML's own spelling
    "bufferLen": "bufferLen",
}


def _tag(key: str) -> str:
    """The XML tag a JSON key stands for (``totalBytes`` -> ``total_bytes``)."""
    key = key.lstrip("@")
    if key in _JSON_TAGS:
        return _JSON_TAGS[key]
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), key)


def _load_json(text: str, source: str | None, strict: bool) -> tuple[Any, list[str]]:
    """The document, and a warning per stray line taken out of it (a kernel message in the
    middle of the file) or per string a wrapped copy broke over two lines; a located
    ParseError when it does not decode (cut, or broken)."""
    body = text.replace("\ufeff", " ", 1) if text.startswith("\ufeff") else text
    start = len(body) - len(body.lstrip())
    warnings: list[str] = []
    body, data, end = json_document(
        body,
        start,
        tool=TOOL,
        source=source,
        strict=strict,
        warnings=warnings,
        what="malformed ntttcp JSON",
    )
    strays_after(TOOL, source, body, end, strict, warnings)  # a shell's line after it
    return data, warnings


def parse_json(text: str, source: str | None, strict: bool = True) -> list[Totals]:
    data, strays = _load_json(text, source, strict)
    roots = [k for k in data if k in ("ntttcps", "ntttcpr")] if isinstance(data, dict) else []
    if not roots or not isinstance(data[roots[0]], dict):
        raise ParseError(TOOL, source, 1, 'expected {"ntttcps": {...}} or {"ntttcpr": {...}}')
    body = data[roots[0]]
    doc = Doc(roots[0], {}, {}, [], [], "json", 1, text.count("\n") + 1, lines=text.split("\n"))
    for key, value in body.items():
        tag = _tag(key)
        if tag == "parameters" and isinstance(value, dict):
            doc.params = {_tag(k): str(v) for k, v in value.items()}
        elif tag == "thread":
            for n, th in enumerate(value if isinstance(value, list) else [value]):
                if isinstance(th, dict):
                    index = str(th.get("index", th.get("@index", n)))
                    doc.threads.append((index, _json_entries(th, "index", strays)))
        elif isinstance(value, str) and tag in ("computername", "version"):
            doc.attrs[tag] = value
        else:
            doc.entries.extend(_json_entries({key: value}, odd=strays))
    t = totals(doc, source)
    t.warnings[:0] = strays
    if t.bits_per_second is None and t.total_bytes is None:
        t.complete = False
        t.warnings.append(
            "no throughput and no total bytes in the document: expected 'throughput' "
            "('throughputs') entries of {metric, value} or {@metric, #text}, and 'total_bytes' "
            f"('totalBytes'); keys found: {', '.join(list(body)[:12])}"
        )
    return [t]


def _json_entries(
    obj: dict, skip: str = "", odd: list[str] | None = None
) -> list[tuple[str, str | None, str]]:
    out = []
    for key, value in obj.items():
        tag = _tag(key)
        if tag == skip:
            continue
        items = value if isinstance(value, list) else [value]
        objects = isinstance(value, list) and any(isinstance(x, dict) for x in value)
        for item in items:
            if objects and not isinstance(item, dict):
                # ntttcp writes lists of {metric, value} objects: a bare value among them is
                # no figure of its ('12.5' pasted into the file decodes as one)
                if odd is not None:
                    odd.append(f"a bare value {item!r} in the '{key}' list not read")
                continue
            if isinstance(item, dict) and "value" in item:
                out.append((tag, item.get("metric"), str(item["value"])))
            elif isinstance(item, dict) and "#text" in item:
                out.append((tag, item.get("@metric"), str(item["#text"])))
            elif isinstance(item, (str, int, float)):
                out.append((tag, None, str(item)))
    return out


# ---------------------------------------------------------------------------------------------
# Neutral document -> Totals


def _num(text: str | None, what: str, doc: Doc, source: str | None) -> Decimal | None:
    """A number, tolerating the unit word ntttcp-for-linux's JSON leaves after some values
    (``"1484404184.555 bps"``): the ``metric`` says the unit, the stray word does not."""
    if text is None or text == "":
        return None
    value = dec(re.sub(r"\s*(?:bps|%|us|MHz)$", "", text.strip()))
    if value is None:
        raise ParseError(
            TOOL,
            source,
            doc.line_of(what, text.strip()),
            f"expected a number for {what}, got {text!r}",
        )
    return value


def _rate(entries, doc: Doc, source: str | None, kib: Decimal) -> float | None:
    """bits/s from a group of <throughput> entries: Bps, then mbps, then KB/s or MB/s."""
    for metric, factor in (
        ("Bps", 8),
        ("mbps", 10**6),
        ("KB/s", kib * 8),
        ("MB/s", kib * 1024 * 8),
    ):
        value = _num(_get(entries, "throughput", metric), f"throughput {metric}", doc, source)
        if value is not None:
            return float(value * factor)
    return None


def _int(text: str | None, what: str, doc: Doc, source: str | None) -> int | None:
    value = _num(text, what, doc, source)
    if value is None:
        return None
    return int64(
        value,
        tool=TOOL,
        source=source,
        line_no=doc.line_of(what, text.strip()),
        what=f"a whole number for {what}",
        text=text,
    )


def totals(doc: Doc, source: str | None) -> Totals:
    version = doc.attrs.get("version")
    # ntttcp-for-linux's -j writes its version; a converted NTttcp.exe XML keeps "5.35".
    linux = (version or "").endswith("-linux") or (doc.variant == "json" and version is None)
    t = Totals(
        variant=doc.variant,
        os="linux" if linux else "windows",
        line_start=doc.line_start,
        line_end=doc.line_end,
        warnings=list(doc.warnings),
    )
    t.role = "sender" if doc.root == "ntttcps" else "receiver"
    t.version = doc.attrs.get("version")
    host = doc.attrs.get("computername")
    t.meta["src_host" if t.role == "sender" else "dst_host"] = host
    mib = _MB if linux else _MIB
    kib = mib / 1000 if linux else mib / 1024
    raw = doc.get("total_bytes", "MB")
    mb = _num(raw, "total_bytes", doc, source)
    t.total_bytes = (
        None
        if mb is None
        else int64(
            (mb * mib).to_integral_value(),
            tool=TOOL,
            source=source,
            line_no=doc.line_of("total_bytes", raw.strip()),
            what="total_bytes in MB within int64 bytes",
            text=raw,
        )
    )
    real = _num(doc.get("realtime", "s"), "realtime", doc, source)
    t.duration_s = None if real is None else float(real)
    t.bits_per_second = _rate(doc.entries, doc, source, kib)
    if not (linux and t.role == "receiver"):
        t.retransmits = _int(doc.get("packets_retransmitted"), "packets_retransmitted", doc, source)
    rtt = _num(doc.get("tcp_average_rtt"), "tcp_average_rtt", doc, source)
    t.tcp_rtt_us = None if rtt is None else float(rtt)
    t.connections = _int(doc.get("conns_tested"), "conns_tested", doc, source)
    t.threads = len(doc.threads) or None
    _params(doc, t, linux, source)
    (_linux_figures if linux else _windows_figures)(doc, t, source)
    _buffers(doc, t, source)
    _threads(doc, t, source, kib)
    return t


def _threads(doc: Doc, t: Totals, source: str | None, kib: Decimal) -> None:
    """A sample row per thread the document reports: its realtime and rate."""
    for index, entries in doc.threads:
        real = _num(_get(entries, "realtime", "s"), f"thread {index} realtime", doc, source)
        seq = len(t.thread_rows)
        if index.isdecimal():
            seq = int64(
                int(index),
                tool=TOOL,
                source=source,
                line_no=doc.line_of("index", index),
                what="a thread index",
                text=index,
            )
        t.thread_rows.append(
            {
                "seq": seq,
                "kind": "thread",
                "status": "ok",
                "stream": index,
                "start_s": 0.0,
                "end_s": None if real is None else float(real),
                "bits_per_second": _rate(entries, doc, source, kib),
            }
        )


def _params(doc: Doc, t: Totals, linux: bool, source: str | None) -> None:
    p = doc.params
    if p.get("port", "").isdecimal():
        t.meta["port"] = int64(
            int(p["port"]),
            tool=TOOL,
            source=source,
            what="a port",
            line_no=doc.line_of("port", p["port"]),
            text=p["port"],
        )
    if p.get("udp") in ("True", "False"):
        t.meta["protocol"] = "udp" if p["udp"] == "True" else "tcp"
    scale = 1 if linux else 1000  # run/warmup/cooldown: seconds on Linux, ms on Windows
    for key, label in (
        ("run_time", "run_time_s"),
        ("warmup_time", "warmup_s"),
        ("cooldown_time", "cooldown_s"),
    ):
        value = dec(p.get(key, ""))
        if value is not None:
            t.labels[label] = float(value / scale)


def _linux_figures(doc: Doc, t: Totals, source: str | None) -> None:
    for tag, metric in _LINUX_CPU.items():
        value = _num(doc.get(tag), tag, doc, source)
        if value is not None and metric not in t.cpu:
            t.cpu[metric] = float(value)
    cores = _int(doc.get("cpu_cores"), "cpu_cores", doc, source)
    if cores:
        t.labels["cpu_cores"] = cores
    speed = _num(doc.get("cpu_speed"), "cpu_speed", doc, source)
    if speed is not None:
        t.labels["cpu_speed_mhz"] = float(speed)
    if doc.get("os"):
        t.labels["kernel"] = doc.get("os")


def _windows_figures(doc: Doc, t: Totals, source: str | None) -> None:
    for (tag, unit), (metric, stat, out_unit) in _WINDOWS_EXTRA.items():
        value = _num(doc.get(tag, unit), tag, doc, source)
        if value is not None:
            t.extra.append((metric, stat, float(value), out_unit))
    cycles = _num(doc.get("cycles"), "cycles", doc, source)
    if cycles is not None:
        t.cpu["cycles_per_byte"] = float(cycles)
    cpu = _num(doc.get("cpu"), "cpu", doc, source)
    if cpu is not None:
        t.cpu["cpu_avg"] = float(cpu)
    for tag, col in (
        ("packets_sent", "packets_sent"),
        ("packets_received", "packets_received"),
        ("errors", "errors"),
    ):
        t.meta[col] = _int(doc.get(tag), tag, doc, source)
    procs = _int(doc.get("num_processors"), "num_processors", doc, source)
    if procs:
        t.labels["cpu_cores"] = procs


def _buffers(doc: Doc, t: Totals, source: str | None) -> None:
    count = doc.get("bufferCount")
    if count and count.isdecimal() and int(count):
        # exact: INT64_MAX stays 9223372036854775807.  A label (JSON text), not an Int64
        # column: a longer number is kept as printed, not an error.
        t.labels["buffer_count"] = int(count)
    length = _int(doc.get("bufferLen"), "bufferLen", doc, source)
    if length:
        t.meta["msg_size_bytes"] = length

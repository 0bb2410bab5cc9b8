"""Settling an iperf3 console test once it has ended.

While reading, the text reader cannot know everything a line means: a server learns that it
was the sender of a ``-R`` test only from its header columns, an unlabelled 3.0/3.1 summary
line is the local side's, and ``Sent N datagrams`` comes after the line it completes.  These
functions settle role, direction, protocol, streams, addresses and the side and flow of every
row and total from everything the test printed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from .lines import int_flag, is_ip, tag_side
from .model import Test, Total, flow_of, local_side


@dataclass
class TextFacts:
    """Per-test facts the text reader collects while it reads, settled when the test ends."""

    header: str = ""  # columns of the interval header
    summary_header: str = ""
    old_header: bool = False
    in_summary: bool = False
    connected: list[dict] = field(default_factory=list)  # CONNECTED groups, ports as ints
    tags: set[str] = field(default_factory=set)
    sent: dict[str, int] = field(default_factory=dict)
    ooo: dict[str, int] = field(default_factory=dict)
    reverse_line: bool = False
    connecting_host: str | None = None
    accepted_ip: str | None = None
    listen_port: int | None = None
    command_flags: dict[str, str | bool] = field(default_factory=dict)
    unlabelled: list[tuple[Total, str | None]] = field(default_factory=list)
    seq: dict[tuple[str, str | None], int] = field(default_factory=dict)
    last: dict[tuple[str, str | None], tuple] = field(default_factory=dict)
    version: str | None = None  # -V "iperf 3.12" (printed before the test starts)
    time: datetime | None = None  # -V "Time: ... GMT"
    embedded: bool = False  # after "Server output:"
    timestamped: bool = False
    # end-of-test lines as printed: (stream, role tag, "sender"/"receiver"/None, line)
    summary: list[tuple[str, str | None, str | None, int]] = field(default_factory=list)
    done: bool = False  # "iperf Done." (or "Server output:") after the test
    verbose: bool = False  # -V: "CPU Utilization" and the congestion lines come before Done


def settle(t: Test, x: TextFacts) -> None:
    """Everything a test left open, from everything it printed."""
    meta = t.meta
    flags = x.command_flags
    role = meta.get("role") or (
        "server" if flags.get("server") else "client" if flags.get("client") else None
    )
    meta["role"] = role
    if x.version:
        meta["tool_version"] = x.version
    if x.time is not None:
        meta["start_time"] = x.time
    if x.embedded:
        t.labels["from"] = "server output (--get-server-output)"
    direction = _direction(t, x, role)
    meta["direction"] = direction
    headers = x.header + " " + x.summary_header
    if "protocol" not in meta:
        udp = "Datagrams" in headers or any(r.get("jitter_us") is not None for r in t.rows)
        udp = udp or any(tt.jitter_us is not None for tt in t.totals)
        udp = udp or any(u.jitter_us is not None for u, _ in x.unlabelled)
        meta["protocol"] = "udp" if udp or flags.get("udp") else "tcp"
    _addresses(t, x, role)
    streams = _streams(t, x, direction)
    if streams is None:
        streams = int_flag(flags, "parallel")
    if streams is not None:
        meta.setdefault("streams", streams)
    if "omit_s" not in t.labels and int_flag(flags, "omit") is not None:
        t.labels["omit_s"] = int_flag(flags, "omit")
    summary_only = not t.rows and not x.header and not x.connected
    base = "text-summary" if summary_only else "server-text" if role == "server" else "text"
    meta["parser_variant"] = base + ("-old-bandwidth" if x.old_header else "")
    if x.timestamped:
        t.labels["timestamps"] = True
    _sides(t, x, role, direction)


def _sides(t: Test, x: TextFacts, role: str | None, direction: str | None) -> None:
    """The side (sender/receiver) and flow of every row and total: from a role tag when there
    is one, else the printing host's side of the (main) flow."""
    local = local_side(role, "forward" if direction == "bidir" else direction)
    if local is None and t.meta.get("protocol") == "udp":
        # No banner, command or connecting line: a UDP sender still says so — "Sent N
        # datagrams" (3.0/3.1) and intervals with Total Datagrams but no Jitter column.
        header = x.header
        if x.sent or ("Datagrams" in header and "Jitter" not in header):
            local = "sender"
        elif "Jitter" in header:
            local = "receiver"
    bidir = direction == "bidir"
    untagged = (local, flow_of(role, local, bidir))  # most rows: one flow, the local side
    for r in t.rows:
        if tag := r.pop("_tag"):
            r["role"] = side = tag_side(tag)
            r["_flow"] = flow_of(role, side, bidir)
        else:
            r["role"], r["_flow"] = untagged
    for total in t.totals:
        tag = total.flow or None
        total.flow = flow_of(role, tag_side(tag) or local, bidir) if tag else ""
        if total.side == "sender":
            total.jitter_us = total.lost = total.loss_pct = None
    _unlabelled(t, x, local, role, bidir)
    for stream, n in x.sent.items():  # "[  5] Sent 6041 datagrams" (3.0/3.1 UDP client)
        mine = [o for o in t.totals if o.side == "sender" and o.stream == stream]
        if mine:
            mine[-1].packets = n
        else:
            t.totals.append(Total("sender", stream, "", packets=n))
    for stream, n in x.ooo.items():
        receivers = [o for o in t.totals if o.side == "receiver"]
        mine = [o for o in receivers if o.stream == stream]
        if not mine and stream == "SUM" and len({o.stream for o in receivers}) == 1:
            # iperf_locale.c report_sum_outoforder: '[SUM] ... N datagrams received
            # out-of-order' under a single stream's summary (3.0/3.1 -R, a netdev report)
            mine = receivers
        for o in mine:
            o.out_of_order = n
        if not mine:
            t.warnings.append(f"{n} out-of-order datagrams of stream {stream}: no receiver line")


def _addresses(t: Test, x: TextFacts, role: str | None) -> None:
    meta = t.meta
    first = x.connected[0] if x.connected else None
    if role == "server":
        if first is not None:
            meta["dst_ip"], meta["src_ip"] = first["lip"], first["rip"]
            meta["port"] = first["lport"]
        elif x.accepted_ip:
            meta["src_ip"] = x.accepted_ip
        if x.listen_port is not None:
            meta.setdefault("port", x.listen_port)
        return
    if first is not None:
        meta["src_ip"], meta["dst_ip"] = first["lip"], first["rip"]
        meta.setdefault("port", first["rport"])
    host = x.connecting_host or (x.command_flags.get("client") or None)
    if isinstance(host, str) and not host.startswith("$"):
        if is_ip(host):
            meta.setdefault("dst_ip", host)
        else:
            meta["dst_host"] = host
    if "port" not in meta and int_flag(x.command_flags, "port") is not None:
        meta["port"] = int_flag(x.command_flags, "port")


def _unlabelled(t: Test, x: TextFacts, local: str | None, role: str | None, bidir: bool) -> None:
    """3.0/3.1 print the end-of-test line without ``sender``/``receiver``: it is the local
    side's; on a UDP sender, its jitter and loss are the receiver's, sent back at the end
    — which an interrupted client never gets."""
    for total, tag in x.unlabelled:
        side = tag_side(tag) or local
        if side is None:
            t.warnings.append(
                "an end-of-test line without 'sender'/'receiver' and no "
                "client/server banner: not read"
            )
            continue
        total.side = side
        total.flow = flow_of(role, side, bidir) if tag else ""
        if side == "sender" and total.lost is not None:
            if not t.errors:
                t.totals.append(
                    Total(
                        "receiver",
                        total.stream,
                        total.flow,
                        jitter_us=total.jitter_us,
                        lost=total.lost,
                        packets=total.packets,
                        loss_pct=total.loss_pct,
                    )
                )
            else:
                t.warnings.append(
                    "jitter and loss of the unlabelled summary are the "
                    "receiver's, which an interrupted client never gets: "
                    "not read"
                )
            total.jitter_us = total.lost = total.loss_pct = None
        t.totals.append(total)


def _direction(t: Test, x: TextFacts, role: str | None) -> str | None:
    if x.tags or x.command_flags.get("bidir"):
        return "bidir"
    if x.reverse_line or x.command_flags.get("reverse"):
        return "reverse"
    if role == "client":
        return "forward"
    if role == "server":
        # A server is the sender of a -R test: its intervals carry Retr/Cwnd (TCP) or the
        # sending side's Total Datagrams (UDP), and its summary line says "sender".
        header = x.header
        sends = "Retr" in header or ("Datagrams" in header and "Jitter" not in header)
        labels = {tt.side for tt in t.totals}
        if sends or labels == {"sender"}:
            return "reverse"
        return "forward"
    return None


def _streams(t: Test, x: TextFacts, direction: str | None) -> int | None:
    if "streams" in t.meta:
        return None
    ids = {m["id"] for m in x.connected}
    if not ids:
        ids = {r["stream"] for r in t.rows if r["stream"] != "SUM"}
    if not ids:
        return None
    if direction == "bidir":
        return max(1, len(ids) // 2)
    return len(ids)


def _id_key(stream: str) -> tuple[int, str]:
    return (int(stream), "") if stream.isdigit() else (1 << 30, stream)


def end_gaps(t: Test, x: TextFacts) -> str | None:
    """What the end-of-test block lacks that iperf3 always prints, as a warning (the run is
    then not complete), or None.

    iperf3 3.1+ labels each end-of-test line.  A client prints a ``sender`` and a
    ``receiver`` line per stream (per role tag with ``--bidir``), then both for ``[SUM]`` when
    there are several streams; a server only its own side (3.12, 3.18).  A 3.0/3.1 UDP client
    prints one unlabelled line, the same whether the test ended or was interrupted: only
    ``iperf Done.`` tells, as it does after ``-V``'s CPU and congestion lines."""
    if not x.summary:
        return None  # no summary at all: finish() says so
    role = t.meta.get("role")
    last = x.summary[-1][3]  # appended as read: the last is the latest
    labelled = [s for s in x.summary if s[2]]
    missing = _missing_lines(x, role, labelled) if labelled else []
    if missing:
        more = f" and {len(missing) - 4} more" if len(missing) > 4 else ""
        return (
            f"the end-of-test summary stops at line {last}: no {', '.join(missing[:4])}"
            f"{more} line (cut short?)"
        )
    if (x.verbose or not labelled) and role == "client" and not x.done and not t.errors:
        why = (
            "-V prints CPU and congestion lines, then 'iperf Done.'"
            if x.verbose
            else "an interrupted 3.0/3.1 client prints the same unlabelled summary"
        )
        return f"no 'iperf Done.' after line {last} ({why}): cut short?"
    return None


def _missing_lines(
    x: TextFacts, role: str | None, labelled: list[tuple[str, str | None, str | None, int]]
) -> list[str]:
    groups: dict[str | None, set[str]] = {}
    for stream, tag in x.seq:
        if stream != "SUM":
            groups.setdefault(tag, set()).add(stream)
    have: dict[tuple[str, str | None], set[str | None]] = {}
    for stream, tag, label, _ in x.summary:
        streams = groups.get(tag)
        if streams is None:
            streams = groups[tag] = set()
        if stream != "SUM":
            streams.add(stream)
        if (labels := have.get((stream, tag))) is None:
            labels = have[stream, tag] = set()
        labels.add(label)
    missing: list[str] = []
    for tag, streams in groups.items():
        # (most tests have one stream: a key for it, and a sort, cost more than the rest)
        ids = [*sorted(streams, key=_id_key), "SUM"] if len(streams) > 1 else list(streams)
        if role == "server":
            # its own side only: the labels it printed for this tag, else any line at all
            want = sorted({s[2] for s in labelled if s[1] == tag}) or [None]
        else:
            want = ["sender", "receiver"]
        for sid in ids:
            got = have.get((sid, tag), ())
            for label in want:
                if (label is None and not got) or (label is not None and label not in got):
                    name = f"[{sid}]" + (f"[{tag}]" if tag else "")
                    missing.append(f"{name} {label or 'end-of-test'}")
    return missing

"""ping: Linux iputils, BusyBox, macOS/FreeBSD, Windows ``ping.exe`` (eight languages) and
PowerShell ``Test-Connection`` tables.

Every reply, timeout and ICMP error becomes a sample (``kind = "reply"``); the statistics
block becomes run counts and reported ``rtt`` summaries; statistics computed from the replies
sit beside them.  Round trip times are in µs (``latency_basis = "rtt"``).  What each dialect
prints and how it is read: ``docs/tools/ping.md``.  The lines themselves are described in
``ping/grammar.py``; long logs are read in bulk by ``ping/fast.py``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...decode import decode
from ...errors import ParseError
from .._base import Parsed, Run, Span, ToolInfo
from .._lines import INT64_MAX, INT64_MIN, STRAY_LINES, integer
from . import grammar as g
from .fast import Lines, Replies, is_ascii, lines_of, read_lines, shape_of, utf8
from .grammar import Event, Scanner
from .l10n import unread_time
from .runs import TOOL, Acc, fail, finish, ms_to_us, skipped_warning, ts_ns

INFO = ToolInfo(
    tool=TOOL,
    description="ping output: iputils, BusyBox, macOS/BSD, Windows ping.exe, Test-Connection",
    variants=(
        "iputils",
        "busybox",
        "bsd",
        "windows-en",
        "windows-de",
        "windows-fr",
        "windows-es",
        "windows-ja",
        "windows-zh",
        "windows-zh-tw",
        "windows-ru",
        "powershell-5",
        "powershell-7",
    ),
    versions="iputils 20221126 (captured) and older Ubuntu builds (corpus), BusyBox 1.35, "
    "macOS (corpus), Windows 7/10 ping.exe, Windows PowerShell 5.1 Test-Connection (corpus); "
    "PowerShell 7 Test-Connection and the de/es/ja/zh/zh-tw/ru ping.exe texts are transcribed",
    produces=("runs", "samples", "summaries"),
    flags="-D (timestamps), -O (timeouts); Windows prints whole milliseconds",
    latency_basis="rtt",
    commands=("ping6", "Test-Connection"),
)

# Blocks at least this long are read with the bulk reader (ping/fast); shorter ones line by
# line.  Both give the same result; tests set it to 0 to check that.
FAST_MIN_BYTES = 256 * 1024
_STARTS = {
    "header",
    "reply",
    "timeout",
    "error",
    "title",
    "packets",
    "rtt",
    "win_header",
    "win_reply",
    "win_failure",
    "win_timeout",
    "win_title",
    "win_packets",
    "win_rtt",
    "ps_header",
    "packets_partial",
}
_HEADERS = {"header", "win_header", "ps_header", "ps_dest"}
# The reader's hook: a span opens only on a line with an event of _STARTS, and each comes from
# one of these (Scanner: the Unix ones after the indent, every Windows one behind _WIN_HINT,
# a PowerShell table's rows only after its header).
OPENERS = (
    g.UNIX_HEADER,
    g.BSD_PING6_HEADER,
    g.UNIX_REPLY,
    g.NO_ANSWER,
    g.REQUEST_TIMEOUT,
    g.FROM_ERROR,
    g.SEND_ERROR,
    g.BSD_ERROR,
    g.STATS_TITLE,
    g.PACKETS,
    g.PACKETS_PARTIAL,
    g.RTT,
    g._WIN_HINT,
    g.PS5_HEADER,
    g.PS7_HEADER,
)
_INSIDE = _STARTS | {
    "blank",
    "neutral",
    "elided",
    "pipe",
    "win_packets_loss",
    "win_rtt_title",
    "ps_row",
    "ps_dest",
}


# ---------------------------------------------------------------------------------------------
# Locating ping output in a document.


def _events(lines: list[str]) -> list[Event]:
    scanner = Scanner()
    return [e for i, line in enumerate(lines) for e in scanner.scan(i, line)]


def locate(lines: list[str]) -> list[Span]:
    """Runs of ping lines, blank lines between them allowed; prose, prompts and other tools'
    lines end a span.  Lines that only ping-like tools share (blank, ``^C``) never start one."""
    kinds: dict[int, set[str]] = {}
    for e in _events(lines):
        kinds.setdefault(e.idx, set()).add(e.kind)
    spans: list[Span] = []
    start = last = None
    for i in range(len(lines) + 1):
        k = kinds.get(i, {"unknown"})
        if start is None:
            if k & _STARTS and not k - _INSIDE:
                start = last = i
            continue
        if k - _INSIDE:
            if i < len(lines) and _resumes(kinds, i, len(lines)):
                continue  # a stray line inside the output: the parser names it
            if (
                last == i - 1
                and "packets" in kinds.get(last, ())
                and i + 1 < len(lines)
                and not lines[i + 1].strip()
            ):
                # A stray line between the packets line and iputils' empty closing line
                # (written after it): the closing line is still the output's.
                last = i + 1
                continue
            spans.append(Span(start, last + 1, TOOL))
            start = None
        elif k - {"blank", "neutral"}:
            last = i
        elif "blank" in k and last == i - 1 and "packets" in kinds.get(last, ()):
            last = i  # iputils' closing line, empty when there is no rtt or pipe to print
    return spans


def _resumes(kinds: dict[int, set[str]], i: int, n: int) -> bool:
    """The output goes on within :data:`STRAY_LINES` lines after the stray line ``i`` with a
    line of the same run (a reply, the statistics, ``pipe N``; not the next run's header)."""
    for j in range(i + 1, min(i + 1 + STRAY_LINES, n)):
        k = kinds.get(j, {"unknown"})
        if k <= {"blank", "neutral"}:
            continue
        return not k - _INSIDE and not k & _HEADERS
    return False


def whole_file(head: str) -> bool:
    """A file that is nothing but ping output (every line of its head is ping's)."""
    lines = head.split("\n")[:-1] if "\n" in head else [head]
    scanner, kinds = Scanner(), set()
    for i, line in enumerate(lines[:2000]):
        for e in scanner.scan(i, line):
            if e.kind not in _INSIDE:  # one line that is not ping's decides: stop reading
                return False
            kinds.add(e.kind)
    return bool(kinds & {"header", "reply"})


# ---------------------------------------------------------------------------------------------
# Parsing.


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    """Runs of one block of ping output (see the module docstring)."""
    return _parse(text, source, strict)


def parse_bytes(data: bytes, *, source: str | None = None, strict: bool = True) -> Parsed:
    """The reader's fast path for big plain files (no BOM, no CR)."""
    if len(data) >= FAST_MIN_BYTES and is_ascii(data):
        # ASCII bytes are their own text: the lines are found in the bytes, and only those
        # the line scanner reads are decoded.
        split = lines_of(np.frombuffer(data, np.uint8))
        start, end = split.start, split.end

        def line(i: int) -> str:
            return data[start[i] : end[i]].decode("ascii")

        events, fast = _bulk_events(split, line, lambda: data.decode("ascii").split("\n"))
        # The file's last newline ends its last line, as the reader has it when it hands
        # parse() the lines of a file ("...ms\n\n", a packets line and iputils' empty
        # closing line, is two lines, not three).
        return _assemble(events, fast, len(split) - data.endswith(b"\n"), source, strict)
    raw: bytes | None = data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:  # a code-page file without CRs: let the decoder guess
        text, raw = decode(data).text, None
    return _parse(text, source, strict, text.endswith("\n"), raw)


def _parse(
    text: str, source: str | None, strict: bool, last_ends: bool = False, raw: bytes | None = None
) -> Parsed:
    """``last_ends``: the text's last newline ends its last line (one line fewer than
    ``text.split("\n")`` has); ``raw``: the text's UTF-8 bytes, when the caller has them."""
    if len(text) < FAST_MIN_BYTES:
        lines = text.split("\n")
        return _assemble(_events(lines), None, len(lines) - last_ends, source, strict)
    split = lines_of(utf8(text) if raw is None else np.frombuffer(raw, np.uint8))
    events, fast = _bulk_events(split, _line_reader(text, split), lambda: text.split("\n"))
    return _assemble(events, fast, len(split) - last_ends, source, strict)


def _assemble(
    events: list[Event], fast: Replies | None, n_lines: int, source: str | None, strict: bool
) -> Parsed:
    runs = _Assembler(source, strict, fast, n_lines).feed(events)
    if not runs:
        raise fail(-1, "no ping output found (no header, reply or statistics line)", source)
    return Parsed(TOOL, runs)


def _bulk_events(
    lines: Lines, line: Callable[[int], str], every_line: Callable[[], list[str]]
) -> tuple[list[Event], Replies | None]:
    """Events of a long text, most replies read in bulk.  ``line(i)`` is line ``i``;
    ``every_line()`` all of them, for a text without a reply shape to read in bulk."""
    shape = None
    for i in range(min(len(lines), 2000)):
        if (shape := shape_of(line(i))) is not None:
            break
    if shape is None:
        return _events(every_line()), None
    fast = read_lines(lines, shape)
    is_fast = np.zeros(len(lines), dtype=bool)
    is_fast[fast.idx] = True
    slow_idx = np.flatnonzero(~is_fast)
    scanner = Scanner()
    events = []
    for i in slow_idx.tolist():
        events.extend(scanner.scan(i, line(i)))
    # One "fast" event per stretch of bulk-read replies between two other lines.
    before = np.searchsorted(slow_idx, fast.idx)
    cuts = np.flatnonzero(np.diff(before)) + 1
    bounds = zip(
        np.concatenate(([0], cuts)).tolist(), np.concatenate((cuts, [len(fast.idx)])).tolist()
    )
    markers = [
        Event(int(fast.idx[lo]), "fast", {"lo": lo, "hi": hi}) for lo, hi in bounds if hi > lo
    ]
    return sorted(events + markers, key=lambda e: e.idx), fast


def _line_reader(text: str, lines: Lines) -> Callable[[int], str]:
    """Line ``i`` of ``text`` as a string: a slice when byte and character offsets agree."""
    if not text.isascii():
        return text.split("\n").__getitem__
    start, end = lines.start, lines.end
    return lambda i: text[start[i] : end[i]]


class _Assembler:
    """Feeds events into runs.  A run opens at a header (``PING ...``, ``Pinging ...``, a
    ``Test-Connection`` table) or at the first packet line when the header is missing, and
    closes at the next header, when a packet line follows a complete statistics block, or
    when a second statistics block starts."""

    def __init__(self, source: str | None, strict: bool, fast: Replies | None, end: int) -> None:
        self.source, self.strict, self.fast = source, strict, fast
        self.end = end  # lines in the text
        self.acc: Acc | None = None
        self.runs: list[Run] = []
        self.skipped: list[tuple[int, str]] = []

    def feed(self, events: list[Event]) -> list[Run]:
        for e in events:
            handler = getattr(self, f"_on_{e.kind}")
            handler(e)
            if self.acc is not None and "l10n" in e.data:  # iputils translated (l10n.py)
                self.acc.lang = self.acc.lang or e.data["l10n"]
            if self.acc is not None and e.data.get("joined") and e.kind != "unknown":
                self.acc.joined.add(e.idx)
        self._close()
        if self.skipped and self.runs:
            self.runs[0].warnings.append(skipped_warning(self.skipped))
        return self.runs

    # -- run boundaries ---------------------------------------------------------------------

    def _close(self) -> None:
        if self.acc is not None:
            self._closing_line(self.acc, self.end)
            self.runs.append(finish(self.acc))
            self.acc = None

    def _open(self, idx: int, kind: str) -> Acc:
        self._close()
        self.acc = Acc(idx, idx, kind=kind)
        return self.acc

    def _for_packet(self, idx: int, kind: str) -> Acc:
        acc = self.acc
        if acc is None or acc.done or (acc.kind is not None and acc.kind != kind):
            acc = self._open(idx, kind)
        acc.kind = acc.kind or kind
        acc.last = max(acc.last, idx)
        return acc

    def _for_stats(self, idx: int, kind: str, part: str) -> Acc:
        acc = self.acc
        if acc is None or (acc.kind is not None and acc.kind != kind) or getattr(acc, part):
            acc = self._open(idx, kind)
        acc.kind = acc.kind or kind
        acc.last = max(acc.last, idx)
        return acc

    @staticmethod
    def _closing_line(acc: Acc, end: int) -> None:
        """iputils ends its statistics with one more line under the packets line, always: the
        rtt line, ``pipe N`` (several probes were outstanding at once) or an empty line
        (``putchar('\\n')`` with nothing before it; :func:`locate` keeps it in the block).
        With no reply there is no rtt line to miss (:func:`runs._rtt_missing`), yet a text
        that ends at the packets line lost that last line, which may have been ``pipe N``."""
        i = acc.counts_idx
        if (
            i is None
            or i + 1 < end
            or acc.kind != "unix"
            or "iputils" not in acc.votes
            or acc.counts is None
            or acc.counts["received"]
            or acc.pipe is not None
        ):
            return
        acc.cut = True
        acc.warnings.append(
            f"the output ends at the packets line (line {i + 1}), without the line iputils "
            "writes under it ('pipe N' or an empty line): cut short?"
        )

    # -- numbers ------------------------------------------------------------------------------

    def _ints(self, e: Event, *, ts: bool = False, **what: str) -> dict[str, int | None] | None:
        """The numbers of the line of ``e``: ``key=what`` reads ``e.data[key]`` as an integer
        within int64 (the tables' Int64; ``what`` says what was expected), ``ts`` the ``-D``
        stamp as int64 ns.  A value out of range is a ParseError at that line, or (lenient)
        None: the caller skips the line, which is recorded.  Absent values (and PowerShell's
        ``*``) are None."""
        out: dict[str, int | None] = {}
        try:
            for key, name in what.items():
                text = e.data.get(key)
                if text in (None, "", "*"):
                    out[key] = None
                elif len(text) < 19 and text.isdecimal():  # fits: the common case, fast
                    out[key] = int(text)
                else:
                    out[key] = integer(
                        text, tool=TOOL, source=self.source, line_no=e.idx + 1, what=name
                    )
            if ts:
                out["ts"] = ns = ts_ns(e.data.get("ts"))
                if ns is not None and not INT64_MIN <= ns <= INT64_MAX:
                    raise fail(
                        e.idx,
                        f"expected a -D timestamp '[<seconds>.<fraction>]', got "
                        f"[{e.data['ts']}]: out of range for int64 ns",
                        self.source,
                    )
        except ParseError as exc:
            if self.strict:
                raise
            self.skipped.append((e.idx, exc.reason))
            return None
        return out

    # -- lines that carry nothing ------------------------------------------------------------

    def _on_blank(self, e: Event) -> None:
        pass

    _on_neutral = _on_blank

    def _on_elided(self, e: Event) -> None:
        """'...' in a paste: the replies shown are a subset (``runs.finish`` keeps none)."""
        if self.acc is not None and self.acc.elided is None:
            self.acc.elided = e.idx

    def _on_unknown(self, e: Event) -> None:
        text = e.data.get("text", "")
        if self.strict:
            raise fail(
                e.idx,
                f"expected a ping reply, timeout, ICMP error or statistics line, got {text!r}",
                self.source,
                hint="parse with strict=False to skip lines that are not ping output",
            )
        self.skipped.append((e.idx, text))

    # -- Linux / BusyBox / BSD ---------------------------------------------------------------

    def _on_header(self, e: Event) -> None:
        n = self._ints(e, payload="'<n> data bytes' (the payload size)")
        if n is None:
            return
        acc = self._open(e.idx, "unix")
        acc.header = {**e.data, **n}
        tail = e.data["tail"]
        if tail == "bytes of data." or (tail == "data bytes" and not e.data["colon"]):
            acc.votes.add("iputils")  # iputils; IPv6 "PING h(ip) 56 data bytes" has no colon
        else:
            acc.votes.add("bsd-like")

    def _cut_reply(self, e: Event, kind: str, got: str) -> bool:
        """A reply cut inside its fields (the last line of a log cut short): its numbers
        are not all there.  A located ParseError, or (lenient) the line is skipped and the
        run says so."""
        if not e.data.get("cut"):
            return False
        reason = f"expected a whole reply line, got one that ends in {got!r} (cut short?)"
        if self.strict:
            raise fail(e.idx, reason, self.source)
        acc = self._for_packet(e.idx, kind)
        acc.warnings.append(f"line {e.idx + 1} skipped: {reason}")
        return True

    def _on_reply(self, e: Event) -> None:
        d = e.data
        if self._cut_reply(e, "unix", d["rest"].strip()):
            return
        seq, ttl, size, ts = d["seq"], d["ttl"], d["bytes"], d["ts"]
        # All fit int64 (the regex took digits only; seconds up to 9223372035 keep the ns):
        if (
            len(seq) < 19
            and len(size) < 19
            and (not ttl or len(ttl) < 19)
            and (not ts or ts.find(".") < 10 or ts.find(".") == 10 and ts < "9223372036")
        ):
            seq, ttl, size, ts = int(seq), int(ttl) if ttl else None, int(size), ts_ns(ts)
        else:  # the slow way, which names the number that does not fit
            n = self._ints(
                e, ts=True, seq=f"'{d['key']}=<n>'", ttl="'ttl=<n>'", bytes="'<n> bytes from'"
            )
            if n is None:
                return
            seq, ttl, size, ts = n["seq"], n["ttl"], n["bytes"], n["ts"]
        acc = self._for_packet(e.idx, "unix")
        acc.votes.add({"seq": "busybox", "icmp_req": "iputils"}.get(d["key"], "icmp_seq"))
        if d["ts"]:
            acc.votes.add("iputils")
        if d.get("glued"):
            acc.glued.add(e.idx)
        rest = d["rest"].strip()
        status = "duplicate" if "DUP!" in rest else "ok"
        message = rest if rest and status == "ok" else None
        if d["ms"] is None and (unread := unread_time().search(rest)):
            # iputils prints no time for a payload too small to carry one; a time it did
            # print and we cannot read ('time=nan ms') is named, the reply kept without it
            acc.warnings.append(
                f"line {e.idx + 1}: {unread[0]!r} is no round trip; the reply is kept without one"
            )
        rtt = censor = None
        if d["ms"] is not None:
            if d["op"] == "<":
                censor = ms_to_us(d["ms"])
                status = "censored" if status == "ok" else status
            else:
                rtt = ms_to_us(d["ms"])
        acc.row(e.idx, seq, status, rtt, censor, ttl, size, ts, message)

    def _on_fast(self, e: Event) -> None:
        assert self.fast is not None
        acc = self._for_packet(e.idx, "unix")
        acc.votes.add({"seq": "busybox", "icmp_req": "iputils"}.get(self.fast.key, "icmp_seq"))
        if self.fast.time_ns is not None:
            acc.votes.add("iputils")
        chunk = self.fast.take(e.data["lo"], e.data["hi"])
        acc.chunks.append(chunk)
        acc.last = max(acc.last, int(chunk["idx"][-1]))

    def _on_timeout(self, e: Event) -> None:
        n = self._ints(e, ts=True, seq="an icmp_seq number")
        if n is None:
            return
        acc = self._for_packet(e.idx, "unix")
        acc.votes.add("iputils" if "ts" in e.data else "macos")
        message = "no answer yet" if "ts" in e.data else "Request timeout"
        acc.row(e.idx, n["seq"], "timeout", ts=n["ts"], message=message)

    def _on_error(self, e: Event) -> None:
        n = self._ints(e, ts=True, seq="'icmp_seq=<n>'")
        if n is None:
            return
        acc = self._for_packet(e.idx, "unix")
        if "src" in e.data and "bytes" not in e.data:
            acc.votes.add("iputils")  # "From x icmp_seq=N <error>" is iputils' form
        acc.row(e.idx, n["seq"], "error", ts=n["ts"], message=e.data["msg"])

    def _on_title(self, e: Event) -> None:
        acc = self.acc
        if acc is not None and acc.kind == "unix" and acc.title and not acc.done:
            # Seen in the corpus (csc458 a2): the block printed twice, the first copy cut
            # after "30 packets transmitted".  The second, full copy is read.
            acc.warnings.append("statistics block printed twice; the full copy is used")
            acc.last = e.idx
            return
        acc = self._for_stats(e.idx, "unix", "title")
        acc.title = e.data

    def _on_packets_partial(self, e: Event) -> None:
        acc = self._for_stats(e.idx, "unix", "counts")
        acc.last = e.idx

    def _loss_out_of_range(self, e: Event, loss) -> bool:
        """A loss above 100 % (a damaged or hand-edited count) fails the schema's 0-100 check:
        a located ParseError, or (lenient) the statistics line is skipped."""
        if loss is None or float(loss) <= 100:
            return False
        if self.strict:
            raise fail(e.idx, f"expected a packet loss of 0-100 %, got {loss}%", self.source)
        self.skipped.append((e.idx, f"{loss}% packet loss"))
        return True

    def _on_packets(self, e: Event) -> None:
        n = self._ints(
            e,
            tx="'<n> packets transmitted'",
            received="'<n> received'",
            duplicates="'+<n> duplicates'",
            errors="'+<n> errors'",
            corrupted="'+<n> corrupted'",
            time_ms="'time <n>ms'",
        )
        if n is None or self._loss_out_of_range(e, e.data.get("loss")):
            return
        acc = self._for_stats(e.idx, "unix", "counts")
        acc.counts = {**e.data, **{k: v for k, v in n.items() if v is not None}}
        acc.counts_idx = e.idx
        d = e.data
        if d.get("wrapped") is not None:
            acc.last = max(acc.last, d["wrapped"])
            acc.warnings.append(
                f"lines {e.idx + 1}-{d['wrapped'] + 1}: the packets line broken in two (a copy "
                "wrapped at its width?), read as one"
            )
        if not d["packets_word"] or "time_ms" in d or d.get("errors") is not None:
            acc.votes.add("iputils")
        elif "." in d["loss"]:
            acc.votes.add("bsd")  # BSD prints "%.1f%% packet loss"
        else:
            acc.votes.add("busybox-stats")

    def _on_rtt(self, e: Event) -> None:
        extra = e.data["extra"] or ""
        pipes = [part[5:] for part in extra.split(", ") if part.startswith("pipe ")]
        n = self._ints(
            Event(e.idx, e.kind, {"pipe": pipes[-1] if pipes else None}), pipe="'pipe <n>'"
        )
        if n is None:
            return
        acc = self._for_stats(e.idx, "unix", "rtt")
        names = e.data["names"].split("/")
        values = e.data["vals"].split("/")
        if len(names) != len(values):
            raise fail(
                e.idx,
                f"expected {len(names)} values for {e.data['names']}, got {e.data['vals']!r}",
                self.source,
            )
        acc.rtt = dict(zip(names, values))
        acc.votes.add(
            {"mdev": "iputils", "stddev": "bsd", "std-dev": "bsd"}.get(names[-1], "busybox")
        )
        if n["pipe"] is not None:
            acc.pipe = n["pipe"]

    def _on_pipe(self, e: Event) -> None:
        n = self._ints(e, pipe="'pipe <n>'")
        if self.acc is not None and n is not None:
            self.acc.pipe = n["pipe"]
            self.acc.last = e.idx

    # -- Windows ping.exe --------------------------------------------------------------------

    def _on_win_header(self, e: Event) -> None:
        n = self._ints(e, payload="the payload size in bytes")
        if n is None:
            return
        acc = self._open(e.idx, "windows")
        acc.header, acc.lang = {**e.data, **n}, e.data["lang"]

    def _win_packet(self, e: Event) -> Acc:
        acc = self._for_packet(e.idx, "windows")
        acc.lang = acc.lang or e.data["lang"]
        return acc

    def _on_win_reply(self, e: Event) -> None:
        if not e.data["unit"] and e.data["ttl"] is None:
            e.data["cut"] = True  # "time=1" of "time=14ms TTL=128"
        if self._cut_reply(e, "windows", f"{e.data['op']}{e.data['ms']}"):
            return
        n = self._ints(e, ms="a time in whole ms", ttl="'TTL=<n>'", bytes="a reply size in bytes")
        if n is None:
            return
        if self._another_target(e.data["ip"], e.idx):
            self._close()
        acc = self._win_packet(e)
        acc.reply_ip = acc.reply_ip or e.data["ip"]
        ms = float(n["ms"] * 1000)
        rtt, censor, status = (None, ms, "censored") if e.data["op"] == "<" else (ms, None, "ok")
        acc.row(e.idx, None, status, rtt, censor, n["ttl"], n["bytes"])

    def _another_target(self, ip: str, idx: int) -> bool:
        """A Windows reply, with no header above, from another address than the run's
        replies (a ``for`` loop of ``ping -n 1`` over hosts, piped through ``find "TTL="``) or
        after a blank line (ping.exe prints none between replies): another ping."""
        prev = self.acc
        if prev is None or prev.header is not None or prev.kind != "windows":
            return False
        if prev.reply_ip is None or prev.done:
            return False
        return ip != prev.reply_ip or idx > prev.last + 1

    def _on_win_failure(self, e: Event) -> None:
        self._win_packet(e).row(e.idx, None, "error", message=e.data["msg"])

    def _on_win_timeout(self, e: Event) -> None:
        self._win_packet(e).row(e.idx, None, "timeout", message="Request timed out")

    def _on_win_title(self, e: Event) -> None:
        acc = self._for_stats(e.idx, "windows", "title")
        acc.title, acc.lang = e.data, acc.lang or e.data["lang"]

    def _on_win_packets(self, e: Event) -> None:
        d = e.data
        n = self._ints(
            e,
            sent="a count of packets sent",
            received="a count of packets received",
            lost="a count of packets lost",
        )
        if n is None or self._loss_out_of_range(e, d.get("loss")):
            return
        acc = self._for_stats(e.idx, "windows", "counts")
        acc.counts = {
            "tx": n["sent"],
            "received": n["received"],
            "lost": n["lost"],
            "loss": d.get("loss"),
            "cut": bool(d.get("cut")),
        }
        acc.counts_idx = e.idx
        acc.lang = acc.lang or d["lang"]
        if d.get("cut"):
            acc.warnings.append(
                f"line {e.idx + 1}: the packets line is cut short after its counts: sent, "
                "received and lost read, the loss computed from them"
            )

    def _on_win_packets_loss(self, e: Event) -> None:
        acc = self.acc
        if acc is None or acc.counts is None or acc.counts.get("loss") is not None:
            self._on_unknown(Event(e.idx, "unknown", {"text": f"({e.data['loss']}% ...)"}))
            return
        if self._loss_out_of_range(e, e.data["loss"]):
            return
        acc.counts["loss"] = e.data["loss"]
        acc.last = e.idx

    def _on_win_rtt_title(self, e: Event) -> None:
        if self.acc is not None:
            self.acc.last = e.idx
            self.acc.rtt_title = e.idx

    def _on_win_rtt(self, e: Event) -> None:
        acc = self._for_stats(e.idx, "windows", "rtt")
        acc.rtt = {"min": e.data["min"], "max": e.data["max"], "avg": e.data["avg"]}

    # -- PowerShell Test-Connection ----------------------------------------------------------

    def _on_ps_dest(self, e: Event) -> None:
        acc = self._open(e.idx, "ps7")
        acc.ps["dest"] = e.data["host"]

    def _on_ps_header(self, e: Event) -> None:
        kind = e.data["kind"]
        acc = self.acc
        if not (kind == "ps7" and acc is not None and acc.kind == "ps7" and not acc.rows):
            acc = self._open(e.idx, kind)
        acc.last = e.idx

    def _on_ps_row(self, e: Event) -> None:
        d = e.data
        n = self._ints(e, ms="a time in whole ms (or '*')", bytes="a size in bytes (or '*')")
        if n is None:
            return
        acc = self._for_packet(e.idx, d["kind"])
        acc.ps.setdefault("src", d["src"])
        acc.ps.setdefault("host", d.get("host"))
        acc.ps.setdefault("ip", d["ip"])
        ms, size = n["ms"], n["bytes"]
        status = d.get("status", "Success")
        if status != "Success":
            kind = "timeout" if status == "TimedOut" else "error"
            acc.row(e.idx, None, kind, size=size, message=status)
        elif ms == 0:
            # Test-Connection reports whole ms like ping.exe; 0 is what ping.exe prints as
            # "time<1ms" (the same IcmpSendEcho round trip), so it is censored the same way.
            acc.row(e.idx, None, "censored", censor=1000.0, size=size)
        else:
            acc.row(e.idx, None, "ok", None if ms is None else float(ms * 1000), size=size)

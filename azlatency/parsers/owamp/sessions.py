"""Sessions of one owping/twping output, line by line (``Block.take``), then as runs
(``runs_of``)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from ...errors import ParseError
from .._lines import NS_MAX, NS_MIN
from .grammar import ntp_ns


@dataclass
class Session:
    """One session (or ``-N`` sub-session) as printed."""

    variant: str  # summary, verbose, machine, raw
    first_no: int
    last_no: int
    sid: str | None = None
    ends: tuple[str, str, str, str] | None = None  # from, from port, to, to port
    packets: list[dict] = field(default_factory=list)
    lines: dict[str, re.Match] = field(default_factory=dict)  # summary lines by kind
    delays: dict[str, re.Match] = field(default_factory=dict)
    jitters: dict[str, re.Match] = field(default_factory=dict)
    percentiles: list[re.Match] = field(default_factory=list)
    hops: list[str] = field(default_factory=list)
    machine: dict[str, tuple[int, str]] = field(default_factory=dict)
    buckets: list[tuple[int, ...]] = field(default_factory=list)
    closed: set[str] = field(default_factory=set)  # -M tags closed
    summary: bool = False  # the summary lines began
    done: bool = False  # the form's last line was printed
    sent_at: dict[int, int] = field(default_factory=dict)  # -R: seq → send timestamp


@dataclass
class Block:
    """One invocation's output."""

    tool: str
    source: str | None
    strict: bool
    command: str | None = None
    sessions: list[Session] = field(default_factory=list)
    messages: list[tuple[int, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    offset_warning: int | None = None
    pending: tuple[int, re.Match] | None = None  # a header waiting for its SID line
    tag: str | None = None

    @property
    def cur(self) -> Session | None:
        return self.sessions[-1] if self.sessions else None

    def take(self, kind: str, m: re.Match, no: int) -> None:
        bad = next((g for g in _NUMERIC if g in m.re.groupindex and not _held(m[g])), None)
        if bad is not None:  # a damaged exponent of a million digits or more
            self._unexpected(no, f"{kind} line with {m[bad]!r} (a number was expected)")
            return
        handler = getattr(self, f"_{kind}", None)
        if handler is not None:
            handler(m, no)
        elif kind in ("first", "last", "counts", "proc", "percentiles"):
            self._summary(kind, m, no)
        # a header belongs to the session its SID line opens (or continues): not the last one
        if self.cur is not None and kind not in ("message", "approx", "offset", "header"):
            self.cur.last_no = no

    # -- messages ------------------------------------------------------------------------------

    def _message(self, m: re.Match, no: int) -> None:
        self.messages.append((no, m["text"]))

    def _approx(self, m: re.Match, no: int) -> None:
        pass  # "Approximately 3.9 seconds until results available": the test's length

    def _offset(self, m: re.Match, no: int) -> None:
        self.offset_warning = no  # twping: a reflect or send delay came out negative

    # -- text sessions -------------------------------------------------------------------------

    def _header(self, m: re.Match, no: int) -> None:
        self.pending = (no, m)

    def _sid(self, m: re.Match, no: int) -> None:
        if self.pending is None:
            self._unexpected(no, "a SID line without the statistics header above it")
            return
        hno, h = self.pending
        self.pending = None
        cur = self.cur
        # -v prints the header (and SID) twice: above the packets and above the summary
        if cur is not None and cur.sid == m["sid"] and cur.variant == "verbose" and not cur.summary:
            return
        ends = (h["from"], h["fport"], h["to"], h["tport"])
        self.sessions.append(Session("summary", hno, no, sid=m["sid"], ends=ends))

    def _packet(self, m: re.Match, no: int) -> None:
        s = self._text_session(no)
        if s is None:
            return
        s.variant = "verbose"
        s.packets.append({"no": no, "m": m, "seq": int(m["seq"])})

    def _lost(self, m: re.Match, no: int) -> None:
        s = self._text_session(no)
        if s is not None:
            s.variant = "verbose"
            s.packets.append({"no": no, "m": None, "seq": int(m["seq"])})

    def _text_session(self, no: int) -> Session | None:
        cur = self.cur
        if cur is None or cur.variant not in ("summary", "verbose") or cur.summary:
            self._unexpected(no, "a packet line outside a session (its header is missing)")
            return None
        return cur

    def _summary(self, kind: str, m: re.Match, no: int) -> None:
        cur = self.cur
        if cur is None or cur.variant not in ("summary", "verbose"):
            self._unexpected(no, f"a summary line ({kind}) outside a session")
            return
        cur.summary = True
        if kind in cur.lines and kind != "percentiles":
            self._unexpected(no, f"a second '{kind}' line in one session")
            return
        cur.lines[kind] = m

    def _delay(self, m: re.Match, no: int) -> None:
        self._summary(f"delay:{m['what']}", m, no)
        if self.cur is not None and self.cur.summary:
            self.cur.delays[m["what"]] = m

    def _jitter(self, m: re.Match, no: int) -> None:
        self._summary(f"jitter:{m['what']}", m, no)
        if self.cur is not None and self.cur.summary:
            self.cur.jitters[m["what"]] = m

    def _percentile(self, m: re.Match, no: int) -> None:
        if self.cur is not None:
            self.cur.percentiles.append(m)

    def _hops(self, m: re.Match, no: int) -> None:
        self._summary(f"hops:{m['what'] or ''}", m, no)
        cur = self.cur
        if cur is None or not cur.summary:
            return
        cur.hops.append(m.group(0).strip())
        # twping's summary ends with its reflect hops (it prints no reordering)
        if self.tool == "twping" and (m["what"] or "").strip() == "reflect":
            cur.done = True

    def _reordering(self, m: re.Match, no: int) -> None:
        self._summary("reordering", m, no)
        if self.cur is not None and self.cur.summary:
            self.cur.done = True  # owping's summary ends with its reordering line

    # -- -M ------------------------------------------------------------------------------------

    def _machine(self, m: re.Match, no: int) -> None:
        key, value = m["key"], m["value"]
        cur = self.cur
        if key == "SUMMARY":
            self.sessions.append(Session("machine", no, no))
            return
        if cur is None or cur.variant != "machine":
            self._unexpected(no, f"'{key}' outside a SUMMARY block (its first line is missing)")
            return
        if key in cur.machine:
            self._unexpected(no, f"a second '{key}' in one SUMMARY block")
            return
        whole = _COUNT_KEYS.match(key) is not None
        if key not in _TEXT_KEYS and not (
            (_COUNT if whole else _NUMBER).match(value)
            and (whole or _held(value))
            and (key not in ("START_TIME", "END_TIME") or _a_time(int(value)))
            and (key != "BUCKET_WIDTH" or 0 < float(value) < math.inf)
        ):
            what = "a whole number" if whole else "a number"
            self._unexpected(no, f"'{key}' value {value!r} ({what} was expected)")
            return
        cur.machine[key] = (no, value)
        if key == "SID":
            cur.sid = value
        # twping's block ends with its TTLs (no reordering); TTL buckets may follow
        if self.tool == "twping" and key == "MAXTTL_BCK":
            cur.done = True

    def _tag(self, m: re.Match, no: int) -> None:
        cur = self.cur
        if cur is None or cur.variant != "machine":
            self._unexpected(no, f"<{m['tag']}> outside a SUMMARY block")
            return
        if m["end"]:
            cur.closed.add(m["tag"])
            if m["tag"] == "NREORDERING" or (self.tool == "twping" and m["tag"] == "TTLBUCKETS"):
                cur.done = True
        else:
            self.tag = m["tag"]
            if self.tool == "twping" and m["tag"] == "TTLBUCKETS":
                cur.done = False  # ... until </TTLBUCKETS>

    def _bucket(self, m: re.Match, no: int) -> None:
        cur = self.cur
        if cur is not None and self.tag == "BUCKETS":
            cur.buckets.append(tuple(int(v) for v in m["values"].split()))

    # -- -R ------------------------------------------------------------------------------------

    def _raw(self, m: re.Match, no: int) -> None:
        rec = _raw_record(m, self.tool)
        cur = self.cur
        if cur is None or cur.variant != "raw" or _new_raw_session(cur, rec):
            self.sessions.append(Session("raw", no, no))
            cur = self.cur
        rec["no"] = no
        cur.packets.append(rec)
        cur.sent_at.setdefault(rec["seq"], rec["st"])

    # -- end -----------------------------------------------------------------------------------

    def _unexpected(self, no: int, what: str) -> None:
        if self.strict:
            raise ParseError(self.tool, self.source, no, f"unexpected {what}")
        self.warnings.append(f"line {no} skipped: {what}")

    def close(self) -> None:
        if self.pending is not None:
            no, _ = self.pending
            self.warnings.append(f"line {no}: a statistics header without its SID line (cut?)")


_TEXT_KEYS = {"SID", "FROM_HOST", "FROM_ADDR", "FROM_PORT", "TO_HOST", "TO_ADDR", "TO_PORT", "DSCP"}
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$")
# Keys OWPStatsPrintMachine prints as integers (counts, 64-bit NTP timestamps, the loss
# timeout in 32.32 fixed point, flags and TTLs): '8598943.0033' there is no value of its own.
_COUNT_KEYS = re.compile(
    r"(?:SENT|LOST|DUPS(?:_FWD|_BCK)?|(?:START|END)_TIME|LOSS_TIMEOUT|PACKET_PADDING|"
    r"(?:SESSION|SAMPLE)_PACKET_COUNT|SESSION_FINISHED|SYNC|(?:MIN|MAX)TTL(?:_FWD|_BCK)?)$"
)
_COUNT = re.compile(r"^\d+$")


# The groups of the line patterns that hold a delay (grammar.NUM), read with Decimal.
_NUMERIC = ("min", "p50", "max", "err", "v", "d", "fwd", "bck", "proc")


def _held(text: str | None) -> bool:
    """A number Decimal holds (its exponent within a million); one beyond a float's range
    ('1e400') is read, and its summary value left out by the run (not a finite number)."""
    if text is None or text.strip() == "nan":  # owping's "no value"
        return True
    try:
        Decimal(text)
    except InvalidOperation:
        return False
    return True


def _a_time(ntp: int) -> bool:
    """An OWAMP timestamp the tables can hold (int64 ns since 1970: years 1677-2262)."""
    return NS_MIN <= ntp_ns(ntp) <= NS_MAX


def _raw_record(m: re.Match, tool: str) -> dict:
    st, rt = int(m["st"]), int(m["rt"])
    rec = {"seq": int(m["seq"]), "st": st, "rt": rt, "ttl": int(m["ttl"])}
    if tool == "twping":
        rec.update(srt=int(m["srt"]), rst=int(m["rst"]), rseq=int(m["rseq"]))
        rec["lost"] = rec["srt"] == 0 and rt == 0
    else:
        rec["lost"] = rt == 0
    rec["sync"] = m["ss"] == "1" and m["rs"] == "1"
    return rec


def _new_raw_session(cur: Session, rec: dict) -> bool:
    """owping -R prints a session's received records, then its lost ones, with no line
    between sessions: a record starts the next session when its number was seen with another
    send time (a duplicate has the same), or when it was received after lost ones."""
    if not rec["lost"] and cur.packets and cur.packets[-1]["lost"]:
        return True
    return cur.sent_at.get(rec["seq"], rec["st"]) != rec["st"]

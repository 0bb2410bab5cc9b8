"""The lines owping and twping print (perfsonar/owamp 5.2.3: ``owping/owping.c``,
``owamp/stats.c``), as regular expressions, and the numbers in them.

owping prints ``%.3g`` in the unit of ``-n`` (``3.62e+03 us``), ``nan`` where a statistic has
no value; ``-M`` prints ``%g`` seconds; ``-R`` prints OWAMP timestamps, 64-bit NTP fixed point
(32 bits of seconds since 1900, 32 of fraction) as ``%020`` integers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import cache

NUM = r"(?:nan|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)"
UNIT = r"(?:ns|us|ms|s)"
UNIT_US = {"ns": Decimal("0.001"), "us": Decimal(1), "ms": Decimal(1000), "s": Decimal(10**6)}
# owping.c: ping_ctx.opt.bucket_width = 0.0001 (seconds) unless -b says otherwise
DEFAULT_BUCKET_S = Decimal("0.0001")
NTP_UNIX = 2_208_988_800  # seconds from 1900-01-01 (NTP) to 1970-01-01
# OWPStatsPrintMachine's keys (version 3.0): _FWD/_BCK/_PROC are twping's halves
MACHINE_KEYS = (
    r"SUMMARY|SID|(?:FROM|TO)_(?:HOST|ADDR|PORT)|(?:UNIX_)?(?:START|END)_TIME|DSCP|"
    r"LOSS_TIMEOUT|PACKET_PADDING|(?:SESSION|SAMPLE)_PACKET_COUNT|BUCKET_WIDTH|"
    r"SESSION_FINISHED|SENT|SYNC|LOST|(?:MAXERR|DUPS|MEDIAN|PDV)(?:_FWD|_BCK)?|"
    r"(?:MIN|MAX)(?:_FWD|_BCK|_PROC)?|(?:MIN|MAX)TTL(?:_FWD|_BCK)?"
)
TAGS = ("BUCKETS", "TTLBUCKETS", "NREORDERING")


def to_us(text: str, unit: str) -> float | None:
    """A printed delay in µs; ``None`` for ``nan`` (owping's "no value")."""
    if text.strip() == "nan":
        return None
    return float(Decimal(text) * UNIT_US[unit])


def ntp_ns(ts: int) -> int:
    """An OWAMP timestamp (NTP 32.32 fixed point) as integer ns since the Unix epoch."""
    return ((ts >> 32) - NTP_UNIX) * 10**9 + (((ts & 0xFFFFFFFF) * 10**9 + 2**31) >> 32)


def ntp_delay_us(a: int, b: int) -> float:
    """``b - a`` of two OWAMP timestamps in µs, exact to the float."""
    return (b - a) * 10**6 / 2**32


@dataclass(frozen=True)
class Grammar:
    tool: str
    message: re.Pattern[str]  # 'owping: NTP: Status UNSYNC ...', 'owping: Unable to ...'
    header: re.Pattern[str]
    sid: re.Pattern[str]
    packet: re.Pattern[str]  # -v
    lost: re.Pattern[str]
    first: re.Pattern[str]
    last: re.Pattern[str]
    counts: re.Pattern[str]
    delay: re.Pattern[str]
    proc: re.Pattern[str]
    jitter: re.Pattern[str]
    percentiles: re.Pattern[str]
    percentile: re.Pattern[str]
    hops: re.Pattern[str]
    reordering: re.Pattern[str]
    approx: re.Pattern[str]
    offset: re.Pattern[str]
    machine: re.Pattern[str]
    tag: re.Pattern[str]
    bucket: re.Pattern[str]
    raw: re.Pattern[str]


_OW_PACKET = (
    rf"^\s*seq_no=(?P<seq>\d+)\s+delay=(?P<d>{NUM}) (?P<unit>{UNIT})\s+"
    rf"\((?:(?P<sync>sync), err=(?P<err>{NUM}) {UNIT}|(?P<unsync>unsync))\)"
    rf"(?: sent=(?P<sent>\d+\.\d+) recv=(?P<recv>\d+\.\d+))?\s*$"
)
_TW_PACKET = (
    rf"^\s*seq_no=(?P<seq>\d+)\s+fwd_delay=(?P<fwd>{NUM}) (?P<unit>{UNIT}) "
    rf"bck_delay=(?P<bck>{NUM}) {UNIT} delay=(?P<d>{NUM}) {UNIT} "
    rf"proc_delay=(?P<proc>{NUM}) {UNIT}\s+\(err=(?P<err>{NUM}) {UNIT}\)"
    rf"(?: sent=(?P<sent>\d+\.\d+) recv=(?P<srecv>\d+\.\d+) reflected=(?P<refl>\d+\.\d+) "
    rf"recv=(?P<recv>\d+\.\d+))?\s*$"
)
_T = r"\d{20}"  # OWP_TSTAMPFMT
_E = r"\S+"  # an error estimate, %g
_OW_RAW = (
    rf"^\s*(?P<seq>\d+) (?P<st>{_T}) (?P<ss>\d) {_E} (?P<rt>{_T}) (?P<rs>\d) {_E} (?P<ttl>\d+)\s*$"
)
_TW_RAW = (
    rf"^\s*(?P<seq>\d+) (?P<st>{_T}) (?P<ss>\d) {_E} (?P<srt>{_T}) (?P<srs>\d) {_E} (?P<sttl>\d+) "
    rf"(?P<rseq>\d+) (?P<rst>{_T}) (?P<rss>\d) {_E} (?P<rt>{_T}) (?P<rs>\d) {_E} (?P<ttl>\d+)\s*$"
)


@cache
def grammar(tool: str) -> Grammar:
    two = tool == "twping"
    delays = "round-trip time|send time|reflect time" if two else "one-way delay"
    jitters = "two-way|send|reflect" if two else "one-way"
    dups = (
        r"(?P<dups>\d+) send duplicates, (?P<rdups>\d+) reflect duplicates"
        if two
        else r"(?P<dups>\d+) duplicates"
    )
    return Grammar(
        tool=tool,
        message=re.compile(rf"^\s*{tool}: (?P<text>.*?)\s*$"),
        header=re.compile(
            rf"^\s*--- {tool} statistics from \[(?P<from>[^\]]*)\]:(?P<fport>\S*) "
            rf"to \[(?P<to>[^\]]*)\]:(?P<tport>\S*) ---\s*$"
        ),
        sid=re.compile(r"^\s*SID:\s+(?P<sid>[0-9a-fA-F]+)\s*$"),
        packet=re.compile(_TW_PACKET if two else _OW_PACKET),
        lost=re.compile(r"^\s*seq_no=(?P<seq>\d+)\s+\*LOST\*\s*$"),
        first=re.compile(r"^\s*first:\s+(?P<t>\S+)\s*$"),
        last=re.compile(r"^\s*last:\s+(?P<t>\S+)\s*$"),
        counts=re.compile(
            rf"^\s*(?P<sent>\d+) sent, (?P<lost>\d+) lost \((?P<pct>\d+(?:\.\d+)?|-?nan)%\), {dups}\s*$"
        ),
        delay=re.compile(
            rf"^\s*(?P<what>{delays}) min/median/max = (?P<min>{NUM})/(?P<p50>{NUM})/"
            rf"(?P<max>{NUM}) (?P<unit>{UNIT}), \((?:err=(?P<err>{NUM}) {UNIT}|(?P<unsync>unsync))\)"
            r"\s*$"
        ),
        proc=re.compile(
            rf"^\s*reflector processing time min/max = (?P<min>{NUM})/(?P<max>{NUM}) "
            rf"(?P<unit>{UNIT})\s*$"
        ),
        jitter=re.compile(
            rf"^\s*(?P<what>{jitters}) jitter = (?P<v>{NUM}) (?P<unit>{UNIT}) \(P95-P50\)\s*$"
        ),
        percentiles=re.compile(r"^\s*Percentiles:\s*$"),
        percentile=re.compile(rf"^\s*(?P<q>\d+(?:\.\d+)?): (?P<v>{NUM}) (?P<unit>{UNIT})\s*$"),
        hops=re.compile(
            r"^\s*(?P<what>send |reflect )?(?:hops = (?P<hops>\d+) \(consistently\)|TTL not "
            r"reported|hops takes (?P<n>\d+) values; min hops = (?P<lo>\d+), max hops = "
            r"(?P<hi>\d+))\s*$"
        ),
        reordering=re.compile(
            r"^\s*(?:no reordering|no \d+-reordering|\d+-reordering = [\d.]+%|"
            r"\d+-reordering not handled)\s*$"
        ),
        approx=re.compile(r"^\s*Approximately [\d.]+ seconds until results available\s*$"),
        offset=re.compile(
            r"^\s*Directional delays may be inaccurate due to out of sync clocks!\s*$"
        ),
        # tab-separated as printed; spaces where a copy expanded the tabs (a terminal, a page)
        machine=re.compile(rf"^(?P<key>{MACHINE_KEYS})[ \t]+(?P<value>\S*)\s*$"),
        tag=re.compile(rf"^\s*<(?P<end>/)?(?P<tag>{'|'.join(TAGS)})>\s*$"),
        bucket=re.compile(r"^[ \t]+(?P<values>-?\d+(?:[ \t]+\d+){1,3})\s*$"),
        raw=re.compile(_TW_RAW if two else _OW_RAW),
    )

"""The qperf command line, read the way qperf 0.4.11 reads it (``qperf.c``: ``Options[]``,
``do_option``, ``str_size``, ``arg_time``, ``parse_loop``, ``do_loop``).

Only what the output cannot say is taken from it: the server, ``-t``, ``-m`` and the ``-oo``
loops, whose values qperf prints only with ``-vu``.  Tests run in command order; for each test
the loops run nested, the first ``-oo`` outermost (``do_loop``), one result block per value.
"""

from __future__ import annotations

import ipaddress
import itertools
import math
import re
import shlex
from dataclasses import dataclass, field

# Options that take an argument (types host/int/loop/lp/precision/size/sl/str/time/wait in
# qperf 0.4.11's Options[], old aliases included).  Every other option is a flag.
_WITH_ARG = frozenset(
    (
        "--access_recv",
        "--affinity",
        "--alt_port",
        "--cpu_affinity",
        "--cq_poll",
        "--flip",
        "--host",
        "--id",
        "--ip_port",
        "--listen_port",
        "--loc_affinity",
        "--loc_alt_port",
        "--loc_cpu_affinity",
        "--loc_cq_poll",
        "--loc_id",
        "--loc_poll",
        "--loc_rate",
        "--loc_rd_atomic",
        "--loc_service_level",
        "--loc_sock_buf_size",
        "--loc_src_path_bits",
        "--loc_static_rate",
        "--loc_timeout",
        "--loop",
        "--msg_size",
        "--mtu_size",
        "--no_msgs",
        "--poll",
        "--port",
        "--precision",
        "--rate",
        "--rd_atomic",
        "--rem_affinity",
        "--rem_alt_port",
        "--rem_cpu_affinity",
        "--rem_cq_poll",
        "--rem_id",
        "--rem_poll",
        "--rem_rate",
        "--rem_rd_atomic",
        "--rem_service_level",
        "--rem_sock_buf_size",
        "--rem_src_path_bits",
        "--rem_static_rate",
        "--rem_timeout",
        "--service_level",
        "--sock_buf_size",
        "--src_path_bits",
        "--static_rate",
        "--time",
        "--timeout",
        "--use_cm",
        "--wait",
        "--wait_server",
        "-Ar",
        "-H",
        "-M",
        "-P",
        "-R",
        "-S",
        "-T",
        "-W",
        "-a",
        "-ap",
        "-ar",
        "-ca",
        "-cm",
        "-cp",
        "-e",
        "-f",
        "-i",
        "-ip",
        "-lP",
        "-lR",
        "-lS",
        "-lT",
        "-la",
        "-lap",
        "-lca",
        "-lcp",
        "-li",
        "-lnr",
        "-lp",
        "-lr",
        "-lsb",
        "-lsl",
        "-lsp",
        "-lsr",
        "-lto",
        "-m",
        "-mt",
        "-n",
        "-nr",
        "-oo",
        "-p",
        "-r",
        "-rP",
        "-rR",
        "-rS",
        "-rT",
        "-ra",
        "-rap",
        "-rca",
        "-rcp",
        "-ri",
        "-rnr",
        "-rr",
        "-rsb",
        "-rsl",
        "-rsp",
        "-rsr",
        "-rto",
        "-sb",
        "-sl",
        "-sp",
        "-sr",
        "-t",
        "-to",
        "-ws",
    )
)
# str_size: k/kb = 10^3, K/kib = 2^10 (case matters), likewise m/M and g/G.
_SIZE_SUFFIX = {
    "": 1,
    "k": 1000,
    "kb": 1000,
    "m": 1000**2,
    "mb": 1000**2,
    "g": 1000**3,
    "gb": 1000**3,
    "K": 1024,
    "kib": 1024,
    "M": 1024**2,
    "mib": 1024**2,
    "G": 1024**3,
    "gib": 1024**3,
}
_TIME_SUFFIX = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
_NUMBER = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)(.*)$")
# Loop variables are option names without dashes; these two name the message size.
_MSG_SIZE_VARS = ("msg_size", "m")

# Default message size of each test when -m is not given (socket.c ip_parameters, rds.c
# set_parameters, rdma.c rd_params).  The atomics set none.
_DEFAULTS = {
    "tcp_bw": 65536,
    "sdp_bw": 65536,
    "udp_bw": 32768,
    "sctp_bw": 32768,
    "rds_bw": 8192,
    "ud_bw": 2048,
    "ud_bi_bw": 2048,
}


def default_msg_size(test: str) -> int | None:
    if test in _DEFAULTS:
        return _DEFAULTS[test]
    if test.endswith("_lat"):
        return 1
    if test.startswith(("rc_", "uc_", "xrc_")) and test.endswith("_bw"):
        return 65536
    return None


def size_of(text: str) -> int | None:
    """``str_size``: '64K' → 65536, '1k' → 1000; None when qperf would reject it."""
    m = _NUMBER.match(text)
    if not m or m.group(2) not in _SIZE_SUFFIX:
        return None
    value = float(m.group(1)) * _SIZE_SUFFIX[m.group(2)]
    # qperf keeps sizes in a uint32; a 400-digit size is inf here, and int(inf) would raise
    return int(value) if value < 2**32 else None


def time_of(text: str) -> float | None:
    m = _NUMBER.match(text)
    if not m or m.group(2).lower() not in _TIME_SUFFIX:
        return None
    value = float(m.group(1)) * _TIME_SUFFIX[m.group(2).lower()]
    return float(int(value)) if math.isfinite(value) else None  # whole seconds, as qperf


@dataclass
class Loop:
    var: str
    values: list[int]


@dataclass
class Command:
    text: str
    host: str | None = None
    time_s: float | None = None
    msg_size: int | None = None
    loops: list[Loop] = field(default_factory=list)
    tests: list[str] = field(default_factory=list)
    sets_msg_size: bool = False  # -m or a msg_size loop given, even if unreadable

    @property
    def host_is_ip(self) -> bool:
        try:
            ipaddress.ip_address(self.host or "")
        except ValueError:
            return False
        return True

    def loop_values(self) -> list[dict[str, int]]:
        """One dict per result block of a test: loop variable → value (msg_size named so)."""
        if not self.loops:
            return []
        names = ["msg_size" if lp.var in _MSG_SIZE_VARS else lp.var for lp in self.loops]
        combos = itertools.product(*(lp.values for lp in self.loops))
        return [dict(zip(names, combo)) for combo in combos]


def _loop(spec: str) -> Loop | None:
    """``Var:Init:Last:Incr`` with ``*N`` for a multiplying increment (parse_loop)."""
    parts = (spec.split(":") + [""] * 4)[:4]
    var = parts[0] or "msg_size"
    mult = parts[3].startswith("*")
    incr = size_of(parts[3].lstrip("*")) if parts[3] else 0
    init = size_of(parts[1]) if parts[1] else (1 if mult else 0)
    last = size_of(parts[2]) if parts[2] else None
    if None in (incr, init, last) or not incr or incr < 1 or (mult and incr < 2):
        return None  # qperf itself refuses these (or would loop forever)
    values, v = [], init
    while v <= last and len(values) < 10_000:
        values.append(v)
        v = v * incr if mult else v + incr
    return Loop(var, values)


def parse_command(text: str) -> Command:
    """Read a ``qperf ...`` command line; unknown or malformed parts are left out."""
    cmd = Command(text.strip())
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    while words and not re.search(r"(?:^|[/\\])qperf(?:\.exe)?$", words[0]):
        words.pop(0)  # sudo, env ...
    args = iter(words[1:])
    for word in args:
        if word.startswith("-") and len(word) > 1:
            value = next(args, None) if word in _WITH_ARG else None
            _option(cmd, word, value)
        elif cmd.host is None:
            cmd.host = None if word.startswith("$") else word
            if cmd.host is None:
                cmd.host = ""  # a shell variable: the host is taken, but unknown
        else:
            cmd.tests.append(word)
    if cmd.host == "":
        cmd.host = None
    return cmd


def _option(cmd: Command, name: str, value: str | None) -> None:
    if value is None:
        return
    if name in ("-t", "--time"):
        cmd.time_s = time_of(value)
    elif name in ("-m", "--msg_size"):
        cmd.msg_size = size_of(value)
        cmd.sets_msg_size = True
    elif name in ("-oo", "--loop"):
        loop = _loop(value)
        cmd.sets_msg_size |= (value.split(":")[0] or "msg_size") in _MSG_SIZE_VARS
        if loop is not None:
            cmd.loops.append(loop)
    elif name in ("-H", "--host") and not value.startswith("$"):
        cmd.host = value

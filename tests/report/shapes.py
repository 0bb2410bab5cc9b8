"""Campaign shapes built from the real captures in ``tests/fixtures`` (copied byte for byte
under a new name; the fixtures' SOURCES.md say how each was made).

Each shape is a dump a user could bring that the bundled campaigns do not resemble; the
report must hold on every one and say what the data could not answer.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures"

# shape -> {path in the campaign: fixture}; "campaign.yaml" entries are text, not fixtures
SHAPES: dict[str, dict[str, str]] = {
    # only ping and iperf3, no campaign.yaml, nothing says where the VMs were
    "ping-iperf3": {
        "ping.txt": "ping/ping--iputils-20221126-linux-D-c5-timestamps.txt",
        "iperf3.json": "iperf3/iperf3--3.12-linux-J-tcp.json",
        "iperf3-P4.txt": "iperf3/iperf3--3.12-linux-P4-tcp-parallel.txt",
    },
    # three zone pairs, each measured one way only (client in the lower zone)
    "one-direction": {
        "campaign.yaml": 'rules:\n  - path: "az{src_zone}-az{dst_zone}/{_}"\n',
        "az1-az2/ping.txt": "ping/ping--iputils-20221126-linux-D-c5-timestamps.txt",
        "az1-az3/ping.txt": "ping/ping--iputils-20221126-linux-c15-i0.2-gap-partial-loss.txt",
        "az2-az3/ping.txt": "ping/ping--busybox-1.35.0-linux-c4-ok.txt",
    },
    # sockperf (console and --full-log) and ping, no campaign.yaml at all
    "no-yaml": {
        "sockperf.txt": "sockperf/sockperf--3.7-linux-tcp-pingpong.txt",
        "sockperf-fulllog.csv": "sockperf/sockperf--3.7-linux-tcp-m1400-mps2000-fullrtt-fulllog-rtt.csv",
        "ping.txt": "ping/ping--iputils-20221126-linux-c15-i0.2-gap-partial-loss.txt",
    },
    # Windows outputs only: ping (German cp850, English UTF-16 with time<1ms), ntttcp
    "windows": {
        "ping-de.txt": "ping/ping--win10-windows-de-cp850-timeout-unreachable-transcribed.txt",
        "ping-en.txt": "ping/ping--win10-windows-en-6-ipv6-censored-transcribed.txt",
        "ntttcp.txt": "ntttcp/ntttcp--5.33-windows-r-m-receiver.txt",
    },
    # one markdown note with a pasted table of printed values
    "markdown-note": {
        "notes.md": "reported_csv/reported_csv--1-any-none-markdown-note.md",
    },
    # good data beside a file no parser accepts (an iperf3 run refused by the server)
    "parse-failure": {
        "ping.txt": "ping/ping--busybox-1.35.0-linux-c4-ok.txt",
        "iperf3.txt": "iperf3/iperf3--3.12-linux-p5999-refused-error.txt",
    },
}


def build(root: Path, shapes: dict[str, dict[str, str]] = SHAPES) -> dict[str, Path]:
    """Write every shape as ``root/<shape>/``; return shape -> folder."""
    out = {}
    for name, files in shapes.items():
        folder = root / name
        for rel, src in files.items():
            dest = folder / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            if rel == "campaign.yaml":
                dest.write_text(src, encoding="utf-8")
            else:
                shutil.copyfile(FIXTURES / src, dest)
        out[name] = folder
    return out

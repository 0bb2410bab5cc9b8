"""iperf3: parse speed on long tests and long server logs, against the floor of reading them.

No other iperf3 parser is installed to compare with (jc has none), so each input is measured
against the cheapest thing that still reads every value, in the same run on the same text:

* ``-J -P 4`` for one hour: the captured 3.12 document (``tests/fixtures/iperf3``) with its
  interval list grown to 3,600 intervals (18,000 interval rows).  Peer: ``json.loads``.
* text ``-P 4`` for one hour: the captured 3.12 console output with its interval groups
  repeated to 3,600 seconds (times rewritten as iperf3 prints them).  Peer: one
  ``re.findall`` of the interval lines' numbers.
* a server log of 1,200 tests: the captured six-test 3.12 ``iperf3 -s`` log repeated 200
  times.  Peer: the same ``re.findall``.

Reported: seconds for ``parse`` and for ``azlatency.read`` (typed tables), rows or runs per
second, and parse / peer (how many times the floor the parser costs).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from _timing import best_of  # benchmarks/ is on sys.path (run directly or by run_all)

HERE = Path(__file__).resolve().parent
FX = HERE.parent / "tests" / "fixtures" / "iperf3"
SECONDS = 3_600
SERVER_REPEAT = 200
REPEAT = 9
_NUMBERS = re.compile(
    r"^\[\s*(?:\d+|SUM)\]\s+([\d.]+)-\s*([\d.]+)\s+sec\s+([\d.]+) (\w+)\s+"
    r"([\d.]+) (\S+)",
    re.M,
)


def _json_hour() -> str:
    doc = json.loads((FX / "iperf3--3.12-linux-J-P4-tcp-parallel-dupkeys.json").read_text())
    first = doc["intervals"][0]
    intervals = []
    for k in range(SECONDS):
        iv = json.loads(json.dumps(first))
        for obj in [*iv["streams"], iv["sum"]]:
            obj["start"], obj["end"] = float(k), float(k + 1)
        intervals.append(iv)
    doc["intervals"] = intervals
    return json.dumps(doc, indent=1)


def _text_hour() -> str:
    lines = (FX / "iperf3--3.12-linux-P4-tcp-parallel.txt").read_text().split("\n")
    head, group, tail = lines[:6], lines[6:12], lines[18:]  # 4 streams + SUM + separator
    body = []
    for k in range(SECONDS):
        stamp = f"{k:6.2f}-{k + 1:<6.2f}"
        body.extend(
            re.sub(r"\s*\d+\.\d+-\d+\.\d+\s*", f" {stamp} ", x, count=1) if x.startswith("[") else x
            for x in group
        )
    return "\n".join(head + body + tail)


def _measure(name: str, text: str, tool_parse, peer) -> dict:
    import azlatency

    # best of REPEAT: at 10-200 ms a call, three calls left the ratio 10 % apart run to run
    t_parse, parsed = best_of(lambda: tool_parse(text), repeat=REPEAT)
    t_read, tables = best_of(lambda: azlatency.read(text, tool="iperf3"), repeat=1)
    t_peer, found = best_of(lambda: peer(text), repeat=REPEAT)
    rows = len(tables.samples)
    return {
        f"{name}_bytes": len(text),
        f"{name}_runs": len(parsed.runs),
        f"{name}_sample_rows": rows,
        f"{name}_parse_s": round(t_parse, 3),
        f"{name}_read_s": round(t_read, 3),
        f"{name}_peer_s": round(t_peer, 4),
        f"{name}_rows_per_s": round(rows / t_read) if rows else None,
        f"{name}_runs_per_s": round(len(parsed.runs) / t_parse),
        f"{name}_parse_over_peer": round(t_parse / t_peer, 2),
    }


def main() -> dict:
    from azlatency.parsers import iperf3

    server = (FX / "iperf3--3.12-linux-s-server-six-tests.txt").read_text() * SERVER_REPEAT
    out: dict = {"peer": "json.loads (JSON) / re.findall of interval numbers (text)"}
    out |= _measure("json_hour_P4", _json_hour(), iperf3.parse, json.loads)
    out |= _measure("text_hour_P4", _text_hour(), iperf3.parse, _NUMBERS.findall)
    out |= _measure("server_log_1200_tests", server, iperf3.parse, _NUMBERS.findall)
    return out


if __name__ == "__main__":
    print(json.dumps(main(), indent=1))

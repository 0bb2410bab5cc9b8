"""qperf and fio: parse speed on big inputs, against the floor of reading the same text.

No other parser of either format exists to compare with (jc has none), so each is measured
against the cheapest thing that still reads every value, in the same run on the same text:

* qperf: a long sweep log — the captured ``-vv`` output of four tests (conf, tcp_bw, tcp_lat,
  udp_bw, udp_lat; ``tests/fixtures/qperf``) repeated 2,000 times, 8,000 runs and 200,000 lines,
  as ``-oo`` sweeps produce.  Peer: one ``re.findall`` of every ``key = value`` pair.
* fio: one ``json+`` document with 500 jobs (the captured randread job with its 157 histogram
  bins, repeated).  Peer: ``json.loads`` of the same text.

Reported: seconds for ``parse`` and for ``azlatency.read`` (the whole pipeline, typed tables),
runs per second, and the ratio parse / peer (how many times the floor the parser costs).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from _timing import best_of  # benchmarks/ is on sys.path (run directly or by run_all)

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "tests" / "fixtures"
QPERF_FILE = FIXTURES / "qperf" / "qperf--0.4.11-linux-vv-conf-tcp-udp.txt"
FIO_FILE = FIXTURES / "fio" / "fio--3.33-linux-jsonplus-randread-bins.json"
QPERF_REPEAT = 2_000
FIO_JOBS = 500
_KV = re.compile(r"^\s+([a-z_]+)\s+=\s+(.*)$", re.M)


def _qperf() -> dict:
    import azlatency
    from azlatency.parsers import qperf

    text = QPERF_FILE.read_text(encoding="utf-8") * QPERF_REPEAT
    t_parse, parsed = best_of(lambda: qperf.parse(text))
    t_read, tables = best_of(lambda: azlatency.read(text, tool="qperf"), repeat=1)
    t_peer, pairs = best_of(lambda: _KV.findall(text))
    runs = len(parsed.runs)
    return {
        "lines": text.count("\n"),
        "runs": runs,
        "summaries": len(tables.summaries),
        "values_seen_by_peer": len(pairs),
        "parse_s": round(t_parse, 3),
        "read_s": round(t_read, 3),
        "peer_regex_s": round(t_peer, 4),
        "runs_per_s": round(runs / t_parse),
        "parse_over_peer": round(t_parse / t_peer, 1),
    }


def _fio() -> dict:
    import azlatency
    from azlatency.parsers import fio

    doc = json.loads(FIO_FILE.read_text(encoding="utf-8"))
    doc["jobs"] = doc["jobs"] * FIO_JOBS
    text = json.dumps(doc, indent=2)
    t_parse, parsed = best_of(lambda: fio.parse(text))
    t_read, tables = best_of(lambda: azlatency.read(text, tool="fio"), repeat=1)
    t_peer, _ = best_of(lambda: json.loads(text))
    return {
        "bytes": len(text),
        "runs": len(parsed.runs),
        "histogram_rows": len(tables.samples),
        "summaries": len(tables.summaries),
        "parse_s": round(t_parse, 3),
        "read_s": round(t_read, 3),
        "peer_json_loads_s": round(t_peer, 4),
        "runs_per_s": round(len(parsed.runs) / t_parse),
        "parse_over_peer": round(t_parse / t_peer, 1),
    }


def main() -> dict:
    return {"qperf": _qperf(), "fio": _fio()}


if __name__ == "__main__":
    print(json.dumps(main(), indent=1))

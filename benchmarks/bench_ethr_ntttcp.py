"""ethr and ntttcp: parse cost against the bare decoder each format needs.

* ethr — the biggest real log (``corpus/ethr/...mixed-tests...``, 14,839 JSON lines, 1.9 MB):
  ``azlatency.parsers.ethr.parse`` (records → tests → runs with samples and summaries) and
  ``azlatency.read`` (bytes → schema-typed tables) against ``json.loads`` of every line, the
  floor any JSON-lines reader pays.
* ntttcp — NTttcp.exe 5.39 XML with 256 threads (``corpus/ntttcp/...5.39-many-threads...``):
  ``azlatency.parsers.ntttcp.parse`` against ``defusedxml.ElementTree.fromstring`` alone.

Ratios are parse / peer (lower is better), best of 5, measured in the same run.  Skipped when
``../shared`` is absent.
"""

from __future__ import annotations

import json
from pathlib import Path

from _timing import best_of  # benchmarks/ is on sys.path (run directly or by run_all)

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
ETHR = CORPUS / "ethr" / "ethr--client-jsonl-mixed-tests-mtr-connect--zluthdaka-netan.txt"
NTTTCP = CORPUS / "ntttcp" / "ntttcp--windows-xml-server-5.39-many-threads--virtualclient.xml"


def _best(fn, repeat: int = 5) -> float:
    return best_of(fn, repeat)[0]


def _ethr() -> dict:
    import azlatency
    from azlatency.parsers import ethr

    data = ETHR.read_bytes()
    text = data.decode("utf-8")
    lines = text.splitlines()
    peer = _best(lambda: [json.loads(x) for x in lines])
    parse = _best(lambda: ethr.parse(text))
    read = _best(lambda: azlatency.read(data, source=ETHR.name), repeat=3)
    runs = len(ethr.parse(text).runs)
    return {
        "ethr_records": len(lines),
        "ethr_runs": runs,
        "ethr_peer": "json.loads per line",
        "ethr_peer_s": round(peer, 4),
        "ethr_parse_s": round(parse, 4),
        "ethr_read_s": round(read, 4),
        "ethr_parse_over_peer": round(parse / peer, 2),
        "ethr_read_over_peer": round(read / peer, 2),
        "ethr_records_per_s_read": round(len(lines) / read),
    }


def _ntttcp() -> dict:
    from defusedxml.ElementTree import fromstring

    from azlatency.parsers import ntttcp

    text = NTTTCP.read_bytes().decode("utf-8-sig")
    peer = _best(lambda: fromstring(text))
    parse = _best(lambda: ntttcp.parse(text))
    return {
        "ntttcp_threads": len(ntttcp.parse(text).runs[0].samples),
        "ntttcp_peer": "defusedxml fromstring",
        "ntttcp_peer_s": round(peer, 5),
        "ntttcp_parse_s": round(parse, 5),
        "ntttcp_parse_over_peer": round(parse / peer, 2),
    }


def main() -> dict:
    if not (ETHR.is_file() and NTTTCP.is_file()):
        return {"skipped": "../shared/corpus is not present"}
    return {**_ethr(), **_ntttcp()}


if __name__ == "__main__":
    print(json.dumps(main(), indent=1))

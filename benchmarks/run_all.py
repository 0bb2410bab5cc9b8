"""Run every ``benchmarks/bench_*.py`` and the full ``validate_stats.py`` (``make bench``).

Each module exposes ``main() -> dict`` of results, ratios against a named peer measured in the
same run.  Results are printed and written to ``benchmarks/results/<name>.json`` (not
committed), then issue 39's goals judged from this run's figures (``_goals.py``; also
``results/goals.json``).  ``python benchmarks/run_all.py ping`` runs only the benchmarks whose
name holds ``ping``.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(HERE.parent))
    sys.path.insert(0, str(HERE))  # the benchmarks' shared helpers (_timing.py)
    wanted = argv[1:]
    out_dir = HERE / "results"
    out_dir.mkdir(exist_ok=True)
    failed = 0
    results: dict[str, dict] = {}
    # validate_stats.py: the simulation study of the statistics (issue 11), not a speed race
    for path in [*sorted(HERE.glob("bench_*.py")), HERE / "validate_stats.py"]:
        name = path.stem.removeprefix("bench_")
        if wanted and not any(w in name for w in wanted):
            continue
        print(f"== {name}", flush=True)
        start = time.perf_counter()
        try:
            result = _load(path).main()
        except Exception as exc:  # one broken benchmark must not hide the others
            failed += 1
            print(f"   FAILED: {type(exc).__name__}: {exc}")
            continue
        result = {"benchmark": name, "wall_s": round(time.perf_counter() - start, 2), **result}
        text = json.dumps(result, indent=1, default=str)
        print(text)
        (out_dir / f"{name}.json").write_text(text + "\n", encoding="utf-8")
        results[name] = result
    import _goals  # benchmarks/ is on sys.path (above)

    rows = _goals.judge(results)
    print(_goals.table(rows))
    (out_dir / "goals.json").write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))

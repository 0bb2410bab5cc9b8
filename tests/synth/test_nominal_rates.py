"""Rates over many seeds, with frames drawn straight from the model (no log files: the
writers and the import are tested once in test_campaign.py; here the design is repeated).

The design is the tiny campaign's zone matrix for two pairs: 1↔2 with the model's 1.2×
asymmetry and 2↔3 with none, 5 runs of 77 packets each way (sockperf ``--mps 50 -t 2``).
With the run as the unit, the exact Mann–Whitney test of 5 against 5 runs rejects a true null
with probability 12/252 = 0.048 at α = 0.05, and its ratio interval covers the truth with
probability ≥ 0.968 (the exact ranks k = 3 of 25).
"""

from __future__ import annotations

from scipy.stats import binom

from azlatency import stats
from azlatency.synth.frames import matrix_frames

SEEDS = range(100, 140)
PAIRS = [("1", "2"), ("2", "1"), ("2", "3"), ("3", "2")]


def test_no_asymmetry_is_flagged_at_the_nominal_rate_and_the_real_one_is_covered():
    flagged = covered = found = 0
    for seed in SEEDS:
        runs, samples = matrix_frames(seed=seed, repetitions=5, packets=77, pairs=PAIRS)
        result = stats.asymmetry(samples, runs, rng=seed)
        ratio = result[~result["mirrored"] & (result["effect"] == "ratio")]
        ratio = ratio.set_index(["src_zone", "dst_zone"])
        flagged += ratio.loc[("2", "3"), "p_value"] < 0.05
        lo, hi = ratio.loc[("1", "2"), ["ci_low", "ci_high"]]
        covered += lo <= 1.2 <= hi
        found += ratio.loc[("1", "2"), "p_value"] < 0.05
    n = len(SEEDS)
    # Under the null, flagged ~ Binomial(40, 0.048): 7 or more happens with probability 0.3%.
    assert flagged < 7, f"{flagged} of {n} symmetric pairs flagged"
    assert binom.sf(flagged - 1, n, 0.048) > 0.003
    # Coverage ≥ 96.8% nominal: fewer than 35 of 40 happens with probability below 0.1%.
    assert covered >= 35, f"interval covered 1.2 in {covered} of {n}"
    # And the 20% asymmetry is found nearly every time (power at this design ≈ 1).
    assert found >= 38

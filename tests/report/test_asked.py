"""What a campaign's question asks, read from its words (``report._asked``): the factors,
zone pairs, factor, statistic and whether it asks of throughput.  The answers to those
questions are tested against known truth in test_real_dumps.py and test_throughput_answer.py."""

from __future__ import annotations

import pytest
import yaml

from azlatency.report._asked import (
    _named,
    asked_stat,
    asked_times,
    asks_latency_too,
    asks_throughput,
    loss_and_speed,
    named_pairs,
)
from tests.conftest import ROOT


@pytest.mark.parametrize(
    ("question", "stat"),
    [
        ("What is the p99 between zone 1 and zone 2?", "p99"),
        ("Is the 99.9th percentile of 1→3 ten times 1→2's?", "p99.9"),
        ("Is the average latency from 1→3 higher?", "mean"),
        ("Is the median from 1→3 higher than its p99?", "p50"),  # the first named
        ("How slow is zone 1 → zone 3?", "p50"),
        ("Is the tail worse across zones?", "p99"),  # it was answered by medians
    ],
)
def test_the_statistic_a_question_asks_of_its_pairs(question, stat):
    assert asked_stat(question) == stat


@pytest.mark.parametrize(
    ("question", "throughput"),
    [
        ("Is throughput from zone 1 to zone 3 half that of zone 1 to zone 2?", True),
        ("Does 1→3 carry less than 1→2?", True),
        ("Is the bandwidth between zones 1 and 3 lower?", True),
        ("Is 1→3 under 5 Gbit/s?", True),
        ("Is zone 1 → zone 3 ten times slower?", False),
        ("Is latency or throughput worse from 1→3?", False),  # both: latency first, as before
    ],
)
def test_whether_a_question_asks_of_throughput(question, throughput):
    assert asks_throughput(question) is throughput


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Is zone 1 → zone 3 really ten times slower, and how sure are we?", ["zone pair"]),
        ("Is az1 -> az3 slower than az1 -> az2?", ["zone pair"]),
        ("How does latency differ between zones 1 and 2?", ["zone pair"]),
        ("What changed against the baseline campaign, and is it real?", []),
        # a placement a question holds is no placement it compares
        ("How does the message size change latency within a zone?", ["message size"]),
        ("Does every VM measure what a Standard_DS14_v2 promises?", []),
        # two placements or VM sizes named are a question of them
        ("How much slower is cross-region than same zone?", ["placement"]),
        ("Is a D4s_v3 faster than a D2s_v3?", ["VM size"]),
    ],
)
def test_what_a_question_names(question, named):
    assert _named(question) == named


@pytest.mark.parametrize(
    ("question", "times"),
    [
        ("Is zone 1 → zone 3 ten times slower than zone 1 → zone 2?", (10, "ten times slower")),
        ("Is 1→3 10x slower than 1→2?", (10, "10x slower")),
        ("Is 1→3 10× 1→2?", (10, "10×")),
        ("Is 1→3 twice as slow as 1→2?", (2, "twice as slow")),
        # of latency a pair 'ten times as fast' takes a tenth of the time: it was held
        # against 10× and 9.91× was 'within' it
        ("Is 1→3 ten times as fast as 1→2?", (0.1, "ten times as fast")),
        ("Is 1→3 half as fast as 1→2?", (2, "half")),
        # a percentage was no factor, and the answer said nothing of it
        ("Is 1→3 50% slower than 1→2?", (1.5, "50% slower")),
        ("Is latency 30 percent lower on 1→3?", (0.7, "30 percent lower")),
        ("Is 1→3 30% faster than 1→2?", (1 / 1.3, "30% faster")),  # the speed 1.3 times
        ("Is 1→3 100% lower?", None),
        # a verb: 'Does accelerated networking halve latency?' was no factor
        ("Does accelerated networking halve latency?", (0.5, "halve")),
        ("Does turning it off double latency?", (2, "double")),
        ("Is 1→3 ten times faster than 1→2?", (0.1, "ten times faster")),  # 1→2 is 10× 1→3
        ("Is it 3-fold higher?", (3, "3-fold higher")),
        ("Does 1400 B take longer than 64 B?", None),
        (
            "Is zone 1 → zone 3 really ten times slower, and how sure are we?",
            (10, "ten times slower"),
        ),
        ("Is 1→3's throughput half that of 1→2?", (0.5, "half")),
        (
            "Is latency from zone 1 to zone 3 an order of magnitude higher?",
            (10, "an order of magnitude higher"),
        ),
        ("Is 1→3 two orders of magnitude faster?", (0.01, "two orders of magnitude faster")),
        ("Does 1→3 carry a third of what 1→2 carries?", (1 / 3, "a third")),
        # a basis, not a factor
        ("Is the half round trip of 1→3 ten times longer?", (10, "ten times longer")),
    ],
)
def test_the_factor_a_question_asks_about(question, times):
    want = (pytest.approx(times[0]), times[1]) if times else None
    assert asked_times(question) == want


@pytest.mark.parametrize(
    ("question", "factor"),
    [
        # of throughput a lower or slower pair carries less; a faster one more
        ("Is 1→3 throughput 1.5 times lower than 1→2?", 1 / 1.5),
        ("Is 1→3 ten times slower than 1→2 by iperf3?", 0.1),
        ("Is 1→3 twice as fast?", 2),
        ("Is 1→3 twice as slow as 1→2?", 0.5),
        ("Is 1→3 half as fast as 1→2?", 0.5),
        ("Is 1→3 throughput 30% lower than 1→2?", 0.7),
        ("Is 1→3 30% faster than 1→2?", 1.3),
        ("Is 1→3 3x faster than 1→2?", 3),
        ("Does 1→3 carry half what 1→2 does?", 0.5),
    ],
)
def test_the_factor_a_throughput_question_asks_about(question, factor):
    assert asked_times(question, throughput=True)[0] == pytest.approx(factor)


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Is zone 1 → zone 3 ten times slower than zone 1 → zone 2?", [("1→3", "1→2")]),
        ("Is az1->az3 slower than zone 1 to zone 2?", [("1→3", "1→2")]),
        ("Is 1→3 slower than 1→2?", [("1→3", "1→2")]),  # as the pages write a pair
        ("How slow is zone 1 → zone 3?", [("1→3",)]),
        # no direction: both ways, each way against the other's same way
        (
            "Is latency between zone 1 and zone 3 higher than between zones 1 and 2?",
            [("1→3", "1→2"), ("3→1", "2→1")],
        ),
        ("Is az1<->az3 slower than az1<->az2?", [("1→3", "1→2"), ("3→1", "2→1")]),
        ("How slow is it between zones 1 and 3?", [("1→3",), ("3→1",)]),
        # a VM in a zone, and 'in zone N' where two are named ('Is latency in zone 1 lower
        # than in zone 2?' read no pair; one alone names none)
        ("Is latency from a VM in zone 1 to a VM in zone 3 ten times higher?", [("1→3",)]),
        ("Is latency in zone 1 lower than in zone 2?", [("1→1", "2→2")]),
        ("Is latency within zone 1 lower than in zone 2?", [("1→1", "2→2")]),
        ("Is latency good for the VMs in zone 1?", []),
        # a symmetry question: one way against the other (each way's figure came alone)
        ("Is latency symmetric between zones 1 and 2?", [("1→2", "2→1")]),
        ("Is it the same both ways between zone 1 and zone 3?", [("1→3", "3→1")]),
        ("Is zone 2 and zone 2 fast?", [("2→2",)]),
        # as people write zones: hyphenated, run together, abbreviated (no pair was read)
        ("Is zone-1 to zone-3 slower than zone-1 to zone-2?", [("1→3", "1→2")]),
        ("Is Zone1→Zone3 slower than Zone1→Zone2?", [("1→3", "1→2")]),
        ("Is z1->z3 slower than z1->z2?", [("1→3", "1→2")]),
        ("How slow is az-1 to az-3?", [("1→3",)]),
        # within one zone, numbered: its own pair
        (
            "Is latency between zones 1 and 3 ten times latency within zone 1?",
            [("1→3", "1→1"), ("3→1", "1→1")],
        ),
        # not zone pairs: sizes, versions
        ("Does latency grow from 64 -> 1400 B?", []),
        ("Did sockperf 3.1->3.2 change it?", []),
        ("Does the z-score grow from 1 to 3?", []),
    ],
)
def test_what_a_question_asks_of_the_zone_pairs_it_names(question, asked):
    assert named_pairs(question) == asked
    assert _named(question) == (["zone pair"] if asked else [])


def test_the_bundled_questions_name_what_their_compare_says():
    # each bundled campaign.yaml with a compare: asks a question naming those factors (seed
    # 000's also names its message sizes: 'per message size')
    seen = 0
    for f in sorted((ROOT / "data" / "raw").glob("*/campaign.yaml")):
        y = yaml.safe_load(f.read_text())
        if "compare" in y and y["compare"] != "baseline":
            want = [y["compare"]] if isinstance(y["compare"], str) else y["compare"]
            assert _named(y["question"])[: len(want)] == want, f
            seen += 1
    assert seen == 4


def test_a_question_of_loss_and_of_speed_is_read_in_its_two_parts():
    # the loss of 3→1 and whether 1→3 is slower than 1→2 were one reading of three pairs,
    # answered '1→3 is 1.42× 3→1' and the loss alone
    q = "Is there packet loss from zone 3 to zone 1, and is zone 1 to zone 3 slower than zone 1 to zone 2?"
    lost, speed = loss_and_speed(q)
    assert named_pairs(lost) == [("3→1",)]
    assert named_pairs(speed) == [("1→3", "1→2")]
    assert asks_latency_too(speed)
    both = "Is there packet loss and high latency between zone 1 and zone 3?"
    assert loss_and_speed(both) == (both, both) and asks_latency_too(both)
    for alone in (
        "Is there packet loss between zone 1 and zone 2?",
        "What is the latency jitter from zone 1 to zone 3?",
        "How many packets were dropped from zone 1 to zone 2?",
    ):
        assert not asks_latency_too(alone), alone

"""What a campaign's question asks, read from its words: the factors it names (:func:`_named`),
the zone pairs (:func:`named_pairs`), the sides of a factor (placements, VM sizes, message
sizes, accelerated networking on or off), a factor it asks about (:func:`asked_times`), the
statistic (:func:`asked_stat`, :func:`asked_other_stat`), a bound (:func:`asked_threshold`)
and whether it asks of throughput (:func:`asks_throughput`).  ``report._answer`` answers it.

Each rule names the question it was made for and what the answer did before it."""

from __future__ import annotations

import re

from ..parsers import tools
from ._claims import side_name

# A zone pair as a question writes it: 'zone 1 → zone 3', 'zone-1 to zone-3', 'Zone1→Zone3',
# 'az1->az3', 'z1->z3', '1→3' (as the pages write them), and without a direction 'between zone
# 1 and zone 3', 'zones 1 and 3', 'az1<->az3', '1↔3'.  ('zone-1 to zone-3' and 'z1->z3' were
# no pair: the answer gave each tool's fastest and slowest pair.)
_ZONE = r"(?:zones?[- ]?|az[- ]?|z)"
_PAIR = (
    rf"\b{_ZONE}(\d+) ?(<->|↔|→|->|to|and|&) ?{_ZONE}?(\d+)\b"
    r"|(?<![\w.])([1-9]) ?(<->|↔|→|->) ?([1-9])\b"
    r"|\b(?:within|inside) (?:zone|az)[- ]?(\d+)\b"  # 'within zone 1': 1→1
    # 'from a VM in zone 1 to a VM in zone 3' (no pair was read)
    r"|\bfrom (?:an? |the )?(?:[\w-]+ ){0,2}in (?:zone|az)[- ]?(\d+) to (?:an? |the )?"
    r"(?:[\w-]+ ){0,2}in (?:zone|az)[- ]?(\d+)\b"
    # 'in zone 1 ... than in zone 2': each its own zone's pair, where two are named
    r"|\bin (?:zone|az)[- ]?(\d+)\b"
)

# What a question names, for a campaign.yaml without compare: ('Which zone pair has the
# lowest throughput?' was answered by placement, the factor most contrasts vary).
QUESTION_WORDS = {
    name: re.compile(words, re.IGNORECASE)
    for name, words in {
        "zone pair": r"\bzone[- ]?pairs?\b|\bpairs? of (?:availability )?zones\b|\bwhich "
        r"(?:availability )?zones?\b|\b(?:each|every) (?:availability )?zone\b",  # (+ pairs)
        # a placement compared ('across zones'), not one a question holds ('within a zone')
        "placement": r"\bplacement\b|\bavailability sets?\b|\bacross (?:availability )?"
        r"zones\b|\bcross[- ]zone\b",
        "message size": r"\b(?:message|payload|packet|msg) ?sizes?\b",
        "VM size": r"\bVM[- ]sizes?\b|\bSKUs?\b|\binstance (?:types?|sizes?)\b",
        "accelerated networking": r"\baccelerated[- ]networking\b|\baccel[- ]?net\b|\bSR-IOV\b",
        # 'When did the connections break?' (seed 004) was answered by placement
        "stability": r"\bstab(?:le|ility)\b|\bover time\b|\bdrifts?\b|\blong[- ]runs?\b"
        r"|\bbr(?:eak|eaks|oke|oken)\b|\bdisconnect\w*|\bconnections? (?:drop|reset)",
    }.items()
}


# A question about what changed against another campaign (answered by page 60's findings).
_CHANGE = re.compile(
    r"\bwhat changed\b|\bbaseline campaign\b|\bbefore and after\b|\bregress(?:ed|ions?)?\b",
    re.IGNORECASE,
)
# Of a campaign compared with its baseline, any change asked of ('Is the change in 1→2
# latency more than 20%?'); of one without, 'Does latency change with size?' is no such one.
_CHANGED = re.compile(_CHANGE.pattern + r"|\bchang(?:e|ed|es)\b", re.IGNORECASE)


def _named(question: str | None) -> list[str]:
    """The factors ``question`` names, in its order; two VM sizes or two placements named are
    a question of them ('Is a D4s_v3 faster than a D2s_v3?' was answered by placement)."""
    found = {n: m.start() for n, w in QUESTION_WORDS.items() if (m := w.search(question or ""))}
    if pairs := _pair_matches(question):  # a zone pair named, as named_pairs reads it
        found["zone pair"] = min(found.get("zone pair", pairs[0][0]), pairs[0][0])
    # ('How much slower is cross-region than same zone?' was answered by placement as 'the
    # factor most contrasts vary')
    if len(at := _tools_at(question)) >= 2:  # 'Is ping slower than sockperf?': by placement
        found.setdefault("tool", min(at.values()))
    for name, sides in (
        ("VM size", _vm_sizes_at),
        ("placement", _placements_at),
        ("message size", _sizes_at),  # 'Is 1400 B twice as slow as 64 B?': was by placement
    ):
        at = sides(question)
        if len(at) >= 2:
            found.setdefault(name, min(at.values()))
    return sorted(found, key=found.__getitem__)


# Placements as a question names them, by the store's value (a claim's side is its
# _claims.side_name: 'proximity placement group', 'cross-zone').
_PLACEMENT_WORDS = {
    value: re.compile(words, re.IGNORECASE)
    for value, words in {
        "ppg": r"\bproximity placement groups?\b|\bppgs?\b",
        "availability_set": r"\bavailability sets?\b",
        "cross_zone": r"\bcross[- ]zones?\b|\b(?:across|different) (?:availability )?zones\b",
        "same_zone": r"\bsame[- ]zones?\b|\bwithin (?:a|one) zone\b|\bone zone\b",
        "cross_region": r"\bcross[- ]regions?\b|\bacross regions\b",
        "same_node": r"\bsame[- ]node\b|\bone node\b|\bsingle node\b",
    }.items()
}


def _placements_at(question: str | None) -> dict[str, int]:
    """Each placement ``question`` names, as a claim names it, and where it first does."""
    return {
        side_name("placement", value): m.start()
        for value, words in _PLACEMENT_WORDS.items()
        if (m := words.search(question or ""))
    }


def named_placements(question: str | None) -> list[str]:
    """The placements ``question`` names, in its order ('Is a proximity placement group faster
    than an availability set?': ``['proximity placement group', 'availability set']``)."""
    at = _placements_at(question)
    return sorted(at, key=at.__getitem__)


# 'Standard_D4s_v5', 'D2s_v3', 'DS14_v2', 'B1s', as a claim names a VM size (without
# 'Standard_'); not a percentile's 'P99'
_VM_SIZE = re.compile(
    r"\bStandard_([A-Z]{1,3}\d+[a-z]*(?:_v\d+)?)\b|\b([A-Z]{1,3}\d+(?:[a-z]*_v\d+|[a-z]+))\b"
)


def _vm_sizes_at(question: str | None) -> dict[str, int]:
    """Each VM size ``question`` names, as a claim names it, and where it first does."""
    at: dict[str, int] = {}
    for m in _VM_SIZE.finditer(question or ""):
        at.setdefault(m[1] or m[2], m.start())
    return at


def named_vm_sizes(question: str | None) -> list[str]:
    """The VM sizes ``question`` names, in its order, as a claim names them ('Is a
    Standard_D4s_v3 faster than a D2s_v3?': ``['D4s_v3', 'D2s_v3']``)."""
    return list(_vm_sizes_at(question))


# '1400 B', '64 bytes', '64 KiB' (65536 B), as a claim names a message size
_MSG_SIZE = re.compile(r"\b(\d+)[ -]?(?:(B|bytes?)|(KiB|KB|K))\b(?! ?/ ?s\b)", re.IGNORECASE)


def _sizes_at(question: str | None) -> dict[str, int]:
    """Each message size ``question`` names, as a claim names it, and where it first does."""
    at: dict[str, int] = {}
    for m in _MSG_SIZE.finditer(question or ""):
        size = int(m[1]) * (1024 if m[3] else 1)
        at.setdefault(side_name("msg_size_bytes", size), m.start())
    return at


def named_sizes(question: str | None) -> list[str]:
    """The message sizes ``question`` names, in its order ('Is 1400 B twice as slow as 64 B?':
    ``['1400 B messages', '64 B messages']``)."""
    return list(_sizes_at(question))


# 'with accelerated networking' is on against off; 'without' (or 'off', 'disabled') off first
_AN_OFF = re.compile(
    r"\b(?:without|no|disabled?|off)\b[\w\s]{0,12}\b(?:accelerated[- ]networking|accel[- ]?net|"
    r"SR-IOV)\b|\b(?:accelerated[- ]networking|accel[- ]?net|SR-IOV) (?:off|disabled)\b",
    re.IGNORECASE,
)


def named_networking(question: str | None) -> list[str]:
    """Accelerated networking's two sides in the order ``question`` puts them: 'Does
    accelerated networking make latency twice as fast?' on against off."""
    on, off = (side_name("accelerated_networking", v) for v in (True, False))
    return [off, on] if _AN_OFF.search(question or "") else [on, off]


_SIDES = {
    "placement": named_placements,
    "VM size": named_vm_sizes,
    "message size": named_sizes,
    "accelerated networking": named_networking,
}

_PAIR_NAMED = re.compile(_PAIR, re.IGNORECASE)
_BOTH_WAYS = ("<->", "↔", "and", "&")


# A question of one pair's two ways ('Is latency symmetric between zones 1 and 2?' got each
# way's figure alone, the one never set against the other)
_SYMMETRY = re.compile(
    r"\b(?:a?symmetr\w*|the same (?:both|either|each) ways?|both ways|either way|each way"
    r"|both directions|(?:one|either|each|the other) direction)\b",
    re.IGNORECASE,
)


def _pair_matches(question: str | None) -> list[tuple[int, str, str, str]]:
    """(where, zone, how, zone) of each zone pair ``question`` writes (:data:`_PAIR`); 'in
    zone N' only where it names two, or one beside 'within zone M' ('Is latency in zone 1
    lower than in zone 2?': 1→1 and 2→2; 'Does it help for VMs in zone 1?' names no pair)."""
    out, alone = [], []
    for m in _PAIR_NAMED.finditer(question or ""):
        if m[1]:
            out.append((m.start(), *m.group(1, 2, 3)))
        elif m[4]:
            out.append((m.start(), *m.group(4, 5, 6)))
        elif m[7]:
            out.append((m.start(), m[7], "→", m[7]))
        elif m[8]:
            out.append((m.start(), m[8], "→", m[9]))
        else:
            alone.append((m.start(), m[10], "→", m[10]))
    within = any(a == b for _, a, _, b in out)  # 'within zone 1 ... than in zone 2'
    return sorted(out + (alone if len(alone) >= 2 or (alone and within) else []))


def named_pairs(question: str | None) -> list[tuple[str, ...]]:
    """What ``question`` asks of the zone pairs it names: one pair against another ('is zone 1
    → zone 3 slower than zone 1 → zone 2?': ``[('1→3', '1→2')]``), or one pair ('how slow is
    1→3?': ``[('1→3',)]``).  A pair named without a direction is both ways: 'between zone 1
    and zone 3' against 'between zone 1 and zone 2' is 1→3 against 1→2 and 3→1 against 2→1;
    'within zone 1' is 1→1; one such pair asked whether it is symmetric ('the same both
    ways') is its one way against the other."""
    named: list[tuple[str, ...]] = []
    for _, a, how, b in _pair_matches(question):
        ways = (f"{a}→{b}", f"{b}→{a}") if how.lower() in _BOTH_WAYS else (f"{a}→{b}",)
        ways = tuple(dict.fromkeys(ways))  # 'zone 1 and zone 1': one way
        if ways not in named:
            named.append(ways)
    if len(named) == 1 and len(named[0]) == 2 and _SYMMETRY.search(question or ""):
        return [named[0]]  # 'symmetric between zones 1 and 2': 1→2 against 2→1
    if len(named) < 2:
        return [(p,) for ways in named for p in ways]
    one, two = named[:2]
    n = max(len(one), len(two))
    return list(dict.fromkeys((one[k % len(one)], two[k % len(two)]) for k in range(n)))


# 'ten times slower', '10x', '10×', 'twice', 'tenfold': a factor the question asks about
_NUMBER_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "twenty": 20, "fifty": 50, "hundred": 100,
}  # fmt: skip
_TIMES = re.compile(
    r"\b(?:(twice)|(an?|one|two|three) orders? of magnitude|(\d+(?:\.\d+)?|"
    + "|".join(_NUMBER_WORDS)
    + r")(?:[ -]?(?:times|fold)\b| ?[x×](?!\w)))(?: (faster|lower|less|shorter|quicker|smaller|"
    r"slower|higher|more|longer|larger|greater)\b| as (fast|quick|low|short|small|slow|high"
    r"|long|large|great|big)\b)?",
    re.IGNORECASE,
)
_MAGNITUDES = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3}  # 'an order of magnitude': 10
_LESS = ("faster", "lower", "less", "shorter", "quicker", "smaller")
# of throughput a slower pair carries less: 'ten times slower' is a tenth
_LESS_THROUGHPUT = ("slower", "lower", "less", "smaller", "fewer")
# 'twice as fast', 'ten times as slow': of latency a pair twice as fast takes half the time
# ('Is 1→3 ten times as fast as 1→2?' was held against 10×, and 9.91× was 'within')
_AS_LESS = ("fast", "quick", "low", "short", "small")
_AS_LESS_THROUGHPUT = ("slow", "low", "small")
# 'half the throughput', 'a third of', 'half as fast' (not 'half round trip': a basis)
_FRACTION = re.compile(
    r"\b(?:(?:one|a) )?(half|third|quarter|tenth)(?= (?:the|that|as|of|what)\b)", re.IGNORECASE
)
_FRACTIONS = {"half": 2, "third": 3, "quarter": 4, "tenth": 10}
# 'Does accelerated networking halve latency?' was no factor; 'double' twice
_VERB = re.compile(r"\b(halve|double|triple)[sd]?\b", re.IGNORECASE)
_VERBS = {"halve": 0.5, "double": 2.0, "triple": 3.0}
# '50% slower', '30 percent lower': no factor was read, and the answer said nothing of it
_PERCENT = re.compile(
    r"\b(\d+(?:\.\d+)?) ?(?:%|per ?cent\b) (faster|quicker|lower|less|shorter|smaller|fewer"
    r"|slower|higher|more|longer|larger|greater|bigger)\b",
    re.IGNORECASE,
)


def _percent(m: re.Match, throughput: bool) -> float:
    """'50% slower' of latency 1.5×, '30% lower' 0.7×, '30% faster' 1/1.3× (the speed 1.3
    times: the time over 1.3); of throughput '30% faster' 1.3×, '30% slower' 0.7×."""
    n, word = float(m[1]) / 100, m[2].lower()
    if word in ("faster", "quicker"):
        return 1 + n if throughput else 1 / (1 + n)
    less = word in (_LESS_THROUGHPUT if throughput else _LESS)
    return max(1 - n, 0.0) if less else 1 + n


def asked_times(question: str | None, *, throughput: bool = False) -> tuple[float, str] | None:
    """The factor a question asks about, as the first pair's figure over the second's, and
    its words: 'ten times slower' → ``(10.0, 'ten times slower')``, 'ten times faster' →
    ``(0.1, ...)``, 'half that of' → ``(0.5, 'half')``, 'an order of magnitude higher' →
    ``(10.0, ...)``; of ``throughput`` (:func:`asks_throughput`) 'ten times lower' and 'ten
    times slower' are a tenth, 'twice as fast' twice (of latency a half); '50% slower'
    1.5 (:func:`_percent`); None where it names none."""
    m = _TIMES.search(question or "")
    f = _FRACTION.search(question or "")
    p = _PERCENT.search(question or "")
    v = _VERB.search(question or "")
    if v is not None and all(x is None or v.start() < x.start() for x in (m, f, p)):
        return _VERBS[v[1].lower()], v[0]  # the first side's figure over the second's
    if p is not None and all(x is None or p.start() < x.start() for x in (m, f)):
        x = _percent(p, throughput)
        return (x, p[0]) if x > 0 else None  # '100% lower': no ratio to hold
    if f is not None and (m is None or f.start() < m.start()):
        # 'half as fast' of latency: twice the time
        fast = not throughput and re.match(r" as (?:fast|quick)\b", question[f.end() :], re.I)
        n = _FRACTIONS[f[1].lower()]
        return (float(n) if fast else 1 / n), f[0]
    if m is None:
        return None
    factor = (
        2.0
        if m[1]
        else 10.0 ** _MAGNITUDES[m[2].lower()]
        if m[2]
        else float(_NUMBER_WORDS.get(m[3].lower(), m[3]))
    )
    if factor <= 0:
        return None
    if (m[4] or "").lower() in (_LESS_THROUGHPUT if throughput else _LESS) or (
        m[5] or ""
    ).lower() in (_AS_LESS_THROUGHPUT if throughput else _AS_LESS):
        factor = 1 / factor
    return factor, m[0]


# A bound a question asks a pair's latency against: 'Is latency from zone 1 to zone 2 above
# 100 µs?', 'under 1 ms' (it got each tool's figure, the bound unsaid)
_THRESHOLD = re.compile(
    r"\b(above|over|more than|higher than|greater than|exceed(?:s|ing)?|beyond|below|under"
    r"|less than|lower than|within|at most|at least)\s+(?:a |an |one )?(\d+(?:\.\d+)?)?\s*"
    r"(µs|us|usec|microseconds?|ms|msec|milliseconds?)\b",
    re.IGNORECASE,
)
_ABOVE = ("above", "over", "more than", "higher than", "greater than", "exceed", "exceeds",
          "exceeding", "beyond", "at least")  # fmt: skip


def asked_threshold(question: str | None) -> tuple[float, str, str] | None:
    """The bound ``question`` asks a pair's latency against, in µs, whether it asks above or
    below, and its words: 'above 100 µs' → ``(100.0, 'above', 'above 100 µs')``, 'under a
    millisecond' → ``(1000.0, 'below', ...)``; None where it names none."""
    m = _THRESHOLD.search(question or "")
    if m is None:
        return None
    value = float(m[2]) if m[2] else 1.0
    if m[3].lower() in ("ms", "msec", "millisecond", "milliseconds"):
        value *= 1000.0
    side = "above" if m[1].lower() in _ABOVE else "below"
    return value, side, m[0]


# A throughput bound: 'Does zone 1 → zone 3 get more than 5 Gbit/s?' (it got every pair's
# figures, the bound unsaid)
_RATE = re.compile(
    r"\b(above|over|more than|higher than|greater than|exceed(?:s|ing)?|beyond|below|under"
    r"|less than|lower than|at most|at least)\s+(\d+(?:\.\d+)?)\s*([gmk])(?:bits?/s|bps|b/s"
    r"|bits? per second)\b",
    re.IGNORECASE,
)


def asked_rate(question: str | None) -> tuple[float, str, str] | None:
    """The throughput bound ``question`` asks, in bit/s, above or below, and its words:
    'more than 5 Gbit/s' → ``(5e9, 'above', 'more than 5 Gbit/s')``; None where none."""
    m = _RATE.search(question or "")
    if m is None:
        return None
    value = float(m[2]) * {"g": 1e9, "m": 1e6, "k": 1e3}[m[3].lower()]
    return value, ("above" if m[1].lower() in _ABOVE else "below"), m[0]


# The statistic a question asks of the pairs it names: 'the p99', 'the 99.9th percentile',
# 'the mean' ('What is the p99 between zone 1 and zone 2?' got each tool's median)
_STAT = re.compile(
    r"\bp(\d{1,2}(?:\.\d+)?)\b|\b(\d{1,2}(?:\.\d+)?)(?:th|st|nd|rd) percentile\b|\b(mean|average)\b"
    r"|\b(median)\b|\b(tails?)\b",
    re.IGNORECASE,
)


def asked_stat(question: str | None) -> str:
    """The statistic ``question`` asks of its zone pairs: ``'p99'``, ``'p99.9'``, ``'mean'``,
    of 'the tail' the p99 ('Is the tail worse across zones?' was answered by medians); the
    median (``'p50'``) where it names none."""
    m = _STAT.search(question or "")
    if m is None or m[4]:
        return "p50"
    return "p99" if m[5] else "mean" if m[3] else f"p{m[1] or m[2]}"


# A question of probe loss or jitter: 'Is there packet loss between zone 1 and zone 2?' was
# answered by each tool's median round trip of 1→2
_OTHER_STAT = re.compile(
    r"\b(?:(?:packet|probe|datagram)s? (?:loss|drops?)|loss(?:es)?|(?:dropped|lost) (?:packets|"
    r"probes|datagrams)|(?:los(?:e|es|ing)|drop(?:s|ping)?) (?:\w+ ){0,2}?(?:packets|probes|"
    r"datagrams))\b|\b(jitter)\b",  # not "Does latency drop ...?"; 'loses the most packets'
    re.IGNORECASE,
)


def asked_other_stat(question: str | None) -> str | None:
    """``'loss'`` or ``'jitter'`` where ``question`` asks of probe loss or jitter (as page
    20's matrix of either), else None."""
    m = _OTHER_STAT.search(question or "")
    return None if m is None else "jitter" if m[1] else "loss"


# A question of throughput ('Is zone 1 → zone 3 throughput 1.5 times lower ...?') holds its
# factor against the throughput figures, first: it was held against sockperf's latency ratio
# ('1.5 times lower? By sockperf, 1→3 is 9.91× 1→2, more than 0.667×') and the throughput
# statements came after every latency one.
_THROUGHPUT_WORDS = re.compile(
    r"\b(?:throughputs?|bandwidths?|goodput|bit ?rates?|[gmk]bit(?:s|/s)?|[gmk]bps|carr(?:y|ies))\b",
    re.IGNORECASE,
)
_LATENCY = r"latency|latencies|rtts?|round[- ]trips?"
_LATENCY_WORDS = re.compile(rf"\b(?:{_LATENCY}|delays?|ping)\b", re.IGNORECASE)


# A question of loss or jitter that asks of latency too: 'Is there packet loss from zone 3 to
# zone 1, and is zone 1 to zone 3 slower than zone 1 to zone 2?' got the loss alone.
_SPEED_WORDS = re.compile(rf"\b(?:slow|slower|slowest|fast|faster|fastest|{_LATENCY})\b", re.I)


def asks_latency_too(question: str | None) -> bool:
    """Whether a question of loss or jitter also asks how fast (its latency words outside
    the loss or jitter phrase: 'latency jitter' asks jitter alone)."""
    q = re.sub(r"\b(?:latency|rtt|delay)\s+(?=jitter|variation)", " ", question or "", flags=re.I)
    return bool(_SPEED_WORDS.search(_OTHER_STAT.sub(" ", q)))


def loss_and_speed(question: str | None) -> tuple[str, str]:
    """A question of loss or jitter and of latency as its two parts, each the clauses that
    ask it ('..., and ...', '; ', a second sentence), so each reads its own pairs: the loss
    of 3→1 and whether 1→3 is slower than 1→2 were one reading of three pairs ('1→3 is
    1.42× 3→1'). One clause asking both is both parts."""
    q = question or ""
    parts = [c for c in re.split(r",\s*(?:and|but)\s+|;\s*|[?.!]\s+", q) if c.strip()]
    lost = [c for c in parts if _OTHER_STAT.search(c)]
    rest = [c for c in parts if not _OTHER_STAT.search(c)]
    if not lost or not rest:
        return q, q
    return " ".join(lost), " ".join(rest)


def asks_throughput(question: str | None) -> bool:
    """Whether ``question`` asks of throughput and not of latency."""
    q = question or ""
    return bool(_THROUGHPUT_WORDS.search(q)) and not _LATENCY_WORDS.search(q)


def _tools_at(question: str | None) -> dict[str, int]:
    """Each tool ``question`` names by its name, and where it first does ('ping', not
    'ping-pong')."""
    at = {}
    for tool in tools():
        if m := re.search(rf"\b{re.escape(tool)}\b(?!-pong)", question or "", re.IGNORECASE):
            at[tool] = m.start()
    return at


def named_tools(question: str | None) -> list[str]:
    """The tools ``question`` names, in its order ('Is ping slower than sockperf?':
    ``['ping', 'sockperf']``)."""
    at = _tools_at(question)
    return sorted(at, key=at.__getitem__)

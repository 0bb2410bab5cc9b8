"""``campaign.yaml``: what a campaign's logs do not say — read, validated, with located errors.

The file is optional (docs/campaign.md).  It holds campaign-wide ``defaults``, a ``hosts``
inventory (host name or IP → zone, availability set, proximity placement group, VM size) and
``rules`` that label runs by file glob, path template or a pattern on the heading / prose line
above an output block.  ``docs/campaign.md`` is the reference; :mod:`azlatency.campaign.labels` applies
it to the runs.

A bad file raises :class:`~azlatency.errors.CampaignError` naming the file, the line and the
key path (``campaign.yaml:14: hosts.malzonka01.zone: ...``): the YAML is composed first so every
key path maps to the line it was written on, then validated with pydantic.
"""

from __future__ import annotations

import ipaddress
import re
import string
from functools import lru_cache
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from ..errors import CampaignError
from ..stats.baseline import check_units, parse_target

FILENAME = "campaign.yaml"
FILENAMES = (FILENAME, "campaign.yml")  # at the root of a campaign folder or archive

# Placement of a client/server pair (docs/campaign.md "Placement vocabulary").
PLACEMENTS = ("same_node", "same_zone", "cross_zone", "cross_region", "availability_set", "ppg")
# Run attributes a rule, a template placeholder or a named regex group may assign.
ASSIGNABLE = (
    "scenario",
    "src_zone",
    "dst_zone",
    "zone_a",  # zone_a/zone_b: the zones of the two ends, which end is the client unknown
    "zone_b",
    "src_host",
    "dst_host",
    "placement",
    "vm_size",
    "region",
    "accelerated_networking",
)
# A host whose zone is one of these is a regional (non-zonal) VM: no zone, and none missing.
REGIONAL = ("none", "regional")
_TRUE = ("true", "yes", "on", "1", "enabled")
_FALSE = ("false", "no", "off", "0", "disabled")


def _to_str(value: Any) -> Any:
    # YAML reads `zone: 1` as an int; zones, sizes and set names are labels, never numbers.
    if isinstance(value, bool):
        return value
    return str(value) if isinstance(value, int | float) else value


def _to_list(value: Any) -> Any:
    return [value] if isinstance(value, str | int | float) else value


Str = Annotated[str, BeforeValidator(_to_str)]
StrList = Annotated[list[Str], BeforeValidator(_to_list)]


def parse_bool(value: Any) -> bool | None:
    """``true/false/yes/no/on/off/1/0/enabled/disabled`` → bool; ``None`` for empty."""
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    if not text:
        return None
    raise ValueError(f"expected a boolean (true/false/on/off), got {value!r}")


def _check_placement(value: str | None) -> str | None:
    if value is not None and "{" not in value and value not in PLACEMENTS:
        raise ValueError(f"unknown placement {value!r}; use one of {', '.join(PLACEMENTS)}")
    return value


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Host(_Model):
    """One VM of the inventory; the mapping key is its host name or one of its IPs."""

    ip: StrList = Field(default_factory=list)
    zone: Str | None = None
    availability_set: Str | None = None
    ppg: Str | None = None
    vm_size: Str | None = None
    region: Str | None = None
    accelerated_networking: bool | None = None
    aliases: StrList = Field(default_factory=list)

    @field_validator("ip")
    @classmethod
    def _ips(cls, value: list[str]) -> list[str]:
        for ip in value:
            ipaddress.ip_address(ip)  # ValueError names the bad address
        return value

    @property
    def regional(self) -> bool:
        return self.zone is not None and self.zone.lower() in REGIONAL

    @property
    def zone_label(self) -> str | None:
        return None if self.regional else self.zone


class Assign(_Model):
    """What a rule sets.  Values may use ``{name}`` captured by the rule's patterns."""

    scenario: Str | None = None
    src_zone: Str | None = None
    dst_zone: Str | None = None
    zone_a: Str | None = None
    zone_b: Str | None = None
    src_host: Str | None = None
    dst_host: Str | None = None
    placement: Str | None = None
    vm_size: Str | None = None
    region: Str | None = None
    accelerated_networking: bool | Str | None = None
    labels: dict[str, Str] = Field(default_factory=dict)

    @field_validator("placement")
    @classmethod
    def _placement(cls, value: str | None) -> str | None:
        return _check_placement(value)

    @field_validator("accelerated_networking")
    @classmethod
    def _boolean(cls, value: bool | str | None) -> bool | str | None:
        if isinstance(value, str) and "{" not in value:
            return parse_bool(value)
        return value

    def items(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ASSIGNABLE if getattr(self, k) is not None}


class Defaults(_Model):
    region: Str | None = None
    vm_size: Str | None = None
    accelerated_networking: bool | None = None
    placement: Str | None = None
    scenario: Str | None = None
    notes: str | None = None  # campaign-wide prose: kept in the store's manifest
    labels: dict[str, Str] = Field(default_factory=dict)

    @field_validator("placement")
    @classmethod
    def _placement(cls, value: str | None) -> str | None:
        return _check_placement(value)


class Rule(_Model):
    """Conditions (all must hold) and what to set.  See docs/campaign.md "Rules"."""

    glob: StrList = Field(default_factory=list)
    path: str | None = None
    heading: str | None = None
    context: str | None = None
    tool: StrList = Field(default_factory=list)
    set: Assign = Field(default_factory=Assign)

    @field_validator("path")
    @classmethod
    def _template(cls, value: str | None) -> str | None:
        if value is not None:
            template_regex(value)
        return value

    @field_validator("heading", "context")
    @classmethod
    def _pattern(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"bad regular expression {value!r}: {exc}") from None
        return value

    def captured(self) -> set[str]:
        """Names the rule's path template and patterns capture."""
        names: set[str] = set()
        if self.path is not None:
            names |= set(template_regex(self.path).groupindex)
        for pattern in (self.heading, self.context):
            if pattern is not None:
                names |= set(re.compile(pattern).groupindex)
        return names

    @model_validator(mode="after")
    def _conditions(self) -> Rule:
        if not (self.glob or self.path or self.heading or self.context or self.tool):
            raise ValueError("a rule needs a condition: glob, path, heading, context or tool")
        captured = self.captured()
        values = [*self.set.items().values(), *self.set.labels.values()]
        for value in values:
            if not isinstance(value, str):
                continue
            for name in _fields(value):
                if name not in captured:
                    raise ValueError(
                        f"set: {{{name}}} is not captured by this rule's path or patterns"
                        f" (captured: {', '.join(sorted(captured)) or 'nothing'})"
                    )
        return self


class Expectation(_Model):
    """A check of seed 003's fleet baseline: what a VM of a size should measure
    (docs/campaign.md "Expectations"; :mod:`azlatency.stats.baseline` gives the verdicts)."""

    check: str
    metric: str
    target: Str
    stat: str = "mean"
    tool: Str | None = None
    basis: Literal["rtt", "half_rtt"] | None = None
    tolerance: float = Field(0.1, ge=0, lt=1)
    vm: Literal["src_host", "dst_host"] = "src_host"
    vm_size: StrList = Field(default_factory=list)
    hosts: StrList = Field(default_factory=list)
    where: dict[str, Str | list[Str]] = Field(default_factory=dict)

    @field_validator("stat")
    @classmethod
    def _stat(cls, value: str) -> str:
        if not re.fullmatch(r"mean|min|max|p\d+(\.\d+)?", value):
            raise ValueError(f"stat {value!r}: use mean, min, max or a percentile like p99")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Expectation:

        if self.basis is not None and self.metric in ("latency", "rtt", "half_rtt"):
            if self.metric != "latency" and self.metric != self.basis:
                raise ValueError(f"metric {self.metric!r} is not of basis {self.basis!r}")
            object.__setattr__(self, "metric", self.basis)
        elif self.metric == "latency":
            raise ValueError("metric 'latency' needs basis: rtt or half_rtt")
        target = parse_target(self.target, self.tolerance)
        check_units(self.metric, target)
        return self

    def as_dict(self) -> dict[str, Any]:
        return self.model_dump(exclude_defaults=False)


def parse_margin(value: Any) -> float:
    """``"10%"``, ``"10 %"`` or a fraction ``0.1`` → 0.1; ValueError for anything else or
    a margin outside (0, 100 %)."""
    text = str(value).strip()
    try:
        margin = float(text.removesuffix("%").strip()) / 100 if text.endswith("%") else float(text)
    except ValueError:
        raise ValueError(f"margin {value!r}: write a percentage like 10% (or 0.1)") from None
    if not 0 < margin < 1:
        raise ValueError(f"margin {value!r}: must lie between 0 and 100 % (exclusive)")
    return margin


def _baseline_form(value: Any) -> Any:
    # `baseline: other-campaign` is short for `baseline: {campaign: other-campaign}`
    return {"campaign": value} if isinstance(value, str | int | float) else value


class Baseline(_Model):
    """The campaign this one is compared with (``azlatency compare``, ``azlatency check``'s
    gate, notebook 60; docs/campaign.md "Baseline")."""

    campaign: Str = Field(min_length=1)
    margin: Annotated[float, BeforeValidator(parse_margin)] | None = None
    # the baseline's scenario label -> this campaign's, where the names differ
    scenarios: dict[Str, Str] = Field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return self.model_dump()


# What a campaign compares (its page answers that first): a run column, the zone pair, how
# stable latency stays over a long run (and what breaks it), or the fleet's expectations.
COMPARES = (
    "placement",
    "zone pair",
    "message size",
    "VM size",
    "accelerated networking",
    "stability",
    "baseline",
)
Compare = Literal[COMPARES]  # type: ignore[valid-type]


class Campaign(_Model):
    name: str | None = None
    description: str | None = None
    question: str | None = None  # the question the campaign was run to answer, in words
    # what the question compares, first answered first (one name or a list)
    compare: Annotated[list[Compare], BeforeValidator(_to_list)] = Field(default_factory=list)
    conclusion: str | None = None  # the write-up's own conclusion, quoted beside ours
    defaults: Defaults = Field(default_factory=Defaults)
    hosts: dict[Str, Host] = Field(default_factory=dict)
    rules: list[Rule] = Field(default_factory=list)
    ignore: StrList = Field(default_factory=list)
    expectations: list[Expectation] = Field(default_factory=list)
    baseline: Annotated[Baseline, BeforeValidator(_baseline_form)] | None = None

    @field_validator("baseline")
    @classmethod
    def _not_its_own_baseline(cls, value: Baseline | None, info: ValidationInfo):
        name = info.data.get("name")
        if value is not None and name and value.campaign == name:
            raise ValueError(f"{name!r} is this campaign itself")
        return value

    @field_validator("hosts")
    @classmethod
    def _unique_addresses(cls, hosts: dict[str, Host]) -> dict[str, Host]:
        seen: dict[str, str] = {}
        for key, host in hosts.items():
            for name in (key, *host.ip, *host.aliases):
                other = seen.setdefault(name.lower(), key)
                if other != key:
                    raise ValueError(f"{name!r} names both {other!r} and {key!r}")
        return hosts

    def host_index(self) -> dict[str, tuple[str | None, Host]]:
        """Lower-cased name, alias or IP → (host name or None for an IP-only entry, host)."""
        index: dict[str, tuple[str | None, Host]] = {}
        for key, host in self.hosts.items():
            name = None if _is_ip(key) else key
            for alias in (key, *host.ip, *host.aliases):
                index[alias.lower()] = (name, host)
        return index


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _fields(template: str) -> list[str]:
    return [f for _, f, _, _ in string.Formatter().parse(template) if f]


@lru_cache(maxsize=256)
def template_regex(template: str) -> re.Pattern[str]:
    """``{src_zone}-{dst_zone}/{tool}.log`` → a regex matching a path or a tail of it.

    ``{name}`` matches one path segment part (no ``/``); ``{tool}`` and ``{_}`` only match;
    ``*`` is any run of characters within a segment.
    """
    parts = re.split(r"(\{[^{}]*\})", template)
    out, names = [], set()
    for part in parts:
        if part.startswith("{") and part.endswith("}"):
            name = part[1:-1].strip()
            if not re.fullmatch(r"[A-Za-z_]\w*", name):
                raise ValueError(f"path: bad placeholder {part!r} in {template!r}")
            if name in ("tool", "_"):
                out.append(r"[^/]+?")
                continue
            if name in names:
                raise ValueError(f"path: placeholder {part!r} used twice in {template!r}")
            names.add(name)
            out.append(rf"(?P<{name}>[^/]+?)")
        else:
            out.append(re.escape(part).replace(r"\*", r"[^/]*"))
    return re.compile(r"(?:^|.*/)" + "".join(out) + r"$")


# ---------------------------------------------------------------------------------------------
# Reading with located errors.


class _Located(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line, self.message = line, message


def _line_map(node: yaml.Node, path: tuple = (), out: dict | None = None) -> dict:
    """Key path → 1-based line, for every mapping key and sequence item; duplicate keys fail."""
    out = {} if out is None else out
    out.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = key_node.value
            line = key_node.start_mark.line + 1
            if key in seen:
                dotted = ".".join(map(str, (*path, key)))
                raise _Located(line, f"{dotted}: duplicate key (first on line {seen[key]})")
            seen[key] = line
            out[(*path, key)] = line
            _line_map(value_node, (*path, key), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            out[(*path, i)] = item.start_mark.line + 1
            _line_map(item, (*path, i), out)
    return out


def _where(lines: dict, loc: tuple) -> int | None:
    for n in range(len(loc), -1, -1):
        key = tuple(str(p) if not isinstance(p, int) else p for p in loc[:n])
        if key in lines:
            return lines[key]
    return None


def parse_campaign(text: str, source: str = FILENAME) -> Campaign:
    """Validate the text of a ``campaign.yaml``; :class:`CampaignError` names key and line."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        lines = _line_map(node) if node is not None else {}
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark else ""
        raise CampaignError(f"{source}{line}: not valid YAML: {exc.problem or exc}") from None
    except _Located as exc:
        raise CampaignError(f"{source}:{exc.line}: {exc.message}") from None
    if data is None:
        return Campaign()
    if not isinstance(data, dict):
        raise CampaignError(f"{source}:1: expected a mapping of keys (defaults, hosts, rules)")
    try:
        return Campaign.model_validate(data)
    except ValidationError as exc:
        messages = []
        for err in exc.errors():
            loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and "[" in p))
            line = _where(lines, loc)
            key = ".".join(map(str, loc)) or "(top level)"
            msg = err["msg"].removeprefix("Value error, ")
            messages.append(f"{source}:{line}: {key}: {msg}" if line else f"{source}: {key}: {msg}")
        raise CampaignError("\n".join(messages)) from None

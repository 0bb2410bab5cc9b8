"""Label runs with where they ran: what the log says, then rules, inventory and defaults.

Order of authority (docs/campaign.md "How a run is labelled"):

1. **what the file says** — values the parser read (``dst_ip`` from ``Connecting to host``,
   columns of a reported-values CSV) and the shell prompt: ``root@malzonka02`` ran the
   command, so it is the client (``src_host``) unless the run is a server-side log;
2. **rules** of ``campaign.yaml``, in order (a later matching rule overrides an earlier one);
3. **the host inventory**: host name or IP → zone, availability set, PPG, VM size, region;
4. **placement derived** from the pair (same host, region, PPG, availability set, zones);
5. **campaign defaults**.

Each step only fills what is still empty.  A later source that disagrees with a filled value
is reported as a ``label_conflict`` instead of silently overwriting it.
"""

from __future__ import annotations

import fnmatch
import json
import re
from typing import Any

import pandas as pd

from .. import parsers, schema
from . import zones
from .config import ASSIGNABLE, REGIONAL, Campaign, Host, Rule, parse_bool, template_regex

Issue = tuple[str, str]  # (issue, detail) for the quality list
# Roles of a run logged on the measured pair's server side (ntttcp -r is the "receiver").
SERVER_ROLES = ("server", "receiver")


def _empty(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):  # list-likes are never "empty" labels here
        return False


def match_path(source_path: str) -> str:
    """Archive entries ``logs.zip!/a/b.log`` match rules as if the archive were a folder."""
    return source_path.replace("!/", "/")


def rule_captures(rule: Rule, run: dict[str, Any]) -> dict[str, str] | None:
    """The names a rule captures on ``run``, or ``None`` when one of its conditions fails."""
    source = str(run.get("source_path") or "")
    path = match_path(source)
    # Inside an archive a glob may also be written as if the entries were unpacked here.
    candidates = (path, source.split("!/", 1)[1]) if "!/" in source else (path,)
    if rule.glob and not any(fnmatch.fnmatchcase(p, g) for p in candidates for g in rule.glob):
        return None
    if rule.tool and run.get("tool") not in rule.tool:
        return None
    captures: dict[str, str] = {}
    if rule.path is not None:
        m = template_regex(rule.path).match(path)
        if m is None:
            return None
        captures.update(m.groupdict())
    for key in ("heading", "context"):
        pattern = getattr(rule, key)
        if pattern is None:
            continue
        text = run.get(key)
        m = re.search(pattern, text) if isinstance(text, str) else None
        if m is None:
            return None
        captures.update({k: v for k, v in m.groupdict().items() if v is not None})
    return captures


def rule_values(rules: list[Rule], run: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """Attributes and labels the matching rules assign (later rules override earlier ones)."""
    values: dict[str, Any] = {}
    labels: dict[str, str] = {}
    for rule in rules:
        captures = rule_captures(rule, run)
        if captures is None:
            continue
        values.update({k: v for k, v in captures.items() if k in ASSIGNABLE})
        for key, value in rule.set.items().items():
            values[key] = value.format_map(captures) if isinstance(value, str) else value
        labels.update({k: v.format_map(captures) for k, v in rule.set.labels.items()})
    if isinstance(values.get("accelerated_networking"), str):
        values["accelerated_networking"] = parse_bool(values["accelerated_networking"])
    return values, labels


class _Labeller:
    def __init__(self, campaign: Campaign, name: str) -> None:
        self.campaign = campaign
        self.name = name
        self.index = campaign.host_index()

    def lookup(self, *keys: Any) -> tuple[str | None, Host] | None:
        for key in keys:
            if isinstance(key, str) and key.strip():
                found = self.index.get(key.strip().lower())
                if found is not None:
                    return found
        return None

    def fill(self, run: dict, key: str, value: Any, origin: str, issues: list[Issue]) -> None:
        if _empty(value):
            return
        if _empty(run.get(key)):
            run[key] = value
        elif str(run[key]) != str(value):
            issues.append(("label_conflict", f"{key}: {origin} says {value!r}, kept {run[key]!r}"))

    def label(self, run: dict[str, Any]) -> tuple[dict[str, Any], list[Issue]]:
        run = dict(run)
        issues: list[Issue] = []
        run["campaign"] = self.name
        # 1. the shell prompt names the host that ran the command.
        side = "dst_host" if run.get("role") in SERVER_ROLES else "src_host"
        self.fill(run, side, run.get("prompt_host"), "the shell prompt", issues)
        # 2. rules.  The zones a rule names are a claim about the pair, solved over the whole
        # campaign with the addresses (campaign.zones), not filled here.
        values, rule_labels = rule_values(self.campaign.rules, run)
        run["_regional"] = _regional_ends(values)
        run["_claim"] = claim = _zone_claim(values, run)
        for key, value in values.items():
            if key not in ("zone_a", "zone_b") and (claim is None or key not in ZONE_KEYS):
                self.fill(run, key, value, "a campaign.yaml rule", issues)
        # 3. inventory, both sides.
        hosts = {}
        for s in ("src", "dst"):
            found = self.lookup(run.get(f"{s}_host"), run.get(f"{s}_ip"))
            hosts[s] = found
            if found is None:
                continue
            name, host = found
            known = {a.lower() for a in (*host.ip, *host.aliases)}
            if name and str(run.get(f"{s}_host") or "").lower() in known:
                # The log named the host by an IP or alias of it: use the inventory's name.
                run[f"{s}_host"] = name
            self.fill(run, f"{s}_host", name, "the host inventory", issues)
            if len(host.ip) == 1:
                self.fill(run, f"{s}_ip", host.ip[0], "the host inventory", issues)
            self.fill(
                run, f"{s}_zone", host.zone_label, f"the inventory ({name or host.ip})", issues
            )
        for key in ("vm_size", "region", "accelerated_networking"):
            both = {getattr(h[1], key) for h in hosts.values() if h is not None} - {None}
            if len(both) == 1:
                self.fill(run, key, both.pop(), "the host inventory", issues)
        # 4. placement of the pair.
        self.fill(run, "placement", derive_placement(run, hosts), "the host inventory", issues)
        # 5. defaults.
        d = self.campaign.defaults
        for key in ("region", "vm_size", "accelerated_networking", "placement", "scenario"):
            self.fill(run, key, getattr(d, key), "campaign defaults", issues)
        run["labels"] = _merge_labels(d.labels, rule_labels, run.get("labels"))
        return run, issues

    def inventory_zones(self) -> dict[str, str]:
        """Host name, alias or IP (lower case) → zone, for the hosts that have one."""
        return {k: h.zone_label for k, (_n, h) in self.index.items() if h.zone_label}

    def regional(self, run: dict[str, Any], side: str) -> bool:
        found = self.lookup(run.get(f"{side}_host"), run.get(f"{side}_ip"))
        return found is not None and found[1].regional


ZONE_KEYS = ("src_zone", "dst_zone", "zone_a", "zone_b")


def _regional_ends(values: dict[str, Any]) -> set[str]:
    """The ends a rule says have no zone (``src_zone: none``, ``zone_a: none, zone_b: none``;
    or ``regional``, as a host's ``zone:``), taken out of ``values``: the zone stays empty and
    is not missing.  Read as a zone named 'none', an availability set's runs were a zone pair
    'none-none', and a host they shared with a zonal run was put in zone 'none'."""
    no = {k for k in ZONE_KEYS if str(values.get(k, "")).strip().lower() in REGIONAL}
    for key in no | ({"zone_a", "zone_b"} if no & {"zone_a", "zone_b"} else set()):
        values.pop(key, None)  # one end of an unordered pair without a zone: no claim
    ends = {k.removesuffix("_zone") for k in no & {"src_zone", "dst_zone"}}
    return ends | ({"src", "dst"} if {"zone_a", "zone_b"} <= no else set())


def _zone_claim(values: dict[str, Any], run: dict[str, Any]) -> tuple | None:
    """What the matching rules say of the pair's zones: ``(a, b, ordered, origin)``.  Zones
    named ``zone_a``/``zone_b`` are a pair without a direction; ``src_zone``/``dst_zone`` say
    which end is the client (checked against the addresses by ``campaign.zones``)."""
    if _empty(values.get("zone_a")) != _empty(values.get("zone_b")):
        values.pop("zone_a", None), values.pop("zone_b", None)  # one end of a pair: no claim
    for a, b, ordered in (("src_zone", "dst_zone", True), ("zone_a", "zone_b", False)):
        if (
            _empty(run.get(a))
            and _empty(run.get(b))
            and not (_empty(values.get(a)) or _empty(values.get(b)))
        ):
            heading = run.get("heading")
            origin = "campaign.yaml's rule" + (
                f" on the heading {heading!r}" if isinstance(heading, str) and heading else ""
            )
            return (str(values[a]), str(values[b]), ordered, origin)
    return None


def derive_placement(run: dict[str, Any], hosts: dict[str, Any]) -> str | None:
    """Placement vocabulary (docs/campaign.md): the most specific fact about the pair wins."""
    src, dst = hosts.get("src"), hosts.get("dst")
    if src is not None and dst is not None:
        if src[1] is dst[1]:
            return "same_node"
        a, b = src[1], dst[1]
        if a.region and b.region and a.region != b.region:
            return "cross_region"
        if a.ppg and a.ppg == b.ppg:
            return "ppg"
        if a.availability_set and a.availability_set == b.availability_set:
            return "availability_set"
    elif not _empty(run.get("src_host")) and run.get("src_host") == run.get("dst_host"):
        return "same_node"
    zs, zd = run.get("src_zone"), run.get("dst_zone")
    if not _empty(zs) and not _empty(zd):
        return "same_zone" if str(zs) == str(zd) else "cross_zone"
    return None


def _merge_labels(*layers: Any) -> str | None:
    merged: dict[str, Any] = {}
    for layer in layers:
        if isinstance(layer, str) and layer.strip():
            layer = json.loads(layer)
        if isinstance(layer, dict):
            merged.update(layer)
    return json.dumps(merged, sort_keys=True, ensure_ascii=False) if merged else None


def _local(tool: Any) -> bool:
    """The tool measures the host it runs on (fio, iostat): no destination to label."""

    return isinstance(tool, str) and tool in parsers.tools() and parsers.get(tool).INFO.local


def _zone_issues(run: dict[str, Any], labeller: _Labeller) -> list[Issue]:
    missing = []
    regional = run.pop("_regional", set())
    for s in ("src",) if _local(run.get("tool")) else ("src", "dst"):
        if _empty(run.get(f"{s}_zone")) and not labeller.regional(run, s) and s not in regional:
            missing.append(f"{s}_zone")
    if not missing:
        return []
    if len(missing) == 2 and not _empty(run.get("zone_pair")):
        return [
            (
                "unordered_zones",
                f"the ends are in zones {run['zone_pair']}; nothing in the campaign says "
                "which end ran the client",
            )
        ]
    hint = " (same node)" if run.get("placement") == "same_node" else ""
    return [("unlabelled_zones", f"{' and '.join(missing)} unknown{hint}")]


def label_runs(
    runs: pd.DataFrame, campaign: Campaign, name: str
) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """Labelled copy of ``runs`` and the issues found (one dict per run and issue)."""

    labeller = _Labeller(campaign, name)
    rows, per_row = [], []
    for record in runs.to_dict(orient="records"):
        record = {k: (None if _empty(v) else v) for k, v in record.items()}
        row, issues = labeller.label(record)
        rows.append(row)
        per_row.append(issues)
    for i, issue, detail in zones.solve(rows, labeller.inventory_zones()):
        per_row[i].append((issue, detail))
    found = []
    for row, issues in zip(rows, per_row, strict=True):
        if _empty(row.get("placement")) and not _empty(row.get("zone_pair")):
            a, _, b = str(row["zone_pair"]).partition("-")
            row["placement"] = "same_zone" if a == b else "cross_zone"
        for issue, detail in [*issues, *_zone_issues(row, labeller)]:
            found.append({"run_id": row["run_id"], "issue": issue, "detail": detail})
    out = schema.frame("runs", rows) if rows else schema.empty("runs")
    return out, found

"""Which zone each host is in, from the whole campaign, and which end of a run was the client.

A heading such as ``### AZ1 - AZ2`` names the two zones of a pair of VMs, not which of them
ran the client (seed 001: the ``AZ1 - ...`` sections all have the server 10.2.0.21 in zone 1,
so in ``AZ1 - AZ2`` the client 10.2.0.58 is the zone-2 end).  The evidence is solved over
the whole campaign at once:

* the host inventory of ``campaign.yaml`` says a host's zone outright;
* a run labelled with two zones (``zone_a``/``zone_b`` captured by a rule: "these two ends are
  in these zones, order unknown"; or ``src_zone``/``dst_zone`` set by a rule) ties its two
  ends: a same-zone label puts both ends in that zone, and once one end's zone is known the
  other end is in the other zone;
* the ends are the addresses and host names the logs print (``local 10.2.0.58 ... connected
  to 10.2.0.21``, sockperf's ``IP = 10.2.0.21``, the shell prompt), one host per name or
  address, the two of one side of a run being one host.

A run's ``src_zone`` (the client's) and ``dst_zone`` (the server's) are set only where the
evidence proves them, or where ``campaign.yaml`` states them as source and destination and
nothing contradicts it; ``zone_pair`` (``"1-2"``) holds the two zones whether or not the
direction is known.  A rule whose stated direction the addresses contradict gives a
``zone_direction`` quality note and the addresses win; a host found in two zones gives a
``zone_conflict`` note and is left unsolved; an address that rules stating client and server
zones put in two, with nothing else to place it, a ``zone_conflict`` note too, the rules'
zones kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

Issue = tuple[int, str, str]  # (row index, issue, detail)
SIDES = ("src", "dst")


def pair_label(a: Any, b: Any) -> str:
    """``'3', '1'`` → ``'1-3'``: the zone pair without a direction (numbers in number order)."""

    def key(z: str) -> tuple[int, Any]:
        return (0, int(z)) if re.fullmatch(r"\d+", z) else (1, z)

    x, y = sorted((str(a), str(b)), key=key)
    return f"{x}-{y}"


def _blank(v: Any) -> bool:
    return v is None or (isinstance(v, float) and v != v) or (isinstance(v, str) and not v.strip())


@dataclass
class _Hosts:
    """Union-find over the names and addresses of the hosts a campaign's runs print."""

    parent: dict[str, str] = field(default_factory=dict)
    zone: dict[str, str] = field(default_factory=dict)  # root -> zone
    why: dict[str, str] = field(default_factory=dict)  # root -> the evidence, in words
    clash: dict[str, str] = field(default_factory=dict)  # root -> the conflicting evidence

    def find(self, key: str) -> str:
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra
            for d in (self.zone, self.why):
                if rb in d and ra not in d:
                    d[ra] = d.pop(rb)

    def settle(self, node: str, zone: str, why: str) -> bool:
        """Put ``node`` in ``zone``; True when that is new."""
        root = self.find(node)
        have = self.zone.get(root)
        if have is None:
            self.zone[root], self.why[root] = zone, why
            return True
        if have != zone and root not in self.clash:
            self.clash[root] = f"{self.why[root]} says zone {have}, {why} says zone {zone}"
        return False


def _keys(row: dict[str, Any], side: str) -> list[str]:
    return [
        str(row[k]).strip().lower()
        for k in (f"{side}_host", f"{side}_ip")
        if not _blank(row.get(k)) and str(row[k]).strip() not in ("$ip", "${ip}")
    ]


def _where(row: dict[str, Any]) -> str:
    return f"{row.get('source_path')}:{row.get('line_start')}"


def solve(rows: list[dict[str, Any]], inventory: dict[str, str]) -> list[Issue]:
    """Set ``src_zone``, ``dst_zone`` and ``zone_pair`` of every row (labelled runs, each with
    ``_claim``: ``(zone, zone, ordered, origin)`` or None) in place; ``inventory``: host name or
    IP (lower case) → zone.  The quality notes found, by row index."""
    hosts = _Hosts()
    nodes: list[dict[str, str | None]] = []
    for row in rows:
        ends: dict[str, str | None] = {}
        for side in SIDES:
            keys = _keys(row, side)
            for k in keys[1:]:
                hosts.union(keys[0], k)
            ends[side] = keys[0] if keys else None
            for k in keys:
                if k in inventory:
                    hosts.settle(k, inventory[k], f"the host inventory ({k})")
        nodes.append(ends)
    _propagate(rows, nodes, hosts)
    issues: list[Issue] = _rule_clashes(rows, nodes, hosts)
    bad = {root: text for root, text in hosts.clash.items()}
    for i, (row, ends) in enumerate(zip(rows, nodes, strict=True)):
        issues += _settle_row(i, row, ends, hosts, bad)
    return issues


def _rule_clashes(
    rows: list[dict[str, Any]], nodes: list[dict[str, str | None]], hosts: _Hosts
) -> list[Issue]:
    """Hosts that campaign.yaml's rules, stating a client's and a server's zone, put in two
    zones where no evidence places them: hping3 to 10.207.0.2 filed under '1-2/' and under
    '2-3/'.  One host is in one zone; an address may be two VMs' (one redeployed), so the
    rules' zones are kept and each run says so (``zone_conflict``)."""
    said: dict[str, dict[str, list[tuple[int, str]]]] = {}  # root -> zone -> (row, where)
    named: dict[str, str] = {}  # root -> the name or address it was first met by
    for i, (row, ends) in enumerate(zip(rows, nodes, strict=True)):
        claim = row.get("_claim")
        if claim is None or not claim[2] or claim[0] == claim[1]:
            continue  # no ordered claim (a same-zone one is evidence, settled above)
        for side, zone in zip(SIDES, claim[:2], strict=True):
            node = ends[side]
            root = hosts.find(node) if node is not None else None
            if root is not None and hosts.zone.get(root) is None:
                said.setdefault(root, {}).setdefault(zone, []).append((i, _where(row)))
                named.setdefault(root, node)
    out: list[Issue] = []
    for root, zones in said.items():
        if len(zones) < 2:
            continue
        each = " and ".join(f"zone {z} ({w[0][1]})" for z, w in sorted(zones.items()))
        text = (
            f"{named[root]}: campaign.yaml's rules put it in {each}: one host in two zones, or one "
            "address of two VMs (one redeployed)? The rules' zones are kept"
        )
        out += [(i, "zone_conflict", text) for rows_ in zones.values() for i, _ in rows_]
    return out


def _propagate(rows: list[dict[str, Any]], nodes: list[dict[str, str | None]], hosts: _Hosts):
    """Spread zones through the pair labels until nothing changes."""
    changed = True
    while changed:
        changed = False
        for row, ends in zip(rows, nodes, strict=True):
            claim = row.get("_claim")
            if claim is None:
                continue
            a, b, _ordered, origin = claim
            why = f"{origin} at {_where(row)}"
            src, dst = ends["src"], ends["dst"]
            if a == b:
                for node in (src, dst):
                    if node is not None:
                        changed |= hosts.settle(node, a, why)
                continue
            for this, other in ((src, dst), (dst, src)):
                if this is None or other is None:
                    continue
                z = hosts.zone.get(hosts.find(this))
                if z in (a, b) and hosts.find(this) not in hosts.clash:
                    changed |= hosts.settle(other, b if z == a else a, why)


def _settle_row(
    i: int, row: dict[str, Any], ends: dict[str, str | None], hosts: _Hosts, bad: dict
) -> list[Issue]:
    issues: list[Issue] = []
    known: dict[str, str | None] = {}
    for side in SIDES:
        node = ends[side]
        root = hosts.find(node) if node is not None else None
        if root in bad:
            issues.append((i, "zone_conflict", f"{node}: {bad[root]}"))
            known[side] = None
        else:
            known[side] = hosts.zone.get(root) if root is not None else None
    claim = row.pop("_claim", None)
    src, dst = known["src"], known["dst"]
    if row.get("placement") == "same_node" and (src is None) != (dst is None):
        src = dst = src or dst  # one machine: both ends in its zone
    if claim is not None:
        a, b, ordered, origin = claim
        if src is None and dst in (a, b):
            src = b if dst == a else a
        elif dst is None and src in (a, b):
            dst = b if src == a else a
        elif src is None and dst is None:
            if a == b or ordered:
                src, dst = a, b
            else:
                row["zone_pair"] = pair_label(a, b)
        if ordered and src is not None and (src, dst) != (a, b) and {src, dst} == {a, b}:
            issues.append(
                (
                    i,
                    "zone_direction",
                    f"{origin} says client zone {a}, server zone {b}; the addresses put "
                    f"the client{_named(row, 'src')} in zone {src} and the server"
                    f"{_named(row, 'dst')} in zone {dst}, which is kept",
                )
            )
        elif src is not None and dst is not None and {src, dst} != {a, b}:
            issues.append(
                (
                    i,
                    "label_conflict",
                    f"zones: {origin} says {pair_label(a, b)}, the hosts are in "
                    f"{pair_label(src, dst)} (kept)",
                )
            )
    for side, z in (("src", src), ("dst", dst)):
        if z is not None and (claim is not None or _blank(row.get(f"{side}_zone"))):
            row[f"{side}_zone"] = z  # a rule's own zone (no pair claim) keeps its authority
    if not _blank(row.get("src_zone")) and not _blank(row.get("dst_zone")):
        row["zone_pair"] = pair_label(row["src_zone"], row["dst_zone"])
    return issues


def _named(row: dict[str, Any], side: str) -> str:
    name = row.get(f"{side}_ip") or row.get(f"{side}_host")
    return f" ({name})" if not _blank(name) else ""

"""The front page of a report site: every campaign with its headline numbers, and every page.

The numbers are those each campaign's ``90-campaign-report`` stated (its ``front`` claim), so
the front page and the campaign's own page cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ._show import fmt, read_claims

_MAX_PAIRS = 9  # a 3-zone region has 9 directed pairs; more are on the campaign's pages


def _pairs(front: dict) -> str:
    z = front.get("zone_medians_us") or {}
    if not z:
        return "no zone pair labelled"
    shown = [f"{k.replace('->', '→')} {fmt(v)}" for k, v in list(z.items())[:_MAX_PAIRS]]
    more = f", … ({len(z)} pairs)" if len(z) > _MAX_PAIRS else ""
    return f"{front.get('zone_what')}: " + ", ".join(shown) + more


def _worst(front: dict) -> str:
    w = front.get("worst_p99_us") or {}
    if not w:
        return "no p99 (too few samples, none printed)"
    return "; ".join(
        f"{fmt(v['value_us'])} {basis} ({v['label']}"
        + (", printed" if v.get("source") == "reported" else "")
        + ")"
        for basis, v in w.items()
    )


def campaign_rows(pages: Sequence, notebooks_dir: Path) -> list[str]:
    """One Markdown table row per campaign with a run 90 page."""
    rows = []
    for p in pages:
        if not p.stem.startswith("90-"):
            continue
        name = p.campaigns[0]
        links = f"[report]({p.doc}.md)" if p.status != "run" else f"[report]({p.doc}.ipynb)"
        zone = next((q for q in pages if q.stem.startswith("20-") and q.folder == p.folder), None)
        if zone is not None:
            links += f" · [zone pairs]({zone.doc}.{'ipynb' if zone.status == 'run' else 'md'})"
        ab = next((q for q in pages if q.stem.startswith("60-") and q.folder == p.folder), None)
        if ab is not None and ab.status == "run":  # the campaign names its baseline
            links += f" · [against its baseline]({ab.doc}.ipynb)"
        front = {}
        if p.status == "run":
            front = read_claims(notebooks_dir / f"{p.doc}.ipynb").get("front") or {}
        if not front:
            rows.append(f"| `{name}` | {p.status}: see the report | | | | {links} |")
            continue
        not_imp = str(front["files_not_imported"]) + (
            f" (+{front['files_ignored']} ignored)" if front.get("files_ignored") else ""
        )
        rows.append(
            f"| `{name}` | {front['runs']} | {not_imp} | {_pairs(front)} | {_worst(front)} "
            f"| {links} |"
        )
    return rows


def markdown(
    campaigns: Sequence[str], pages: Sequence, notebooks_dir: Path, titles: dict[str, str]
) -> str:
    """The front page (``index.md`` of the site)."""
    several = len(campaigns) > 1
    lines = [
        "# azlatency reports",
        "",
        f"{len(campaigns)} campaign{'s' if several else ''}: "
        + ", ".join(f"`{c}`" for c in campaigns)
        + ". Latency in µs; each campaign's basis "
        "(rtt = round trip, half_rtt = half of one) is stated with its numbers.",
        "",
        "## Campaigns",
        "",
        "| campaign | runs | files not imported | median per zone pair | worst p99 | pages |",
        "|---|---|---|---|---|---|",
        *campaign_rows(pages, notebooks_dir),
        "",
        "## Across campaigns" if several else "## Pages",
        "",
    ]
    for p in pages:
        if p.folder:
            continue
        title = titles.get(p.stem, p.stem)
        if p.status == "run":
            extra = f" (left out: {', '.join(sorted(p.left_out))})" if p.left_out else ""
            lines.append(f"- [{title}]({p.doc}.ipynb){extra}")
        else:
            lines.append(f"- [{title}]({p.doc}.md): {p.status}, {p.reason}")
    skipped = [p for p in pages if p.folder and p.status != "run"]
    if skipped:
        lines += ["", "## Not run", ""]
        lines += [
            f"- [{titles.get(p.stem, p.stem)}]({p.doc}.md) for `{p.campaigns[0]}`: {p.status}, "
            f"{p.reason}"
            for p in skipped
        ]
    return "\n".join(lines) + "\n"

"""Computing the completion rules of a snapshot against the country's targets."""

from __future__ import annotations

from chalicelib.domain.coverage import CountRule, Coverage, FractionRule
from chalicelib.domain.snapshots import Snapshot
from chalicelib.reference.pool_config import CoverageTargets
from chalicelib.reference.regions import gazetteer


def compute_coverage(snapshot: Snapshot, targets: CoverageTargets) -> Coverage:
    first_level = {r.code for r in gazetteer(snapshot.country).first_level}
    per_region: dict[str, int] = {}
    for address in snapshot.addresses:
        code = address.components.region_code
        if code in first_level:
            per_region[code] = per_region.get(code, 0) + 1
    minimum = targets.regional_minimum.min_addresses
    holding = sum(1 for count in per_region.values() if count >= minimum)
    return Coverage(
        country=snapshot.country,
        total=CountRule(snapshot.count, targets.total),
        administrative=FractionRule(
            _share(len(per_region), len(first_level)), targets.administrative_coverage
        ),
        regional_minimums=FractionRule(_share(holding, len(per_region)), targets.regional_minimum.share),
    )


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0

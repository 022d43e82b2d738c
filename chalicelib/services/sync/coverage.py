"""Computing the completion rules of a snapshot against the country's targets."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.coverage import CountRule, Coverage, FractionRule
from chalicelib.reference.pool_config import CoverageTargets
from chalicelib.reference.regions import gazetteer


def region_counts(addresses: Iterable[PublishedAddress]) -> Counter[str]:
    """Addresses per region code: what coverage needs of a snapshot, summed cell by cell when sharded."""
    return Counter(a.components.region_code for a in addresses if a.components.region_code)


def compute_coverage(
    country: str, total: int, per_region_code: Mapping[str, int], targets: CoverageTargets
) -> Coverage:
    first_level = {r.code for r in gazetteer(country).first_level}
    per_region = {code: n for code, n in per_region_code.items() if code in first_level}
    minimum = targets.regional_minimum.min_addresses
    holding = sum(1 for count in per_region.values() if count >= minimum)
    return Coverage(
        country=country,
        total=CountRule(total, targets.total),
        administrative=FractionRule(
            _share(len(per_region), len(first_level)), targets.administrative_coverage
        ),
        regional_minimums=FractionRule(_share(holding, len(per_region)), targets.regional_minimum.share),
    )


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0

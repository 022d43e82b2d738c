"""A country's coverage and the configuration's issues as the reports and the admin API show them."""

from __future__ import annotations

from collections.abc import Iterable

from chalicelib.api.models.reports import (
    ConfigurationIssue,
    CountRule,
    CoverageEntry,
    CoverageRules,
    FractionRule,
)
from chalicelib.domain.coverage import Coverage
from chalicelib.reference.pool_config import ConfigIssue


def coverage_entry(c: Coverage) -> CoverageEntry:
    rules = CoverageRules(
        total=CountRule.model_validate(c.total, from_attributes=True),
        administrative_coverage=FractionRule.model_validate(c.administrative, from_attributes=True),
        regional_minimums=FractionRule.model_validate(c.regional_minimums, from_attributes=True),
    )
    return CoverageEntry(country_code=c.country, complete=c.complete, rules=rules)


def configuration_issues(issues: Iterable[ConfigIssue]) -> list[ConfigurationIssue]:
    return [ConfigurationIssue.model_validate(i, from_attributes=True) for i in issues]

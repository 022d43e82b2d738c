"""`sources discover`: the manifest of the world's open addresses, written for an operator to read
and diff. Overture's newest release serves the enabled countries it holds (a task per country and
run of a part's row groups); each enabled country it lacks gets its own Geofabrik OSM extract; a
country with neither is listed with the reason."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO, Any, Protocol

from chalicelib.errors import ConfigurationError
from chalicelib.reference.pool_config import PoolConfig
from chalicelib.sources.geofabrik import Extract, NoExtract, extracts_for, parse_index
from chalicelib.sources.manifest import SourceEntry
from chalicelib.sources.overture_plan import (
    Publication,
    countries_of,
    manifest_entries,
    newest_release,
    plan_tasks,
    row_group_facts,
)

# A task's rows: some 50 s of map work at the measured rate, well within a Lambda's 15 minutes and
# a Fargate task's memory (a row group at a time), and ~10 of Overture's row groups.
TASK_ROWS = 500_000
OVERTURE_LICENSE = "not stated by Overture for this dataset: see its publisher's terms"
OVERTURE_ATTRIBUTION = "© Overture Maps Foundation (overturemaps.org) and the dataset's publisher"
OSM_LICENSE, OSM_ATTRIBUTION = "ODbL-1.0", "© OpenStreetMap contributors"


class Releases(Protocol):
    def releases(self) -> list[str]: ...
    def parts(self, release: str) -> list[str]: ...
    def location(self, release: str) -> str: ...
    def open_part(self, release: str, part: str) -> IO[bytes]: ...


@dataclass(frozen=True)
class Discovered:
    release: str | None
    entries: list[SourceEntry]
    missing: list[NoExtract]  # enabled countries neither Overture nor an OSM extract serves


def discover(
    releases: Releases,
    extracts: list[Extract],
    config: PoolConfig,
    names: Mapping[str, str],
    task_rows: int = TASK_ROWS,
) -> Discovered:
    enabled = set(config.enabled)
    release = newest_release(releases.releases())
    entries: list[SourceEntry] = []
    held: set[str] = set()
    if release is not None:
        parts = releases.parts(release)
        if not parts:  # never fall back to OSM for every country on a listing's hiccup
            raise ConfigurationError(f"Overture release {release} lists no parts")
        footers = {}
        for part in parts:
            with releases.open_part(release, part) as opened:
                footers[part] = row_group_facts(opened, label=f"release {release}, part {part}")
        held = countries_of(footers) & enabled
        publication = Publication(release, releases.location(release), OVERTURE_LICENSE, OVERTURE_ATTRIBUTION)
        entries += manifest_entries(publication, plan_tasks(footers, held, task_rows))
    found, missing = extracts_for(extracts, enabled - held, names)
    languages = config.primary_languages()
    entries += [
        _osm_entry(country, extract, languages.get(country, "")) for country, extract in sorted(found.items())
    ]
    return Discovered(release, entries, missing)


def _osm_entry(country: str, extract: Extract, language: str) -> SourceEntry:
    name = extract.id.replace("/", "-")
    return SourceEntry(
        id=f"osm-{name}-{country.lower()}",
        country=country,
        format="osm-pbf",
        files=(f"osm/{name}-{country.lower()}.osm.pbf",),
        language=language,
        license=OSM_LICENSE,
        attribution=OSM_ATTRIBUTION,
        upstream=extract.pbf,
    )


class NoReleases:
    """Discovery without Overture: every enabled country from its Geofabrik extract."""

    def releases(self) -> list[str]:
        return []

    def parts(self, release: str) -> list[str]:
        return []

    def location(self, release: str) -> str:
        return ""

    def open_part(self, release: str, part: str) -> IO[bytes]:
        raise ConfigurationError("no Overture bucket to read")


@dataclass(frozen=True)
class Upstreams:
    """What the scheduled sync's Discover state reads: Overture's bucket, and Geofabrik's index
    (its text, fetched when called); either may be absent."""

    releases: Releases | None
    geofabrik_index: Callable[[], str] | None


def discover_manifest(
    upstreams: Upstreams,
    config: PoolConfig,
    keep: Callable[[list[SourceEntry]], None],
    task_rows: int = TASK_ROWS,
) -> dict[str, Any]:
    """Discovery as the sync's first state: the manifest written where the acquisition and the
    build read it (`keep`), and a summary for the execution's history. A discovery that finds
    nothing, or an index that cannot be read, raises and keeps the manifest held."""
    extracts: list[Extract] = []
    if upstreams.geofabrik_index is not None:
        try:
            extracts = parse_index(upstreams.geofabrik_index())
        except ValueError as exc:
            raise ConfigurationError(f"unreadable Geofabrik index: {exc}") from exc
    found = discover(upstreams.releases or NoReleases(), extracts, config, country_names(), task_rows)
    # A configured bucket listing no release is a listing's hiccup, not a world without Overture.
    if upstreams.releases is not None and found.release is None:
        raise ConfigurationError("the Overture bucket lists no release; the manifest held is kept")
    if not found.entries:
        raise ConfigurationError(
            "discovery found no source for any enabled country; the manifest held is kept"
        )
    keep(found.entries)
    return {
        "release": found.release,
        "entries": len(found.entries),
        "countries": sorted({e.country for e in found.entries}),
        "missing": [m.country for m in found.missing],
    }


def country_names() -> dict[str, str]:
    """ISO 3166-1 names, which Geofabrik's extracts are named after."""
    import pycountry  # lazy: only discovery needs the names

    return {c.alpha_2: c.name for c in pycountry.countries}

"""The generation use cases: one address, a batch, and lookup by id, each with the snapshot that
served it. Both strategies draw exactly uniformly with one read per address: `random` is already
the cheapest possible draw, so `instant` is accepted and served the same way."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal, Protocol

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.near_misses import CHANGED, REMOVING, Variant, VariantKind, another_city, needs
from chalicelib.domain.published import Placement, PublishedSnapshot
from chalicelib.domain.text_search import parse
from chalicelib.domain.withdrawals import Withdrawn
from chalicelib.errors import AddressNotFound, AddressWithdrawn, NoPoolCoverage
from chalicelib.reference.time_zones import zone_at
from chalicelib.services.generation.draws import draw_batch, draw_key, make_rng
from chalicelib.services.generation.near_misses import DONORS, make_variants
from chalicelib.services.generation.profiles import TestProfile, make_profile
from chalicelib.services.generation.selection import CatalogReader, Filters, query_of, select
from chalicelib.services.generation.text_draws import TextIndexReader, draw_text
from chalicelib.services.serving import ActiveSnapshotReader, Served


class AddressReader(TextIndexReader, Protocol):
    def get_many_by_ordinal(self, place: Placement, slots: Sequence[int]) -> dict[int, PublishedAddress]: ...
    def get_by_id(self, place: Placement, address_id: str) -> PublishedAddress | None: ...


class PinnedSnapshotReader(Protocol):
    def pinned(self, country: str, snapshot_id: str) -> Served: ...


class WithdrawnReader(Protocol):
    def of(self, country: str) -> Withdrawn: ...


@dataclass(frozen=True)
class GenerationPorts:
    snapshots: ActiveSnapshotReader
    pins: PinnedSnapshotReader
    catalog: CatalogReader
    pool: AddressReader
    withdrawn: WithdrawnReader  # addresses an operator withdrew: never served, from any snapshot


RelatedRole = Literal["billing", "shipping"]


@dataclass(frozen=True)
class Related:
    """A second real address for the same person (a billing one beside a shipping one, say)."""

    role: RelatedRole
    address: PublishedAddress
    time_zone: str


@dataclass(frozen=True)
class Generated:
    address: PublishedAddress
    time_zone: str  # the IANA zone of its point (reference/time_zones.py): its profile's phone keeps it
    profile: TestProfile
    variant: Variant | None = None  # a near-miss variant: what it changed, of which address
    related: Related | None = None  # with `related=`: the person's second address


@dataclass(frozen=True)
class Outcome:
    snapshot: PublishedSnapshot
    results: list[Generated]
    pinned_until: datetime | None = None  # pinned: the answer stands (seeded) until then at least

    @property
    def sources_tried(self) -> list[str]:
        return sorted({g.address.provenance.source_id for g in self.results})


@dataclass(frozen=True)
class BatchRequest:
    count: int
    unique: bool = True
    excluded: frozenset[str] = frozenset()
    variant: VariantKind | None = None  # near-miss variants of the drawn addresses instead
    email_domain: str | None = None  # the profiles' e-mail domain, one the caller owns; None: reserved ones
    related: RelatedRole | None = None  # each address's person gets a second address, in this role


ONE = BatchRequest(count=1)
# Candidates drawn for `related=`: one BatchGetItem, and a batch of 50 takes one each from its own
# place among them, so each person's second address is another's only where the country has few.
RELATED = 64


def generate(
    filters: Filters,
    ports: GenerationPorts,
    request: BatchRequest = ONE,
    *,
    seed: str | None,
    pinned: str | None = None,
) -> Outcome:
    """One address: the batch of one `request` describes (its count is 1)."""
    variant = request.variant
    outcome = generate_batch(filters, ports, request, seed=seed, pinned=pinned)
    if not outcome.results:  # only a q, a mark's filter or a variant can come back empty
        wanted = " and ".join(
            ([f"contains {filters.q!r}"] if filters.q else [])
            + ([f"is licensed {'+'.join(filters.licences)}"] if filters.licences else [])
            + ([f"has the traits {'+'.join(filters.traits)}"] if filters.traits else [])
            + ([f"is {filters.property_type} property"] if filters.property_type else [])
            + ([f"lies in {filters.area.said}"] if filters.area else [])
            + ([f"is in partition {filters.partition.said}"] if not filters.partition.whole else [])
            + ([f"has a {' and a '.join(needs(variant))} for variant={variant}"] if variant else [])
        )
        message = f"no published address in {filters.country} matching these filters {wanted}"
        if variant and variant not in REMOVING:
            message += f" beside another address of {filters.country} publishing another {CHANGED[variant]}"
        raise NoPoolCoverage(message)
    return outcome


def generate_batch(
    filters: Filters,
    ports: GenerationPorts,
    request: BatchRequest,
    *,
    seed: str | None,
    pinned: str | None = None,
) -> Outcome:
    served = serving(filters.country, ports, pinned)
    snapshot = served.snapshot
    if request.variant is None:
        addresses = draw(filters, snapshot, ports, request, seed)
        profiled = with_profiles(seed, addresses, request.email_domain)
        return Outcome(
            snapshot, with_related(profiled, filters, snapshot, ports, request, seed), served.pinned_until
        )
    kind = request.variant
    bases = draw(replace(filters, having=needs(kind)), snapshot, ports, replace(request, variant=None), seed)
    donors: list[PublishedAddress] = []
    if bases and kind not in REMOVING:
        # Donors come from the whole country, whatever the filters: another place's value.
        everywhere = Filters(filters.country, residential=False, having=needs(kind))
        donors = draw(everywhere, snapshot, ports, BatchRequest(count=DONORS), seed, "donors", kind)
    made = make_variants(bases, kind, donors)
    profiled = with_profiles(seed, [address for address, _ in made], request.email_domain)
    results = [replace(g, variant=v) for g, (_, v) in zip(profiled, made, strict=True)]
    return Outcome(
        snapshot, with_related(results, filters, snapshot, ports, request, seed), served.pinned_until
    )


def with_related(
    results: list[Generated],
    filters: Filters,
    snapshot: PublishedSnapshot,
    ports: GenerationPorts,
    request: BatchRequest,
    seed: str | None,
) -> list[Generated]:
    """Each result with a second real address of its country for the same person: one seeded
    draw of candidates from the whole country (its residential default and the partition kept),
    each result taking the first, from its own place among them, in another city where one is."""
    role = request.related
    if role is None or not results:
        return results
    everywhere = Filters(filters.country, residential=filters.residential, partition=filters.partition)
    wanted = BatchRequest(count=RELATED, excluded=request.excluded)
    candidates = draw(everywhere, snapshot, ports, wanted, seed, "related", role)
    related = []
    for n, generated in enumerate(results):
        second = elsewhere(generated.address, [*candidates[n % RELATED :], *candidates[: n % RELATED]])
        if second is None:
            related.append(generated)
            continue
        placed = Related(role, second, zone_at(second.lat, second.lon))
        related.append(replace(generated, related=placed))
    return related


def elsewhere(base: PublishedAddress, candidates: Sequence[PublishedAddress]) -> PublishedAddress | None:
    """The first candidate in another city than the base's; where none is (a one-city country),
    the first other address; None when there is no other."""
    others = [c for c in candidates if c.id != base.id]
    return next((c for c in others if another_city(base, c)), others[0] if others else None)


def draw(
    filters: Filters,
    snapshot: PublishedSnapshot,
    ports: GenerationPorts,
    request: BatchRequest,
    seed: str | None,
    *salt: str,
) -> list[PublishedAddress]:
    """The addresses a request draws from the snapshot; `salt` keys a second draw of one request
    (a variant's donors) apart from its first."""
    selection = select(filters, snapshot, ports.catalog)
    # The seed hashes what the filters select, not how they were written: a value and its stable id,
    # or an ISO code and a name, draw the same addresses.
    ranges = ",".join(f"{r.start}-{r.end}" for r in selection.ranges)
    # Not the count nor the exclusions: the i-th address depends on the key and i alone, so a
    # larger batch extends a smaller one and excluding an address moves the next one up.
    query = query_of(filters, snapshot)
    # The marks as the index keys them, where any: draws without them keep the keys they had.
    marks = [",".join(sorted(query.marks))] if query and query.marks else []
    marks += [",".join(sorted(group)) for group in query.any_of] if query else []
    # The area as asked (a cover is a function of it); none: the keys draws had before areas.
    area = [repr(filters.area)] if filters.area else []
    key = draw_key(
        seed, snapshot.snapshot_id, ranges, filters.q or "", str(request.unique), *marks, *area, *salt
    )

    def fetch(ordinals: Sequence[int]) -> dict[int, PublishedAddress]:
        # Another partition's addresses are never read (a text draw's candidates span every part).
        kept = [o for o in ordinals if filters.partition.holds(o)]
        return ports.pool.get_many_by_ordinal(snapshot.placement, kept) if kept else {}

    # A withdrawn address is passed over as an excluded one is: the draw stays uniform over the
    # others, and a seed lands where it did unless it landed on one (then on its next try).
    withdrawn = ports.withdrawn.of(filters.country)
    if query is not None or filters.area is not None:
        return draw_text(
            query or parse(""),
            selection,
            key,
            fetch,
            ports.pool,
            count=request.count,
            unique=request.unique,
            excluded=request.excluded,
            withdrawn=withdrawn,
            area=filters.area,
        )
    return draw_batch(
        selection,
        key,
        fetch,
        count=request.count,
        unique=request.unique,
        excluded=request.excluded,
        withdrawn=withdrawn,
    )


def with_profiles(
    seed: str | None, addresses: Sequence[PublishedAddress], email_domain: str | None = None
) -> list[Generated]:
    """Each address with its test profile. Seeded, a profile depends on the seed and the address
    alone (and on how many times the address came before it in this answer, so a repeat gets
    another person): not on the batch's size or its filters, nor on the snapshot while the address
    stays as it is (its phone follows its area)."""
    seen: Counter[str] = Counter()
    results = []
    for address in addresses:
        rng = make_rng(seed, "profile", address.id, str(seen[address.id]))
        seen[address.id] += 1
        zone = zone_at(address.lat, address.lon)
        profile = make_profile(address, zone, rng.getrandbits(63), email_domain)
        results.append(Generated(address, zone, profile))
    return results


@dataclass(frozen=True)
class Found:
    address: PublishedAddress
    served: Served

    @property
    def time_zone(self) -> str:
        return zone_at(self.address.lat, self.address.lon)


def get_address(address_id: str, ports: GenerationPorts, *, pinned: str | None = None) -> Found:
    """A published address that is served: its id names its country, whose active (or pinned)
    snapshot is read. AddressWithdrawn for one an operator withdrew."""
    found = published_address(address_id, ports, pinned=pinned)
    if ports.withdrawn.of(found.address.country).holds(found.address):
        raise AddressWithdrawn(f"address {address_id} was withdrawn from the pool and is not served")
    return found


def published_address(address_id: str, ports: GenerationPorts, *, pinned: str | None = None) -> Found:
    """The address its country's active (or pinned) snapshot publishes under the id, withdrawn or
    not (what a withdrawal is made from)."""
    country = address_id.split("-", 1)[0].upper()
    if len(country) == 2 and pinned is not None:
        served: Served | None = ports.pins.pinned(country, pinned)
    else:
        snapshot = ports.snapshots.get(country) if len(country) == 2 else None
        served = Served(snapshot) if snapshot else None
    if served is not None:
        address = ports.pool.get_by_id(served.snapshot.placement, address_id)
        if address is not None:
            return Found(address, served)
    where = f"snapshot {pinned}" if pinned else "the current snapshot of its country"
    raise AddressNotFound(f"no address with id {address_id} is published in {where}")


def serving(country: str, ports: GenerationPorts, pinned: str | None) -> Served:
    """The snapshot a request reads: the one it pins (SnapshotExpired when that is not kept), else
    the country's active one."""
    if pinned is not None:
        return ports.pins.pinned(country, pinned)
    return Served(active(country, ports))


def active(country: str, ports: GenerationPorts) -> PublishedSnapshot:
    snapshot = ports.snapshots.get(country)
    if snapshot is None or snapshot.count == 0:
        raise NoPoolCoverage(f"no published pool for country {country}")
    return snapshot

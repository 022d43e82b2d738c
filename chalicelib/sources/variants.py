"""Merge language variants of one source (same record ids in each language's file) into one stream.

The published variants list records in the same order, so a merge-join needs only a small buffer;
records out of step wait in a pending map until their partner arrives, and a record with no partner
is still emitted with the names it has."""

from __future__ import annotations

from collections.abc import Iterator

from chalicelib.sources.records import NAME_FIELDS, RawRecord


def merge_variants(primary: Iterator[RawRecord], others: list[Iterator[RawRecord]]) -> Iterator[RawRecord]:
    merged = primary
    for other in others:
        merged = _merge_pair(merged, other)
    return merged


def _merge_pair(primary: Iterator[RawRecord], other: Iterator[RawRecord]) -> Iterator[RawRecord]:
    waiting_primary: dict[str, RawRecord] = {}
    waiting_other: dict[str, RawRecord] = {}
    for record in primary:
        partner = waiting_other.pop(record.record_id, None)
        while partner is None:
            candidate = next(other, None)
            if candidate is None:
                break
            if candidate.record_id == record.record_id:
                partner = candidate
            elif candidate.record_id in waiting_primary:
                yield _with_names(waiting_primary.pop(candidate.record_id), candidate)
            else:
                waiting_other[candidate.record_id] = candidate
        if partner is None:
            waiting_primary[record.record_id] = record
        else:
            yield _with_names(record, partner)
    for record in other:
        if record.record_id in waiting_primary:
            yield _with_names(waiting_primary.pop(record.record_id), record)
        else:
            waiting_other[record.record_id] = record
    yield from waiting_primary.values()
    # Records only the other language publishes still are published addresses: keep them.
    yield from waiting_other.values()


def _with_names(record: RawRecord, variant: RawRecord) -> RawRecord:
    names = {name: variant.text(name) for name in NAME_FIELDS if variant.text(name)}
    record.names = {**record.names, variant.language: names}
    if not record.postcode and variant.postcode:
        record.postcode = variant.postcode
    return record

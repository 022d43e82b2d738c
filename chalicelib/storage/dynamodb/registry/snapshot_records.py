"""Per country the published pointer and the record of every snapshot written.

Keys:
  POINTERS          | <CC>           the active snapshot (one Query lists all countries)
  SNAPSHOTS#<CC>    | <snapshot id>  every snapshot written, with its state; a published or retired
                                     one also holds its pointer, for requests pinned to it"""

from __future__ import annotations

from typing import Any

from pynamodb.exceptions import PutError

from chalicelib.domain.codecs import coverage_from_doc, coverage_to_doc, dumps, loads
from chalicelib.domain.ordering import strata_counts
from chalicelib.domain.published import (
    Layout,
    Placement,
    PublishedSnapshot,
    Segment,
    SnapshotClaim,
    SnapshotRecord,
)
from chalicelib.errors import PublishConflict
from chalicelib.storage.dynamodb._dynamo import is_condition_failure, storage_errors
from chalicelib.storage.dynamodb.registry._table import RegistryTable, snapshot_partitions

_POINTERS = "POINTERS"


class SnapshotRecords(RegistryTable):
    def record_snapshot(self, country: str, snapshot_id: str, state: str, details: dict[str, Any]) -> None:
        item = self._model(f"SNAPSHOTS#{country}", snapshot_id, doc=dumps({"state": state, **details}))
        with storage_errors(self.table_name):
            item.save()

    def claim_snapshot(self, claim: SnapshotClaim) -> bool:
        """Record the id `writing` for this generation, if no other holds it (one conditional
        put: no record yet, or this generation's own, a rerun): False when another does."""
        country, snapshot_id, generation = claim.country, claim.snapshot_id, claim.generation
        details = {"layout": [claim.layout.buckets, claim.layout.shards], "startedAt": claim.started_at}
        doc = dumps({"state": "writing", "generation": generation, **details, "epoch": claim.epoch})
        item = self._model(f"SNAPSHOTS#{country}", snapshot_id, doc=doc, claim=generation)
        condition = self._model.pk.does_not_exist() | (self._model.claim == generation)
        with storage_errors(self.table_name):
            try:
                item.save(condition=condition)
            except PutError as exc:
                if is_condition_failure(exc):
                    return False
                raise
        return True

    def record_published(self, published: PublishedSnapshot, recorded_at: str) -> None:
        layout = published.layout
        details = {
            "layout": [layout.buckets, layout.shards],
            "count": published.count,
            "publishedAt": published.published_at,
            "recordedAt": recorded_at,
            "pointer": _pointer_doc(published),
        }
        self.record_snapshot(published.country, published.snapshot_id, "published", details)

    def retire_snapshot(self, country: str, snapshot_id: str, retired_at: str) -> None:
        """Another snapshot replaced it: still served to requests pinned to it, until it expires."""
        self._restate(country, snapshot_id, "retired", {"retiredAt": retired_at})

    def expire_snapshot(self, country: str, snapshot_id: str, expired_at: str) -> None:
        """Its items are deleted: the record stays (small) so a pinned request learns it expired."""
        self._restate(country, snapshot_id, "expired", {"expiredAt": expired_at}, drop=("pointer",))

    def _restate(
        self, country: str, snapshot_id: str, state: str, extra: dict[str, Any], drop: tuple[str, ...] = ()
    ) -> None:
        with storage_errors(self.table_name):
            try:
                item = self._model.get(f"SNAPSHOTS#{country}", snapshot_id)
            except self._model.DoesNotExist:
                return
            doc = {k: v for k, v in loads(item.doc).items() if k not in drop}
            item.doc = dumps({**doc, **extra, "state": state})
            item.save()

    def snapshot_record(self, country: str, snapshot_id: str) -> SnapshotRecord | None:
        with storage_errors(self.table_name):
            try:
                doc = loads(self._model.get(f"SNAPSHOTS#{country}", snapshot_id).doc)
            except self._model.DoesNotExist:
                return None
        return _record_of(country, snapshot_id, doc)

    def snapshot_records(self, country: str) -> list[SnapshotRecord]:
        """Every snapshot of the country the records know (one Query)."""
        with storage_errors(self.table_name):
            return [
                _record_of(country, i.sk, loads(i.doc)) for i in self._model.query(f"SNAPSHOTS#{country}")
            ]

    def forget_snapshot(self, country: str, snapshot_id: str) -> None:
        with storage_errors(self.table_name):
            self._model(f"SNAPSHOTS#{country}", snapshot_id).delete()

    def delete_snapshot_catalog(self, snapshot_id: str, layout: Layout) -> int:
        """Every location, value and directory item of one snapshot."""
        partitions = snapshot_partitions(snapshot_id, layout.shards)
        return self._writer.delete_partitions(partitions)

    def publish(self, snapshot: PublishedSnapshot, expected_previous: str | None) -> None:
        """Point the country at `snapshot` in one conditional write: it fails (PublishConflict) if
        another sync published in between, so two syncs can never interleave half their work."""
        doc = _pointer_doc(snapshot)
        item = self._model(_POINTERS, snapshot.country, doc=dumps(doc), snapshot=snapshot.snapshot_id)
        condition = (
            self._model.snapshot == expected_previous
            if expected_previous
            else self._model.pk.does_not_exist()
        )
        with storage_errors(self.table_name):
            try:
                item.save(condition=condition)
            except PutError as exc:
                if is_condition_failure(exc):
                    raise PublishConflict(snapshot.country) from exc
                raise

    # The pointers are read on the request path: through the wire, as raw items.
    def active_snapshots(self) -> dict[str, PublishedSnapshot]:
        request: dict[str, Any] = {
            "TableName": self.table_name,
            "KeyConditionExpression": "pk = :pk",
            "ExpressionAttributeValues": {":pk": {"S": _POINTERS}},
        }
        found: dict[str, PublishedSnapshot] = {}
        with storage_errors(self.table_name):
            while True:
                answer = self._wire.call("Query", request)
                for item in answer.get("Items", []):
                    country = item["sk"]["S"]
                    found[country] = _pointer_from(country, loads(item["doc"]["S"]))
                if "LastEvaluatedKey" not in answer:
                    return found
                request = {**request, "ExclusiveStartKey": answer["LastEvaluatedKey"]}

    def active_snapshot(self, country: str) -> PublishedSnapshot | None:
        key = {"pk": {"S": _POINTERS}, "sk": {"S": country}}
        with storage_errors(self.table_name):
            item = self._wire.call("GetItem", {"TableName": self.table_name, "Key": key}).get("Item")
        return _pointer_from(country, loads(item["doc"]["S"])) if item else None


def _pointer_doc(s: PublishedSnapshot) -> dict[str, Any]:
    return {
        "id": s.snapshot_id,
        "at": s.published_at,
        "k": list(s.strata),
        "b": s.layout.buckets,
        "s": s.layout.shards,
        "src": list(s.sources),
        "cov": coverage_to_doc(s.coverage),
        "c": s.content,
        "pl": [
            s.placement.epoch,
            s.placement.buckets,
            [list(g.encoded()) for g in s.placement.segments],
            s.placement.min_share,
            s.placement.marks,
        ],
        "mk": dict(s.marked),
    }


def _pointer_from(country: str, doc: dict[str, Any]) -> PublishedSnapshot:
    return PublishedSnapshot(
        country=country,
        snapshot_id=doc["id"],
        published_at=doc["at"],
        strata=strata_counts(doc["k"]),
        layout=Layout(buckets=doc["b"], shards=doc["s"]),
        sources=tuple(doc["src"]),
        coverage=coverage_from_doc(country, doc["cov"]),
        placement=_placement_of(doc),
        content=doc.get("c", doc["id"]),  # format 4: its id was its content's
        marked=doc.get("mk", {}),  # none before marks
    )


def _placement_of(doc: dict[str, Any]) -> Placement:
    if "pl" not in doc:  # format 4: the snapshot's own copy, at the keys of an epoch named as it
        segment = Segment(doc["id"], 0, strata_counts(doc["k"]))
        return Placement(doc["id"], doc["b"], (segment,), appendable=False, marks=0)  # its index: words only
    epoch, buckets, segments, share, *marks = doc["pl"]  # no marks: published before them (0)
    return Placement(
        epoch, buckets, tuple(Segment.decoded(g) for g in segments), share, marks=(marks or [0])[0]
    )


def _record_of(country: str, snapshot_id: str, doc: dict[str, Any]) -> SnapshotRecord:
    pointer = doc.get("pointer")
    published = _pointer_from(country, pointer) if pointer else None
    layout = doc.get("layout")
    return SnapshotRecord(
        country=country,
        snapshot_id=snapshot_id,
        state=doc["state"],
        published=published,
        retired_at=doc.get("retiredAt"),
        expired_at=doc.get("expiredAt"),
        generation=doc.get("generation"),
        layout=Layout(buckets=layout[0], shards=layout[1]) if layout else None,
        # A format-4 snapshot (no epoch) held a copy of the pool of its own, keyed as an epoch named as it.
        epoch=published.placement.epoch if published else doc.get("epoch", snapshot_id),
        started_at=doc.get("startedAt"),
    )

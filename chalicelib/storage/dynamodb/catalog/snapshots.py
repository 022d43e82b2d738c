"""Per country the published pointer and the record of every snapshot written.

Keys:
  POINTERS          | <CC>           the active snapshot (one Query lists all countries)
  SNAPSHOTS#<CC>    | <snapshot id>  every snapshot written, with its state"""

from __future__ import annotations

from typing import Any

from pynamodb.exceptions import PutError

from chalicelib.domain.codecs import coverage_from_doc, coverage_to_doc, dumps, loads
from chalicelib.domain.published import Layout, PublishedSnapshot
from chalicelib.errors import PublishConflict
from chalicelib.storage.dynamodb._dynamo import delete_partitions, is_condition_failure, storage_errors
from chalicelib.storage.dynamodb.catalog._table import CatalogTable, snapshot_partitions

_POINTERS = "POINTERS"


class SnapshotRecords(CatalogTable):
    def record_snapshot(self, country: str, snapshot_id: str, state: str, details: dict[str, Any]) -> None:
        item = self._model(f"SNAPSHOTS#{country}", snapshot_id, doc=dumps({"state": state, **details}))
        with storage_errors(self.table_name):
            item.save()

    def list_snapshots(self, country: str) -> list[tuple[str, dict[str, Any]]]:
        with storage_errors(self.table_name):
            return [(i.sk, loads(i.doc)) for i in self._model.query(f"SNAPSHOTS#{country}")]

    def forget_snapshot(self, country: str, snapshot_id: str) -> None:
        with storage_errors(self.table_name):
            self._model(f"SNAPSHOTS#{country}", snapshot_id).delete()

    def delete_snapshot_catalog(self, snapshot_id: str, layout: Layout) -> int:
        """Every location, value and directory item of one snapshot."""
        partitions = snapshot_partitions(snapshot_id, layout.shards)
        return delete_partitions(self._model, partitions, workers=self._writers)

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

    def active_snapshots(self) -> dict[str, PublishedSnapshot]:
        with storage_errors(self.table_name):
            return {i.sk: _pointer_from(i.sk, loads(i.doc)) for i in self._model.query(_POINTERS)}

    def active_snapshot(self, country: str) -> PublishedSnapshot | None:
        with storage_errors(self.table_name):
            try:
                item = self._model.get(_POINTERS, country)
            except self._model.DoesNotExist:
                return None
        return _pointer_from(country, loads(item.doc))


def _pointer_doc(s: PublishedSnapshot) -> dict[str, Any]:
    return {
        "id": s.snapshot_id,
        "at": s.published_at,
        "k": list(s.strata),
        "b": s.layout.buckets,
        "s": s.layout.shards,
        "src": list(s.sources),
        "cov": coverage_to_doc(s.coverage),
    }


def _pointer_from(country: str, doc: dict[str, Any]) -> PublishedSnapshot:
    return PublishedSnapshot(
        country=country,
        snapshot_id=doc["id"],
        published_at=doc["at"],
        strata=(doc["k"][0], doc["k"][1], doc["k"][2], doc["k"][3]),
        layout=Layout(buckets=doc["b"], shards=doc["s"]),
        sources=tuple(doc["src"]),
        coverage=coverage_from_doc(country, doc["cov"]),
    )

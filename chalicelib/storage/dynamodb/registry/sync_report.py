"""The last sync's report (its codec is services/sync/report.py: camelCase, one casing).

Key:
  SYNC | latest"""

from __future__ import annotations

from typing import Any

from chalicelib.domain.codecs import dumps, loads
from chalicelib.storage.dynamodb._dynamo import storage_errors
from chalicelib.storage.dynamodb.registry._table import RegistryTable


class SyncReportRecord(RegistryTable):
    def save_sync_report(self, report: dict[str, Any]) -> None:
        with storage_errors(self.table_name):
            self._model("SYNC", "latest", doc=dumps(report)).save()

    def latest_sync_report(self) -> dict[str, Any] | None:
        with storage_errors(self.table_name):
            try:
                return dict(loads(self._model.get("SYNC", "latest").doc))
            except self._model.DoesNotExist:
                return None

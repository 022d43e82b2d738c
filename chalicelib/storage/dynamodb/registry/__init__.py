"""The registry table (deployed as `<prefix>-catalog`): one PynamoDB model, one module per concept it holds.

- snapshot_records.py: per country the published pointer and the snapshot records
- epochs.py: per country the pool's epochs and their slot counters
- sync_report.py: the last sync's report
- withdrawals.py: withdrawn addresses, and per country the keys the request path reads
- locations.py, directories.py: per snapshot the location catalog (locations by id, a value
  index, and the children of each parent in name order)

Callers see one store, `RegistryStore`, whose verbs come from those modules."""

from __future__ import annotations

from chalicelib.storage.dynamodb.registry._table import shards_for
from chalicelib.storage.dynamodb.registry.directories import DirectoryRecords
from chalicelib.storage.dynamodb.registry.epochs import EpochRecords
from chalicelib.storage.dynamodb.registry.locations import LocationRecords
from chalicelib.storage.dynamodb.registry.snapshot_records import SnapshotRecords
from chalicelib.storage.dynamodb.registry.sync_report import SyncReportRecord
from chalicelib.storage.dynamodb.registry.withdrawals import WithdrawalRecords

__all__ = ["RegistryStore", "shards_for"]


class RegistryStore(
    SnapshotRecords, EpochRecords, SyncReportRecord, LocationRecords, DirectoryRecords, WithdrawalRecords
):
    """Verbs on the registry table."""

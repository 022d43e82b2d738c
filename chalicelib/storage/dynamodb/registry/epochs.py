"""Per country the epochs of its pool (storage/dynamodb/pool.py): each with its partitions and the
counter that hands out its slots, so two syncs appending to one epoch never write the same slot.

Key:
  EPOCHS#<CC>    | <epoch>    buckets, when it began, and `counter`: the slots handed out"""

from __future__ import annotations

from pynamodb.exceptions import UpdateError

from chalicelib.domain.codecs import dumps, loads
from chalicelib.domain.epochs import BegunEpoch, Epoch
from chalicelib.errors import PublishConflict
from chalicelib.storage.dynamodb._dynamo import is_condition_failure, storage_errors
from chalicelib.storage.dynamodb.registry._table import RegistryTable


class EpochRecords(RegistryTable):
    def begin_epoch(self, country: str, epoch: str, buckets: int, began_at: str) -> None:
        """A new epoch, before any of its items is written (so the sweep knows of it)."""
        doc = dumps({"buckets": buckets, "beganAt": began_at})
        with storage_errors(self.table_name):
            self._model(f"EPOCHS#{country}", epoch, doc=doc, counter=0).save()

    def allocate_slots(self, country: str, epoch: str, count: int) -> int:
        """The first of `count` slots no other generation of the epoch holds (an atomic add). An
        epoch the sweep has forgotten (a run away longer than a stale write) is PublishConflict."""
        item = self._model(f"EPOCHS#{country}", epoch)
        with storage_errors(self.table_name):
            try:
                item.update(actions=[self._model.counter.add(count)], condition=self._model.pk.exists())
            except UpdateError as exc:
                if is_condition_failure(exc):
                    raise PublishConflict(
                        f"{country}: epoch {epoch} was swept while this sync was away"
                    ) from exc
                raise
        return int(item.counter or 0) - count

    def list_epochs(self, country: str) -> dict[str, BegunEpoch]:
        """The country's epochs by name, each with its buckets and when it began."""
        with storage_errors(self.table_name):
            docs = {i.sk: loads(i.doc) for i in self._model.query(f"EPOCHS#{country}")}
        return {
            name: BegunEpoch(Epoch(name, int(d["buckets"])), str(d["beganAt"])) for name, d in docs.items()
        }

    def forget_epoch(self, country: str, epoch: str) -> None:
        with storage_errors(self.table_name):
            self._model(f"EPOCHS#{country}", epoch).delete()

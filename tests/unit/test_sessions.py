"""Every botocore session storage makes reads botocore's data files through one loader, so a
process parses endpoints.json and DynamoDB's model once, not once per table."""

from __future__ import annotations

from moto import mock_aws

from chalicelib import deps
from tests.support.factories import make_settings
from tests.support.fakes import FakeClock


def test_every_table_model_and_the_wire_read_through_one_data_loader(aws_env: None) -> None:
    with mock_aws():
        wired = deps.build(make_settings(), clock=FakeClock())
        sessions = [store._model._get_connection().connection.session for store in wired.stores.all()]
        sessions.append(wired.stores.pool._wire._botocore())
        loaders = {id(session.get_component("data_loader")) for session in sessions}
    assert len(sessions) == 6
    assert len({id(s) for s in sessions}) == 6  # each keeps its own credentials and events
    assert len(loaders) == 1

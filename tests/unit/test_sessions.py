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


def test_sessions_start_from_botocore_s_handlers_as_they_are_when_each_is_made() -> None:
    """A handler added to botocore's built-ins (moto's, a test's recorder) is in every session made
    afterwards, not in one made before; a handler registered on one session stays its own."""
    from botocore import handlers

    from chalicelib.storage.dynamodb._sessions import new_session

    heard: list[str] = []
    before = new_session()
    entry = ("before-send.dynamodb", lambda **kwargs: heard.append("built-in"))
    handlers.BUILTIN_HANDLERS.append(entry)
    try:
        after, other = new_session(), new_session()
    finally:
        handlers.BUILTIN_HANDLERS.remove(entry)
    alone = new_session()
    other.register("before-send.dynamodb", lambda **kwargs: heard.append("its own"))
    for name, session in (("before", before), ("after", after), ("other", other), ("alone", alone)):
        heard.append(name)
        session.emit("before-send.dynamodb.GetItem", request=None)
    assert heard == ["before", "after", "built-in", "other", "built-in", "its own", "alone"]

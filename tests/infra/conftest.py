"""The CDK app synthesized once per session, offline (tests/support/stacks.py)."""

from __future__ import annotations

import pytest

from infra.aws.service import ServiceStack
from tests.support.stacks import synthesize


@pytest.fixture(scope="session")
def synthesized(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ServiceStack]:
    return {stack.stage.name: stack for stack in synthesize(tmp_path_factory.mktemp("cdk"))}

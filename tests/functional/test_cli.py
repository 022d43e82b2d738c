from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from chalice.test import Client

from chalicelib import deps
from chalicelib.cli.main import main
from tests.functional.conftest import error_of


def _run(*argv: str) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = main(list(argv), out=out)
    return status, out.getvalue().splitlines()


def test_create_prints_the_bearer_alone_on_the_last_line(client: Client) -> None:
    status, lines = _run(
        "tokens", "create", "--scope", "read", "--rate", "5", "--expires", "2h", "--label", "qa"
    )
    assert status == 0
    token = lines[-1]
    assert token.startswith("ags_")
    assert token.strip() == token
    assert (
        client.http.get("/api/v1/countries", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    )


def test_list_never_shows_secrets_or_hashes(dependencies: deps.Dependencies) -> None:
    _, created = _run(
        "tokens", "create", "--scope", "generate", "--rate", "9", "--expires", "1d", "--label", "ci"
    )
    token = created[-1]
    stored = dependencies.stores.tokens.get(token.split("_")[1])
    assert stored is not None
    status, lines = _run("tokens", "list")
    text = "\n".join(lines)
    assert status == 0
    assert stored.token_id in text
    assert "ci" in text
    assert "active" in text
    assert token.split("_", 2)[2] not in text
    assert stored.secret_hash not in text


def test_revoke_takes_effect(client: Client) -> None:
    _, created = _run("tokens", "create", "--scope", "read", "--rate", "5", "--expires", "1h", "--label", "x")
    token = created[-1]
    status, lines = _run("tokens", "revoke", token.split("_")[1])
    assert status == 0
    assert "Revoked" in lines[0]
    response = client.http.get("/api/v1/countries", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 401
    assert "revoked" in error_of(response)["message"]
    assert "revoked" in "\n".join(_run("tokens", "list")[1])


@pytest.mark.parametrize(
    "argv",
    [
        ("tokens", "create", "--scope", "read", "--rate", "0", "--expires", "1h", "--label", "x"),
        ("tokens", "create", "--scope", "read", "--rate", "5", "--expires", "forever", "--label", "x"),
        ("tokens", "revoke", "nosuchtoken0"),
    ],
)
def test_bad_admin_input_is_a_clear_error(
    dependencies: deps.Dependencies, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    status, _ = _run(*argv)
    assert status == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_sources_fetch_reports_each_entry_and_leaves_a_manifest_beside_the_cache(
    dependencies: deps.Dependencies, tmp_path: Path
) -> None:
    manifest = tmp_path / "manifest.json"
    entry = {"id": "x-register", "country": "NL", "format": "openaddresses-csv", "files": ["nl/x.csv"]}
    entry |= {"language": "nl", "license": "CC0-1.0", "attribution": "test", "upstream": ""}
    manifest.write_text(json.dumps([entry]), encoding="utf-8")
    cache = tmp_path / "cache"
    status, lines = _run("sources", "fetch", "--manifest", str(manifest), "--cache", str(cache))
    assert status == 0
    assert lines[0].split()[:2] == ["x-register", "no_upstream"]
    assert (cache / "manifest.json").read_bytes() == manifest.read_bytes()
    status, _ = _run("sources", "fetch", "--manifest", str(manifest), "--cache", str(cache), "--source", "y")
    assert status == 2  # no such source: a clear error


@pytest.mark.parametrize("size", ["0", "-1", "many", "2048"])
def test_sources_fetch_refuses_a_size_limit_out_of_range(tmp_path: Path, size: str) -> None:
    with pytest.raises(SystemExit) as exited:
        _run(
            "sources",
            "fetch",
            "--manifest",
            str(tmp_path / "m.json"),
            "--cache",
            str(tmp_path),
            "--max-gb",
            size,
        )
    assert exited.value.code == 2  # argparse's usage error, before anything is read

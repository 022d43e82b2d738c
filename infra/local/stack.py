"""`make run`: DynamoDB Local (persisted under .dev/), the tables, a fresh dev token, then
`chalice local`. Ctrl-C or SIGTERM stops everything it started."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from types import FrameType

from chalicelib import deps
from chalicelib.cli.main import main as cli_main
from chalicelib.config import settings_from_env
from chalicelib.services.tokens import create_token
from chalicelib.storage.tables import create_missing_tables
from infra.local.dynamodb_local import DynamoDBLocal, LocalEngineError, terminate
from infra.local.env import LOCAL_STAGE, PROJECT_DIR, SHARED_MANIFEST, local_environment

DEV_TOKEN_RATE = 600
DEV_TOKEN_LIFETIME = timedelta(hours=24)


class _Stop(Exception):
    """SIGINT or SIGTERM arrived: unwind and stop the children."""


def _on_stop_signal(signum: int, frame: FrameType | None) -> None:
    raise _Stop


def run(port: int, ddb_port: int, dev_dir: Path) -> int:
    """Serve until interrupted; data persists in `dev_dir` between runs."""
    # Explicit handlers: a shell that starts us in the background makes SIGINT ignored by default.
    for stop_signal in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop_signal, _on_stop_signal)
    dev_dir.mkdir(parents=True, exist_ok=True)
    log = (dev_dir / "dynamodb-local.log").open("ab")
    engine = DynamoDBLocal(ddb_port, db_path=dev_dir / "dynamodb", log=log)
    api: subprocess.Popen[bytes] | None = None
    try:
        engine.start()
        print(f"DynamoDB Local on {engine.endpoint} (data in {dev_dir / 'dynamodb'})", flush=True)
        os.environ.update(local_environment(engine.endpoint))
        # A fresh cursor key per run unless one is given: paging cursors outlive nothing but the run.
        os.environ.setdefault("CURSOR_SECRET", secrets.token_urlsafe(32))
        bearer = _prepare_data()
        print(f"Dev token (scope generate, {DEV_TOKEN_RATE}/min, expires in 24h):\n{bearer}", flush=True)
        print(f"Serving http://127.0.0.1:{port}/api/v1/health  (Ctrl-C stops)", flush=True)
        # Unbuffered, so the API's JSON request log reaches the terminal line by line.
        api = subprocess.Popen(
            _chalice_local(port), cwd=PROJECT_DIR, env={**os.environ, "PYTHONUNBUFFERED": "1"}
        )
        return api.wait()
    except LocalEngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except _Stop:
        return 0
    finally:
        terminate(api)
        engine.stop()
        log.close()


def _prepare_data() -> str:
    """Create missing tables (data is kept between runs), sync the sample sources unless the pool
    is already current, and create a fresh dev token."""
    dependencies = deps.build(settings_from_env(os.environ))
    created = create_missing_tables(dependencies.stores)
    print(f"Tables: {'created ' + ', '.join(created) if created else 'already present'}", flush=True)
    _sync_samples(dependencies)
    issued = create_token(
        dependencies.stores.tokens,
        dependencies.clock,
        scope="generate",
        rate_per_minute=DEV_TOKEN_RATE,
        lifetime=DEV_TOKEN_LIFETIME,
        label="make run",
    )
    return issued.bearer


def _sync_samples(dependencies: deps.Dependencies) -> None:
    if not SHARED_MANIFEST.is_file():
        print(f"No sample sources at {SHARED_MANIFEST}: the pool stays as it is.", flush=True)
        return
    countries = [
        c.strip().upper() for c in os.environ.get("LOCAL_SYNC_COUNTRIES", "").split(",") if c.strip()
    ]
    argv = ["sync", "--manifest", str(SHARED_MANIFEST), "--if-changed"]
    for country in countries:
        argv += ["--country", country]
    print("Syncing the sample sources into the pool (the first start takes several minutes)...", flush=True)
    deps.use(dependencies)
    try:
        if cli_main(argv) != 0:
            print("warning: the sync reported failures; the API serves what was published", flush=True)
    finally:
        deps.use(None)


def _chalice_local(port: int) -> list[str]:
    chalice = Path(sys.executable).parent / "chalice"
    return [
        str(chalice),
        "local",
        "--no-autoreload",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--stage",
        LOCAL_STAGE,
    ]

"""`make run`: DynamoDB Local (persisted under .dev/), the tables, a fresh dev token, then
`chalice local`. The first start builds the pool in memory-backed storage and saves it to disk.
Ctrl-C or SIGTERM stops everything it started."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from types import FrameType
from typing import IO

from chalicelib import deps
from chalicelib.cli.main import main as cli_main
from chalicelib.config import settings_from_env
from chalicelib.services.tokens import create_token
from chalicelib.storage.tables import create_missing_tables
from infra.local.dynamodb_local import DynamoDBLocal, LocalEngineError, terminate
from infra.local.env import LOCAL_STAGE, PROJECT_DIR, SHARED_MANIFEST, local_environment

DEV_TOKEN_RATE = 600
DEV_TOKEN_LIFETIME = timedelta(hours=24)
DB_FILE = "shared-local-instance.db"  # DynamoDB Local's one database file with -sharedDb
RAM_ROOT = Path("/dev/shm")  # noqa: S108 - only private mkdtemp folders are made in it
STAGING_MIN_FREE = 2 * 1024**3  # the first pool's database takes about 0.5 GB


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
    db_dir = dev_dir / "dynamodb"
    engine = DynamoDBLocal(ddb_port, db_path=db_dir, log=log)
    api: subprocess.Popen[bytes] | None = None
    try:
        if not (db_dir / DB_FILE).exists():
            _first_start(ddb_port, db_dir, log)
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


def _first_start(ddb_port: int, db_dir: Path, log: IO[bytes]) -> None:
    """Build the first pool in memory-backed storage, then save the database file to disk once.

    On disk, DynamoDB Local's SQLite syncs every write to the disk: the first pool (about 233,000
    addresses) took 24 minutes that way on the development machine, and 7.4 minutes built in
    /dev/shm, where saving the finished file took seconds."""
    staging = _ram_dir()
    if staging is None:
        return  # no memory-backed folder: the on-disk engine builds it, slowly
    try:
        print(f"First start: building the pool in {staging}, then saving it to {db_dir}", flush=True)
        with DynamoDBLocal(ddb_port, db_path=staging, log=log) as building:
            os.environ.update(local_environment(building.endpoint))
            _prepare_pool()
        saving = db_dir.with_name(db_dir.name + ".saving")
        shutil.rmtree(saving, ignore_errors=True)
        shutil.copytree(staging, saving)
        saving.rename(db_dir)  # whole or not at all: an interrupted copy leaves no half database
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _ram_dir() -> Path | None:
    ram = RAM_ROOT
    if not ram.is_dir() or not os.access(ram, os.W_OK) or shutil.disk_usage(ram).free < STAGING_MIN_FREE:
        return None
    return Path(tempfile.mkdtemp(prefix="ags-dynamodb-", dir=ram))  # private (0700), removed after use


def _prepare_pool() -> deps.Dependencies:
    """Create missing tables (data is kept between runs) and sync the sample sources unless the
    pool is already current."""
    dependencies = deps.build(settings_from_env(os.environ))
    created = create_missing_tables(dependencies.stores)
    print(f"Tables: {'created ' + ', '.join(created) if created else 'already present'}", flush=True)
    _sync_samples(dependencies)
    return dependencies


def _prepare_data() -> str:
    """The pool as above, and a fresh dev token."""
    dependencies = _prepare_pool()
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

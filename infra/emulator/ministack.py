"""One ministack process: the AWS emulator `make deploy-local` deploys the stack into, on a free
port, over TLS (the bucket policy denies plain HTTP, as in AWS), with IAM enforced (AUTH=true:
every call a function makes is checked against its role's policies)."""

from __future__ import annotations

import contextlib
import os
import signal
import ssl
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import IO

from infra.local.dynamodb_local import free_port, terminate

PROJECT_DIR = Path(__file__).resolve().parents[2]
EMULATOR_VENV = PROJECT_DIR / ".venv-emulator"
REGION = "us-east-1"
ACCOUNT = "000000000000"  # ministack's account for the root key
START_TIMEOUT_SECONDS = 60.0
_NOT_FOR_THE_FUNCTIONS = (
    *("AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"),
    *("AWS_CA_BUNDLE", "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS"),
)


class EmulatorError(RuntimeError):
    pass


class Ministack:
    def __init__(self, work: Path, log: IO[bytes]) -> None:
        self.work, self.log = work, log
        self.port = free_port()
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def endpoint(self) -> str:
        return f"https://localhost:{self.port}"

    @property
    def ca_bundle(self) -> Path:
        """The certificate ministack makes for itself under its TMPDIR."""
        return self.work / "tmp" / "ministack-tls" / "server.crt"

    def start(self) -> Ministack:
        binary = EMULATOR_VENV / "bin" / "ministack"
        if not binary.is_file():
            raise EmulatorError(f"{binary} is missing: run make deploy-local (it installs the emulator)")
        (self.work / "tmp").mkdir(parents=True, exist_ok=True)
        environment = {
            **os.environ,
            "GATEWAY_PORT": str(self.port),
            "AUTH": "true",
            "USE_SSL": "1",
            "MINISTACK_REGION": REGION,
            "LAMBDA_EXECUTOR": "local",
            "TMPDIR": str(self.work / "tmp"),  # its certificate and the functions' code
            "LOG_LEVEL": "WARNING",
        }
        # The functions get their role's credentials and trust the emulator's certificate (ministack
        # sets both unless the environment already names them): nothing of ours.
        for name in _NOT_FOR_THE_FUNCTIONS:
            environment.pop(name, None)
        self._process = subprocess.Popen(
            [str(binary)], env=environment, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self._wait_until_ready()
        return self

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            if self._process is not None and self._process.poll() is not None:
                raise EmulatorError(f"ministack exited with status {self._process.returncode}")
            if self.ca_bundle.is_file():
                try:
                    with urllib.request.urlopen(  # noqa: S310 - our own emulator
                        f"{self.endpoint}/_ministack/health", timeout=2, context=self.tls()
                    ):
                        return
                except OSError:
                    pass
            time.sleep(0.3)
        self.stop()
        raise EmulatorError(f"ministack did not answer within {START_TIMEOUT_SECONDS:.0f}s")

    def tls(self) -> ssl.SSLContext:
        """Trust in the emulator's own certificate (and nothing else)."""
        return ssl.create_default_context(cafile=str(self.ca_bundle))

    def client_environment(self) -> dict[str, str]:
        """What an AWS SDK here needs to reach the emulator as the account's administrator."""
        return {
            "AWS_ENDPOINT_URL": self.endpoint,
            "AWS_CA_BUNDLE": str(self.ca_bundle),
            "AWS_ACCESS_KEY_ID": "test",
            "AWS_SECRET_ACCESS_KEY": "test",  # ministack's root key: an operator's admin credentials
            "AWS_DEFAULT_REGION": REGION,
            "AWS_REGION": REGION,
        }

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)  # its Lambda workers too
        terminate(process)

    def __enter__(self) -> Ministack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

"""Where a sync is started from outside the schedule (the console's Start sync): a Step Functions
execution in AWS, a background process beside the local stack."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from chalicelib.errors import SyncAlreadyRunning


class StepFunctionsLauncher:
    """Executions of the sync's state machine; an execution name is used once, so a retried start
    cannot run the sync twice."""

    def __init__(self, state_machine_arn: str, region: str) -> None:
        self.state_machine_arn, self.region = state_machine_arn, region
        self._client: Any = None

    def _sfn(self) -> Any:
        if self._client is None:  # created at first use: most API requests never start a sync
            import boto3

            self._client = boto3.client("stepfunctions", region_name=self.region)
        return self._client

    def running(self) -> bool:
        found = self._sfn().list_executions(
            stateMachineArn=self.state_machine_arn, statusFilter="RUNNING", maxResults=1
        )
        return bool(found.get("executions"))

    def start(self, name: str) -> str:
        client = self._sfn()
        try:
            started = client.start_execution(stateMachineArn=self.state_machine_arn, name=name, input="{}")
        except client.exceptions.ExecutionAlreadyExists as exc:
            raise SyncAlreadyRunning(f"a sync named {name} was started already") from exc
        return str(started["executionArn"])


class LocalProcessLauncher:
    """`python -m chalicelib.cli sync` in a child process of the local API server, with its
    environment (the same tables and manifest); its output goes to `log`."""

    def __init__(self, manifest: Path, log: Path, countries: tuple[str, ...] = ()) -> None:
        self.manifest, self.log, self.countries = manifest, log, countries
        self._process: subprocess.Popen[bytes] | None = None
        self._output: IO[bytes] | None = None

    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self, name: str) -> str:
        if self.running():
            raise SyncAlreadyRunning("the sync this server started is still running")
        if self._output is not None:
            self._output.close()
        self.log.parent.mkdir(parents=True, exist_ok=True)
        self._output = self.log.open("ab")
        argv = [sys.executable, "-m", "chalicelib.cli", "sync", "--manifest", str(self.manifest)]
        for country in self.countries:
            argv += ["--country", country]
        self._process = subprocess.Popen(argv, stdout=self._output, stderr=subprocess.STDOUT)  # noqa: S603
        return f"{name} (local process {self._process.pid})"

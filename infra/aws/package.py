"""The Chalice app inside the stack: Chalice's own CDK construct packages the app (`chalice
package`) and includes its SAM template. A stub package (the app's code without its third-party
requirements, so no pip run) gives the same template in seconds: what tests and `make synth`
use; `make package` and `make deploy` build the real one."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from chalice import api
from chalice.cdk import Chalice
from constructs import Construct

PROJECT_DIR = Path(__file__).resolve().parents[2]
_APP_FILES = ("app.py", "chalicelib", ".chalice/config.json")


class ChaliceApp(Chalice):
    def __init__(
        self, scope: Construct, construct_id: str, *, stage_config: dict[str, Any], stub: bool
    ) -> None:
        self._stub = stub
        super().__init__(scope, construct_id, source_dir=str(PROJECT_DIR), stage_config=stage_config)

    def _package_app(self) -> None:
        with _some_region():
            if not self._stub:
                super()._package_app()
                return
            self._package_stub()

    def _package_stub(self) -> None:
        with tempfile.TemporaryDirectory(prefix="ags-stub-") as project:
            for name in _APP_FILES:
                source, target = PROJECT_DIR / name, Path(project) / name
                target.parent.mkdir(parents=True, exist_ok=True)
                if source.is_dir():
                    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
                else:
                    shutil.copy2(source, target)
            api.package_app(project, self._sam_package_dir, self.stage_name, self.stage_config)


@contextmanager
def _some_region() -> Iterator[None]:
    """`chalice package` builds AWS clients it never calls, and they need a region; the template
    itself is region-agnostic. Packaging also imports the app with the stage's variables put into
    os.environ (CDK tokens among them): the environment is restored afterwards, so nothing else in
    this process (tests, their subprocesses) inherits them."""
    saved = dict(os.environ)
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)

"""Structured logs: one JSON object per line, on stdout, where Lambda ships it to CloudWatch."""

from __future__ import annotations

import json
import logging
import sys
from typing import Any

_logger = logging.getLogger("ags")
# PynamoDB announces its settings file at INFO when imported; keep that out of request logs. Set
# here, at import, because this module is imported before PynamoDB.
logging.getLogger("pynamodb").setLevel(logging.WARNING)
# botocore says "Found credentials in environment variables." at INFO on every client it builds:
# no use to anyone reading a sync's progress or a request log.
logging.getLogger("botocore.credentials").setLevel(logging.WARNING)


class _StdoutHandler(logging.Handler):
    """Writes to whatever sys.stdout is at emit time (test capture swaps it)."""

    def emit(self, record: logging.LogRecord) -> None:
        sys.stdout.write(self.format(record) + "\n")


def configure(level: str) -> None:
    if not _logger.handlers:
        _logger.addHandler(_StdoutHandler())
        _logger.propagate = False
    _logger.setLevel(level.upper())


# Lambda's JSON log format filters application logs by a "level" key with its own names (an unknown
# name counts as INFO, so WARNING would never be filtered as a warning).
_LAMBDA_LEVELS = {logging.WARNING: "WARN", logging.CRITICAL: "FATAL"}


def log_event(event: str, *, level: int = logging.INFO, **fields: Any) -> None:
    """Log one event; callers pass only non-secret fields (token ids, never bearer values)."""
    if _logger.isEnabledFor(level):
        name = _LAMBDA_LEVELS.get(level, logging.getLevelName(level))
        record = {"level": name, "event": event, **fields}
        _logger.log(level, json.dumps(record, default=str, ensure_ascii=False))

"""Names reserved for documentation and testing, where mail reaches nobody: RFC 2606's second-level
domains (a test profile's e-mail is in one) and RFC 2606/6761's top-level ones."""

from __future__ import annotations

RESERVED_EMAIL_DOMAINS = ("example.com", "example.net", "example.org")
RESERVED_TLDS = ("test", "example", "invalid", "localhost")

"""Administrator commands: tokens and sync. They act on the tables the environment names
(see chalicelib.config)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import datetime
from typing import TextIO

from chalicelib import deps
from chalicelib.cli import sources, sync
from chalicelib.domain.tokens import MAX_RATE_PER_MINUTE, Scope, Token
from chalicelib.errors import ConfigurationError, InvalidRequest, StorageUnavailable, TokenNotFound
from chalicelib.services import tokens as token_service


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    args = _parser().parse_args(argv)
    try:
        return int(args.run(args, out))
    except (InvalidRequest, ConfigurationError, StorageUnavailable, TokenNotFound) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m chalicelib.cli", description=__doc__)
    groups = parser.add_subparsers(required=True, metavar="tokens|sync|sync-step|sources")
    tokens = groups.add_parser("tokens", help="create, list and revoke API tokens")
    verbs = tokens.add_subparsers(required=True, metavar="create|list|revoke")

    create = verbs.add_parser("create", help="create a token; its secret is shown once")
    create.add_argument("--scope", required=True, choices=[s.value for s in Scope])
    create.add_argument(
        "--rate", type=int, required=True, help=f"requests per minute, 1..{MAX_RATE_PER_MINUTE}"
    )
    create.add_argument("--expires", required=True, help="lifetime such as 90s, 2h, 30d (at most 366d)")
    create.add_argument("--label", required=True, help="who or what the token is for")
    create.set_defaults(run=_create)

    listing = verbs.add_parser("list", help="list tokens (never their secrets)")
    listing.set_defaults(run=_list)

    revoke = verbs.add_parser("revoke", help="revoke a token by its id")
    revoke.add_argument("token_id")
    revoke.set_defaults(run=_revoke)
    sync.add_parser(groups)
    sources.add_parser(groups)
    return parser


def _create(args: argparse.Namespace, out: TextIO) -> int:
    d = deps.get()
    issued = token_service.create_token(
        d.stores.tokens,
        d.clock,
        scope=args.scope,
        rate_per_minute=args.rate,
        lifetime=token_service.parse_duration(args.expires),
        label=args.label,
    )
    t = issued.token
    print(
        f"Created token {t.token_id} ({t.label}): scope {t.scope.value}, "
        f"{t.rate_per_minute}/min, expires {t.expires_at:%Y-%m-%dT%H:%M:%SZ}.",
        file=out,
    )
    print("The secret is shown only now; store it safely. Bearer token:", file=out)
    print(issued.bearer, file=out)
    return 0


def _list(args: argparse.Namespace, out: TextIO) -> int:
    d = deps.get()
    now = d.clock.now()
    rows = [_row(t, now) for t in token_service.list_tokens(d.stores.tokens)]
    header = ("ID", "LABEL", "SCOPE", "RATE/MIN", "CREATED", "EXPIRES", "STATUS")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip(), file=out)
    return 0


def _row(token: Token, now: datetime) -> tuple[str, ...]:
    return (
        token.token_id,
        token.label,
        token.scope.value,
        str(token.rate_per_minute),
        f"{token.created_at:%Y-%m-%d %H:%M}",
        f"{token.expires_at:%Y-%m-%d %H:%M}",
        token.status(now),
    )


def _revoke(args: argparse.Namespace, out: TextIO) -> int:
    d = deps.get()
    token = token_service.revoke_token(d.stores.tokens, d.clock, args.token_id)
    print(
        f"Revoked token {token.token_id} ({token.label}). Running API processes stop accepting it "
        f"within {d.settings.token_cache_seconds} seconds.",
        file=out,
    )
    return 0

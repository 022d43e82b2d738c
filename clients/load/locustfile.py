"""A Locust load test whose simulated customers sign up with real published addresses, each user
from its own slice of the pool: user k of N draws from `partition=k/N`, so no two users ever submit
the same address, and each slice comes page by page from the seeded export (one request per 50).

    pip install -r clients/load/requirements.txt
    AGS_TOKEN=... locust -f clients/load/locustfile.py --host http://127.0.0.1:8000 -u 8 -r 8

AGS_COUNTRY (default US) and AGS_SEED (default `load`) choose the addresses; replace `sign_up`'s
request with your application's. With AGS_DRAWN set to a folder, each user writes the address ids
it used to <folder>/<k>-of-<N>.txt (how make test checks that no two users shared one)."""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Any

from locust import HttpUser, between, task

COUNTRY = os.environ.get("AGS_COUNTRY", "US")
SEED = os.environ.get("AGS_SEED", "load")
PAGE = 50


class Customer(HttpUser):
    wait_time = between(0.05, 0.2)
    _started = itertools.count()

    def on_start(self) -> None:
        users = max(1, self.environment.runner.target_user_count if self.environment.runner else 1)
        self.partition = f"{next(Customer._started) % users}/{users}"
        self.headers = {"Authorization": f"Bearer {os.environ['AGS_TOKEN']}"}
        self.page, self.waiting = 1, list[dict[str, Any]]()
        drawn = os.environ.get("AGS_DRAWN")
        self.log = Path(drawn) / f"{self.partition.replace('/', '-of-')}.txt" if drawn else None

    def next_customer(self) -> dict[str, Any]:
        """The next address and profile of this user's slice (from its start again once used up)."""
        if not self.waiting:
            query = {"country": COUNTRY, "seed": SEED, "partition": self.partition}
            query |= {"page": self.page, "pageSize": PAGE}
            with self.client.get(
                "/api/v1/export",
                params=query,
                headers=self.headers,
                name="export (feed)",
                catch_response=True,
            ) as answer:
                data = answer.json()["data"] if answer.ok else {"results": [], "nextPage": None}
            self.waiting = list(data["results"])
            self.page = data["nextPage"] or 1
        return self.waiting.pop(0)

    @task
    def sign_up(self) -> None:
        customer = self.next_customer()
        address = customer["address"]
        if self.log is not None:
            with self.log.open("a") as log:
                log.write(address["id"] + "\n")
        # Your application's sign-up here, e.g. self.client.post("/signup", json={...}). This example
        # reads the address back from the service, so it runs against make run alone.
        self.client.get(f"/api/v1/addresses/{address['id']}", headers=self.headers, name="/addresses/{id}")

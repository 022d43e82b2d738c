# Everything a fresh machine needs: `make run` and `make test` install what they use.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# make test's pytest workers (pytest-xdist): the two cores of a CI runner.
TEST_WORKERS ?= 2
DDB_PORT ?= 8001
DATA ?= samples
SCOPE ?= generate
RATE ?= 60
EXPIRES ?= 30d
LABEL ?= make token
PY_STAMP := $(VENV)/.installed
NODE_STAMP := infra/local/node_modules/.installed
CDK_CLI_STAMP := infra/aws/cli/node_modules/.installed
LINTERS_STAMP := tests/contract/linters/node_modules/.installed
CLIENTS_NODE_STAMP := tests/contract/clients/node_modules/.installed
AGENTS_STAMP := tests/contract/agents/node_modules/.installed
TS_KIT_STAMP := clients/typescript/node_modules/.installed
CLIENTS_VENV := .venv-clients
CLIENTS_STAMP := $(CLIENTS_VENV)/.installed
# The Locust example's venv (clients/load): Locust brings gevent, Flask and its own pins.
LOAD_VENV := .venv-load
LOAD_STAMP := $(LOAD_VENV)/.installed
EMULATOR_VENV := .venv-emulator
EMULATOR_STAMP := $(EMULATOR_VENV)/.installed
# The console's third-party files (swagger-ui-dist), served by the app itself: copied into the
# package's folder, not committed.
CONSOLE_VENDOR := chalicelib/console/vendor
CONSOLE_STAMP := $(CONSOLE_VENDOR)/.installed
STAGE ?= dev
# jsii (the CDK's Python bridge to its JavaScript) warns on every call that Node 20, what Debian
# ships here, is past its end of life; it still works, and the warning would bury the output.
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION := 20

# Each virtualenv's pinned requirements are installed by uv (Astral; MIT/Apache-2.0), itself pinned
# and installed by pip: the same versions as pip resolves, in ~10 s where pip took ~75 s for the
# dev requirements alone, which counted in every clean-clone `make test`.
UV_VERSION := 0.13.9
define venv_install
@test -x $(1)/bin/python || $(PYTHON) -m venv $(1)
$(1)/bin/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)
$(1)/bin/uv pip install --quiet --python $(1)/bin/python -r $(2)
endef

.PHONY: browser clients install run routes token aws-token test test-fast pytest-fast coverage lint typecheck pytest clean synth package deploy deploy-local bench bench-sync bench-sync-scale bench-planet bench-snapshots bench-generate bench-catalog bench-ip bench-translation bench-completeness bench-profiles bench-near-misses bench-cold-start load

$(PY_STAMP): requirements.txt requirements-dev.txt requirements-infra.txt
	$(call venv_install,$(VENV),requirements-dev.txt)
	@touch $@

$(NODE_STAMP): infra/local/package.json infra/local/package-lock.json
	npm ci --prefix infra/local --no-audit --no-fund --loglevel=error
	@touch $@

# Redocly and Spectral for the OpenAPI lint tests; --ignore-scripts: no install script is needed,
# and @scarf/scarf's would report the install over the network.
$(LINTERS_STAMP): tests/contract/linters/package.json tests/contract/linters/package-lock.json
	npm ci --prefix tests/contract/linters --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

# Generators and runners testers use (openapi-typescript, openapi-fetch, tsc, openapi-to-postmanv2,
# newman, Bruno's CLI) and openapi-python-client in a venv of its own, for the generated-clients test.
$(CLIENTS_NODE_STAMP): tests/contract/clients/package.json tests/contract/clients/package-lock.json
	npm ci --prefix tests/contract/clients --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

# The MCP Inspector's CLI, a third-party MCP client, on the Node >= 22.19 it needs (npm's `node`
# package; Debian's is 20), for tests/integration/test_mcp_clients.py. `npm install` with the
# lock, not `npm ci`: vite's optional napi-windows-process-start-time is not on the registry, so
# the lock cannot hold it and `npm ci` refuses the lock; install honours the lock's versions and
# leaves it as it is. Scripts off but node's own, which fetches its binary (an npm package too).
$(AGENTS_STAMP): tests/contract/agents/package.json tests/contract/agents/package-lock.json
	npm install --prefix tests/contract/agents --ignore-scripts --no-audit --no-fund --loglevel=error
	npm rebuild --prefix tests/contract/agents node --loglevel=error
	@touch $@

# The TypeScript testkit's build and test tools (tsc, openapi-typescript, @playwright/test, which
# drives Debian's Chromium: no browser download, so no install script is needed).
$(TS_KIT_STAMP): clients/typescript/package.json clients/typescript/package-lock.json
	npm ci --prefix clients/typescript --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

$(CLIENTS_STAMP): requirements-clients.txt
	$(call venv_install,$(CLIENTS_VENV),requirements-clients.txt)
	@touch $@

$(LOAD_STAMP): clients/load/requirements.txt
	$(call venv_install,$(LOAD_VENV),clients/load/requirements.txt)
	@touch $@

# --ignore-scripts: swagger-ui-dist's dependency @scarf/scarf would report the install over the network.
$(CONSOLE_STAMP): infra/console/package.json infra/console/package-lock.json
	npm ci --prefix infra/console --ignore-scripts --no-audit --no-fund --loglevel=error
	mkdir -p $(CONSOLE_VENDOR)
	cp infra/console/node_modules/swagger-ui-dist/{swagger-ui-bundle.js,swagger-ui.css,LICENSE,NOTICE} $(CONSOLE_VENDOR)/
	@touch $@

## Debian's Chromium for the browser tests, when missing (apt-get needs root, as in CI).
browser:
	@command -v chromium >/dev/null || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null; }

install: $(PY_STAMP) $(NODE_STAMP) $(CONSOLE_STAMP) $(LINTERS_STAMP) $(CLIENTS_NODE_STAMP) $(CLIENTS_STAMP) $(AGENTS_STAMP) $(TS_KIT_STAMP) $(LOAD_STAMP)

## The service on http://127.0.0.1:$(PORT), backed by DynamoDB Local on $(DDB_PORT). DATA=overture:
## the Overture replica's newest release, through discovery, instead of the sample sources. The
## request log goes to .dev/requests.log; REQUEST_LOG=1 shows it in the terminal instead.
run: install
	@PORT=$(PORT) DDB_PORT=$(DDB_PORT) DATA=$(DATA) REQUEST_LOG=$(REQUEST_LOG) $(BIN)/python -m infra.local run

## app.py's route table, written anew from the handlers' declarations (@endpoint in chalicelib/api)
## after a route is added, moved or renamed; a unit test fails while it is stale.
routes: $(PY_STAMP)
	$(BIN)/python -m infra.routes

## A token against the running local stack (its ports as make run noted them in .dev, or DDB_PORT);
## the bearer value is alone on the last line.
token: $(PY_STAMP)
	@$(BIN)/python -m infra.local cli tokens create \
		--scope "$(SCOPE)" --rate "$(RATE)" --expires "$(EXPIRES)" --label "$(LABEL)"

## A token in the deployed $(STAGE)'s tables (AWS credentials needed); the bearer is alone on the last line.
aws-token: $(PY_STAMP)
	@TOKENS_TABLE=ags-$(STAGE)-tokens RATE_LIMITS_TABLE=ags-$(STAGE)-rate-limits POOL_TABLE=ags-$(STAGE)-pool \
		CATALOG_TABLE=ags-$(STAGE)-catalog $(BIN)/python -m chalicelib.cli tokens create \
		--scope "$(SCOPE)" --rate "$(RATE)" --expires "$(EXPIRES)" --label "$(LABEL)"

# The installs side by side (npm and uv wait on the network and the disk: 55 s one by one, 36 s
# together), the emulator's venv among them rather than after the suite; the linters and mypy (a
# minute on one core from a clean clone) beside pytest's two workers, since none needs another's
# result. Each step still fails make test.
test:
	@$(MAKE) --no-print-directory -j4 install $(EMULATOR_STAMP)
	@$(MAKE) --no-print-directory -j3 lint typecheck pytest
	@$(MAKE) --no-print-directory deploy-local

## Lint, types, and the unit, functional and testers'-package tests (no stack, browser or synth).
test-fast: $(PY_STAMP)
	@$(MAKE) --no-print-directory -j3 lint typecheck pytest-fast

# The linters and mypy beside pytest: a cold cache's minute of mypy no longer comes first.
pytest-fast: $(PY_STAMP)
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=15 tests/unit tests/functional clients/python/tests

lint: $(PY_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: $(PY_STAMP)
	$(BIN)/mypy

# The whole suite on both cores, each file on one worker (a module's synced pool built once), the
# slowest 15 tests listed at the end. No coverage here: its tracer slowed the suite by 40%.
pytest: install browser
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=15

## The coverage figure of chalicelib and ags_testkit, counting the code the unit, functional and
## testers'-package tests run in their own process (CI runs it after make test).
coverage: $(PY_STAMP)
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder -q --cov=chalicelib --cov=ags_testkit --cov-report= \
		tests/unit tests/functional clients/python/tests
	@echo "Coverage (chalicelib and ags_testkit, unit, functional and testkit tests): $$($(BIN)/coverage report --format=total)%"

clean:
	rm -rf $(VENV) $(EMULATOR_VENV) $(CLIENTS_VENV) $(LOAD_VENV) tests/contract/clients/node_modules infra/local/node_modules infra/aws/cli/node_modules infra/console/node_modules tests/contract/linters/node_modules tests/contract/agents/node_modules clients/typescript/node_modules $(CONSOLE_VENDOR) infra/cdk.out infra/chalice.out \
		infra/package .dev .pytest_cache .mypy_cache .ruff_cache

## What testers import, regenerated from the served OpenAPI document (infra/clients.py): the
## TypeScript testkit's types, and the Postman collection and environment. make test checks they are current.
clients: $(PY_STAMP) $(CLIENTS_NODE_STAMP) $(TS_KIT_STAMP)
	$(BIN)/python -m infra.clients

## Deployment (docs/deploy.md). synth: both stages' templates in infra/cdk.out, offline, no AWS
## credentials, the app's code packaged without its requirements (PACKAGE=full for the real one).
synth: install
	$(BIN)/python -m infra.aws.app --package $(if $(filter full,$(PACKAGE)),lambda,stub)

## The real deployment package of $(STAGE) (chalice package: requirements for Lambda's platform).
package: $(PY_STAMP) $(CONSOLE_STAMP)
	rm -rf infra/package/$(STAGE)
	$(BIN)/python -m infra.aws.package $(STAGE) infra/package/$(STAGE)

$(CDK_CLI_STAMP): infra/aws/cli/package.json infra/aws/cli/package-lock.json
	npm ci --prefix infra/aws/cli --no-audit --no-fund --loglevel=error
	@touch $@

# The emulator in a virtualenv of its own: it pins botocore, and aws-sam-translator pins pydantic.
$(EMULATOR_STAMP): infra/emulator/requirements.txt
	$(call venv_install,$(EMULATOR_VENV),infra/emulator/requirements.txt)
	@touch $@

## The dev stage deployed to a local AWS emulator (ministack, IAM enforced, no Docker), smoke-tested
## over HTTP and torn down; no AWS account. KEEP=1 leaves it running. Part of make test.
deploy-local: install $(EMULATOR_STAMP)
	$(BIN)/python -m infra.emulator $(if $(KEEP),--keep,)

## Needs AWS credentials and a bootstrapped account (cdk bootstrap); not run by CI. One account per
## stage: ACCOUNT is the stage's account id, and cdk refuses credentials of any other account.
deploy: install $(CDK_CLI_STAMP)
	@test -n "$(ACCOUNT)" || { echo "make deploy needs ACCOUNT=<the $(STAGE) account id> (docs/deploy.md)"; exit 2; }
	$(BIN)/python -m infra.aws.app --stage $(STAGE) --account $(ACCOUNT) $(if $(ALARM_EMAIL),--alarm-email $(ALARM_EMAIL),) \
		$(if $(DOMAIN),--domain $(DOMAIN),) $(if $(CERTIFICATE_ARN),--certificate-arn $(CERTIFICATE_ARN),) $(if $(HOSTED_ZONE_ID),--hosted-zone-id $(HOSTED_ZONE_ID),)
	infra/aws/cli/node_modules/.bin/cdk deploy --app infra/cdk.out --require-approval broadening $(STAGE)

## Benchmarks (print ratios; never part of the pass/fail of make test).
bench: install
	$(BIN)/python -m bench.request_overhead

bench-sync: install
	$(BIN)/python -m bench.sync

bench-sync-scale: install
	$(BIN)/python -m bench.sync_scale

## Overture's 472.8 M rows projected from the replica's two releases: per-row costs, then a first
## load and a 1% and 5% refresh in hours, GB-seconds, write units, requests and dollars.
bench-planet: install
	$(BIN)/python -m bench.planet

bench-snapshots: install
	$(BIN)/python -m bench.snapshots

bench-generate: install
	$(BIN)/python -m bench.generate

bench-catalog: install
	$(BIN)/python -m bench.catalog

bench-ip: install
	$(BIN)/python -m bench.ip_context

bench-translation: install
	$(BIN)/python -m bench.translation

bench-completeness: install
	$(BIN)/python -m bench.completeness

bench-profiles: install
	$(BIN)/python -m bench.profiles

## Near-miss variants held to Google's address rules: the share rejected where the base is accepted.
bench-near-misses: install
	$(BIN)/python -m bench.near_misses

bench-cold-start: install
	$(BIN)/python -m bench.cold_start

## 32 clients for 60 s against the stack make run starts (started here, on PORT/DDB_PORT; stop make run first).
load: install
	$(BIN)/python -m bench.load

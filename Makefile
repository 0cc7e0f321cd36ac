# The checks and runs a change must pass, in one place (CI runs `.ci/run`, which is `make test`'s command).
# Tools come from the project's virtual environment: `python3 -m venv .venv && .venv/bin/pip install -e '.[dev]'`.

VENV ?= .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
SOURCES := yak_tui tests bench
# Extra arguments for one benchmark, e.g. `make bench-scale BENCH_ARGS="--sizes 1,10 --repeat 1"`.
BENCH_ARGS ?=
# The grown world bench_terminal reads (bench/worldgen.py makes it once).
BENCH_WORLD ?= /tmp/yak-bench-world-10x.json

export TEXTUAL_ANIMATIONS := none

.PHONY: help check lint format-check typecheck layers format hooks test test-fast bench \
	bench-command bench-validate bench-yearstart bench-startup bench-models bench-scale bench-app \
	bench-serve bench-terminal

help: ## this list
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

check: lint format-check typecheck layers ## everything a commit must pass but the tests

lint: ## ruff's lint rules
	$(BIN)/ruff check $(SOURCES)

format-check: ## the code is ruff-formatted
	$(BIN)/ruff format --check $(SOURCES)

typecheck: ## mypy over the whole package, strict on the kernel (pyproject.toml)
	$(BIN)/mypy

layers: ## import-linter's contracts: who may import whom (pyproject.toml)
	$(BIN)/lint-imports

format: ## apply ruff's fixes and format
	$(BIN)/ruff check --fix $(SOURCES)
	$(BIN)/ruff format $(SOURCES)

hooks: ## run `make check`'s tools before each git commit (.pre-commit-config.yaml)
	$(BIN)/pre-commit install

test-fast: ## the headless tests: no Textual app, no tmux or SSH client
	$(PY) -m pytest -n 3 -q -m "not app and not e2e"

test: ## the whole suite, the README's command (and CI's)
	$(PY) -m pytest -n 3 -q

bench: bench-command bench-validate bench-yearstart bench-startup bench-models bench-scale bench-app bench-serve bench-terminal ## every benchmark, as bench/README.md runs it (prints numbers, asserts none)

bench-command: ## one `do note` on a 10,000-document world, against a plain orjson round trip
	$(PY) bench/bench_command.py $(BENCH_ARGS)

bench-validate: ## validating a 41 MB save on load, against orjson.loads
	$(PY) bench/bench_validate.py $(BENCH_ARGS)

bench-yearstart: ## the year start on 10,000 businesses, against a plain orjson round trip
	$(PY) bench/bench_yearstart.py $(BENCH_ARGS)

bench-startup: ## the first painted dashboard and peak memory, against a Textual hello world
	$(PY) bench/bench_startup.py $(BENCH_ARGS)

bench-models: ## a form keystroke and each read model on grown worlds
	$(PY) bench/bench_models.py $(BENCH_ARGS)

bench-scale: ## the CLI on grown worlds, as ratios of the floor
	$(PY) bench/bench_scale.py $(BENCH_ARGS)

bench-app: ## the app at scale: first paint, first visits, reload stalls, many apps
	$(PY) bench/bench_app.py $(BENCH_ARGS)

bench-serve: ## `yak serve`: concurrent SSH sessions against a local `yak`
	$(PY) bench/bench_serve.py $(BENCH_ARGS)

bench-terminal: $(BENCH_WORLD) ## the real `yak tui` in a pseudo-terminal, key to painted screen
	$(PY) bench/bench_terminal.py $(BENCH_WORLD) $(BENCH_ARGS)

$(BENCH_WORLD):
	$(PY) bench/worldgen.py 10 $@

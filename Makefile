# One command sets up and runs the main job (make run); one sets up and passes the tests (make test).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test test-fast lint format bench table table-expert table-check crib-tables model compare clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/crib-analyze discard 5H 6S 4D JC QH 5C --dealer

test: $(STAMP)
	$(BIN)/python -m pytest

test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check crib_analyze tests benchmarks docs
	$(BIN)/ruff format --check crib_analyze tests benchmarks docs
	$(BIN)/mypy crib_analyze

format: $(STAMP)
	$(BIN)/ruff format crib_analyze tests benchmarks docs
	$(BIN)/ruff check --fix crib_analyze tests benchmarks docs

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_enumeration.py
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_discard.py
	$(BIN)/python benchmarks/bench_table.py
	$(BIN)/python benchmarks/bench_expert.py

table: $(STAMP)
	$(BIN)/crib-analyze table

table-expert: $(STAMP)
	$(BIN)/crib-analyze table --opponent expert

table-check: $(STAMP)
	$(BIN)/crib-analyze table check data/discard_table.parquet

model: $(STAMP)
	$(BIN)/crib-analyze build-model

# needs the published tables (shared/reference), which the package never reads
compare: $(STAMP)
	$(BIN)/python docs/compare_published.py ../shared/reference/published_crib_tables.json > docs/expert_vs_published.md

crib-tables: $(STAMP)
	$(BIN)/crib-analyze crib-table --opponent random --role dealer --format csv > /dev/null
	$(BIN)/crib-analyze crib-table --opponent random --role pone --format csv > /dev/null
	$(BIN)/crib-analyze crib-table --opponent expert --role dealer --format csv > /dev/null
	$(BIN)/crib-analyze crib-table --opponent expert --role pone --format csv > /dev/null

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
	find . -name __pycache__ -prune -exec rm -rf {} +

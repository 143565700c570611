# One command sets up and runs the main job (make run); one sets up and passes the tests (make test).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# tests compile every kernel afresh: a cache from other sources is never trusted
TEST_CACHE := $(shell mktemp -u /tmp/crib-analyze-test-cache.XXXXXX)
SOURCES := crib_analyze tests benchmarks docs tools data

.PHONY: run test test-all test-fast lint docs format bench table table-expert table-check crib-tables model rank-table compare clean install browser

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,plot,web]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/crib-analyze discard 5H 6S 4D JC QH 5C --dealer

# every test module; the heavy checks in a smaller form that rotates with the commit;
# two workers (this machine has 2 cores), a test file to a worker: most of the time is
# compiling kernels, which runs on one core, and compiles without the thread pool (the
# workers fill the cores; make test-all compiles the kernels as users run them)
WORKERS ?= 2
test: $(STAMP) browser
	CRIB_ANALYZE_SERIAL_KERNELS=1 CRIB_ANALYZE_CACHE_DIR=$(TEST_CACHE) $(BIN)/python -m pytest -n $(WORKERS) --dist loadfile --durations=25; \
	status=$$?; rm -rf $(TEST_CACHE); exit $$status

# the page's tests drive a real headless Chromium: Debian's chromium and chromium-driver,
# installed here when missing (as root, or with sudo); without them those tests fail
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get install -y -q chromium chromium-driver >/dev/null || \
	  { $$SUDO apt-get update -q >/dev/null && $$SUDO apt-get install -y -q chromium chromium-driver >/dev/null; } || \
	  echo "could not install chromium and chromium-driver: the page's browser tests will fail"; }

# every check at full size (the 10,000-case fuzz, the whole table, every hand, ...)
test-all: $(STAMP) browser
	CRIB_ANALYZE_TEST_FULL=1 CRIB_ANALYZE_CACHE_DIR=$(TEST_CACHE) $(BIN)/python -m pytest --durations=25; \
	status=$$?; rm -rf $(TEST_CACHE); exit $$status

test-fast: $(STAMP)
	CRIB_ANALYZE_CACHE_DIR=$(TEST_CACHE) $(BIN)/python -m pytest -m "not slow"; \
	status=$$?; rm -rf $(TEST_CACHE); exit $$status

lint: $(STAMP)
	$(BIN)/ruff check $(SOURCES)
	$(BIN)/ruff format --check $(SOURCES)
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache
	$(BIN)/python tools/cli_reference.py --check

# regenerate the command-line reference (docs/cli.md) from --help, the shown output of
# every command example in README.md and docs/, and the timings quoted (data/costs.json)
docs: $(STAMP)
	$(BIN)/python tools/cli_reference.py
	$(BIN)/python tools/docs_examples.py --write
	$(BIN)/python tools/docs_costs.py --write

format: $(STAMP)
	$(BIN)/ruff format $(SOURCES)
	$(BIN)/ruff check --fix $(SOURCES)

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_enumeration.py
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_discard.py
	$(BIN)/python benchmarks/bench_table.py
	$(BIN)/python benchmarks/bench_expert.py

# generated files go to the user data dir ('crib-analyze paths' shows it)
table: $(STAMP)
	$(BIN)/crib-analyze table

table-expert: $(STAMP)
	$(BIN)/crib-analyze table --opponent expert

table-check: $(STAMP)
	$(BIN)/crib-analyze table check

# maintainers: rebuild the model and crib tables shipped inside the package
model: $(STAMP)
	$(BIN)/crib-analyze build-model -o data/expert_model.npz

# the rank points of every five ranks that the one-hand path reads (from the rules' count)
rank-table: $(STAMP)
	$(BIN)/python -c 'from crib_analyze.scoring.rank_points import write_rank_table as w; w("data/rank_points.raw")'

# from the tables of 'make table table-expert' (override: make crib-tables RANDOM_TABLE=... EXPERT_TABLE=...)
RANDOM_TABLE = $(shell $(BIN)/python -c 'import crib_analyze as ca; print(ca.paths().random_table)')
EXPERT_TABLE = $(shell $(BIN)/python -c 'import crib_analyze as ca; print(ca.paths().expert_table)')
crib-tables: $(STAMP)
	for role in dealer pone; do \
	  $(BIN)/crib-analyze crib-table --table "$(RANDOM_TABLE)" --role $$role -f csv \
	    -o data/crib_table_$$role.csv || exit 1; \
	  $(BIN)/crib-analyze crib-table --table "$(EXPERT_TABLE)" --role $$role -f csv \
	    -o data/crib_table_$${role}_expert.csv || exit 1; \
	done

# needs the published tables (shared/reference), which the package never reads
compare: $(STAMP)
	$(BIN)/python docs/compare_published.py ../shared/reference/published_crib_tables.json > docs/expert_vs_published.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info
	find . -name __pycache__ -prune -exec rm -rf {} +

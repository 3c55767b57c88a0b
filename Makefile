# Two commands do all set-up on a fresh machine with Python 3.11 and make:
#   make serve   # start the service on the embedded SQLite default
#   make test    # lint, type-check and run the whole test suite
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 50051
DB ?= gamelog.sqlite

.PHONY: setup serve test lint typecheck unit jstest proto docs bench clean

# scripts/setup_venv.py takes a lock, so `make serve` and `make test` started
# together on a fresh clone install once, not twice into one folder.
setup:
	@$(PYTHON) scripts/setup_venv.py

serve: setup
	$(BIN)/gamelog serve --db $(DB) --port $(PORT)

# mypy cannot follow setuptools' package-dir mapping, so it reads the
# packages through a tree of symlinks named as they are imported.
.typecheck/gamelog: Makefile
	mkdir -p .typecheck/gamelog
	for d in games service replay cli tournaments web; do ln -sfn ../../$$d .typecheck/gamelog/$$d; done
	ln -sfn ../../proto/gamelog/v1 .typecheck/gamelog/v1

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: setup .typecheck/gamelog
	$(BIN)/mypy -p gamelog.games -p gamelog.service -p gamelog.replay -p gamelog.cli -p gamelog.tournaments -p gamelog.web

unit: setup
	$(BIN)/python -m pytest -n 2 --doctest-modules games service replay cli tournaments web tests

# The page's pure modules under node's own test runner (scripts/node_tests.sh).
jstest:
	@bash scripts/node_tests.sh

test: lint typecheck jstest unit

proto: setup
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/python -m grpc_tools.protoc -Iproto --python_out=proto --grpc_python_out=proto \
		--mypy_out=proto --mypy_grpc_out=proto proto/gamelog/v1/gamelog.proto \
		proto/gamelog/v1/tournaments.proto

docs: setup
	$(BIN)/python -m gamelog.games.schema_docs > docs/schemas.md

bench: setup
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .typecheck .mypy_cache .ruff_cache .pytest_cache

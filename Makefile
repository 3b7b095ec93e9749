# The two set-up-and-go commands of README.md: `make play` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: play test install install-test serve

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Each install ends with `coloretto warmup`: it compiles the Numba fast core once (about
# two minutes the first time, a second afterwards), so the first computer decision is quick.
install: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[arena,web]'
	$(BIN)/coloretto warmup

install-test: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[all]'
	bash scripts/install-system-deps.sh
	$(BIN)/coloretto warmup

play: install
	$(BIN)/coloretto play

serve: install
	$(BIN)/coloretto serve

test: install-test
	COLORETTO_NO_SKIPS=1 COLORETTO_REQUIRE_BROWSER=1 $(BIN)/python -m pytest $(PYTEST_ARGS)

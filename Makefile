# spyhouse: `make run` and `make test` do all the set-up a fresh machine needs.
# The virtualenv is .venv (made with python3 if missing); the project is installed
# in it, editable with its dev tools, whenever pyproject.toml changes.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

# `make run` serves the site on the embedded SQLite database (var/spyhouse.db) with
# the demo: log in as demo / demo-password and play a Spy vs Spy turn against bots.
HOST ?= 127.0.0.1
PORT ?= 8000

# A simulated game between bots, printed as text (the command line's demo).
DEMO_RECORD  := var/demo-record.json
DEMO_PLAYERS := 8
DEMO_TURNS   := 60
DEMO_SEED    := 20261130
DEMO_SEAT    := s1

.PHONY: all run simulate test lint typecheck pytest bench clean chromium

all: test

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[dev,fuzz,rl,lab]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/spyhouse serve --host $(HOST) --port $(PORT)

# A simulated Spy vs Spy game between bots (the three strategies mixed): the
# standings, then the last turn report one seat read, as text. The record is
# kept in $(DEMO_RECORD) for `spyhouse replay`.
simulate: $(STAMP)
	$(BIN)/spyhouse simulate spyvsspy --players $(DEMO_PLAYERS) --turns $(DEMO_TURNS) \
		--seed $(DEMO_SEED) --out $(DEMO_RECORD) --report $(DEMO_SEAT)

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

# Browser tests drive Debian's chromium (never a downloaded browser); install it
# when missing and we are root, otherwise those tests skip with a reason.
chromium:
	@if ! command -v chromium >/dev/null 2>&1; then \
		if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
			echo "installing Debian's chromium for the browser tests"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else \
			echo "chromium is missing and cannot be installed here: browser tests will skip"; \
		fi; \
	fi

pytest: $(STAMP) chromium
	@if $(BIN)/python -c 'import xdist' 2>/dev/null; then n='-n auto'; else n=''; fi; \
	echo "$(BIN)/python -m pytest -p no:cacheprovider $$n"; \
	$(BIN)/python -m pytest -p no:cacheprovider $$n

bench: $(STAMP)
	$(BIN)/python bench/spyvsspy_turn.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .mypy_cache .ruff_cache .hypothesis

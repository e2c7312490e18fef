# The README's two commands: `make demo` (set up, then run the main job: the arena with built-in bots)
# and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test setup lint

# `make demo PORT=8123 HOST=0.0.0.0` serves elsewhere; a busy or out-of-range port is refused in one line.
HOST ?= 127.0.0.1
PORT ?= 8000

demo: $(STAMP)
	$(BIN)/paiju serve --host $(HOST) --port $(PORT) --open-browser

# The suite runs on the engine path PAIJU_NATIVE selects (compiled where built); the engines, the rule bots and
# the conformance checks then run again on the reference Python path.
REFERENCE_TESTS := tests/games tests/native tests/test_conformance.py tests/agents/test_rules_doudizhu.py \
	tests/agents/test_rules_guandan.py tests/agents/test_gongzhu_greed.py tests/agents/test_gongzhu_if.py

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples setup.py
	$(BIN)/pytest
	PAIJU_NATIVE=0 $(BIN)/pytest $(REFERENCE_TESTS)

setup: $(STAMP)

# The compiled fast paths (paiju.native) are rebuilt when their sources change.
$(STAMP): pyproject.toml setup.py $(shell find src -name '*.pyx' -o -name '*.pxd')
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

# The README's two commands: `make demo` (set up, then run the main job: the arena with built-in bots)
# and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test setup lint

demo: $(STAMP)
	$(BIN)/paiju serve

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/pytest

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

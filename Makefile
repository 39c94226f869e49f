# The two set-up commands: `make demo` and `make test`. Both create .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint install clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[test,train]"
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/parawire demo

# pytest's exit code 5 (no tests collected) counts as a failure.
test: $(STAMP)
	$(BIN)/ruff check .
	scripts/with-services.sh $(BIN)/python -m pytest -q -p no:cacheprovider tests; \
	  status=$$?; if [ $$status -eq 5 ]; then echo "no tests ran" >&2; exit 1; fi; exit $$status

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) data

# make demo / make test set up everything on a fresh machine: .venv is created and
# the package installed (editable) with the extras each target needs.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip --disable-pip-version-check -q

.PHONY: demo test lint bench install install-dev clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -U pip

$(VENV)/.all: $(PY) pyproject.toml
	$(PIP) install -e '.[all]'
	touch $@

$(VENV)/.dev: $(PY) pyproject.toml
	$(PIP) install -e '.[all,dev]'
	@# torch only to test torch-tensor inputs and torchmetrics' definitions, and only the
	@# CPU wheel this machine kind ships (torchmetrics after it, so it cannot pull a CUDA torch)
	@if ls /opt/wheels/torch-2.13.0+cpu-* >/dev/null 2>&1; then \
	  $(PIP) install 'torch==2.13.0' && $(PIP) install 'torchmetrics>=1.4'; \
	  else echo "no local CPU torch wheel: the torch-input and torchmetrics tests will skip"; fi
	touch $(VENV)/.all $@

install: $(VENV)/.all
install-dev: $(VENV)/.dev

demo: $(VENV)/.all
	$(VENV)/bin/scorekit demo

test: $(VENV)/.dev
	@# both cores: the suite takes about 4 minutes here with two workers, 10 with one
	$(PY) -m pytest -q -n 2
	$(MAKE) lint

lint: $(VENV)/.dev
	$(PY) -m ruff check src tests benchmarks
	$(PY) -m ruff format --check src tests benchmarks
	$(PY) -m mypy

# Every benchmark appends its lines to benchmarks/.results.jsonl; update_readme.py writes
# benchmarks/RESULTS.md from them and copies its table into the README (## Performance).
BENCH_RESULTS := benchmarks/.results.jsonl

bench: $(VENV)/.dev
	@rm -f $(BENCH_RESULTS)
	@$(PY) benchmarks/_harness.py
	@for b in benchmarks/bench_*.py; do echo "== $$b"; \
	  SCOREKIT_BENCH_RESULTS=$(BENCH_RESULTS) $(PY) $$b $(BENCH_ARGS) || exit 1; done
	$(PY) benchmarks/update_readme.py $(BENCH_RESULTS)

clean:
	rm -rf $(VENV) build dist src/*.egg-info

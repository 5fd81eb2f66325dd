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
	$(PY) -m pytest -q
	$(MAKE) lint

lint: $(VENV)/.dev
	$(PY) -m ruff check src tests benchmarks
	$(PY) -m ruff format --check src tests benchmarks
	$(PY) -m mypy

bench: $(VENV)/.dev
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) build dist src/*.egg-info

# Two commands do all the set-up on a fresh machine:
#   make demo   - build the virtual environment and run the demonstration
#   make test   - build the virtual environment and run the test suite
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed-dev
BSTAMP  = $(VENV)/.installed-bench

.PHONY: demo test test-floors test-slow bench bench-rete bench-perft bench-presets bench-dice bench-instructions clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(BSTAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,bench]'
	touch $(BSTAMP)

demo: $(STAMP)
	$(PY) -m chess_rules.demo

test: $(STAMP)
	$(PY) -m pytest

# the fast suite against the lowest version pyproject.toml allows of every
# direct dependency (its own venv: the floors are a promise to pip users)
FLOORS_VENV = .venv-floors
test-floors:
	$(PYTHON) -m venv $(FLOORS_VENV)
	$(FLOORS_VENV)/bin/python -m pip install --quiet $$($(PYTHON) -c "import tomllib; \
	p = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
	print(' '.join(r.replace('>=', '==') \
	for r in p['dependencies'] + p['optional-dependencies']['dev']))")
	$(FLOORS_VENV)/bin/python -m pip install --quiet --no-deps -e .
	$(FLOORS_VENV)/bin/python -m pytest

test-slow: $(STAMP)
	$(PY) -m pytest -m slow

bench: $(BSTAMP)
	$(PY) benchmarks/run_all.py

bench-rete: $(BSTAMP)
	$(PY) benchmarks/rete_bench.py

bench-perft: $(BSTAMP)
	$(PY) benchmarks/perft.py

bench-presets: $(BSTAMP)
	$(PY) benchmarks/presets_perft.py

bench-dice: $(BSTAMP)
	$(PY) benchmarks/dice_bench.py

# instruction counts under callgrind (needs valgrind, a system tool): for A/B runs
bench-instructions: $(BSTAMP)
	$(PY) benchmarks/instructions.py

clean:
	rm -rf $(VENV) $(FLOORS_VENV) build *.egg-info .pytest_cache

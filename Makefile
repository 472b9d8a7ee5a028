# Two commands do all the set-up on a fresh machine:
#   make demo   - build the virtual environment and run the demonstration
#   make test   - build the virtual environment and run the test suite
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed-dev
BSTAMP  = $(VENV)/.installed-bench

.PHONY: demo serve browser test test-compiled fuzz test-floors test-pythons test-slow bench bench-rete bench-perft bench-presets bench-dice bench-instructions bench-strength bench-search bench-lab stockfish clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[dev,web,lab]'
	touch $(STAMP)

$(BSTAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,web,lab,bench]'
	touch $(BSTAMP)

demo: $(STAMP)
	$(PY) -m houserules.demo

# the web playground on http://127.0.0.1:8000 (Ctrl-C stops it)
serve: $(STAMP)
	$(VENV)/bin/houserules serve

# the browser the playground's end-to-end tests drive: Debian's chromium (and a
# font with the chess glyphs); Playwright cannot download its own browsers here
BROWSER_PACKAGES = chromium fonts-dejavu-core
browser:
	@if command -v chromium >/dev/null && fc-list 2>/dev/null | grep -qi dejavu; then \
	  echo "browser: chromium is installed"; \
	else \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(BROWSER_PACKAGES); \
	fi

test: $(STAMP)
	$(PY) -m pytest

# the fast suite against the compiled core: `pip install .` builds a wheel
# (Cython, from the same source) into its own venv, and the suite runs with
# PYTHONSAFEPATH set, so neither it nor the commands it starts import the
# checkout's packages instead of the installed ones; conftest.py stops the run
# unless every module it should compile runs compiled; then both builds play the
# same seeded random games and must agree on every move list, tree, outcome, FEN
CVENV  = .venv-compiled
CPY    = $(CVENV)/bin/python
CSTAMP = $(CVENV)/.installed
SOURCES := $(shell find rete chess_rules presets dice -name '*.py' 2>/dev/null)
$(CSTAMP): pyproject.toml setup.py $(SOURCES)
	test -x $(CPY) || { $(PYTHON) -m venv $(CVENV) && $(CPY) -m pip install --quiet --upgrade pip; }
	$(CPY) -m pip install --quiet '.[dev,web,lab,bench]'
	PYTHONSAFEPATH=1 $(CPY) -c "import rete; print('houserules build:', rete.build_kind())"
	touch $(CSTAMP)

test-compiled: $(STAMP) $(CSTAMP)
	PYTHONSAFEPATH=1 HOUSERULES_EXPECT_BUILD=compiled $(CPY) -m pytest
	$(CPY) tests/build_differential.py emit > $(CVENV)/compiled.json
	$(PY) tests/build_differential.py emit > $(CVENV)/pure.json
	$(PY) tests/build_differential.py compare $(CVENV)/pure.json $(CVENV)/compiled.json

# the fast suite against the lowest version pyproject.toml allows of every
# direct dependency (its own venv: the floors are a promise to pip users)
FLOORS_VENV = .venv-floors
test-floors:
	$(PYTHON) -m venv $(FLOORS_VENV)
	$(FLOORS_VENV)/bin/python -m pip install --quiet $$($(PYTHON) -c "import tomllib; \
	p = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
	print(' '.join(r.replace('>=', '==') \
	for r in p['dependencies'] + p['optional-dependencies']['dev'] \
	+ p['optional-dependencies']['web'] + p['optional-dependencies']['lab']))")
	$(FLOORS_VENV)/bin/python -m pip install --quiet --no-deps -e .
	$(FLOORS_VENV)/bin/python -m pytest

# the fast suite on every Python named in PYTHONS (commands or paths), each in
# its own venv .venv-3.X; one that does not run here, or is older than
# requires-python (pip would spend minutes looking for a match before it gave
# up), is skipped with a message, and the target fails if any suite does
PYTHONS ?= python3.11 python3.12 python3.13
MIN_PYTHON := $(shell sed -n 's/^requires-python = ">=\([0-9.]*\)"$$/\1/p' pyproject.toml)
test-pythons:
	@test -n "$(MIN_PYTHON)" || { echo "test-pythons: no requires-python found in pyproject.toml"; exit 1; }
	@failed=""; for py in $(PYTHONS); do \
	  v=$$($$py -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) \
	    || { echo "test-pythons: $$py is not installed here: skipped"; continue; }; \
	  $$py -c "import sys; sys.exit(sys.version_info < tuple(map(int, '$(MIN_PYTHON)'.split('.'))))" \
	    || { echo "test-pythons: $$py is Python $$v, older than the $(MIN_PYTHON) pyproject.toml requires: skipped"; continue; }; \
	  echo "test-pythons: Python $$v ($$py) in .venv-$$v"; \
	  { [ -x .venv-$$v/bin/python ] || $$py -m venv .venv-$$v; } \
	    && .venv-$$v/bin/python -m pip install --quiet -e '.[dev,web,lab]' \
	    && .venv-$$v/bin/python -m pytest || failed="$$failed $$v"; \
	done; \
	if [ -n "$$failed" ]; then echo "test-pythons: failed on Python$$failed"; exit 1; fi

# every parser a user reaches fed FUZZ_EXAMPLES generated inputs each (the fast
# suite runs a few hundred): prints how many each parser accepted and refused
FUZZ_EXAMPLES ?= 100000
fuzz: $(STAMP)
	HOUSERULES_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest tests/fuzz -s -p no:randomly

test-slow: $(STAMP)
	$(PY) -m pytest -m slow

# every row of the speed targets on both builds, with their ratios to the peers
bench: $(BSTAMP) $(CSTAMP)
	$(PY) benchmarks/builds.py

bench-rete: $(BSTAMP)
	$(PY) benchmarks/rete_bench.py

bench-perft: $(BSTAMP)
	$(PY) benchmarks/perft.py

bench-presets: $(BSTAMP)
	$(PY) benchmarks/presets_perft.py

bench-dice: $(BSTAMP)
	$(PY) benchmarks/dice_bench.py

# the engine's strength (level against level, random and the Dice Chess greedy
# bot; scores with 95% intervals and Elo) and its speed (nodes per second on
# the bench positions, beside Stockfish's where it is installed)
bench-strength: $(BSTAMP)
	$(PY) benchmarks/strength.py

bench-search: $(BSTAMP)
	$(PY) benchmarks/search_speed.py

# Stockfish, the opponent of the UCI tests (tests/engine): a system package,
# installed with apt-get (as root, or through sudo); .ci/run does the same
stockfish:
	@if command -v stockfish >/dev/null || [ -x /usr/games/stockfish ]; then \
	  echo "stockfish is installed"; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update && apt-get install -y stockfish; \
	else sudo apt-get update && sudo apt-get install -y stockfish; fi

# the self-play lab on Dask: games per minute with 1 and 2 workers, overhead per task
bench-lab: $(BSTAMP)
	$(PY) benchmarks/lab_bench.py

# instruction counts under callgrind (needs valgrind, a system tool): for A/B runs
bench-instructions: $(BSTAMP)
	$(PY) benchmarks/instructions.py

clean:
	rm -rf $(VENV) $(CVENV) $(FLOORS_VENV) .venv-3.* build *.egg-info .pytest_cache

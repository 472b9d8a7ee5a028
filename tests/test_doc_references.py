"""What the README, RULES.md and docs/ name exists and is whole: the set-up and
the make targets, the CLI's commands and options, the benchmarks' options, the
module names and paths cited, the engine's modules and errors, the scenario
statements, the number of presets."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _read(rel: str) -> str:
    return (ROOT / rel).read_text(encoding="utf-8")


def test_the_engine_page_lists_every_module_of_rete():
    text = _read("docs/engine.md")
    table = text.split("| module | what it holds |", 1)[1].split("\n\n", 1)[0]
    listed = set(re.findall(r"`([\w.]+)`", "\n".join(
        row.split("|")[1] for row in table.splitlines() if row.startswith("| `"))))
    on_disk = {p.name for p in (ROOT / "rete").iterdir()
               if p.suffix in (".py", ".lark") and p.name != "__init__.py"}
    assert listed == on_disk


DOCS = ["README.md", "RULES.md", *sorted(str(p.relative_to(ROOT))
                                         for p in (ROOT / "docs").glob("*.md"))]


def _make_targets() -> set[str]:
    return set(re.findall(r"^([\w-]+):", _read("Makefile"), re.M))


def test_the_readme_set_up_is_make_demo_and_make_test_and_ci_runs_the_same():
    readme = _read("README.md")
    setup = readme.split("## Set-up", 1)[1]
    block = re.search(r"```sh\n(.*?)```", setup, re.S).group(1)
    commands = [line.split("#")[0].strip() for line in block.splitlines()]
    assert commands == ["make demo", "make test"]
    assert {"demo", "test"} <= _make_targets()
    assert "`.ci/run`" in setup.split("##", 1)[0]
    if not (ROOT / ".ci").is_dir():
        pytest.skip("no .ci/ here (an sdist ships no dot-folders)")
    ci = [line.strip() for line in _read(".ci/run").splitlines()
          if line.strip() and not line.startswith("#")]
    # the system packages the tests drive first, and the venv the README's
    # test command builds (set-up targets), then that command; the same suite
    # on the compiled core runs alongside it
    runs = [line for line in ci if line.startswith("make ")]
    first = runs.index("make test")
    assert set(runs[:first]) <= {"make browser", "make stockfish", "make .venv/.installed-dev"}
    assert re.search(r"\bmake test-compiled\b", "\n".join(ci))


def test_every_make_target_the_docs_name_exists_and_the_readme_names_them_all():
    targets = _make_targets()
    phony = set(re.search(r"^\.PHONY:(.*)$", _read("Makefile"), re.M).group(1).split())
    readme = _read("README.md")
    for rel in DOCS:
        text = _read(rel)
        named = set(re.findall(r"`make ([a-z][\w-]*)", text)) | {
            ln.split()[1] for block in re.findall(r"```sh\n(.*?)```", text, re.S)
            for ln in block.splitlines() if ln.startswith("make ")}
        assert named <= targets, (rel, named - targets)
    # the README's list of targets is whole: "make bench-perft, bench-dice, ..." counts
    listed = set(re.findall(r"`(?:make )?([a-z][\w-]*)`", readme)) | set(
        re.findall(r"^make ([\w-]+)", readme, re.M))
    assert phony <= listed, phony - listed


#: the modules whose docstrings show command lines (indented, as a literal block)
CLI_MODULES = ["houserules.cli", "houserules.dice_cli"]


def _command_lines():
    import importlib
    sources = [(rel, _read(rel)) for rel in DOCS]
    sources += [(m, importlib.import_module(m).__doc__) for m in CLI_MODULES]
    for rel, text in sources:
        lines = [ln for block in re.findall(r"```sh\n(.*?)```", text, re.S)
                 for ln in block.splitlines()]
        lines += re.findall(r"`(houserules [^`]*)`", text)
        if rel in CLI_MODULES:
            # "houserules dice moves DFEN    what it prints": the command, not the gloss
            lines += [re.split(r"\s{3,}", ln.strip())[0] for ln in text.splitlines()
                      if ln.startswith("    houserules ")]
        for line in lines:
            line = re.sub(r"\s+#.*", "", line).strip()
            if line.startswith("houserules "):
                yield rel, line


def _subcommands(parser) -> dict:
    import argparse
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    return {}


def _walk(parser, words):
    """The parser the leading subcommand words reach, the one above it, and the
    words left."""
    parent, i = None, 0
    while i < len(words) and words[i] in _subcommands(parser):
        parent, parser, i = parser, _subcommands(parser)[words[i]], i + 1
    return parser, parent, words[i:]


def _unknown_options(parser, words) -> list[str]:
    options = {o for a in parser._actions for o in a.option_strings}
    return [w for w in words if w.startswith("-") and w != "-" and w.split("=")[0] not in options]


def test_every_houserules_command_and_option_in_the_docs_exists():
    from houserules.cli import build_parser
    seen = 0
    for rel, line in _command_lines():
        # [optional] parts and "..." repetitions are notation; "a | b" offers
        # alternatives: sibling subcommands (dice moves | tree) or options
        words = line.replace("[", " ").replace("]", " ").replace("...", " ").split()[1:]
        segments = " ".join(words).split("|")
        parser, parent, rest = _walk(build_parser(), segments[0].split())
        assert not _subcommands(parser) or rest in ([], ["--version"], ["--traceback"]), \
            (rel, line, "no such command")
        assert not _unknown_options(parser, rest), (rel, line)
        for seg in segments[1:]:
            seg = seg.split()
            if parent is not None and seg[0] in _subcommands(parent):
                sibling, _, seg_rest = _walk(parent, seg)
                assert not _unknown_options(sibling, seg_rest), (rel, line)
            else:
                assert seg[0].startswith("-") or not seg[0].islower(), (rel, line, seg[0])
                assert not _unknown_options(parser, seg), (rel, line)
        seen += 1
    assert seen > 40


def test_the_readme_shows_every_command_of_the_cli():
    from houserules.cli import build_parser
    shown = set()
    for rel, line in _command_lines():
        if rel == "README.md":
            words = line.replace("|", " ").split()[1:]
            shown |= {" ".join(words[:1])} | {f"{words[0]} {w}" for w in words[1:]}
    top = _subcommands(build_parser())
    every = set(top) | {f"{name} {sub}" for name, p in top.items() for sub in _subcommands(p)}
    assert every <= shown, every - shown


def test_every_dice_command_takes_the_rule_options_its_module_doc_says():
    from houserules.cli import build_parser
    import houserules.dice_cli
    said = set(re.findall(r"``(--[a-z]+)", houserules.dice_cli.__doc__.split("Every command takes", 1)[1]
                          .split("\n\n", 1)[0]))
    assert {"--preset", "--config", "--rules", "--modifier", "--ruleset"} <= said
    for name, sub in _subcommands(_subcommands(build_parser())["dice"]).items():
        options = {o for a in sub._actions for o in a.option_strings}
        assert said <= options, (name, said - options)


def test_every_module_name_and_path_the_docs_write_exists():
    import importlib
    for rel in ["README.md", *[d for d in DOCS if d.startswith("docs/")]]:
        text = _read(rel)
        # a dotted name of the packages (rule names such as dice.die-filter aside)
        for name in re.findall(r"`((?:rete|chess_rules|presets|dice)\.[\w.]+)`", text):
            parts = name.split(".")
            for i in range(len(parts), 0, -1):
                try:
                    obj = importlib.import_module(".".join(parts[:i]))
                    break
                except ImportError:
                    continue
            for attr in parts[i:]:
                assert hasattr(obj, attr), (rel, name)
                obj = getattr(obj, attr)
        for path in re.findall(r"`((?:\.ci|benchmarks|chess_rules|dice|docs|examples|presets|"
                               r"rete|tests)/[^`\s]*)`", text):
            if path.startswith(".ci/") and not (ROOT / ".ci").is_dir():
                continue        # an sdist ships no dot-folders
            assert (ROOT / path).exists(), (rel, path)


def test_the_scenario_language_page_has_every_statement_of_the_grammar():
    grammar = _read("houserules/scenarios/scenario.lark")
    page = _read("docs/scenario-language.md")
    statements = re.findall(r'^(?!exp_|scenario|by:)(\w+): "([\w ]+)"( "[\w ]+")?', grammar, re.M)
    expectations = re.findall(r'^exp_\w+: "(\w+)"( "\w+")?', grammar, re.M)
    words = [w + q.replace('"', "") for _, w, q in statements]
    words += ["expect " + w + q.replace('"', "") for w, q in expectations]
    assert len(words) > 30
    rows = "\n".join(ln for ln in page.splitlines() if ln.startswith("| `"))
    missing = [w for w in words if not re.search(rf"`{w}[` ]", rows)]
    assert not missing, missing


def test_every_benchmark_option_the_docs_write_exists():
    seen = 0
    for rel in DOCS:
        for name, args in re.findall(r"`(?:python )?(?:benchmarks/)?(\w+)\.py([^`]*)`", _read(rel)):
            options = re.findall(r"--[\w-]+", args)
            if not options:
                continue
            source = _read(f"benchmarks/{name}.py")
            for opt in options:
                assert f'"{opt}"' in source, (rel, name, opt)
            seen += 1
    assert seen >= 5


def test_the_engine_page_names_every_error_of_the_engine():
    import rete.errors
    errors = {n for n, v in vars(rete.errors).items()
              if isinstance(v, type) and issubclass(v, rete.errors.ReteError)}
    text = _read("docs/engine.md")
    assert len(errors) > 15
    assert not [n for n in errors if f"`{n}`" not in text]


def test_the_readme_counts_the_presets_there_are():
    from presets import all_presets
    counts = {int(n) for n in re.findall(r"\b(\d+) presets\b", _read("README.md"))}
    assert counts == {len(all_presets())}

"""The compiled build (`bot.compiled`): what it compiles, its stamp, the guard that refuses a stale build in `pokerbot`
and in the test suite, its command line, and one real build of a tiny package."""

import importlib.machinery
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot import compiled
from bot.__main__ import main as pokerbot
from tests import conftest

ROOT = Path(__file__).resolve().parents[2]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
LIBRARY = f"1883b3c1c389db495fb8__mypyc{SUFFIX}"
"""The name of a build's shared library at the root (its group's hash, as mypyc names it)."""
SOURCES = ("engine/__init__.py", "engine/cards.py", "bot/__init__.py", "bot/commands.py", "bot/compiled.py",
           "bot/games/__init__.py", "bot/games/house.py", "bot/games/holdem.py", "bot/store/tx.py",
           "bot/discord/__init__.py", "bot/discord/adapter.py", "bot/web/view.py", "engine/house/russian.py",
           "engine/holdem.py", "bot/render/holdem.py")
"""A checkout in small: modules compiled, left interpreted, and in folders not compiled."""
BUILT = ["bot/games/holdem.py", "bot/games/house.py", "bot/render/holdem.py", "bot/store/tx.py", "engine/cards.py",
         "engine/holdem.py", "engine/house/russian.py"]
"""The modules of `SOURCES` a build compiles."""
WAYS_OUT = "build again (python -m bot.compiled build) or clean (python -m bot.compiled clean)"


def checkout(root: Path) -> Path:
    """A folder laid out like a checkout (`SOURCES`, each a line of its own, and a README), nothing compiled."""
    for module in SOURCES:
        (root / module).parent.mkdir(parents=True, exist_ok=True)
        (root / module).write_text(f'"""{module}"""\n')
    (root / "README.md").write_text("# pokerbot\n")
    return root


def fake_build(root: Path) -> list[Path]:
    """What a build of `root` leaves, without gcc: an extension beside each module compiled, the shared library,
    and the stamp. Returns them."""
    made = [(root / module).with_suffix(SUFFIX) for module in compiled.modules(root)] + [root / LIBRARY]
    for path in made:
        path.write_bytes(b"\x7fELF")
    compiled.write_stamp(root, compiled.digests(root, compiled.modules(root)), "3")
    return [*made, root / compiled.STAMP]


def files(root: Path) -> set[str]:
    """Every file under `root`, relative to it."""
    return {path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_file()}


@pytest.fixture
def built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A checkout in `tmp_path` with a (fake) current build, which `bot.compiled` takes for the bot's own."""
    fake_build(checkout(tmp_path))
    monkeypatch.setattr(compiled, "ROOT", tmp_path)
    return tmp_path


def test_every_module_of_the_compiled_packages_is_compiled_but_those_left_interpreted() -> None:
    """Checked against the tree: each `.py` of `bot/` and `engine/` is compiled, left interpreted by name, or in a
    folder that is not compiled (the adapters, the clock pages, the catalogues' loader)."""
    modules = compiled.modules()
    assert len(set(modules)) == len(modules) and all((ROOT / module).is_file() for module in modules)
    tree = {path.relative_to(ROOT).as_posix() for path in [*ROOT.glob("bot/**/*.py"), *ROOT.glob("engine/**/*.py")]}
    assert sorted(compiled.LEFT_INTERPRETED) == ["bot/__init__.py", "bot/__main__.py", "bot/commands.py",
                                                 "bot/compiled.py", "bot/games/__init__.py", "bot/terminal.py",
                                                 "engine/__init__.py"]
    assert tree >= compiled.LEFT_INTERPRETED, "a module left interpreted by a name that is gone would be compiled"
    others = tree - set(modules) - compiled.LEFT_INTERPRETED
    assert {Path(module).parent.as_posix() for module in others} == {"bot/discord", "bot/locales", "bot/telegram",
                                                                     "bot/web"}
    for needed in ("engine/holdem.py", "engine/tournament.py", "engine/house/common.py", "bot/service/__init__.py",
                   "bot/store/tx.py", "bot/replay.py",
                   "bot/games/holdem.py", "bot/render/holdem.py", "bot/command_parser.py", "engine/house/__init__.py"):
        assert needed in modules


def test_a_checkout_lists_its_modules_to_compile(tmp_path: Path) -> None:
    assert compiled.modules(checkout(tmp_path)) == BUILT


def test_nothing_compiled_is_never_stale_and_hashes_nothing(tmp_path: Path, monkeypatch) -> None:
    checkout(tmp_path)
    monkeypatch.setattr(compiled, "digest", lambda path: pytest.fail(f"{path} was hashed"))
    assert compiled.stale(tmp_path) == []
    assert compiled.refusal(tmp_path) is None


def test_a_build_is_current_until_a_source_changes(built: Path) -> None:
    assert compiled.stale() == [] and compiled.refusal() is None
    (built / "bot/games/holdem.py").write_text('"""bot/games/holdem.py, changed"""\n')
    assert compiled.stale() == ["bot/games/holdem.py"]
    assert compiled.refusal() == ("the compiled build is stale: 1 compiled module changed since the build "
                                  f"(bot/games/holdem.py) and would run the old code; {WAYS_OUT}")
    (built / "engine/cards.py").unlink()  # its extension alone is imported now
    (built / "bot/discord/adapter.py").write_text("# an adapter, interpreted\n")
    assert compiled.stale() == ["bot/games/holdem.py", "engine/cards.py"]


def test_extensions_without_a_stamp_are_all_stale(built: Path) -> None:
    (built / compiled.STAMP).unlink()
    assert compiled.stale() == BUILT
    assert compiled.refusal() == (
        "the compiled build is stale: C extensions with no readable stamp (compiled.json) saying what they were "
        "compiled from (bot/games/holdem.py, bot/games/house.py, bot/render/holdem.py, bot/store/tx.py, "
        f"engine/cards.py and 2 more); {WAYS_OUT}")
    for path in built.rglob(f"*{SUFFIX}"):
        if path.parent != built:
            path.unlink()
    assert compiled.stale() == BUILT, "the shared library alone is a build too"
    (built / LIBRARY).unlink()
    assert compiled.stale() == []


def test_an_unreadable_stamp_makes_the_build_stale(built: Path) -> None:
    (built / compiled.STAMP).write_text('{"modules": ')
    assert compiled.stale() == BUILT


@pytest.mark.parametrize("stamp", ["current", "unreadable"])
def test_a_stamp_left_without_extensions_is_nothing_compiled(built: Path, stamp: str, capsys) -> None:
    """Its extensions deleted (by hand, or a copy of the checkout without them), the sources run as they are: no
    module is stale, whatever the stamp says, and the build is said to be interpreted."""
    for path in built.rglob(f"*{SUFFIX}"):
        path.unlink()
    if stamp == "unreadable":
        (built / compiled.STAMP).write_text('{"modules": ')
    (built / "bot/games/holdem.py").write_text('"""bot/games/holdem.py, changed"""\n')
    assert compiled.stale() == [] and compiled.refusal() is None
    assert compiled.main(["status"]) == 0
    assert capsys.readouterr().out == "interpreted: nothing is compiled\n"
    assert compiled.main(["clean"]) == 0
    assert capsys.readouterr().out == "removed the compiled build (1 files): pokerbot runs the sources\n"
    assert not (built / compiled.STAMP).exists()


def test_clean_removes_exactly_the_builds_files(tmp_path: Path) -> None:
    checkout(tmp_path)
    (tmp_path / "build/lib").mkdir(parents=True)
    (tmp_path / "build/lib/wheel.txt").write_text("not the compiled build's\n")
    (tmp_path / "engine/data").mkdir()
    (tmp_path / "engine/data/table.bin").write_bytes(b"\x00")
    before = files(tmp_path)
    made = fake_build(tmp_path)
    (tmp_path / compiled.WORK).mkdir(parents=True)
    (tmp_path / compiled.LOG).write_text("gcc ...\n")
    assert compiled.clean(tmp_path) == [*sorted(made[:-1]), made[-1]]
    assert files(tmp_path) == before
    assert compiled.clean(tmp_path) == []


def test_status_says_interpreted_current_or_which_modules_are_stale(built: Path, capsys) -> None:
    assert compiled.main(["status"]) == 0
    assert capsys.readouterr().out == f"compiled and current: {len(BUILT)} modules\n"
    (built / "bot/store/tx.py").write_text("changed = True\n")
    (built / "engine/cards.py").write_text("changed = True\n")
    assert compiled.main(["status"]) == 1
    assert capsys.readouterr().out == ("stale: 2 compiled modules changed since the build (bot/store/tx.py, "
                                       f"engine/cards.py) and would run the old code; {WAYS_OUT}\n")
    assert compiled.main(["clean"]) == 0
    assert capsys.readouterr().out == "removed the compiled build (9 files): pokerbot runs the sources\n"
    assert compiled.main(["status"]) == 0
    assert capsys.readouterr().out == "interpreted: nothing is compiled\n"
    assert compiled.main(["clean"]) == 0
    assert capsys.readouterr().out == "nothing to clean: nothing is compiled\n"


def test_pokerbot_refuses_a_stale_build_before_anything_else(built: Path, monkeypatch, capsys) -> None:
    """Before the settings are read (an invalid one would stop it too) and before any database is opened."""
    monkeypatch.chdir(built)
    monkeypatch.setenv("POKERBOT_STARTING_GRANT", "many")
    (built / "engine/cards.py").write_text("changed = True\n")
    assert pokerbot([]) == 1
    assert capsys.readouterr().err == ("pokerbot stopped: the compiled build is stale: 1 compiled module changed "
                                       f"since the build (engine/cards.py) and would run the old code; {WAYS_OUT}\n")
    assert not list(built.glob("*.db"))


def test_the_test_suite_refuses_a_stale_build_at_configure_time(built: Path, pytestconfig) -> None:
    conftest.pytest_configure(pytestconfig)  # current: the suite runs
    (built / "bot/games/holdem.py").write_text("changed = True\n")
    with pytest.raises(pytest.exit.Exception) as stopped:
        conftest.pytest_configure(pytestconfig)
    assert (stopped.value.msg, stopped.value.returncode) == (compiled.refusal(), pytest.ExitCode.USAGE_ERROR)
    assert stopped.value.msg.startswith("the compiled build is stale: 1 compiled module changed")


def test_a_build_without_a_c_compiler_or_python_headers_says_so_and_changes_nothing(built: Path, monkeypatch,
                                                                                  capsys) -> None:
    before = files(built)
    monkeypatch.setattr(compiled.sysconfig, "get_config_var", lambda name: "gcc -pthread" if name == "CC" else None)
    monkeypatch.setattr(compiled.shutil, "which", lambda name: None)
    assert compiled.main(["build"]) == 1
    assert capsys.readouterr() == ("", "build failed: the C compiler gcc is not installed (Debian: apt install "
                                       "build-essential)\n")
    monkeypatch.setattr(compiled.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(compiled.sysconfig, "get_paths", lambda: {"include": "/nowhere/python3.11"})
    with pytest.raises(compiled.BuildError) as refused:
        compiled.build()
    assert str(refused.value) == ("Python's headers are not installed: no Python.h in /nowhere/python3.11 (Debian: "
                                  "apt install python3-dev)")
    assert files(built) == before


def tiny_package(root: Path, monkeypatch: pytest.MonkeyPatch, adder: str) -> None:
    """A root holding a tiny package where the bot's engine would be, which `bot.compiled` takes for the bot's
    checkout: the engine's own `__init__.py` (which loads a build's shared library), a module `adder` (its source
    given) and a module using it; skips the test when this machine cannot compile."""
    reason = compiled.cannot_build()
    if reason is not None:
        pytest.skip(reason)
    (root / "engine").mkdir()
    (root / "engine/__init__.py").write_text((ROOT / "engine/__init__.py").read_text())
    (root / "engine/adder.py").write_text(adder)
    (root / "engine/twice.py").write_text("from engine.adder import add\n\n\ndef twice(a: int) -> int:\n"
                                          "    return add(a, a)\n")
    monkeypatch.setattr(compiled, "ROOT", root)


PROBE = """\
import importlib.util, sys
spec = importlib.util.spec_from_file_location("engine", f"{sys.argv[1]}/engine/__init__.py",
                                              submodule_search_locations=[f"{sys.argv[1]}/engine"])
sys.modules["engine"] = package = importlib.util.module_from_spec(spec)
spec.loader.exec_module(package)
import engine.adder, engine.twice
print(engine.adder.__file__.removeprefix(sys.argv[1]), engine.adder.add(2, 3), engine.twice.twice(4))
try:
    engine.adder.add('2', '3')
except TypeError as error:
    print(error)
"""
"""Imports the tiny package as the editable install's finder does (the package mapped by its folder, the root not on
the path, run from elsewhere), as the `pokerbot` command imports the bot."""


def test_a_tiny_typed_package_really_compiles(tmp_path: Path, monkeypatch, capsys) -> None:
    """The bot's build on a package of two modules: it imports compiled from anywhere (its annotations are checked
    at run time), its stamp is current until its source changes, and clean brings the source back."""
    tiny_package(tmp_path, monkeypatch, "def add(a: int, b: int) -> int:\n    return a + b\n")
    assert compiled.main(["build", "--opt-level", "0"]) == 0
    log = re.escape(str(tmp_path / compiled.LOG))
    assert re.fullmatch(rf"compiling 2 modules with mypyc at opt level 0 \(some minutes of gcc; its output goes to "
                        rf"{log}\)\ncompiled 2 modules in 0 min \d+ s: pokerbot runs them now; after changing a "
                        rf"source {re.escape(WAYS_OUT)}\n", capsys.readouterr().out)
    assert [path.name for path in compiled.extension_files(tmp_path)] == sorted([
        f"adder{SUFFIX}", f"twice{SUFFIX}", *(path.name for path in tmp_path.glob(f"*__mypyc{SUFFIX}"))])

    def run() -> str:
        return subprocess.run([sys.executable, "-c", PROBE, str(tmp_path)], cwd="/", capture_output=True, text=True,
                              check=True).stdout

    assert run() == f"/engine/adder{SUFFIX} 5 8\nint object expected; got str\n"
    assert compiled.status() == ("compiled and current: 2 modules", 0)
    assert not (tmp_path / "build").exists(), "its temporary files are gone"
    (tmp_path / "engine/adder.py").write_text("def add(a: int, b: int) -> int:\n    return a - b\n")
    assert compiled.stale() == ["engine/adder.py"]
    assert run().startswith(f"/engine/adder{SUFFIX} 5 8\n"), "the trap the guard is for: the old code runs"
    assert len(compiled.clean()) == 4  # two modules' extensions, the shared library and the stamp
    assert files(tmp_path) == {"engine/__init__.py", "engine/adder.py", "engine/twice.py"}
    assert run() == "/engine/adder.py -1 0\nunsupported operand type(s) for -: 'str' and 'str'\n"


def test_a_build_imported_from_elsewhere_needs_the_engine_to_load_its_shared_library(tmp_path: Path,
                                                                                     monkeypatch) -> None:
    """Without `engine/__init__.py`'s loading (an empty one, as before), a compiled module imported from outside the
    checkout cannot find the build's shared library: what the `pokerbot` command met."""
    tiny_package(tmp_path, monkeypatch, "def add(a: int, b: int) -> int:\n    return a + b\n")
    assert compiled.main(["build", "--opt-level", "0"]) == 0
    (tmp_path / "engine/__init__.py").write_text("")
    probe = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path)], cwd="/", capture_output=True, text=True)
    assert probe.returncode == 1
    assert re.search(r"ModuleNotFoundError: No module named '\w+__mypyc'", probe.stderr)
    probe = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path)], cwd=tmp_path, capture_output=True, text=True)
    assert probe.stdout.startswith(f"/engine/adder{SUFFIX} 5 8\n"), "from the checkout's top it is on the path"


def test_a_failed_build_says_why_and_where_its_output_is_and_leaves_nothing_compiled(tmp_path: Path, monkeypatch,
                                                                                    capsys) -> None:
    tiny_package(tmp_path, monkeypatch, "def add(a: int, b: int) -> int:\n    return str(a + b)\n")
    assert compiled.main(["build", "--opt-level", "0"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert 'engine/adder.py:2: error: Incompatible return value type (got "str", expected "int")  [return-value]' in err
    assert err[-1] == ("build failed: mypyc or the C compiler stopped (exit status 1); its output is in "
                       f"{tmp_path / compiled.LOG}")
    assert {path for path in files(tmp_path) if not path.startswith("build/compiled/")} == {
        "engine/__init__.py", "engine/adder.py", "engine/twice.py"}
    assert (tmp_path / compiled.LOG).is_file()
    assert compiled.stale() == []

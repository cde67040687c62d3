"""Set upriver up in a virtual environment inside this checkout, then serve it or test it.

The README's two commands, and the documentation site::

    python3 run.py serve [ARGS...]   # the web app: `upriver serve ARGS`
    python3 run.py test [ARGS...]    # every test: `pytest ARGS`, e.g. -m "not browser and not slow"
    python3 run.py docs [ARGS...]    # the documentation site at http://127.0.0.1:8001: `mkdocs serve ARGS`

Only the standard library is used, so this runs on a bare ``python3`` (3.11 or newer), also one that
refuses ``pip install`` because the system manages it (PEP 668, as Debian 12's and Ubuntu 24.04's
do). Each run:

1. makes the virtual environment ``.venv`` with ``python3 -m venv`` unless it is there; where the
   venv module cannot make one (Debian without ``python3-venv``), it installs ``python3-venv`` with
   ``apt-get`` if it may (root, or password-less ``sudo``), and otherwise stops with one sentence
   saying what to install and how;
2. installs the command's lock file (``requirements.lock`` or ``requirements-dev.lock``) and the
   project itself (``-e .``) into it, but only when the lock file or ``pyproject.toml`` changed
   since the last install: a hash of them is kept in ``.venv/upriver-install-<lock>.sha256``;
3. checks the command's prerequisites outside Python (the browser tests drive Debian's Chromium, the
   PostgreSQL tests start their own server from Debian's PostgreSQL, LightGBM loads Debian's
   libgomp1, the deployment test puts Debian's nginx-light in front of the server, the JavaScript
   checks run ESLint and TypeScript from npm on Debian's Node.js), installing each with ``apt-get``
   if it may, and otherwise stopping with one sentence; the JavaScript tools themselves are
   installed with ``npm ci`` from ``package-lock.json`` into ``node_modules`` when that lock changed;
4. runs the command with the environment's Python in the checkout, so its exit code is this
   script's exit code.

A new prerequisite (as Debian's PostgreSQL server for the tests was) is one more function in a command's
``prerequisites`` in :data:`COMMANDS`: it returns when the prerequisite is there (installing it with
:func:`apt_install` if it can) and raises :class:`SetupError` with one sentence when it is not.
"""

from __future__ import annotations

import ctypes.util
import hashlib
import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only in annotations, so an old python3 reaches the version check below
    from collections.abc import Callable

    Prerequisite = Callable[[str, Sequence[str]], None]
    """A check for something outside Python, given the command to run again and its arguments;
    raises :class:`SetupError`."""

ROOT = Path(__file__).resolve().parent
"""The checkout: every command runs here."""

VENV = ROOT / ".venv"
"""The virtual environment this script makes and uses."""

VENV_PYTHON = VENV / "bin" / "python"


def stamp(lock: str) -> Path:
    """Where the hash of ``lock`` and ``pyproject.toml`` installed last is kept (see :func:`install_hash`).

    One file a lock, so running ``serve`` and ``test`` in turn installs nothing twice.
    """
    return VENV / f"upriver-install-{lock}.sha256"


CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, which the browser tests drive (``tests/live.py`` names the same path)."""


class SetupError(Exception):
    """Something a command needs is missing and cannot be installed by this run.

    The message is one sentence for the person who typed the command: what to install and how.
    """


def say(text: str) -> None:
    """Tell the user what the set-up is doing (on stderr, so a command's own output stays clean)."""
    print(f"run.py: {text}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------ Debian packages


def apt_get_prefix() -> list[str] | None:
    """How to run ``apt-get`` as root here: ``[]`` as root, ``sudo -n`` without a password, else ``None``."""
    if shutil.which("apt-get") is None:
        return None
    if os.geteuid() == 0:
        return []
    if shutil.which("sudo") is not None:
        probe = subprocess.run(["sudo", "-n", "true"], capture_output=True, check=False)
        if probe.returncode == 0:
            return ["sudo", "-n"]
    return None


def apt_install(package: str, needed_for: str, again: str) -> None:
    """Install a Debian package with ``apt-get`` or raise :class:`SetupError` saying how to.

    ``needed_for`` starts the sentence (``"The browser tests need Debian's Chromium at ..."``);
    ``again`` is the command to run once the package is installed.
    """
    manual = f"install it with `sudo apt-get install {package}`, then run `{again}` again"
    prefix = apt_get_prefix()
    if prefix is None:
        raise SetupError(f"{needed_for}: {manual}.")
    say(f"{needed_for}: installing {package} with apt-get")
    apt = [*prefix, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get"]
    for args in (["update"], ["install", "-y", package]):
        if subprocess.run([*apt, *args], check=False).returncode != 0:
            raise SetupError(f"{needed_for}, and `apt-get {' '.join(args)}` failed (see above): {manual}.")


# ------------------------------------------------------------------ prerequisites


BROWSER_TESTS = (
    "test_accessibility.py",
    "test_accounts_browser.py",
    "test_audit_browser.py",
    "test_audit_keep_browser.py",
    "test_groups_browser.py",
    "test_house_rules_browser.py",
    "test_i18n_browser.py",
    "test_keep_browser.py",
    "test_keep_conflicts_browser.py",
    "test_keep_layout_browser.py",
    "test_keep_arrival_browser.py",
    "test_keep_evening_browser.py",
    "test_keeper_offline_browser.py",
    "test_keeper_exports_browser.py",
    "test_keep_refusals_browser.py",
    "test_lobby_browser.py",
    "test_quick_start_browser.py",
    "test_review_browser.py",
    "test_seat_links_browser.py",
    "test_table_fit_browser.py",
    "test_table_geometry.py",
    "test_table_i18n.py",
    "test_table_night_browser.py",
    "test_table_night_i18n_browser.py",
    "test_table_page.py",
    "test_table_presence_browser.py",
    "test_web_browser.py",
)
"""The test files that drive Chromium: run.py installs it when the tests asked for include one, and
``tests/conftest.py`` marks their tests ``browser``."""


_VALUE_OPTIONS = frozenset(
    {"-m", "-k", "-p", "-o", "-c", "--deselect", "--ignore", "--rootdir", "--durations"}
)
"""pytest options whose value is the next word, so that word is no test path."""


def selects_marked_tests(args: Sequence[str], marker: str, files: Sequence[str]) -> bool:
    """Whether pytest run with ``args`` may run a test marked ``marker``, all of which are in ``files``.

    Only two selections are known to leave them out: a marker expression that says
    ``not MARKER``, and test files named explicitly, none of them in ``files``.
    Anything else (a folder, ``-k``, no arguments) may select them.
    """
    paths: list[str] = []
    words = iter(args)
    for word in words:
        value = next(words, "") if word in _VALUE_OPTIONS else None
        expression = value if word == "-m" else word[2:] if word.startswith("-m") else None
        if expression is not None and f"not {marker}" in " ".join(expression.split()):
            return False
        if value is None and not word.startswith("-"):
            paths.append(word.split("::")[0])
    if paths and all(Path(path).is_file() for path in paths):
        return any(Path(path).name in files for path in paths)
    return True


def selects_browser_tests(args: Sequence[str]) -> bool:
    """Whether pytest run with ``args`` may run a browser test (:func:`selects_marked_tests`)."""
    return selects_marked_tests(args, "browser", BROWSER_TESTS)


def chromium(again: str, args: Sequence[str]) -> None:
    """Debian's Chromium at :data:`CHROMIUM`, for the browser tests (which fail, never skip, without it).

    Not needed when ``args`` leave every browser test out (:func:`selects_browser_tests`).
    """
    if CHROMIUM.exists() or not selects_browser_tests(args):
        return
    needed_for = f"The browser tests need Debian's Chromium at {CHROMIUM}"
    apt_install("chromium", needed_for, again)
    if not CHROMIUM.exists():
        raise SetupError(f"{needed_for}, and `apt-get install chromium` did not put it there.")


WARM_KERNEL = "from upriver.web.play.bots import warm_search; warm_search()"
"""What compiles the search bots' kernel into numba's disk cache (``python -c``)."""

KERNEL = ROOT / "src" / "upriver" / "fast"
"""The kernel's sources: numba's cache of a function is valid while its source file is unchanged."""


def kernel_hash() -> str:
    """A hash of what the compiled kernel comes from: the kernel's sources and what serve installs."""
    digest = hashlib.sha256(install_hash("requirements.lock").encode())
    for path in sorted(KERNEL.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def compiled_kernel(again: str, args: Sequence[str]) -> None:
    """The search bots' kernel compiled into numba's disk cache, so that the server's first start
    after an install loads it in half a second instead of compiling it for ten while the first
    table's bots wait. Done once per install and kernel source (the hash in
    ``.venv/upriver-kernel.sha256``); if it fails the server compiles it at start, so this only says so.
    """
    done = VENV / "upriver-kernel.sha256"
    wanted = kernel_hash()
    if done.exists() and done.read_text().strip() == wanted:
        return
    say("compiling the search bots' kernel once (ten seconds or so)")
    if subprocess.run([str(VENV_PYTHON), "-c", WARM_KERNEL], cwd=ROOT, check=False).returncode == 0:
        done.write_text(wanted + "\n")
    else:
        say("the kernel could not be compiled now (see above): the server compiles it as it starts")


POSTGRES_TESTS = (
    "test_accounts.py",
    "test_chat_rules.py",
    "test_event_log.py",
    "test_groups.py",
    "test_hosting.py",
    "test_i18n_web.py",
    "test_keep_api.py",
    "test_keeper_conflicts.py",
    "test_keeper_evening.py",
    "test_keeper_growth.py",
    "test_name_lookalikes.py",
    "test_one_sheet.py",
    "test_pg_cleanup.py",
    "test_proxy.py",
    "test_seat_qr.py",
    "test_store.py",
    "test_store_outage.py",
    "test_store_serve.py",
    "test_table_night_browser.py",
    "test_web_accept.py",
    "test_web_api.py",
    "test_web_claims.py",
    "test_web_cluster_limits.py",
    "test_web_cluster_notify.py",
    "test_web_doors.py",
    "test_web_hostile.py",
    "test_web_join.py",
    "test_web_limits.py",
    "test_web_lobby.py",
    "test_web_metrics.py",
    "test_web_pace.py",
    "test_web_rematch.py",
    "test_web_seat_links.py",
    "test_web_restart.py",
    "test_web_social.py",
    "test_web_social_workers.py",
    "test_web_workers.py",
)
"""The test files with tests on a private PostgreSQL server (marked ``postgres``; ``tests/pg.py``)."""

POSTGRES_BINARIES = "/usr/lib/postgresql/*/bin"
"""Where Debian's postgresql package puts initdb and pg_ctl (``tests/pg.py`` looks there too)."""


def postgres_installed() -> bool:
    """Whether Debian's PostgreSQL server programs are installed (any major version)."""
    return any((path / "initdb").exists() for path in Path("/").glob(POSTGRES_BINARIES.lstrip("/")))


def postgresql(again: str, args: Sequence[str]) -> None:
    """Debian's PostgreSQL server, from which the PostgreSQL tests start a private throw-away server of
    their own (they fail, never skip, without it).

    Not needed when ``args`` leave every PostgreSQL test out (``-m "not postgres"``, or test files
    none of which is in :data:`POSTGRES_TESTS`).
    """
    if postgres_installed() or not selects_marked_tests(args, "postgres", POSTGRES_TESTS):
        return
    needed_for = (
        f"The PostgreSQL tests need Debian's PostgreSQL server (initdb and pg_ctl under {POSTGRES_BINARIES})"
    )
    apt_install("postgresql", needed_for, again)
    if not postgres_installed():
        raise SetupError(f"{needed_for}, and `apt-get install postgresql` did not put them there.")


def libgomp_found() -> bool:
    """Whether the dynamic loader finds GNU OpenMP's runtime, ``libgomp.so.1``, which LightGBM's wheel
    loads but does not bundle (Debian images with gcc have it, slim ones do not)."""
    return ctypes.util.find_library("gomp") is not None


def libgomp(again: str, args: Sequence[str]) -> None:
    """Debian's libgomp1, without which ``import lightgbm`` fails, and with it the bid model's
    retraining test (``tests/test_bidmodel.py``)."""
    if libgomp_found():
        return
    needed_for = "LightGBM (the bid model's retraining test) needs GNU OpenMP's libgomp.so.1"
    apt_install("libgomp1", needed_for, again)
    if not libgomp_found():
        raise SetupError(f"{needed_for}, and `apt-get install libgomp1` did not put it there.")


PROXY_TESTS = ("test_proxy.py",)
"""The test files that run ``upriver serve`` behind Debian's nginx (``tests/test_proxy.py``)."""


def nginx(again: str, args: Sequence[str]) -> None:
    """Debian's nginx-light, the reverse proxy the deployment test puts in front of ``upriver serve``
    (it fails, never skips, without it). Not needed when ``args`` name test files none of which is in
    :data:`PROXY_TESTS`, or leave slow tests out (``-m "not slow"``)."""
    if shutil.which("nginx") or Path("/usr/sbin/nginx").exists():
        return
    if not selects_marked_tests(args, "slow", PROXY_TESTS):
        return
    needed_for = "The deployment test runs upriver serve behind Debian's nginx"
    apt_install("nginx-light", needed_for, again)
    if not Path("/usr/sbin/nginx").exists():
        raise SetupError(
            f"{needed_for}, and `apt-get install nginx-light` did not put /usr/sbin/nginx there."
        )


JAVASCRIPT_TESTS = ("test_javascript.py",)
"""The test files that run ESLint and TypeScript's checker over the pages' JavaScript (npm packages)."""

NODE_MODULES = ROOT / "node_modules"
"""Where ``npm ci`` installs the JavaScript tools pinned in ``package-lock.json``."""

NODE_OLDEST = (18, 18)
"""The oldest Node.js the pinned ESLint runs on."""


def node_version() -> tuple[int, int] | None:
    """The major and minor version of the ``node`` on the PATH, or ``None`` when there is none (or no npm)."""
    node = shutil.which("node")
    if node is None or shutil.which("npm") is None:
        return None
    probe = subprocess.run([node, "--version"], capture_output=True, text=True, check=False)
    major, _, rest = probe.stdout.strip().lstrip("v").partition(".")
    minor = rest.partition(".")[0]
    return (int(major), int(minor)) if major.isdigit() and minor.isdigit() else None


def javascript_tools(again: str, args: Sequence[str]) -> None:
    """Node.js and npm (Debian's ``nodejs`` and ``npm``), and the JavaScript checks' tools from
    ``package-lock.json`` installed with ``npm ci`` into :data:`NODE_MODULES` when the lock changed since
    the last install (its hash is kept in ``node_modules/.upriver-install.sha256``).

    Not needed when ``args`` name test files none of which is in :data:`JAVASCRIPT_TESTS`, or leave the
    ``static`` tests out.
    """
    if not selects_marked_tests(args, "static", JAVASCRIPT_TESTS):
        return
    needed_for = "The JavaScript checks run ESLint and TypeScript on Node.js 18.18 or newer with npm"
    if node_version() is None:
        apt_install("nodejs", needed_for, again)
        apt_install("npm", needed_for, again)
    version = node_version()
    if version is None or version < NODE_OLDEST:
        found = "no node and npm" if version is None else f"node {version[0]}.{version[1]}"
        raise SetupError(
            f"{needed_for}, and this machine has {found}: install a newer Node.js, then run `{again}` again."
        )
    lock = ROOT / "package-lock.json"
    wanted = hashlib.sha256(lock.read_bytes()).hexdigest()
    done = NODE_MODULES / ".upriver-install.sha256"
    if done.exists() and done.read_text().strip() == wanted:
        return
    say(f"installing the JavaScript checks' tools (package-lock.json) into {NODE_MODULES} with npm ci")
    npm = ["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"]
    if subprocess.run(npm, cwd=ROOT, check=False).returncode != 0:
        raise SetupError(f"`{' '.join(npm)}` failed (see above): fix that, then run `{again}` again.")
    done.write_text(wanted + "\n")


@dataclass(frozen=True)
class Command:
    """One of the README's commands: what it installs, what else it needs, what it runs."""

    lock: str
    """The lock file installed into the environment, with the project itself (``-e .``)."""
    prerequisites: tuple[Prerequisite, ...]
    """Checked in order after the install, before the command runs."""
    module: tuple[str, ...]
    """What the environment's Python runs (``python -m ...``), followed by the user's arguments."""


DOCS_ADDRESS = "127.0.0.1:8001"
"""Where ``run.py docs`` serves the site: beside ``run.py serve``'s 8000, so both can run at once."""

COMMANDS: dict[str, Command] = {
    "serve": Command(lock="requirements.lock", prerequisites=(compiled_kernel,), module=("upriver", "serve")),
    "test": Command(
        lock="requirements-dev.lock",
        prerequisites=(chromium, postgresql, libgomp, nginx, javascript_tools),
        module=("pytest",),
    ),
    "docs": Command(
        lock="requirements-dev.lock", prerequisites=(), module=("mkdocs", "serve", "--dev-addr", DOCS_ADDRESS)
    ),
}


# ------------------------------------------------------------------ the environment


def venv_can_be_made() -> bool:
    """Whether this Python's ``venv`` can make an environment with pip (Debian moves ``ensurepip`` out)."""
    importlib.invalidate_caches()
    return all(importlib.util.find_spec(name) is not None for name in ("venv", "ensurepip"))


def venv_works() -> bool:
    """Whether :data:`VENV` has a Python that runs and can import pip."""
    if not VENV_PYTHON.exists():
        return False
    probe = subprocess.run([str(VENV_PYTHON), "-c", "import pip"], capture_output=True, check=False)
    return probe.returncode == 0


def make_venv(again: str) -> None:
    """Make :data:`VENV` (afresh if a broken one is in the way), installing ``python3-venv`` if needed."""
    if not venv_can_be_made():
        needed_for = f"Making the virtual environment {VENV} needs Python's venv module with ensurepip"
        apt_install("python3-venv", needed_for, again)
        if not venv_can_be_made():
            version = f"{sys.version_info.major}.{sys.version_info.minor}"
            raise SetupError(
                f"{needed_for}, which python3-venv did not give {sys.executable}: install "
                f"`python{version}-venv`, then run `{again}` again."
            )
    say(f"making the virtual environment {VENV}")
    made = subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=False)
    if made.returncode != 0 or not venv_works():
        raise SetupError(
            f"`{sys.executable} -m venv {VENV}` failed (see above): fix that, then run `{again}` again."
        )


def install_hash(lock: str) -> str:
    """A hash of what an install reads: the lock file's name and text and ``pyproject.toml``."""
    digest = hashlib.sha256()
    for name in (lock, "pyproject.toml"):
        digest.update(name.encode() + b"\0" + (ROOT / name).read_bytes() + b"\0")
    return digest.hexdigest()


def ensure_installed(lock: str, again: str) -> None:
    """Make the environment if needed and install ``lock`` and the project unless that is done already."""
    wanted = install_hash(lock)
    done = stamp(lock)
    if VENV_PYTHON.exists() and done.exists() and done.read_text().strip() == wanted:
        return
    if not venv_works():
        make_venv(again)
    say(f"installing {lock} and the project (-e .) into {VENV} (a minute or two the first time)")
    done.unlink(missing_ok=True)
    pip = [str(VENV_PYTHON), "-m", "pip", "install", "--quiet", "-r", lock, "-e", "."]
    if subprocess.run(pip, cwd=ROOT, check=False).returncode != 0:
        raise SetupError(f"`{' '.join(pip[1:])}` failed (see above): fix that, then run `{again}` again.")
    done.write_text(wanted + "\n")


# ------------------------------------------------------------------ main


USAGE = """usage: python3 run.py serve [ARGS...]   set up, then `upriver serve ARGS` (the web app)
       python3 run.py test [ARGS...]    set up, then `pytest ARGS` (every test unless ARGS select)
       python3 run.py docs [ARGS...]    set up, then `mkdocs serve ARGS` (the documentation site)"""


def main(argv: Sequence[str]) -> int:
    """Set up for ``argv[0]`` (``serve``, ``test`` or ``docs``), then replace this process with it."""
    if not argv or argv[0] not in COMMANDS:
        print(USAGE, file=sys.stderr)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    name, args = argv[0], list(argv[1:])
    command = COMMANDS[name]
    again = f"python3 run.py {name}"
    if sys.version_info < (3, 11):  # noqa: UP036 - the bootstrap may be started by any python3
        print(f"run.py: upriver needs Python 3.11 or newer, not {sys.version.split()[0]}.", file=sys.stderr)
        return 1
    try:
        ensure_installed(command.lock, again)
        for prerequisite in command.prerequisites:
            prerequisite(again, args)
    except SetupError as error:
        print(f"run.py: {error}", file=sys.stderr)
        return 1
    os.chdir(ROOT)
    env = {
        **os.environ,
        "VIRTUAL_ENV": str(VENV),
        "PATH": f"{VENV / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    env.pop("PYTHONHOME", None)
    executable = str(VENV_PYTHON)
    os.execve(executable, [executable, "-m", *command.module, *args], env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The score keeper as an installable web app that works with no server: the files that make it so.

- ``GET /keep-core.zip``: upriver's own pure-Python modules that the keeper's engine needs in
  the browser (the import closure of :mod:`upriver.keeper.browser`), zipped from the installed
  package when first asked for (:func:`core_zip`), so the phone runs this very code, never a
  second copy of the rules. Pyodide (``static/vendor/pyodide``) unpacks it in a Web Worker.
- ``GET /keep-sw.js``: the service worker, served from the root so its scope covers ``/keep``,
  ``/static`` and ``/i18n``; ``GET /keep.webmanifest``: the web app manifest.

:func:`export_static` writes the same keeper as plain files for any static host.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from upriver.rules import rules_catalogue

__all__ = [
    "ENTRY",
    "core_files",
    "core_zip",
    "export_static",
    "keeper_offline_router",
    "service_worker",
    "shell",
]

STATIC = Path(__file__).parent.parent / "static"
CATALOGUES = Path(__file__).parent.parent.parent / "i18n" / "catalogues"
ENTRY = "upriver.keeper.browser"
"""The module the page's worker imports in Pyodide; the zip holds what it imports."""

_CLOSURE = """
import json, os, sys
opened = set()
sys.addaudithook(lambda event, args: event == "open" and isinstance(args[0], str) and opened.add(args[0]))
before = {name.split(".")[0] for name in sys.modules}
import ENTRY
from upriver.names import check_names
check_names(["Ann", "Bob"])  # names load their look-alike table lazily
roots = {name.split(".")[0] for name in sys.modules} - before - set(sys.stdlib_module_names)
found = {}
for name, module in sorted(sys.modules.items()):
    path = getattr(module, "__file__", None)
    if name.split(".")[0] not in roots or not path or not path.endswith(".py"):
        continue
    root = sys.modules[name.split(".")[0]].__file__
    base = os.path.dirname(os.path.dirname(root) if root.endswith("__init__.py") else root)
    found[os.path.relpath(path, base)] = path
    if path.endswith("__init__.py"):
        package = os.path.dirname(path) + os.sep
        for data in opened:
            beside = data.startswith(package) and os.sep not in data[len(package):]
            if beside and not data.endswith((".py", ".pyc")):
                found[os.path.relpath(data, base)] = data
print(json.dumps(sorted(found.items())))
"""


@functools.cache
def core_files(entry: str = ENTRY) -> tuple[tuple[str, Path], ...]:
    """Each file a fresh interpreter loads to import ``entry`` (and to check a name, which reads
    its look-alike table lazily) that is not in the standard library, with its name inside the
    zip (as under ``site-packages``): Python sources, and the data files they open beside them.

    A fresh interpreter, so the server's own imports (fastapi, numpy …) are not counted.
    """
    script = _CLOSURE.replace("ENTRY", entry)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    return tuple((name, Path(path)) for name, path in json.loads(out))


@functools.cache
def core_zip(entry: str = ENTRY) -> bytes:
    """The zip of :func:`core_files`, with fixed timestamps so the same code makes the same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, source in core_files(entry):
            info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, source.read_bytes())
    return buffer.getvalue()


PYODIDE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""The files of Pyodide the worker loads (static/vendor/pyodide), served under :data:`ENGINE`."""

ENGINE = "/keep-engine/"
"""Where Pyodide's files are served, gzipped for a browser that takes it (the WebAssembly is a
third of its size so): the worker's ``indexURL``."""

_MEDIA = {
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json",
}

_PAGE_LINKS = re.compile(r'(?:src|href)="(/static/[^"]+)"')
_IMPORTS = re.compile(
    r'^\s*(?:import|export)\b[^"\';]*?"([^"\s]+)"'  # import … from "x", import "x", export … from "x"
    r'|\bimport\(\s*"([^"\s]+)"\s*\)'  # import("x")
    r'|new URL\("([^"\s]+)", import\.meta\.url\)',  # a file beside the module
    re.MULTILINE,
)


def _reached(start: list[str]) -> set[str]:
    """The static files a page's scripts reach from ``start`` by import or ``new URL(…, import.meta.url)``."""
    seen: set[str] = set()
    todo = list(start)
    while todo:
        url = todo.pop()
        path = STATIC / url.removeprefix("/static/")
        if url in seen or not path.is_file():
            continue
        seen.add(url)
        if path.suffix in (".js", ".mjs") and "/vendor/" not in url:
            for found in _IMPORTS.finditer(path.read_text(encoding="utf-8")):
                target = found.group(1) or found.group(2) or found.group(3)
                resolved = target if target.startswith("/") else _join(url, target)
                todo.append(resolved)
    return seen


def _join(base: str, relative: str) -> str:
    parts = base.split("/")[:-1]
    for part in relative.split("/"):
        if part == "..":
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


@functools.cache
def shell() -> tuple[str, ...]:
    """Every address the service worker keeps: the page, what its scripts import, the words in
    each language, the icons and manifest, Pyodide and the core zip."""
    page = (STATIC / "keep.html").read_text(encoding="utf-8")
    files = _reached([*_PAGE_LINKS.findall(page), "/static/keep-offline.js"])
    files |= {"/static/vendor/pyodide/pyodide.mjs", *(f"{ENGINE}{name}" for name in PYODIDE)}
    files |= {f"/static/icons/{icon.name}" for icon in (STATIC / "icons").glob("*.png")}
    files |= {f"/i18n/{catalogue.name}" for catalogue in CATALOGUES.glob("*.json")}
    return ("/keep", "/keep.webmanifest", "/keep-core.zip", *sorted(files))


def _local(url: str) -> Path:
    if url.startswith("/static/"):
        return STATIC / url.removeprefix("/static/")
    if url.startswith("/i18n/"):
        return CATALOGUES / url.removeprefix("/i18n/")
    if url.startswith(ENGINE):
        return STATIC / "vendor" / "pyodide" / url.removeprefix(ENGINE)
    return STATIC / "keep.html" if url == "/keep" else STATIC / url.lstrip("/")


@functools.cache
def service_worker() -> str:
    """keep-sw.js with its build prepended: the shell and a version that changes with any of its files."""
    digest = hashlib.sha256(core_zip())
    for url in shell():
        if url != "/keep-core.zip":
            digest.update(url.encode())
            digest.update(_local(url).read_bytes())
    build = {"version": digest.hexdigest()[:16], "shell": list(shell())}
    prelude = f"self.UPRIVER_KEEPER_BUILD = {json.dumps(build)};\n"
    return prelude + (STATIC / "keep-sw.js").read_text(encoding="utf-8")


@functools.cache
def _gzipped(name: str) -> bytes:
    return gzip.compress((STATIC / "vendor" / "pyodide" / name).read_bytes(), compresslevel=6, mtime=0)


def keeper_offline_router() -> APIRouter:
    """The routes that serve the service worker, the manifest and the core zip."""
    router = APIRouter()

    @router.get("/keep-sw.js", include_in_schema=False)
    async def worker() -> Response:
        return Response(service_worker(), media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    @router.get("/keep.webmanifest", include_in_schema=False)
    async def manifest() -> FileResponse:
        return FileResponse(STATIC / "keep.webmanifest", media_type="application/manifest+json")

    @router.get(ENGINE + "{name}", include_in_schema=False)
    async def engine(name: str, request: Request) -> Response:
        if name not in PYODIDE:
            return Response("no such file", 404, media_type="text/plain")
        media = _MEDIA[Path(name).suffix]
        if name.endswith(".zip") or "gzip" not in request.headers.get("accept-encoding", ""):
            return FileResponse(STATIC / "vendor" / "pyodide" / name, media_type=media)
        headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
        return Response(_gzipped(name), media_type=media, headers=headers)

    @router.get("/keep-core.zip", include_in_schema=False)
    async def core() -> Response:
        return Response(core_zip(), media_type="application/zip", headers={"Cache-Control": "no-cache"})

    return router


def export_static(target: Path) -> list[Path]:
    """Write the keeper as static files under ``target``: ``keep/index.html`` (also ``404.html``,
    so a host that serves it for unknown paths opens a sheet's link), ``static/``, ``i18n/``,
    the service worker, the manifest, the core zip, Pyodide (``keep-engine/``) and the rules a new
    sheet may choose from (``api/sheets/options``, as the server answers it). Served from a site's
    root, it keeps sheets on the phone only (no server to share or back up with). Answers the
    files written.
    """
    target.mkdir(parents=True, exist_ok=True)
    engine_files = set(PYODIDE) - {"pyodide.mjs"}  # served from keep-engine/ only

    def beside_engine(folder: str, names: list[str]) -> set[str]:
        return engine_files & set(names) if Path(folder).name == "pyodide" else set()

    shutil.copytree(STATIC, target / "static", dirs_exist_ok=True, ignore=beside_engine)
    shutil.copytree(CATALOGUES, target / "i18n", dirs_exist_ok=True)
    page = (STATIC / "keep.html").read_text(encoding="utf-8")
    page = page.replace("<head>", '<head>\n<meta name="upriver-keeper" content="static">', 1)
    (target / "keep").mkdir(exist_ok=True)
    for path in (target / "keep" / "index.html", target / "404.html", target / "index.html"):
        path.write_text(page, encoding="utf-8")
    (target / "keep-sw.js").write_text(service_worker(), encoding="utf-8")
    shutil.copyfile(STATIC / "keep.webmanifest", target / "keep.webmanifest")
    (target / "keep-core.zip").write_bytes(core_zip())
    options = target / "api" / "sheets" / "options"  # the start page's rules, before Python starts
    options.parent.mkdir(parents=True, exist_ok=True)
    options.write_text(json.dumps(rules_catalogue()), encoding="utf-8")
    shutil.copytree(STATIC / "vendor" / "pyodide", target / ENGINE.strip("/"), dirs_exist_ok=True)
    return sorted(path for path in target.rglob("*") if path.is_file())

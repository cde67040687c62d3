"""The numba plumbing the kernel is built on: typed decorators, bit intrinsics, a tiny RNG.

numba's decorators return untyped dispatchers, so the decorators here are cast to
identity types: mypy then checks the kernel's Python source as ordinary typed code, and
numba compiles the same source. Every jitted function is cached on disk
(``cache=True``, in ``__pycache__`` next to this package) so only the first start
on a machine pays for compilation, and only when the kernel is first called.
numba keys each cached function on its own file's time stamp only: after editing
this module, ``policies.py`` or ``learned.py``, or replacing the learned play policy's model
(``training/train_play_model.py`` does this itself), delete ``src/upriver/fast/__pycache__/*.nb*``
(an installed upgrade rewrites every file, so it never meets stale code).

Hands are ``uint64`` bit sets. numba promotes ``uint64`` mixed with ``int64`` to
``float64``, so every bit constant is made with :func:`u64`, which mypy sees as an
``int`` and numba as ``np.uint64``.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
import numpy as np
from llvmlite import binding as llvm  # type: ignore[import-untyped]  # llvmlite ships no types
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic
from numba.misc.appdirs import AppDirs
from numpy.typing import NDArray

__all__ = [
    "FULL",
    "GOLDEN",
    "ONE",
    "SUIT",
    "ZERO",
    "Bits",
    "Ints",
    "above",
    "below",
    "below_low",
    "clz",
    "ctz",
    "i64",
    "inline_jit",
    "jit",
    "mix",
    "nth_bit",
    "parallel_jit",
    "popcount",
    "prange",
    "set_threads",
    "u64",
]

F = TypeVar("F", bound=Callable[..., Any])


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def _cache_somewhere() -> None:
    """numba caches next to this package or else in the user's cache folder, and where it can write
    neither (a read-only install, a user without a home) refuses every ``cache=True`` function at
    import. Then a folder in the temporary directory holds the cache (``NUMBA_CACHE_DIR`` if set wins)."""
    config = cast(Any, numba.config)
    if config.CACHE_DIR or _writable(Path(__file__).parent / "__pycache__"):
        return
    if not _writable(Path(cast(Any, AppDirs)(appname="numba", appauthor=False).user_cache_dir)):
        user = os.getuid() if hasattr(os, "getuid") else "user"
        config.CACHE_DIR = str(Path(tempfile.gettempdir()) / f"upriver-numba-{user}")


_cache_somewhere()


def jit(fn: F) -> F:
    """Compile ``fn`` in nopython mode, cached on disk, compiled on its first call."""
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


def inline_jit(fn: F) -> F:
    """Like :func:`jit`, inlined into its callers by numba itself, so the arrays it takes are
    not reference-counted on every call (an atomic operation per array, twice a call)."""
    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(fn))


def parallel_jit(fn: F) -> F:
    """Like :func:`jit`, with ``prange`` loops spread over numba's threads."""
    return cast(F, numba.njit(cache=True, nogil=True, parallel=True)(fn))


@contextlib.contextmanager
def set_threads(threads: int | None) -> Iterator[None]:
    """Run ``parallel_jit`` code inside on ``threads`` threads (``None``: all of numba's)."""
    if threads is None:
        yield
        return
    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, cast(Any, numba.config).NUMBA_NUM_THREADS))
    try:
        yield
    finally:
        numba.set_num_threads(before)


prange = cast(Callable[[int], range], numba.prange)
"""``range`` for mypy; numba splits its iterations across threads in :func:`parallel_jit` code."""

u64 = cast(Callable[[int], int], np.uint64)
"""Make a ``uint64`` (an ``int`` to mypy) so bit arithmetic never falls back to floats in numba."""
i64 = cast(Callable[[int], int], np.int64)
"""Make an ``int64``: numba's ``int()`` keeps a ``uint64`` unsigned, and signed meets unsigned as float."""

Bits = NDArray[np.uint64]
"""An array of card bit sets (hands, deals): one ``uint64`` a seat."""
Ints = NDArray[np.int64]
"""An array of small integers: bids, tricks, card indices, rule options."""

ZERO = u64(0)
ONE = u64(1)
FULL = u64((1 << 52) - 1)
"""Every card of the deck."""
SUIT = np.array([0x1FFF << (13 * s) for s in range(4)], dtype=np.uint64)
"""The bit set of each suit, by suit index (C D H S)."""


def _bit_intrinsic(name: str) -> Callable[[int], int]:
    def typer(typingctx: object, x: object) -> tuple[object, Callable[..., object]]:
        def codegen(context: object, builder: Any, signature: object, args: Any) -> object:
            if name == "ctpop":
                return builder.ctpop(args[0])
            flag = ir.Constant(ir.IntType(1), 0)
            return builder.cttz(args[0], flag) if name == "cttz" else builder.ctlz(args[0], flag)

        return types.int64(types.uint64), codegen

    typer.__name__ = f"_{name}"
    return cast(Callable[[int], int], intrinsic(typer))


popcount = _bit_intrinsic("ctpop")
"""Number of set bits (one ``popcnt`` instruction), as a signed integer."""
ctz = _bit_intrinsic("cttz")
"""Index of the lowest set bit (64 for zero)."""
clz = _bit_intrinsic("ctlz")
"""Leading zero bits; ``63 - clz(x)`` is the index of the highest set bit."""


@jit
def above(index: int) -> int:
    """Bits strictly above ``index``, within the deck."""
    return FULL & ~((ONE << u64(index + 1)) - ONE)


GOLDEN = u64(0x9E3779B97F4A7C15)
"""The step of the splitmix64 counter: a generator's state is one word, advanced by this."""


@jit
def mix(z: int) -> int:
    """splitmix64's output for counter value ``z``: 64 random bits.

    splitmix64 passes BigCrush and its state is a single counter, which the kernel
    keeps in a local variable (a register) rather than in memory, so drawing a number
    costs a few multiplies and no store-to-load round trip.
    """
    z = (z ^ (z >> u64(30))) * u64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> u64(27))) * u64(0x94D049BB133111EB)
    return z ^ (z >> u64(31))


@jit
def below(bits: int, k: int) -> int:
    """A uniform integer in ``[0, k)`` from the high 32 of 64 random bits (Lemire's
    multiply-shift; bias below 2**-26 for the k ≤ 64 used here)."""
    return i64(((bits >> u64(32)) * u64(k)) >> u64(32))


@jit
def below_low(bits: int, k: int) -> int:
    """:func:`below` from the low 32 bits, so one draw serves two choices."""
    return i64(((bits & u64(0xFFFFFFFF)) * u64(k)) >> u64(32))


def _pdep_typer(typingctx: object, src: object, mask: object) -> tuple[object, Callable[..., object]]:
    def codegen(context: object, builder: Any, signature: object, args: Any) -> object:
        i64 = ir.IntType(64)
        fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=ir.FunctionType(i64, [i64, i64]))
        return builder.call(fn, args)

    return types.uint64(types.uint64, types.uint64), codegen


pdep = cast(Callable[[int, int], int], intrinsic(_pdep_typer))
"""Deposit the low bits of ``src`` at the set bits of ``mask`` (x86 BMI2; one instruction)."""


@jit
def _nth_bit_pdep(mask: int, k: int) -> int:
    return int(ctz(pdep(ONE << u64(k), mask)))


@jit
def _nth_bit_loop(mask: int, k: int) -> int:
    for _ in range(k):
        mask &= mask - ONE
    return int(ctz(mask))


HAS_PDEP = bool(llvm.get_host_cpu_features().get("bmi2", False))
"""Whether this CPU selects bits with ``pdep``; numba keys its cache on the CPU, so each
machine compiles (and caches) the variant it can run."""
nth_bit = _nth_bit_pdep if HAS_PDEP else _nth_bit_loop
"""The index of the ``k``-th (0-based) set bit of ``mask``, counting from the lowest."""

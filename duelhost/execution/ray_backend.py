"""The Ray backend: a run's items as Ray tasks on the cores of a cluster.

``pip install 'duelhost[ray]'`` on the machine that runs the command and on
every node of the cluster (the workers import duelhost; nothing of duelhost
is shipped as code).  What the workers need besides the code:

- **files** (the script folder, the card database, the reference library:
  ``Work.shipped()``) travel through Ray's object store: the driver packs each
  one once (a folder: its top-level files as a gzip'd tar), puts it in the
  object store, and the first task on a node unpacks it into a cache folder
  named by the content's SHA-256 (``$DUELHOST_RAY_CACHE``, default
  ``<tmp>/duelhost-ray-<uid>``), so each node receives each file once per
  content, whatever number of tasks it runs.  With
  ``DUELHOST_RAY_FILES=shared`` nothing is shipped: the paths must exist on
  every node (a shared file system), which the start-up probe checks;
- **items** are grouped in chunks (``Work.chunk_size``); a chunk is one Ray
  task of one CPU.  The task builds the work's state once per worker process
  (kept for the next chunk of the same run) and runs the chunk through the
  local pool (duelhost.execution.local) with one forked child: each item has
  the same deadline, the same progress array and the same lost-item report as
  on one machine;
- a Ray worker or node that dies takes its chunk with it: the chunk is
  submitted again (up to ``ATTEMPTS`` times, Ray places it where there is
  room) and ``RunInfo.retried`` says which items were run again and why.

Before any work, a probe runs on every alive node: it imports duelhost and
lupa there (a node without the extra is an ExecutionError naming the node),
compares duelhost versions and unpacks (or, shared, looks for) the files.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import logging
import os
import socket
import struct
import tempfile
import time
import uuid
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import ExecutionError, RunInfo, Work
from .local import run_pool
from .lost import Lost

__all__ = ["ATTEMPTS", "FILES_ENV", "materialize", "relocate", "run_on_ray"]

ATTEMPTS = 3                       # a chunk whose worker died is run at most this often
FILES_ENV = "DUELHOST_RAY_FILES"   # "ship" (default) or "shared"
CACHE_ENV = "DUELHOST_RAY_CACHE"
CHUNK_ENV = "DUELHOST_RAY_CHUNK"             # items per Ray task instead of Work.chunk_size
TEST_DIE_ENV = "DUELHOST_RAY_TEST_DIE_ONCE"   # tests: a worker exits once (path of a marker file)
PROBE_TIMEOUT = 180.0
REQUIRED_MODULES = ("lupa", "duelhost", "duelhost.engine.duel")


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ExecutionError("--ray needs Ray on this machine: pip install 'duelhost[ray]'") from None
    return ray


def _check_reachable(address: str) -> None:
    """A host:port (or ray://host:port) address must accept a TCP connection within 5 s."""
    text = address.split("://", 1)[-1]
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit():
        if address == "auto":
            return
        raise ExecutionError(f"Ray address {address!r} is not HOST:PORT (or ray://HOST:PORT, or auto)")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=5):
            pass
    except OSError as exc:
        raise ExecutionError(f"cannot reach the Ray cluster at {address}: "
                             f"{exc.strerror or type(exc).__name__}") from None


def _connect(ray: Any, address: str | None) -> bool:
    """Join the cluster at ``address`` or start a local one; True when it was started here."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    quiet = dict(include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR,
                 configure_logging=True)
    if address:
        _check_reachable(address)
        try:
            ray.init(address=address, **quiet)
        except Exception as exc:  # noqa: BLE001 - one line for the user
            raise ExecutionError(f"cannot join the Ray cluster at {address}: "
                                 f"{_last_line(exc)}") from None
        return True
    try:
        ray.init(address="local", num_cpus=os.cpu_count() or 1, object_store_memory=256 * 2**20, **quiet)
    except Exception as exc:  # noqa: BLE001
        raise ExecutionError(f"cannot start a local Ray cluster: {_last_line(exc)}") from None
    return True


def _last_line(exc: BaseException) -> str:
    text = str(exc).strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return f"{type(exc).__name__}: {lines[-1]}" if lines else type(exc).__name__


# ----- files ------------------------------------------------------------------------------------

def _pack(path: Path) -> tuple[str, bytes]:
    """("dir" or "file", bytes): a folder's top-level regular files (no dot files) framed as
    name length, name, size, bytes and zlib-compressed; a file's bytes as they are."""
    if path.is_dir():
        parts = []
        for p in sorted(path.iterdir()):
            if not p.name.startswith(".") and p.is_file():
                name, data = p.name.encode(), p.read_bytes()
                parts += [struct.pack("<I", len(name)), name, struct.pack("<Q", len(data)), data]
        return "dir", zlib.compress(b"".join(parts), 1)
    return "file", path.read_bytes()


def _unpack_dir(blob: bytes, folder: Path) -> None:
    raw, at = zlib.decompress(blob), 0
    while at < len(raw):
        (n,) = struct.unpack_from("<I", raw, at)
        name = raw[at + 4:at + 4 + n].decode()
        at += 4 + n
        (size,) = struct.unpack_from("<Q", raw, at)
        at += 8
        if "/" in name or name in ("", ".", ".."):
            raise ValueError(f"bad file name {name!r} in a shipped folder")
        (folder / name).write_bytes(raw[at:at + size])
        at += size


def _cache_root() -> Path:
    return Path(os.environ.get(CACHE_ENV) or Path(tempfile.gettempdir()) / f"duelhost-ray-{os.getuid()}")


def materialize(files: dict[str, dict[str, Any]]) -> dict[str, Path]:
    """On a node: the path of every shipped file (unpacked once per content into the cache)."""
    import ray
    out: dict[str, Path] = {}
    for key, spec in files.items():
        if spec["mode"] == "shared":
            out[key] = Path(spec["path"])
            continue
        home = _cache_root() / spec["digest"]
        target = home / spec["name"]
        if not (home / ".complete").exists():
            home.parent.mkdir(parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(prefix=".part-", dir=home.parent))
            data = ray.get(spec["ref"])
            if spec["kind"] == "dir":
                (tmp / spec["name"]).mkdir()
                _unpack_dir(data, tmp / spec["name"])
            else:
                (tmp / spec["name"]).write_bytes(data)
            (tmp / ".complete").write_text("")
            try:
                os.rename(tmp, home)
            except OSError:          # another worker of this node was first
                import shutil
                shutil.rmtree(tmp, ignore_errors=True)
        out[key] = target
    return out


def _ship(ray: Any, paths: dict[str, Path]) -> dict[str, dict[str, Any]]:
    mode = os.environ.get(FILES_ENV, "ship").strip() or "ship"
    if mode not in ("ship", "shared"):
        raise ExecutionError(f"{FILES_ENV} must be 'ship' or 'shared', not {mode!r}")
    out: dict[str, dict[str, Any]] = {}
    for key, path in paths.items():
        path = Path(path)
        if mode == "shared":
            out[key] = {"mode": "shared", "path": str(path.resolve())}
            continue
        kind, data = _pack(path)
        digest = hashlib.sha256(kind.encode() + b"\0" + path.name.encode() + b"\0" + data).hexdigest()[:24]
        out[key] = {"mode": "ship", "kind": kind, "name": path.name or key, "digest": digest,
                    "bytes": len(data), "ref": ray.put(data)}
    return out


# ----- the probe: runs on every node before any work ------------------------------------------

_PROBE_SRC = '''
def probe(modules, files, version):
    import importlib, os, socket
    out = {"host": socket.gethostname(), "missing": [], "absent": [], "version": None, "error": None}
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception as exc:
            out["missing"].append(f"{name} ({type(exc).__name__}: {exc})")
    if out["missing"]:
        return out
    try:
        from importlib.metadata import version as _v
        out["version"] = _v("duelhost")
    except Exception:
        pass
    try:
        from duelhost.execution.ray_backend import materialize
        for key, path in materialize(files).items():
            if not os.path.exists(path):
                out["absent"].append(f"{key} {path}")
    except Exception as exc:
        out["error"] = f"{type(exc).__name__}: {exc}"
    return out
'''


def _probe_function() -> Callable[..., Any]:
    """The probe as a function Ray pickles by value (a node without duelhost can run it)."""
    space: dict[str, Any] = {"__name__": "__duelhost_probe__"}
    exec(compile(_PROBE_SRC, "<duelhost ray probe>", "exec"), space)    # noqa: S102
    return space["probe"]


def _driver_version() -> str | None:
    try:
        from importlib.metadata import version
        return version("duelhost")
    except Exception:  # noqa: BLE001
        return None


def probe_nodes(ray: Any, files: dict[str, dict[str, Any]],
                modules: Sequence[str] = REQUIRED_MODULES) -> list[dict[str, Any]]:
    """Run the probe once on every alive node; an ExecutionError names the first node that
    lacks a module, a file, or has another duelhost version."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    nodes = [n for n in ray.nodes() if n.get("Alive")]
    if not nodes:
        raise ExecutionError("the Ray cluster has no alive node")
    remote = ray.remote(num_cpus=0, max_retries=0)(_probe_function())
    version = _driver_version()
    refs = {remote.options(scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False))
            .remote(list(modules), files, version): n for n in nodes}
    found = []
    try:
        answers = ray.get(list(refs), timeout=PROBE_TIMEOUT)
    except Exception as exc:  # noqa: BLE001
        raise ExecutionError(f"the Ray start-up probe failed: {_last_line(exc)}") from None
    for (ref, node), got in zip(refs.items(), answers):
        where = f"Ray node {node.get('NodeManagerAddress')} ({got['host']})"
        if got["missing"]:
            raise ExecutionError(f"{where} cannot import {got['missing'][0]}: install duelhost[ray] "
                                 f"on every node of the cluster")
        if version and got["version"] and got["version"] != version:
            raise ExecutionError(f"{where} has duelhost {got['version']}, this machine {version}: "
                                 f"install the same version on every node")
        if got["error"]:
            raise ExecutionError(f"{where} cannot unpack the shipped files: {got['error']}")
        if got["absent"]:
            raise ExecutionError(f"{where}: {got['absent'][0]} does not exist there"
                                 + (f" ({FILES_ENV}=shared needs the same paths on every node)"
                                    if os.environ.get(FILES_ENV) == "shared" else ""))
        found.append({"node": node.get("NodeManagerAddress"), "cpus": node.get("Resources", {}).get("CPU", 0)})
    return found


# ----- one chunk, in a Ray worker -------------------------------------------------------------

_STATE: dict[str, tuple[Work, Any, dict[str, str]]] = {}


def relocate(value: Any, paths: dict[str, str]) -> Any:
    """``value`` with every node path of ``paths`` written as the driver's path (in strings,
    paths, lists, tuples, dicts and dataclass fields, changed in place where mutable): a
    result names the files the user gave, not a node's cache folder."""
    if not paths:
        return value
    if isinstance(value, str):
        for mine, theirs in paths.items():
            if mine in value:
                value = value.replace(mine, theirs)
        return value
    if isinstance(value, Path):
        text = relocate(str(value), paths)
        return Path(text) if text != str(value) else value
    if isinstance(value, list):
        value[:] = [relocate(v, paths) for v in value]
        return value
    if type(value) is tuple:
        return tuple(relocate(v, paths) for v in value)
    if isinstance(value, dict):
        return {relocate(k, paths): relocate(v, paths) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            old = getattr(value, f.name, None)
            new = relocate(old, paths)
            if new is not old:
                object.__setattr__(value, f.name, new)
        return value
    return value


def _die_once_for_tests() -> None:
    marker = os.environ.get(TEST_DIE_ENV)
    if not marker:
        return
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.close(fd)
    os._exit(17)


def run_chunk(run_id: str, work: Work, files: dict[str, dict[str, Any]], tasks: list[tuple[int, Any]],
              timeout: float | None, gc_thresholds: tuple[int, ...] | None = None) -> dict[str, Any]:
    """A Ray task: the items of one chunk through a one-child local pool on this node."""

    import ray

    _die_once_for_tests()
    if run_id not in _STATE:
        _STATE.clear()
        if gc_thresholds:        # the driver's collector settings (duelhost.gc_tuning), as forked workers have
            gc.set_threshold(*gc_thresholds)
        here = materialize(files) if files else {}
        node_work = work.on_node(here) if here else work
        theirs = work.shipped()
        back = {str(here[k]): str(theirs[k]) for k in here if str(here[k]) != str(theirs[k])}
        _STATE[run_id] = (node_work, node_work.prepare(), back)
    node_work, state, back = _STATE[run_id]
    out: list[tuple[int, str, Any]] = []
    start = time.perf_counter()
    sub = RunInfo(backend="chunk", total=len(tasks))
    run_pool(tasks, node_work, jobs=1, timeout=timeout, state=state, info=sub,
             on_result=lambda t, v: out.append((t[0], "ok", v)),
             on_lost=lambda t, lost: out.append((t[0], "lost", lost)))
    node = ray.get_runtime_context().get_node_id()
    return {"results": relocate(out, back), "ready": relocate(node_work.describe(state), back),
            "worker": {"worker": f"{socket.gethostname()} node {node[:8]} pid {os.getpid()}",
                       "items": sum(1 for _i, kind, _v in out if kind == "ok"), "ended": "done",
                       "maxrss_kb": max((w.get("maxrss_kb", 0) for w in sub.workers), default=0),
                       "seconds": round(time.perf_counter() - start, 3)}}


# ----- the driver ------------------------------------------------------------------------------

_RETRY_ERRORS = ("WorkerCrashedError", "NodeDiedError", "ObjectLostError", "OwnerDiedError",
                 "LocalRayletDiedError", "RaySystemError", "ObjectFetchTimedOutError", "OutOfMemoryError",
                 "TaskCancelledError")


def run_on_ray(work: Work, items: Sequence[Any], *, address: str | None, timeout: float | None,
               got: Callable[[int, Any], None], info: RunInfo) -> None:
    """execute() on Ray: ship the files, probe the nodes, run the chunks, gather the results."""
    ray = _import_ray()
    started = _connect(ray, address)
    pending: dict[Any, tuple[list[int], int]] = {}
    try:
        files = _ship(ray, work.shipped())
        nodes = probe_nodes(ray, files)
        info.slots = int(sum(n["cpus"] for n in nodes)) or 1
        info.backend = f"Ray ({'cluster at ' + address if address else 'local cluster'}, " \
                       f"{len(nodes)} node(s), {info.slots} CPU(s))"
        fixed = os.environ.get(CHUNK_ENV, "").strip()
        if fixed and not fixed.isdigit():
            raise ExecutionError(f"{CHUNK_ENV} must be a number of items per Ray task, not {fixed!r}")
        chunk = max(1, int(fixed) if fixed else work.chunk_size(len(items), info.slots))
        run_id = uuid.uuid4().hex
        work_ref = ray.put(work)
        remote = ray.remote(num_cpus=1, max_retries=0)(run_chunk)

        def submit(indices: list[int], attempt: int) -> None:
            ref = remote.remote(run_id, work_ref, files, [(i, items[i]) for i in indices],
                                timeout, gc.get_threshold())
            pending[ref] = (indices, attempt)

        for start in range(0, len(items), chunk):
            submit(list(range(start, min(start + chunk, len(items)))), 1)
        while pending:
            # whatever is ready within 0.2 s (at most 256): one call per batch, not per result
            ready, _ = ray.wait(list(pending), num_returns=min(len(pending), 256), timeout=0.2)
            for ref in ready:
                indices, attempt = pending.pop(ref)
                try:
                    out = ray.get(ref)
                except Exception as exc:  # noqa: BLE001 - sorted below
                    name = type(exc).__name__
                    span = f"items {indices[0]}-{indices[-1]}" if len(indices) > 1 else f"item {indices[0]}"
                    if name in _RETRY_ERRORS or not isinstance(exc, ray.exceptions.RayTaskError):
                        if attempt < ATTEMPTS:
                            info.retried.append(f"{span}: the Ray worker running them was lost ({name}); "
                                                f"run again (attempt {attempt + 1} of {ATTEMPTS})")
                            submit(indices, attempt + 1)
                            continue
                        info.retried.append(f"{span}: lost {ATTEMPTS} times ({name}); reported as crashed")
                        for i in indices:
                            got(i, work.lost(items[i], Lost("crash", (0,) * 8, None, 0.0)))
                        continue
                    raise ExecutionError(f"a Ray task failed: {_last_line(exc)}") from None
                w = out["worker"]
                mine = next((x for x in info.workers if x["worker"] == w["worker"]), None)
                if mine is None:
                    info.workers.append({**w, "chunks": 1})
                else:
                    mine["items"] += w["items"]
                    mine["chunks"] += 1
                    mine["seconds"] = round(mine["seconds"] + w["seconds"], 3)
                    mine["maxrss_kb"] = max(mine["maxrss_kb"], w["maxrss_kb"])
                if out["ready"] not in info.ready:
                    info.ready.append(out["ready"])
                for i, kind, value in out["results"]:
                    got(i, value if kind == "ok" else work.lost(items[i], value))
    except BaseException:
        for ref in pending:
            try:
                ray.cancel(ref, force=True)
            except Exception:  # noqa: BLE001
                pass
        raise
    finally:
        if started:
            try:
                ray.shutdown()
            except Exception:  # noqa: BLE001
                pass

"""Same answers at any scale: check, selfplay and diff on a two-node Ray cluster that this
module starts on 127.0.0.1 (``ray start --head`` and a second ``ray start --address``,
one CPU and a small object store each), against the local pool's reports.

Needs the ``ray`` extra (``pip install -e '.[test,ray]'``, as .ci/run does); skipped
without it.  The live diff needs OCGCORE_LIB and is skipped without it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ray")

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "golden" / "vanilla.jsonl.gz"
RAY = Path(sys.executable).parent / "ray"
# a cluster of this test only: no usage stats, no token (Ray 2.5x turns token auth on by default)
RAY_ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self, address: str, marker: Path, nodes: list[subprocess.Popen]) -> None:
        self.address, self.marker, self.nodes = address, marker, nodes


def _start_node(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen([str(RAY), "start", "--block", "--num-cpus", "1",
                             "--object-store-memory", str(80 * 2**20), "--disable-usage-stats", *args],
                            env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True)


def _alive_nodes(address: str, env: dict[str, str]) -> int:
    code = ("import ray, logging; ray.init(address=%r, logging_level=logging.ERROR, log_to_driver=False);"
            "print(sum(1 for n in ray.nodes() if n['Alive']))" % address)
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    return int(r.stdout.strip().splitlines()[-1]) if r.returncode == 0 and r.stdout.strip() else 0


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    tmp = tmp_path_factory.mktemp("ray")
    marker = tmp / "die-once"            # exists: no worker dies (test_a_dead_worker... removes it)
    marker.write_text("")
    port = _free_port()
    env = {**os.environ, **RAY_ENV, "DUELHOST_RAY_TEST_DIE_ONCE": str(marker),
           "DUELHOST_RAY_CACHE": str(tmp / "cache"), "DUELHOST_RAY_ADDRESS": ""}
    address = f"127.0.0.1:{port}"
    temp_dir = f"/tmp/dh-ray-{os.getpid()}"        # short: Ray's socket paths must fit in 107 bytes
    nodes = [_start_node(["--head", "--node-ip-address", "127.0.0.1", "--port", str(port),
                          "--include-dashboard=false", f"--temp-dir={temp_dir}",
                          "--node-manager-port", str(_free_port()),
                          "--object-manager-port", str(_free_port())], env, tmp / "head.log")]
    try:
        deadline = time.monotonic() + 90
        while _alive_nodes(address, env) < 1:
            if time.monotonic() > deadline or nodes[0].poll() is not None:
                pytest.fail("the Ray head did not start: " + (tmp / "head.log").read_text()[-2000:])
            time.sleep(1)
        nodes.append(_start_node(["--address", address, "--node-ip-address", "127.0.0.1"], env,
                                 tmp / "worker.log"))
        while _alive_nodes(address, env) < 2:
            if time.monotonic() > deadline or nodes[1].poll() is not None:
                pytest.fail("the second Ray node did not start: " + (tmp / "worker.log").read_text()[-2000:])
            time.sleep(1)
        yield Cluster(address, marker, nodes)
    finally:
        for p in reversed(nodes):                 # each node's process group: its raylet and workers
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in reversed(nodes):
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                pass
            try:                                  # what SIGTERM left of the group (gcs_server, raylet)
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait(5)
        shutil.rmtree(temp_dir, ignore_errors=True)      # the cluster's session logs


def _run(args: list[str], tmp: Path, name: str, env_extra: dict[str, str] | None = None) -> tuple[int, Any, str]:
    out = tmp / f"{name}.json"
    env = {**os.environ, **RAY_ENV, "DUELHOST_RAY_ADDRESS": "", **(env_extra or {})}
    r = subprocess.run([sys.executable, "-m", "duelhost.cli", *args, "--report", "json", "-o", str(out)],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    data = json.loads(out.read_text()) if out.exists() else None
    return r.returncode, data, r.stdout + r.stderr


TIMING = {"seconds", "cards_per_second", "parent_maxrss_kb", "worker_maxrss_kb", "jobs", "play_seconds",
          "wall_seconds", "responses_per_second", "responses_per_second_wall",
          "reference_seconds", "our_seconds"}   # each core's share of a live duel's time


def _same_answers(data: Any) -> Any:
    """A report without its timings and worker names (and the backend that ran it)."""
    if isinstance(data, dict):
        return {k: _same_answers(v) for k, v in data.items()
                if k not in TIMING and k not in ("workers", "execution")}
    if isinstance(data, list):
        return [_same_answers(v) for v in data]
    return data


def test_check_on_ray_matches_the_local_pool(cluster: Cluster, tmp_path: Path) -> None:
    rc_local, local, out_l = _run(["check", "--jobs", "2", "--no-progress"], tmp_path, "local")
    rc_ray, ray, out_r = _run(["check", "--ray", cluster.address, "--no-progress"], tmp_path, "ray")
    assert rc_local == rc_ray == 0, out_l + out_r
    assert len(local["cards"]) > 50
    assert _same_answers(ray) == _same_answers(local)
    assert "2 node(s), 2 CPU(s)" in ray["execution"]["backend"]
    nodes = {w["worker"].split(" pid ")[0] for w in ray["workers"]}
    assert len(nodes) == 2, ray["workers"]          # both nodes ran cards
    assert sum(w["cards"] for w in ray["workers"]) == len(local["cards"])


def test_selfplay_on_ray_matches_the_local_pool(cluster: Cluster, tmp_path: Path) -> None:
    args = ["selfplay", "-n", "16", "--seed", "11", "--no-progress"]
    rc_local, local, out_l = _run([*args, "--jobs", "2"], tmp_path, "local")
    rc_ray, ray, out_r = _run([*args, "--ray", cluster.address], tmp_path, "ray")
    assert rc_local == rc_ray, out_l + out_r
    assert len(local["duels"]) == 16
    assert _same_answers(ray) == _same_answers(local)
    assert ray["notes"] == [] and ray["execution"]["retried"] == []


def test_golden_diff_on_ray_matches_the_local_pool(cluster: Cluster, tmp_path: Path) -> None:
    rc_local, local, out_l = _run(["diff", "--golden", str(GOLDEN), "--jobs", "2"], tmp_path, "local")
    rc_ray, ray, out_r = _run(["diff", "--golden", str(GOLDEN), "--ray", cluster.address], tmp_path, "ray")
    assert rc_local == rc_ray == 0, out_l + out_r
    assert local["identical"] == local["total"] == 40
    assert _same_answers(ray) == _same_answers(local)


def _corpus_db() -> Path:
    return Path(os.environ.get("DUELHOST_CORPUS_DB") or ROOT.parent / "shared" / "cards" / "corpus.cdb")


@pytest.mark.skipif(not (os.environ.get("OCGCORE_LIB") and os.environ.get("YGOPRO_SCRIPTS")),
                    reason="live diff needs OCGCORE_LIB (the reference) and YGOPRO_SCRIPTS (real cards)")
def test_live_diff_on_ray_matches_the_local_pool(cluster: Cluster, tmp_path: Path) -> None:
    if not _corpus_db().is_file():
        pytest.skip("no corpus database (DUELHOST_CORPUS_DB)")
    args = ["diff", "--seeds", "4", "--seed", "3", "--turn-limit", "6", "--no-progress",
            "--scripts", os.environ["YGOPRO_SCRIPTS"], "--db", str(_corpus_db())]
    rc_local, local, out_l = _run([*args, "--jobs", "2"], tmp_path, "local")
    rc_ray, ray, out_r = _run([*args, "--ray", cluster.address], tmp_path, "ray")
    assert rc_local == rc_ray, out_l + out_r
    assert local["total"] == 4
    assert _same_answers(ray) == _same_answers(local)


def test_a_spinning_card_and_a_card_without_a_row_are_reported_on_ray_as_locally(cluster: Cluster, tmp_path: Path) -> None:
    folder = tmp_path / "scripts"
    folder.mkdir()
    for src in (ROOT / "scripts").glob("c*.lua"):
        (folder / src.name).write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    first = sorted(folder.glob("c*.lua"))[0]
    first.write_text("while true do end\n" + first.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "c123456789.lua").write_text("-- a script with no database row\n")
    args = ["check", "--scripts", str(folder), "--timeout", "20", "--no-progress", "--limit", "4"]
    rc_local, local, out_l = _run([*args, "--jobs", "2"], tmp_path, "local")
    rc_ray, ray, out_r = _run([*args, "--ray", cluster.address], tmp_path, "ray")
    assert rc_local == rc_ray == 1, out_l + out_r
    no_row, spinning = ray["cards"][0], ray["cards"][1]
    assert no_row["status"] == "no_db_row" and no_row["reason"].endswith(f" in {ray['db']}")  # not a node's copy
    assert "script timeout" in spinning["failures"][0]["message"]     # the Lua time budget
    assert _same_answers(ray) == _same_answers(local)


_DEADLINE_DRIVER = """
import json, logging, sys, time
import ray
from duelhost.execution import Backend, Work, execute

class Counting(Work):              # defined in __main__: Ray ships it by value
    def run(self, state, item, progress):
        for k in range(1, 10**6):
            progress[0] = k            # how far it got
            if item == 0 and k == 3:
                return "done"
            time.sleep(0.01)

    def lost(self, item, lost):
        return [lost.how, lost.progress[0]]

results, info = execute(Counting(), [0, 1], Backend.ray(sys.argv[1]), timeout=1.5)
print(json.dumps([results, info.done]))
"""


def test_a_task_past_its_deadline_on_ray_is_reported_with_its_progress(cluster: Cluster) -> None:
    r = subprocess.run([sys.executable, "-c", _DEADLINE_DRIVER, cluster.address], capture_output=True,
                       text=True, timeout=180, cwd=ROOT, env={**os.environ, **RAY_ENV})
    assert r.returncode == 0, r.stderr[-2000:]
    (first, (how, step)), done = json.loads(r.stdout.strip().splitlines()[-1])
    assert first == "done" and how == "timeout" and done == 2
    assert step > 3                        # it counted on until it was killed at 1.5 s


def test_a_dead_worker_has_its_duels_run_again_and_the_report_says_so(cluster: Cluster, tmp_path: Path) -> None:
    args = ["selfplay", "-n", "6", "--seed", "5", "--no-progress"]
    _, local, _ = _run([*args, "--jobs", "1"], tmp_path, "local")
    cluster.marker.unlink()                  # the next Ray task's worker exits (os._exit) once
    rc, ray, out = _run([*args, "--ray", cluster.address], tmp_path, "ray")
    assert cluster.marker.exists(), out
    assert len(ray["execution"]["retried"]) == 1, out
    assert "the Ray worker running them was lost (WorkerCrashedError); run again" \
        in ray["execution"]["retried"][0]
    assert ray["notes"] == ["retried: " + ray["execution"]["retried"][0]]
    assert _same_answers({**ray, "notes": []}) == _same_answers(local)


def _probe(cluster: Cluster, code: str) -> subprocess.CompletedProcess:
    script = ("import ray, logging\n"
              f"ray.init(address={cluster.address!r}, logging_level=logging.ERROR, log_to_driver=False)\n"
              "from duelhost.execution import ExecutionError\n"
              "from duelhost.execution.ray_backend import probe_nodes\n"
              "try:\n"
              f"    {code}\n"
              "except ExecutionError as exc:\n"
              "    print('Error:', exc)\n")
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **RAY_ENV})


def test_the_probe_names_a_node_that_lacks_a_module(cluster: Cluster) -> None:
    r = _probe(cluster, "probe_nodes(ray, {}, modules=('lupa', 'duelhost_extra_not_here'))")
    line = r.stdout.strip().splitlines()[-1]
    assert re.match(r"Error: Ray node [0-9a-f.:]+ \(.*\) cannot import duelhost_extra_not_here "
                    r"\(ModuleNotFoundError: No module named 'duelhost_extra_not_here'\): install duelhost\[ray\] "
                    r"on every node of the cluster$", line), line


def test_the_probe_names_a_shared_folder_missing_on_a_node(cluster: Cluster, tmp_path: Path) -> None:
    gone = tmp_path / "not-on-the-nodes"
    r = _probe(cluster, f"probe_nodes(ray, {{'scripts': {{'mode': 'shared', 'path': {str(gone)!r}}}}})")
    line = r.stdout.strip().splitlines()[-1]
    assert re.match(r"Error: Ray node [0-9a-f.:]+ \(.*\): scripts ", line) and \
        line.endswith(f"scripts {gone} does not exist there"), line


def test_shared_mode_uses_the_paths_as_they_are_and_a_bad_mode_is_one_error(cluster: Cluster,
                                                                             tmp_path: Path) -> None:
    """DUELHOST_RAY_FILES=shared ships nothing (the nodes of this machine see the bundled
    folder); an unknown mode is exit 2, one line, no report."""
    rc, data, out = _run(["check", "--ray", cluster.address, "--no-progress"], tmp_path, "shared",
                         {"DUELHOST_RAY_FILES": "shared", "DUELHOST_RAY_CACHE": str(tmp_path / "c")})
    assert rc == 0 and data is not None, out      # the bundled folder is on this machine's nodes
    rc, data, out = _run(["check", "--ray", cluster.address, "--no-progress"], tmp_path, "bad",
                         {"DUELHOST_RAY_FILES": "everywhere"})
    assert rc == 2 and data is None
    assert out.strip().splitlines()[-1] == "Error: DUELHOST_RAY_FILES must be 'ship' or 'shared', not 'everywhere'"


def test_ctrl_c_on_ray_stops_the_run_and_writes_the_partial_report(cluster: Cluster, tmp_path: Path) -> None:
    out = tmp_path / "partial.json"
    env = {**os.environ, **RAY_ENV, "DUELHOST_RAY_ADDRESS": ""}
    proc = subprocess.Popen([sys.executable, "-m", "duelhost.cli", "selfplay", "-n", "400", "--seed", "2",
                             "--ray", cluster.address, "--no-progress", "--report", "json", "-o", str(out)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        time.sleep(15)                                   # connected, duels under way
        os.killpg(proc.pid, signal.SIGINT)
        start = time.monotonic()
        _, err = proc.communicate(timeout=60)
        stopped = time.monotonic() - start
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text = err.decode()
    assert proc.returncode == 130, text
    assert stopped < 20 and "Traceback" not in text
    report = json.loads(out.read_text())
    done = len(report["duels"])
    assert report["execution"]["interrupted"] is True and done < 400
    assert text.strip().splitlines()[-1] == f"interrupted: selfplay stopped after {done} of 400; the report is partial"
    assert [d["index"] for d in report["duels"]] == sorted(d["index"] for d in report["duels"])

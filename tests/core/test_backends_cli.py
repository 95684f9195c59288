"""Every study can record its language traffic to a cassette and replay it offline:
the replayed run's transcripts and tables are byte-identical to the live run's.  A
backend that fails is never silent: the run stops with one line, or its fallbacks are
counted in metrics.json, shown under every table, and fail the run past a threshold."""

import json
import os
import socket
import threading
from http.server import BaseHTTPRequestHandler

import pytest
from click.testing import CliRunner

from clirun import one_line, simcore
from localserver import LocalServer
from simcore.cli import cli

RUNS = {
    "scorable": ["--trials", "2", "--methods", "proposed-p1,llm-pe-all"],
    "astra": ["--episodes", "2", "--partners", "base,fair", "--setups", "integrative"],
    "dominance": ["--dialogues", "3", "--agent", "dominant,submissive", "--user", "peer"],
    "mind": ["--groups", "2", "--variants", "mind,base"],
}
SMALLER = {"scorable": ["--trials", "1", "--methods", "proposed-p1,llm-pe-all"],
           "astra": ["--episodes", "1", "--partners", "base,fair", "--setups", "integrative"],
           "dominance": ["--dialogues", "1", "--agent", "dominant,submissive", "--user", "peer"],
           "mind": ["--groups", "1", "--variants", "mind,base"]}
OTHER = {"scorable": "astra", "astra": "dominance", "dominance": "mind", "mind": "scorable"}




@pytest.mark.parametrize("system", sorted(RUNS))
def test_record_and_replay(system, tmp_path):
    runner = CliRunner()
    cassette = tmp_path / "c.jsonl"
    base = ["run", system, *RUNS[system], "--seed", "2"]
    live = runner.invoke(cli, base + ["--out", str(tmp_path / "live"), "--record", str(cassette)])
    assert live.exit_code == 0, live.output
    replay = runner.invoke(cli, base + ["--out", str(tmp_path / "replay"), "--replay", str(cassette)])
    assert replay.exit_code == 0, replay.output
    names = sorted(n for n in os.listdir(tmp_path / "live") if n != "metrics.json")  # metrics echo the paths
    assert "transcripts.jsonl" in names
    for name in names:
        assert (tmp_path / "live" / name).read_bytes() == (tmp_path / "replay" / name).read_bytes(), name
    live_m, replay_m = (json.loads((tmp_path / d / "metrics.json").read_text()) for d in ("live", "replay"))
    assert live_m["model_calls"] == replay_m["model_calls"]
    def shown(output):  # the tables and the fallback line under each (less the "wrote PATH" line)
        return [line for line in output.splitlines() if not line.startswith("wrote ")]

    assert shown(live.output) == shown(replay.output)


@pytest.mark.parametrize("system", sorted(RUNS))
def test_a_replay_that_misses_a_request_stops_naming_it(system, tmp_path, capsys):
    """A cassette from a smaller run, one from another system: one line, exit 3."""
    smaller, other = tmp_path / "smaller.jsonl", tmp_path / "other.jsonl"
    assert simcore(capsys, "run", system, *SMALLER[system], "--out", str(tmp_path / "s"),
                   "--record", str(smaller))[0] == 0
    assert simcore(capsys, "run", OTHER[system], *RUNS[OTHER[system]], "--out", str(tmp_path / "x"),
                   "--record", str(other))[0] == 0
    for cassette in (smaller, other):
        out = tmp_path / f"o-{cassette.stem}"
        code, _, err = simcore(capsys, "run", system, *RUNS[system], "--out", str(out), "--replay", str(cassette))
        line = one_line(err)
        assert code == 3, err
        assert line.startswith(f"simcore: error: {cassette}: no recorded response for this request ('TASK: "), line
        assert "--replay-misses fallback" in line
        assert not (out / "metrics.json").exists()
    # asked to, the misses are counted fallbacks -- and the share still fails the run ...
    code, stdout, err = simcore(capsys, "run", system, *RUNS[system], "--out", str(tmp_path / "f"),
                                "--replay", str(other), "--replay-misses", "fallback")
    assert code == 3 and "fell back to the rule" in one_line(err) and "above --max-fallback-share 0.05" in err
    calls = json.loads((tmp_path / "f" / "metrics.json").read_text())["model_calls"]
    assert calls["fallbacks"] == calls["asks"] == calls["backend_errors"] > 0 and calls["fallback_share"] == 1.0
    # ... unless the threshold allows it
    code, _, err = simcore(capsys, "run", system, *RUNS[system], "--out", str(tmp_path / "g"),
                           "--replay", str(other), "--replay-misses", "fallback", "--max-fallback-share", "1")
    assert code == 0, err


def test_record_refuses_an_existing_cassette_and_replay(tmp_path, capsys):
    cassette = tmp_path / "c.jsonl"
    args = ["run", "astra", *RUNS["astra"]]
    assert simcore(capsys, *args, "--out", str(tmp_path / "a"), "--record", str(cassette))[0] == 0
    size = cassette.stat().st_size
    code, stdout, err = simcore(capsys, *args, "--out", str(tmp_path / "b"), "--record", str(cassette))
    assert code == 2 and "the cassette exists" in one_line(err) and "--append" in err
    assert stdout == "" and cassette.stat().st_size == size and not (tmp_path / "b").exists()
    assert simcore(capsys, *args, "--out", str(tmp_path / "b"), "--record", str(cassette), "--append")[0] == 0
    header = len(cassette.read_bytes().split(b"\n", 1)[0]) + 1  # the header line is written once
    assert cassette.stat().st_size == 2 * size - header
    code, stdout, err = simcore(capsys, *args, "--out", str(tmp_path / "c"), "--record", str(tmp_path / "new.jsonl"),
                                "--replay", str(cassette))
    assert code == 2 and "cannot be combined with --replay" in one_line(err) and stdout == ""
    assert not (tmp_path / "new.jsonl").exists()
    code, _, err = simcore(capsys, *args, "--append")
    assert code == 2 and "--append: only applies with --record" in one_line(err)
    code, _, err = simcore(capsys, *args, "--replay-misses", "fallback")
    assert code == 2 and "only applies with --replay" in one_line(err)


# ---------------------------------------------------------------- live servers on 127.0.0.1

class _Refuser(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    status = 401

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = b'{"error": "invalid api key"}'
        self.send_response(self.status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def refusing_server():
    servers = []

    def start(status):
        servers.append(LocalServer(type("Handler", (_Refuser,), {"status": status})))
        return servers[-1].url

    yield start
    for server in servers:
        server.close()


def _http(url, *extra):
    return ["--backend", "openai-compat-v1", "--backend-arg", f"base_url={url}", "--backend-arg", "model=m",
            "--backend-arg", "timeout=5", "--backend-arg", "backoff=0.2", "--backend-arg", "max_retries=1", *extra]


@pytest.mark.parametrize("system", sorted(RUNS))
@pytest.mark.parametrize("status", [401, 403])
def test_refused_credentials_stop_every_system(system, status, refusing_server, tmp_path, capsys):
    url = refusing_server(status)
    code, stdout, err = simcore(capsys, "run", system, *RUNS[system], "--out", str(tmp_path / "o"),
                                "--no-progress", *_http(url))
    assert code == 3
    assert one_line(err).startswith(f"simcore: error: {url}/chat/completions: HTTP {status} ")
    assert "model answers" not in stdout and not (tmp_path / "o" / "metrics.json").exists()


@pytest.mark.parametrize("system", sorted(RUNS))
def test_nothing_listening_stops_every_system(system, tmp_path, capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}/v1"
    code, stdout, err = simcore(capsys, "run", system, *RUNS[system], "--out", str(tmp_path / "o"),
                                "--no-progress", *_http(url))
    assert code == 3
    assert one_line(err).startswith(f"simcore: error: {url}/chat/completions: connection refused")
    assert not (tmp_path / "o" / "metrics.json").exists()


@pytest.mark.parametrize("arg", ["timeout=nan", "timeout=inf", "timeout=0", "backoff=-1", "backoff=nan",
                                 "max_retries=-1", "max_retries=1000", "max_wait=inf", "max_failures=0",
                                 "max_response_bytes=0", "max_tokens=0", "timeout=soon"])
def test_bad_backend_numbers_are_one_line_before_any_work(arg, refusing_server, tmp_path, capsys):
    url = refusing_server(401)  # any request would show as another error (exit 3)
    code, stdout, err = simcore(capsys, "run", "astra", *RUNS["astra"], "--out", str(tmp_path / "o"),
                                "--backend", "openai-compat-v1", "--backend-arg", f"base_url={url}",
                                "--backend-arg", "model=m", "--backend-arg", arg)
    assert code == 2 and stdout == "" and not (tmp_path / "o").exists()
    assert arg.split("=")[0] in one_line(err), err


# ---------------------------------------------------------------- counted and shown

@pytest.mark.parametrize("system", sorted(RUNS))
def test_model_calls_per_task_in_metrics_and_under_every_table(system, tmp_path, capsys):
    code, stdout, err = simcore(capsys, "run", system, *RUNS[system], "--out", str(tmp_path / "o"),
                                "--no-progress")
    assert code == 0, err
    calls = json.loads((tmp_path / "o" / "metrics.json").read_text())["model_calls"]
    assert calls["by_task"] and calls["asks"] > 0
    for row in calls["by_task"].values():
        assert set(row) == {"asks", "calls", "retries", "first_try", "repaired", "fallbacks", "backend_errors"}
    assert calls["asks"] == sum(r["asks"] for r in calls["by_task"].values())
    metrics = json.loads((tmp_path / "o" / "metrics.json").read_text())
    counted = metrics.get("fallbacks", sum(r.get("fallbacks", 0) for r in metrics["results"].values()))
    assert calls["fallbacks"] == counted
    line = f"model answers: {calls['asks']} asked, {calls['fallbacks']} fell back to the rule"
    assert stdout.count(line) == 1  # once per run, after the tables, not under each
    assert stdout.count("model answers:") == 1


def test_the_fallback_share_fails_the_run_past_the_threshold(tmp_path, capsys):
    """The mock's garbling makes answers unreadable: a third of them, about 10% of asks fall back."""
    args = ["run", "dominance", "--dialogues", "3", "--garble", "0.33", "--no-progress"]
    code, stdout, err = simcore(capsys, *args, "--out", str(tmp_path / "a"))
    calls = json.loads((tmp_path / "a" / "metrics.json").read_text())["model_calls"]
    assert 0.05 < calls["fallback_share"] < 0.5
    assert code == 3 and "above --max-fallback-share 0.05" in one_line(err)
    assert f"{calls['fallback_share']:.2%}" in stdout  # the tables were printed, the outputs written
    code, _, err = simcore(capsys, *args, "--out", str(tmp_path / "b"), "--max-fallback-share", "0.5")
    assert code == 0, err
    for bad in ("nan", "-0.1", "2"):
        code, stdout, err = simcore(capsys, *args, "--out", str(tmp_path / "c"), "--max-fallback-share", bad)
        assert code == 2 and "--max-fallback-share" in err and stdout == ""


def test_a_sweep_fails_past_the_threshold_too(tmp_path, capsys):
    args = ["run", "dominance", "--dialogues", "2", "--garble", "0.33", "--no-progress",
            "--grid", "max_turns=30,40", "--replicates", "1"]
    code, stdout, err = simcore(capsys, *args, "--out", str(tmp_path / "a"))
    assert code == 3 and "above --max-fallback-share 0.05" in one_line(err), err
    assert (tmp_path / "a" / "sweep.json").exists()
    code, _, err = simcore(capsys, *args, "--out", str(tmp_path / "b"), "--max-fallback-share", "0.9")
    assert code == 0, err


# ---------------------------------------------------------------- a sweep stops like a run

class _Switchable(_Refuser):
    """Refuses (HTTP ``status``) until ``status`` is set to 200; then answers every request
    with text no task can read (each ask a counted fallback); counts the requests."""

    requests = 0

    def do_POST(self):
        type(self).requests += 1
        if self.status != 200:
            return super().do_POST()
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = json.dumps({"choices": [{"message": {"role": "assistant", "content": "?"}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.mark.parametrize("workers", ["1", "2"])  # inline executor, process pool
def test_a_fatal_backend_error_stops_the_whole_sweep_and_resume_carries_on(workers, tmp_path, capsys):
    handler = type("Handler", (_Switchable,), {"status": 401, "requests": 0})
    server = LocalServer(handler)
    url = server.url
    try:
        base = ["run", "mind", *SMALLER["mind"], "--no-progress", "--workers", workers, "--out", str(tmp_path / "s"),
                "--grid", "tone_noise=0,0.2", "--replicates", "2", "--max-fallback-share", "1", *_http(url)]
        code, stdout, err = simcore(capsys, *base)
        assert code == 3, err
        plain = simcore(capsys, "run", "mind", *SMALLER["mind"], "--no-progress", "--out", str(tmp_path / "p"),
                        *_http(url))
        assert plain[0] == 3 and one_line(err) == one_line(plain[2])  # the plain run's line
        assert "--resume" in stdout
        lines = (tmp_path / "s" / "sweep.jsonl").read_text().splitlines()
        assert len(lines) == 1 and json.loads(lines[0])["type"] != "run"  # the header only: no run recorded
        assert not (tmp_path / "s" / "sweep.json").exists()
        handler.status = 200  # the server is back
        code, stdout, err = simcore(capsys, *base, "--resume")
        assert code == 0, err
        summary = json.loads((tmp_path / "s" / "sweep.json").read_text())
        assert (summary["runs"], summary["ok"], summary["failed"]) == (4, 4, 0)
    finally:
        server.close()


def test_a_fatal_backend_error_ends_the_process_pools_running_jobs():
    """The other workers' jobs talk to the same failed backend: they are ended, not waited for."""
    import time

    from simcore.errors import BackendFatal
    from simcore.executors import open_executor

    with pytest.raises(BackendFatal):
        with open_executor("process", workers=2) as pool:
            running = [pool.submit(time.sleep, 20) for _ in range(2)]
            processes = list(pool._processes.values())
            while not all(f.running() for f in running):
                time.sleep(0.01)
            raise BackendFatal("the server refused the request")
    deadline = time.monotonic() + 10  # well before the jobs' 20 s sleep would end them (a loaded machine
    while any(p.is_alive() for p in processes) and time.monotonic() < deadline:  # reaps slowly)
        time.sleep(0.05)
    assert processes and not any(p.is_alive() for p in processes)
    assert not any(f.exception() is None for f in running)  # ended, not slept to the end


def _fatal_or_sleep(item):
    import pathlib
    import time

    from simcore.errors import BackendFatal

    index, marker = item
    if index == 0:
        raise BackendFatal("the server refused the request")
    time.sleep(10)
    pathlib.Path(marker, str(index)).write_text("slept to the end")
    return index


def test_a_plain_runs_pool_ends_its_running_jobs_on_a_fatal_backend_error(tmp_path):
    """simcore.runner.map_ordered (a plain run's own process pool) does not wait for the
    other jobs, which would fail on the same backend, to end on their own."""
    from simcore.errors import BackendFatal
    from simcore.runner import map_ordered

    with pytest.raises(BackendFatal):
        map_ordered(_fatal_or_sleep, [(i, str(tmp_path)) for i in range(3)], workers=2, progress=False)
    assert list(tmp_path.iterdir()) == []  # the running job was ended, not slept to the end


def test_a_fatal_backend_error_starts_no_further_job_of_a_thread_pool():
    """--concurrency runs jobs in a thread pool owned by the caller: after the fatal error
    no queued job starts (the one thread may have begun the next job already)."""
    from concurrent.futures import ThreadPoolExecutor

    from simcore.errors import BackendFatal
    from simcore.runner import map_ordered

    ran, release = [], threading.Event()

    def job(i):
        if i == 0:
            raise BackendFatal("the server refused the request")
        ran.append(i)
        release.wait(10)
        return i

    with ThreadPoolExecutor(max_workers=1) as pool:
        with pytest.raises(BackendFatal):
            map_ordered(job, list(range(6)), executor=pool, progress=False)
        release.set()
    assert len(ran) <= 1, ran

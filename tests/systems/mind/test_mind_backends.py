"""Driving the MIND study through other backends from the command line: a cassette that
replays a run byte-identically, and an OpenAI-compatible server on 127.0.0.1."""

import os
import threading
from http.server import ThreadingHTTPServer

from click.testing import CliRunner

from simcore.cli import cli
from tests.core.test_conformance import _MockServer

ARGS = ["run", "mind", "--groups", "3", "--seed", "4", "--variants", "mind,base"]


def _files(out):
    return {name: (out / name).read_bytes() for name in sorted(os.listdir(out))}


def test_record_then_replay_is_byte_identical(tmp_path):
    runner = CliRunner()
    cassette = tmp_path / "run.jsonl"
    res = runner.invoke(cli, ARGS + ["--out", str(tmp_path / "live"), "--record", str(cassette)])
    assert res.exit_code == 0, res.output
    assert cassette.stat().st_size > 0
    res = runner.invoke(cli, ARGS + ["--out", str(tmp_path / "replayed"), "--replay", str(cassette)])
    assert res.exit_code == 0, res.output
    assert _files(tmp_path / "live") == _files(tmp_path / "replayed")
    # a run the cassette never saw stops at its first request instead of inventing answers
    res = runner.invoke(cli, ["run", "mind", "--groups", "1", "--seed", "5", "--variants", "mind",
                              "--out", str(tmp_path / "other"), "--replay", str(cassette)])
    assert "no recorded response for this request ('TASK: " in str(res.exception)
    assert not (tmp_path / "other" / "metrics.json").exists()
    # ... or, asked to, counts the misses as fallbacks
    res = runner.invoke(cli, ["run", "mind", "--groups", "1", "--seed", "5", "--variants", "mind",
                              "--out", str(tmp_path / "other"), "--replay", str(cassette),
                              "--replay-misses", "fallback", "--max-fallback-share", "1"])
    assert res.exit_code == 0, res.output
    import json

    calls = json.loads((tmp_path / "other" / "metrics.json").read_text())["model_calls"]
    assert calls["fallbacks"] > 0 and calls["backend_errors"] == calls["fallbacks"]


def test_the_study_runs_through_an_openai_compatible_server(tmp_path):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _MockServer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/v1"
        res = CliRunner().invoke(cli, ARGS + ["--tone-noise", "0", "--out", str(tmp_path / "http"),
                                              "--backend", "openai-compat-v1", "--backend-arg", f"base_url={url}",
                                              "--backend-arg", "model=mock", "--backend-arg", "max_retries=0"])
        assert res.exit_code == 0, res.output
        res = CliRunner().invoke(cli, ARGS + ["--tone-noise", "0", "--out", str(tmp_path / "exact"),
                                              "--backend", "mock-exact-v1"])
        assert res.exit_code == 0, res.output
    finally:
        server.shutdown()
        server.server_close()
    # the server answers with the exact mock, so both runs are the same negotiation;
    # only metrics["backend"] says which backend answered
    import json

    http, exact = _files(tmp_path / "http"), _files(tmp_path / "exact")
    m_http, m_exact = (json.loads(f.pop("metrics.json")) for f in (http, exact))
    assert http == exact
    assert m_http.pop("backend") == {"id": "openai-compat-v1", "model": "mock"}
    assert m_exact.pop("backend") == {"id": "mock-exact-v1", "model": None}
    assert m_http == m_exact


def test_bad_backend_options_are_one_clear_line():
    runner = CliRunner()
    res = runner.invoke(cli, ["run", "mind", "--backend", "gpt-9-v1"])
    assert res.exit_code != 0 and "valid:" in str(res.exception or res.output)
    res = runner.invoke(cli, ["run", "mind", "--backend", "openai-compat-v1", "--backend-arg", "colour=blue"])
    assert "not an argument of openai-compat-v1" in str(res.exception)
    res = runner.invoke(cli, ["run", "mind", "--record", "x.jsonl", "--workers", "2", "--replicates", "2"])
    assert "a sweep records with --workers 1 only" in str(res.exception)  # a plain run records with any

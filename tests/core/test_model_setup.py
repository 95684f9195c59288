"""Real-model setup as people expect it -- ``--model`` and
``--base-url`` (shortcuts of ``--backend-arg model=`` / ``base_url=``, implying the
OpenAI-compatible backend), ``$OPENAI_BASE_URL`` and ``$OPENAI_API_KEY`` when no
explicit value is given, the model taken from ``GET /models`` when the server lists
exactly one, a warning for a named key variable that is unset, and one clear line
(exit 2, before any work) when the model cannot be settled.  Fake servers only."""

from __future__ import annotations

import json
import socket

import pytest

from clirun import one_line, simcore
from fakeopenai import FakeOpenAI
from mockllm.openai_compat import OpenAICompatBackend
from simcore.errors import BackendError

RUN = ["run", "dominance", "--dialogues", "1", "--agent", "dominant", "--user", "peer", "--no-progress",
       "--max-fallback-share", "1"]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "MY_KEY_VAR"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def fake():
    servers = []

    def make(*models, **kw):
        servers.append(FakeOpenAI(models, **kw))
        return servers[-1]

    yield make
    for server in servers:
        server.close()


def _closed_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}/v1"


def _metrics(out):
    return json.loads((out / "metrics.json").read_text())


def test_model_and_base_url_are_shortcuts_that_pick_the_http_backend(fake, tmp_path, capsys):
    server = fake("listed-model")
    code, _, err = simcore(capsys, *RUN, "--base-url", server.url, "--model", "chosen", "--out", str(tmp_path / "o"),
                           "--record", str(tmp_path / "c.jsonl"))
    assert code == 0, err
    assert server.posts and {p["body"]["model"] for p in server.posts} == {"chosen"}
    assert server.gets == []  # a given model is not looked up
    assert _metrics(tmp_path / "o")["backend"] == {"id": "openai-compat-v1", "model": "chosen"}
    header = json.loads((tmp_path / "c.jsonl").read_text().splitlines()[0])["cassette"]
    assert ["base_url", server.url] in header["backend_args"] and ["model", "chosen"] in header["backend_args"]


def test_the_base_url_and_key_come_from_the_environment(fake, tmp_path, capsys, monkeypatch):
    server = fake("only-model")
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-env")
    code, _, err = simcore(capsys, *RUN, "--backend", "openai-compat-v1", "--model", "m", "--out", str(tmp_path / "o"))
    assert code == 0, err
    assert server.posts and all(p["headers"]["Authorization"] == "Bearer sk-from-the-env" for p in server.posts)


def test_an_explicit_base_url_wins_over_the_environment(fake, tmp_path, capsys, monkeypatch):
    server = fake("m")
    monkeypatch.setenv("OPENAI_BASE_URL", _closed_url())  # would stop the run (nothing listens)
    for how in (["--base-url", server.url], ["--backend", "openai-compat-v1", "--backend-arg", f"base_url={server.url}"]):
        out = tmp_path / f"o{len(how)}"
        code, _, err = simcore(capsys, *RUN, *how, "--model", "m", "--out", str(out))
        assert code == 0, err
    assert len({p["body"]["model"] for p in server.posts}) == 1


def test_the_servers_only_model_is_used(fake, tmp_path, capsys):
    server = fake("SmolLM2-135M-Instruct.Q4_1")
    code, _, err = simcore(capsys, *RUN, "--base-url", server.url, "--out", str(tmp_path / "o"))
    assert code == 0, err
    assert [g["path"] for g in server.gets] == ["/v1/models"]
    assert {p["body"]["model"] for p in server.posts} == {"SmolLM2-135M-Instruct.Q4_1"}
    assert _metrics(tmp_path / "o")["backend"]["model"] == "SmolLM2-135M-Instruct.Q4_1"
    assert "'SmolLM2-135M-Instruct.Q4_1'" in err and "/v1/models" in err


def test_several_models_are_listed_with_a_request_for_model(fake, tmp_path, capsys):
    server = fake("alpha", "beta")
    code, out, err = simcore(capsys, *RUN, "--base-url", server.url, "--out", str(tmp_path / "o"))
    line = one_line(err)
    assert code == 2 and out == "" and not (tmp_path / "o").exists() and server.posts == []
    assert line.startswith("simcore: error: --model: ") and "alpha, beta" in line and "--model NAME" in line


@pytest.mark.parametrize("how", ["none", "refused", "status", "nothing-listens"])
def test_no_model_to_be_had_is_one_clear_line(how, fake, tmp_path, capsys):
    if how == "nothing-listens":
        url = _closed_url()
    else:
        url = (fake() if how == "none" else fake("m", models_status=404 if how == "status" else 401)).url
    code, out, err = simcore(capsys, *RUN, "--backend", "openai-compat-v1", "--backend-arg", f"base_url={url}",
                             "--out", str(tmp_path / "o"))
    line = one_line(err)
    assert code == 2 and out == "" and not (tmp_path / "o").exists()
    assert line.startswith("simcore: error: --model: not given") and "pass --model NAME" in line, line
    assert "positional argument" not in line


def test_no_base_url_at_all_is_one_clear_line(tmp_path, capsys):
    code, _, err = simcore(capsys, *RUN, "--model", "m", "--out", str(tmp_path / "o"))
    line = one_line(err)
    assert code == 2 and "--base-url" in line and "OPENAI_BASE_URL" in line and not (tmp_path / "o").exists()


def test_a_named_key_variable_that_is_unset_is_warned_about(fake, tmp_path, capsys):
    server = fake("m")
    code, _, err = simcore(capsys, *RUN, "--base-url", server.url, "--backend-arg", "api_key_env=MY_KEY_VAR",
                           "--out", str(tmp_path / "o"))
    assert code == 0, err
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "$MY_KEY_VAR is not set" in warnings[0]
    assert all("Authorization" not in p["headers"] for p in server.posts)


def test_the_default_key_variable_unset_is_no_warning(fake, tmp_path, capsys):
    server = fake("m")
    code, _, err = simcore(capsys, *RUN, "--base-url", server.url, "--model", "m", "--out", str(tmp_path / "o"))
    assert code == 0 and "warning" not in err


@pytest.mark.parametrize("argv, needle", [
    (["--backend", "mock-v1", "--model", "m"], "applies to the OpenAI-compatible backend"),
    (["--backend", "mock-v1", "--base-url", "http://127.0.0.1:9/v1"], "applies to the OpenAI-compatible backend"),
    (["--base-url", "http://127.0.0.1:9/v1", "--model", "a", "--backend-arg", "model=b"], "conflicts with"),
    (["--base-url", "ftp://x", "--model", "a"], "http://"),
    (["--model", ""], "empty"),
])
def test_bad_shortcuts_are_one_line(argv, needle, tmp_path, capsys):
    code, out, err = simcore(capsys, *RUN, *argv, "--out", str(tmp_path / "o"))
    assert code == 2 and out == "" and needle in one_line(err), err


def test_a_bad_base_url_in_the_environment_is_named(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", "localhost:8000")
    code, _, err = simcore(capsys, *RUN, "--model", "m", "--backend", "openai-compat-v1", "--out", str(tmp_path / "o"))
    assert code == 2 and one_line(err).startswith("simcore: error: $OPENAI_BASE_URL: localhost:8000: ")


def test_from_python_the_environment_gives_the_base_url_and_a_missing_model_is_clear(monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    assert OpenAICompatBackend(model="m").base_url == "http://127.0.0.1:9/v1"
    with pytest.raises(BackendError, match="no model given"):
        OpenAICompatBackend()
    monkeypatch.delenv("OPENAI_BASE_URL")
    with pytest.raises(BackendError, match="OPENAI_BASE_URL"):
        OpenAICompatBackend(model="m")


def test_a_short_key_is_warned_about_since_it_is_redacted_from_every_answer(fake, tmp_path, capsys, monkeypatch):
    server = fake("m")
    monkeypatch.setenv("OPENAI_API_KEY", "abc")
    code, _, err = simcore(capsys, *RUN, "--base-url", server.url, "--model", "m", "--out", str(tmp_path / "o"))
    assert code == 0, err
    assert "warning: the API key in $OPENAI_API_KEY is only 3 characters long" in err
    monkeypatch.setenv("OPENAI_API_KEY", "sk-a-real-looking-key")
    code, _, err = simcore(capsys, *RUN, "--base-url", server.url, "--model", "m", "--out", str(tmp_path / "p"))
    assert code == 0 and "warning" not in err


def test_a_key_with_a_space_is_one_line_before_any_work(fake, tmp_path, capsys, monkeypatch):
    server = fake("m")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-abc def-ghi")
    code, _, err = simcore(capsys, *RUN, "--base-url", server.url, "--model", "m", "--out", str(tmp_path / "o"))
    line = one_line(err)
    assert code == 2 and line.startswith("simcore: error: $OPENAI_API_KEY: ") and "abc" not in line
    assert server.posts == [] and not (tmp_path / "o").exists()


def test_the_shortcuts_record_the_same_cassette_as_the_backend_args(fake, tmp_path, capsys):
    server = fake("m")
    long = ["--backend", "openai-compat-v1", "--backend-arg", f"base_url={server.url}", "--backend-arg", "model=m",
            "--backend-arg", "tries=3"]
    short = ["--backend-arg", "tries=3", "--model", "m", "--base-url", server.url]
    for name, how in (("long", long), ("short", short), ("found", short[:2] + short[4:])):
        code, _, err = simcore(capsys, *RUN, *how, "--out", str(tmp_path / name), "--record", str(tmp_path / f"{name}.jsonl"))
        assert code == 0, err
    assert (tmp_path / "long.jsonl").read_bytes() == (tmp_path / "short.jsonl").read_bytes() \
        == (tmp_path / "found.jsonl").read_bytes()
    assert (tmp_path / "long" / "metrics.json").read_bytes() == (tmp_path / "short" / "metrics.json").read_bytes()

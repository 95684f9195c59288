"""Every registered policy and backend passes simcore's conformance checks."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from mockllm.backend import Message
from mockllm.mock import MockBackend
from simcore.registry import make, registered, resolve
from simcore.testing import ConformanceError, check_backend, check_policy
from localserver import send_body


@pytest.mark.parametrize("policy_id", registered("policy"))
def test_policy_conformance(policy_id):
    assert check_policy(policy_id) > 0


@pytest.mark.parametrize("backend_id", [b for b in registered("backend")
                                        if not {"network", "fault_injection"} & set(resolve("backend", b).meta)])
def test_local_backend_conformance(backend_id):
    backend = make("backend", backend_id)
    assert check_backend(backend, exact=backend_id == "mock-exact-v1", name=backend_id) > 0


def test_the_conformance_check_catches_the_fault_injecting_backend():
    with pytest.raises(ConformanceError):
        check_backend(make("backend", "adversarial-v1", share=1.0), name="adversarial-v1")


class _MockServer(BaseHTTPRequestHandler):
    """An OpenAI-compatible endpoint on 127.0.0.1 answering with the mock backend."""

    mock = MockBackend(exact=True)

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        msgs = [Message(m["role"], m["content"]) for m in body["messages"]]
        try:
            text = self.mock.chat(msgs, temperature=body.get("temperature", 0.0), seed=body.get("seed"))
        except Exception as exc:  # unrecognised prompt -> a 400, as a real server would refuse
            self.send_response(400)
            self.end_headers()
            self.wfile.write(str(exc).encode())
            return
        send_body(self, json.dumps({"choices": [{"message": {"role": "assistant", "content": text}}]}).encode())

    def log_message(self, *args):
        pass


def test_http_backend_conformance_against_a_local_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _MockServer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        backend = make("backend", "openai-compat-v1", base_url=f"http://127.0.0.1:{server.server_port}/v1",
                       model="mock", timeout=5, max_retries=0)
        assert check_backend(backend, exact=True, name="openai-compat-v1", examples_per_task=2) > 0
    finally:
        server.shutdown()
        server.server_close()


def test_a_backend_that_breaks_the_round_trip_fails_conformance():
    class Liar(MockBackend):
        def chat(self, messages, *, temperature=0.0, seed=None):
            text = super().chat(messages, temperature=temperature, seed=seed)
            if '"willingness": ' not in text:
                return text
            data = json.loads(text)
            data["willingness"] = (data["willingness"] or 0) % 10 + 1  # misreads every level
            return json.dumps(data)

    with pytest.raises(ConformanceError):
        check_backend(Liar(exact=True), exact=True, name="liar", examples_per_task=10)


def test_registry_lists_every_system_and_rejects_unknown_ids():
    from simcore.errors import UnknownIdError

    assert {"mind-v1", "base-v1", "tone-only-v1", "appraisal-only-v1"} <= set(registered("policy"))
    assert make("policy", "mind").name == "mind"  # bare name -> latest version
    with pytest.raises(UnknownIdError, match="valid: .*mind-v1"):
        make("policy", "mind-v7")

"""A fake OpenAI-compatible server on 127.0.0.1 for the command-line tests of the HTTP
backend: ``POST /v1/chat/completions`` answers with the mock backend's answer (so runs
are quick and mostly parse), ``GET /v1/models`` lists the models it is given.

With ``echo_key`` it behaves like a server that echoes the Authorization header into
its answers: every answer carries the header's value, and one first try in three is
nothing but that echo (refused, so the repair prompt quotes it back).  ``answer(text,
body)`` rewrites each answer (``body``: the request); the response is JSON as Python
writes it, so a lone surrogate in the text goes out as the escape ``"\\ud800"``.  With
``finish_reason`` every answer says it (``"length"``: cut off at its token budget).  With
``fail_after=N`` it answers the first N chat requests and then fails every one with HTTP
500 (a server that went down mid-run)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler

from localserver import LocalServer


def _completion(content: str, finish_reason: str | None = None) -> bytes:
    choice = {"index": 0, "message": {"role": "assistant", "content": content}}
    if finish_reason is not None:
        choice["finish_reason"] = finish_reason
    return json.dumps({"id": "x", "object": "chat.completion", "choices": [choice]}).encode()


class FakeOpenAI:
    def __init__(self, models=("fake-model",), *, echo_key: bool = False, models_status: int = 200,
                 answer=None, finish_reason: str | None = None, port: int = 0, fail_after: int | None = None):
        from mockllm.backend import Message
        from mockllm.mock import MockBackend
        from simcore.errors import UnrecognisedPrompt

        fake, rewrite = self, answer
        self.models = list(models)
        self.posts: list[dict] = []  # {"headers", "body"} of each chat request
        self.gets: list[dict] = []
        self.lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _send(self, status: int, data: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                with fake.lock:
                    fake.gets.append({"path": self.path, "headers": dict(self.headers)})
                if not self.path.endswith("/models"):
                    return self._send(404, b'{"error": "not found"}')
                if models_status != 200:
                    return self._send(models_status, b'{"error": "no"}')
                self._send(200, json.dumps({"object": "list", "data": [{"id": m, "object": "model"}
                                                                       for m in fake.models]}).encode())

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                with fake.lock:
                    fake.posts.append({"headers": dict(self.headers), "body": body})
                    down = fail_after is not None and len(fake.posts) > fail_after
                if down:  # a server that went down: every later request fails
                    return self._send(500, b'{"error": {"message": "down"}}')
                msgs = [Message(m["role"], m["content"]) for m in body["messages"]]
                try:
                    answer = MockBackend().chat(msgs, temperature=body["temperature"], seed=body.get("seed"))
                except UnrecognisedPrompt:  # a test's own prompt
                    answer = "word"
                if echo_key:
                    auth = self.headers.get("Authorization", "(none)")
                    if len(msgs) == 2 and body.get("seed", 0) % 3 == 0:
                        answer = f"Sorry, I only see your header: {auth}"
                    elif not answer.lstrip().startswith(("{", "[")):
                        answer = f"{answer} ({auth})"
                if rewrite is not None:
                    answer = rewrite(answer, body)
                self._send(200, _completion(answer, finish_reason))

            def log_message(self, *args):
                pass

        self.local = LocalServer(Handler, port=port)
        self.url = self.local.url

    def close(self) -> None:
        self.local.close()

"""An HTTP server on 127.0.0.1 for tests that talk to a backend over the network."""

from __future__ import annotations

import sys
import threading
from http.server import ThreadingHTTPServer


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # a client that went away mid-answer (a worker process ended by a fatal backend
        # error, a timed-out call) is expected here; anything else is printed as usual
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def send_body(handler, data: bytes, status: int = 200, content_type: str = "application/json") -> None:
    """Answer ``handler``'s request with ``data`` (status, type and length headers)."""
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


class LocalServer:
    """Serves ``handler`` on ``port`` (by default a free one) of 127.0.0.1 in a daemon thread;
    ``url`` is the base URL a backend is given (``path`` appended)."""

    def __init__(self, handler, path: str = "/v1", port: int = 0):
        self.server = _Server(("127.0.0.1", port), handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{path}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)

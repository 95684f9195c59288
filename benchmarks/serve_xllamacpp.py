"""Serve a GGUF model over the OpenAI chat-completions API with the prebuilt ``xllamacpp``
wheel (llama.cpp's own HTTP server, no compiler needed), until interrupted.

    pip install xllamacpp
    python benchmarks/serve_xllamacpp.py MODEL.gguf --port 8765 [--alias NAME] [--ctx 4096]

The model id the server reports (``GET /v1/models``) is ``--alias`` (default: the file name
without ``.gguf``), so ``simcore run ... --base-url http://127.0.0.1:8765/v1`` finds it
without ``--model``.  docs/users/real-models.md has the recipe and its measurements.
"""

from __future__ import annotations

import argparse
import os
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model", help="a GGUF file")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--alias", default=None, help="the model id to report (default: the file's stem)")
    ap.add_argument("--ctx", type=int, default=4096, help="context size in tokens")
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    if not os.path.isfile(a.model):
        ap.error(f"{a.model}: no such file")
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = a.model
    params.hostnames = [a.host]
    params.port = a.port
    params.n_ctx = a.ctx
    params.n_parallel = 1
    params.cpuparams.n_threads = a.threads
    params.model_alias = {a.alias or os.path.basename(a.model).removesuffix(".gguf")}
    server = xllamacpp.Server(params)  # serves from its own threads while it lives
    print(f"serving {a.model} on http://{a.host}:{a.port}/v1", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        del server


if __name__ == "__main__":
    main()

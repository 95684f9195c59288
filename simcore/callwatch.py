"""What a run shows and logs about its model calls while it runs (never in results).

A :class:`CallWatch` is the :mod:`mockllm.calllog` observer of a study run: after
every model call it redraws the progress line (task, latency, parse result, calls so
far; the bar's ETA comes from finished jobs), writes one JSON line to the
``--log-calls`` file, and adds the latency to a per-task tally that
:meth:`CallWatch.summary` prints on standard error at the end.  Latency is wall-clock
time, so it goes only to these places: ``metrics.json``, transcripts and cassettes
stay byte-identical between runs and replays.

A ``--log-calls`` line is one request sent to the backend: ``{"task", "attempt" (1 = first
try)[, "request"], "latency_s", "result" ("ok", "parse_error", "timeout" or
"backend_error"), "prompt_chars", "answer_chars"[, "problem"][, "finish_reason"][,
"prompt_tokens", "completion_tokens", "total_tokens"]}`` (the last ones as an HTTP server
reported them), in the order the requests finished (with ``--concurrency`` that order
varies between runs).  A try that the HTTP backend retried itself (a timeout, a dropped
connection, HTTP 429 or 5xx) is one line per request, numbered by ``request`` (1, 2, ...),
each with its own duration and outcome: the timeout, then the retry that answered.  The
summary gives the run's own token rate when the server reported token counts.
"""

from __future__ import annotations

import json
from typing import IO

from simcore.progress import Progress


class CallWatch:
    def __init__(self, bar: Progress | None = None, log: IO[str] | None = None):
        self.bar = bar
        self.log = log
        self.calls = 0
        self.tally: dict[str, list] = {}  # task -> [calls, ok, latency sum]
        self.tokens = [0, 0, 0.0]  # completion tokens, prompt tokens, latency of the calls that counted them
        self.truncated = 0  # answers cut off at their token budget (finish_reason "length")

    def __call__(self, event: dict) -> None:
        """One model call (called by :func:`mockllm.calllog.report`, one at a time)."""
        self.calls += 1
        row = self.tally.setdefault(event["task"], [0, 0, 0.0])
        row[0] += 1
        row[1] += event["result"] == "ok"
        row[2] += event["latency_s"]
        if isinstance(event.get("completion_tokens"), int):
            self.tokens[0] += event["completion_tokens"]
            self.tokens[1] += event.get("prompt_tokens") or 0
            self.tokens[2] += event["latency_s"]
        self.truncated += event.get("finish_reason") == "length"
        if self.log is not None:
            self.log.write(json.dumps(event, ensure_ascii=False) + "\n")
            self.log.flush()
        if self.bar is not None:
            attempt = f" try {event['attempt']}" if event["attempt"] > 1 else ""
            if event.get("request", 1) > 1:
                attempt += f" request {event['request']}"
            self.bar.note(f"call {self.calls}: {event['task']}{attempt} {event['latency_s']:.2f}s "
                          f"{event['result']}")

    def summary(self) -> str:
        """Per task: calls (requests), accepted answers, mean latency (for standard error)."""
        if not self.calls:
            return "model calls: none"
        parts = [f"{task} {n} calls, {ok} accepted, mean {total / n:.2f}s"
                 for task, (n, ok, total) in sorted(self.tally.items())]
        out = "model call latency (wall clock, not in metrics.json): " + "; ".join(parts)
        if self.tokens[2] > 0:
            out += (f"; tokens: {self.tokens[1]} prompt, {self.tokens[0]} completion, "
                    f"{self.tokens[0] / self.tokens[2]:.1f} completion tokens/s over the calls' wall time")
        if self.truncated:
            out += f"; {self.truncated} answer(s) cut off at their token budget (finish_reason 'length')"
        return out

"""Generation speed of an OpenAI-compatible server: a few direct chat requests, each
timed; prints completion_tokens / seconds per request and over all.

    python benchmarks/server_tokens_per_second.py --base-url http://127.0.0.1:8765/v1 \
        --model SmolLM2-135M-Instruct.Q4_1 --requests 4 --max-tokens 200

The time includes reading the prompt (short here), so it is a slight underestimate of
pure generation speed.  Standard library only; results go to
docs/users/real-models.md (wall-clock figures are never asserted in tests).
"""

from __future__ import annotations

import argparse
import json
import time
import urllib.request

PROMPTS = (
    "Write a short story about a harbour town that builds a sport park.",
    "Explain, in a few paragraphs, how two people can split 3 food, 3 water and 3 firewood fairly.",
    "Describe a dinner with friends at a small restaurant, in detail.",
    "List reasons a traveller might prefer a cheap hotel to a luxurious one, and explain each.",
)


def one(base_url: str, model: str, prompt: str, max_tokens: int) -> tuple[int, int, float]:
    body = json.dumps({"model": model, "messages": [{"role": "user", "content": prompt}],
                       "max_tokens": max_tokens, "temperature": 0}).encode()
    req = urllib.request.Request(base_url.rstrip("/") + "/chat/completions", data=body,
                                 headers={"Content-Type": "application/json"})
    start = time.perf_counter()
    with urllib.request.urlopen(req, timeout=600) as resp:
        data = json.load(resp)
    elapsed = time.perf_counter() - start
    usage = data.get("usage") or {}
    return int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0)), elapsed


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--model", default="model")
    ap.add_argument("--requests", type=int, default=4)
    ap.add_argument("--max-tokens", type=int, default=200)
    args = ap.parse_args(argv)
    total_tokens, total_time = 0, 0.0
    for i in range(args.requests):
        prompt_tokens, tokens, secs = one(args.base_url, args.model, PROMPTS[i % len(PROMPTS)], args.max_tokens)
        total_tokens += tokens
        total_time += secs
        print(f"request {i + 1}: prompt {prompt_tokens} tokens, completion {tokens} tokens in {secs:.2f} s"
              f" = {tokens / secs:.1f} tokens/s")
    print(f"all: {total_tokens} completion tokens in {total_time:.2f} s = {total_tokens / total_time:.1f} tokens/s")


if __name__ == "__main__":
    main()

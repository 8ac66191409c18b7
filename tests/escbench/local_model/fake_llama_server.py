#!/usr/bin/env python3
"""Stand-in for llama-server in unit tests: same flags, /health, and an OpenAI chat endpoint.

Behaviour switches through env FAKE_SERVER_MODE:
  ok        serve /health and /v1/chat/completions (answers a valid escalation decision)
  exit      exit with code 3 at once (startup failure)
  hang      never answer /health (stays alive: health timeout)
  slowload  answer 503 on /health for 1 s, then ok
  child     like ok, but also spawn a sleeping child in the same process group
  stubborn  like ok, but ignore SIGTERM (must be SIGKILLed)
  reject    like ok, but answer chat completions with HTTP 500 (a provider rejecting the schema)
  slowchat  like ok, but take 60 s per chat completion (to interrupt a run)
  clash     first start fails like a port taken by someone else, later starts are ok
FAKE_SERVER_PIDFILE, when set, receives "<pid> [<child pid>]".
FAKE_SERVER_CHAT_DELAY, when set, delays every chat completion by that many seconds (float).
FAKE_SERVER_REQUEST_LOG, when set, gets one line per chat completion request with a user message, on
arrival: the sha256 of its last user message (which tells the samples apart).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODE = os.environ.get("FAKE_SERVER_MODE", "ok")
START = time.monotonic()
DECISION = {"action": "escalate", "confidence": 0.7, "reason": "Red-flag symptom reported."}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--api-key", default="")
    parser.add_argument("--alias", default="fake")
    args, _ = parser.parse_known_args()
    marker = os.environ.get("FAKE_SERVER_PIDFILE", "/nonexistent") + ".clash"
    if MODE == "clash" and not os.path.exists(marker):
        open(marker, "w").close()
        print(f"srv  start: couldn't bind HTTP server socket, port: {args.port}", flush=True)
        sys.exit(1)
    if MODE == "exit":
        print("fake: cannot load model", flush=True)
        sys.exit(3)
    pids = [str(os.getpid())]
    if MODE == "child":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        pids.append(str(child.pid))
    if MODE == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if os.environ.get("FAKE_SERVER_PIDFILE"):
        # written whole under another name, then renamed: a test that polls for the file never reads
        # it empty (CI once read it between open() and write())
        pidfile = os.environ["FAKE_SERVER_PIDFILE"]
        with open(pidfile + ".part", "w") as f:
            f.write(" ".join(pids))
        os.replace(pidfile + ".part", pidfile)

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a: object) -> None:
            pass

        def _send(self, code: int, body: dict) -> None:
            data = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path == "/health":
                if MODE == "hang":
                    time.sleep(30)
                if MODE == "slowload" and time.monotonic() - START < 1.0:
                    self._send(503, {"error": {"message": "Loading model"}})
                else:
                    self._send(200, {"status": "ok"})
            else:
                self._send(404, {})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            request = json.loads(self.rfile.read(length) or b"{}")
            if self.headers.get("Authorization") != f"Bearer {args.api_key}":
                self._send(401, {"error": {"message": "Invalid API Key"}})
                return
            users = [m for m in request.get("messages", []) if m.get("role") == "user"]
            if os.environ.get("FAKE_SERVER_REQUEST_LOG") and users:  # (a bodiless POST has none)
                text = json.dumps(users[-1]["content"])
                with open(os.environ["FAKE_SERVER_REQUEST_LOG"], "a") as f:
                    f.write(hashlib.sha256(text.encode()).hexdigest() + "\n")
            if MODE == "slowchat":
                time.sleep(60)
            time.sleep(float(os.environ.get("FAKE_SERVER_CHAT_DELAY", "0")))
            if MODE == "reject":
                self._send(500, {"error": {"message": "response_format not supported"}})
                return
            self._send(
                200,
                {
                    "id": "chatcmpl-fake",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": request.get("model", args.alias),
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "stop",
                            "message": {"role": "assistant", "content": json.dumps(DECISION)},
                        }
                    ],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
                },
            )

    ThreadingHTTPServer((args.host, args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()

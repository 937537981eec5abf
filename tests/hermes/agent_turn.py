"""One full Hermes AIAgent turn against a scripted fake model on loopback.

Run as a child process with HERMES_HOME set (Hermes fixes some paths at import).
The fake model answers the first request with a ``hermes_memory`` recall tool call
and the second with plain text; the script prints every request it received.
"""

from __future__ import annotations

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REQUESTS: list[dict] = []


def _reply(body: dict) -> dict:
    seen_tool = any(m.get("role") == "tool" for m in body.get("messages", []))
    if not seen_tool:
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {
                        "name": "hermes_memory",
                        "arguments": json.dumps(
                            {"action": "recall", "content": "billing database", "limit": 3}
                        ),
                    },
                }
            ],
        }
        finish = "tool_calls"
    else:
        message = {"role": "assistant", "content": "Billing runs on PostgreSQL 16."}
        finish = "stop"
    return {
        "id": f"chatcmpl-{len(REQUESTS)}",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", "fake"),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def _chunks(full: dict) -> list[dict]:
    msg = full["choices"][0]["message"]
    delta: dict = {"role": "assistant"}
    if msg.get("content"):
        delta["content"] = msg["content"]
    if msg.get("tool_calls"):
        delta["tool_calls"] = [{**tc, "index": i} for i, tc in enumerate(msg["tool_calls"])]
    base = {k: full[k] for k in ("id", "created", "model")} | {"object": "chat.completion.chunk"}
    return [
        base | {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        base
        | {
            "choices": [
                {"index": 0, "delta": {}, "finish_reason": full["choices"][0]["finish_reason"]}
            ],
            "usage": full["usage"],
        },
    ]


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        data = json.dumps({"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
        self._send(200, data.encode(), "application/json")

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        REQUESTS.append(body)
        full = _reply(body)
        if body.get("stream"):
            payload = "".join(f"data: {json.dumps(c)}\n\n" for c in _chunks(full))
            self._send(200, (payload + "data: [DONE]\n\n").encode(), "text/event-stream")
        else:
            self._send(200, json.dumps(full).encode(), "application/json")

    def _send(self, code: int, data: bytes, ctype: str) -> None:
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    from run_agent import AIAgent

    agent = AIAgent(
        base_url=f"http://127.0.0.1:{server.server_address[1]}/v1",
        api_key="test-key",
        provider="custom",
        model="fake-model",
        quiet_mode=True,
        skip_context_files=True,
        max_iterations=4,
        tool_delay=0,
        session_id="turn-test",
    )
    result = agent.run_conversation(sys.argv[1])
    final = result.get("final_response") if isinstance(result, dict) else result
    if getattr(agent, "_memory_manager", None) is not None:
        agent._memory_manager.shutdown_all()
    server.shutdown()
    print(json.dumps({"final": final, "requests": REQUESTS}))


if __name__ == "__main__":
    main()

"""A deterministic generator of a long-lived agent's memories, for the scale benchmark.

Facts and conversation turns about a few thousand people, projects, tools and places,
spread over two years: entities recur, relations between them are stated in many
ways, and the wording varies enough that near-identical texts are rare (as in a real
profile, where the consolidate job merges the few that are).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

FIRST = (
    "Alice Bob Carol Dmitri Elena Farid Grace Hiro Ines Jonas Kavya Liam Mei Nadia Omar "
    "Priya Quinn Rosa Sven Tomas Uma Victor Wen Ximena Yusuf Zoe Amara Bruno Chloe Diego "
    "Esther Felix Greta Hugo Ivy Jamal Kenji Lena Marco Nora Oscar Paula Rafael Sana Theo "
    "Ursula Vera Willem Yara Zane"
).split()
LAST = (
    "Okafor Schmidt Tanaka Rossi Novak Haddad Larsen Costa Dubois Kowalski Moreau Singh "
    "Silva Jensen Petrov Nakamura Fischer Garcia Ibrahim Lindqvist Murphy Otieno Park "
    "Quispe Reyes Sato Tran Varga Weber Zhou"
).split()
TOOLS = (
    "PostgreSQL MySQL Redis Kafka Kubernetes Terraform Grafana Prometheus Nginx Django "
    "FastAPI React Rust Go Python SQLite LanceDB Elasticsearch RabbitMQ Celery Airflow "
    "Spark Docker Vault Ansible Jenkins GitLab Sentry ClickHouse DuckDB Flutter Svelte"
).split()
AREAS = (
    "billing orders search auth payments analytics ingest gateway notifications reporting "
    "inventory checkout onboarding scheduler pricing shipping invoicing ledger catalog "
    "recommendations fraud support identity exports"
).split()
PLACES = (
    "Lisbon Berlin Osaka Nairobi Toronto Lyon Krakow Seoul Austin Porto Oslo Madrid "
    "Dublin Tallinn Valencia Kyoto Accra Montreal Bergen Utrecht"
).split()
HOBBIES = (
    "climbing pottery chess sailing running baking cycling photography gardening "
    "painting surfing birdwatching"
).split()
MONTHS = (
    "January February March April May June July August September October November December"
).split()


class Generator:
    """``records(n)`` yields ``n`` JSONL-ready dicts: about 60% facts, 40% turns."""

    def __init__(self, seed: int, *, start: float, days: float = 730.0) -> None:
        self.rng = random.Random(seed)
        self.start = start
        self.span = days * 86_400
        names = [f"{f} {last}" for f in FIRST for last in LAST]
        self.rng.shuffle(names)
        self.people = names[:1200]
        self.projects = [f"{a}-{t.lower()}" for a in AREAS for t in TOOLS[:12]]

    def _when(self, i: int, n: int) -> float:
        """Mostly in order over the span, with some jitter (late writes happen)."""
        base = self.start + self.span * i / max(n, 1)
        return base + self.rng.uniform(-3, 3) * 86_400

    def _date(self) -> str:
        r = self.rng
        return f"{r.randint(1, 28)} {r.choice(MONTHS)} {r.choice([2025, 2026])}"

    def fact(self) -> dict[str, Any]:
        r = self.rng
        p, q = r.sample(self.people, 2)
        proj, tool, place = r.choice(self.projects), r.choice(TOOLS), r.choice(PLACES)
        text = r.choice(
            [
                f"{p} owns the {proj} service and reviews its releases",
                f"{p} works with {q} on {proj}",
                f"The {proj} service stores its data in {tool} since {self._date()}",
                f"{p} moved to {place} in {r.choice(MONTHS)} {r.choice([2025, 2026])}",
                f"{p} prefers {r.choice(['short', 'detailed', 'written', 'spoken'])} "
                f"updates about {proj}",
                f"{p} is allergic to {r.choice(['peanuts', 'shellfish', 'pollen', 'cats'])}",
                f"{p} spends weekends on {r.choice(HOBBIES)} near {place}",
                f"We decided to migrate {proj} from {tool} to {r.choice(TOOLS)} "
                f"before {self._date()}",
                f"{p} reports to {q} and leads the {proj} on-call rota",
                f"The {proj} p95 latency budget is {r.randint(20, 900)} ms",
                f"{p}'s birthday is on {self._date()[:-5]}",
                f"{p} and {q} met at the {place} offsite",
            ]
        )
        return {
            "type": "fact",
            "content": text,
            "category": r.choice(["general", "project", "preference", "user", "decision"]),
            "importance": round(r.random(), 2),
        }

    def turn(self, session: int, number: int) -> dict[str, Any]:
        r = self.rng
        p = r.choice(self.people)
        proj, tool = r.choice(self.projects), r.choice(TOOLS)
        text = r.choice(
            [
                f"Can you check why the {proj} deploy failed last night?",
                f"I talked to {p} about {proj}; they want to try {tool} next sprint.",
                f"The {tool} cluster for {proj} ran out of disk again this morning.",
                f"Remind me to send {p} the {proj} numbers on {r.choice(MONTHS)} "
                f"{r.randint(1, 28)}.",
                f"I'm back from {r.choice(PLACES)}; {p} says hi.",
                f"Let's keep {proj} on {tool} until the {r.choice(AREAS)} migration is done.",
                f"{p} found a bug in {proj}: requests over {r.randint(2, 64)} MB time out.",
                f"I started {r.choice(HOBBIES)} lessons with {p}, it is great fun.",
                f"Summarise what we know about the {proj} incident from {self._date()}.",
            ]
        )
        return {
            "type": "turn",
            "speaker": r.choice(["user", "assistant"]) if number % 2 else "user",
            "text": text,
            "session_id": f"chat-{session}",
            "message_id": f"m{session}-{number}",
        }

    def records(self, n: int) -> Iterator[dict[str, Any]]:
        session, number = 0, 0
        for i in range(n):
            if self.rng.random() < 0.4:
                if number >= self.rng.randint(6, 30):
                    session, number = session + 1, 0
                rec = self.turn(session, number)
                rec["timestamp"] = self._when(i, n)
                number += 1
            else:
                rec = self.fact()
                rec["valid_at"] = self._when(i, n)
            yield rec

    def queries(self, n: int) -> list[str]:
        """Distinct questions an agent would ask of such a profile."""
        r = random.Random(self.rng.random())
        seen: dict[str, None] = {}
        while len(seen) < n:
            seen.setdefault(self.question(r), None)
        return list(seen)

    def question(self, r: random.Random) -> str:
        """One question an agent would ask of such a profile."""
        p, proj = r.choice(self.people), r.choice(self.projects)
        return r.choice(
            [
                f"who owns {proj}",
                f"what does {p} prefer",
                f"where does {p} live now",
                f"which database does {proj} use",
                f"what did we decide about {proj}",
                f"who does {p} work with",
                f"when is {p}'s birthday",
                f"latency budget of {proj}",
                f"what happened in the {proj} incident",
                f"what does {p} do on weekends",
            ]
        )


# -- the agent shape: one person and an assistant working on a project, in long turns ----------
_FUNCS = "load parse validate retry flush render migrate index sync compact".split()
_ERRORS = (
    "TimeoutError: read timed out after 30s",
    "KeyError: 'tenant_id'",
    "sqlite3.OperationalError: database is locked",
    "ConnectionResetError: [Errno 104] Connection reset by peer",
    "ValueError: invalid literal for int() with base 10: ''",
    "MemoryError: cannot allocate 512 MiB",
)


class AgentGenerator(Generator):
    """``records(n)``: turns only, alternating user and assistant in sessions of 20-60,
    user turns of a few hundred characters (requests, instructions, decisions, logs),
    assistant answers of one to four thousand (explanations and code)."""

    def _code(self, proj: str) -> str:
        r = self.rng
        name = f"{r.choice(_FUNCS)}_{proj.split('-')[0]}"
        body = "\n".join(
            f"    {r.choice(['result', 'rows', 'batch', 'cfg'])}_{k} = "
            f"{r.choice(_FUNCS)}({r.choice(['conn', 'path', 'items', 'limit'])}, "
            f"retries={r.randint(1, 9)})"
            for k in range(r.randint(4, 14))
        )
        return f"```python\ndef {name}(conn, limit={r.randint(10, 500)}):\n{body}\n```"

    def _log(self) -> str:
        r = self.rng
        lines = [
            f"2025-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T{r.randint(0, 23):02d}:"
            f"{r.randint(0, 59):02d}:00Z {r.choice(['INFO', 'WARN', 'ERROR'])} "
            f"{r.choice(self.projects)} {r.choice(_ERRORS)}"
            for _ in range(r.randint(2, 8))
        ]
        return "```\n" + "\n".join(lines) + "\n```"

    def user_turn(self) -> str:
        r = self.rng
        p, proj, tool = r.choice(self.people), r.choice(self.projects), r.choice(TOOLS)
        ask = r.choice(
            [
                f"The {proj} job failed again last night with this log:\n{self._log()}\n"
                f"Can you tell me what is going on and how to fix it?",
                f"From now on, always add type hints and a docstring when you write code for "
                f"{proj}; {p} reviews it and insists on that.",
                f"I prefer {tool} over {r.choice(TOOLS)} for {proj} because our team already "
                f"runs it in production. Please keep suggestions in line with that.",
                f"We decided to move {proj} from {tool} to {r.choice(TOOLS)} before "
                f"{self._date()}. Can you draft the migration steps?",
                f"Here is my current implementation of the {proj} loader:\n{self._code(proj)}\n"
                f"It takes {r.randint(2, 90)} seconds for {r.randint(1, 50)}k rows. Why so slow?",
                f"{p} asked me to set the {proj} latency budget to {r.randint(20, 900)} ms. "
                f"What do we need to change in {tool} to get there?",
            ]
        )
        return ask

    def assistant_turn(self) -> str:
        r = self.rng
        proj, tool = r.choice(self.projects), r.choice(TOOLS)
        parts = [
            f"Looking at the {proj} setup, the main issue is how {tool} is configured for "
            f"the load you describe. Here is what I would change, step by step."
        ]
        for k in range(r.randint(2, 6)):
            parts.append(
                f"{k + 1}. {r.choice(['Increase', 'Reduce', 'Cache', 'Batch', 'Index'])} the "
                f"{r.choice(['connection pool', 'batch size', 'query plan', 'retry budget'])} "
                f"of {r.choice(self.projects)}: with {r.choice(TOOLS)} this usually cuts "
                f"the time by {r.randint(10, 80)}% because fewer round trips reach the "
                f"{r.choice(['database', 'queue', 'cache', 'API'])}."
            )
            if r.random() < 0.6:
                parts.append(self._code(proj))
        parts.append(
            f"After that, run the {proj} benchmark again and compare the p95; if it is still "
            f"above the budget, send me the new log and we will look at {tool} itself."
        )
        return "\n\n".join(parts)

    def records(self, n: int) -> Iterator[dict[str, Any]]:
        session, number, length = 0, 0, self.rng.randint(20, 60)
        for i in range(n):
            if number >= length:
                session, number, length = session + 1, 0, self.rng.randint(20, 60)
            speaker = "user" if number % 2 == 0 else "assistant"
            text = self.user_turn() if speaker == "user" else self.assistant_turn()
            yield {
                "type": "turn",
                "speaker": speaker,
                "text": text,
                "session_id": f"project-{session}",
                "message_id": f"m{session}-{number}",
                "timestamp": self._when(i, n),
            }
            number += 1

    def question(self, r: random.Random) -> str:
        """One the person would ask of the project's history."""
        p, proj, tool = r.choice(self.people), r.choice(self.projects), r.choice(TOOLS)
        return r.choice(
            [
                f"why did the {proj} job fail and how did we fix it?",
                f"what are my standing instructions for code in {proj}?",
                f"which tool do I prefer for {proj}?",
                f"when do we move {proj} off {tool}?",
                f"what is the latency budget {p} asked for on {proj}?",
                f"how did you suggest speeding up the {proj} loader?",
                f"what did the {proj} error log say about {tool}?",
            ]
        )


SHAPES = {"mixed": Generator, "agent": AgentGenerator}


def write_jsonl(path: Path, n: int, *, seed: int, start: float, shape: str = "mixed") -> Generator:
    gen = SHAPES[shape](seed, start=start)
    with path.open("w", encoding="utf-8") as out:
        for rec in gen.records(n):
            out.write(json.dumps(rec) + "\n")
    return gen

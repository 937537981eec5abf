"""Recall on the agent's own shape of conversation: a person and an assistant (the chat
roles), long turns, attachments kept beside the words."""

from __future__ import annotations

import base64
import hashlib
import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from hermes_memory import FrozenClock, MemoryAPI, load_config, unwrap
from hermes_memory.api.adjust import (
    asks_order,
    discount_questions,
    discount_short_turns,
    favour_named_speaker,
    favour_order,
    question_share,
    share_context,
    weigh_assistant_turns,
)
from hermes_memory.api.candidates import Candidate, excerpt_of
from hermes_memory.text.excerpt import ELLIPSIS, SCAN_CHARS, excerpt
from hermes_memory.text.prose import word_share
from hermes_memory.tier2.fts import content_words, presence_counter, query_terms, terms_missing
from hermes_memory.tier3.embedder import HashingEmbedder
from hermes_memory.tools import memory_tool
from hermes_memory.tools.context import prefetch_block, render_block
from hermes_memory.tools.memory_tool import GET_PAGE_CHARS


def turn(key: str, speaker: str, text: str, rowid: int = 0) -> Candidate:
    return Candidate(
        key, f"{speaker}: {text}", "tier2", "episode", 0.0, 0.5, speaker=speaker,
        provenance={"rowid": rowid},
    )  # fmt: skip


def test_chat_roles_are_never_boosted_as_named_speakers() -> None:
    pool = {
        "u": turn("u", "user", "Let's add a column for the email"),
        "a": turn("a", "assistant", "Here is the migration for the user table"),
    }
    fused = dict.fromkeys(pool, 0.5)
    favour_named_speaker("how do we add a user table?", pool, fused, 0.4)
    assert fused == dict.fromkeys(pool, 0.5)
    assert not any("speaker" in c.extra for c in pool.values())


def test_a_named_person_is_still_boosted_beside_the_roles() -> None:
    pool = {
        "p": turn("p", "Priya", "I moved the cron job to Sunday"),
        "u": turn("u", "user", "Priya said something about cron"),
    }
    fused = dict.fromkeys(pool, 0.5)
    favour_named_speaker("What did Priya change?", pool, fused, 0.4)
    assert fused["p"] == pytest.approx(0.7) and fused["u"] == 0.5


def test_the_assistants_turns_weigh_less_unless_asked_what_it_said() -> None:
    def pool() -> dict[str, Candidate]:
        return {
            "u": turn("u", "user", "I prefer Redis pub/sub over in-memory emitters"),
            "a": turn("a", "assistant", "Redis pub/sub scales across instances because ..."),
        }

    asked, fused = pool(), {"u": 0.5, "a": 0.5}
    weigh_assistant_turns("How should events reach every server?", asked, fused, 0.5)
    assert fused == {"u": 0.5, "a": 0.25}
    for question in ("How did you recommend handling the delays?", "What did you suggest?"):
        asked, fused = pool(), {"u": 0.5, "a": 0.5}
        weigh_assistant_turns(question, asked, fused, 0.5)
        assert fused == {"u": 0.5, "a": 0.5}, question
    people = {"j": turn("j", "John", "Redis is fast"), "m": turn("m", "Maria", "Sure")}
    fused = {"j": 0.5, "m": 0.5}
    weigh_assistant_turns("What is fast?", people, fused, 0.5)
    assert fused == {"j": 0.5, "m": 0.5}  # people talking by name: nothing changes


def test_a_question_is_discounted_in_the_measure_it_is_the_turn() -> None:
    assert question_share("Where did you go?") == 1.0
    assert question_share("I went hiking.") == 0.0
    chat_line = "That's awesome, Mel! I love the pottery. What inspired you to start painting?"
    assert question_share(chat_line, 40) == 1.0  # a chat line: all of it is the question
    assert question_share(chat_line, 5) < 1.0  # were it a long turn
    request = (
        "I'm deploying the React frontend on Render with Docker and aiming for an initial "
        "deployment by March 1, 2024. Can you help?"
    )
    assert 0 < question_share(request, 10) < 0.15
    pool = {"q": turn("q", "Ann", "Where did you go?"), "r": turn("r", "user", request)}
    fused = {"q": 0.5, "r": 0.5}
    discount_questions(pool, fused, 0.8, 10)
    assert fused["q"] == pytest.approx(0.4)
    assert 0.48 < fused["r"] < 0.5  # "Can you help?" is 3 of its 22 words
    log = "line of a log with no sentence end " * 200  # 7,000 characters
    assert question_share(log + "\nWhy does it fail?", 10) == pytest.approx(4 / (8 * 200 + 4))
    # The sentence end is before the tail: the whole turn is read to find it.
    share = question_share("Intro. " + log + "why does it fail?", 10)
    assert share == pytest.approx((8 * 200 + 4) / (8 * 200 + 5))


def test_a_pasted_dump_counts_as_a_turn_of_no_words() -> None:
    digests = b"".join(hashlib.sha256(bytes([i])).digest() for i in range(64))
    dump = base64.b64encode(digests).decode()  # ten "words" and more between + and /
    numbers = ",".join(str(n) for n in range(400))
    prose = "Priya moved our nightly export job onto the reporting bucket after Tuesday's outage."
    code = 'def export(rows):\n    return [r["id"] for r in rows if r.get("ok")]  # 2 passes'
    log = "2024-03-01 12:00:01 INFO GET /api/v1/items/7 200 12 ms"
    assert word_share(dump) < 0.05 and word_share(numbers) == 0.0
    assert word_share(prose) > 0.8 and word_share("我们使用新的数据库集群。") > 0.8
    assert 0.3 < word_share(log) < word_share(code) and word_share("") == 1.0
    pool = {
        "dump": turn("dump", "Ana", dump),
        "numbers": turn("numbers", "Ana", numbers),
        "prose": turn("prose", "Ana", prose),
    }
    fused = dict.fromkeys(pool, 0.8)
    discount_short_turns(pool, fused, 10, 0.3, 0.2)
    assert fused["prose"] == 0.8  # ten content words: not short
    assert fused["dump"] == fused["numbers"] == pytest.approx(0.8 * 0.1**0.3)
    fused = dict.fromkeys(pool, 0.8)
    discount_short_turns(pool, fused, 10, 0.3, 0.0)  # the share check off
    assert fused == dict.fromkeys(pool, 0.8)


class _Neighbours:
    """The one method share_context asks of the episode store."""

    def __init__(self, pairs: dict[int, tuple[int, int]]) -> None:
        self.pairs = pairs

    def neighbours(self, owner: object, rowids: list[int]) -> dict[int, tuple[int, int]]:
        return {r: self.pairs[r] for r in rowids if r in self.pairs}


class _Api:
    owner = None

    def __init__(self, pairs: dict[int, tuple[int, int]]) -> None:
        self.episodes = _Neighbours(pairs)


def test_a_long_turn_borrows_less_of_its_neighbours_context() -> None:
    long_text = " ".join(["word"] * 80)
    pool = {
        "hit": turn("hit", "assistant", "the answer", rowid=1),
        "short": turn("short", "user", "yes please", rowid=2),
        "long": turn("long", "user", long_text, rowid=3),
    }
    api = _Api({1: (0, 2), 2: (1, 3), 3: (2, 0)})
    fused = {"hit": 1.0, "short": 0.2, "long": 0.2}
    share_context(api, pool, fused, 0.8, {}, enough_words=20)  # type: ignore[arg-type]
    assert fused["short"] == pytest.approx(0.2 * 0.2 + 0.8 * 1.0)
    # two away from the hit, at half weight, scaled by sqrt(20 / 80) = 0.5
    assert fused["long"] == pytest.approx(0.8 * 0.2 + 0.2 * 1.0)


def test_attachments_are_metadata_and_searchable(api: MemoryAPI) -> None:
    unwrap(
        api.ingest_turn(
            "Ana", "Look what I made!", session_id="s", message_id="1",
            metadata={"attachments": [{"type": "image", "caption": "a blue ceramic vase"}]},
        )
    )  # fmt: skip
    stored = api.db.query("SELECT text, attachments FROM episodes")
    assert [tuple(r) for r in stored] == [("Look what I made!", "a blue ceramic vase")]
    found = unwrap(api.recall("ceramic vase", tiers=["tier2"]))
    assert found and found[0]["content"] == "Ana: Look what I made!"
    # What the words refer to travels with the result, and a block shows it.
    assert found[0]["shared"] == "a blue ceramic vase"
    assert render_block(found[:1], 600).endswith(
        "Ana: Look what I made! [shared: a blue ceramic vase]"
    )
    shown = json.loads(memory_tool.handle(api, {"action": "recall", "content": "ceramic vase"}))
    assert shown["results"][0]["shared"] == "a blue ceramic vase"
    bad = api.ingest_turn(
        "Ana", "x", session_id="s", message_id="2", metadata={"attachments": [{"caption": 3}]}
    )
    assert not bad["success"]
    assert bad["meta"]["error_detail"]["field"] == "metadata.attachments[0].caption"


def test_word_helpers_stop_early_and_read_once() -> None:
    assert content_words("the quick brown fox jumps", 10) == 4
    assert content_words(" ".join(f"w{i}" for i in range(10_000)), 10) == 10
    assert terms_missing(["deploy", "kafka"], "We deployed it yesterday") == ["kafka"]


def test_each_result_carries_what_every_stage_did_to_it(api: MemoryAPI) -> None:
    unwrap(
        api.ingest_turns(
            [
                {"speaker": "Priya", "text": "I adopted a greyhound called Comet last spring",
                 "session_id": "s", "message_id": "1"},
                {"speaker": "Omar", "text": "A greyhound! Where did you find Comet?",
                 "session_id": "s", "message_id": "2"},
            ]
        )
    )  # fmt: skip
    results = unwrap(api.recall("Which dog did Priya adopt?", limit=5))
    priya = next(r for r in results if r["content"].startswith("Priya:"))
    stages = [t["stage"] for t in priya["trace"]]
    assert stages[0] == "fused" and "speaker" in stages
    assert priya["trace"][-1]["similarity"] >= priya["trace"][0]["similarity"]
    omar = next(r for r in results if r["content"].startswith("Omar:"))
    assert "speaker" not in [t["stage"] for t in omar["trace"]]


@pytest.mark.parametrize(
    ("query", "direction"),
    [
        ("Which versions did I say I was using when I first described my setup?", "earliest"),
        ("What deadline did I set for the initial deployment?", "earliest"),
        ("How many entries did my dataset include at the start?", "earliest"),
        ("Which editor do I use now?", "latest"),
        ("What changed in the latest release?", "latest"),
        ("What is the sum of the first 15 terms?", None),  # an ordinal of things
        ("How long has Caroline had her current group of friends?", None),  # a span
        ("Summarise everything from the initial setup to the final launch", None),
        ("Which database do we use?", None),
    ],
)
def test_a_query_about_the_start_or_the_present_is_recognised(
    query: str, direction: str | None
) -> None:
    assert asks_order(query) == direction


def test_the_order_stage_raises_by_place_in_time_unless_a_window_is_named() -> None:
    def pool() -> dict[str, Candidate]:
        out = {}
        for i, key in enumerate(("old", "mid", "new")):
            c = turn(key, "user", f"I use editor {key}")
            c.created_at = 1000.0 * i
            out[key] = c
        return out

    fused = dict.fromkeys(("old", "mid", "new"), 0.5)
    favour_order("Which editor did I first use?", None, pool(), fused, 0.3)
    assert fused == pytest.approx({"old": 0.65, "mid": 0.575, "new": 0.5})
    fused = dict.fromkeys(("old", "mid", "new"), 0.5)
    favour_order("Which editor do I use now?", None, pool(), fused, 0.3)
    assert fused == pytest.approx({"old": 0.5, "mid": 0.575, "new": 0.65})
    fused = dict.fromkeys(("old", "mid", "new"), 0.5)
    favour_order("What did I first use in March?", (0.0, 1.0), pool(), fused, 0.3)
    assert fused == dict.fromkeys(("old", "mid", "new"), 0.5)


# -- long memories are shown by what matched (text/excerpt.py) --------------------------
_LOG = " ".join(f"INFO worker {i} picked job {i * 7} from the queue." for i in range(40))
_LONG = (
    "I'm setting up the Dockerfile for the dashboard service and the build keeps "
    f"failing, here is the log: {_LOG} Anyway, we are aiming for the initial deployment "
    "on Render by March 1, 2024. Can you look at the log and tell me what is wrong?"
)


def test_an_excerpt_centres_on_what_matched_and_marks_the_cuts() -> None:
    matches = presence_counter(query_terms("When is the initial deployment on Render?"))
    cut = excerpt(_LONG, 200, matches=matches)
    assert "initial deployment on Render by March 1, 2024" in cut
    assert cut.startswith(ELLIPSIS) and len(cut) <= 202
    at = _LONG.find(cut[1:40])
    assert at > 0 and _LONG[at - 1] == " "  # starts on a word, not inside one
    # Nothing of the query in the text: the start, as the text would be shown.
    head = excerpt(_LONG, 200, matches=presence_counter(["kubernetes"]))
    assert head.startswith("I'm setting up the Dockerfile") and head.endswith(ELLIPSIS)
    # Without a matched passage only the start of a very long text is searched.
    far = "Nothing here yet. " * (SCAN_CHARS // 18 + 1) + "The initial deployment is in May."
    assert excerpt(far, 200, matches=matches).startswith("Nothing here yet.")
    # A short text is itself; the vector search's passage narrows where to look.
    assert excerpt("Short note.", 200, matches=matches) == "Short note."
    passage = "INFO worker 30 picked job 210 from the queue."
    near = excerpt(_LONG, 120, matches=presence_counter(["job"]), passage=passage)
    assert near.startswith(ELLIPSIS + "INFO worker 30 picked job 210")


def test_a_turns_excerpt_looks_inside_the_chunk_the_vector_search_matched() -> None:
    said = (
        "The staging deploy failed twice today. " + "Filler words about nothing. " * 30
        + "The deploy to production failed on the deploy step of the deploy job."
    )  # fmt: skip
    cand = turn("t", "user", said)
    matches = presence_counter(query_terms("why did the production deploy fail"))
    assert "production" in excerpt_of(cand, 120, matches)  # by the words alone
    cand.passage = "user: " + said[:300]  # its first chunk, as the index embedded it
    cut = excerpt_of(cand, 120, matches)
    assert cut.startswith("user: The staging deploy failed") and "production" not in cut


def test_the_prefetch_block_shows_a_long_turn_by_its_matching_passage(
    home: Path, clock: FrozenClock
) -> None:
    turns = [
        {"speaker": "user", "text": _LONG, "session_id": "s1", "message_id": "1"},
        {"speaker": "user", "text": "Thanks, the build works now.", "session_id": "s1",
         "message_id": "2"},
    ]  # fmt: skip
    question = "What deadline did I set for the initial deployment on Render?"
    shown = {}
    for size in (400, 0):
        cfg = load_config(home / str(size), env={}, overrides={"recall": {"excerpt_chars": size}})
        with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as api:
            unwrap(api.ingest_turns(turns))
            top = unwrap(api.recall(question, limit=3))[0]
            assert top["content"].endswith("tell me what is wrong?")  # always whole
            shown[size] = (top.get("excerpt"), prefetch_block(api, question))
    cut, block = shown[400]
    assert cut is not None and cut.startswith("user: " + ELLIPSIS)
    assert "March 1, 2024" in cut and "March 1, 2024" in block
    assert shown[0][0] is None and "March 1, 2024" not in shown[0][1]


def test_the_tool_shows_a_long_memory_by_its_excerpt_and_pages_the_rest(
    home: Path, clock: FrozenClock
) -> None:
    long_log = (_LONG + " " + "ERROR retrying the upload of chunk 7 of 12. " * 400).strip()
    turns = [{"speaker": "user", "text": long_log, "session_id": "s1", "message_id": "1"}]
    with MemoryAPI(load_config(home, env={}), clock=clock, embedder=HashingEmbedder()) as api:
        unwrap(api.ingest_turns(turns))
        fact = unwrap(api.fact_store("Deploys go through Render.", category="project"))

        def call(**args: object) -> dict:
            return json.loads(memory_tool.handle(api, args))

        top = call(action="recall", content="initial deployment on Render deadline")["results"]
        turn = next(r for r in top if r["kind"] == "episode")
        assert "March 1, 2024" in turn["content"] and len(turn["content"]) < 600
        assert turn["content_chars"] == len("user: " + long_log) and "excerpt" not in turn
        asked = call(action="recall", content="do deploys go through Render?")["results"]
        short = next(r for r in asked if r["kind"] == "fact")
        assert short["content"] == "Deploys go through Render." and "content_chars" not in short

        pages, offset = [], 0
        while offset is not None:
            got = call(action="memory_get", id=turn["id"], offset=offset)
            assert got["success"] and got["data"]["kind"] == "episode"
            assert got["meta"]["total_chars"] == len(long_log)
            pages.append(got["data"]["text"])
            offset = got["meta"]["next_offset"]
        assert "".join(pages) == long_log and len(pages) == -(-len(long_log) // GET_PAGE_CHARS)
        whole = call(action="memory_get", id=fact["uuid"])
        assert whole["data"]["kind"] == "fact" and whole["meta"]["next_offset"] is None
        assert whole["data"]["content"] == "Deploys go through Render."
        assert "dates" not in whole["data"]
        # What a relative date means travels with the page, as with recall's results.
        moved = unwrap(api.fact_store("We moved the standup to Tuesdays yesterday."))
        said = call(action="memory_get", id=moved["uuid"])["data"]
        day = datetime.fromisoformat(moved["created_at"].replace("Z", "+00:00")) - timedelta(1)
        assert said["dates"] == {"yesterday": f"{day:%Y-%m-%d}"}
        assert "no fact or turn" in call(action="memory_get", id="f" * 32)["error"]
        assert call(action="memory_get", id=turn["id"], offset=-1)["error"].startswith("offset")

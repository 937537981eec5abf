"""A query about one speaker, searched in that speaker's own voice (api/voice.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hermes_memory import FrozenClock, MemoryAPI, load_config, unwrap
from hermes_memory.api.voice import blend, in_own_voice, named_speaker, voice_of
from hermes_memory.tier2.records import Owner
from hermes_memory.tier3.embedder import HashingEmbedder, Vectors


def test_the_one_speaker_a_query_names() -> None:
    speakers = ["John", "Maria", "Mary Ann", "user"]
    assert named_speaker("Would John enjoy a trek?", speakers) == "John"
    assert named_speaker("what did john say?", speakers) == "John"  # any case decides
    assert named_speaker("Where did Mary Ann go?", speakers) == "Mary Ann"
    # A first name alone names the one speaker who has it.
    assert named_speaker("Where did Mary go?", speakers) == "Mary Ann"
    assert named_speaker("Where did Mary go?", [*speakers, "Mary Lou"]) is None
    assert named_speaker("Where did Mary go?", [*speakers, "Mary"]) == "Mary"  # exactly her
    assert named_speaker("Where did Ann go?", speakers) is None  # not a first name
    assert named_speaker("What do John and Maria both like?", speakers) is None
    assert named_speaker("What is the weather?", speakers) is None
    assert named_speaker("What does the user prefer?", speakers) == "user"
    assert named_speaker("Anything?", []) is None


def test_a_query_in_the_speakers_own_voice() -> None:
    assert in_own_voice("Would John enjoy a trek in the Alps?", "John") == (
        "Would I enjoy a trek in the Alps?"
    )
    assert in_own_voice("What might John's next job be?", "John") == "What might my next job be?"
    assert in_own_voice("What is John\u2019s job?", "John") == "What is my job?"
    assert in_own_voice("Where did Mary  Ann go?", "Mary Ann") == "Where did I go?"
    assert in_own_voice("Where did Mary go?", "Mary Ann") == "Where did I go?"
    assert in_own_voice("Is Mary's flat near Ann's?", "Mary Ann") == "Is my flat near Ann's?"
    assert in_own_voice("What does the user prefer?", "user") == "What does I prefer?"
    assert in_own_voice("User likes what?", "user") == "I likes what?"
    # The name as written (or capitalised), never a word that merely spells it.
    assert in_own_voice("What will Will do?", "Will") == "What will I do?"
    assert in_own_voice("Did Johnny call?", "John") is None
    assert in_own_voice("what did john say?", "John") is None
    assert in_own_voice("What is [x] doing?", "[x]") == "What is I doing?"
    assert in_own_voice("Anything?", "") is None


def test_the_voice_of_a_named_person_never_of_a_chat_role() -> None:
    speakers = {"user", "assistant", "Ana"}
    assert voice_of("What does Ana do on weekends?", speakers) == "What does I do on weekends?"
    assert voice_of("add a user table to the schema", speakers) is None
    assert voice_of("What did the assistant suggest?", speakers) is None
    assert voice_of("What did the user tell Ana?", speakers) is None  # two named
    assert voice_of("What is the weather?", speakers) is None


def test_blend_is_a_unit_vector_leaning_to_the_question() -> None:
    q = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    v = np.array([0.0, 1.0, 0.0], dtype=np.float32)
    mixed = blend(q, v, 0.3)
    assert np.linalg.norm(mixed) == pytest.approx(1.0)
    assert mixed[0] > mixed[1] > 0
    assert mixed[1] / mixed[0] == pytest.approx(0.3)
    assert np.allclose(blend(q, -q, 1.0), q)  # opposite voices cancel: the question stays


def test_speakers_are_kept_per_owner_and_topped_up(api: MemoryAPI) -> None:
    def turns(*said: tuple[str, str]) -> list[dict[str, object]]:
        return [
            {"speaker": s, "text": f"{s} says hello", "session_id": "S1", "message_id": m}
            for s, m in said
        ]

    assert api.episodes.speakers(api.owner) == frozenset()
    unwrap(api.ingest_turns(turns(("ana", "1"), ("ben", "2"))))
    assert api.episodes.speakers(api.owner) == {"ana", "ben"}
    unwrap(api.ingest_turns(turns(("cleo", "3"), ("ana", "4"))))
    assert api.episodes.speakers(api.owner) == {"ana", "ben", "cleo"}
    other = Owner(platform=api.owner.platform, agent=api.owner.agent, user_id="someone-else")
    assert api.episodes.speakers(other) == frozenset()
    # The same user in another session can name the same people.
    later = Owner(api.owner.platform, api.owner.agent, api.owner.user_id, session="next")
    assert api.episodes.speakers(later) == {"ana", "ben", "cleo"}


def _say(memory: MemoryAPI, said: list[tuple[str, str, str]]) -> None:
    """Store (speaker, text, message id) turns of one session."""
    turns = [{"speaker": s, "text": t, "session_id": "D1", "message_id": m} for s, t, m in said]
    unwrap(memory.ingest_turns(turns))


class RecordingEmbedder(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def embed_batch(self, texts: list[str]) -> Vectors:
        self.seen.extend(texts)
        return super().embed_batch(texts)


@pytest.mark.parametrize(
    ("query", "voice", "weight"),
    [
        ("What does Ana do on weekends?", "What does I do on weekends?", 0.3),
        ("What does Ana do on weekends?", None, 0.0),  # turned off
        ("What do Ana and Ben do on weekends?", None, 0.3),  # two people: no one voice
        ("What happens on weekends?", None, 0.3),
    ],
)
def test_recall_searches_with_the_named_speakers_voice(
    home: Path, clock: FrozenClock, query: str, voice: str | None, weight: float
) -> None:
    cfg = load_config(home, env={}, overrides={"recall": {"speaker_voice": weight}})
    embedder = RecordingEmbedder()
    with MemoryAPI(cfg, clock=clock, embedder=embedder) as memory:
        said = [
            ("Ana", "I volunteer at the animal shelter every weekend", "D1:1"),
            ("Ben", "Ana, you are always so busy!", "D1:2"),
        ]
        _say(memory, said)
        assert memory.semantic is not None
        semantic = memory.semantic
        searched: list[np.ndarray] = []
        search = semantic.search_vector

        def spy(vector: np.ndarray, *args: object, **kwargs: object) -> object:
            searched.append(np.asarray(vector))
            return search(vector, *args, **kwargs)  # type: ignore[arg-type]

        semantic.search_vector = spy  # type: ignore[method-assign,assignment]
        embedder.seen.clear()
        results = unwrap(memory.recall(query, limit=2))
    assert results
    assert query in embedder.seen
    assert [t for t in embedder.seen if t != query] == ([voice] if voice else [])
    asked = embedder.embed_batch([query])[0]
    expected = blend(asked, embedder.embed_batch([voice])[0], weight) if voice else asked
    assert len(searched) == 1
    assert np.allclose(searched[0], expected, atol=1e-6)


@pytest.mark.slow  # the premise needs the real model's sense of "I" against a name
def test_the_voiced_query_leans_to_what_the_speaker_said_of_themselves() -> None:
    from hermes_memory.tier3.embedder import SentenceTransformerEmbedder

    model = SentenceTransformerEmbedder(runtime="onnx")
    # (question, speaker, a line about themselves, a pleasantry of theirs)
    cases = [
        (
            "Would Priya be considered an outdoorsy person?",
            "Priya",
            "Priya: I spend most weekends hiking and camping up in the mountains.",
            "Priya: Thanks, Tom! Talk to you soon.",
        ),
        (
            "What job might Omar want in the future?",
            "Omar",
            "Omar: I've been tutoring kids at the library and I really love teaching.",
            "Omar: Wow, that sounds great, Lena!",
        ),
        (
            "What food would upset Lena's stomach?",
            "Lena",
            "Lena: I'm lactose intolerant, so cheese and milk make me sick.",
            "Lena: Haha, your dog is so cute, Omar!",
        ),
        (
            "Is Tom likely to enjoy a jazz concert?",
            "Tom",
            "Tom: I play saxophone in a small band every Friday night.",
            "Tom: Sure thing, see you tomorrow!",
        ),
    ]
    for question, speaker, about_self, pleasantry in cases:
        voiced = in_own_voice(question, speaker)
        assert voiced is not None
        q, v, own, chat = model.embed_batch([question, voiced, about_self, pleasantry])
        mixed = blend(q, v, 0.3)
        # The line that answers pulls ahead of the pleasantry by more than it did.
        assert float(mixed @ own - mixed @ chat) > float(q @ own - q @ chat) + 0.01, question


def test_a_first_name_alone_names_a_speaker_stored_by_full_name(
    home: Path, clock: FrozenClock
) -> None:
    embedder = RecordingEmbedder()
    with MemoryAPI(load_config(home, env={}), clock=clock, embedder=embedder) as memory:
        said = [
            ("Ana Lima", "I volunteer at the animal shelter every weekend", "D1:1"),
            ("Ben Cruz", "You are always so busy on weekends!", "D1:2"),
        ]
        _say(memory, said)
        embedder.seen.clear()
        results = unwrap(memory.recall("What does Ana do on weekends?", limit=2))
    assert "What does I do on weekends?" in embedder.seen
    ana = next(r for r in results if r["content"].startswith("Ana Lima:"))
    assert "speaker" in ana["match_reasons"]  # the speaker boost reads names the same way

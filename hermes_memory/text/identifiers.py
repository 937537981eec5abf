"""Names read from one word's shape: a component in kebab or snake case
("payments-api", "auth_worker"), a product with a capital inside ("CockroachDB",
"MLflow"), a web address ("Booking.com") and a model number ("ResNet-50"); and a
web link's scheme, which names nothing ("http" of "http://localhost"). The gazetteer lacks
most of them; ``mentions`` asks here before it reads by context."""

from __future__ import annotations

import re
from collections.abc import Callable

from hermes_memory.text.components import PROJECT_HEADS
from hermes_memory.text.letters import SURNAME
from hermes_memory.text.lexicon import STARTERS, english_compound
from hermes_memory.text.name_extent import name_word
from hermes_memory.text.products import model_end
from hermes_memory.text.reading import Mention

# The schemes of a web link: every address has one, so it says nothing of a use
# ("postgres://" and "redis://" name the service they reach, and stay names).
_WEB_SCHEMES = frozenset("http https ws wss ftp file".split())


def link_scheme(toks: list[tuple[str, int, int]], i: int) -> bool:
    """Whether the token at ``i`` is a web link's scheme, written against "://" ("http"
    in "http://localhost:5173"): it names no use of the protocol."""
    if toks[i][0].lower() not in _WEB_SCHEMES or i + 3 >= len(toks):
        return False
    if [t[0] for t in toks[i + 1 : i + 4]] != [":", "/", "/"]:
        return False
    return all(toks[k][2] == toks[k + 1][1] for k in range(i, i + 3))


# Words that number the stages of something ("Phase 2", "Sprint 4").
NUMBERED = frozenset(
    "phase step part sprint week chapter stage level round day milestone section article "
    "clause lesson page".split()
)

# Names shaped like identifiers: a service or component in kebab or snake case whose last
# part is what it is ("payments-api", "ledger-service", "auth_worker"), and a product
# name with a capital inside it ("CockroachDB", "ArgoCD", "MLflow") the gazetteer lacks.
_ID_HEADS = PROJECT_HEADS | frozenset(
    "svc worker workers queue gateway proxy server client cli ui db store cache lambda "
    "function functions cron daemon backend frontend engine core sdk".split()
)
_KEBAB = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+")
# The last form is led by an acronym: "MLflow", "SQLAlchemy"; not "RESTful", "SSHing".
_INNER_CAPITAL = re.compile(
    r"[A-Z][a-z]{2,}(?:[A-Z][a-z]+)*[A-Z]{1,4}|[A-Z][a-z]+[A-Z][a-z]+"
    r"|[A-Z]{2,}(?!(?:ful|ing|ed|ly)\b)[a-z]{3,}"
)
# A service named by its web address ("Booking.com", "Render.com", "Socket.io"); a capital
# opens it, so a URL's host ("github.com/...") is none.
_DOMAIN_NAME = re.compile(r"[A-Z][A-Za-z0-9-]*\.(?:com|net|org|io|ai|co|dev|app|de|nl|fr|eu)")


def identifier(toks: list[tuple[str, int, int]], i: int) -> tuple[Mention, int] | None:
    """The name token ``i`` is by its shape alone, and the token after it."""
    word, start, end = toks[i]
    if _KEBAB.fullmatch(word) and _names_a_component(toks, i):
        return Mention(word, "project", start, end, word), i + 1
    if _DOMAIN_NAME.fullmatch(word):
        return Mention(word, "tech", start, end, word), i + 1
    if (m := _MODEL_NAME.fullmatch(word)) and m.group(1).lower() not in _NOT_MODELS:
        # "ResNet-50", "Sentinel-2", "GPT-4", "SHA-256": a product or a standard
        return Mention(word, "tech", start, end, word, True), i + 1
    if i > 0 and _INNER_CAPITAL.fullmatch(word) and not SURNAME.fullmatch(word):
        # "MacBook Air", "OnePlus Nord 2T", "OnePlus 9 Pro"
        k = product_end(toks, i + 1, 2, lambda k: _continues_product(toks[k][0]))
        name = " ".join(w for w, _, _ in toks[i:k])
        return Mention(name, "tech", start, toks[k - 1][2], name), k
    return None


# A name and its model number in one word ("ResNet-50", "Llama-3.1", "MIL-STD-810G"); not
# a numbered label ("UI-01") or a span of years ("Mid-2024").
_MODEL_NAME = re.compile(r"([A-Z][A-Za-z]*)(?:-[A-Za-z]+)*-[1-9]\d*(?:\.\d+)*[A-Za-z]?")
_NOT_MODELS = (
    STARTERS | NUMBERED | frozenset("mid pre post late early top type room gate size grade".split())
)
# Who uses a product, after its name: not part of it ("the CockroachDB team").
_GROUPS = frozenset("team teams group groups users community folks".split())


def _continues_product(word: str) -> bool:
    return name_word(word) and word.lower() not in _GROUPS


def _names_a_component(toks: list[tuple[str, int, int]], i: int) -> bool:
    """Whether a kebab- or snake-case word is a component's name rather than a compound
    ("on-call", "long-term", "step-by-step", "x-axis", "problem-solving"): snake case is
    never prose; a kebab word is a name when it ends in what a component is ("-api",
    "-service") or does ("-renderer", "-collector"), or when it follows "the" and is
    followed by a verb ("the webhook-relay forwards ...")."""
    word = toks[i][0]
    if _TWO_LETTERS.search(word) is None:
        return False  # "a_1", "x_2", "y_3x_1": a formula's subscripts, no component
    if "_" in word:
        return True
    if english_compound(word):
        return False  # "self-service", "in-app", "x-axis", "step-by-step", "end-to-end"
    parts = word.split("-")
    if parts[-1] in _ID_HEADS:
        return True
    if any(p.isdigit() for p in parts) or parts[-1].endswith(("ing", "ed")):
        return False  # "problem-solving", "lazy-loaded": an adjective
    if len(parts[-1]) > 4 and parts[-1].endswith(("er", "or")):
        return True
    det = i > 0 and toks[i - 1][0].lower() in {"the", "our", "their", "my", "your"}
    return det and i + 1 < len(toks) and _VERB_NEXT.fullmatch(toks[i + 1][0]) is not None


_TWO_LETTERS = re.compile(r"[a-z]{2}")
# What follows a subject: "the webhook-relay forwards ...".
_VERB_NEXT = re.compile(r"[a-z]+(?:s|ed)|is|was|has|had|will|can|should|must")


def product_end(
    toks: list[tuple[str, int, int]], j: int, most: int, goes_on: Callable[[int], bool]
) -> int:
    """Where a product's name ends that may go on at ``j`` with up to ``most`` further
    words (``goes_on``) and then a model number."""
    k = j
    while k < len(toks) and k - j < most and goes_on(k):
        k += 1
    return model_end(toks, k)

"""Names of components said with what they are: "the billing service", "the data
team", "Acme Labs", "the gateway". A head noun ("service", "team", "labs") after one or
two plain words makes them a project's (or an organisation's) name; ``mentions`` reads
every other kind of name."""

from __future__ import annotations

import re

from hermes_memory.text.kinds import ROLE_NOUNS
from hermes_memory.text.lexicon import (
    IMPERATIVES,
    NP_STOP,
    NUMBER_WORDS,
    STARTERS,
    english_compound,
    gerund_of_step,
    past_of_step,
)
from hermes_memory.text.reading import Mention

PROJECT_HEADS = frozenset(
    "service services project team app pipeline flow job platform api warehouse stack "
    "repo repository database cache queue bus system module library dashboard site website "
    "cluster bot client".split()
)
ORG_HEADS = frozenset(
    ["guild", "corp", "inc", "ltd", "gmbh", "labs", "university", "company", "foundation"]
)
COMPONENTS = frozenset(["gateway", "frontend", "backend", "scheduler", "monolith"])
HEADS = PROJECT_HEADS | ORG_HEADS
_KEEP_HEAD = frozenset({"app", "bot", "site", "website", "client"})
# What an instruction's verb follows when it is one ("to reduce database load").
_BEFORE_A_VERB = frozenset({"to", "and", "or"})
# Before a word in -ing, what makes it a verb taking an object ("for optimizing database
# queries"), not a modifier ("the monitoring service").
_BEFORE_A_GERUND = frozenset("for by when while after before without about of in on".split())
# Steps whose object is a clause ("ensure service is up"), never a subject's words.
_THAT_VERBS = frozenset("ensure verify check confirm make see note assume".split())
# What follows a sentence's subject, not a verb's object.
_PREDICATE = re.compile(
    r"[a-z]+ed|is|was|are|were|has|had|have|will|would|can|could|should|must|keeps|needs|"
    r"runs|fails|broke|went|got|seems|looks"
)
# Words that say which one, not what it is: "the new job", "a big client", "for new
# services" name nothing.
_WHICH_ONE = frozenset(
    "new old big small main current previous next last first same other whole entire "
    "existing potential important different separate single lightweight simple basic "
    "large internal external public private custom legacy full slow fast multiple "
    "various numerous actual additional extra further logical official optional specific "
    "particular certain proper overall underlying relevant reliable dedicated typical own "
    "another correct corresponding efficient asynchronous synchronous affected recent "
    "average example sample similar popular accurate intermittent better faster quicker "
    "automatic automated manual "
    # what one thinks of it: "the perfect job" (before a component's own words it is
    # passed over: "a great error handling system")
    "perfect great good nice cool awesome amazing wonderful fantastic ideal dream favorite "
    "favourite terrible awful "
    # "operating system" is no component called "operating"
    "operating".split()
)
# Compounds opening so say how a thing works, not which one ("in-memory", "self-hosted").
_HOW = frozenset("in on off out up self non pre post".split())
# What a stack is said to be of ("our tech stack"), naming no component.
_KINDS_OF_STACK = frozenset("tech technology software dev".split())
# A word a name is made of: letters, with hyphens inside.
PLAIN = re.compile(r"[^\W\d_][\w-]*")
NOT_NAMES = NP_STOP | STARTERS
# Before a word in -ing, what makes it a verb ("we're adding", "is caching"); the
# contractions are read as their last letters ("we're" -> "re").
_AUXILIARIES = frozenset("is are was were be been am re m".split())
_NOT_MODIFIERS = NP_STOP | _AUXILIARIES | NUMBER_WORDS


def component_at(
    toks: list[tuple[str, int, int]], i: int, table: dict[str, tuple[str, str]]
) -> tuple[Mention | None, int] | None:
    """The component named at token ``i`` ("billing service" -> project "billing", the
    words as said its alias), and the token after it; None when there is none, and
    ``(None, j)`` when the words up to ``j`` are a verb and its object. ``table`` holds
    the names already known: "Kafka upgrade" names Kafka, not a component."""
    word = toks[i][0]
    low = word.lower()
    reach = range(i + 1, min(i + 3, len(toks)))
    head_at = next((j for j in reach if toks[j][0].lower() in HEADS), None)
    if low not in COMPONENTS and head_at is None:
        return None  # no head noun in reach: most words, checked first for speed
    plain = PLAIN.fullmatch(word) and low not in NOT_NAMES
    if (not plain and low not in COMPONENTS) or past_of_step(word):
        return None  # "refactored auth module": the component is "auth"
    prev = toks[i - 1][0].lower() if i else ""
    nxt = toks[i + 1][0].lower() if i + 1 < len(toks) else ""
    if low in COMPONENTS and nxt in ROLE_NOUNS:
        return None  # "a backend engineer": a kind of work, not a component
    if low in COMPONENTS and prev in {"the", "our", "my", "their", "new", "a"}:
        return Mention(low, "project", toks[i][1], toks[i][2], word), i + 1
    if prev in {"a", "an"}:
        return None  # "a new job", "a data team": some one, not one the memory can name
    if prev in ("'", "’"):
        return None  # "we're adding cache ...": the end of a contraction
    if prev in _BEFORE_A_GERUND and gerund_of_step(word):
        return None  # "by optimizing database queries": a verb and its object
    if prev in _AUXILIARIES and low.endswith("ing"):
        return None  # "the team is adding cache versioning": a verb, not "the billing service"
    if (
        low in IMPERATIVES
        and (prev in _BEFORE_A_VERB or not prev[:1].isalnum())
        and not _subject(toks, i, head_at)
    ):
        # "to reduce database load", "and disable unnecessary services", "**Optimize
        # Database Indexes**": a verb and its object, read past whole
        if head_at is None:
            return None
        object_words = toks[i + 1 : head_at]
        return (None, head_at + 1) if all(PLAIN.fullmatch(w) for w, _, _ in object_words) else None
    for n in (1, 2):  # modifiers before the head noun
        if i + n >= len(toks):
            break
        head = toks[i + n][0].lower()
        mods = toks[i : i + n]
        if any(not PLAIN.fullmatch(w) or w.lower() in _NOT_MODIFIERS for w, _, _ in mods):
            break
        if any(w.lower() in table for w, _, _ in mods):
            return None  # "Kafka upgrade", "React app": the known name is the entity
        last = mods[-1][0].lower()
        if head == "stack" and last in _KINDS_OF_STACK:
            return None  # "our tech stack": whose, not which
        if last in _WHICH_ONE or mods[0][0].endswith("ly") or last.split("-")[0] in _HOW:
            return None  # "how to properly cache it", "an in-memory cache": it names nothing
        if head in HEADS and english_compound(last) and not last.startswith("e-"):
            return None  # "the real-time dashboard", "my go-to stack" ("e-commerce" names)
        name = " ".join(w for w, _, _ in mods)
        if head in ORG_HEADS:
            if not all(w[:1].isupper() for w, _, _ in mods):
                continue
            name = f"{name} {toks[i + n][0]}"
            return Mention(name, "org", toks[i][1], toks[i + n][2], name), i + n + 1
        if head in PROJECT_HEADS:
            if head in _KEEP_HEAD:
                name = f"{name} {head}"
            if name[:1].isupper() and not name.isupper() and prev not in {"the", "our"}:
                name_l = name
            else:
                name_l = name.lower() if not name.isupper() else name
            # The words as written, head included, become an alias of the shorter name
            # ("billing service" finds "billing").
            said = " ".join(w for w, _, _ in toks[i : i + n + 1])
            return Mention(name_l, "project", toks[i][1], toks[i + n][2], said), i + n + 1
    return None


def _subject(toks: list[tuple[str, int, int]], i: int, head_at: int | None) -> bool:
    """Whether the verb at ``i`` and the head noun after it are a sentence's subject
    ("build pipeline failed" is said of a component; "ensure services are up" is a step)."""
    return (
        head_at == i + 1
        and toks[i][0].lower() not in _THAT_VERBS
        and not toks[i + 1][0].endswith("s")
        and i + 2 < len(toks)
        and _PREDICATE.fullmatch(toks[i + 2][0]) is not None
    )

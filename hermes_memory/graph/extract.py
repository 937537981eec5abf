"""Entity and relation extraction without a model: gazetteer, patterns, co-mention.

Pure functions over one text. Entities come from the gazetteer (technologies,
organisations, places with their aliases), from ``<name> service|team|pipeline...``
phrases (projects), from the objects of preference verbs (concepts) and from
capitalised names (people, or organisations and places by their context). Relations
come from trigger phrases between two mentions, constrained by the entity types each
relation admits; coordination ("A and B use X") carries a relation to both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TypeVar

from hermes_memory.graph.gazetteer import AMBIGUOUS, KNOWN, LONGEST

ENTITY_TYPES = ("person", "project", "tech", "org", "place", "concept")
# relation -> (head types, tail types); the documented, extensible set.
RELATION_TYPES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "owns": (frozenset({"person", "org"}), frozenset({"project", "tech"})),
    "works_on": (frozenset({"person"}), frozenset({"project", "tech"})),
    "manages": (frozenset({"person"}), frozenset({"project", "org"})),
    "works_at": (frozenset({"person"}), frozenset({"org"})),
    "reports_to": (frozenset({"person"}), frozenset({"person"})),
    "knows": (frozenset({"person"}), frozenset({"person"})),
    "lives_in": (frozenset({"person"}), frozenset({"place"})),
    "located_in": (frozenset({"org", "project"}), frozenset({"place"})),
    "part_of": (frozenset({"person", "project", "tech"}), frozenset({"project", "org"})),
    "depends_on": (frozenset({"project", "tech"}), frozenset({"project", "tech", "org"})),
    "uses": (frozenset({"project", "tech", "person"}), frozenset({"tech", "org"})),
    "migrated_from": (frozenset({"project", "tech"}), frozenset({"tech", "org"})),
    "migrated_to": (frozenset({"project", "tech"}), frozenset({"tech", "org"})),
    "prefers": (frozenset({"person"}), frozenset({"concept", "tech"})),
    "dislikes": (frozenset({"person"}), frozenset({"concept", "tech"})),
    "related_to": (frozenset(ENTITY_TYPES), frozenset(ENTITY_TYPES)),
}

# Trigger phrases in the text between two mentions, most specific first.
_TRIGGERS: list[tuple[str, str, bool]] = [  # (regex, relation, reversed)
    (r"'s (manager|boss|lead) is", "reports_to", False),
    (r"reports? to", "reports_to", False),
    (r"\bowns?\b|is (the )?owner of|maintainer of", "owns", False),
    (r"depends? on|relies? on|reads? from|talks? to|calls?|consumes?|needs?", "depends_on", False),
    (r"\bpowers?\b|\bbacks?\b", "uses", True),
    (r"\bleads?\b|\bmanages?\b|\bruns? the\b|is head of", "manages", False),
    (
        r"lead of|\bon\b|works? on|working on|building|builds?|maintains?|deployed|develops?",
        "works_on",
        False,
    ),
    (r"works? (at|for)|joined|employed (at|by)|moved from \w+ to|hired (at|by)", "works_at", False),
    (r"lives? in|living in|based in|moved to|relocated to|from\b", "lives_in", False),
    (r"member of|part of|belongs? to|joined|\bin\b", "part_of", False),
    (r"\bin\b|\bat\b", "located_in", False),
    (r"^for$", "uses", True),
    (
        r"\buses?\b|using|runs? on|written in|built (with|on|in)|managed with|served (by|from)|"
        r"caches?|stores?|writes? to|publish\w* .*to|deployed (to|on)|hosted on|\bin\b|\bto\b|"
        r"\bis a\b|\bis\b|stack is",
        "uses",
        False,
    ),
    (r"dislikes?|hates?|avoids?", "dislikes", False),
    (r"prefers?|likes?|loves?|enjoys?|recommended|favou?rite", "prefers", False),
    (r"\bknows?\b|\bmet\b|friends? with|\bwith\b|\band\b", "knows", False),
]
_NO_RELATION = re.compile(r"\b(over|than|instead of|versus|vs|not|never|no longer|stopped|quit)\b")
_MIGRATION = re.compile(
    r"\b(migrated|migrating|migrate|moved|moving|switched|switching|went|ported|porting)\b"
    r"(?:\s+\S+){0,4}?\s+from\s*$"
)
_STOPPED = re.compile(
    r"\b(no longer (use|uses|using|run|runs)|stopped using|dropped|removed|got rid of|"
    r"retired|decommissioned|deprecated|moved off|moved away from)\s+(\S+\s+){0,2}$"
)
# The user's own side: what "we" or "I" say, and what an agent notes about "the user".
_WE = re.compile(r"^\s*(we|i|our team|the team|the user|user)\b")
_REPLACED = re.compile(r"\b(replaced|replacing|swapped)\s*$")
_RELATIVE = re.compile(r"^,?\s*(?:which|that|who)\s+")
_COORD = re.compile(r"^(,?\s*and|,|\s*plus|\s*&|,?\s*or)$")

PROJECT_HEADS = frozenset(
    "service services project team app pipeline flow job platform api warehouse stack "
    "repo repository database system module library dashboard site website cluster bot".split()
)
ORG_HEADS = frozenset(
    ["guild", "corp", "inc", "ltd", "gmbh", "labs", "university", "company", "foundation"]
)
COMPONENTS = frozenset(["gateway", "frontend", "backend", "scheduler", "monolith"])
_HEADS = PROJECT_HEADS | ORG_HEADS
_KEEP_HEAD = frozenset({"app", "bot", "site", "website"})
# Where a preference's object can start: just past one of these verbs and its spaces.
_PREF_VERBS = re.compile(
    r"\b(prefers?|likes?|loves?|enjoys?|dislikes?|hates?|learning|allergic to|"
    r"interested in|into)\s+",
    re.I,
)
# The words between a preference and what it is preferred over ("tabs over spaces"),
# and where that other object starts.
_RANKED_BELOW = frozenset({"over", "rather than", "instead of", "more than"})
_COMPARED = re.compile(
    r"\b(?:prefers?|likes?|loves?|enjoys?)\s+(?:\S+\s+){1,3}?"
    rf"(?:{'|'.join(sorted(_RANKED_BELOW))})\s+",
    re.I,
)
_PRONOUNS = frozenset(
    "i it me you us him her them he she we they myself yourself yourselves himself herself "
    "itself ourselves themselves everything everyone everybody anything anyone something "
    "someone nothing nobody".split()
)
_NP_STOP = _PRONOUNS | frozenset(
    "in on at with for over than and or but to from of by as when while because every about "
    "into onto via per like after before during without within "
    "each the a an this that these those his her their our my your its is are was were "
    # "I love how ...", "I like all of it": no object worth an entity
    "how what why where who which all most some any much many so too very just really".split()
)
# Words that end a preference's object ("I prefer spaces now", "I like tea best";
# "these days" and "a lot" end at their first word).
_OBJECT_END = _NP_STOP | frozenset(
    "now nowadays today tonight tomorrow yesterday anymore lately recently again instead "
    "still though anyway more less better best then also either".split()
)
# A light verb alone ("I love having you here") names no preference.
_LIGHT_GERUNDS = frozenset("having being doing making taking getting seeing going".split())
_STARTERS = _PRONOUNS | frozenset(
    "the a an our my your his her their its this that these those "
    "there here remember note please make use keep let lets when while if after before "
    "since then also but and or so because yes no ok okay maybe today yesterday tomorrow "
    "tonight last next every each all some any both either neither what why how who where "
    "which hi hello hey thanks thank sure great good nice wow oh well just really "
    "actually monday tuesday wednesday thursday friday saturday sunday january february "
    "march april may june july august september october november december spring summer "
    "autumn fall winter mr mrs ms dr sir api ui ci cd qa pr prs id ids ai llm mondays "
    "tuesdays wednesdays thursdays fridays saturdays sundays weekends "
    # chat: interjections, greetings and discourse markers open a sentence or come before
    # the name they address ("Yeah Priya, ...", "Congrats Omar!"), and are not names
    "yeah yep yup yea nope nah cool awesome glad bye goodbye congrats congratulations "
    "anytime woah whoa aww aw haha lol hmm um uh ugh oops ooh alright absolutely definitely "
    "totally exactly honestly hopefully unfortunately fortunately luckily sadly seriously "
    "obviously basically anyway anyways lately finally agreed cheers sounds welcome dang "
    "darn bummer yum yummy mmm omg gosh geez sorry indeed plus together even being super "
    "stay ha hah heh hehe huh ah ahh eh yikes oof ouch phew whew woohoo yay hooray mm mhm "
    "gotcha man dude "
    # auxiliaries that open a question ("Is this your painting?") and adverbs that open
    # a sentence ("Never had a chance", "Now, I'm aiming ...")
    # ("Will" and "Can" are names as well, and "Will you ..." reads as no name anyway)
    "is are was were am do does did could would should shall might must have has "
    "had never now almost right still soon often always sometimes usually later recently "
    "already once again instead otherwise meanwhile besides perhaps probably "
    # weekday abbreviations ("last Fri")
    "mon tue tues wed thu thur thurs fri sat".split()
)
# Chat roles and tools are not people: "User prefers ..." is the user's own side (_WE).
# Only names skip them; "the user service" is still a project.
ROLES = frozenset({"user", "assistant", "system", "tool", "agent", "bot", "human", "ai"})


def is_role(speaker: str) -> bool:
    """Whether ``speaker`` is a chat role ("user", "assistant" ...), not a person."""
    return speaker.casefold() in ROLES


# A lone capitalised word opening a sentence that reads as a gerund or an adverb
# ("Painting has been my escape", "Unfortunately, ...") is not a name.
_GERUND_OR_ADVERB = re.compile(
    r"[A-Z][a-z]{2,}(?:ing|ally|ately|fully|ously|estly|itely|utely|ctly|ibly|ably|edly|ively"
    r"|ently|antly|ingly|arly)"
)
_NOT_NAMES = _NP_STOP | _STARTERS
_ORG_CONTEXT = re.compile(r"\b(works? (at|for)|joined|at|customer is|client is|for)\s+$")
_PLACE_CONTEXT = re.compile(
    r"\b(moved to|based in|lives? in|living in|in|to|from|visit(ed|ing)?|trip to|near)\s+$"
)
_CONTEXT_CHARS = 120
_TOKEN = re.compile(r"[A-Za-z0-9][\w.+#-]*[\w+#]|[A-Za-z0-9]|'s\b|[^\w\s]")
_VERSION = re.compile(r"\b\d+(\.\d+)*\b")


@dataclass(frozen=True)
class Mention:
    name: str  # canonical
    type: str
    start: int
    end: int
    surface: str


@dataclass(frozen=True)
class Relation:
    head: str
    type: str
    tail: str
    # False when only inferred (two people in one sentence, an untyped link): weaker
    stated: bool = field(default=True, compare=False)


@dataclass(frozen=True)
class Claim:
    """A statement for contradiction checks; ``subject`` None stands for "we"/the user."""

    subject: str | None
    predicate: str
    object: str


@dataclass
class Extraction:
    mentions: list[Mention] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)

    @property
    def entities(self) -> dict[str, str]:
        """Canonical name -> type, first mention wins."""
        out: dict[str, str] = {}
        for m in self.mentions:
            out.setdefault(m.name, m.type)
        return out


# Bounds that keep extraction linear in the text: a message is linked to at most
# MAX_ENTITIES distinct names, and relations are read among the first
# MAX_RELATED_MENTIONS names of a sentence (a sentence naming more is a list, whose
# pairs state nothing; without the cap a 150-name message took ~60 s).
MAX_ENTITIES = 48
MAX_MENTIONS = 256
MAX_RELATED_MENTIONS = 12

_PLAIN = re.compile(r"[A-Za-z][\w-]*")
_CAPITALISED = re.compile(r"[A-Z][a-z]+(-[A-Z][a-z]+)?|[A-Z]{2,5}")


def extract(text: str) -> Extraction:
    """Entities, relations and claims of ``text`` (one or more sentences)."""
    out = Extraction()
    names: set[str] = set()
    seen_rels: set[Relation] = set()
    seen_claims: set[Claim] = set()
    for sentence in _sentences(text):
        room = MAX_MENTIONS - len(out.mentions)
        if room <= 0:
            break
        kept = []
        for m in find_mentions(sentence, limit=room):
            if m.name in names or len(names) < MAX_ENTITIES:
                names.add(m.name)
                kept.append(m)
        out.mentions.extend(kept)
        rels, claims = _relations(sentence, kept[:MAX_RELATED_MENTIONS])
        _append_new(out.relations, rels, seen_rels)
        _append_new(out.claims, claims, seen_claims)
    return out


T = TypeVar("T")


def _append_new(out: list[T], items: list[T], seen: set[T]) -> None:
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]


def find_mentions(sentence: str, limit: int | None = None) -> list[Mention]:
    """The names in ``sentence``, in order (at most ``limit``)."""
    table = KNOWN
    toks = [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(sentence)]
    # Found once: searching each token's prefix for a verb was quadratic in the length.
    objects_at = {m.end() for m in _PREF_VERBS.finditer(sentence)}
    objects_at |= {m.end() for m in _COMPARED.finditer(sentence)}
    out: list[Mention] = []
    i = 0
    while i < len(toks):
        found = (
            _known(toks, i)
            or (_preference_object(toks, i) if toks[i][1] in objects_at else None)
            or _identifier(toks, i)
            or _project(toks, i, table)
            or _name(sentence, toks, i)
        )
        if found is None:
            i += 1
            continue
        mention, i = found
        out.append(mention)
        if limit is not None and len(out) >= limit:
            break
    return out


def _known(toks: list[tuple[str, int, int]], i: int) -> tuple[Mention, int] | None:
    for n in range(min(LONGEST.get(toks[i][0].lower(), 0), len(toks) - i), 0, -1):
        words = toks[i : i + n]
        key = " ".join(w for w, _, _ in words).lower()
        hit = KNOWN.get(key)
        if hit is None:
            continue
        if n == 1 and key in AMBIGUOUS and not words[0][0][:1].isupper():
            continue
        nxt = i + n
        if hit[1] in ("tech", "org") and nxt < len(toks) and toks[nxt][0].lower() in ORG_HEADS:
            nxt += 1  # "Acme Corp"-style suffixes stay with the name
        return Mention(hit[0], hit[1], words[0][1], toks[nxt - 1][2], key), nxt
    return None


# Names shaped like identifiers: a service or component in kebab or snake case whose last
# part is what it is ("payments-api", "ledger-service", "auth_worker"), and a product
# name with a capital inside it ("CockroachDB", "ArgoCD") that the gazetteer lacks.
_ID_HEADS = PROJECT_HEADS | frozenset(
    "svc worker workers queue gateway proxy server client cli ui db store cache lambda "
    "function functions cron daemon backend frontend engine core sdk".split()
)
_KEBAB = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+")
_INNER_CAPITAL = re.compile(r"[A-Z][a-z]{2,}(?:[A-Z][a-z]+)*[A-Z]{1,4}|[A-Z][a-z]+[A-Z][a-z]+")


def _identifier(toks: list[tuple[str, int, int]], i: int) -> tuple[Mention, int] | None:
    word, start, end = toks[i]
    if _KEBAB.fullmatch(word) and re.split(r"[-_]", word)[-1] in _ID_HEADS:
        return Mention(word, "project", start, end, word), i + 1
    if i > 0 and _INNER_CAPITAL.fullmatch(word):
        return Mention(word, "tech", start, end, word), i + 1
    return None


def _project(
    toks: list[tuple[str, int, int]], i: int, table: dict[str, tuple[str, str]]
) -> tuple[Mention, int] | None:
    word = toks[i][0]
    low = word.lower()
    if low not in COMPONENTS and not any(
        toks[j][0].lower() in _HEADS for j in range(i + 1, min(i + 3, len(toks)))
    ):
        return None  # no head noun in reach: most words, checked first for speed
    plain = _PLAIN.fullmatch(word) and low not in _NOT_NAMES
    if not plain and low not in COMPONENTS:
        return None
    prev = toks[i - 1][0].lower() if i else ""
    if low in COMPONENTS and prev in {"the", "our", "my", "their", "new", "a"}:
        return Mention(low, "project", toks[i][1], toks[i][2], word), i + 1
    for n in (1, 2):  # modifiers before the head noun
        if i + n >= len(toks):
            break
        head = toks[i + n][0].lower()
        mods = toks[i : i + n]
        if any(not _PLAIN.fullmatch(w) or w.lower() in _NP_STOP for w, _, _ in mods):
            break
        if any(w.lower() in table for w, _, _ in mods):
            return None  # "Kafka upgrade", "React app": the known name is the entity
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


def _preference_object(toks: list[tuple[str, int, int]], i: int) -> tuple[Mention, int] | None:
    """The object of a preference verb that ends just before token ``i``."""
    words: list[tuple[str, int, int]] = []
    j = i
    while j < len(toks) and len(words) < 3:
        w = toks[j][0]
        if not _PLAIN.fullmatch(w) or w.lower() in _OBJECT_END:
            break
        if w.lower() in KNOWN:
            return None
        words.append(toks[j])
        j += 1
    if not words or (len(words) == 1 and words[0][0].lower() in _LIGHT_GERUNDS):
        return None
    name = " ".join(w for w, _, _ in words)
    if not name[:1].isupper():
        name = name.lower()
    return Mention(name, "concept", words[0][1], words[-1][2], name), j


def _name(sentence: str, toks: list[tuple[str, int, int]], i: int) -> tuple[Mention, int] | None:
    words: list[tuple[str, int, int]] = []
    j = i
    while j < len(toks) and len(words) < 3:
        w = toks[j][0]
        if not _CAPITALISED.fullmatch(w) or w.lower() in _STARTERS or w.lower() in ROLES:
            break
        words.append(toks[j])
        j += 1
    if not words:
        return None
    name = " ".join(w for w, _, _ in words)
    start = words[0][1]
    # The words just before a name tell its kind; a bounded window keeps a long
    # sentence of many names linear instead of re-reading its whole prefix each time.
    before = sentence[max(0, start - _CONTEXT_CHARS) : start]
    opens = len(before) == start and not before.strip() and len(words) == 1
    if opens and (not _name_follows(toks, j) or _GERUND_OR_ADVERB.fullmatch(name)):
        return None  # "Deploys run ...": a capitalised first word is not yet a name
    if _PLACE_CONTEXT.search(before.lower()) and not re.search(r"\b(with|for)\s+$", before):
        kind = "place"
    elif _ORG_CONTEXT.search(before.lower()) or words[-1][0].isupper():
        kind = "org"
    else:
        kind = "person"
    travel = re.search(r"\b(moved|relocated|trip|flew|travel\w*)\b", before.lower())
    if kind == "place" and re.search(r"\b(to|from)\s+$", before.lower()) and not travel:
        kind = "person"  # "talks to Carol", "heard from Bob"
    return Mention(name, kind, words[0][1], words[-1][2], name), j


_NAME_NEXT = frozenset(
    "is was has had and or 's , said says told thinks will would can could should did does "
    "went got made took gave wants needs loves likes".split()
)


def _name_follows(toks: list[tuple[str, int, int]], j: int) -> bool:
    """Whether the word after a sentence-initial capitalised word reads like a verb of it."""
    if j >= len(toks):
        return False
    nxt = toks[j][0].lower()
    return nxt in _NAME_NEXT or (nxt.isalpha() and nxt.endswith(("s", "ed")))


# -- relations ---------------------------------------------------------------------------------
def _between(sentence: str, a: Mention, b: Mention) -> str:
    text = sentence[a.end : b.start].lower()
    text = _VERSION.sub(" ", text)
    text = re.sub(r"\b(the|a|an|our|my|their|his|her|its|both|also|all)\b", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def _admits(rel: str, head: Mention, tail: Mention) -> bool:
    if rel not in RELATION_TYPES:
        return False  # a claim only (e.g. stopped_using), never a graph edge
    heads, tails = RELATION_TYPES[rel]
    return head.type in heads and tail.type in tails and head.name != tail.name


def _relations(sentence: str, mentions: list[Mention]) -> tuple[list[Relation], list[Claim]]:
    rels: list[Relation] = []
    claims: list[Claim] = []
    ms = sorted(mentions, key=lambda m: m.start)
    subject = ms[0] if ms and ms[0].start < 40 else None
    # The sentence opens on the user's side ("We ...", "The user ..."), unless those
    # words begin a name ("The user service ...", "The team service ...").
    opener = _WE.match(sentence.lower())
    ours = opener is not None and not any(m.start < opener.end() for m in ms)

    def add(head: Mention | None, rel: str, tail: Mention, stated: bool = True) -> None:
        claim = Claim(head.name if head else None, rel, tail.name)
        if claim not in claims:
            claims.append(claim)
        if head is not None and _admits(rel, head, tail):
            r = Relation(head.name, rel, tail.name, stated)
            if r not in rels:
                rels.append(r)

    skip: set[tuple[str | None, str]] = set()
    for k, tail in enumerate(ms):
        prefix = sentence[: tail.start].lower()
        if _STOPPED.search(prefix[-80:]):
            # Whoever stopped: "Priya stopped using Vim" ends Priya's use, not ours.
            before = [m for m in ms[:k] if m.type in ("project", "tech", "person", "org")]
            add(None if ours or not before else before[-1], "stopped_using", tail)
            continue
        if _MIGRATION.search(prefix) or _REPLACED.search(prefix):
            src = _migration_subject(ms[:k])
            nxt = ms[k + 1] if k + 1 < len(ms) else None
            person = src is not None and src.type == "person"
            if person and nxt is not None and tail.type == "org" and nxt.type == "org":
                add(src, "works_at", nxt)
                continue
            if tail.type == "place" or (nxt is None and src and src.type == "person"):
                continue
            add(src, "migrated_from", tail)
            if nxt is not None and re.fullmatch(r"(to|with|for|by)", _between(sentence, tail, nxt)):
                add(src, "migrated_to", nxt)
                skip.add((tail.name, nxt.name))
            continue
    done = {(c.subject, c.object) for c in claims} | skip
    for k in range(1, len(ms)):
        head, tail = ms[k - 1], ms[k]
        if (head.name, tail.name) in done:
            continue
        between = _between(sentence, head, tail)
        if _NO_RELATION.search(between) or len(between.split()) > 7:
            continue
        if _COORD.match(between or ","):
            continue
        relative = _RELATIVE.match(between)
        if relative:  # "auth-service, which uses Postgres": the clause is about its noun
            between = between[relative.end() :]
        elif re.match(r"^(and|,)\s+\w+", between) and subject is not None and subject is not head:
            head = subject  # "reads from S3 and writes to Snowflake": same subject
            between = re.sub(r"^(and|,)\s+", "", between)
        rel = _trigger(between, head, tail)
        stated = rel is not None
        if rel is None and between and head.type != "person" and tail.type in ("org", "tech"):
            rel = ("related_to", False)
        if rel is not None:
            name, reverse = rel
            a, b = (tail, head) if reverse else (head, tail)
            add(a, name, b, stated)
    if ms and ours and not any(c.object == ms[0].name for c in claims):
        first = ms[0]  # "We use X": a claim of the speaker's side, for supersession
        verb = _trigger(sentence[: first.start].lower(), None, first)
        if verb is not None and verb[0] in ("uses", "prefers", "dislikes", "lives_in"):
            add(None, verb[0], first)
    _ranked_below(sentence, ms, claims)
    _coordinate(sentence, ms, rels)
    _co_mention(ms, rels)
    claims.extend(
        Claim(r.head, r.type, r.tail) for r in rels if Claim(r.head, r.type, r.tail) not in claims
    )
    return rels, claims


def _ranked_below(sentence: str, ms: list[Mention], claims: list[Claim]) -> None:
    """ "Prefers X over Y" also claims that Y ranks below (a claim only, for
    supersession: a later "prefers Y" ends it, as "prefers Y over X" ends "prefers X")."""
    for a, b in zip(ms, ms[1:], strict=False):
        if _between(sentence, a, b) not in _RANKED_BELOW:
            continue
        for c in list(claims):
            if c.predicate == "prefers" and c.object == a.name:
                below = Claim(c.subject, "ranks_below", b.name)
                if below not in claims:
                    claims.append(below)


def _migration_subject(before: list[Mention]) -> Mention | None:
    for m in reversed(before):
        if m.type in ("project", "tech"):
            return m
    return before[0] if before else None


def _trigger(between: str, head: Mention | None, tail: Mention) -> tuple[str, bool] | None:
    for pattern, rel, reverse in _TRIGGERS:
        if not re.search(pattern, between):
            continue
        if head is None:
            if tail.type in RELATION_TYPES[rel][1]:
                return rel, reverse
            continue
        a, b = (tail, head) if reverse else (head, tail)
        if _admits(rel, a, b):
            return rel, reverse
    return None


def _coordinate(sentence: str, ms: list[Mention], rels: list[Relation]) -> None:
    """ "A and B <rel> C" gives A the relation too; "<S> <rel> X and Y" gives S -> Y."""
    for k in range(1, len(ms)):
        a, b = ms[k - 1], ms[k]
        if a.type != b.type or not _COORD.match(_between(sentence, a, b) or "x"):
            continue
        for r in list(rels):
            if r.head == b.name and r.type != "knows":
                extra = Relation(a.name, r.type, r.tail, r.stated)
            elif r.tail == a.name and r.type != "knows":
                extra = Relation(r.head, r.type, b.name, r.stated)
            else:
                continue
            if extra not in rels and extra.head != extra.tail:
                rels.append(extra)


def _co_mention(ms: list[Mention], rels: list[Relation]) -> None:
    """Two people named in one sentence know each other unless already related."""
    people = [m for m in ms if m.type == "person"]
    linked = {frozenset((r.head, r.tail)) for r in rels}
    for x in range(len(people)):
        for y in range(x + 1, len(people)):
            a, b = people[x], people[y]
            if a.name != b.name and frozenset((a.name, b.name)) not in linked:
                rels.append(Relation(a.name, "knows", b.name, stated=False))
                linked.add(frozenset((a.name, b.name)))

"""Names in a sentence without a model: the gazetteer's known names, identifiers
(``payments-api``, ``auth_service``, ``CockroachDB``), ``<name> service|team|...``
phrases, the objects of preference verbs, and capitalised names typed by the words
before them. Pure functions over one sentence."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import islice

from hermes_memory.text.bounds import MAX_SENTENCE_TOKENS
from hermes_memory.text.components import (
    ORG_HEADS,
    PLAIN,
    PROJECT_HEADS,
    component_at,
)
from hermes_memory.text.gazetteer import AMBIGUOUS, KNOWN, LANGUAGES, LONGEST
from hermes_memory.text.inert import INERT_BLOCK, inert_tokens
from hermes_memory.text.kinds import (
    ACRONYM,
    ARTEFACT_IN,
    BUILT_WITH,
    DEPARTMENT_CONTEXT,
    DEPARTMENTS,
    HEADER_TAILS,
    HOSTED,
    LEAVING_FOR,
    MADE,
    OF_KINDS,
    ORG_CONTEXT,
    ORG_NAME_HEADS,
    PET_BEFORE,
    PLACE_CONTEXT,
    PLACE_NAME_HEADS,
    PLACE_NAME_OPENERS,
    PRODUCT_HEADS,
    STORED_AS,
    SUPPLIER_SWITCH,
    SWITCHED_TO,
    TOOL_CHARS,
    TOOL_CONTEXT,
    TOOL_NEXT,
    TRAVEL,
    WORKED_WITH,
    name_follows,
    named_as,
    owned_thing,
    role_in_capitals,
    weighed_against_tool,
)
from hermes_memory.text.letters import ELIDED_SURNAME, SURNAME
from hermes_memory.text.lexicon import (
    DAY_NUMBER,
    DEMONYMS,
    EXCLAMATIONS,
    IMPERATIVES,
    LITERALS,
    MONTH_ABBREVIATIONS,
    NOMINAL,
    NOMINAL_AFTER_A_WORD,
    NOT_ACRONYMS,
    NP_STOP,
    ROLE_ACRONYMS,
    SHOUTED,
    STARTERS,
    past_of_step,
)
from hermes_memory.text.name_extent import (
    ABBREVIATED,
    in_shouted_run,
    joined,
    name_at,
    name_goes_on,
    name_word,
    particles_end,
    possessed_end,
)
from hermes_memory.text.preferences import object_starts
from hermes_memory.text.products import after_model, after_status, model_end
from hermes_memory.text.reading import Mention
from hermes_memory.text.titles import quoted_title, title_line

ENTITY_TYPES = ("person", "project", "tech", "org", "place", "concept")

# Words that end a preference's object ("I prefer spaces now", "I like tea best";
# "these days" and "a lot" end at their first word).
_OBJECT_END = NP_STOP | frozenset(
    "now nowadays today tonight tomorrow yesterday anymore lately recently again instead "
    "still though anyway more less better best then also either".split()
)
# Words that number the stages of something ("Phase 2", "Sprint 4").
_NUMBERED = frozenset(
    "phase step part sprint week chapter stage level round day milestone section article "
    "clause lesson page".split()
)
# A light verb alone ("I love having you here") names no preference.
_LIGHT_GERUNDS = frozenset(
    "having being doing making taking getting seeing going using trying".split()
)
# A lone capitalised word opening a sentence that reads as a gerund or an adverb
# ("Painting has been my escape", "Unfortunately, ...", "Nightly builds fail") is not a
# name.
_GERUND_OR_ADVERB = re.compile(
    r"[A-Z][a-z]{2,}(?:ing|ally|ately|fully|ously|estly|itely|utely|ctly|ibly|ably|edly|ively"
    r"|ently|antly|ingly|arly)|(?:Hour|Dai|Night|Week|Fortnight|Month|Quarter|Year)ly"
)
# A gerund or a past tense opening a sentence before a name is no part of it ("Using
# Docker"; "Watched Breaking Bad" from a writer who also writes "watched").
_VERB_FORM = re.compile(r"[A-Z][a-z]+(?:ing|ed)")
# Capitalised words that open a project's name, and all-capital words that are file formats
# and units rather than names ("writes CSV files to S3").
_PROJECT_WORDS = frozenset({"Project", "Operation", "Initiative"})
_NOT_NAMES = NP_STOP | STARTERS
_CONTEXT_CHARS = 120
# A markdown heading, and a bold label opening a line: guessed names are not read in them.
_HEADING = re.compile(r"\s*#{1,6}\s")
# Its bold span may end in the colon, or stand alone on its line ("**Limit Display
# Updates**", "1. **Identify the Given Information:**").
_BOLD_LABEL = re.compile(
    r"\s*(?:[-*+>]\s*|\d+[.)]\s*)?\*\*(?:[^*\n]{1,80}\*\*\s*(?::|\n|$)|[^*\n]{1,80}:\*\*)"
)
# What may come before a word that still opens its line: list and heading markup,
# numbering, emphasis, quotes, and a short label ending in a colon ("### Step 1: Ensure
# ...", "- **10:00 - 11:00 AM:** Set up ...", 'error: "Invalid ...'). Assistants'
# answers are markdown; read as prose, their imperatives became people ("Ensure").
_OPENER = re.compile(r"[\s>#*_+•·\-]*(?:\d+[.)])?(?:[^\n]{0,40}:)?[\s*_\"'“‘(]*")
# A label's colon just before a word: what follows opens a clause ("Fixes: Added ...").
_AFTER_COLON = re.compile(r":\s*[\"'“‘*_]*$")
# "O'Brien" is one word; any other apostrophe ends one.
_TOKEN = re.compile(rf"{ELIDED_SURNAME}|[^\W_][\w.+#-]*[\w+#]|[^\W_]|'s\b|[^\w\s]")


def find_mentions(
    sentence: str, limit: int | None = None, common: Callable[[str], bool] | None = None
) -> list[Mention]:
    """The names in ``sentence``, in order (at most ``limit``). ``common`` tells whether
    a capitalised word is one the writer also uses as a common word (text/casing.py)."""
    table = KNOWN
    found_toks = islice(_TOKEN.finditer(sentence), MAX_SENTENCE_TOKENS)
    toks = [(m.group(), m.start(), m.end()) for m in found_toks]
    # Found once: searching each token's prefix for a verb was quadratic in the length.
    objects_at = object_starts(sentence)
    # A block at a time: what a sentence holds past ``limit`` names is not read.
    inert = inert_tokens(toks, objects_at, 0, INERT_BLOCK)
    out: list[Mention] = []
    i = 0
    while i < len(toks):
        if i >= len(inert):
            inert += inert_tokens(toks, objects_at, len(inert), i + INERT_BLOCK)
        if inert[i]:
            i += 1
            continue
        found = (
            _title(sentence, toks, i)
            or _known(toks, i)
            or (_preference_object(toks, i) if toks[i][1] in objects_at else None)
            or _identifier(toks, i)
            or component_at(toks, i, table)
            or _name(sentence, toks, i, common)
        )
        if found is None:
            i += 1
            continue
        mention, i = found
        if mention is None:  # words that look like names and are not: skipped whole
            continue
        out.append(mention)
        if limit is not None and len(out) >= limit:
            break
    return out


def _title(sentence: str, toks: list[tuple[str, int, int]], i: int) -> tuple[Mention, int] | None:
    found = quoted_title(toks, i)
    if found is None:
        return None
    start, end, nxt = found
    said = sentence[start:end]
    if said.lower() in KNOWN:
        return None  # '"Docker"': a known name, quoted
    return Mention(said, "concept", start, end, said), nxt


def _known(toks: list[tuple[str, int, int]], i: int) -> tuple[Mention, int] | None:
    for n in range(min(LONGEST.get(toks[i][0].lower(), 0), len(toks) - i), 0, -1):
        words = toks[i : i + n]
        key = " ".join(w for w, _, _ in words).lower()
        hit = KNOWN.get(key)
        if hit is None:
            continue
        if n == 1 and key in AMBIGUOUS and not words[0][0][:1].isupper():
            continue
        if n == 1 and key in IMPERATIVES and _opens(toks, i) and not name_follows(toks, i + 1):
            continue  # "Go to the console": an instruction's verb; "Go is fast" is a name
        nxt = i + n
        if n == 1 and hit[1] == "place" and name_goes_on(toks, nxt):
            return None  # "Paris Hilton", "Denver Broncos": a name that opens with a place
        if hit[1] in ("tech", "org"):
            # "Grafana Cloud", "Apple Music", "OnePlus 9 Pro": the maker's product
            k = _product_end(toks, nxt, 3, lambda k: name_goes_on(toks, k))
            if k > nxt:
                said = " ".join([hit[0]] + [w for w, _, _ in toks[nxt:k]])
                return Mention(said, "tech", words[0][1], toks[k - 1][2], said), k
        if hit[1] in ("tech", "org") and nxt < len(toks) and toks[nxt][0].lower() in ORG_HEADS:
            nxt += 1  # "Acme Corp"-style suffixes stay with the name
        return Mention(hit[0], hit[1], words[0][1], toks[nxt - 1][2], key), nxt
    return None


def _product_end(
    toks: list[tuple[str, int, int]], j: int, most: int, goes_on: Callable[[int], bool]
) -> int:
    """Where a product's name ends that may go on at ``j`` with up to ``most`` further
    words (``goes_on``) and then a model number."""
    k = j
    while k < len(toks) and k - j < most and goes_on(k):
        k += 1
    return model_end(toks, k)


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


def _opens(toks: list[tuple[str, int, int]], i: int) -> bool:
    """Whether token ``i`` opens its sentence or list item (nothing but markup before)."""
    return i == 0 or not toks[i - 1][0][:1].isalnum()


def _identifier(toks: list[tuple[str, int, int]], i: int) -> tuple[Mention, int] | None:
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
        k = _product_end(toks, i + 1, 2, lambda k: _continues_product(toks[k][0]))
        name = " ".join(w for w, _, _ in toks[i:k])
        return Mention(name, "tech", start, toks[k - 1][2], name), k
    return None


# A name and its model number in one word ("ResNet-50", "Llama-3.1", "MIL-STD-810G"); not
# a numbered label ("UI-01") or a span of years ("Mid-2024").
_MODEL_NAME = re.compile(r"([A-Z][A-Za-z]*)(?:-[A-Za-z]+)*-[1-9]\d*(?:\.\d+)*[A-Za-z]?")
_NOT_MODELS = (
    STARTERS
    | _NUMBERED
    | frozenset("mid pre post late early top type room gate size grade".split())
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
    parts = word.split("-")
    if parts[0] in _PREFIXES or len(parts[0]) == 1 or not _PARTICLES.isdisjoint(parts):
        return False  # "self-service", "in-app", "x-axis", "step-by-step", "end-to-end"
    if parts[-1] in _ID_HEADS:
        return True
    if any(p.isdigit() for p in parts) or parts[-1].endswith(("ing", "ed")):
        return False  # "problem-solving", "lazy-loaded": an adjective
    if len(parts[-1]) > 4 and parts[-1].endswith(("er", "or")):
        return True
    det = i > 0 and toks[i - 1][0].lower() in {"the", "our", "their", "my", "your"}
    return det and i + 1 < len(toks) and _VERB_NEXT.fullmatch(toks[i + 1][0]) is not None


# Small words of a phrase joined into one word ("step-by-step", "out-of-the-box").
_PARTICLES = frozenset("by of the to and or in on at for with off out up vs".split())
_TWO_LETTERS = re.compile(r"[a-z]{2}")
# Kebab words that are English compounds, not names ("two-factor", "pre-order").
_PREFIXES = frozenset(
    "a an e re pre post co non un anti self cross multi semi sub super inter over under "
    "one two three four five half well long short high low real full part end".split()
)
# A release number after a name makes it software ("Workbox 7.0.0", "Vite v5.2").
_RELEASE = re.compile(r"v?\d+\.\d+(?:\.\d+)*")
_VERB_NEXT = re.compile(r"[a-z]+(?:s|ed)|is|was|has|had|will|can|should|must")


def _preference_object(toks: list[tuple[str, int, int]], i: int) -> tuple[Mention, int] | None:
    """The object of a preference verb that ends just before token ``i``."""
    words: list[tuple[str, int, int]] = []
    j = i
    while j < len(toks) and len(words) < 3:
        w = toks[j][0]
        if not PLAIN.fullmatch(w) or w.lower() in _OBJECT_END:
            break
        if w.lower() in KNOWN:
            return None
        words.append(toks[j])
        j += 1
    if not words or (len(words) == 1 and words[0][0].lower() in _LIGHT_GERUNDS):
        return None
    if words[0][0][:1].isupper() and (k := _of_end(toks, j)) > j:
        words += toks[j:k]  # "I love Lord of the Rings"
        j = k
    name = " ".join(w for w, _, _ in words)
    if not name[:1].isupper():
        name = name.lower()
    return Mention(name, "concept", words[0][1], words[-1][2], name), j


def _name(
    sentence: str,
    toks: list[tuple[str, int, int]],
    i: int,
    common: Callable[[str], bool] | None = None,
) -> tuple[Mention | None, int] | None:
    """A capitalised name at ``i`` typed by its context; ``(None, j)`` when the words up to
    ``j`` look like one and are not (a heading, a step of an instruction)."""
    words: list[tuple[str, int, int]] = []
    j = i
    extended = False
    while j < len(toks) and len(words) < 4:
        w = toks[j][0]
        low = w.lower()
        if w == "AI" and words and toks[j][1] == toks[j - 1][2] + 1:
            words.append(toks[j])  # "Vertex AI", "Mistral AI": the name's last word
            j += 1
            break
        if not name_word(w):
            break
        if low in NOT_ACRONYMS or (w.isupper() and (low in SHOUTED or low in ROLE_ACRONYMS)):
            break
        if w.isupper() and in_shouted_run(toks, j):
            break  # "AS OF SYSTEM TIME": a clause of SQL, its every word in capitals
        words.append(toks[j])
        j += 1
        if w in ABBREVIATED and joined(toks, j, ".") and name_at(toks, j + 1):
            j += 1  # "St. Louis", "Mt. Hood": the abbreviation's point is in the name
            extended = True
        elif (
            joined(toks, j, "'s")
            or (w.endswith("s") and (joined(toks, j, "'") or joined(toks, j, "’")))
        ) and (k := possessed_end(toks, j + 1, 4 - len(words))) > j:
            words += toks[j:k]  # "St Mary's Hospital", "Macy's Bakery": one institution
            j, extended = k, True
        elif j + 1 < len(toks) and toks[j][0] == "&" and name_at(toks, j + 1) and len(words) < 3:
            words.append(toks[j])  # "Weights & Biases", "Procter & Gamble": one name
            j, extended = j + 1, True
        elif (k := particles_end(toks, i, j)) > j and len(words) + k - j < 4:
            words += toks[j:k]  # "Jan de Vries", "Ursula von der Leyen": one person
            j = k
    if not words:
        return None
    name = " ".join(w for w, _, _ in words)
    if extended:  # as written: "St. Mary's Hospital"
        name = sentence[words[0][1] : words[-1][2]]
    if len(words) == 1 and name.lower() in MONTH_ABBREVIATIONS and _by_a_day(toks, i, j):
        return None, j  # "Jan 15", "3 Mar": a date (first: no check below makes it a name)
    start = words[0][1]
    # The words just before a name tell its kind; a bounded window keeps a long
    # sentence of many names linear instead of re-reading its whole prefix each time.
    before = sentence[max(0, start - _CONTEXT_CHARS) : start]
    if _HEADING.match(sentence) or ((label := _BOLD_LABEL.match(sentence)) and start < label.end()):
        return None, j  # "## Error Handling", "- **Error Handling**: ...": titles, not names
    at_open = len(before) == start and _OPENER.fullmatch(before) is not None
    if at_open and words[-1][0] == "AI":
        return None, j  # "Strong AI features", "Uses AI to ...": a label's words, no name
    if at_open and words[0][0].lower() in IMPERATIVES:
        return None, j  # "Ensure users can ...", "Remove Outliers": a step, not a name
    if past_of_step(words[0][0]) and (at_open or _AFTER_COLON.search(before)):
        # "- Added Sentry", "Strategies: Used Wireshark to ...": what was done, not who
        return (None, i + 1) if len(words) > 1 else None
    verb = at_open and len(words) > 1 and _VERB_FORM.fullmatch(words[0][0])
    gerund = verb and words[0][0].endswith("ing")
    light = gerund and words[0][0].lower() in _LIGHT_GERUNDS
    if verb and (
        (gerund and _known(toks, i + 1)) or light or (common is not None and common(words[0][0]))
    ):
        return None, i + 1  # "Using Docker", "Using Morgan for logs", "Watched Breaking Bad"
    labelled = at_open and len(words) > 1 and j < len(toks) and toks[j][0] == ":"
    if labelled and common is not None and common(words[-1][0]):
        return None, j  # "Key Features:", "Compliance Labels:": a label, not a name
    if title_line(sentence, start):
        return None, j
    if len(words) == 1 and (name.lower() in LITERALS or name.lower() in DEMONYMS):
        return None  # "`None`", "British spelling"
    if words[-1][0].lower() in LANGUAGES and all(
        _describes_a_language(w) for w, _, _ in words[:-1]
    ):
        return Mention(name, "concept", start, words[-1][2], name), j  # "British English"
    if len(words) == 1 and at_open and name.lower() in EXCLAMATIONS:
        return None  # "Beautiful, they did it in a garden"
    if len(words) == 1 and name.lower() in _NUMBERED and j < len(toks) and toks[j][0].isdigit():
        return None, j + 1  # "Phase 2", "Step 3": a stage of something, no name
    titled = _of_end(toks, j)
    if titled > j:  # "Game of Thrones", "the University of Toronto": one name, no person
        if at_open and not name_follows(toks, titled):
            return None, titled
        last = toks[titled - 1][2]
        said = sentence[start:last]
        return Mention(
            said, OF_KINDS.get(words[0][0].lower(), "concept"), start, last, said
        ), titled
    # A quotation or a table's cell opens a sentence ('"Error: ...', "| Test joining |").
    cell = before.rstrip(" \t").endswith("|") and j < len(toks) and toks[j][0] != "|"
    opens = len(words) == 1 and (at_open or cell or before.endswith(('"', "“")))
    if opens and (not name_follows(toks, j) or _GERUND_OR_ADVERB.fullmatch(name)):
        return None  # "Deploys run ...": a capitalised first word is not yet a name
    prev = toks[i - 1][0] if i else ""
    if len(words) == 1 and role_in_capitals(prev, name):
        return None, j  # "my GP": who they are to the speaker, named after
    # after a maker's or a tool's name: its line or its part ("Dell XPS", "Docker Compose")
    after_maker = KNOWN.get(prev.lower(), ("", ""))[1] in ("tech", "org")
    if after_status(toks, i):
        return None, j  # "401 Unauthorized", "500 Internal Server Error"
    if prev == ":" and i > 1 and toks[i - 2][2] == toks[i - 1][1] and toks[i - 1][2] == start:
        return None, j  # "token:String", "expiryDate:Date": a field's type, in code
    end = model_end(toks, j)
    if end > j or after_model(toks, i):
        last = toks[end - 1][2]
        product = sentence[start:last]
        return Mention(product, "tech", start, last, product), end
    guessed = False
    low = before.lower()
    closing = words[-1][0].lower() if len(words) > 1 else ""
    first = words[0][0].lower() if len(words) > 1 else ""
    shaped = first in PLACE_NAME_OPENERS or (
        closing in PLACE_NAME_HEADS
        # "Park" is a family name too: "Alice Park" is a place only where one is said to be
        and (closing != "park" or re.search(r"\b(at|in|to|from|near|around|visit\w*)\s+$", before))
    )
    # The noun and its "," or "called" end within the last 40 characters.
    named = named_as(before[-40:], [t[0] for t in toks[j : j + 2]])
    if words[0][0] in _PROJECT_WORDS and len(words) > 1:
        kind = "project"  # "Project Atlas"
    elif words[-1][0] == "AI" and len(words) > 1:
        kind = "tech"  # "train in Vertex AI": a product, not a place
    elif named is not None:
        kind = named  # "their member app, Tidewater", "their vendor, Mindbody,"
    elif MADE.search(low[-40:]) and not ACRONYM.fullmatch(name):
        kind = "project"  # "I'm building Tidewater", "Bob maintains Atlas"
    elif shaped:
        kind = "place"  # "New Gary Park", "Mount Rainier"
    elif closing in ORG_NAME_HEADS:
        kind = "org"  # "New Gary Public Library", "St Mary's Hospital"
    elif (
        len(words) == 1
        and name.lower() in DEPARTMENTS
        and (name_follows(toks, j) or DEPARTMENT_CONTEXT.search(low))
    ):
        kind = "org"  # "Finance says ...", "talked to Marketing": a department
    elif SUPPLIER_SWITCH.search(low[-TOOL_CHARS:]):
        kind = "org"  # "switching butter supplier to Corman"
    elif any(
        p.search(low[-TOOL_CHARS:])
        for p in (BUILT_WITH, HOSTED, STORED_AS, WORKED_WITH, SWITCHED_TO, ARTEFACT_IN)
    ):
        kind = "tech"
    elif PLACE_CONTEXT.search(low) and (
        not re.search(r"\b(with|for)\s+$", before) or LEAVING_FOR.search(low)
    ):
        kind = "place"
    elif len(words) == 1 and prev.lower() in ("a", "an") and ACRONYM.fullmatch(name):
        # "with an LSTM", "spin up a VM": a thing, no body; a guess only as a modifier
        # ("an LGBTQ group", "an NHS hospital")
        nxt = toks[j][0] if j < len(toks) else ""
        kind, guessed = "tech", nxt[:1].islower() and nxt.lower() not in NP_STOP
    elif ORG_CONTEXT.search(low) or words[-1][0].isupper():
        kind = "org"
        # "built it for Harbor Fitness" as often as "a gift for Sarah": a guess; so is
        # an acronym alone, a body as often as a thing ("the FBI", "the LSTM", "NASA",
        # "SLURM"), but not a maker's line ("Dell XPS")
        guessed = (low.endswith("for ") and _WORKS_FOR.search(low) is None) or (
            ORG_CONTEXT.search(low) is None and len(words) == 1 and not after_maker
        )
    elif (
        TOOL_CONTEXT.search(low[-TOOL_CHARS:])
        or (j < len(toks) and toks[j][0].lower() in TOOL_NEXT)
        or (j < len(toks) and _RELEASE.fullmatch(toks[j][0]) is not None)  # "Workbox 7.0.0"
        or after_maker  # "Docker Compose"
        or before.endswith("`")  # code: "my `Detector` class"
        or weighed_against_tool(toks, i, j, _tool_word)
        or ("-" in name and name.rpartition("-")[2].lower() in HEADER_TAILS)
    ):
        kind = "tech"
    elif len(words) > 1 and words[-1][0].lower() in PRODUCT_HEADS:
        kind = "tech"  # "Task Scheduler", "Twitter Developer Portal", "Secrets Manager"
    elif prev.lower() in ("the", "a", "an") or _abstract(words):
        kind, guessed = "concept", True  # "the Directrix", "Mathematical Induction"
    else:
        if opens and common is not None and common(name):
            return None  # "Dance is my life" from a writer who says "I love to dance"
        if PET_BEFORE.search(low):
            return None, j  # "our dog Biscuit", "a kitten named Bailey": no person
        if len(words) == 1 and owned_thing(prev, name):
            kind, guessed = "tech", True  # "on my Mac", "his Pixel": someone's device
        else:
            kind, guessed = "person", True
    travel = TRAVEL.search(low)
    if (
        kind == "place"
        and not shaped
        and re.search(r"\b(to|from)\s+$", low)
        and not travel
        and not _ORIGIN.search(low)
        and not _region_follows(toks, j)
    ):
        # "talks to Carol", "heard from Bob"; not "from Davistown, Palau"; an acronym
        # is a body more often than a person ("sent it to AWS", "a ticket from IT")
        kind, guessed = ("org", False) if ACRONYM.fullmatch(name) else ("person", True)
    if "&" in name and kind in ("person", "place"):
        # "to Weights & Biases": a firm's name, no one's; "Settings & Privacy" a topic
        kind, guessed = ("concept" if _abstract(words) else "org"), True
    return Mention(name, kind, words[0][1], words[-1][2], name, guessed), j


_WORKS_FOR = re.compile(r"\bwork(?:s|ed|ing)? for\s+$")
# Where someone is from, not whom something came from ("I'm from Porto", "we're
# originally from Cork"; "heard from Bob" stays a person).
_ORIGIN = re.compile(r"\b(?:i['’]m|i am|we['’]re|we are|originally|grew up) from\s+$")


def _by_a_day(toks: list[tuple[str, int, int]], i: int, j: int) -> bool:
    """Whether a day's number stands just before ``i`` or at ``j``."""
    near = ([toks[i - 1][0]] if i else []) + ([toks[j][0]] if j < len(toks) else [])
    return any(DAY_NUMBER.fullmatch(w) for w in near)


# What sets a language's variety apart, before its name ("Simplified Chinese").
_VARIETIES = frozenset("simplified traditional standard modern classical ancient".split())


def _describes_a_language(word: str) -> bool:
    """Whether ``word`` may qualify a language's name: a people, another language, a
    variety ("Brazilian Portuguese", "Swiss German", "Simplified Chinese")."""
    low = word.lower()
    return low in DEMONYMS or low in LANGUAGES or low in _VARIETIES


def _tool_word(word: str) -> bool:
    """A file format ("CSV") or a tool the gazetteer knows."""
    low = word.lower()
    return low in NOT_ACRONYMS or KNOWN.get(low, ("", ""))[1] == "tech"


def _of_end(toks: list[tuple[str, int, int]], j: int) -> int:
    """Where a name continued by "of (the) <Capitalised>" ends, or ``j``."""
    if j + 1 >= len(toks) or toks[j][0] != "of":
        return j
    k = j + 2 if toks[j + 1][0] == "the" else j + 1
    end = k
    while end < len(toks) and end - k < 3:
        w = toks[end][0]
        if not name_word(w):
            break
        end += 1
    return end if end > k else j


def _region_follows(toks: list[tuple[str, int, int]], j: int) -> bool:
    """Whether a known place follows the name ending at ``j`` after a comma ("Austin,
    Texas"): the name is a place within it."""
    if j + 1 >= len(toks) or toks[j][0] != ",":
        return False
    region = _known(toks, j + 1)
    return region is not None and region[0].type == "place"


def _abstract(words: list[tuple[str, int, int]]) -> bool:
    last = words[-1][0]
    return NOMINAL.fullmatch(last) is not None or (
        len(words) > 1 and NOMINAL_AFTER_A_WORD.fullmatch(last) is not None
    )

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
    component_at,
)
from hermes_memory.text.gazetteer import (
    AMBIGUOUS,
    CLOUD_SERVICES,
    FORMER_NAMES,
    KNOWN,
    LANGUAGES,
    LONGEST,
)
from hermes_memory.text.identifiers import NUMBERED, identifier, link_scheme, product_end
from hermes_memory.text.inert import INERT_BLOCK, inert_tokens
from hermes_memory.text.kinds import (
    ACRONYM,
    DEPARTMENT_CONTEXT,
    DEPARTMENTS,
    HEADER_TAILS,
    LEAVING_FOR,
    LEFT_WORK,
    MADE,
    OF_KINDS,
    ORG_CONTEXT,
    ORG_NAME_HEADS,
    PET_BEFORE,
    PLACE_CONTEXT,
    PLACE_NAME_HEADS,
    PLACE_NAME_OPENERS,
    PLACE_SUFFIX,
    PRODUCT_HEADS,
    SOMEONE_FROM,
    SUPPLIER_SWITCH,
    TOOL_BEFORE,
    TOOL_CHARS,
    TOOL_CONTEXT,
    TOOL_NEXT,
    TRAVEL,
    WORK_BEFORE,
    instance_of,
    joined_a_body,
    left_a_body,
    name_follows,
    named_as,
    owned_thing,
    role_in_capitals,
    speaks_after_name,
    weighed_against_tool,
)
from hermes_memory.text.letters import ELIDED_SURNAME
from hermes_memory.text.lexicon import (
    DAY_NUMBER,
    DEMONYMS,
    EXCLAMATIONS,
    IMPERATIVES,
    LIGHT_GERUNDS,
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
    of_end,
    particles_end,
    possessed_end,
)
from hermes_memory.text.people import guessed_kind
from hermes_memory.text.preferences import object_starts, preference_object
from hermes_memory.text.products import after_model, after_status, model_end
from hermes_memory.text.reading import Mention
from hermes_memory.text.titles import quoted_title, title_line

ENTITY_TYPES = ("person", "project", "tech", "org", "place", "concept")

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
# Verbs whose object is someone: "Ask Priya ..." opens with a step and names a person.
_ADDRESSED = frozenset("ask tell ping remind thank invite contact email cc notify".split())
# Capitalised words that open a project's name, and all-capital words that are file formats
# and units rather than names ("writes CSV files to S3").
_PROJECT_WORDS = frozenset({"Project", "Operation", "Initiative"})
_NOT_NAMES = NP_STOP | STARTERS
_CONTEXT_CHARS = 120
_WORK_CHARS = 40
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
# A name needs two letters in a row ("Go", "jq"), not a formula's command ("\cdot"), or a
# letter and a digit ("S3", "k6"); a sentence without them is not tokenized at all.
_WORDY = re.compile(r"(?<!\\)(?<![^\W\d_])[^\W\d_]{2}|[^\W\d_]\d")
# "O'Brien" is one word; any other apostrophe ends one.
_TOKEN = re.compile(rf"{ELIDED_SURNAME}|[^\W_][\w.+#-]*[\w+#]|[^\W_]|'s\b|[^\w\s]")


def find_mentions(
    sentence: str, limit: int | None = None, common: Callable[[str], bool] | None = None
) -> list[Mention]:
    """The names in ``sentence``, in order (at most ``limit``). ``common`` tells whether
    a capitalised word is one the writer also uses as a common word (text/casing.py)."""
    if _WORDY.search(sentence) is None:
        return []  # "\[ S_{0} = a_1 + d_1 \cdot x_0 \]": no word a name is made of
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
        if inert[i] or (i and toks[i - 1][0] == "\\" and toks[i - 1][2] == toks[i][1]):
            i += 1  # nothing, or a formula's command ("\Delta", "\theta_i")
            continue
        found = (
            _title(sentence, toks, i)
            or _known(toks, i)
            or (preference_object(toks, i) if toks[i][1] in objects_at else None)
            or identifier(toks, i)
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


def _known(
    toks: list[tuple[str, int, int]], i: int, parts_only: bool = False
) -> tuple[Mention, int] | None:
    """The known name at ``i`` and the token after it; with ``parts_only`` a maker's
    product goes on only in words that name a product's part ("Redis Server", not
    "Redis Configuration")."""
    if link_scheme(toks, i):
        return None  # "http://localhost:5173": no use of HTTP
    for n in range(min(LONGEST.get(toks[i][0].lower(), 0), len(toks) - i), 0, -1):
        words = toks[i : i + n]
        key = " ".join(w for w, _, _ in words).lower()
        hit = KNOWN.get(key)
        if hit is None:
            continue
        if n == 1 and key in AMBIGUOUS and not words[0][0][:1].isupper():
            continue
        if n == 1 and key in AMBIGUOUS and hit[0].isupper() and not words[0][0].isupper():
            continue  # "Encryption at Rest": REST is written in capitals
        if n == 1 and key in IMPERATIVES and _opens(toks, i) and not name_follows(toks, i + 1):
            continue  # "Go to the console": an instruction's verb; "Go is fast" is a name
        nxt = i + n
        if n == 1 and hit[1] == "place" and name_goes_on(toks, nxt):
            return None  # "Paris Hilton", "Denver Broncos": a name that opens with a place
        if hit[1] in ("tech", "org"):
            # "Grafana Cloud", "Apple Music", "OnePlus 9 Pro": the maker's product;
            # "Azure AI Search": its AI product's part
            k = nxt + 2 if _ai_part(toks, nxt) else nxt
            k = product_end(
                toks,
                k,
                3,
                lambda k: name_goes_on(toks, k) and (not parts_only or _product_part(toks[k][0])),
            )
            if (
                k == nxt
                and key in FORMER_NAMES
                and nxt < len(toks)
                and ACRONYM.fullmatch(toks[nxt][0])
            ):
                k = nxt + 1  # "Facebook SDK": a product still called after the old name
            if k > nxt and hit[0] in CLOUD_SERVICES:
                return Mention(hit[0], hit[1], words[0][1], toks[nxt - 1][2], key), k
            if k > nxt:
                maker = key.title() if key in FORMER_NAMES else hit[0]
                said = " ".join([maker] + [w for w, _, _ in toks[nxt:k]])
                return Mention(said, "tech", words[0][1], toks[k - 1][2], said), k
        if hit[1] in ("tech", "org") and nxt < len(toks) and toks[nxt][0].lower() in ORG_HEADS:
            nxt += 1  # "Acme Corp"-style suffixes stay with the name
        return Mention(hit[0], hit[1], words[0][1], toks[nxt - 1][2], key), nxt
    return None


def _opens(toks: list[tuple[str, int, int]], i: int) -> bool:
    """Whether token ``i`` opens its sentence or list item (nothing but markup before)."""
    return i == 0 or not toks[i - 1][0][:1].isalnum()


# What a product's part is called after its maker's "AI" ("Vertex AI Pipelines").
_AI_PARTS = PRODUCT_HEADS | frozenset("pipeline platform search workbench foundry agent".split())


def _ai_part(toks: list[tuple[str, int, int]], j: int) -> bool:
    """Whether "AI" and a product's part follow at ``j`` ("Azure AI Search")."""
    return (
        j + 1 < len(toks)
        and toks[j][0] == "AI"
        and name_word(toks[j + 1][0])
        and _product_part(toks[j + 1][0])
    )


def _product_part(word: str) -> bool:
    low = word.lower()
    return low in _AI_PARTS or (low.endswith("s") and low[:-1] in _AI_PARTS)


# A release number after a name makes it software ("Workbox 7.0.0", "Vite v5.2").
_RELEASE = re.compile(r"v?\d+\.\d+(?:\.\d+)*")


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
            if j < len(toks) and name_word(toks[j][0]) and _product_part(toks[j][0]):
                words.append(toks[j])  # "Vertex AI Pipelines", "Azure AI Search": its part
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
    if at_open and len(words) > 1 and words[0][0].lower() in _ADDRESSED:
        rest = words[1:]
        plural = rest[-1][0].removesuffix("s")
        if (
            rest[0][0].lower() in DEPARTMENTS
            or _abstract(rest)
            or NOMINAL.fullmatch(plural)
            or (common and common(rest[0][0]))
        ):
            return None, j  # "Contact Support", "Email Notifications": no one addressed
        return None, i + 1  # "Ask Priya to review it", "Remind Ana ...": someone, read alone
    if at_open and words[0][0].lower() in IMPERATIVES:
        if i + 1 < len(toks) and (step := _known(toks, i + 1, parts_only=True)):
            # "Install Redis first", "Check Redis Configuration": the step's known
            # name; the rest of a step's title case names nothing
            end = max(step[1], j)
            while name_goes_on(toks, end):
                end += 1
            return step[0], end
        return None, j  # "Ensure users can ...", "Remove Outliers": a step, not a name
    if past_of_step(words[0][0]) and (at_open or _AFTER_COLON.search(before)):
        # "- Added Sentry", "Strategies: Used Wireshark to ...": what was done, not who
        return (None, i + 1) if len(words) > 1 else None
    verb = at_open and len(words) > 1 and _VERB_FORM.fullmatch(words[0][0])
    gerund = verb and words[0][0].endswith("ing")
    light = gerund and words[0][0].lower() in LIGHT_GERUNDS
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
    if len(words) == 1 and name.lower() in NUMBERED and j < len(toks) and toks[j][0].isdigit():
        return None, j + 1  # "Phase 2", "Step 3": a stage of something, no name
    titled = of_end(toks, j)
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
    shaped = (
        first in PLACE_NAME_OPENERS
        or (len(words) == 1 and PLACE_SUFFIX.search(name) is not None)  # "Davistown"
    ) or (
        closing in PLACE_NAME_HEADS
        # "Park" is a family name too: "Alice Park" is a place only where one is said to be
        and (closing != "park" or re.search(r"\b(at|in|to|from|near|around|visit\w*)\s+$", before))
    )
    # The noun and its "," or "called" end within the last 40 characters.
    named = named_as(before[-40:], [t[0] for t in toks[j : j + 2]])
    if words[0][0] in _PROJECT_WORDS and len(words) > 1:
        kind = "project"  # "Project Atlas"
    elif "AI" in (w for w, _, _ in words[1:]):
        kind = "tech"  # "train in Vertex AI (Pipelines)": a product, not a place
    elif named is not None:
        kind = named  # "their member app, Tidewater", "their vendor, Mindbody,"
    elif (instance := instance_of(low[-40:])) is not None:
        kind = instance  # "graphing software like Desmos", "games like Fortnite"
    elif WORK_BEFORE.search(low[-_WORK_CHARS:]):
        kind = "concept"  # "the book Atomic Habits", "her new album Midnights"
    elif (paired := _slashed_kind(toks, i)) is not None:
        kind = paired  # "worked at Oracle/Sun": a name written against a firm's is one
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
    elif any(p.search(low[-TOOL_CHARS:]) for p in TOOL_BEFORE):
        kind = "tech"
    elif SOMEONE_FROM.search(before) and speaks_after_name(toks, i):
        kind, guessed = "org", True  # "Priya from Globex told me": where Priya works
    elif LEFT_WORK.search(low) and left_a_body(toks, j):
        kind, guessed = "org", True  # "I left Acme last year", "resigned from Initech"
    elif PLACE_CONTEXT.search(low) and (
        not re.search(r"\b(with|for)\s+$", before) or LEAVING_FOR.search(low)
    ):
        kind = "place"
    elif len(words) == 1 and prev.lower() in ("a", "an") and ACRONYM.fullmatch(name):
        # "with an LSTM", "spin up a VM": a thing, no body; a guess only as a modifier
        # ("an LGBTQ group", "an NHS hospital")
        nxt = toks[j][0] if j < len(toks) else ""
        kind, guessed = "tech", nxt[:1].islower() and nxt.lower() not in NP_STOP
    elif _JOINED.search(low) and not joined_a_body(toks, j):
        kind, guessed = "person", True  # "I joined Sarah for dinner", "joined Sarah and Tom"
    elif ORG_CONTEXT.search(low) or (
        # an acronym used, installed or configured is a tool ("using BERT", "configured ARIA")
        words[-1][0].isupper()
        and (len(words) > 1 or after_maker or not TOOL_CONTEXT.search(low[-TOOL_CHARS:]))
    ):
        kind = "org"
        # "built it for Harbor Fitness" as often as "a gift for Sarah": a guess; so is
        # an acronym alone, a body as often as a thing ("the FBI", "the LSTM", "NASA",
        # "SLURM"), but not a maker's line ("Dell XPS")
        guessed = (low.endswith("for ") and _WORKS_FOR.search(low) is None) or (
            ORG_CONTEXT.search(low) is None and len(words) == 1 and not after_maker
        )
        if len(words) > 1 and not after_maker and not _body_said(low):
            # "Retina XDR", "the EB CLI", "Full HD": a product's or a standard's name
            kind, guessed = "tech", True
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
    elif prev.lower() in _THINGS_AFTER or _abstract(words):
        # "the Directrix", "Mathematical Induction", "drank some Gatorade": no one is
        # counted out by a quantifier
        kind, guessed = "concept", True
    else:
        if opens and common is not None and common(name):
            return None  # "Dance is my life" from a writer who says "I love to dance"
        if PET_BEFORE.search(low):
            return None, j  # "our dog Biscuit", "a kitten named Bailey": no person
        if len(words) == 1 and owned_thing(prev, name):
            kind, guessed = "tech", True  # "on my Mac", "his Pixel": someone's device
        else:  # "games like Fortnite", "Night Sight mode": no one unless said to be
            names = [w for w, _, _ in words]
            kind, guessed = guessed_kind(sentence, toks, (i, j), names, opens, common), True
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


def _slashed_kind(toks: list[tuple[str, int, int]], i: int) -> str | None:
    """The kind of a known tool or firm written against the name at ``i`` across a
    slash ("IBM/Shopify", "Postgres/Timescale"), or None."""
    if i < 2 or toks[i - 1][0] != "/" or toks[i - 1][1] != toks[i - 2][2]:
        return None
    if toks[i][1] != toks[i - 1][2]:
        return None
    kind = KNOWN.get(toks[i - 2][0].lower(), ("", ""))[1]
    return kind if kind in ("tech", "org") else None


_WORKS_FOR = re.compile(r"\bwork(?:s|ed|ing)? for\s+$")
_EMPLOYED_BY = re.compile(r"\bwork(?:s|ed|ing)?\s+(?:for|at|with)\s+the\s+$")


def _body_said(low: str) -> bool:
    """Whether the words before a name say it is a body ("works for the BBC")."""
    return ORG_CONTEXT.search(low) is not None or _EMPLOYED_BY.search(low) is not None


_JOINED = re.compile(r"\bjoin(?:ed|ing|s)?\s+$")


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


def _region_follows(toks: list[tuple[str, int, int]], j: int) -> bool:
    """Whether a known place follows the name ending at ``j`` after a comma ("Austin,
    Texas"): the name is a place within it."""
    if j + 1 >= len(toks) or toks[j][0] != ",":
        return False
    region = _known(toks, j + 1)
    return region is not None and region[0].type == "place"


_THINGS_AFTER = frozenset("the a an some any more much less enough".split())


def _abstract(words: list[tuple[str, int, int]]) -> bool:
    last = words[-1][0]
    return NOMINAL.fullmatch(last) is not None or (
        len(words) > 1 and NOMINAL_AFTER_A_WORD.fullmatch(last) is not None
    )

"""What the words between two names say of them: the relation types with the entity
types each admits, and the trigger phrases that state one ("depends on", "works at",
"my sister"), most specific first. Pure data and lookups; ``extract`` reads sentences
with them."""

from __future__ import annotations

import re

from hermes_memory.text.gazetteer import PROGRAMMING_LANGUAGES, STANDARDS
from hermes_memory.text.kinds import KIN
from hermes_memory.text.mentions import ENTITY_TYPES
from hermes_memory.text.preferences import LIKING
from hermes_memory.text.reading import Mention

# relation -> (head types, tail types); the documented, extensible set.
RELATION_TYPES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "owns": (frozenset({"person", "org", "project"}), frozenset({"project", "tech"})),
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

BOSS = r"(?:team |tech |engineering |phd |thesis )?(?:manager|boss|lead|supervisor)"
# A title between the word for someone and their name ("my physio Dr. Meijer").
_TITLE = r"(?: (?:dr|mr|mrs|ms|prof)\.?)?"
# What may say which relative before the word for them ("my older brother").
KIN_ADJECTIVES = "older|younger|little|big|best|old|new|former"
# A relative or friend named next: "sister", "older brother", "physio Dr.".
_KIN_NAMED = rf"(?:(?:{KIN_ADJECTIVES}) )?(?:{KIN}),?{_TITLE}"

# Being into a thing is a liking of it (not "divided into"); being "interested in" one
# is as often an intention ("interested in learning more about ...").
_INTO = (
    r"(?:^|\s)(?:['’]m|am|are|is|was|were|really|so|totally|very|also|big|still|more|"
    r"always|been) into$"
)
# What says someone or something is one of a group's, "in" aside (``_MEMBER_IN``).
_MEMBERSHIP = r"member of|part of|belongs? to|joined|^from$"
# Who someone works for: a company, even one named by its product ("I work at Datadog").
# Being at a company, said of oneself: "now I'm at Anthropic" (time words are left out of
# the words between).
BE_AT = re.compile(r"(?:['’]m|am) at")
EMPLOYED = (
    r"work(s|ed|ing)? (\w+ly )?(at|for)|been at|join(?:ed|ing|s)$|employed (at|by)|"
    r"moved from \w+ to|hired (at|by)|\b(job|position|role|internship|team|office) (at|with)|"
    r"\bstart(?:ed|s|ing)? at$|"  # "I left Spotify in June and started at Figma"
    # a contractor's client: "I'm starting a contract with Harbor Fitness"
    r"\bcontract(ing)? (with|for)|\bcontractor (at|for)|freelanc\w* for|"
    rf"^{BE_AT.pattern}$"
)
# A role held somewhere is work there: "I'm a second-year PhD student at TU Delft",
# "I got promoted to staff engineer at Northwind",
# "Marcus Bell is the head of product at Harbor Fitness" (not its manager).
ROLE_AT = (
    r"^(?:['’]m|am|is|['’]s|was|['’]ve been|ha(?:ve|s) been|became|(?:got |was |been )?promoted"
    r" to|started as|joined as) (?:an? |the )?(?:[\w-]+ ){0,3}"
    r"(?:student|researcher|postdoc|professor|lecturer|intern|engineer|developer|designer"
    r"|scientist|analyst|nurse|teacher|consultant|manager|doctor|director|lead|recruiter"
    r"|architect|founder|co-founder|cto|ceo|cfo|coo|vp|head)(?: of [\w-]+)? (?:at|for|with)$"
)

# Trigger phrases in the text between two mentions, most specific first.
TRIGGERS: list[tuple[str, str, bool]] = [  # (regex, relation, reversed)
    (ROLE_AT, "works_at", False),
    # a move recommended, a thing one would rather use: a liking, not a use yet ("Alex
    # recommended switching to X", "I'd rather use Linear")
    (
        r"\brecommend(?:s|ed|ing)? (?:using|switching to|moving to|migrating to|adopting|trying)$"
        r"|(?:\bwould|['’]d) (?:much )?rather (?:use|have|go with|stick with)$",
        "prefers",
        False,
    ),
    (rf"'s {BOSS} is|^(?:new )?{BOSS}(?: is|,)?{_TITLE}$", "reports_to", False),
    # the verb, not the noun: "Kenji reports to Laura", not "I sent the report to Marta"
    (
        r"(?:^|(?:\bwho|\bthat|\bto|\bwill|\bnow|\bstill|\balso|\bdirectly|\band|\bi|"
        r"\bhe|\bshe|\bthey|\bwe|,)\s+)reports? (?:directly )?to\b",
        "reports_to",
        False,
    ),
    # "my sister Ana", "my physio Dr. Meijer", "Elif and her brother Can"
    (rf"^(?:,? ?and )?{_KIN_NAMED}$", "knows", False),
    (r"\bowned by", "owns", True),
    # "The backend team is Ravi and Mei": the people are its members
    (r"^team (?:is|are|includes?|consists of)$", "part_of", True),
    (r"\b(build|built|building|writ\w*|written|mak\w*|made)\b.*\bwith$", "uses", False),
    (r"\b(maintained|built|developed|written|rewritten|created|designed) by", "works_on", True),
    (r"\b(run|managed|led) by", "manages", True),
    (r"\bowns?\b|\bowner of|maintainer of|\b(took|takes|taken|taking) over$", "owns", False),
    (
        r"depends? on|relies? on|reads? (\w+ ){0,2}from|talks? to|"
        r"\bcalls?\b|\bconsumes?\b|\bneeds?\b|"  # not "specifically", "consumer"
        r"forwards? (\w+ )?to|pulls? (\w+ )?from|fetch\w* (\w+ )?from|queries",
        "depends_on",
        False,
    ),
    # "Postgres backs the ledger" (not "pushed back to January")
    (r"\bpowers?\b|\bbacks\b", "uses", True),
    # a role on a product is work on it; managing people is managing
    (
        r"(tech|technical) lead (of|for|on)|product (manager|owner) (of|for)|\bpm (of|for|on)$|"
        r"(engineer|developer|designer) (on|for)",
        "works_on",
        False,
    ),
    (
        r"\bleads?\b|\bled\b|\bmanages?\b|\bruns?$|\bruns? the\b|is head of|"
        r"(engineering|people) manager (of|for)",
        "manages",
        False,
    ),
    (
        # "Kavya and Liam pair on X", not "read it on my Kindle"
        r"lead of|^(?!.*\b(?:it|them|this|that|these|those)\b)(?:\S+ ){0,2}on$|works? on|"
        r"working on|building|builds?|maintains?|deployed|develops?|"
        # "will handle the data migration for X"
        r"\bhandl(?:e|es|ed|ing)\b(?: \S+){0,3} (?:for|of|on)$",
        "works_on",
        False,
    ),
    (EMPLOYED, "works_at", False),
    (
        r"lives? in|living in|based in|mov(ed|ing) (back )?to|relocated (back )?to|"
        # "from" of no move ("I'm from Porto"; not "we moved back from Lisbon", nor where
        # one was born or grew up: "we're originally from Cork"), nor a trip's return
        # ("I just got back from Lisbon"), nor where one is at work or on a call ("I'm
        # working from Madrid this week")
        r"^(?!.*\b(?:mov|relocat|migrat|switch|originally|grew|born|raised|back|return"
        r"|flew|fly|flying|arriv|home|work|call|writ|join|dial)\w*\b).*\bfrom$",
        "lives_in",
        False,
    ),
    (rf"{_MEMBERSHIP}|\bin\b", "part_of", False),
    (r"\bin\b|\bat\b", "located_in", False),
    (r"^for$", "uses", True),
    (
        r"\buses?\b|using|runs? on|written in|built (with|on|in)|managed with|served (by|from)|"
        # "sends pushes through Firebase", "signs in via Okta"
        r"\bvia\b|\bthrough\b|"
        r"caches?|stores?|writes? (\w+ ){0,2}to|log(?:s|ged|ging)? (\w+ ){0,2}to|"
        r"publish\w* .*to|push\w* (\w+ )?to|"
        r"deployed (to|on)|hosted on|\bruns?\b|\bin\b|stack is|backed by|trained (?:\w+ )?on|"
        # "the frontend is a React app", not "Redis is running before the Flask app"
        r"\bis$|"
        # "Kafka to Snowflake", "switch to Vitest"; not "Pixel 7 for $400 to offset the cost of"
        r"^(?:\S+ )?to\b|(?:switch|migrat|upgrad)\w* (?:over )?to\b|connect\w* (?:\w+ )?to\b",
        "uses",
        False,
    ),
    (r"dislikes?|hates?|avoids?", "dislikes", False),
    # "like" after a noun is "such as" ("a message queue like RabbitMQ"), no liking
    (
        rf"prefers?|\blikes\b|(?:^|{LIKING})like\b|loves?|enjoys?|recommended|favou?rite|"
        # "I'm into hiking", "my son is really into gaming"
        rf"{_INTO}",
        "prefers",
        False,
    ),
    (
        r"\bknows?\b|\bmet\b|friends? with|\bmarried\b|engaged to|\bdating\b|"
        r"^(?:[^\s,]+ ){0,5}with$|^,? ?and$",
        "knows",
        False,
    ),
]
# Whose relative or friend someone named after is: "Kenji's daughter Emi".
KIN_OF = re.compile(rf"['’]s {_KIN_NAMED}")
NO_RELATION = re.compile(
    r"\b((?<!took )(?<!takes )(?<!taken )(?<!taking )over(?! to)|than|instead of|versus|vs|"
    r"not|never|no longer|stopped|quit|used to|or|in favou?r of|suggest\w* (?:using|to use)|"
    r"gave up|done with|ditched|abandoned|phased out|ripped out|"
    # a second clause's subject: "postponed the Kafka migration because Omar is on leave"
    r"because(?! of)|although|though|whereas|unless|"
    r"\w+n['’]t|cannot)\b"  # "won't run Redis", "doesn't use Kafka"
    # a next clause with its own subject: "The queue is RabbitMQ, the cache is Redis"
    r"|^[,;]\s*(?:and\s+)?(?!(?:which|that|who|it|this)\b)[a-z-]+(?:\s+[a-z-]+)?\s+(?:is|are|was|were)$"
)
# A next clause opened by a person's pronoun: about a thing named before, it states
# nothing of it ("We don't use Kubernetes for the jobs; they run on X"; a person's own
# pronoun goes on about them: "Jonas turns 40, he loves Ethiopian food").
PRONOUN_CLAUSE = re.compile(r"[,;]\s*(?:(?:and|but|so)\s+)?(?:they|we|i|he|she)\b")
MIGRATION = re.compile(
    r"\b(migrate[sd]?|migrating|move[sd]?|moving|switch(?:es|ed|ing)?|went|ported|porting)\b"
    r"(?:\s+\S+){0,4}?\s+(?:from|off)\s*$"
)
# A move onto a tool said without where from ("moving the risk-engine to Kotlin"),
# read in the words before the tool.
MOVED_TO = re.compile(
    r"\b(?:migrat\w*|mov(?:e|es|ed|ing)|switch\w*|port(?:s|ed|ing)?)\s+(?:\S+\s+){0,2}$",
    re.I,
)
_STOPPING = (
    r"no longer (use|uses|using|run|runs)|stopped using|dropped|removed|got rid of|"
    r"retired|decommissioned|deprecated|moved off|moved away from|ditched|abandoned|"
    r"gave up on|(?:we|i)(?:['’]re| are|['’]m| am) done with|phased out|ripped out"
)
# A use stopped, right before the name (no further than two words, within the clause).
# (not what it was dropped for: "dropped Redux for Zustand")
STOPPED = re.compile(rf"\b({_STOPPING})\s+((?!for\s)[^\s;.!?]+\s+){{0,2}}$")
# A use stopped anywhere before: "I no longer use VS Code; I moved to Zed" moves tools.
STOPPED_BEFORE = re.compile(rf"\b(?:{_STOPPING})\b")
REPLACED = re.compile(r"\b(replaced|replacing|swapped)\s*$")
# Who a name is to the user, read after "X is my": "Will is my older brother".
_MY_RELATIVE = (
    (re.compile(rf"(?:new |current )?{BOSS}\b"), "reports_to"),
    (re.compile(rf"(?:(?:{KIN_ADJECTIVES}) )?(?:{KIN})\b"), "knows"),
)
# What a person's use of something is said with: not a bare "to", "in" or "is".
_PERSON_USES = re.compile(
    r"\buses?\b|using|used|runs? on|written in|built (with|on|in)|managed with|"
    r"deployed (to|on)|hosted on|stack is|(switch|mov|migrat)\w* to|for$|with$"
)
# An error's or a warning's class ("ValueError", "TimeoutException"), the tail of no use.
_FAULT = re.compile(r"[a-z](?:Error|Exception|Warning)s?$")
# A part of data named before what holds it: "the (user_id, restaurant_id) columns in".
_PART_IN = re.compile(
    r"(?:\S+ )?(?:columns?|fields?|tables?|keys?|index(?:es)?|rows?|collections?|attributes?"
    r"|propert(?:y|ies)|variables?|param(?:eter)?s?|settings?) in"
)
# Work on a task named by a gerund. A name after another preposition is where the
# task's object is ("working on creating an endpoint on Flask"), or its tool; what the
# task is for is still worked on ("optimizing the interface for our chat app"). A tool
# whose name opens the task's object is used ("working on writing pytest unit tests").
_A_TASK = r"\bworking on \w+ing"
_WORK_ON_A_TASK = re.compile(rf"{_A_TASK}\b.*\s(?:on|in|with|using|to|into|at|from|via)$")
_A_TASKS_TOOL = re.compile(rf"{_A_TASK}(?: (?:the|my|our|a|an|some|new))?$")
# Being on a tool is running it ("I'm fully on macOS now"); being on a project is working
# on it.
_BEING_ON = re.compile(
    r"(?:['’]m|am|are|['’]re|is|['’]s|was|were)(?: (?:\w+ly|still|now|already|all))? on"
)
# ... said of the speaker's side, right before the name ("We're still on Python 3.9").
_WE_ARE_ON = re.compile(rf"\bwe ?(?:{_BEING_ON.pattern})\s+$")


def our_platform(lead: str) -> bool:
    """Whether ``lead``, the lower-cased words before a tool, ends on the speaker's side
    being on it: what we run ("we're on Postgres 15", "we are still on Python 3.9")."""
    return _WE_ARE_ON.search(lead[-40:]) is not None


# Made to work with a thing: fitted to it, not using it.
_WORKS_WITH = re.compile(r"\bto work(?: \w+)? (?:with|alongside)$")
# What a group joined is for or about: the name after it is no group joined.
_JOINED_FOR = re.compile(r"\bjoined\b.*\s(?:for|about)$")
# What is used for a name is named before it: the name is the purpose, not the tool.
_USED_FOR = re.compile(r"\b(?:using|use|uses|used)\s+\S+(?:\s+\S+)*?\s+for$")
# A person "in" a team is so by a verb of being or working ("I'm now in the platform
# team", "Tom, who works in infra"); an "in" after another word belongs to that word
# ("bottlenecks in my scheduling system", "a delay in my login API").
_MEMBER_IN = re.compile(
    rf"{_MEMBERSHIP}|"
    r"^,?(?: ?(?:who|which|['’]m|am|is|are|was|were|be|been|have|has|['’]ve|['’]s|"
    r"works?|worked|working|sits?|also|still|both|all))* ?in$"
)


# Compiled once: looking each up in re's cache cost a tenth of a long message's reading.
_COMPILED = [(re.compile(pattern), rel, reverse) for pattern, rel, reverse in TRIGGERS]


def admits_types(rel: str, head_type: str, tail_type: str) -> bool:
    """Whether ``rel`` may run from an entity of ``head_type`` to one of ``tail_type``."""
    if rel not in RELATION_TYPES:
        return False  # a claim only (e.g. stopped_using), never a graph edge
    heads, tails = RELATION_TYPES[rel]
    return head_type in heads and tail_type in tails


def admits(rel: str, head: Mention, tail: Mention) -> bool:
    return admits_types(rel, head.type, tail.type) and head.name != tail.name


def my_relative(sentence: str, me: Mention) -> str | None:
    """What "my <role>" after ``me`` ("my older brother", "my manager") makes of the
    name before it: "knows" or "reports_to"; None for anything else."""
    after = sentence[me.end :].lower()
    for pattern, rel in _MY_RELATIVE:
        if pattern.match(after):
            return rel
    return None


def trigger(between: str, head: Mention | None, tail: Mention) -> tuple[str, bool] | None:
    """The relation the words ``between`` two mentions state, and whether it runs from
    the second to the first; None when they state none the types admit."""
    for pattern, rel, reverse in _COMPILED:
        if not pattern.search(between):
            continue
        if head is None:
            if tail.type in RELATION_TYPES[rel][1]:
                return rel, reverse
            continue
        a, b = (tail, head) if reverse else (head, tail)
        if _states_none(rel, a, b, between):
            continue
        if rel == "part_of" and between == "from" and a.type == "person" and b.type == "org":
            return "works_at", reverse  # "I met Sam from Acme Corp"; a team is part_of
        if admits(rel, a, b):
            if rel == "works_on" and b.type == "tech" and _A_TASKS_TOOL.search(between):
                return "uses", reverse  # "working on writing pytest unit tests": its tool
            if rel == "works_on" and b.type == "tech" and _BEING_ON.fullmatch(between):
                return "uses", reverse  # "I'm on macOS now": what one runs
            return rel, reverse
    return None


def _states_none(rel: str, a: Mention, b: Mention, between: str) -> bool:
    """Whether ``between``, though its words match ``rel``'s phrase, states no ``rel``
    from ``a`` to ``b``."""
    if rel in ("uses", "depends_on") and a.name in STANDARDS:
        return True  # "JWT authentication in my Node.js app": a standard uses nothing
    if rel == "depends_on" and a.name in PROGRAMMING_LANGUAGES:
        return True  # "the SDK for Python calls for SNS": code in it calls, not the language
    if rel == "uses" and a.type == "person" and not _PERSON_USES.search(between):
        return True  # "head to Best Buy", "I'm in Denver": no use
    if rel in ("uses", "prefers") and _FAULT.search(b.name):
        return True  # "catch ValueError exceptions": an error happens, none is used
    if rel == "uses" and _PART_IN.fullmatch(between):
        return True  # "the restaurant_id column in my PostgreSQL database": held, not using
    if rel == "uses" and _WORKS_WITH.search(between):
        return True  # "configure my Socket.io server to work with my React frontend"
    if rel == "uses" and _USED_FOR.search(between):
        return True  # "using the best approach for my NLP task": NLP is what it is for
    if rel == "part_of" and _JOINED_FOR.search(between):
        return True  # "joined a mentorship program for LGBTQ youth": the program is joined
    if rel == "works_on" and _WORK_ON_A_TASK.search(between):
        return True  # "working on creating an endpoint on Flask": the work is the endpoint
    # "bottlenecks in my scheduling system": not the person's team
    return rel == "part_of" and a.type == "person" and not _MEMBER_IN.search(between)

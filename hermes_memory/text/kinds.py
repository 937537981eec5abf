"""What the words around a capitalised name say it is: the context before it ("works
at", "moved to", "using"), the word after it ("plugin", "class") and the words that
close or open such a name ("... Park", "Mount ...", "... Library", "... Portal"); also
what makes a name an animal's ("our dog Biscuit") or a colleague's ("Sarah from
accounting")."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from hermes_memory.text.lexicon import NP_STOP, SIGN_OFFS, STACK_FACET_WORDS

_REVERSED_LAST_WORD = re.compile(r"\W*(\w*)")


def last_word(window: str) -> str:
    """The last run of word characters in ``window``, as ``\\w`` reads them ("at" in
    "she works at "): the first of it reversed, found in one short match."""
    found = _REVERSED_LAST_WORD.match(window[::-1])
    return found.group(1)[::-1] if found else ""


@dataclass(frozen=True)
class Before:
    """The words just before a name, as a pattern anchored at their end ("works at "),
    with the words a match can end on: ``last``, a word starting with one of ``stems``,
    or, when ``listed``, "and", "or" or a comma ending a list ("using React, Vue, and ").
    A window whose last word is none of them is not searched: an end-anchored search
    tries every start in its window, and a dozen of them were half of typing a name."""

    pattern: re.Pattern[str]
    last: frozenset[str]
    stems: tuple[str, ...] = ()
    listed: bool = False

    def search(self, window: str) -> re.Match[str] | None:
        # A short window is searched at once: the search costs less than the check.
        if len(window) > _SHORT_WINDOW:
            word = last_word(window)
            if not (
                word in self.last
                or (self.stems and word.startswith(self.stems))
                or (self.listed and (word in ("and", "or") or window.rstrip().endswith(",")))
            ):
                return None
        return self.pattern.search(window)


_SHORT_WINDOW = 24


def _before(pattern: str, last: str, stems: tuple[str, ...] = (), listed: bool = False) -> Before:
    return Before(re.compile(pattern), frozenset(last.split()), stems, listed)


# The words just before a name that make it an organisation ("works at", "joined") or a
# place ("moved to", "based in").
ORG_CONTEXT = _before(
    r"\b(works? (at|for)|join(?:ed|ing|s)|at|customer is|client is|for|"
    r"(?:a |the |my |our )?contract with|signed with|hired by|"
    # the body a role heads: "the CEO of Zentrix"
    r"\b(?:ceo|cto|cfo|coo|founder|co-founder|owner|vp|director|chairman|chair) of)\s+$",
    "at for joined joining joins is with by of",
)
# Leaving a workplace: "I left Acme", "quit Initech", "was laid off from Globex". Its
# name is a body, a guess ("I left Tom a note" is read apart: what follows the name).
LEFT_WORK = _before(
    r"\b(?:left|quit(?:s|ting)?|leav(?:e|es|ing)|resign(?:s|ed|ing)? from|"
    r"stepped down from|(?:laid off|let go|fired) (?:from|by)|"
    r"(?:left|quit|lost) (?:my|his|her|their|a) (?:job|position|role) (?:at|with))\s+$",
    "left quit quits quitting leave leaves leaving from by at with",
)
# What follows a name someone left when it is a person left something or somewhere
# ("left Tom a note", "left Sarah alone", "left Ana with the kids"), or a thing of the
# name's ("leaving Earth's orbit").
_LEFT_SOMEONE = frozenset(
    "a an the my his her their our your some it them him alone behind with 's ’s".split()
)


def left_a_body(toks: list[tuple[str, int, int]], j: int) -> bool:
    """Whether the words after a name someone left (``LEFT_WORK``), from ``j``, leave
    it a workplace: not when the name is given or left something ("left Tom a note") or
    joined by another ("left Tom and Ana at home")."""
    return _next_word(toks, j) not in _LEFT_SOMEONE and not _another_name_follows(toks, j)


def joined_a_body(toks: list[tuple[str, int, int]], j: int) -> bool:
    """Whether the words after a name someone joins, from ``j``, leave it a company:
    not when they say what for, where or with whom ("joined Sarah for dinner", "at the
    park", "and Tom"), as one joins people."""
    return _next_word(toks, j) not in ("for", "at", "on") and not _another_name_follows(toks, j)


def _next_word(toks: list[tuple[str, int, int]], j: int) -> str:
    return toks[j][0].lower() if j < len(toks) else ""


def _another_name_follows(toks: list[tuple[str, int, int]], j: int) -> bool:
    """Whether "and" and a capitalised word follow, from ``j``: "Tom and Ana", people."""
    return _next_word(toks, j) == "and" and j + 1 < len(toks) and toks[j + 1][0][:1].isupper()


# Leaving for a place, not working for a body ("wants to leave for Rotterdam").
LEAVING_FOR = _before(
    r"\b(?:leav(?:e|es|ing)|left|bound|head(?:s|ed|ing)?|set(?:s|ting)? off|sail(?:s|ed|ing)?)"
    r" for\s+$",
    "for",
)
PLACE_CONTEXT = _before(
    r"\b(moved to|based in|lives? in|living in|in|to|from|visit(ed|ing)?|trip to|near|"
    # the land a ruler rules: "king of Gondor", "mayor of Brookhaven"
    r"(?:king|queen|prince|princess|ruler|mayor|governor|kingdom|capital) of|"
    # where one camps or skis is a place, not a body ("went camping at Yosemite")
    r"(?:camping|hiking|skiing|snowboarding|surfing|kayaking|climbing|fishing|backpacking|"
    r"vacation(?:ing)?|holiday(?:ing)?) (?:at|around))\s+$"
    rf"|{LEAVING_FOR.pattern.pattern}",
    "to in from visit visited visiting near for of at around",
)
# What a tool is used by, and what a tool has: context that types a name as one
# ("using Mongoose", "install Jest", "the Prettier plugin").
TOOL_CONTEXT = _before(
    r"\b(?:us(?:e|es|ed|ing)|install(?:s|ed|ing)?|configur(?:e|es|ed|ing)|"
    r"integrat(?:e|es|ed|ing)|import(?:s|ed|ing)?|via|set(?:ting)? up|evaluat\w*|adopt\w*|"
    r"(?:switch|migrat|upgrad|port)\w* to|mov(?:e|es|ed|ing) (?:off|away from)|"
    # a choice: "let's go with Expo", "we're sticking with Heroku" (not "I went with Sarah")
    r"(?:let['’]s|(?:we|i)(?:['’]ll| will|['’]re| are|['’]m| am))"
    r" (?:go(?:ing)?|stick(?:ing)?) with)\s+"
    r"(?:[^\s,]+(?:\s+[^\s,]+){0,2}?(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)){0,4}$",
    "use uses used using install installs installed installing configure configures "
    "configured configuring integrate integrates integrated integrating import imports "
    "imported importing via up to off from with",
    stems=("evaluat", "adopt"),
    listed=True,
)
# What software is built with or in: a tool, not a companion or a place ("building a
# budgeting app with Flutter and Supabase", "wrote the CLI in Zig"; not "made dinner
# with Sarah").
BUILT_WITH = _before(
    r"\b(?:buil[dt]|writ|wrote|mak|made|develop)\w*\s+(?:\S+\s+){0,3}?"
    r"(?:apps?|service|site|website|api|backend|frontend|tool|bot|pipeline|prototype|game|"
    r"script|dashboard|model|library|plugin|extension|cli|server|ui|mvp)\s+(?:with|in)\s+"
    r"(?:[^\s,]+(?:\s*,\s*(?:and\s+)?|\s+and\s+))?$",
    "with in",
    listed=True,
)
# Where software is put to run: a platform, not a person ("host the site on Netlify",
# "run the workers on Fargate", "deployed the api to Vercel").
HOSTED = _before(
    r"\b(?:(?:host|hosts|hosted|hosting|deploy|deploys|deployed|deploying)\s+(?:\S+\s+){1,4}?"
    r"(?:on|to)|(?:run|runs|running)\s+(?:the|our|my|their|its|it|them|this|that|these)\b"
    r"(?:\s+\S+){0,3}?\s+on)\s+$",
    "on to",
)
# Who someone is to the user ("my sister Ana", "my manager is Elena").
KIN = (
    "sister|brother|mother|mum|mom|father|dad|wife|husband|partner|spouse|son|daughter|"
    "cousin|aunt|uncle|niece|nephew|grandmother|grandma|grandfather|grandpa|friend|"
    "girlfriend|boyfriend|fianc[eé]e?|roommate|flatmate|colleague|coworker|neighbou?r|"
    "co-?founder|mentor|mentee|teammate|classmate|labmate|officemate|housemate|buddy|twin|"
    "stepmom|stepdad|"
    "stepmother|stepfather|stepson|stepdaughter|grandson|granddaughter|"
    "(?:mother|father|sister|brother|son|daughter)-in-law|"
    # who looks after the user: "my physio Dr. Meijer", "my therapist Ana"
    "doctor|gp|physio|physiotherapist|therapist|dentist|coach|trainer|tutor|teacher|"
    "instructor|professor|nurse|vet|"
    "accountant|lawyer|landlord|landlady|hairdresser|barber|babysitter|nanny"
)

# Who may own the thing a bare name right after them is ("on my Mac"; a person is "my
# sister Ana", and "her" is as often whom: "name her Tilly").
_OWNERS = frozenset("my our your his their".split())
_KIN_WORD = re.compile(rf"(?:{KIN})s?")


def is_kin(word: str) -> bool:
    """Whether ``word`` (lower case) says who someone is to the user: "sister",
    "friends", "physio"."""
    return _KIN_WORD.fullmatch(word) is not None


# A name in capitals ("AWS", "SRE"): a body more often than a person when told to.
ACRONYM = re.compile(r"[A-Z][A-Z0-9]+")
# Going somewhere: what makes "to X" a place, not someone spoken to.
TRAVEL = re.compile(
    r"\b(moved|relocated|trip|fl(?:y|ies|ying|ew|ights?)|head(?:ed|ing)|driv\w*|drove|travel\w*"
    r"|return\w*|(?:got|get|came|come|just) back)\b"
    # going somewhere, said right before it ("I'm going to Yosemite with Mark"; not "go to
    # Settings", a step in an app)
    r"|\b(?:goes|going|went|gone)\s+(?:back\s+)?to\s+$"
)


def role_in_capitals(prev: str, name: str) -> bool:
    """Whether ``name`` after ``prev`` is someone's role said in capitals ("my GP"),
    no name: the person is named after it ("my GP, Dr. Okafor")."""
    return (
        prev.lower() in _OWNERS
        and ACRONYM.fullmatch(name) is not None
        and _KIN_WORD.fullmatch(name.lower()) is not None
    )


def owned_thing(prev: str, name: str) -> bool:
    """Whether a one-word name after ``prev`` is a thing someone owns ("my Mac", "your
    Pixel"), not a relative called by their role ("my Grandma")."""
    return prev.lower() in _OWNERS and _KIN_WORD.fullmatch(name.lower()) is None


# A part of one's own stack said to be a name: a tool ("our database is Cassandra", "the
# API gateway is Kong").
STACK_PART_IS = _before(
    rf"\b(?:the|our|my)\s+(?:[a-z]+\s+)?(?:{STACK_FACET_WORDS})\s+(?:is|was)\s+"
    r"(?:(?:now|still|currently)\s+)?$",
    "is was now still currently",
)
# What a thing is switched or moved onto: a tool, before "to" can make a place or a
# person of it ("let's switch to Zorblet", "switching the queue to SQS").
SWITCHED_TO = _before(
    r"\b(?:switch|migrat|upgrad|port)\w*\s+(?:[\w-]+\s+){0,3}?(?:over\s+)?(?:to|onto)\s+$"
    # what one's work is kept in, moved: "moved my notes to Obsidian" (not "my family")
    r"|\bmov(?:e|es|ed|ing)\s+(?:[\w-]+\s+){0,2}?(?:notes|files|docs|documents|data|repos?"
    r"|code|tasks|todos|workspace|projects?|e?mails?|photos|backups?|bookmarks|passwords"
    r"|calendar|chat|blog|website|site|app)\s+(?:over\s+)?(?:to|onto|into)\s+$",
    "to onto into",
)
# A business switched to or from is a body, not a tool ("switching butter supplier to
# Corman", "we moved our bank to KBC").
SUPPLIER_SWITCH = _before(
    r"\b(?:switch|mov|chang)\w*\s+(?:\w+\s+){0,2}?(?:supplier|vendor|provider|bank|insurer"
    r"|accountant|agency|distributor|wholesaler|carrier|courier|broker|landlord)s?\s+"
    r"(?:over\s+)?(?:to|from)\s+$",
    "to from",
)
# Where data is put in a format, and what data is worked on with: a tool ("writes them to
# S3 as Parquet", "query it with Athena"; not "known as Bob", "had lunch with Athena").
STORED_AS = _before(
    r"\b(?:writ|wrote|stor|sav|export|dump|persist|serial|encod)\w*\s+(?:\S+\s+){0,5}?as\s+$",
    "as",
)
# The language code is written in: "written in Elixir", "implemented in Zig" (a known
# tongue stays one: "written in Spanish").
WRITTEN_IN = _before(
    r"\b(?:(?:re)?written|implemented|coded|programmed)\s+(?:entirely\s+|mostly\s+|fully\s+)?in\s+$",
    "in",
)
# What software holds a piece of work in: a tool, not a place ("the dashboard in
# Looker", "a ticket in Jira", "the notebook in Colab").
ARTEFACT_IN = _before(
    r"\b(?:dashboard|report|chart|notebook|board|workspace|spreadsheet|sheet|query|ticket|"
    r"channel|doc|page|repo|project|model|workflow)s?\s+in\s+$",
    "in",
)
WORKED_WITH = _before(
    r"\b(?:quer(?:y|ies|ied|ying)|analy[sz]\w*|process\w*|transform\w*|orchestrat\w*|"
    r"monitor\w*|lint\w*|benchmark\w*|visuali[sz]\w*|index\w*)\s+(?:\S+\s+){0,3}?"
    r"(?:with|using|through)\s+$",
    "with using through",
)
# What the words before a name say makes it a tool: "built with X", "hosted on X", "stored
# as X", "worked with X", "switched to X", "the dashboard in X", "our database is X".
TOOL_BEFORE = (
    BUILT_WITH, HOSTED, STORED_AS, WORKED_WITH, SWITCHED_TO, ARTEFACT_IN, STACK_PART_IS, WRITTEN_IN
)  # fmt: skip
# What a name weighed against a tool is ("Parquet over CSV", "Pulsar instead of Kafka",
# "Kafka or Pulsar"): a tool too.
_WEIGHED = frozenset("over vs versus or".split())
_WEIGHED_PAIRS = frozenset({("instead", "of"), ("rather", "than")})
# The last words of an HTTP header's name ("Retry-After", "Content-Type", "X-Request-Id"):
# code, not a person's double name.
HEADER_TAILS = frozenset(
    "after type control encoding length agent id for language origin policy options "
    "token key version limit remaining reset match since modified range disposition "
    "security proto host forwarded allow credentials methods headers age expires "
    "authorization signature trace cookie status".split()
)
TOOL_NEXT = frozenset(
    "config configuration plugin plugins package library module driver schema cli sdk "
    "middleware framework extension container integration dashboard docs class method "
    "component struct enum interface field attribute property header flag format "
    # what a service or a vendor has ("the Supabase migration", "Mindbody API keys",
    # "a Supabase edge function", "Firebase costs"): no person's name is said so
    "backend frontend api apis endpoint endpoints webhook webhooks migration cron edge "
    "console bucket buckets credits costs pricing subscription".split()
)
# What a place or an institution is, closing its name: no person's name ends so.
PLACE_NAME_HEADS = frozenset(
    "park beach lake river mountain mountains valley island bay street avenue road square "
    "airport station stadium mall zoo garden gardens forest canyon falls trail village "
    "palace castle tower bridge market harbour harbor pier".split()
)
PLACE_NAME_OPENERS = frozenset("mount mt lake fort cape port isle".split())
# How a town's one-word name may end ("Jamestown", "Nashville", "Pittsburgh").
PLACE_SUFFIX = re.compile(r"[a-z]{3}(?:town|ville|burg|burgh|borough)$")
ORG_NAME_HEADS = frozenset(
    "library museum hospital clinic school university college academy institute center "
    "centre church temple hotel restaurant cafe bakery bank gallery theater theatre club "
    "gym studio shelter council cathedral chapel mosque synagogue abbey pub diner pharmacy "
    # a firm's legal form or its trade ("the quote from Van Dijk Logistics", "Acme Inc");
    # not "solutions", "systems", "group" or "labs": "Backup Solutions", "Nsight
    # Systems", "Security Group" and "Redis Labs" name products and topics as often
    "inc ltd llc llp plc gmbh corp corporation incorporated limited pty bv nv ag "
    "logistics consulting consultants holdings industries enterprises ventures partners "
    "associates".split()
)
# What a product is, closing its name: no person's name ends so.
PRODUCT_HEADS = frozenset(
    "portal scheduler gateway manager console dashboard server engine studio cloud hub "
    "suite toolkit sdk cli api plugin extension app editor builder designer monitor "
    "analytics explorer inspector debugger profiler runtime compiler".split()
)
# The tool verb and the names listed after it fit in this many characters before a name.
TOOL_CHARS = 80
# What a name "<X> of <Y>" is by its first word; any other is a title or a term.
OF_KINDS = dict.fromkeys(
    "university bank department ministry institute college school museum church board "
    "office association society federation council academy".split(),
    "org",
) | dict.fromkeys(
    "city republic kingdom state isle isles gulf bay lake mount cape island islands "
    "province county sea strait".split(),
    "place",
)
# Animals kept as pets, and the breeds people call them by ("a beagle called Pepper").
_ANIMALS = (
    r"dog|cat|puppy|pup|kitten|kitty|pet|hamster|rabbit|bunny|parrot|horse|pony|turtle"
    r"|tortoise|goldfish|fish|bird|budgie|lizard|gecko|snake|ferret|guinea pig|beagle"
    r"|labrador|poodle|terrier|spaniel|retriever|collie|dachshund|corgi|husky|pug|bulldog"
    r"|greyhound|whippet|schnauzer|chihuahua|rottweiler|labradoodle|cockapoo|tabby"
)
# A work's name follows what it is ("the book Atomic Habits", "her new album Midnights",
# "a game called Hades"): a title, no person ("a gorgeous song, Caroline" is said to her).
_WORKS = (
    "book|novel|memoir|movie|film|show|series|sitcom|song|album|podcast|game|musical|"
    "documentary|poem|painting|play"
)
WORK_BEFORE = _before(
    r"\b(?:the|a|an|my|his|her|their|our|your|this|that)\s+(?:[\w-]+\s+)?"
    rf"(?:{_WORKS})s?\s+(?:(?:named|called|titled)\s+)?$",
    " ".join(w + s for w in _WORKS.split("|") for s in ("", "s")) + " named called titled",
)
# An animal's name follows what it is ("our dog Biscuit", "a puppy named Coco").
PET_BEFORE = _before(
    rf"\b(?:{_ANIMALS})s?,?\s+(?:(?:named|called)\s+)?$",
    " ".join(a.split()[-1] + s for a in _ANIMALS.split("|") for s in ("", "s")) + " named called",
)
_PET = re.compile(rf"\b(?:{_ANIMALS})s?\b", re.IGNORECASE)
_NAME_IS = re.compile(
    r"^\W*(?:and\s+)?(?:her|his|its|their)\s+names?\s+(?:is|are|was|were|['’]s)\s+$", re.I
)


def pet_named(previous: str, before: str) -> bool:
    """Whether a name said after ``before`` (its sentence's opening) is given to a pet
    the sentence ``previous`` brought in ("I adopted a cat. Her name is Mochi.")."""
    return _NAME_IS.match(before) is not None and _PET.search(previous) is not None


# What is built, shipped or kept running: a project ("I'm building Tidewater for
# Harbor Fitness", "Bob maintains Atlas"), not a person.
MADE = _before(
    r"\b(?:build|builds|building|develop|develops|developing|ship|ships|shipping|"
    r"launch|launches|launching|maintain|maintains|maintaining)\s+"
    r"(?:the\s+|our\s+|my\s+|their\s+|his\s+|her\s+)?$",
    "build builds building develop develops developing ship ships shipping launch launches "
    "launching maintain maintains maintaining the our my their his her",
)


# A name given to what a noun before it says the thing is ("their member app,
# Tidewater.", "a budgeting app called Pennywise", "their gym software vendor,
# Mindbody, is late"): a product, a tool or an organisation, not a person. The noun is
# a common one, in lower case ("Microsoft Project, Trello" is a list), and after a
# bare comma the name is closed by another comma, not one going on with a list
# ("mobile apps, GPS, and wearables"), or ends the sentence (not "I finished the app,
# Sarah helped").
_NAMED_PRODUCTS = "app|application|project|product|service|bot|site|website|game"
_NAMED_TOOLS = "tool|library|plugin|extension|platform|framework|database"
_NAMED_BODIES = (
    "vendor|provider|client|customer|company|startup|agency|firm|employer|supplier|"
    "contractor|publisher|label|bank|insurer|sponsor|distributor|reseller"
)
# A place of business or a club, named only by "called" ("pottery classes at a studio
# called Barro"; "the residents at the shelter, Cindy, ..." are people).
_CALLED_BODIES = (
    "studio|gym|cafe|café|restaurant|bakery|shop|store|school|clinic|salon|club|charity|"
    "shelter|nonprofit|non-profit|organi[sz]ation"
)
NAMED_AS = re.compile(
    rf"(?<![\w.])(?:(?P<product>{_NAMED_PRODUCTS})|(?P<tool>{_NAMED_TOOLS})|"
    rf"(?P<body>{_NAMED_BODIES}))(?P<how>,|\s+(?:called|named))\s+$"
    # "a small bakery in Ghent called Bakkerij Mertens": where it is may come between
    rf"|(?<![\w.])(?:{_CALLED_BODIES})(?:\s+(?:in|on|at|near)\s+[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)?"
    r",?\s+(?:called|named)\s+$"
)
# An instance of a kind named before it ("graphing software like Desmos", "a logging
# library like Winston", "games like Fortnite", Hearst's patterns): a thing of that
# kind, not a person.
_INSTANCE_OF = re.compile(
    r"\b(?:(?P<tech>software|apps?|applications?|tools?|librar(?:y|ies)|frameworks?|"
    r"platforms?|services?|databases?|loggers?|mechanisms?|devices?|phones?|laptops?|"
    r"editors?|extensions?|plugins?)|(?P<concept>games?|movies?|films?|shows?|series|"
    r"books?|novels?|songs?|albums?|bands?|brands?))"
    r",?\s+(?:like|such as|including|e\.g\.,?)\s+$"
)
_LIST_GOES_ON = frozenset({"and", "or", "etc", "&"})


def instance_of(before: str) -> str | None:
    """The kind ("tech", "concept") of a name said as an instance of a kind named just
    before it (``before`` in lower case), else None."""
    m = _INSTANCE_OF.search(before)
    return None if m is None else "tech" if m.group("tech") else "concept"


# The nouns a name may be given to (a thing's, not a body's: "member app").
NAMED_NOUNS = frozenset(f"{_NAMED_PRODUCTS}|{_NAMED_TOOLS}".split("|"))


def named_as(before: str, after: list[str]) -> str | None:
    """The kind ("project", "tech", "org") of a name said right after ``before`` (as
    written) as what a noun there says it is, with ``after`` the (up to two) tokens
    after the name; else None."""
    m = NAMED_AS.search(before)
    if m is None:
        return None
    if m.group("how") == ",":
        nxt = after[0] if after else ""
        if nxt not in (",", ".", ";", ":", ""):
            return None
        if nxt == "," and len(after) > 1 and after[1].lower() in _LIST_GOES_ON:
            return None
    return "project" if m.group("product") else "tech" if m.group("tool") else "org"


# Where a person is "from" at work or in a circle: their team, office or department.
FROM_GROUPS = frozenset(
    "team office department dept accounting finance hr legal sales marketing support "
    "engineering design ops operations security procurement recruiting admin club group "
    "class church gym school work college university lab choir band".split()
)
# A company's departments, said by name as a body that acts or is spoken to ("Finance
# says ...", "Legal wants ...", "I talked to Marketing"): a body, no person.
DEPARTMENTS = frozenset(
    "finance hr legal sales marketing support engineering design ops operations security "
    "procurement recruiting accounting compliance product infra it".split()
)
DEPARTMENT_CONTEXT = re.compile(r"\b(?:to|from|with|in|at|by|for)\s+$")
# Words after a component's name that make it a kind of work ("a backend engineer").
ROLE_NOUNS = frozenset(
    "engineer engineers developer developers dev devs role roles position job jobs work "
    "experience skills lead architect intern specialist expert".split()
)


# The words after a sentence's capitalised first word that make it a name ("Bob left").
NAME_NEXT = frozenset(
    "is was has had and or 's , said says told thinks will would can could should did does "
    "went got made took gave wants needs loves likes set put ran sent left came wrote found "
    "built bought met kept lost paid sold spent won began broke drove felt flew forgot "
    "heard held knew led meant saw spoke stood taught thought chose".split()
)
# Of the verbs that may come before a colon, those that report speech ("Bob writes: ...");
# any other word before one makes a label ("Bad news:", "Deadline noted:").
REPORTING = frozenset(
    "says said writes wrote asks asked replies replied adds added explains explained "
    "answers answered suggests suggested mentions mentioned".split()
)


# Adverbs that may stand between a name and its verb ("Bob now owns ...").
VERB_ADVERBS = frozenset(
    "now also still currently already recently just often usually never always".split()
)


# Words ending like a verb's "-s" that are nouns after an opening adjective ("Bad news,
# ...", "Big thanks", "Quick steps").
_NOT_VERBS = frozenset("news steps notes basics ideas words".split())
# Idioms opening a line with a noun and a participle ("Fingers crossed!", "Rest assured").
_IDIOMS = frozenset({("fingers", "crossed"), ("rest", "assured")})


def name_follows(toks: list[tuple[str, int, int]], j: int) -> bool:
    """Whether the word after a sentence-initial capitalised word (past adverbs)
    reads like a verb of it."""
    while j < len(toks) and toks[j][0].lower() in VERB_ADVERBS:
        j += 1
    if j + 1 < len(toks) and toks[j][0].lower() == "no" and toks[j + 1][0].lower() == "longer":
        j += 2  # "Bob no longer owns ..."
    if j >= len(toks):
        return False
    nxt = toks[j][0].lower()
    if nxt in SIGN_OFFS or nxt in _NOT_VERBS or (toks[j - 1][0].lower(), nxt) in _IDIOMS:
        return False
    if nxt == "from":  # "Sarah from accounting", "Marco from the platform team"
        return any(t[0].lower() in FROM_GROUPS for t in toks[j + 1 : j + 5]) or (
            speaks_after_name(toks, j + 1)
        )
    if nxt in ("and", "or") and j + 1 < len(toks):
        # "Review and test ...", "Lightweight and durable": a name's "and" joins another
        # name or a pronoun ("Priya and I", "Priya and her team"), not a lowercase word
        after = toks[j + 1][0]
        return not after.isalpha() or not after.islower() or after in NP_STOP
    if j + 1 < len(toks) and toks[j + 1][0] == ":":
        return nxt in REPORTING
    if nxt.endswith("n") and j + 2 < len(toks) and toks[j + 1][0] in ("'", "’"):
        return toks[j + 2][0].lower() == "t"  # "Priya isn't", "Ana doesn't": a negated verb
    return nxt in NAME_NEXT or (nxt.isalpha() and nxt.endswith(("s", "ed")))


# A capitalised word just before "from": someone from a company ("Priya from Globex").
SOMEONE_FROM = re.compile(r"\b[A-Z][a-z]+ from\s+$")
# What only a person does after "<name> from <company>" ("Lena from Stripe called me",
# "Sam from Acme Corp will join the call"); "Data from Google Analytics shows" is a thing.
PERSON_ACTS = frozenset(
    "said says told tells called calls emailed emails asked asks mentioned mentions "
    "suggested suggests recommended recommends explained replied wrote messaged pinged "
    "texted joined met visited introduced offered promised agreed".split()
)
_WILL_ACT = frozenset("join call meet attend visit email".split())


def speaks_after_name(toks: list[tuple[str, int, int]], j: int) -> bool:
    """Whether a capitalised name of up to four words at ``j`` is followed by what only
    a person does."""
    k = j
    while k < len(toks) and k - j < 4 and toks[k][0][:1].isupper():
        k += 1
    if k == j or k >= len(toks):
        return False
    verb = toks[k][0].lower()
    if verb == "will" and k + 1 < len(toks):
        return toks[k + 1][0].lower() in _WILL_ACT
    return verb in PERSON_ACTS


def weighed_against_tool(
    toks: list[tuple[str, int, int]], i: int, j: int, tool: Callable[[str], bool]
) -> bool:
    """Whether the name ``toks[i:j]`` is weighed against something ``tool`` says is a
    tool, on either side: "Parquet over CSV", "Kafka instead of Pulsar". Reads at most
    four tokens either side (a name in a 4,000-token sentence costs no more)."""
    after = _weighing([w.lower() for w, _, _ in toks[j : j + 4]])
    if after and j + after < len(toks) and tool(toks[j + after][0]):
        return True
    before = _weighing([w.lower() for w, _, _ in toks[max(0, i - 4) : i]][::-1], back=True)
    return before > 0 and i - before - 1 >= 0 and tool(toks[i - before - 1][0])


def _weighing(words: list[str], back: bool = False) -> int:
    """How many of ``words`` (nearest first) say the next name is weighed against this
    one ("over", "instead of", "vs."), or 0."""
    if back and words[:2] == [".", "vs"]:  # "Kafka vs. Pulsar", read backwards
        return 2
    if words[:2] == ["vs", "."]:
        return 2
    if words[:1] and words[0] in _WEIGHED:
        return 1
    pair = tuple(words[1::-1]) if back else tuple(words[:2])
    return 2 if pair in _WEIGHED_PAIRS else 0

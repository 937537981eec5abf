"""Words that look like names and are not: what opens a sentence, the capitals of code
and logs, the verbs that open an instruction, and the endings of abstract nouns. Plain
English, no dataset's words; ``mentions`` reads them."""

from __future__ import annotations

import re

PRONOUNS = frozenset(
    "i it me you us him her them he she we they myself yourself yourselves himself herself "
    "itself ourselves themselves everything everyone everybody anything anyone something "
    "someone nothing nobody".split()
)
# Words that count, never a name nor a part of one ("Two Thunderbolt 4 ports", "we run
# forty services").
NUMBER_WORDS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy "
    "eighty ninety hundred hundreds thousand thousands dozen dozens several few".split()
)
STARTERS = (
    PRONOUNS
    | NUMBER_WORDS
    | frozenset(
        "the a an our my your his her their its this that these those "
        "there here remember note please make use keep let lets when while if after before "
        "since then also but and or so because yes no ok okay maybe today yesterday tomorrow "
        "tonight last next every each all some any both either neither what why how who where "
        "which hi hello hey thanks thank sure great good nice wow oh well just really "
        "actually monday tuesday wednesday thursday friday saturday sunday january february "
        "march april may june july august september october november december spring summer "
        "autumn fall winter mr mrs ms dr prof sir api ui ci cd qa pr prs id ids ai llm mondays "
        "tuesdays wednesdays thursdays fridays saturdays sundays weekends "
        # a relative's title before their name, as "Dr" is: "Aunt Lucia" is Lucia
        "aunt auntie uncle "
        # chat: interjections, greetings and discourse markers open a sentence or come before
        # the name they address ("Yeah Priya, ...", "Congrats Omar!"), and are not names
        "yeah yep yup yea nope nah cool awesome glad bye goodbye congrats congratulations "
        "anytime woah whoa aww aw haha lol hmm um uh ugh oops ooh alright absolutely definitely "
        "totally exactly honestly hopefully unfortunately fortunately luckily sadly seriously "
        "obviously basically anyway anyways lately finally agreed cheers sounds welcome dang "
        "darn bummer yum yummy mmm omg gosh geez sorry indeed plus together even being super "
        "stay ha hah heh hehe huh ah ahh eh yikes oof ouch phew whew woohoo yay hooray mm mhm "
        "gotcha man dude "
        # chat's short forms, opening a line as "Honestly," does ("Btw, I ...", "Tbh, ...")
        "btw fyi tbh imo imho idk lmk afaik iirc fwiw ngl thx pls plz ofc tho brb "
        # an assistant's acknowledgements ("Understood, I'll keep ...", "Noted, ...")
        "understood noted acknowledged confirmed done "
        # auxiliaries that open a question ("Is this your painting?") and adverbs that open
        # a sentence ("Never had a chance", "Now, I'm aiming ...")
        # ("Will" and "Can" are names as well, and "Will you ..." reads as no name anyway)
        "is are was were am do does did could would should shall might must have has "
        "had never now almost right still soon often always sometimes usually later recently "
        "already once again instead otherwise meanwhile besides perhaps probably "
        # discourse adverbs that open a paragraph of an answer ("However, ...", "First, ...")
        "however first second third fourth fifth lastly additionally furthermore moreover "
        "overall below above therefore thus hence alternatively similarly likewise ultimately "
        "essentially generally typically specifically importantly "
        # prepositions that open one ("In this example", "For example", "To fix it")
        "in for to with from by on at of as into onto upon within without via per "
        # more of an answer's openers ("Certainly, Taylor!"), sign-offs ("Best regards,")
        "certainly clearly simply naturally personally interestingly surprisingly notably "
        "briefly ideally accordingly consequently conversely currently previously initially "
        "eventually firstly secondly thirdly regards sincerely "
        # weekday abbreviations ("last Fri")
        "mon tue tues wed thu thur thurs fri sat".split()
    )
)

# Literals of code written in prose ("when `ret` is `False`"), never a name alone.
LITERALS = frozenset("true false none null nil undefined nan".split())
# Words of praise that open a sentence on their own ("Beautiful, they did it in a
# garden"), no one's name there; unlike STARTERS' interjections ("great", "wow"), they
# stay name words elsewhere ("Amazing Grace", "Sweet Home Alabama").
EXCLAMATIONS = frozenset(
    "beautiful wonderful amazing lovely brilliant perfect gorgeous fantastic excellent "
    "terrific incredible sweet fabulous stunning splendid superb".split()
)
# Plural nouns that follow a capitalised word in a sign-off ("Best regards", "Kind
# regards"), not the verb a name would take.
SIGN_OFFS = frozenset(["regards", "wishes"])

# File formats and units written in capitals ("writes CSV files to S3").
NOT_ACRONYMS = frozenset(
    "csv tsv json jsonl xml yaml yml toml html css pdf png jpg jpeg gif svg url uri cpu gpu "
    "ram ssd hdd uuid utc".split()
)

# Roles written as acronyms ("joined as an SRE", "the CMO wants ..."): who someone is at
# work, not a body or a person's name.
ROLE_ACRONYMS = frozenset(
    "sre ceo cto cfo coo cmo cio ciso cpo vp svp evp pm tpm em swe sde dba".split()
)

# Words written in capitals in code, logs and chat that name nothing: SQL, HTTP methods,
# Dockerfile instructions, log levels, code markers, units, chat shorthand ("SELECT ...
# FROM", "POST /login", "ERROR connection refused", "TODO", "30 FPS", "FYI"). Only their
# all-capital form is left out: "Order", "Note" or "Key" may still open a name.
SHOUTED = frozenset(
    "select from where into table not null and or on as set index desc asc order group by "
    "join inner left right outer insert update delete create drop alter values primary key "
    "foreign references default limit offset having union distinct lower upper count sum "
    "avg min max in is like between case when then else end begin commit rollback with "
    "get post put patch head options run copy add env arg cmd entrypoint expose workdir "
    "volume label error err warn warning info debug trace fatal critical crit notice todo "
    "fixme xxx hack note ok mb gb kb tb ms fps pm am hh mm ss kbps mbps fyi btw imo imho "
    "lol omg asap eta tbh idk lmk sla slo sli kpi kpis okr okrs roi mvp poc eod eow".split()
)

# Verbs that open a step of an instruction ("- **Authorization**: Ensure users ...",
# "Review and test ...", "Store the token"), and "unit", which opens as many ("Unit
# Testing"). Capitalised at the start of a line they read like a name followed by its
# verb; the verbs that are also first names (Will, Mark, Grant, Bill, Chase, Pat, Rob,
# Sue, Drew, Frank, Jack) are left out.
IMPERATIVES = frozenset(
    "add adjust allow analyse analyze apply ask assess assign attach avoid back begin break "
    "bring build calculate call capture change check choose clean clear close collect "
    "combine compare compile compute configure confirm connect consider contact continue "
    "convert copy count create cut debug decide define delete deploy derive describe "
    "design detect determine develop disable discuss display divide do document download "
    "draft edit eliminate enable encrypt ensure enter establish estimate evaluate examine "
    "expand explain explore expose export extend extract fetch fill filter find finalize finalise "
    "fix focus follow format gather generate get give go handle identify implement import "
    "improve include increase initialize initialise insert inspect install integrate "
    "investigate join keep label launch learn limit link list listen load locate log look "
    "maintain manage map measure merge migrate minimize minimise modify monitor move "
    "multiply name navigate note notify obtain open optimize optimise organize organise "
    "outline pass pick plan plot practice practise prepare prevent print prioritize "
    "prioritise process profile prove provide publish pull push put read rebuild record "
    "reduce refactor refer refresh register reinstall release reload remember remove rename "
    "repeat replace report request research reset resolve restart restore retrieve return "
    "reuse review revise rewrite run save scale schedule search secure see seek select send "
    "separate set setup share show simplify simulate solve sort specify split start stop "
    "store structure submit substitute subtract summarize summarise switch take test think "
    "track train transfer translate try turn type uninstall unit update upgrade upload use "
    "utilize utilise validate verify visit visualize visualise wait watch wrap write".split()
)


def past_of_step(word: str) -> bool:
    """Whether ``word`` is the past tense of an instruction's verb ("Added", "Used",
    "Stopped", "Applied"): a change log's line opens with one before what it changed."""
    w = word.lower()
    if len(w) < 4 or not w.endswith("ed"):
        return False
    stem = w[:-2]
    return (
        stem in IMPERATIVES  # added, fixed
        or (w[:-1] in IMPERATIVES and not w.endswith("eed"))  # used, removed; not "seed"
        or (stem[-1:] == stem[-2:-1] and stem[:-1] in IMPERATIVES)  # stopped, planned
        or (w.endswith("ied") and w[:-3] + "y" in IMPERATIVES)  # applied
    )


def gerund_of_step(word: str) -> bool:
    """Whether ``word`` is the -ing form of an instruction's verb ("fixing",
    "optimizing", "logging"), as ``past_of_step`` reads the past tense."""
    w = word.lower()
    if len(w) < 5 or not w.endswith("ing"):
        return False
    stem = w[:-3]
    return (
        stem in IMPERATIVES  # fixing
        or stem + "e" in IMPERATIVES  # optimizing
        or (stem[-1:] == stem[-2:-1] and stem[:-1] in IMPERATIVES)  # logging
    )


# Endings of abstract nouns that no person's name has ("Mathematical Induction", "Data
# Integrity", "Performance"): a capitalised phrase ending so is a concept. Endings that
# surnames share count only when long (-ance, -ence, -ment: "Lawrence", "Clement") or
# after another word (-ity: "Trinity"); -ing not at all ("Manning").
NOMINAL = re.compile(
    r"[A-Za-z]{2,}(?:tion|sion|ness|ism|ics|ogy|ysis|ship|ture|sure)|"
    r"[A-Za-z]{6,}(?:ance|ence|ment)"
)
NOMINAL_AFTER_A_WORD = re.compile(r"[A-Za-z]{3,}ity")

# Words that end a noun phrase: what follows a name or its modifiers is no part of it.
NP_STOP = PRONOUNS | frozenset(
    "in on at with for over than and or but to from of by as when while because every about "
    "into onto via per like after before during without within "
    "each the a an this that these those his her their our my your its is are was were "
    # "I love how ...", "I like all of it": no object worth an entity
    "how what why where who which all most some any much many so too very just really".split()
)

# Months as dates write them short ("Jan 15", "3 Mar"): next to a day's number, no name
# ("Jan Kowalski" stays one).
MONTH_ABBREVIATIONS = frozenset("jan feb mar apr jun jul aug sep sept oct nov dec".split())
DAY_NUMBER = re.compile(r"\d{1,2}(?:st|nd|rd|th)?")

# Nationalities and regions' adjectives ("British spelling", "Ethiopian food", "a Kenyan
# startup"): a word that describes, no name. The languages among them are the
# gazetteer's concepts ("I'm learning Dutch").
DEMONYMS = frozenset(
    "american british canadian australian irish scottish welsh european african asian "
    "mexican brazilian argentinian argentine chilean colombian peruvian cuban jamaican "
    "nigerian kenyan ethiopian ghanaian egyptian moroccan algerian tunisian somali ugandan "
    "tanzanian rwandan south-african indian pakistani bangladeshi nepali sri-lankan afghan "
    "iranian iraqi syrian lebanese israeli palestinian saudi emirati jordanian "
    "belgian swiss austrian luxembourgish estonian latvian lithuanian slovak slovenian "
    "croatian serbian bosnian bulgarian albanian macedonian montenegrin moldovan belarusian "
    "georgian armenian azerbaijani kazakh uzbek mongolian taiwanese filipino malaysian "
    "singaporean cambodian laotian burmese kiwi scandinavian nordic balkan baltic "
    "caribbean latino latina hispanic mediterranean middle-eastern".split()
)

# Chat roles and tools are not people: "User prefers ..." is the user's own side (extract's _WE).
# Only names skip them; "the user service" is still a project.
ROLES = frozenset({"user", "assistant", "system", "tool", "agent", "bot", "human", "ai"})


def is_role(speaker: str) -> bool:
    """Whether ``speaker`` is a chat role ("user", "assistant" ...), not a person."""
    return speaker.casefold() in ROLES


# A light verb alone ("I love having you here") names no preference.
LIGHT_GERUNDS = frozenset(
    "having being doing making taking getting seeing going using trying".split()
)


# Kebab words that are English compounds, not names: led by a prefix ("two-factor",
# "pre-order", "real-time") or joined by small words ("step-by-step", "go-to", "in-app").
_COMPOUND_PREFIXES = frozenset(
    "a an e re pre post co non un anti self cross multi semi sub super inter over under "
    "one two three four five half well long short high low real full part end".split()
)
_PARTICLES = frozenset("by of the to and or in on at for with off out up vs".split())


def english_compound(word: str) -> bool:
    """Whether a hyphenated word is an English compound ("real-time", "go-to", "x-axis"),
    not a component's name ("payments-api")."""
    parts = word.lower().split("-")
    if len(parts) < 2:
        return False
    return parts[0] in _COMPOUND_PREFIXES or len(parts[0]) == 1 or not _PARTICLES.isdisjoint(parts)


# The parts of the speaker's own stack a sentence may name as being a tool ("the
# warehouse is Snowflake", "Orchestration is Airflow for now", "our CI is GitHub
# Actions"), each under one facet name.
STACK_FACETS = {
    "warehouse": "warehouse", "database": "database", "db": "database", "queue": "queue",
    "cache": "cache", "broker": "broker", "orchestration": "orchestration",
    "orchestrator": "orchestration", "scheduler": "orchestration", "ci": "ci",
    "hosting": "hosting", "host": "hosting", "cloud": "hosting", "frontend": "frontend",
    "backend": "backend", "language": "language", "framework": "framework", "orm": "orm",
    "bundler": "bundler", "runtime": "runtime", "storage": "storage", "search": "search",
    "monitoring": "monitoring", "logging": "logging", "auth": "auth", "editor": "editor",
    "ide": "editor", "test runner": "test runner", "package manager": "package manager",
    "gateway": "gateway", "api gateway": "gateway", "proxy": "proxy", "cdn": "cdn",
    "load balancer": "load balancer",
}  # fmt: skip
STACK_FACET_WORDS = "|".join(sorted(map(re.escape, STACK_FACETS), key=len, reverse=True))

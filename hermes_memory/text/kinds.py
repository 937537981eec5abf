"""What the words around a capitalised name say it is: the context before it ("works
at", "moved to", "using"), the word after it ("plugin", "class") and the words that
close or open such a name ("... Park", "Mount ...", "... Library", "... Portal"); also
what makes a name an animal's ("our dog Biscuit") or a colleague's ("Sarah from
accounting")."""

from __future__ import annotations

import re

# The words just before a name that make it an organisation ("works at", "joined") or a
# place ("moved to", "based in").
ORG_CONTEXT = re.compile(r"\b(works? (at|for)|joined|at|customer is|client is|for)\s+$")
PLACE_CONTEXT = re.compile(
    r"\b(moved to|based in|lives? in|living in|in|to|from|visit(ed|ing)?|trip to|near)\s+$"
)
# What a tool is used by, and what a tool has: context that types a name as one
# ("using Mongoose", "install Jest", "the Prettier plugin").
TOOL_CONTEXT = re.compile(
    r"\b(?:us(?:e|es|ed|ing)|install(?:s|ed|ing)?|configur(?:e|es|ed|ing)|"
    r"integrat(?:e|es|ed|ing)|import(?:s|ed|ing)?|via|set(?:ting)? up|evaluat\w*|adopt\w*|"
    r"(?:switch|migrat|upgrad|port)\w* to)\s+"
    r"(?:[^\s,]+(?:\s+[^\s,]+){0,2}?(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)){0,4}$"
)
# What software is built with or in: a tool, not a companion or a place ("building a
# budgeting app with Flutter and Supabase", "wrote the CLI in Zig"; not "made dinner
# with Sarah").
BUILT_WITH = re.compile(
    r"\b(?:buil[dt]|writ|wrote|mak|made|develop)\w*\s+(?:\S+\s+){0,3}?"
    r"(?:apps?|service|site|website|api|backend|frontend|tool|bot|pipeline|prototype|game|"
    r"script|dashboard|model|library|plugin|extension|cli|server|ui|mvp)\s+(?:with|in)\s+"
    r"(?:[^\s,]+(?:\s*,\s*(?:and\s+)?|\s+and\s+))?$"
)
# Where software is put to run: a platform, not a person ("host the site on Netlify",
# "run the workers on Fargate", "deployed the api to Vercel").
HOSTED = re.compile(
    r"\b(?:(?:host|hosts|hosted|hosting|deploy|deploys|deployed|deploying)\s+(?:\S+\s+){1,4}?"
    r"(?:on|to)|(?:run|runs|running)\s+(?:the|our|my|their|its|it|them|this|that|these)\b"
    r"(?:\s+\S+){0,3}?\s+on)\s+$"
)
TOOL_NEXT = frozenset(
    "config configuration plugin plugins package library module driver schema cli sdk "
    "middleware framework extension container integration dashboard docs class method "
    "component struct enum interface field attribute property header flag".split()
)
# What a place or an institution is, closing its name: no person's name ends so.
PLACE_NAME_HEADS = frozenset(
    "park beach lake river mountain mountains valley island bay street avenue road square "
    "airport station stadium mall zoo garden gardens forest canyon falls trail village "
    "palace castle tower bridge market harbour harbor pier".split()
)
PLACE_NAME_OPENERS = frozenset("mount mt lake fort cape port isle".split())
ORG_NAME_HEADS = frozenset(
    "library museum hospital clinic school university college academy institute center "
    "centre church temple hotel restaurant cafe bakery bank gallery theater theatre club "
    "gym studio shelter council cathedral chapel mosque synagogue abbey pub diner pharmacy".split()
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
# An animal's name follows what it is ("our dog Biscuit", "a puppy named Coco").
PET_BEFORE = re.compile(
    r"\b(?:dog|cat|puppy|pup|kitten|kitty|pet|hamster|rabbit|bunny|parrot|horse|pony|"
    r"turtle|tortoise|goldfish|fish|bird|budgie|lizard|gecko|snake|ferret)s?,?\s+"
    r"(?:(?:named|called)\s+)?$"
)
# Where a person is "from" at work or in a circle: their team, office or department.
FROM_GROUPS = frozenset(
    "team office department dept accounting finance hr legal sales marketing support "
    "engineering design ops operations security procurement recruiting admin club group "
    "class church gym school work college university lab choir band".split()
)
# Words after a component's name that make it a kind of work ("a backend engineer").
ROLE_NOUNS = frozenset(
    "engineer engineers developer developers dev devs role roles position job jobs work "
    "experience skills lead architect intern specialist expert".split()
)

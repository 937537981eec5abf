"""What a plan is about, and whether it moves or drops one (pure functions, no LLM).

"The beta launch on TestFlight is planned for December 14th" plans the beta launch;
"Change of plan: the beta moves to January 10th" moves it. Formation reads both
(api/formation.py): a plan that moves an earlier one of the same thing supersedes it,
so the old date is "no longer true" and the turn that gave it reads "since changed".
"""

from __future__ import annotations

import re

# A plan moved to another time, whatever the tense of its verb.
_MOVES = re.compile(
    r"\b(?:(?:moves?|moved|moving)(?!\s+(?:on|forward|ahead|along|in|out)\b)|pushed|postponed"
    r"|delayed|rescheduled|bumped|shifted|brought forward|pulled in|slipped|slips|slid"
    r"|extended)\b"
    r"(?P<object>(?:\s+\S+){0,3}?)(?:\s+from(?:\s+\S+){1,2}?)?\s+(?:to|until|till|back to)\b"
    r"|\b(?:is|are)\s+now\s+(?:on|set for|planned for|scheduled for|due)\b"
    r"|\bnew (?:date|deadline) (?:is|for)\b",
    re.IGNORECASE,
)
# Where the words naming the planned thing stop: the verb that plans or moves it.
_VERB = re.compile(
    r"\b(?:is|are|was|were|has|have|had|got|gets|will|moves?|moved|pushed|postponed|delayed"
    r"|rescheduled|bumped|shifted|slipped|slips|slid|extended|planned|scheduled|set|booked"
    r"|slated|due"
    r"|starts?|begins?|happens?|takes place)\b|['’]s\b",
    re.IGNORECASE,
)
# Who wants a thing by a day: "The CMO wants the dashboard by October 20th" is a plan
# (text/statements.py) of the thing wanted.
WANTS = r"(?:wants?|needs?|expects?|requires?|asked for|promised)"
# An occasion a plan is for: "my dentist appointment", "a demo for the stakeholders".
EVENT = (
    r"(?:appointment|interview|meeting|exam|flight|demo|review|presentation|talk|trip"
    r"|wedding|freeze|cutover|go-live|workshop|kickoff|kick-off|launch|offsite|retro)"
)
# An occasion wanted, whose day follows: "Hannah wants a demo for the stakeholders on
# October 14th" (a plan, text/statements.py, of the occasion: ``thing``).
WANTED_OCCASION = rf"\b{WANTS}\s+(?P<thing>(?:a|an|the|our|my)\s+(?:[\w'’-]+\s+){{0,2}}?{EVENT})\b"
# "I have a dentist appointment on ...", "The CMO wants the dashboard by ...", "I signed
# up for the half marathon on ...": the thing is the object.
_ARRANGED = (
    re.compile(
        r"\b(?:i|we)(?:['’]ve got| have(?: got)?| got)\s+(?:a|an|my|our|the)\s+"
        r"(?P<thing>[^,.;]+?)\s+(?:on|at|in|this|next|tomorrow|by)\b",
        re.IGNORECASE,
    ),
    # and an event it is wanted by, with its day: "wants it under 48 by my review on
    # October 14th"
    re.compile(
        rf"\b{WANTS}\s+(?P<thing>[^,.;]+?)\s+by\b"
        r"(?:\s+(?:my|our|the|his|her|their)\s+(?P<event>[^,.;]{1,40}?)\s+(?:on|at|in)\b)?",
        re.IGNORECASE,
    ),
    re.compile(WANTED_OCCASION, re.IGNORECASE),
    # "I signed up for the Valencia half marathon on December 6th": the event
    re.compile(
        r"\b(?:signed up|registered|enrolled|entered)\s+for\s+(?P<thing>[^,.;]+?)\s+"
        r"(?:on|at|in|this|next|by)\b",
        re.IGNORECASE,
    ),
)
_WORD = re.compile(r"[^\W_][\w'’.-]*[^\W_]|[^\W_]", re.UNICODE)
# Words that name no particular plan ("the", "change of plan", "our", "heads up").
_EMPTY = frozenset(
    "a an the our my your their its this that these those of for to on in at with and or "
    "change plan plans heads up update bad good news ok okay so also fyi note btw quick "
    "just hey new next it we they he she you them us back called said says texted emailed wrote "
    "mentioned confirmed announced reminder".split()
)


# A plan dropped for another: "I decided to drop the Valencia half and do the Rotterdam
# 10k on December 13th instead", "we're cancelling the offsite and doing a team dinner
# instead".
_REPLACES = re.compile(
    r"\b(?:drop(?:ped|ping|s)?|cancel(?:l?ed|l?ing|s)?|skip(?:ped|ping|s)?|ditch(?:ed|ing|es)?"
    r"|scrap(?:ped|ping|s)?)\s+(?P<thing>[^,.;]+?)\s*(?:,\s*|\s+)(?:and|to)\b[^.;]*?\binstead\b",
    re.IGNORECASE,
)


def replaced_plan(sentence: str) -> frozenset[str]:
    """The words naming the plan ``sentence`` drops for another ("drop the Valencia half
    and do the Rotterdam 10k instead" -> valencia, half); empty when it drops none."""
    m = _REPLACES.search(sentence)
    return _things(m.group("thing")) if m is not None else frozenset()


def moves_plan(sentence: str) -> bool:
    """Whether ``sentence`` moves a plan to another time ("the beta moves to January
    10th", "the release got postponed until June"), rather than setting one."""
    return _MOVES.search(sentence) is not None


# Where a sentence's clauses part: each has a subject of its own.
_CLAUSES = re.compile(r"[,;]\s+|\s+(?:and|but|so)\s+")


def planned_thing(sentence: str) -> frozenset[str]:
    """The words naming what ``sentence`` plans or moves, lower-cased ("The beta launch
    on TestFlight is planned for ..." -> beta, launch, testflight); empty when it names
    nothing of its own ("It moved to Friday")."""
    arranged = next(filter(None, (p.search(sentence) for p in _ARRANGED)), None)
    moved = _MOVES.search(sentence)
    thing = _things(moved.group("object")) if moved and moved.group("object") else frozenset()
    if arranged is not None:
        # and the event it is wanted by: "wants it under 48 by my review on October 14th"
        wanted = (arranged.group("thing"), arranged.groupdict().get("event"))
        phrase = " ".join(w for w in wanted if w)
    elif thing:
        return thing  # "Marcus moved the beta deadline to ...": the deadline, not Marcus
    else:
        # A label before a colon says whose or which ("Maya called: the wedding moved
        # ..."; "Change of plan: ..." names nothing).
        label, _, said = sentence.rpartition(":")
        # Each clause's subject: "The paper is going to ECCV, the submission deadline is
        # October 10th" plans the paper and its deadline.
        # A clause without a verb belongs to the next ("The beta, on TestFlight, is ...").
        subjects, waiting = [label], []
        for clause in _CLAUSES.split(said):
            verb = _VERB.search(clause)
            if verb is None:
                waiting.append(clause)
                continue
            subjects += [*waiting, clause[: verb.start()]]
            waiting = []
        phrase = " ".join(subjects)
    return _things(phrase)


def _things(phrase: str) -> frozenset[str]:
    words = {w.casefold() for w in _WORD.findall(phrase)}
    return frozenset(w for w in words if w not in _EMPTY and len(w) > 1)

"""How a sentence opens, and so whether the user is its subject (pure): "I" first or
after a lead-in ("Remember that I ...", "Btw, I ..."), a report of the user's own
("I think X uses Y": X is what it is about), a fronted home ("Living in Lisbon, I ...").
"""

from __future__ import annotations

import re

from hermes_memory.text.reading import Mention

# The user's own entity: what "I" and "my sister Ana" state are its relations. Its
# claims keep the speaker's side as subject None, as "we" has always had.
SELF = "the user"

# What opens a message before its subject "I" and says nothing of it ("Remember that
# I ...", "Btw, I ...").
_LEAD_IN = re.compile(
    r"\W*(?:(?:please|also|and|but|so|oh|ok(?:ay)?|well|anyway|btw|by the way|fyi|"
    r"just so you know|for the record|for context|update|heads up|note|remember|"
    r"keep in mind|don['’]t forget)(?: that)?[\s,:;!.-]*)+",
    re.I,
)
# Read no further back for a lead-in than this: the longest above, twice over.
_LEAD_IN_REACH = 60
# "I think X uses Y and ...": the user reports, X is what the sentence is about.
_REPORTING = re.compile(
    r"^\W*I\s+(think|believe|guess|heard|know|feel|noticed|saw|read|suspect|assume|hope|"
    r"wonder|doubt|agree|said|mean|want|need|wish|remember|forgot)\b"
)
# A fronted phrase whose subject is the "I" after it: "As someone living in Lisbon, I
# ...", "Based in Austin, Texas, I ...", "As a paramedic from Davistown, I ...".
_FRONTED_HOME = re.compile(
    r"^\W*(?:as\s+(?:someone|somebody|one|a|an)\b[^,]{0,40}?\s+)?"
    r"(?:(?:who\s+(?:is|was)\s+)?(?:living|based|residing)\s+in|who\s+lives?\s+in|from)\s+$",
    re.I,
)
# Between the fronted home and "I": at most its region ("Austin, Texas, I").
_THEN_I = re.compile(r"^(?:,\s*[A-Z][\w.-]*(?:\s+[A-Z][\w.-]*){0,2})?,\s*$")


def opens(sentence: str, m: Mention) -> bool:
    """Whether ``m`` is the sentence's first word, or follows only a lead-in
    ("Remember that I ...", "Btw, I ...")."""
    if m.start < 3:
        return True
    return m.start < _LEAD_IN_REACH and _LEAD_IN.fullmatch(sentence, 0, m.start) is not None


def reports(sentence: str) -> bool:
    """Whether the sentence opens on the user reporting ("I think ...", "I heard ...")."""
    return _REPORTING.match(sentence) is not None


def fronted_home(sentence: str, ms: list[Mention]) -> tuple[Mention, str, Mention] | None:
    """(the user, "lives_in", the place) for "Living in Lisbon, I ..."."""
    for k, place in enumerate(ms[:-1]):
        if place.type != "place" or not _FRONTED_HOME.match(sentence[: place.start]):
            continue
        speaker = next((m for m in ms[k + 1 :] if m.name == SELF), None)
        if speaker is not None and _THEN_I.match(sentence[place.end : speaker.start]):
            return speaker, "lives_in", place
        return None
    return None

"""Who a sentence's opening pronoun is: "I'm setting up the payments-api. It depends on
the ledger-service." and "Priya joined in May. She works at Zalando." state relations
of the name before, not of nobody. Pure; only the sentence just before is read, and
only an antecedent with no rival is taken (a wrong subject is worse than none)."""

from __future__ import annotations

import re
from dataclasses import replace

from hermes_memory.text.kinds import KIN
from hermes_memory.text.reading import Mention
from hermes_memory.text.triggers import BOSS, KIN_ADJECTIVES

# "It depends on ...", "And it runs on ...", "She works at ...". "They" is left alone:
# a team, a group of people or several services, with nothing to tell which. "Its"
# and "it'll" are not subjects of a plain verb; "it's" is read as "it is". "This" is
# left alone too: it opens "this morning" and "this service" as often as a subject.
_OPENER = re.compile(
    r"(?:(?:and|but|so|now|also|then|plus|besides)\s*,?\s+)?(it|she|he)(?='s\b|\s+[a-z])",
    re.IGNORECASE,
)
# What "it" stands for (and "she" / "he" a person).
THINGS = frozenset({"project", "tech", "org"})
# What may come before a name that is its sentence's subject: a determiner and a few
# words saying which or who ("the", "our new", "my older sister"). Anything else means
# the subject is something not named ("The notifier uses Twilio", "- **Vuex**: Vue's
# ..."). A sentence opened by "I" or "we" has the speaker as subject.
_SUBJECT_LEAD = re.compile(
    r"(?:(?:the|a|an|our|my|your|his|her|their|current|main|"
    rf"{KIN_ADJECTIVES}|{KIN}|{BOSS})\s+){{0,3}}",
    re.IGNORECASE,
)
_FIRST_PERSON = re.compile(
    # after a word or two of time or manner: "Today I ...", "This morning we ..."
    r"\s*(?:[a-z]+,?\s+){0,2}?(?:i|we|i'm|we're|i've|we've|i'd|we'd|i'll|we'll)\b",
    re.I,
)
# "It is raining", "it was great to see Priya", "it seems that ...": the pronoun stands
# for no thing, and a name after it is not what it does.
_EXPLETIVE = re.compile(
    r"(?:'s|\s+(?:is|was|will be|would be|has been))\s+(?:\w+\s+){0,2}?(?:to|that)\b|"
    r"\s+(?:seems?|appears?|looks?|turns?\s+out|feels?|sounds?|happens?|depends\s+on\s+"
    r"(?:whether|how|what|if))\b",
    re.IGNORECASE,
)


def opening_pronoun(sentence: str) -> tuple[int, int, str] | None:
    """The span of the pronoun ``sentence`` opens with, and whether it stands for a
    thing (``"thing"``) or a person (``"person"``); None when it opens otherwise or the
    pronoun stands for nothing ("it seems that ...")."""
    found = _OPENER.match(sentence.lstrip())
    if found is None:
        return None
    shift = len(sentence) - len(sentence.lstrip())
    start, end = found.start(1) + shift, found.end(1) + shift
    if _EXPLETIVE.match(sentence, end):
        return None
    kind = "thing" if found.group(1).lower() == "it" else "person"
    return start, end, kind


def antecedent(
    sentence: str, before: str, named: list[Mention], acted_on: frozenset[str] = frozenset()
) -> Mention | None:
    """The name (among ``named``, the mentions of the sentence ``before``, the user's
    own left out) that the pronoun ``sentence`` opens with stands for, as a mention
    over that pronoun; None when it opens with none or two names could be meant.
    ``acted_on``: the names a person was stated to act on in ``before`` ("Bob
    maintains the auth-service")."""
    opened = opening_pronoun(sentence)
    if opened is None:
        return None
    start, end, kind = opened
    wanted = THINGS if kind == "thing" else frozenset({"person"})
    fits: dict[str, Mention] = {}
    for m in named:
        if m.type in wanted:
            fits.setdefault(m.name, m)
    if not fits:
        return None
    only = next(iter(fits.values())) if len(fits) == 1 else None
    if kind == "person":
        if only is None:
            return None  # "Priya and Ana joined. She ...", "Priya met Ana. She ..."
        chosen = only
    else:
        first = min(named, key=lambda m: m.start)
        if first.name in fits and _SUBJECT_LEAD.fullmatch(before[: first.start]):
            chosen = first  # "The auth-service uses Postgres. It ...": the subject
        elif only is not None and (_FIRST_PERSON.match(before) or only.name in acted_on):
            # "I'm setting up the payments-api.", "Bob maintains the auth-service.":
            # the one thing the speaker or a person acted on.
            chosen = only
        else:
            return None
    return replace(chosen, start=start, end=end, surface=sentence[start:end])


def spoken_out(sentence: str) -> str:
    """``sentence`` with an opening "it's" / "she's" / "he's" written as "... is", so
    the words after the pronoun read as the verb they are (offsets shift by one)."""
    opened = opening_pronoun(sentence)
    if opened is None or sentence[opened[1] : opened[1] + 2] != "'s":
        return sentence
    end = opened[1]
    return f"{sentence[:end]} is{sentence[end + 2 :]}"

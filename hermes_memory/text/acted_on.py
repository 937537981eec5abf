"""What a named person does to the user, said with "me" (pure): "Priya manages me" (the
user reports to Priya), "Sara reports to me" (Sara reports to the user), "Nikhil
mentors me" (the user knows Nikhil). "Me" is no mention of its own, so the pairs of
names around it are read as before; only the verb right after a person's name, and
"me" right after the verb, state these ties."""

from __future__ import annotations

import re

from hermes_memory.text.reading import Mention, Relation
from hermes_memory.text.tense import considered

# What may stand between the name and the verb: an adverb of time or manner, not a
# negation, a hedge or another verb ("Priya no longer manages me" states no tie now).
_ADVERB = r"(?:(?:also|still|now|just|recently|actually|officially|kindly|personally)\s+)?"
# The user reports to whoever manages them, said now ("managed me" is a past tie).
_MANAGES_ME = re.compile(rf"\s+{_ADVERB}(?:manages|supervises|oversees)\s+me\b")
# Whoever reports to the user.
_REPORTS_TO_ME = re.compile(rf"\s+{_ADVERB}(?:reports|works)\s+(?:to|for|under)\s+me\b")
# Whoever does one of these to the user is someone the user knows.
_KNOWS_ME = re.compile(
    rf"\s+{_ADVERB}(?:mentor(?:s|ed)|coach(?:es|ed)|hired|onboarded|trained|taught|"
    r"introduced|interviewed|referred|recruited|helped|texted|called|emailed|"
    r"messaged|pinged|invited|visited|told|tells|showed|sent|gave|asked)\s+me\b"
)


# Whom one was introduced or referred to, right after "me".
_TO_SOMEONE = re.compile(r"(?:(?<=introduced me)|(?<=referred me))\s+to\s+")
_TITLE = re.compile(r"(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?")


def acted_on_me(
    sentence: str, mentions: list[Mention], self_name: str
) -> tuple[list[Relation], Mention | None]:
    """The ties that a person's verb on "me" right after their name states, with the
    user as ``self_name``, and the first such "me" as a mention of the user; none in a
    clause that only considers them (tense.py)."""
    out: list[Relation] = []
    me: Mention | None = None
    for m in mentions:
        if m.type != "person" or m.name == self_name:
            continue
        for pattern, relation in (
            (_MANAGES_ME, Relation(self_name, "reports_to", m.name, True)),
            (_REPORTS_TO_ME, Relation(m.name, "reports_to", self_name, True)),
            (_KNOWS_ME, Relation(self_name, "knows", m.name, True)),
        ):
            found = pattern.match(sentence, m.end)
            if found is None:
                continue
            if relation.type != "knows" and considered(sentence, m.start):
                break  # "Maybe Priya manages me now": no tie yet
            if relation not in out:
                out.append(relation)
            met = _TO_SOMEONE.match(sentence, found.end())
            if met is not None:  # "Tom introduced me to Sara": the user knows Sara too
                other = next(
                    (o for o in mentions if _TITLE.fullmatch(sentence, met.end(), o.start)), None
                )
                if other is not None and other.type == "person":
                    known = Relation(self_name, "knows", other.name, True)
                    if known not in out:
                        out.append(known)
            if me is None:
                me = Mention(self_name, "person", found.end() - 2, found.end(), self_name)
            break
    return out, me

"""The words between two names of a sentence, and what joins names: "and", commas and
lists ("A and B use X", "depends on Keycloak and the user-db", "Austin, Texas"). Pure
helpers of ``extract``."""

from __future__ import annotations

import re

from hermes_memory.text.kinds import KIN
from hermes_memory.text.preferences import RANKED_BELOW
from hermes_memory.text.reading import Claim, Mention, Relation
from hermes_memory.text.triggers import admits

# Words of time between two names say when, not how they relate ("moved to Berlin
# last March and now work at Spotify").
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_TIME_WORDS = re.compile(
    rf"\b(?:last|this|next|every)\s+(?:week|month|year|quarter|weekend|spring|summer|autumn|"
    rf"fall|winter|{_MONTHS})\b|\bin\s+(?:(?:19|20)\d\d|{_MONTHS})\b|"
    r"\b(?:now|currently|recently|today|yesterday|still|already|soon|again)\b"
)
_VERSION = re.compile(r"\b[vV]?\d+(\.\d+)*\b")
RELATIVE = re.compile(r"^,?\s*(?:which|that|who)\s+")
# "/" joins two names written against each other ("worked at IBM/Shopify").
COORD = re.compile(r"^(,?\s*and|,|\s*plus|\s*&|,?\s*or|/)$")


_DETERMINERS = re.compile(r"\b(the|a|an|our|my|their|his|her|its|both|also|all)\b")
_SPACES = re.compile(r"\s+")


def between(sentence: str, a: Mention, b: Mention) -> str:
    """The words between two mentions, lower case, without articles, possessives,
    versions and words of time."""
    return words_between(sentence, a.end, b.start)


def slashed(sentence: str, ms: list[Mention], k: int) -> tuple[int, int]:
    """The first and last index of the names written across slashes with ``ms[k]``
    ("Oracle/Sun", "MySQL/MariaDB"); ``(k, k)`` for a name alone."""
    first, last = k, k
    while first and sentence[ms[first - 1].end : ms[first].start].strip() == "/":
        first -= 1
    while last + 1 < len(ms) and sentence[ms[last].end : ms[last + 1].start].strip() == "/":
        last += 1
    return first, last


def words_between(sentence: str, start: int, end: int) -> str:
    """``sentence[start:end]`` read as :func:`between` reads it."""
    text = sentence[start:end].lower()
    text = _TIME_WORDS.sub(" ", text)
    text = _VERSION.sub(" ", text)
    text = _DETERMINERS.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


def looks_back(pattern: re.Pattern[str], sentence: str, at: int, reach: int) -> bool:
    """Whether ``pattern`` (anchored at its end) matches the ``reach`` characters before
    ``at``: a bounded look back, so a long sentence of many names stays linear."""
    return pattern.search(sentence, max(0, at - reach), at) is not None


def coordinate(sentence: str, ms: list[Mention], rels: list[Relation]) -> None:
    """ "A and B <rel> C" gives A the relation too; "<S> <rel> X and Y" gives S -> Y
    when the relation admits Y ("depends on Keycloak and the user-db"), and so does a
    list whose items have their own use ("Obsidian for notes and Todoist for tasks")."""
    by_name = {m.name: m for m in ms}
    for k in range(1, len(ms)):
        a, b = ms[k - 1], ms[k]
        gap = between(sentence, a, b)
        kin = a.type == b.type == "person" and _AND_KIN.fullmatch(gap)
        # "depends on X and on Y": Y shares only what X is the tail of, after the same
        # preposition
        again = _SAME_PREPOSITION.fullmatch(gap)
        if again is None and not kin and not COORD.match(_LIST_ITEM.sub("", gap) or "x"):
            continue
        if gap == "," and sentence[b.start : b.end] == "I":
            continue  # "Hey Nate, I love baking": who is spoken to, not a second subject
        if (
            a.type == b.type == "person"
            and not kin
            and _TIME_WORDS.search(sentence[a.end : b.start].lower())  # what ``gap`` drops
        ):
            continue  # "I left Acme last year and I'm now joining Globex": a new clause
        if again is None and a.type == "place" and region_of(sentence, ms, k):
            continue
        for r in list(rels):
            if (
                again is None
                and r.head == b.name
                and r.type != "knows"
                and a.type == b.type
                and not _own(sentence, b, by_name.get(r.tail))
            ):
                extra = Relation(a.name, r.type, r.tail, r.stated)
            elif (
                r.tail == a.name
                and (r.type != "knows" or not kin)
                and _admits_tail(r, by_name, b)
                and (again is None or _after(sentence, by_name.get(r.head), a, again.group(1)))
            ):
                extra = Relation(r.head, r.type, b.name, r.stated)
            elif (
                again is None
                and r.head == a.name
                and r.type != "knows"
                and a.type == b.type
                and _before(by_name.get(r.tail), a)
            ):  # "the data team is Ravi and Mei": Mei is a member too
                extra = Relation(b.name, r.type, r.tail, r.stated)
            else:
                continue
            if extra not in rels and extra.head != extra.tail:
                rels.append(extra)


# Words between a chosen name and the one it was chosen over ("Redis instead of
# Memcached"); "over" only after a verb of choosing, as "gRPC over HTTP/2" is carried.
_INSTEAD = frozenset({"instead of", "rather than"})
_CHOOSING = re.compile(
    r"\b(?:cho(?:se|sen|ose|oses|osing)|pick(?:s|ed|ing)?|select(?:s|ed|ing)?|prefer\w*|"
    r"opt(?:s|ed|ing)? for|went with|go(?:ing)? with|settled on|favou?r\w*|recommend\w*)\s+$",
    re.I,
)


def chosen_over(sentence: str, ms: list[Mention]) -> dict[str, Mention]:
    """Each name written as turned down ("chose Postgres over MongoDB", "Redis instead
    of Memcached"), with the name chosen over it: what the sentence says the choice is
    for ("... for the orders database") is the chosen one's."""
    out: dict[str, Mention] = {}
    for a, b in zip(ms, ms[1:], strict=False):
        gap = between(sentence, a, b)
        if gap in _INSTEAD or (gap == "over" and looks_back(_CHOOSING, sentence, a.start, 40)):
            out[b.name] = out.get(a.name, a)
    return out


# A group's members said in brackets after it: "the frontend team (Ines and Paulo)".
_MEMBERS_OPEN = re.compile(r"[^()]*\b(?:team|squad|crew|group)\s*\(\s*", re.I)


def bracketed_members(sentence: str, ms: list[Mention]) -> list[tuple[Mention, list[Mention], int]]:
    """Each group named with its people in brackets after it ("the data team (Priya,
    Mei and Ravi) maintains X"), with the people and where the bracket closes: the
    group is what the words after the bracket are about."""
    out = []
    for k in range(len(ms) - 1):
        group, first = ms[k], ms[k + 1]
        if (
            group.type not in ("project", "org")
            or "(" not in sentence[first.start - 2 : first.start]
        ):
            continue
        if not _MEMBERS_OPEN.fullmatch(sentence, group.start, first.start):
            continue
        close = sentence.find(")", first.end, first.end + 200)
        members = [m for m in ms[k + 1 :] if m.end <= close]
        if close > 0 and all(m.type == "person" for m in members):
            out.append((group, members, close))
    return out


def listed_after(sentence: str, ms: list[Mention], first: Mention) -> list[Mention]:
    """The names listed after ``first`` as its equals: "Prometheus and Grafana for
    monitoring, and PagerDuty for alerts", "Django, Celery and Redis"."""
    out: list[Mention] = []
    k = ms.index(first)
    tools = ("tech", "org")
    while k + 1 < len(ms):
        a, b = ms[k], ms[k + 1]
        if (a.type in tools) != (b.type in tools) or (a.type not in tools and a.type != b.type):
            break
        if not COORD.match(_LIST_ITEM.sub("", between(sentence, a, b)) or "x"):
            break
        if a.type == "place" and region_of(sentence, ms, k + 1):
            break  # "from Davistown, Palau": one place, said with its region
        out.append(b)
        k += 1
    return out


_SAME_PREPOSITION = re.compile(r",?\s*(?:and|or) (on|to|from|in|with|at|for|by|into)")


def _after(sentence: str, head: Mention | None, m: Mention, preposition: str) -> bool:
    """Whether ``m`` follows ``head`` right after ``preposition`` ("depends on X")."""
    if head is None or head.end > m.start:
        return False
    return re.search(rf"(?:^|\s){preposition}$", between(sentence, head, m)) is not None


def _before(m: Mention | None, other: Mention) -> bool:
    return m is not None and m.end <= other.start


def _own(sentence: str, m: Mention, tail: Mention | None) -> bool:
    """Whether what ``m`` relates to is said in a clause of its own ("Raj, who lives in
    Lyon") or an apposition ("Oskar, the route-planner owner"), which the name before it
    does not share."""
    if tail is None or tail.start <= m.end:
        return False
    gap = between(sentence, m, tail)
    return gap == "," or bool(RELATIVE.match(gap))


# What one item of a list is for, before the next ("X for notes and Y").
def _admits_tail(r: Relation, by_name: dict[str, Mention], tail: Mention) -> bool:
    head = by_name.get(r.head)
    return head is not None and admits(r.type, head, tail)


# "Nina and her husband Raj moved to Lyon": both moved ("her" is left out by between).
_AND_KIN = re.compile(rf",?\s*and (?:(?:older|younger|little|big|best|old|new) )?(?:{KIN})")
_LIST_ITEM = re.compile(r"^(?:for|in|on|at)\s+(?:\w+,?\s+){1,2}(?=and$|or$)")


def region_of(sentence: str, ms: list[Mention], k: int) -> bool:
    """Whether the place ``ms[k]`` is the region of the one before it ("Austin, Texas"),
    not the next of a list ("Paris, Rome and Berlin")."""
    if between(sentence, ms[k - 1], ms[k]) != ",":
        return False
    nxt = ms[k + 1] if k + 1 < len(ms) else None
    if nxt is None or nxt.type != "place":
        return True
    return not COORD.match(between(sentence, ms[k], nxt) or "x")


def co_mention(ms: list[Mention], rels: list[Relation]) -> None:
    """Two people named in one sentence know each other unless already related."""
    people = [m for m in ms if m.type == "person"]
    linked = {frozenset((r.head, r.tail)) for r in rels}
    for x in range(len(people)):
        for y in range(x + 1, len(people)):
            a, b = people[x], people[y]
            if a.name != b.name and frozenset((a.name, b.name)) not in linked:
                rels.append(Relation(a.name, "knows", b.name, stated=False))
                linked.add(frozenset((a.name, b.name)))


def ranked_below(sentence: str, ms: list[Mention], claims: list[Claim]) -> None:
    """ "Prefers X over Y" also claims that Y ranks below (a claim only, for
    supersession: a later "prefers Y" ends it, as "prefers Y over X" ends "prefers X")."""
    for a, b in zip(ms, ms[1:], strict=False):
        if between(sentence, a, b) not in RANKED_BELOW:
            continue
        for c in list(claims):
            if c.predicate == "prefers" and c.object == a.name:
                below = Claim(c.subject, "ranks_below", b.name)
                if below not in claims:
                    claims.append(below)

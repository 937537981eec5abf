"""One sense per text: a name a text reads in several sentences is one thing, so what
its sure readings say settles what its guesses took it for (pure functions)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from hermes_memory.text.kinds import NAMED_NOUNS
from hermes_memory.text.reading import GUESS_WEIGHT, Mention


def settle_types(mentions: list[Mention]) -> None:
    """Retype, in place, a guessed person whose name opens with a tool the text names
    ("a module Expo Go doesn't support ... moving off Expo"): that tool's product; and
    a name guessed a person, a concept or a body where its sure readings as a tool or a body
    outweigh its guesses, each a GUESS_WEIGHT of one ("Firebase is down ... we moved
    the backend from Firebase to Supabase"): a text means one thing by one name."""
    tools = {m.name for m in mentions if m.type == "tech" and " " not in m.name}
    sure: dict[str, Counter[str]] = {}
    guesses: Counter[str] = Counter()
    for m in mentions:
        if not m.guessed and m.type in ("tech", "org"):
            sure.setdefault(m.name, Counter())[m.type] += 1
        elif m.guessed and m.type in ("person", "concept", "org"):
            guesses[m.name] += 1
    people = {m.name for m in mentions if m.type == "person"}
    for k, m in enumerate(mentions):
        if m.guessed and m.type in ("concept", "org") and m.name in people:
            mentions[k] = replace(m, type="person")  # "I met Vickie ... a laptop for Vickie"
        elif (
            m.guessed
            and m.type in ("person", "concept")
            and m.name.partition(" ")[0] in tools - {m.name}
        ):
            mentions[k] = replace(m, type="tech", guessed=False)
        elif m.guessed and m.name in sure and m.type in ("person", "concept", "org"):
            (kind, n), *_ = sure[m.name].most_common(1)
            if n > GUESS_WEIGHT * guesses[m.name]:  # "the LSTM" (a guessed body), "an LSTM"
                mentions[k] = replace(m, type=kind, guessed=False)


# What joins the items of one list: "X, Y and Z", "React Native + Expo", "Jest or Vitest";
# two items only so, not by a comma ("Go, Jon!", "the Galaxy S23, and Gary from ...").
# A name weighed against another is a thing of its kind too ("Grafana Tempo over Jaeger").
_WEIGHED = r"|\s+(?:over|instead of|rather than|vs\.?|versus)\s+"
_JOINS = re.compile(rf"\s*(?:,|\+|&|/|and|or|, and|, or)\s*{_WEIGHED}")
_PAIR = re.compile(rf"\s*(?:\+|&|/)\s*|\s+(?:and|or)\s+{_WEIGHED}")


def settle_lists(sentence: str, mentions: list[Mention]) -> list[Mention]:
    """``mentions`` (of one sentence, in order) with a guessed person or concept listed
    among tools read for sure made a tool ("Microsoft Project, Trello, Asana, or Google
    Sheets", "React Native + Expo"): a list holds things of one kind."""
    out = list(mentions)
    runs: list[list[int]] = []
    for k, m in enumerate(out):
        joined = k > 0 and _JOINS.fullmatch(sentence[out[k - 1].end : m.start]) is not None
        if joined:
            runs[-1].append(k)
        else:
            runs.append([k])
    for run in runs:
        pair = len(run) == 2 and _PAIR.fullmatch(sentence[out[run[0]].end : out[run[1]].start])
        if (
            len(run) < 2
            or (len(run) == 2 and not pair)
            or not any(out[k].type == "tech" and not out[k].guessed for k in run)
        ):
            continue
        for k in run:
            if out[k].guessed and out[k].type in ("person", "concept"):
                out[k] = replace(out[k], type="tech", guessed=False)
    return out


def settle_people(sentence: str, mentions: list[Mention]) -> list[Mention]:
    """``mentions`` (of one sentence, in order) with a name nothing typed made a person
    when it is listed with one ("Liam and Mei", "Athena and Marcus"), along the list
    both ways ("Laura, Ben and Sam"): people are listed with people. Names of several
    words are left as they are ("the Magic Eraser and Night Sight modes")."""
    out = list(mentions)

    def spread(k: int, to: int) -> None:
        a, b = out[min(k, to)], out[max(k, to)]
        if (
            " " not in a.name + b.name
            and out[k].type == "person"
            and out[to].type == "concept"
            and out[to].guessed
            and _JOINS.fullmatch(sentence[a.end : b.start])
        ):
            out[to] = replace(out[to], type="person")

    for k in range(len(out) - 1):
        spread(k, k + 1)  # "Laura and Ben", a person first
    for k in range(len(out) - 1, 0, -1):
        spread(k, k - 1)  # "Ben and Laura", the person after
    return out


# What may follow a place's region: the end of a clause ("in Jamestown, Saint Helena.").
_REGION_ENDS = re.compile(r"\s*(?:[,.;:!?)]|$|and\b|or\b)")


def settle_regions(sentence: str, mentions: list[Mention]) -> list[Mention]:
    """``mentions`` (of one sentence, in order) with a guessed name right after a place
    and a comma, closing the clause, made a place: the region the place is in
    ("living in New Gary, Saint Helena, with ...", "Jamestown, Saint Helena"). A single
    word guessed a person is who is spoken to ("We were in Lisbon, Carla.")."""
    out = list(mentions)
    for k in range(1, len(out)):
        place, m = out[k - 1], out[k]
        if (
            place.type == "place"
            and m.guessed
            and (m.type == "concept" or (m.type == "person" and " " in m.name))
            and sentence[place.end : m.start] == ", "
            and _REGION_ENDS.match(sentence, m.end)
        ):
            out[k] = replace(m, type="place")
    return out


# A name given right after the noun phrase it names: "their member app, Tidewater",
# "the payments service called Ledger" (not a list: "x_1, x_2", "react, jira").
_NAMING = re.compile(r"\s*,\s*|\s+(?:called|named)\s+")


def settle_appositions(sentence: str, mentions: list[Mention]) -> list[Mention]:
    """``mentions`` (of one sentence, in order) without a component said in lower case
    ("member app") right before the name it is given ("their member app, Tidewater"):
    one thing, called by its name."""
    drop = {
        k
        for k in range(len(mentions) - 1)
        if mentions[k].type in ("project", "tech")
        and mentions[k].surface.islower()
        and mentions[k].surface.rpartition(" ")[2] in NAMED_NOUNS
        and mentions[k + 1].type == mentions[k].type
        and _NAMING.fullmatch(sentence[mentions[k].end : mentions[k + 1].start]) is not None
    }
    return [m for k, m in enumerate(mentions) if k not in drop]

"""What says a capitalised name with nothing else to type it is a person's: a person's
doing after it, a tie to the speaker before it, a person's belongings after its
possessive (pure functions over one sentence's tokens).

A name no word around calls a tool, a place or a body was a person by default until
extractor version 42. In what people tell an assistant most such names are products,
features and terms ("games like Fortnite", "Night Sight mode", "the formula Sn = ..."),
and the people they name are named as people: "my friend Ronald", "Jamie suggested",
"Gary's advice". ``guessed_kind`` says which; mentions.py asks it last.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from hermes_memory.text.kinds import NAME_NEXT, PERSON_ACTS, VERB_ADVERBS, is_kin, name_follows
from hermes_memory.text.lexicon import NP_STOP

Tokens = list[tuple[str, int, int]]

# What a person does right after their name ("Jamie suggested ...", "as Gary advised"):
# what only a person does after "<name> from <company>" (kinds.PERSON_ACTS), and more.
_ACTS = PERSON_ACTS | frozenset(
    "says tells suggests recommends advised advises mentions offers shared shares thinks "
    "thought believes agrees wants wanted hopes hoped helped helps loves loved likes liked "
    "hates enjoys enjoyed invited gave gives sent sends calls texted replied wrote "
    "explained lives lived works worked moved came comes bought saved completed reported "
    "noticed found decided prefers preferred owns maintains leads manages reviewed reviews "
    "approved started quit left graduated married studies studied teaches taught plays "
    "played feels felt knows knew needs needed insisted warned pointed claims claimed "
    "received took handles requested requests assigned provided confirmed praised uses "
    "used went chose picked".split()
)
# What a person has done, after "has" ("Ben has led ...", "Mia has joined ...").
_DONE = _ACTS | frozenset({"led", "taken"})
# Who someone is to the speaker, right before their name ("my friend Ronald", "our
# manager Priya", "my family member Ronald"): a relative or friend (kinds.is_kin), or
# one of these.
_TIES = frozenset(
    "pal kid member co-worker boss manager supervisor lead owner maintainer client "
    "customer recruiter interviewer intern founder guy enthusiast fellow".split()
)


def _tie(word: str) -> bool:
    return word in _TIES or is_kin(word)


# What one does to a person named right after it ("I met Vickie", "I'll ask Gary").
_TO_SOMEONE = frozenset(
    "met meet meeting ask asked asking told tell telling thank thanked call called "
    "text texted email emailed invite invited introduced hired helped help "
    "congratulate congratulated hi hey hello dear thanks knows know knew named send sent "
    "lend lent show showed remind reminded ping pinged notify contact cc".split()
)
# Whom one talks to or is with, after these ("talked to Ana", "lunch with Marcus").
_WITH_SOMEONE = re.compile(
    r"\b(?:talk(?:ed|ing)?|spok(?:e|en)|speak(?:ing)?|chat(?:ted|ting)?|went|go(?:ing)?|"
    r"lunch|dinner|coffee|met|meet(?:ing)?|hung out|hang(?:ing)? out|rehears\w*|"
    r"work(?:ed|ing)?|collaborat\w*|agreed|argued|reach(?:ed)? out|wrote|writ\w*|"
    r"sent \w+|gave \w+|introduced \w+|bonded)\s+(?:to|with)\s+$",
    re.I,
)
# What is one's own after a possessive ("Jamie's advice", "Gary's wife").
_BELONGINGS = frozenset(
    "advice suggestion suggestions opinion opinions recommendation recommendations idea "
    "ideas tip tips feedback input help request birthday wedding party family wife "
    "husband partner kids children son daughter mom mum dad mother father sister "
    "brother friend friends house place home report experience story words view "
    "views plan plans budget career job offer expectations needs preferences books songs "
    "album novel music art skills review reviews approval sign-off decision team manager "
    "calendar schedule availability email message comments question questions".split()
)
# The speaker naming themselves ("I'm Taylor", "my name is Taylor", "this is Sam").
_SELF_NAMED = re.compile(
    r"(?:\bi['’]m|\bi am|\bmy name is|\bmy name's|\bcall me|\bthis is)\s+$", re.I
)
# A name and a person together ("Jamie and I", "me and Gary", "you and Max").
_AND_ME = re.compile(r"\b(?:me|i|you|he|she|we|they)\s+and\s+$", re.I)
# Who they are, after "is" ("Priya is my manager", "Dana was our tech lead").
_IS_A_TIE = re.compile(r"(?:is|was|['’]s)\s+(?:my|our|his|her|their|a|an|the)\s+(\w+)", re.I)


# Where a name is said to someone or of someone, as often of a thing ("with Tobias",
# "with Cypress", "by Ayesha", "from Priya", "to Carol", "under Laura"): a person as
# before, a guess.
_SOCIAL = frozenset("with by from to under".split())
# Whom one names, before a title or a role said of them ("Mr. Okafor", "A friend of
# mine, Yusuf", "My manager is Elena").
_TITLES = frozenset("mr mrs ms miss dr prof sir madam".split())
_TIE_BEFORE = re.compile(
    r"\b(\w+)(?:\s+of\s+(?:mine|ours|his|hers|theirs))?\s*(?:,|\s+is|\s+was)\s*$", re.I
)
# Words that open a clause whose subject may follow ("because Omar is on leave").
_CLAUSE_OPENERS = frozenset("because since although though unless whereas but so".split())
# Who is given something: the first of a verb's two objects ("left Tom a voicemail").
_GIVE = frozenset("gave give gives giving owe owed owes paid pay".split())
_LEFT = frozenset("left leave leaves leaving".split())
_GIVEN = frozenset("a an the some my his her our their this that".split())
# Who a group is, said in brackets after it ("the data team (Priya, Mei)").
_GROUPS = frozenset("team teams squad crew group committee panel band family".split())
_ON_A_TEAM = [["on", w, "team"] for w in ("the", "my", "our", "their", "his", "her")]
# Words that end a sentence or a clause a vocative closes ("Cheers to that, Felix!").
_CLOSES = frozenset(".!?")
# What comes right after a name called out at a sentence's start ("Hey, John that's").
_SPOKEN_TO = frozenset("i you that we".split())
# What a name closing a sentence follows when it is the thing spoken of, not the one
# spoken to ("software like Desmos.", "moved to Gateway."): a preposition, an article,
# a possessive.
_NOT_VOCATIVE = frozenset(
    "in on at to for from with by of about like as into onto via using than and or the "
    "a an my your our their his her its this that these those called named ,".split()
)
# Words a name is called out after, closing a sentence ("Bye Caroline.", "same here
# Caroline.", "Absolutely Jon."), where "support for multi-language Unicode." ends on a
# thing.
_CALLS = frozenset(
    "bye goodbye thanks thank hi hey hello congrats congratulations later soon here too "
    "again absolutely definitely totally sure yes yeah yep ok okay wow sorry luck night "
    "morning".split()
)
_NAME_IS = re.compile(
    r"\b(?:name(?:\s+is|['’]s)|known as|goes by|nicknamed|"
    r"(?:name|named|call|called)\s+(?:him|her|them))\s+$",
    re.I,
)
# Names that are a relative's title ("I miss my Grandma", "Mom says hi").
_KIN_NAMES = frozenset("mom mum dad grandma grandpa granny nana papa mama auntie".split())


def guessed_kind(
    sentence: str,
    toks: Tokens,
    span: tuple[int, int],
    words: list[str],
    opens: bool,
    common: Callable[[str], bool] | None,
) -> str:
    """The kind of a capitalised name ``toks[i:j]`` (``span``, its ``words``) that
    nothing else typed: a person where the words around say so, or where it opens its
    sentence (``opens``, its verb after it checked), or a full name of words the writer
    does not use in lower case (``common``: text/casing.py) that modifies no noun
    ("Meghan Fowler", not "the Night Sight mode"); a concept else."""
    i, j = span
    if opens or _said_before(sentence, toks, i, j) or _said_after(sentence, toks, i, j):
        return "person"
    full_name = len(words) > 1 and not (common and any(common(w) for w in words))
    return "person" if full_name and not modifies_a_noun(toks, j) else "concept"


def _said_before(sentence: str, toks: Tokens, i: int, j: int) -> bool:
    """Whether the words before the name ``toks[i:j]`` (and the one after it, where
    that decides) say it is a person's."""
    before = sentence[max(0, toks[i][1] - 40) : toks[i][1]]
    prev = toks[i - 1][0].lower() if i else ""
    if _tie(prev) or prev in _TO_SOMEONE:
        return True
    if j == i + 1 and toks[i][0].lower() in _KIN_NAMES:
        return True  # "my Grandma"
    if prev in _SOCIAL:  # "with Tobias", not "with Lambda functions"
        return not modifies_a_noun(toks, j, plural=True)
    if prev == "." and i > 1 and toks[i - 2][0].lower() in _TITLES:
        return True  # "Mr. Okafor"
    if (tie := _TIE_BEFORE.search(before)) and _tie(tie.group(1).lower()):
        return True
    if _WITH_SOMEONE.search(before) or _SELF_NAMED.search(before) or _AND_ME.search(before):
        return True
    if prev in ("like", "of") and i > 1 and _tie(toks[i - 2][0].lower()):
        return True  # "friends like Jamie", "a friend of Sarah"
    if _NAME_IS.search(before):
        return True  # "his name is Kyle", "Her name's Coco", "known as Bob", "name her Tilly"
    nxt = toks[j][0] if j < len(toks) else "."
    if prev == "|" and nxt == "|" and j == i + 1:
        return True  # "| Bob owns it | Alice |": a table's cell of who
    if prev in _LEFT:
        return True  # "I left Tom and Ana at home" (a body left is typed before this)
    if prev in _GIVE and (nxt.lower() in _GIVEN or nxt.isdigit()):
        return True  # "I gave Bob 5 dollars", "I left Tom a voicemail": who receives
    if nxt == "as" and any(_tie(t[0].lower()) for t in toks[j + 1 : j + 6]):
        return True  # "Lena replaced Tom as the on-call lead"
    if prev == "(" and i > 1 and toks[i - 2][0].lower() in _GROUPS:
        return True  # "the frontend team (Ines and Paulo)": its members
    if [t[0].lower() for t in toks[j : j + 3]] in _ON_A_TEAM:
        return True  # "Having Sarah on the team helps"
    if nxt in (",", "!") and i == 1:
        return True  # "Yeah Priya, ...", "Omg Keiko, ...": who is spoken to
    if prev == "," and nxt in (",", "-", "–"):
        return True  # "my fellow tech enthusiast, Raymond, ...", "Thanks, Gina - ..."
    if prev == "," and (nxt.lower() in _SPOKEN_TO or (i == 2 and nxt in _CLOSES)):
        return True  # "Hey, John that's awesome!", "No doubt, Jon you've got this"
    after = toks[j + 1][0].lower() if j + 1 < len(toks) else ""
    if nxt == "," and after in _SPOKEN_TO and i and prev not in _NOT_VOCATIVE:
        return True  # "Got it Nate, I'll see you soon!"
    if i and prev not in _NOT_VOCATIVE and (nxt == "!" or (nxt in _CLOSES and prev in _CALLS)):
        return True  # "keep it up Nate!", "Bye Caroline.": a name closing what is said
    if nxt == "from":  # "Gary from Best Buy confirmed ...", "Sarah from accounting"
        k = j + 1
        while k < len(toks) and k - j <= 4 and toks[k][0][:1].isupper():
            k += 1
        return name_follows(toks, j) or (k < len(toks) and toks[k][0].lower() in _ACTS)
    if (i == 1 or (i == 2 and prev == ",") or prev in _CLAUSE_OPENERS) and name_follows(toks, j):
        # "Yup, Theo starts school", "Glad Biscuit is settling in", "because Omar is on
        # leave": a clause's subject, read as a sentence's first word is
        return True
    return prev == "," and (nxt in _CLOSES or j == len(toks))  # "Sure thing, Bruno."


def _said_after(sentence: str, toks: Tokens, i: int, j: int) -> bool:
    """Whether the words after the name ``toks[i:j]`` say it is a person's: a person's
    doing, belongings, company or tie."""
    k = j
    while k < len(toks) and toks[k][0].lower() in VERB_ADVERBS:
        k += 1
    if k >= len(toks):
        return False
    nxt = toks[k][0].lower()
    if nxt in _ACTS:
        return True
    if nxt in ("has", "had") and k + 1 < len(toks) and toks[k + 1][0].lower() in _DONE:
        return True  # "Ben has led the platform team", "Kai had left by then"
    if nxt in ("'s", "’s", "'", "’") and k + 1 < len(toks):
        owned = [t[0].lower() for t in toks[k + 1 : k + 3]]
        if owned[0] in _BELONGINGS or (len(owned) > 1 and owned[1] in _BELONGINGS):
            return True  # "Gary's advice", "Ronald's gaming expectations"
    if nxt in ("who", "and") and k + 1 < len(toks):
        return nxt == "who" or toks[k + 1][0].lower() in ("i", "me")  # "Jamie and I"
    if nxt == "," and k + 1 < len(toks) and toks[k + 1][0].lower() == "who":
        return True  # "Ronald, who's 23,"
    tie = _IS_A_TIE.match(sentence, toks[k][1])
    return tie is not None and _tie(tie.group(1).lower())


# Words after a name that are no noun it modifies: time, degree and the like.
_NOT_HEADS = frozenset(
    "yesterday today tonight tomorrow now then again too also still once twice here there "
    "last next this not never ever always since until till unless although though "
    "whenever whereas yet".split()
)
# Works said by their maker's name ("the new Wes Anderson film", "a Stephen King novel").
_WORKS = frozenset("film movie song album book novel show concert play painting".split())


def modifies_a_noun(toks: Tokens, j: int, *, plural: bool = False) -> bool:
    """Whether the word after a name ending at ``j`` is a lower-case noun the name
    modifies ("the Night Sight mode", "my Elastic Beanstalk environment"): a product's
    or a feature's name, not a person's, who is not said before a noun but before a
    verb ("Alice Chen said", "Tom Baker reviews"). ``plural``: a noun may end in "s",
    where the name cannot be the subject ("with Lambda functions")."""
    if j >= len(toks):
        return False
    w = toks[j][0]
    low = w.lower()
    if j + 1 < len(toks) and toks[j + 1][0] in ("'", "’"):
        return False  # "Expo Go doesn't support": a negated verb
    return (
        w.isalpha()
        and w.islower()
        and low not in NP_STOP
        and low not in _NOT_HEADS
        and low not in _WORKS
        and low not in NAME_NEXT
        and low not in _ACTS
        and not low.endswith(("ed", "ing") if plural else ("s", "ed", "ing"))
    )

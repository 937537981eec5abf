"""Durable statements in what a person says (pure functions, no LLM).

``find_statements`` reads one turn and returns the sentences worth keeping beyond
the chat they were said in: standing instructions ("Always answer in British
English", "from now on ..."), preferences ("I prefer minimal dependencies"),
personal facts (diet, allergies, home, work, family), decisions ("we decided to
host it on Fly.io"), plans with a date, and corrections ("Actually, I switched
from Neovim to Helix"). Precision comes first: a sentence is kept only when its
own grammar says it is a first-person statement of the speaker, never a question,
a hypothetical, a joke, a quotation or someone else's words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hermes_memory.text.bounds import NOT_AN_END
from hermes_memory.text.excerpt import clip
from hermes_memory.text.lexicon import STACK_FACET_WORDS
from hermes_memory.text.statement_rules import ACCEPT, OPENER, RULES
from hermes_memory.text.tense import told_as_past

# What each kind of statement becomes: the fact's category and importance.
KINDS: dict[str, tuple[str, float]] = {
    "instruction": ("instruction", 0.8),
    "preference": ("preference", 0.7),
    "personal": ("user", 0.7),
    "decision": ("decision", 0.7),
    "handover": ("decision", 0.7),  # who now does what: "Teo will take over the design"
    "plan": ("project", 0.6),
    "correction": ("user", 0.75),
    "tool": ("tool", 0.6),
}

MAX_SENTENCE_CHARS = 400
MIN_WORDS = 2
# A turn longer than this is read for its first part only: a statement of lasting
# worth sits in the person's own prose, not page 40 of a pasted log.
MAX_SCAN_CHARS = 20_000
MAX_PER_TURN = 6


@dataclass(frozen=True)
class Statement:
    text: str  # the sentence as said, trimmed of fillers
    kind: str  # one of KINDS

    @property
    def category(self) -> str:
        return KINDS[self.kind][0]

    @property
    def importance(self) -> float:
        return KINDS[self.kind][1]


# A plan is durable only with a date in it.
_DATE = re.compile(
    r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d{1,2}"
    r"(?:st|nd|rd|th)?\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov"
    r"|dec)[a-z]*\b"
    r"|\b\d{4}-\d{2}-\d{2}\b"
    r"|\b(?:next|this) (?:week|month|year|monday|tuesday|wednesday|thursday|friday|saturday"
    r"|sunday)\b"
    r"|\btomorrow\b|(?:(?<=\bby )|(?<=\bon )|(?<=\bto )|(?<=\buntil )|(?<=\btill )"
    r"|(?<=\bbefore ))(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
    r"|\b(?:by|on|to|until|till|before) the \d{1,2}(?:st|nd|rd|th)\b",
    re.I,
)

# Not a statement of the speaker's own: asked, supposed, wished, joked or quoted.
_HYPOTHETICAL = re.compile(
    r"^(?:\W*)(?:what if|if|suppose|supposing|imagine|assuming|in case|unless|whether|"
    r"would|could|should|can(?!')|do(?!n't| not)|does|did|is|are|am|will|shall|may|might|maybe"
    r"|perhaps|"
    r"i wonder|wondering|i'm not sure|not sure|i don't know|how|why|which|who|where)\b"
    r"|\b(?:would you|could you|should i|can you|do you|what if|or should|or would|i wonder)\b",
    re.I,
)
_JOKE = re.compile(
    r"\b(?:lol|lmao|rofl|haha\w*|jk|just kidding|kidding|joking)\b"
    r"|[\U0001F602\U0001F923\U0001F61C]",
    re.I,
)
# Someone else's words: "my boss said always ...", "she told me", "he prefers".
_REPORTED = re.compile(
    r"\b(?:said|says|told|tells|asked|asks|wrote|writes|claims|claimed|thinks|thought|"
    r"reckons|mentioned|suggested|suggests|recommended|recommends)\b"
    r"|\b(?:he|she|they|it|you)(?:'s| is| are|'re)?\s+(?:prefers?|likes?|loves?|hates?|always"
    r"|never)\b",
    re.I,
)
# An instruction the assistant gave the person ("you should always ...") or a rule
# about code ("never call this twice") said while explaining: the rule must be addressed
# to the assistant, so a bare imperative needs a second-person or request cue.
_FOR_ME = re.compile(
    r"\b(?:when(?:ever)? i (?:ask|request|want|need|send|mention|talk)|"
    r"(?:in|with|for|to) me\b|my\b|reply|respond|answer|explain|give me|show me|tell me|"
    r"send me|call me|remind me|format|use|include|provide|write|keep|add|mention|"
    r"ask me|suggest|recommend|when(?:ever)? you\b|"
    r"in (?:british|american|english|french|german|spanish))",
    re.I,
)
# Where a statement runs into a request: ", so can you ...?", " - could you ...?".
_ASK_TAIL = re.compile(
    r"(?:[,;:]|\s-+)\s+(?:so |and |but )?(?:can|could|would|will|do|what|how|any|is there|"
    r"are there|should)\b[^,;]*\?$",
    re.I,
)
# A liking of "this" or "that" says nothing once the chat is gone.
_VAGUE_OBJECT = re.compile(
    r"\s+(?:(?:it|this|that|these|those)\b(?!\s+\w+\s+(?:over|instead|rather)\b)"
    r"|(?:your|the way you|how you|when|the following|following|the same|this code|"
    r"the code|my code|the above)\b)",
    re.I,
)
# Text after the last sentence mark that has no letters in it (a counter, an emoticon).
_TRAILER = re.compile(r"(?<=[.!?])\s+[^A-Za-z]*$")
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_SENTENCE = re.compile(
    rf"(?<=[.!?]){NOT_AN_END}\s+(?=[\"'(\[]?[A-Z0-9])|\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)"
)
_QUOTED = re.compile(r"\"[^\"]{3,}\"|“[^”]{3,}”|(?<!\w)'[^']{12,}'(?!\w)")
_CONTRAST = re.compile(r",? not\b|\binstead\b|\brather than\b|\bnow\b", re.I)
# Hedged or unsure: not a statement the person stands by.
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|probably|possibly|might|not sure|unsure|don't know|no idea|wonder)\b",
    re.I,
)
_FILLER = re.compile(
    rf"^{OPENER}(?:actually|correction|update|hey|hi|hello|well|anyway|um+|uh+)?[,:]?\s*", re.I
)
_TRIGGER = re.compile(
    r"\b(?:always|never|don't|do not|from now on|going forward|future|prefer|like|love|enjoy|"
    r"hate|dislike|can't stand|cannot stand|rather|favou?rite|preferred|fan of|into|prioriti|"
    r"vegetarian|vegan|pescatarian|allergic|intolerant|diabetic|celiac|coeliac|live|grew up|born|"
    r"based|"
    r"from|work|worked|employed|name|birthday|wife|husband|partner|son|daughter|kids?|children|"
    r"decided|agreed|settled|going with|sticking with|go with|chose|chosen|picked|opted|committed|"
    r"use|using|run|running|code|write|rely|plan|aim|intend|scheduled|deadline|due|launch"
    r"|release|milestone|switched|moved|relocated|migrated|"
    r"changed|replaced|no longer|anymore|preference|make sure|remember to|as an?|go-to|dog|cat|"
    r"team|have|pet|company|mainly|mostly|i'm an?|i am an?|actually|correction|update|let['’]s"
    r"|will|shall|rules?|decision|call|verdict|it is|when you|whenever you|planned|set for"
    r"|booked|slated|pencil|moves|pushed|postponed|delayed|rescheduled|bumped|shifted|appointment"
    r"|signed up|registered|enrolled|entered"
    r"|slipped|slips|slid|wants?|needs?|expects?|requires?|asked for|promised|vacation|holiday"
    r"|leave|sabbatical|ok(?:ay)?|alright|fine|deal|sounds good|perfect|over|in charge"
    r"|responsible|owner|own|approved|signed off on|green-?lit|vetoed|starts?|begins?|kicks? off"
    r"|goes live"
    r"|interview|meeting|flight|exam|dropping|ditching|abandoning|phasing|getting rid|moving"
    r"|switching|migrating|finished|completed?|ready|shipped|delivered|submitted|deployed"
    r"|getting married|getting engaged|having|holding|hosting|throwing|flying|leaving|arriving"
    r"|visiting|presenting|launching|shipping|releasing|starting|changing|renaming|renamed"
    r"|extended|best|manager|boss|supervisor|team lead|keep|make|diagnosed|put me|started me"
    r"|increased|raised|upped|reduced|lowered|cut|doubled|halved|taking|mg)"
    r"|['’]ll\b"
    rf"|\b(?:{STACK_FACET_WORDS})\s+(?:is|are)\b"
    rf"|^\W*{ACCEPT}\b",  # the same words the decision rule accepts with
    re.I,
)
# What a choice names must be a thing of its own ("Zustand", "pnpm instead of npm", "the
# cron job"), not one of the chat's ("that", "the second one", "your suggestion").
_VAGUE_CHOICE = re.compile(
    r"\s*(?:(?:it|this|that|these|those|them|one|here|there|so|what|whatever|which|such|yours"
    r"|yes|yeah|yep|no|nope|sure|true|indeed|well|oh|how|as|because"
    r"|the same|the (?:first|second|third|last|other|former|latter|above|previous)"
    r"(?:\s+(?:one|option|approach|suggestion|version|idea|plan))?|option\s+\w+"
    # "the new one", but "the old dining table" names a thing
    r"|the (?:new|old)(?:\s+(?:one|option|approach|suggestion|version|idea|plan)\b"
    r"|(?=\s*(?:[.,;!?]|$))))\b"
    r"(?!\s+(?:\w+\s+)?(?:instead|rather|over)\b)"
    r"|your\b|(?:\S+\s+){0,4}?you (?:wrote|gave|suggested|showed|provided|shared|recommended"
    r"|mentioned|proposed|sent)\b)",
    re.I,
)
# A decision whose next words are what was chosen ("going with X", "settled on X"), not
# a clause ("we agreed that it ...").
_OBJECT_NEXT = re.compile(r"(?:with|on|for|chose|chosen|picked|committed to)\s*$", re.I)
# A name, an identifier ("pnpm", "v2.3", "Python 3.11") or a contrast ("instead of").
_NAMED = re.compile(
    r"(?-i:\b[A-Z][\w.+#-]*[a-zA-Z0-9])|\b\w*\d\w*\b|\b\w+[.-]\w+\b"
    r"|\binstead of\b|\brather than\b|\bover\b|,\s+not\b",
)


TOPIC_CHARS = 160  # how much of the turn a decision settles its fact names
# A sentence that only thanks or acknowledges: no topic ("Thanks!", "Great, that worked.").
_COURTESY = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|thanks?(?: you)?|thx|great|cool|nice|perfect|awesome|got it|sure"
    r"|that (?:worked|works|fixed it|did it)|it works|sounds good)\b[\s,.!]*)+$",
    re.I,
)


def with_topic(decision: str, raised: str) -> str:
    """A short decision with what it settles: the first prose sentence of the turn
    that raised it, past a courtesy ("Thanks!", "Great, that worked."), cut to
    TOPIC_CHARS ("We'll use Zustand. (about: For state management, should I use Redux
    or Zustand?)"); the decision alone when that turn has no prose."""
    said = [s for s in sentences(raised) if not _COURTESY.match(s)]
    if not said:
        return decision
    return f"{decision} (about: {clip(said[0], TOPIC_CHARS).rstrip(':')})"


# A decision of more words than this says what it is about itself, unless it shares a
# word with the turn before ("We decided to drop the LSTM and use a temporal transformer
# instead" after "the workshop deadline got extended" settles nothing said there).
SELF_CONTAINED_WORDS = 10
_CONTENT_WORD = re.compile(r"[a-z][a-z0-9'’-]{2,}")
_FUNCTION_WORDS = frozenset(
    "the and but for with that this then than them they their there what which who when "
    "will would should could can can't don't won't not are was were been have has had "
    "use using used let's lets we'll i'll we're i'm you your our decided decide going "
    "just also okay yes sure fine good great instead".split()
)


def settles(decision: str, raised: str) -> bool:
    """Whether ``decision`` may settle what ``raised`` put to the other side: it names
    too little to stand alone, or it shares a content word with it."""
    if len(decision.split()) <= SELF_CONTAINED_WORDS:
        return True
    said = set(_CONTENT_WORD.findall(raised.lower())) - _FUNCTION_WORDS
    return any(w in said for w in _CONTENT_WORD.findall(decision.lower()))


# A change said of "it" ("We're changing it to The Drowned Orchard"): what "it" is was
# said just before.
_CHANGED_IT = re.compile(
    r"\b(?:chang|renam|switch|replac|mov)\w*\s+(?:it|that|this|them)\s+(?:to|with|for)\b", re.I
)


def with_antecedent(statement: str, text: str) -> str:
    """A correction of "it" with the sentence before it in ``text`` (the turn that said
    it), as "(about: ...)": "We're changing it to The Drowned Orchard. (about: Hannah
    thinks the title is too quiet.)"; the statement alone otherwise."""
    if _CHANGED_IT.search(statement) is None:
        return statement
    said = sentences(text)
    at = next((i for i, s in enumerate(said) if statement in s), 0)
    if at == 0:
        return statement
    return f"{statement} (about: {clip(said[at - 1], TOPIC_CHARS).rstrip(':')})"


def sentences(text: str) -> list[str]:
    """The prose sentences of ``text``: fenced code, quoted lines and lines that look
    like code or logs left out."""
    prose = _FENCE.sub("\n\n", text[:MAX_SCAN_CHARS])
    lines = [
        ln
        for ln in prose.splitlines()
        if not ln.lstrip().startswith((">", "    ", "\t", "$ ", "#!", "//", "|"))
    ]
    out = []
    for part in _SENTENCE.split("\n".join(lines)):
        s = " ".join(part.split()).strip(" -*•")
        if s:
            out.append(s)
    return out


def find_statements(text: str) -> list[Statement]:
    """The durable statements of one turn by the person it belongs to, in order."""
    if not _TRIGGER.search(text[:MAX_SCAN_CHARS]):
        return []
    found: list[Statement] = []
    seen: set[str] = set()
    for sentence in sentences(text):
        st = classify(sentence)
        if st is not None and st.text.casefold() not in seen:
            seen.add(st.text.casefold())
            found.append(st)
            if len(found) >= MAX_PER_TURN:
                break
    return found


def classify(sentence: str) -> Statement | None:
    """The statement ``sentence`` makes, or None when it is not a durable one."""
    s = _TRAILER.sub("", sentence.strip())
    if s.endswith(":"):  # introduces what follows (code, a list): says nothing alone
        return None
    if s.endswith("?"):
        # "I prefer Android phones, can you recommend some?": the statement before
        # the request stands on its own; a question alone states nothing.
        m = _ASK_TAIL.search(s)
        if m is None:
            return None
        s = s[: m.start()].rstrip(" ,;-")
    if len(s) > MAX_SENTENCE_CHARS or not _TRIGGER.search(s):
        return None
    body = _FILLER.sub("", s, count=1)
    if len(body.split()) < MIN_WORDS or _JOKE.search(body) or _HYPOTHETICAL.search(body):
        return None
    unquoted = _QUOTED.sub(" ", body)
    if _REPORTED.search(unquoted) or _HEDGE.search(unquoted):
        return None
    whole = _QUOTED.sub(" ", s)  # with its opener: "Correction: ..." is a correction
    for kind, rule in RULES:
        m = rule.search(whole)
        if m is not None:
            unquoted = whole
        else:
            m = rule.search(unquoted)
        if m is None:
            continue
        if kind == "amends":
            rest = unquoted[m.end() :]
            if not _CONTRAST.search(rest) and classify(rest) is None:
                return None
            kind = "correction"
        if kind == "imperative":
            # A bare rule is the person's instruction to the assistant only when it
            # says what to do for them; "never call this twice" explains code.
            if not _FOR_ME.search(unquoted):
                return None
            kind = "instruction"
        if kind == "choice":
            if not _chosen(unquoted, m):
                continue
            kind = "decision"
        chose = kind == "decision" and _OBJECT_NEXT.search(m.group(0)) is not None
        if chose and _VAGUE_CHOICE.match(unquoted, m.end()):
            return None  # "let's go with that", "we settled on the second one"
        if kind == "plan":
            # A plan is durable only with a date in it, and one still to come: "the
            # talk was on Tuesday" reports it.
            date = _DATE.search(unquoted)
            if date is None or told_as_past(unquoted, date.start()):
                continue
        if kind in ("preference", "tool") and _VAGUE_OBJECT.match(unquoted, m.end()):
            return None
        ran = kind == "tool" and re.search(r"\brun(?:ning)?$", m.group(0), re.I)
        if ran and _NAMED.search(unquoted, m.end()) is None:
            return None  # "I run a marathon every year": no tool run
        return Statement(_tidy(s), kind)
    return None


def _chosen(sentence: str, m: re.Match[str]) -> bool:
    """Whether the choice ``m`` found names what is chosen: "we'll use Celery", "let's
    use pnpm instead of npm"; a plural speaker's ("we'll keep the cron job") may name a
    common thing, "I'll use ..." only a name ("I'll use a towel" is no decision)."""
    if m.group("it") is not None:  # "Postgres it is": a name, not "here it is"
        it = m.group("it")
        return _VAGUE_CHOICE.fullmatch(it) is None and _NAMED.search(it) is not None
    rest = sentence[m.end() :]
    if m.group(0)[-1:].isalnum() and rest[:1].isalnum():  # "let's use" in "let's user-test"
        return False
    if _VAGUE_CHOICE.match(rest):
        return False
    head = " ".join(rest.split()[:8])
    if re.search(r"go for$", m.group(0), re.I) and _NAMED.search(head) is None:
        return False  # "let's go for a walk": an outing, not a choice among things
    if re.match(r"let['’]s|we\b", m.group(0), re.I):
        return bool(head.strip(" .!"))
    return _NAMED.search(head) is not None


# A bare "A rule:" before a rule says nothing the rule does not ("House rule:" does).
_BARE_RULE = re.compile(r"^(?:a|one)\s+rule\s*:\s*(?=\S)", re.I)


def _tidy(sentence: str) -> str:
    s = _FILLER.sub("", sentence, count=1) or sentence
    s = _BARE_RULE.sub("", s, count=1)
    s = s[0].upper() + s[1:] if s else s
    return s if s.endswith((".", "!")) else s + "."


# The occasion a standing instruction or preference is for: "... when I ask about X",
# "whenever we work on X", "if I mention X", "for questions about X".
_APPLIES = re.compile(
    r"\b(?:(?:when(?:ever)?|if|each time|every time)\s+(?:i|we|you)(?:'re|'m| am| are)?"
    r"\s+(?:\w+(?:ing)?\s+){0,2}?(?:about|on|with|for|into|to|regarding)"
    r"|for (?:any )?(?:questions?|help|problems?|anything) (?:about|on|with|regarding))"
    r"\s+(.{3,120}?)[\s.!?;,]*$",
    re.I,
)


# ... or opens it: "When I'm writing tests, remind me ...", "If I mention a deadline, ...".
_APPLIES_FIRST = re.compile(
    r"^(?:when(?:ever)?|if|each time|every time)\s+(?:i|we)(?:'re|'m| am| are)?\s+(.{3,80}?),\s",
    re.I,
)


def applies_to(text: str) -> str | None:
    """What a standing statement is for ("Always show the steps when I ask about
    strong induction proofs" -> "strong induction proofs"; "When I'm writing tests,
    ..." -> "writing tests"), or None when it holds always."""
    text = text.strip()
    m = _APPLIES.search(text) or _APPLIES_FIRST.match(text)
    return m.group(1).strip() if m else None

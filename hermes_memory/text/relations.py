"""What one sentence states of the names in it (pure): relations and claims.

Relations come from trigger phrases between two mentions, constrained by the entity
types each relation admits; coordination ("A and B use X") carries a relation to both;
first-person statements ("I moved to Berlin", "my sister Ana") are relations of the
user's own entity, SELF. Pairs no phrase relates are co-mentions, weak and never
stated.
"""

from __future__ import annotations

import re
from dataclasses import replace

from hermes_memory.text.anaphora import THINGS
from hermes_memory.text.changes import (
    after_leaving,
    beneficiary,
    facet_claims,
    migration_subject,
    moves_a_thing,
    run_on,
)
from hermes_memory.text.clauses import (
    COORD,
    RELATIVE,
    bracketed_members,
    chosen_over,
    co_mention,
    coordinate,
    listed_after,
    ranked_below,
    slashed,
)
from hermes_memory.text.clauses import between as _between
from hermes_memory.text.clauses import looks_back as _before
from hermes_memory.text.clauses import words_between as _words_between
from hermes_memory.text.gazetteer import PROGRAMMING_LANGUAGES
from hermes_memory.text.kinds import HOSTED, KIN, TOOL_CHARS
from hermes_memory.text.means import a_means_to_an_end, tool_of_the_act
from hermes_memory.text.openers import SELF, fronted_home, reports
from hermes_memory.text.openers import opens as _opens
from hermes_memory.text.reading import Claim, Mention, Relation
from hermes_memory.text.tense import considered
from hermes_memory.text.triggers import (
    BE_AT,
    BOSS,
    EMPLOYED,
    KIN_ADJECTIVES,
    KIN_OF,
    MIGRATION,
    MOVED_TO,
    NO_RELATION,
    PRONOUN_CLAUSE,
    REPLACED,
    ROLE_AT,
    STOPPED,
    admits,
    my_relative,
    our_platform,
    trigger,
)

# An ownership stated as a change of hands ("Bob now owns X", "took over X", "X is now
# owned by Bob", "the new owner of X"), unless it is shared or hedged.
TOOK_OVER = "took_over"  # a claim only; supersession.ends_holders says what it ends
_HANDOVER = re.compile(r"\bnow\b|\bnew owner\b|\b(took|takes|taken|taking) over\b")
_NOT_HANDOVER = re.compile(
    r"\b(also|too|as well|co-?owns?|might|may|could|would|will|should|if|maybe)\b"
)
_NEGATED = re.compile(r"\b(?:not|never|cannot|\w+n['’]t)\b")
_ANYMORE = re.compile(r"\bany ?more\b")
_USED_TO = re.compile(r"\bused to\b")
STOP = "stopped_using"
_UNLIKED = {"prefers": ("dislikes", False)}
_CONNECTOR = re.compile(r"^(?:(?:and|,|but|before|after|then|so)\s+)+")
# A tool's thing moved onto another tool: "(Slack) workspace to (Discord)".
_A_THING_TO = re.compile(r"[a-z-]+ (?:to|onto)")
# A tool replaced by another, said of the tool: "Kafka was replaced by Redpanda".
_REPLACED_BY = re.compile(
    r"(?:(?:was|were|is|are|has been|have been|got|will be|is being)\s+)?(?:\w+ly\s+)?"
    r"replaced (?:by|with)"
)
# What a team's name and its members stand apart by ("the data team is Priya").
_MEMBERS = frozenset({"is", "are", "includes", "include", "consists of"})
# What one item of a list is for or where, before the next ("X in production and Y").
_ITEM_MODIFIER = re.compile(r"^(?:in|on|at|for|as|during)\s+(?:[\w.-]+\s+){1,3}(?:and|or)$")
# The rest of a clause, then the subject's next verb: "pulls orders from the Shopify API
# every hour and writes them to S3".
_LATER_VERB = re.compile(r"^(?:[\w.-]+\s+){1,4}?(?:and|then)\s+(?=[a-z]+(?:s|ed)\b)")

# The user's own side: what "we" or "I" say, and what an agent notes about "the user".
_WE = re.compile(
    r"^\s*(we|i|our team|the team|the user|user|let['’]s|let us|our (?:tech )?stack)\b"
)
# "... so we're moving off X": our own move, whatever was named before it.
_WE_MOVE = re.compile(
    r"\b(?:we|let['’]s|let us)(?:['’](?:re|ve|ll|d))?(?:\s+(?:are|have|had|were|will|just"
    r"|now|finally|also|all|already|then))*\s+(?:migrat|mov|switch|port|went|replac|swap)\w*",
    re.IGNORECASE,
)
# A choice made on the user's side: "let's go with X", "we'll stick with X", "we're
# settling on X" (a use of it, for supersession).
_CHOOSES = re.compile(
    r"\b(?:go|going|went|stick|sticking) with\s+$|\b(?:adopt\w*|settl\w* on|opt\w* for"
    r"|standardi[sz]\w* on|cho(?:se|sen|ose)|picked|selected)\s+$"
)
# A clause with a new subject: a pronoun for someone named before ("Will is my brother
# and he lives in Denver"), so the user is not its subject.
_PRONOUN = r"(?:he|she|they)\b"
_THIRD_PERSON = re.compile(rf"(?:^|,\s*|\b(?:and|but|so|where|because)\s+){_PRONOUN}")
# What "my" ties to the user: who someone is to them, and where "my team" works.
_MY_RELATIONS = frozenset({"knows", "reports_to", "works_at"})
# Who "my" names before a verb of working, when it is someone, not the user's team.
_SOMEONE_OF_MINE = re.compile(rf"(?:(?:{KIN_ADJECTIVES}) )?(?:{KIN}|{BOSS})s?\b")
# "Farah suggested we cache it in Redis": the clause after is ours, not Farah's.
_OUR_SUBJECT = re.compile(r"\b(?:we|i|you)\b")
# A clause of the listener's after "I" ("I know you love it"), none of ours after it.
_YOUR_CLAUSE = re.compile(r"\byou\b(?!.*\b(?:i|we)\b)")
# Words before a sentence's first name that make it an object, not the subject ("run on
# EKS"); narrower than _AFTER_PREPOSITION, which also takes "for", "of" and "using".
_OBJECT_OF = re.compile(r"\b(?:on|onto|in|into|to|from|with|by|via|at)\s+(?:the\s+)?$", re.I)
_PRONOUN_OPENER = re.compile(rf"\W*{_PRONOUN}", re.I)
# A verb joined to a sentence that opened on the user's side: still their doing.
_OUR_CLAUSE = re.compile(r".*\b(?:and|but|then)\s+(?=[a-z]+(?:ed|s)?\b)")
# What is done with a tool, set off after what the user's side runs ("We run forty
# services on Kubernetes, deployed with ArgoCD"): the side uses it too.
_OUR_PARTICIPLE = re.compile(
    r",\s*(?:deployed|managed|built|monitored|orchestrated|scheduled|provisioned|tested)"
    r"\s+(?:with|via|using|through)"
)
# A verb after "<person> from the <X> team": the person's ("will handle", "owns").
_TEAMS_MEMBER_ACTS = re.compile(r"(?:will|is|was|has|can|now|also|\w+s)\b")
# A sentence opening on a condition or a supposition, up to its first comma.
_SUPPOSED_OPENING = re.compile(
    r"\W*(?:if|unless|suppose|supposing|imagine|what if|even if)\b", re.I
)
# A clause whose subject is the next name, set off by commas ("X, which Alice owns, ...").
_OBJECT_RELATIVE = re.compile(r"^,\s*(?:which|that|whom)$")
_ONWARD = frozenset({"to", "onto", "with", "for", "by"})  # "from X to Y", "off X onto Y"
_ONWARD_THE = re.compile(r"(?<=to)(?:\s+[a-z-]+){1,2}$")
# "a React app served by ...": the name says what kind of thing the subject is.
_KIND_OF = re.compile(
    r"(?:app|application|site|website|service|server|api|frontend|backend)\s+(?=\w+(?:ed|ing|en)\b)"
)
_A_BEFORE = re.compile(r"\ban?\s+$", re.I)
# A name after one of these is a noun's complement: a "that" clause after it is the noun's.
_AFTER_PREPOSITION = re.compile(r"\b(?:in|with|using|on|from|for|of|via)\s+$", re.I)
_CLAUSE_SUBJECT = re.compile(r",\s*(?:which|that|whom)\s+$", re.I)
# "I'm at X" is work there (triggers.BE_AT), unless said of the moment or of its premises.
_FOR_NOW = re.compile(
    r"['’]s\s+(?:office|offices|hq|headquarters|campus|building|booth|store)\b|"
    r"[\s,]+(?:right now|at the moment|today|tonight|this (?:morning|afternoon|evening)|"
    r"for (?:lunch|dinner|breakfast|coffee|a \w+))\b",
    re.I,
)
_OFFICE = re.compile(r"\s+(?:office|branch|campus|site|team|hq|headquarters)\b", re.I)
# A name read as the kind of some work ("Rust work", "Python scripts").
_KIND_OF_WORK = re.compile(r"\s+(?:work|dev|development|coding|code|scripts?|projects?|stuff)\b")
# A name said as the kind of a whole the thing before it is in ("in my Flask app").
_A_WHOLE = re.compile(r"\s+(?:app|application|project|backend|frontend|service|server|codebase)\b")
# What says a thing is one of a whole's parts, not a tool it holds ("in my backend").
_MEMBERSHIP = re.compile(r"\b(?:part|member) of\b|\bbelongs? to\b")
# A clause of its own about the sentence's subject, a thing: "... and it reads from".
_IT_AGAIN = re.compile(r"\b(?:and|but|so|because)\s+it\s+(?=[a-z])")


# What a sentence states: its relations, its claims, and names its verbs retype.
SentenceReading = tuple[list[Relation], list[Claim], dict[str, str]]


# Whom one works under: "starting on the SRE team under Dana Whitfield", "I work
# directly under Priya" (not "under pressure": a person's name must follow).
_UNDER = re.compile(
    r"\b(?:team|group|lab|squad|department|work(?:s|ed|ing)?|report(?:s|ed|ing)?|directly"
    r"|serv(?:e|es|ed|ing))\s+under\s+$",
    re.I,
)
# Who a person set off before a component's name is to it: "Oskar, the route-planner
# owner", "Mei, the checkout-api lead".
_ROLE_AFTER = re.compile(
    r"\s+(owner|maintainer|lead|tech lead|engineer|developer|designer|pm)\b", re.I
)
# What says who someone is to the user: "Will is my brother", "Priya will be my manager".
_IS = re.compile(r"is|was|will be|['’]ll be|is now|became|has become|is going to be")
# Who someone is at a body, said before its name: "My contact at Harbor is Marcus Bell".
_CONTACT_AT = re.compile(
    r"\b(?:contact|point of contact|rep|representative|counterpart|liaison|recruiter|"
    r"account manager|person|manager|lead|engineer|designer|pm|accountant|lawyer|attorney|"
    r"solicitor|advisor|adviser|agent|broker|banker|doctor|dentist|therapist)\s+(?:at|from)\s+$",
    re.I,
)


def sentence_relations(
    sentence: str, mentions: list[Mention], *, resolved: bool = False
) -> SentenceReading:
    """The relations and claims among ``mentions`` (the user's own among them), and the
    names a relation retyped (a guessed person that a service uses is a tool).
    ``resolved``: the sentence's opening pronoun is among the mentions, as the name it
    stands for."""
    rels: list[Relation] = []
    claims: list[Claim] = []
    retyped: dict[str, str] = {}
    ms = sorted(mentions, key=lambda m: m.start)
    others = [m for m in ms if m.name != SELF]
    reported = reports(sentence)
    # "He works at X and lives in Y": someone unnamed is the subject of both verbs.
    unnamed = not resolved and _PRONOUN_OPENER.match(sentence) is not None
    if (
        ms
        and ms[0].name == SELF
        and _opens(sentence, ms[0])
        and not reported
        and not _my(sentence, ms[0])
    ):
        subject: Mention | None = ms[0]  # "I moved to Berlin and work at Spotify"
    else:
        # not the object of a preposition ("The API pods run on EKS and pull from ECR")
        subject = (
            others[0]
            if others
            and others[0].start < 40
            and not _before(_OBJECT_OF, sentence, others[0].start, 16)
            else None
        )
    # The sentence opens on the user's side ("We ...", "The user ..."), unless those
    # words begin a name ("The user service ...", "The team service ...").
    opener = _WE.match(sentence.lower())
    ours = opener is not None and not any(m.start < opener.end() for m in others)

    def add(head: Mention | None, rel: str, tail: Mention, stated: bool = True) -> None:
        if head is not None and head.name == tail.name:
            return  # "the Elastic Beanstalk environment ... the Elastic Beanstalk console"
        at = tail.start if head is None else max(head.start, tail.start)
        if rel != "knows" and considered(sentence, at):
            return  # "I'm thinking of moving to Berlin": no move yet (a sister is one still)
        claim = Claim(head.name if head and head.name != SELF else None, rel, tail.name)
        if claim not in claims:
            claims.append(claim)
        if head is not None and admits(rel, head, tail):
            r = Relation(head.name, rel, tail.name, stated)
            if r not in rels:
                rels.append(r)

    chosen = chosen_over(sentence, ms)
    home = fronted_home(sentence, ms)
    if home is not None:
        add(*home)
    for k, m in enumerate(ms):
        if m.type == "person" and m.name != SELF and _before(_UNDER, sentence, m.start, 40):
            people = [p for p in ms[:k] if p.type == "person"]
            if people:  # whoever the sentence said works there
                add(people[-1], "reports_to", m)
    skip: set[tuple[str | None, str]] = set()
    # "X, which Alice owns, uses Y": the index of the clause's subject -> the noun the
    # clause is about and where the clause closes.
    nested: dict[int, tuple[Mention, int]] = {}
    for group, members, close in bracketed_members(sentence, ms):
        for m in members:
            add(m, "part_of", group)
        nested[ms.index(members[-1])] = (group, close)  # "(Ines and Paulo) owns X": the team
    for k, tail in enumerate(ms):
        # "moved from Oracle/Sun to Stripe": names across a slash stand in one place
        opens, last = slashed(sentence, ms, k)
        prefix = sentence[: ms[opens].start].lower()
        if (stopped := STOPPED.search(prefix[-80:])) is not None and tail.name != SELF:
            # Whoever stopped, named before the verb: "Priya stopped using Vim" ends
            # Priya's use, not ours ("... Vim and Emacs": not Vim's use of Emacs).
            verb_at = len(prefix) - len(prefix[-80:]) + stopped.start()
            before = [
                m
                for m in ms[:opens]
                if m.type in ("project", "tech", "person", "org") and m.end <= verb_at
            ]
            stopper = None if ours or not before else before[-1]
            add(stopper, STOP, tail)
            if tail.type in ("tech", "org"):  # "stopped using Slack, Zoom and Teams"
                for item in listed_after(sentence, ms, tail):
                    add(stopper, STOP, item)
            continue
        if MIGRATION.search(prefix) or REPLACED.search(prefix):
            # "OCR needs X, so we're moving off Expo": the clause's own subject is ours
            ours_move = _WE_MOVE.search(sentence, ms[opens - 1].end if opens else 0, tail.start)
            src = None if ours_move else migration_subject(ms[:opens])
            src = src or beneficiary(sentence, ms[last + 1 :])
            nxt = ms[last + 1] if last + 1 < len(ms) else None
            move = MIGRATION.search(prefix)
            if (src is not None and src.type in ("project", "tech")) or (
                move is not None and moves_a_thing(move.group(0))
            ):
                # "move the backend from Firebase to Supabase", "let's move the notebooks
                # from Colab": what a thing is moved off and onto is what it runs on,
                # not a person or a place
                ours_thing = src is not None and src.type in ("project", "tech")
                tail = run_on(tail, retyped, places=ours_thing)
                if nxt is not None and _between(sentence, ms[last], nxt) == "to":
                    nxt = run_on(nxt, retyped, places=ours_thing)
            onward = nxt is not None and _between(sentence, ms[last], nxt) == "to"
            if (
                onward and nxt is not None and nxt.type in ("tech", "org") and move is not None
                and move.group(1).lower().startswith(("switch", "migrat", "port"))
            ):  # fmt: skip
                # one switches tools, not homes: "I've switched from Scrivener to Ulysses"
                tail = run_on(tail, retyped, places=False)
            person = src is not None and src.type == "person"
            if (
                person and nxt is not None and tail.type == "org" and nxt.type == "org"
                and not _we(sentence, src)
            ):  # fmt: skip
                add(src, "works_at", nxt)  # not "We moved from Heroku to Fly.io": providers
                continue
            if person and onward and nxt is not None:
                # "I moved from Toronto to Vancouver", "switched from VS Code to Zed"
                if tail.type in ("tech", "org") and nxt.guessed:
                    nxt = replace(nxt, type="tech", guessed=False)
                    retyped[nxt.name] = "tech"
                if tail.type == nxt.type:
                    if tail.type != "place":
                        add(src, "migrated_from", tail)  # a claim: it ends the old use
                    add(src, "lives_in" if tail.type == "place" else "uses", nxt)
                    skip.add((tail.name, nxt.name))
                    continue
            if tail.type == "place" or (nxt is None and src and src.type == "person"):
                continue
            add(src, "migrated_from", tail)
            # "off Expo to a bare React Native project": words of the new one's kind between
            onto = (
                nxt is not None
                and _ONWARD_THE.sub("", _between(sentence, ms[last], nxt)) in _ONWARD
            )
            if nxt is not None and onto:
                if tail.type in ("tech", "org") and nxt.guessed:  # "from Airflow to Dagster"
                    nxt = replace(nxt, type="tech", guessed=False)
                    retyped[nxt.name] = "tech"
                add(src, "migrated_to", nxt)
                skip.add((tail.name, nxt.name))
            continue
    done = {(c.subject, c.object) for c in claims} | skip
    # "If I met Michael, I'd ask ...": what the opening condition supposes holds nowhere.
    supposed_end = -1
    if _SUPPOSED_OPENING.match(sentence):
        comma = sentence.find(",")
        supposed_end = comma if comma >= 0 else len(sentence)
    for k in range(1, len(ms)):
        head, tail = ms[k - 1], ms[k]
        if (head.name, tail.name) in done or tail.end <= supposed_end:
            continue
        between = _between(sentence, head, tail)
        if k - 1 in nested:  # the clause has closed: its noun is the one acting
            head, close = nested[k - 1]
            between = _words_between(sentence, close + 1, tail.start)
        elif _OBJECT_RELATIVE.match(between):
            stop = ms[k + 1].start if k + 1 < len(ms) else len(sentence)
            close = sentence.find(",", tail.end, stop)
            if close < 0 and k + 1 == len(ms):  # "... the model-gateway, which Fatima maintains."
                close = len(sentence.rstrip(" .!;"))
            if close > 0:
                verb = trigger(_words_between(sentence, tail.end, close), tail, head)
                if verb is not None:  # "the billing-service, which Alice owns,"
                    name, reverse = verb
                    add(*((head, name, tail) if reverse else (tail, name, head)))
                nested[k] = (head, close)
            continue
        elif "," in between and _before(_CLAUSE_SUBJECT, sentence, head.start, 24):
            continue  # "the dashboard, which Priya maintains, runs on X": the dashboard does
        if (
            head.type == "org" and tail.type == "person" and between in ("is", "was")
            and _before(_CONTACT_AT, sentence, head.start, 40)
        ):  # fmt: skip
            add(tail, "works_at", head)  # "My contact at Harbor is Marcus Bell"
            continue
        if head.type == "person" and tail.type in ("project", "tech") and between == ",":
            role = _ROLE_AFTER.match(sentence, tail.end)
            if role is not None:  # "Oskar Lindqvist, the route-planner owner"
                add(head, "owns" if role.group(1).lower() == "owner" else "works_on", tail)
                continue
        if head.type == "person" and tail.name == SELF and _IS.fullmatch(between):
            kind = my_relative(sentence, tail)
            if kind is not None:  # "Will is my older brother"
                add(tail, kind, head)
                continue
        if head.type in ("tech", "org") and _REPLACED_BY.fullmatch(between):
            # "Kafka was replaced by Redpanda": our move off the one and onto the other
            new = run_on(tail, retyped, places=False)
            if new.type in ("tech", "org"):
                add(None, "migrated_from", head)
                add(None, "migrated_to", new)
                continue
        replaced_by = between in ("in favour of", "in favor of") or (
            between == "for" and _before(STOPPED, sentence, head.start, 80)
        )
        if replaced_by and (ours or subject is not None):
            # "We dropped Jenkins in favour of (for) GitHub Actions": the subject's new choice
            add(None if ours else subject, "uses", tail)
            continue
        if (
            head.type in ("tech", "org") and tail.type in ("tech", "org")
            and _A_THING_TO.fullmatch(between) and _before(MOVED_TO, sentence, head.start, 80)
        ):  # fmt: skip
            # "We moved our Slack workspace to Discord": off one tool, onto the other
            for rel_, tool in (("migrated_from", head), ("migrated_to", tail)):
                add(None if ours else subject, rel_, tool)
            continue
        if NO_RELATION.search(between) or len(between.split()) > 7:
            continue
        if head.type != "person" and PRONOUN_CLAUSE.search(between):
            continue
        if ours and not _is_self(subject) and _OUR_PARTICIPLE.fullmatch(between):
            add(None, "uses", tail)
            continue
        if COORD.match(between or ","):
            if "and" in between and _with_self(head, tail):  # "Georgia and I"
                me_, other = (head, tail) if head.name == SELF else (tail, head)
                add(me_, "knows", other, stated=False)
            continue
        if head.name in PROGRAMMING_LANGUAGES and _KIND_OF_WORK.match(sentence, head.end):
            continue  # "my Python project using mypy": the project uses it, not the language
        if tool_of_the_act(sentence, between, head):  # "connect to my X using Mongoose"
            if ours or _is_self(subject):
                add(next((m for m in ms[:k] if _is_self(m)), None), "uses", tail)
            continue
        if a_means_to_an_end(between, head):  # "Docker to deploy my Flask app"
            continue
        relative = RELATIVE.match(between)
        pronoun = _THIRD_PERSON.search(between)
        ours_again = ours and not _is_self(subject) and not reported and _OUR_CLAUSE.search(between)
        if head.name != SELF and _OUR_SUBJECT.search(between):
            continue  # "Farah suggested we cache it in Redis": ours, not Farah's
        if head.name == SELF and _YOUR_CLAUSE.search(between):
            continue  # "I can see why you enjoy spending time": the listener's, not ours
        if pronoun:  # "... and he lives in Denver": whoever was named before
            named = [m for m in ms[:k] if m.type == "person" and m.name != SELF]
            if not named:
                continue
            head, between = named[-1], between[pronoun.end() :].strip()
        elif relative:  # "auth-service, which uses Postgres": the clause is about its noun
            inside = _before(_AFTER_PREPOSITION, sentence, head.start, 12)
            if inside and not between.startswith(","):
                continue  # "a component in React that fetches ...": the component's clause
            between = between[relative.end() :]
        elif ours_again:  # "We dropped X and moved to Y": our move, not X's
            verb = trigger(between[ours_again.end() :], None, tail)
            if verb is not None and verb[0] == "lives_in":
                landed = after_leaving(sentence, ms[:k], tail, retyped)
                if landed is not None:  # "We dropped Heroku and moved to Render": no home
                    verb = ("uses", False) if landed.type == "tech" else None
                    tail = landed
            if verb is not None:
                add(None, verb[0], tail)
            continue
        elif unnamed and _CONNECTOR.match(between):
            continue
        elif (
            subject is None
            and _CONNECTOR.match(between)
            and _before(_OBJECT_OF, sentence, head.start, 16)
        ):
            continue  # "The pods run on EKS and pull from ECR": the pods pull, not EKS
        elif subject is not None and subject is not head:
            joined = _CONNECTOR.match(between) or _LATER_VERB.match(between)
            kind_of = _KIND_OF.match(between)
            again = _IT_AGAIN.search(between) if subject.type in THINGS else None
            if joined and joined.end() < len(between):
                head = subject  # "reads from S3 and writes to Snowflake": same subject
                between = between[joined.end() :]
            elif again is not None:
                # "The api is a FastAPI app and it reads from Kafka": the api reads
                head, between = subject, between[again.end() :].strip()
            elif kind_of and _before(_A_BEFORE, sentence, head.start, 6):
                # "The frontend is a React app served by Nginx": the frontend is served
                head, between = subject, between[kind_of.end() :]
            elif (
                subject.type == "person"
                and _team(head)
                and _between(sentence, subject, head) == "from"
                and _TEAMS_MEMBER_ACTS.match(between)
            ):
                head = subject  # "Ravi from the data team will handle ...": Ravi will
        if between == "by" and head.guessed and tail.type == "person":
            retyped[head.name] = "concept"  # "Dune by Frank Herbert": a work and its author
            continue
        if head.name != SELF and _ITEM_MODIFIER.match(between):
            continue  # "Postgres in production and Redis": a list's next item, no object
        if between in _MEMBERS and _team(head):
            between = "team " + between  # "the data team is Priya": its members
        rel = trigger(between, head, tail)
        if (
            rel == ("uses", True)
            and between == "for"
            and (_KIND_OF_WORK.match(sentence, tail.end) or tail.name in PROGRAMMING_LANGUAGES)
        ):
            # "Zed for Rust work": the work uses it, not the language; "the AWS SDK for
            # Python": written for the language, not used by it
            continue
        inside = between == "in" or between.endswith(" in")
        if rel == ("uses", False) and inside and _A_WHOLE.match(sentence, tail.end):
            continue  # "the spaCy model in my Flask app": the app holds it, Flask uses nothing
        if between.startswith(("'s", "’s")) and (rel is None or rel[0] != "reports_to"):
            if KIN_OF.fullmatch(between):
                add(head, "knows", tail)  # "Kenji's daughter Emi"
            continue  # "Kofi's team maintains X": the team does, not Kofi
        mine = _my(sentence, head) and rel is not None and rel[0] == "works_at"
        if mine and _SOMEONE_OF_MINE.match(between):
            continue  # "My sister works at Pfizer": she does; "my team works at" is ours
        if _my(sentence, head) and (rel is None or rel[0] not in _MY_RELATIONS):
            continue  # "My mom lives in Tampa": she does; "my" only ties her to the user
        if rel is None and tail.guessed and head.type in ("project", "tech"):
            # "the docs site is built with Docusaurus": an unknown name a service is
            # built with is a tool, not a person
            tool = replace(tail, type="tech", guessed=False)
            rel = trigger(between, head, tool)
            if rel is not None:
                retyped[tail.name] = "tech"
                tail = tool
        if rel is not None and rel[0] == "lives_in" and _OFFICE.match(sentence, tail.end):
            continue  # "Helga from the Oslo office": where her office is, not her home
        if BE_AT.fullmatch(between) and _FOR_NOW.match(sentence, tail.end):
            continue  # "I'm at Starbucks right now", "at Stripe's office": not whom for
        if rel is None and _hosted(sentence, between, head, tail):
            rel = ("uses", False)  # "We host the marketing site on Netlify"
        if (
            rel is None
            and tail.type == "tech"
            and head.type == "person"
            and (
                re.search(EMPLOYED, between)
                or re.search(ROLE_AT, between)
                or (head.name != SELF and sentence[head.end : tail.start] == " from ")
            )
        ):
            # "I work at Datadog", "she joined GitHub", "I'm an engineer at Booking.com",
            # "Lena from Datadog" (not "Elena from the Rust meetup"):
            # a company named by its product or its address
            retyped[tail.name] = "org"
            tail = replace(tail, type="org")
            rel = ("works_at", False)
        if (
            rel is None
            and subject is not None
            and subject.type == "person"
            and _team(head)
            and tail.type == "org"
            and between in ("at", "with")
        ):
            head, rel = subject, ("works_at", False)  # "I joined the data team at Acme"
        if (
            rel == ("part_of", False)
            and head.type == "tech"
            and tail.type == "project"
            and not _MEMBERSHIP.search(between)
        ):
            rel = ("uses", True)  # "JWT authentication in my backend": the backend uses it
        stated = rel is not None
        listed = between.endswith((" and", " or", ","))  # "Linear for tickets and Notion"
        untyped = rel is None and bool(between) and not listed and head.type != "person"
        if untyped and tail.type in ("org", "tech"):
            rel = ("related_to", False)
        moved = between in ("to", "onto") and head.type != "person"
        if moved and rel == ("uses", False) and _before(MOVED_TO, sentence, head.start, 80):
            rel = ("migrated_to", False)  # "is moving the risk-engine to Kotlin"
        if rel is not None and rel[0] == "lives_in" and head.type == "person":
            landed = after_leaving(sentence, ms[:k], tail, retyped)
            if landed is not None:  # "I quit Twitter and moved to Mastodon": no home
                if landed.type == "tech":
                    add(head, "uses", landed)
                continue
        if rel is not None:
            name, reverse = rel
            a, b = (tail, head) if reverse else (head, tail)
            a, b = chosen.get(a.name, a), chosen.get(b.name, b)  # "X over Y for Z": Z uses X
            add(a, name, b, stated)
            lead = sentence[: tail.start].lower()[-80:]
            if name == "owns" and _HANDOVER.search(lead) and not _NOT_HANDOVER.search(lead):
                add(a, TOOK_OVER, b)  # a claim only: the new holder ends the others'
    if others and ours and not any(c.object == others[0].name for c in claims):
        first = others[0]  # "We use X": a claim of the speaker's side, for supersession
        lead = sentence[: first.start].lower()
        verb = ("uses", False) if _CHOOSES.search(lead[-40:]) else trigger(lead, None, first)
        if verb is None and first.type == "tech" and our_platform(lead):
            verb = ("uses", False)  # "We're on Postgres 15": what we run
        if verb is not None and _NEGATED.search(lead[-40:]):  # "we don't use Kafka" uses none
            over = verb[0] == "uses" and _ANYMORE.search(sentence, first.end)  # ends it
            verb = (STOP, False) if over else _UNLIKED.get(verb[0])  # "I don't like X"
        if verb is not None and _USED_TO.search(lead[-40:]):
            # "We used to use Jenkins" ends its use; "I used to live in Madrid" is no home
            verb = (STOP, False) if verb[0] == "uses" else None
        if verb is not None and verb[0] in ("uses", "prefers", "dislikes", "lives_in", STOP):
            for m in (first, *listed_after(sentence, others, first)):
                add(None, verb[0], m)  # "We use Prometheus and Grafana"
    ranked_below(sentence, ms, claims)
    coordinate(sentence, ms, rels)
    co_mention([replace(m, type=retyped.get(m.name, m.type)) for m in others], rels)
    said = [(r.head, r.type, r.tail) for r in rels if r.stated]
    claims.extend(Claim(*c) for c in facet_claims(sentence, ms, said) if Claim(*c) not in claims)
    for r in rels:
        claim = claim_of(r)
        if claim not in claims:
            claims.append(claim)
    return rels, claims, retyped


def claim_of(r: Relation) -> Claim:
    """The claim a relation states, the speaker's side (the user) as subject None."""
    return Claim(None if r.head == SELF else r.head, r.type, r.tail)


def _team(m: Mention) -> bool:
    """Whether ``m`` was said as a team ("the data team", read as project "data")."""
    return m.surface.lower().endswith(" team")


def _hosted(sentence: str, between: str, head: Mention, tail: Mention) -> bool:
    """Whether a service is said to be put on a platform ("host X on Y")."""
    if between not in ("on", "to") or head.type != "project" or tail.type != "tech":
        return False
    return HOSTED.search(sentence[: tail.start].lower()[-TOOL_CHARS:]) is not None


def _my(sentence: str, m: Mention) -> bool:
    """Whether ``m`` is the user said as "my" ("my sister Ana"), not as "I"."""
    return m.name == SELF and sentence[m.start : m.start + 2].lower() == "my"


def _we(sentence: str, m: Mention | None) -> bool:
    """Whether ``m`` is the user said as "we" (a team's move), not as "I"."""
    return m is not None and m.name == SELF and sentence[m.start : m.end].lower() == "we"


def _is_self(m: Mention | None) -> bool:
    return m is not None and m.name == SELF


def _with_self(a: Mention, b: Mention) -> bool:
    """Whether one of two mentions is the user and the other a person."""
    return {a.type, b.type} == {"person"} and SELF in (a.name, b.name) and a.name != b.name

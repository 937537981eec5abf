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
from hermes_memory.text.changes import STACK_FACET_WORDS
from hermes_memory.text.excerpt import clip
from hermes_memory.text.schedules import EVENT, WANTED_OCCASION, WANTS
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


_I = r"(?:i|we)"
_OPENER = (
    r"(?:(?:oh|ok(?:ay)?|so|and|also|btw|by the way|just so you know|fyi|note|please|pls"
    # a lead-in to what is laid down: "Yes, but first a rule: ...", "One more thing, ..."
    r"|yes|yeah|yep|but|first|one more thing)[,:]?\s+)*"
)

# Someone named, as a clause's subject: a capitalised word, not a pronoun or "This".
_SOMEONE = r"(?-i:\b(?!(?:This|That|It|He|She|There|Here|Who|What|Which)\b)[A-Z][a-z]+)"

# What accepts a proposal, opening a turn: "OK, ...", "Fine: ...".
_ACCEPT = r"(?:ok(?:ay)?|alright|all right|right|fine|agreed|deal|sounds good|perfect)"
# What "OK, we'll ..." or "Fine, let's ..." may go on to that decides nothing yet.
_UNDECIDED = (
    r"(?:see|talk|think|check|need|try|give|get|look|figure|discuss|revisit|circle|come|keep"
    r" (?:an eye|in mind)|do|go|start|wait|continue|move|take|have|chat|sync|catch|find|work"
    r"|deal|tackle|handle|fix|debug|pick this|pause|stop|leave|tell|ask|let|be)\b"
)

# Each rule is (kind, pattern); the first that matches a sentence decides its kind.
_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "correction",
        re.compile(
            # done or under way: "we switched from X to Y", "we're replacing X with Y"
            rf"\b{_I}(?:'ve| have|'re| are|'m| am)?\s+(?:switched|moved|migrated|changed"
            rf"|switching|moving|migrating)\s+(?:\S+\s+){{0,3}}?from\s+\S.*\bto\b"
            rf"|\b{_I}(?:'ve| have|'re| are|'m| am)?\s+(?:replaced|replacing)\s+\S.*\bwith\b"
            rf"|\b{_I}(?:'m| am|'re| are)?\s+no longer\b"
            # under way without a "from": "we're switching the queue to SQS", "we're
            # moving off Expo to ...", "we're dropping Heroku" (a name, not "the ball")
            rf"|\b{_I}(?:'re| are)\s+(?:switching|moving|migrating|changing|renaming)\s+"
            r"(?:\S+\s+){0,3}?to\s+(?-i:[A-Z])"
            rf"|\b{_I}(?:'re| are|'ve| have)?\s+(?:moving off|moving away from|dropping|ditching"
            r"|abandoning|phasing out|getting rid of)\s+(?:the\s+)?(?-i:[A-Z])"
            rf"|\b{_I}\s+(?:don't|do not)\s+\w+\s+\S.*\banymore\b"
            # a dose changed: "she increased my metformin to 1000 mg twice a day"
            r"|\b(?:increased|raised|upped|reduced|lowered|cut|changed|doubled|halved)\s+my\s+"
            r"[\w-]+(?:\s+(?:dose|dosage))?\s+(?:from\s+\S+(?:\s+\S+)?\s+)?to\s+\d[\d,.]*\s?(?:mg|mcg|ml"
            r"|units|iu|tablets?|pills?|puffs?)\b",
            re.I,
        ),
    ),
    (
        # "Actually, ..." corrects something only when what follows states something
        # (another rule) or sets one thing against another ("Frankfurt, not Paris").
        "amends",
        re.compile(
            rf"^{_OPENER}(?:actually|correction|scratch that|to correct (?:myself|that)"
            r"|update)[,:]?\s+(?!never mind|nevermind|no worries|forget it)",
            re.I,
        ),
    ),
    (
        "imperative",
        re.compile(
            rf"^{_OPENER}(?:always|never|don't ever|do not ever|don't|do not|make sure (?:to"
            rf"|you)|remember to)\s+"
            # (not cheer: "don't get discouraged", "never give up")
            r"(?!mind\b|worry\b|know\b|think\b|forget\b|get\b|give up\b)[a-z]+",
            re.I,
        ),
    ),
    (
        "instruction",
        re.compile(
            r"\bfrom now on\b|\bgoing forward\b|\bin (?:the )?future\b,"
            r"|\b(?:i want|i'd like|i would like|i need) you to (?:always|never)\b"
            r"|\bwhen(?:ever)? (?:i )?(?:ask|asking|request|requesting|want"
            r"|send)\b.*\b(?:always|please|use|give|include|answer|reply|show|want)\b"
            r"|\bi (?:always|never) want\b"
            # a rule laid down: "One rule for all code you write for me: ...", "House
            # rule: ..." (not "the rule in this codebase is ...": no colon)
            rf"|^{_OPENER}(?:(?:one|a|my|our|the)\s+)?(?:(?:standing|house|hard|golden|general"
            r"|simple|strict|firm)\s+)?rules?\b[^:.!?]{0,60}:\s*(?=\S)"
            # the shape of every answer: "Keep answers short", "make your replies
            # concise" (plural: "keep the answer short" is about this one)
            rf"|^{_OPENER}(?:always\s+)?(?:keep|make)\s+(?:(?:your|the|all|my)\s+)?(?:answers"
            r"|replies|responses|explanations|summaries|messages|emails|comments"
            r"|commit messages)\s+(?:short|shorter|brief|concise|simple|tight|focused|under"
            r"|below|within|plain|formal|casual|minimal|high-level|technical|practical|direct"
            r"|clear|in)\b"
            # "When you write SQL for me, put each clause on its own line."
            rf"|^{_OPENER}when(?:ever)? you (?:write|give|send|show|suggest|recommend|generate"
            r"|create|explain|answer|reply|review|refactor|draft|make|add|name|format|describe"
            r"|summari[sz]e)\b[^,]{0,80},\s*(?:please\s+)?(?:always\s+|never\s+)?(?:use|put|tell"
            r"|give|include|quote|add|write|keep|show|avoid|start|mention|explain|cite|prefer"
            r"|make|don't|do not|stick|follow|list|mark|format)\b",
            re.I,
        ),
    ),
    (
        "preference",
        re.compile(
            r"\bi (?:really |strongly |generally |usually |much |still |also |definitely )?"
            r"(?:prefer|like|love|enjoy|hate|dislike|detest|can't stand|cannot stand|"
            r"don't like|do not like|don't want|do not want|prioriti[sz]e|prioriti[sz]ed|favou?r)\b"
            r"(?!\s+(?:to know|to ask|to see if|it when you)\b)"
            r"|\bi'd rather\b|\bi would rather\b"
            r"|\bmy (?:favou?rite|preferred|go-to) \w+(?: \w+)? (?:is|are)\b"
            r"|\bi(?:'m| am) (?:a (?:big |huge )?fan of|not a fan of|into)\b"
            r"|\b(?:i've|i have) set a preference\b"
            # when or how one works best: "I write best between 5 and 8 in the morning"
            r"|\bi (?:work|write|think|focus|study|code|concentrate|learn|sleep) best\b",
            re.I,
        ),
    ),
    (
        "personal",
        re.compile(
            r"\bi(?:'m| am) (?:a |an )?(?:vegetarian|vegan|pescatarian|allergic to|intolerant to|"
            r"lactose intolerant|gluten[- ]free|diabetic|celiac|coeliac|left-handed|colou?r ?blind|"
            r"pregnant|married|divorced|single|retired)\b"
            # health: "I've been diagnosed with type 2 diabetes", "my GP put me on
            # metformin", "I'm on sertraline, 50 mg a day"
            r"|\bi(?:'ve| have|'m| am| was)? (?:just |recently |finally |also |been )*diagnosed"
            r" with\b|\b(?:put|started) me on\s+"
            r"(?!(?:the|a|an|hold|speaker|mute|notice|track|it|that|this)\b)(?-i:[a-z])"
            r"|\bi(?:'m| am) (?:now |currently |still )?(?:on|taking) [\w-]+,? \d+ ?(?:mg|mcg|ml"
            r"|units)\b"
            r"|\bi (?:live|grew up|was born|reside) in\b|\bi(?:'ve| have) (?:lived|been living)"
            r" in\b"
            # a new home by its name ("I moved to Lisbon"), not "moved to the next step"
            r"|\bi(?:'ve| have)? (?:just |recently |finally )?(?:moved|relocated) (?:back )?to "
            r"(?-i:[A-Z])"
            r"|\bi(?:'m| am) (?:originally )?from\b"
            r"|\bi(?:'m| am) (?:now |currently )?based in (?-i:[A-Z])"
            # one's own business: "I run a small bakery in Ghent", "we own a cafe"
            rf"|\b{_I} (?:run|own|co-own|manage|opened|started) (?:a|an|my|our|the) (?:\w+ ){{0,2}}"
            r"(?:bakery|business|shop|store|restaurant|caf[eé]|company|startup|firm|practice"
            r"|clinic|salon|studio|farm|agency|consultancy|bar|pub|hotel|gym|patisserie)\b"
            r"|\bi (?:work|worked) (?:at|for|as)\b|\bi(?:'m| am) (?:employed|working) (?:at|by"
            r"|as)\b"
            # who the user reports to: "Priya will be my new manager"
            rf"|{_SOMEONE}"
            r"\s+(?:is|will be|['’]ll be|is now|became|has become|is going to"
            r" be) my (?:new )?(?:manager|boss|supervisor|team lead|line manager)\b(?!['’])"
            r"|\bmy (?:new )?(?:manager|supervisor|team lead|line manager) (?:is|will be)\b"
            r"|\bmy (?:name|birthday|wife|husband|partner|fianc[eé]e?|son|daughter|kids?|children|"
            r"mom|mum|mother|dad|father|brother|sister|dog|cat|boss|team|employer|company)"
            r"(?:'s name)? (?:is|are|was|works|lives)\b"
            r"|\bi have (?:a|an|one|two|three|four|\d+) (?:kids?|children|sons?|daughters?"
            r"|dogs?|cats?|"
            r"pets?|allerg(?:y|ies))\b"
            r"|^as an? [a-z]+(?: [a-z]+)?(?: from [A-Z][\w ,]+)?,\s+i\b"
            r"|\bi(?:'m| am) an? (?:[a-z-]+ ){0,2}(?:engineer|developer|programmer|designer|"
            r"teacher|nurse|doctor|paramedic|student|manager|consultant|contractor|freelancer|"
            r"researcher|scientist|analyst|lawyer|accountant|writer|artist|musician|founder|"
            r"architect|administrator|admin|sre|cto|ceo|intern|professor|lecturer)\b",
            re.I,
        ),
    ),
    (
        "tool",
        re.compile(
            rf"^{_OPENER}{_I}(?:'m| am|'re| are)? (?:mainly |mostly |only |now |currently |still )?"
            r"(?:use|using|run|running|code in|write|work in|develop on|work with|rely"
            # how well or when one works is no tool: "I write best in the morning"
            r" on)\b(?=\s+\S)(?!\s+(?:best|better|worse|faster|slower|most|every|daily)\b)"
            # a part of the stack named as a tool: "the warehouse is Snowflake", "Our CI is
            # GitHub Actions" (not "the database is slow")
            rf"|(?:^|[,;]\s*|\band\s+){_OPENER}(?:(?:the|our|my)\s+)?(?:[a-z]+\s+)?"
            rf"(?:{STACK_FACET_WORDS})\s+(?:is|are)\s+(?:(?:now|still|currently)\s+)?(?-i:[A-Z])",
            re.I,
        ),
    ),
    (
        "decision",
        re.compile(
            rf"\b{_I}(?:'ve| have)? (?:(?:also|just|finally|all|both) )?(?:decided|agreed|settled)"
            r" (?:to|on|that)\b"
            # a proposal accepted: "OK, we'll dedupe on user id", "Fine, let's cache the
            # rates" (not "OK, we'll see", "Fine, let's take a look")
            rf"|^{_ACCEPT}[,!.:]?\s+(?:then,?\s+)?(?:we['’]ll|we will|let['’]s)\s+"
            rf"(?!{_UNDECIDED})[a-z]+"
            r"(?=\s+\S)"
            # and put as what goes where: "Fine: Jest for components, Vitest for pure logic"
            rf"|^{_ACCEPT}[,!.:]?\s+(?!(?:thanks?|sorry|good|great|nice|cool|same|that|this"
            r"|yes|no)\b)"
            r"(?-i:[A-Z][\w.+#-]*)(?:\s+(?-i:[A-Z][\w.+#-]*))?\s+for\s+\w"
            rf"|\b{_I}(?:'re| are|'m| am) (?:going|sticking) with\b"
            rf"|\blet's (?:go|stick) with\b"
            rf"|\b{_I}(?:'ve| have)? (?:chose|chosen|picked|opted for|committed to)\b"
            # approved by whoever may: "The director approved a pilot" (not "my claim was
            # approved": what happened to the user is no decision of theirs)
            r"|\b(?:approved|signed off on|green-?lit|vetoed)\s+(?:a|an|the|our|my|his|her"
            r"|their)\s+\w"
            r"|^(?:(?:our|my|the|final)\s+)?(?:decision|decided|call|verdict)\s*:\s*(?=\S)",
            re.I,
        ),
    ),
    (
        "handover",
        re.compile(
            # a handover to a named person: "Teo will take over the design", "Lena is now
            # responsible for the data contracts", "I handed the app over to Sam" (not
            # "Panic took over and ...")
            r"(?-i:\b[A-Z][a-z]+)\s+(?:(?:will|['’]ll|is|has|['’]s|is going to)\s+)?(?:now\s+)?"
            r"(?:take|takes|taking|took|taken)\s+over\s+(?!(?:and|or|but|when|if|because|as|so"
            r"|then|while|after|before|from here)\b)[\w-]+"
            # "Hannah will own the pilot and I'll own the dashboard"
            rf"|(?:{_SOMEONE}|\bI)\s*(?:will|['’]ll|is going to|am going to|['’]m going to)\s+"
            r"own\s+(?:the|our|this|that|a|an)\s+\w"
            rf"|{_SOMEONE}"
            r"\s+(?:is|will be|['’]s)\s+(?:now\s+)?(?:in charge of"
            r"|responsible for|the (?:new )?owner of)\s+\S"
            rf"|\b{_I}(?:['’]m| am|['’]re| are|['’]ve| have)?\s*(?:hand|handing|handed)\s+"
            r"(?:\S+\s+){1,5}?(?:over|off)\s+to\s+(?-i:[A-Z])",
            re.I,
        ),
    ),
    (
        # "let's use X", "we'll go with X", "I'll use X": a choice only when what is
        # chosen is named (_chosen), not "let's go with that" or "I'll use a towel".
        "choice",
        re.compile(
            r"\blet['’]s (?:not add|(?:not )?(?:use|go with|go for|stick (?:with|to)|switch|adopt"
            r"|standardi[sz]e on|move (?!on\b|forward\b|ahead\b|along\b)(?:\S+\s+){1,3}?to)"
            # one thing dropped: "let's drop the Quooker tap", "let's scrap the banner"
            r"|drop|scrap|ditch|cancel)\b"
            r"|\b(?:we|i)(?:['’]ll| will| shall) (?:use|go with|go for|stick (?:with|to)|switch to"
            r"|adopt|standardi[sz]e on|keep (?!(?:an eye|in mind|track|up|on|at|it|that|this"
            r"|things|each|you|your|\w+ing)\b))"
            r"|^(?:(?:ok(?:ay)?|alright|all right|right|fine|sure|so|great)[,!.]?\s+)?"
            r"(?P<it>[^\s,]+(?:\s+[^\s,]+){0,3}) it is(?: then)?[.!]*$",
            re.I,
        ),
    ),
    (
        "plan",
        re.compile(
            rf"\b{_I}(?:'m| am|'re| are)? (?:plan(?:ning)?|aim(?:ing)?|intend(?:ing)?|scheduled|"
            r"going|hoping|hope|expect(?:ing)?) to\b"
            r"|\b(?:deadline|due date|launch|release|milestone)\b.*\b(?:is|was|set|moved"
            r"|scheduled|got|extended)\b"
            # wanted by a day: "The CMO wants the dashboard by October 20th"
            rf"|\b{WANTS}\b(?:\s+\S+){{1,8}}?\s+by\b"
            # an event wanted on a day: "Hannah wants a demo for the stakeholders on ..."
            rf"|{WANTED_OCCASION}"
            # work that starts on a day: "Work starts on April 13th", "the pilot begins
            # on December 1st" (the date is required below)
            r"|\b(?:starts?|begins?|kicks? off|goes live)\s+(?:on|in)\b"
            # away: "I'll be on vacation from October 1st", "Priya is going on leave"
            rf"|\b{_I}(?:['’]ll| will) be (?:on (?:vacation|holiday|(?:\w+ )?leave|pto|a trip"
            r"|a (?:business|work) trip|sabbatical)|away|off|out(?: of (?:the )?office)?"
            r"|travel+ing|offline)\b"
            r"|\b(?:is|are|am|['’]s|['’]re|['’]m)\s+(?:going|heading) on (?:vacation|holiday"
            r"|(?:\w+ )?leave|sabbatical|a trip)\b"
            r"|\b(?:scheduled|planned|set|booked|slated|pencil+ed in) for\b|\bdue (?:on|by)\b"
            # "Camera-ready is due December 1st" (the date is required below)
            r"|\b(?:is|are|['’]s)\s+due\b"
            # a commitment to an event: "I signed up for the half marathon on December 6th"
            rf"|\b{_I}(?:['’]ve| have)? (?:signed up|registered|enrolled|entered) for\b"
            # promised by a day: "Sofie will prepare the accounts by May 20th"
            r"|\b(?:will|['’]ll|is going to|are going to)\s+(?:\w+\s+)?(?:prepare|send|deliver"
            r"|finish|submit|review|complete|ship|write|file|sign|return|fix)\b(?:\s+\S+){1,6}?"
            r"\s+by\b"
            # a deadline: "has to be finished by January 15th", "must be live before ..."
            r"|\b(?:has|have|needs?|must)(?: to)? be (?:done|finished|completed?|shipped|ready"
            r"|delivered|submitted|live|merged|deployed|migrated|signed) (?:by|before|on)\b"
            # moved: "the beta moves to January 10th", "pushed back to Friday"
            r"|\b(?:(?:moves?|moved)(?!\s+(?:on|forward|ahead|along)\b)|pushed|postponed|delayed"
            r"|rescheduled|bumped|shifted|slipped|slips|slid|extended)\b(?:\s+\S+){0,2}?\s+"
            r"(?:to|until|till)\b"
            # an arrangement: "I have a dentist appointment on ...", "my flight is on ..."
            r"|\bi(?:['’]ve got| have(?: got)?| got) (?:a|an|my|the) (?:[\w'’-]+ ){0,2}"
            r"(?:appointment|interview|meeting|exam|flight|call|surgery|check-?up|session"
            r"|presentation|talk|demo)\b"
            # an arrangement in the present progressive: "Maya is getting married on June
            # 14th", "I'm flying to Berlin on May 3rd", "we're launching on Friday"
            r"|\b(?:is|are|am|['’]s|['’]re|['’]m)\s+(?:getting married|getting engaged"
            r"|having (?:a|an|my|our|the)|holding|hosting|throwing|flying|leaving for|arriving"
            r"|visiting|moving to|presenting|launching|shipping|releasing|starting (?:a|my|our"
            r"|the|on)|running (?:a|the|my))\b"
            rf"|\b(?:my|our|the) (?:[\w'’-]+ ){{0,3}}{EVENT}\b"
            r"(?:\s+\S+){0,3}?\s+(?:is|are)\s+(?:on|at|in|this|next)\b",
            re.I,
        ),
    ),
)

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
    rf"^{_OPENER}(?:actually|correction|update|hey|hi|hello|well|anyway|um+|uh+)?[,:]?\s*", re.I
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
    rf"|^\W*{_ACCEPT}\b",  # the same words the decision rule accepts with
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
    for kind, rule in _RULES:
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

"""Which kind of durable statement a sentence is (text/statements.py): a table of
(kind, pattern) rules, tried in order, the first match deciding; and the fragments the
rules share (how a turn opens, how a proposal is accepted)."""

from __future__ import annotations

import re

from hermes_memory.text.lexicon import STACK_FACET_WORDS
from hermes_memory.text.schedules import EVENT, WANTED_OCCASION, WANTS

_I = r"(?:i|we)"
OPENER = (
    r"(?:(?:oh|ok(?:ay)?|so|and|also|btw|by the way|just so you know|fyi|note|please|pls"
    # a lead-in to what is laid down: "Yes, but first a rule: ...", "One more thing, ..."
    r"|yes|yeah|yep|but|first|one more thing)[,:]?\s+)*"
)

# Someone named, as a clause's subject: a capitalised word, not a pronoun or "This".
_SOMEONE = r"(?-i:\b(?!(?:This|That|It|He|She|There|Here|Who|What|Which)\b)[A-Z][a-z]+)"

# What accepts a proposal, opening a turn: "OK, ...", "Fine: ...".
ACCEPT = r"(?:ok(?:ay)?|alright|all right|right|fine|agreed|deal|sounds good|perfect)"
# What "OK, we'll ..." or "Fine, let's ..." may go on to that decides nothing yet.
_UNDECIDED = (
    r"(?:see|talk|think|check|need|try|give|get|look|figure|discuss|revisit|circle|come|keep"
    r" (?:an eye|in mind)|do|go|start|wait|continue|move|take|have|chat|sync|catch|find|work"
    r"|deal|tackle|handle|fix|debug|pick this|pause|stop|leave|tell|ask|let|be)\b"
)

# Each rule is (kind, pattern); the first that matches a sentence decides its kind.
RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
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
            rf"^{OPENER}(?:actually|correction|scratch that|to correct (?:myself|that)"
            r"|update)[,:]?\s+(?!never mind|nevermind|no worries|forget it)",
            re.I,
        ),
    ),
    (
        "imperative",
        re.compile(
            rf"^{OPENER}(?:always|never|don't ever|do not ever|don't|do not|make sure (?:to"
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
            rf"|^{OPENER}(?:(?:one|a|my|our|the)\s+)?(?:(?:standing|house|hard|golden|general"
            r"|simple|strict|firm)\s+)?rules?\b[^:.!?]{0,60}:\s*(?=\S)"
            # the shape of every answer: "Keep answers short", "make your replies
            # concise" (plural: "keep the answer short" is about this one)
            rf"|^{OPENER}(?:always\s+)?(?:keep|make)\s+(?:(?:your|the|all|my)\s+)?(?:answers"
            r"|replies|responses|explanations|summaries|messages|emails|comments"
            r"|commit messages)\s+(?:short|shorter|brief|concise|simple|tight|focused|under"
            r"|below|within|plain|formal|casual|minimal|high-level|technical|practical|direct"
            r"|clear|in)\b"
            # "When you write SQL for me, put each clause on its own line."
            rf"|^{OPENER}when(?:ever)? you (?:write|give|send|show|suggest|recommend|generate"
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
            # a workplace left, by its name: "I resigned from Initech", "I quit my job at X"
            r"|\bi(?:'ve| have)? (?:just |recently |finally |officially )?(?:left|quit|resigned"
            r" from|stepped down from) (?:my (?:job|position|role) (?:at|with) )?(?-i:[A-Z])"
            r"|\bi (?:was|got|have been|'ve been) (?:laid off|let go|fired) (?:from|by) (?-i:[A-Z])"
            r"|\bi used to work (?:at|for)\b"
            # who the user reports to: "Priya will be my new manager"
            rf"|{_SOMEONE}"
            r"\s+(?:is|will be|['’]ll be|is now|became|has become|is going to"
            r" be|is no longer|isn['’]t|is not) my (?:new )?(?:manager|boss|supervisor|team lead"
            r"|line manager)\b(?!['’])"
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
            rf"^{OPENER}{_I}(?:'m| am|'re| are)? (?:mainly |mostly |only |now |currently |still )?"
            r"(?:use|using|run|running|code in|write|work in|develop on|work with|rely"
            # how well or when one works is no tool: "I write best in the morning"
            r" on)\b(?=\s+\S)(?!\s+(?:best|better|worse|faster|slower|most|every|daily)\b)"
            # a part of the stack named as a tool: "the warehouse is Snowflake", "Our CI is
            # GitHub Actions" (not "the database is slow")
            rf"|(?:^|[,;]\s*|\band\s+){OPENER}(?:(?:the|our|my)\s+)?(?:[a-z]+\s+)?"
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
            rf"|^{ACCEPT}[,!.:]?\s+(?:then,?\s+)?(?:we['’]ll|we will|let['’]s)\s+"
            rf"(?!{_UNDECIDED})[a-z]+"
            r"(?=\s+\S)"
            # and put as what goes where: "Fine: Jest for components, Vitest for pure logic"
            rf"|^{ACCEPT}[,!.:]?\s+(?!(?:thanks?|sorry|good|great|nice|cool|same|that|this"
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

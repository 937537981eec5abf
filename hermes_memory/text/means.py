"""A tool and the act it serves: a name followed by an infinitive of purpose ("Docker to
deploy my Flask app") is a means to that end, and a tool used to send or connect
something to a thing is the act's, not the thing's ("connect to my MongoDB database
using Mongoose"). Pure helpers of ``relations``, read over the words between two names."""

from __future__ import annotations

import re

from hermes_memory.text.clauses import looks_back
from hermes_memory.text.gazetteer import PROGRAMMING_LANGUAGES
from hermes_memory.text.lexicon import IMPERATIVES
from hermes_memory.text.reading import Mention

# An infinitive of purpose after a name ("Pillow to ensure compliance with Instagram",
# "Docker to deploy my Flask app"): the name is a means to the verb's end, which states
# no use of what follows, unless the verb is one of using or talking to something
# ("redis-py to interact with my Redis server", "a webhook to notify a Slack channel",
# "the Dockerfile to use Alpine") or of moving a thing onto it ("GitHub Actions to
# deploy to Elastic Beanstalk"; not "Docker to deploy my Flask app", nor "a Docker
# container to deploy my Detector class").
_PURPOSE = re.compile(
    r"^(?:(?:container|image|library|client|sdk|module|class|script|tool|package|plugin|cli)"
    r"\s+)?to\s+([a-z]+)\b"
)
_USES_THROUGH = frozenset(
    "use run work interact talk communicate call query connect access fetch read write "
    "publish pull send notify sync store cache persist stream ingest load".split()
)
_MOVES_ONTO = re.compile(r"^to (?:deploy|push|ship|upload|migrate|move)\b.*\b(?:to|into|on|onto)$")


def a_means_to_an_end(between: str, head: Mention) -> bool:
    """Whether ``head`` is a means to the end an infinitive after it names, so that what
    follows is no use of it ("Pillow to ensure compliance with Instagram")."""
    purpose = _PURPOSE.match(between)
    return purpose is not None and (
        head.name in PROGRAMMING_LANGUAGES  # "a script in Python to call the SNS API"
        or (
            purpose.group(1) in IMPERATIVES
            and purpose.group(1) not in _USES_THROUGH
            and not _MOVES_ONTO.match(between)
        )
    )


# A tool named after where something is sent or connected ("connect to my MongoDB
# database using Mongoose", "post it to Twitter using Tweepy") is the act's, not the
# destination's; what is added to a thing with a tool ("components to my React app using
# Redux") is the thing's.
_DESTINATION = re.compile(
    r"\b(?:connect|post|upload|send|deploy|push|migrat|copy|copie|publish|stream|sync|"
    r"dump|export|import|load)\w*\s+(?:\S+\s+){0,3}(?:to|into|onto|from)\s+"
    r"(?:(?:the|my|our|a|an|your)\s+)?$",
    re.I,
)
_VIA_TOOL = re.compile(r"(?:[a-z]+ )?using")


def tool_of_the_act(sentence: str, between: str, head: Mention) -> bool:
    """Whether the tool after ``head`` ("<head> [noun] using <tool>") serves an act that
    sends or connects something to or from ``head`` rather than ``head`` itself."""
    return _VIA_TOOL.fullmatch(between) is not None and (
        looks_back(_DESTINATION, sentence, head.start, 48)
    )

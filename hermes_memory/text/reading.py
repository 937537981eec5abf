"""What extraction reads from a text: the names in it, relations between them, and
claims (the statements supersession compares). Plain records; ``mentions`` and
``extract`` make them."""

from __future__ import annotations

from dataclasses import dataclass, field

# What a guessed reading of a name's type weighs against one read for sure, where
# readings are weighed (senses.settle_types within a text; tier2/entities.GUESS_VOTE
# is the same weight across a store's texts).
GUESS_WEIGHT = 1 / 3


@dataclass(frozen=True)
class Mention:
    name: str  # canonical
    type: str
    start: int
    end: int
    surface: str
    # typed only because nothing said otherwise (a person, mostly; an organisation
    # after a bare "for"): a relation may retype it, and it weighs less in a vote
    guessed: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class Relation:
    head: str
    type: str
    tail: str
    # False when only inferred (two people in one sentence, an untyped link): weaker
    stated: bool = field(default=True, compare=False)


@dataclass(frozen=True)
class Claim:
    """A statement for contradiction checks; ``subject`` None stands for "we"/the user."""

    subject: str | None
    predicate: str
    object: str


@dataclass
class Extraction:
    mentions: list[Mention] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    # The words that may stand for a person the user named as a relative or boss
    # ("Tomas": ("my brother",); text/relatives.py)
    roles: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def entities(self) -> dict[str, str]:
        """Canonical name -> type, first mention wins."""
        out: dict[str, str] = {}
        for m in self.mentions:
            out.setdefault(m.name, m.type)
        return out

"""Character classes for names written in Latin letters, accents included.

``[A-Z][a-z]+`` reads "Brené Brown" as "Brown" and drops "José Álvarez" whole. These
classes add the Latin-1 and Latin Extended-A/B letters ("é", "Á", "ø", "ł", "ß"), so a
name is found however its writer spells it.
"""

from __future__ import annotations

import re

_LATIN = [chr(c) for c in range(0xC0, 0x250)]
UPPER = "A-Z" + "".join(c for c in _LATIN if c.isupper())
LOWER = "a-z" + "".join(c for c in _LATIN if c.islower())
# One capitalised word ("Zoë", "Łukasz"), as a regex fragment.
CAPITALISED_WORD = f"[{UPPER}][{LOWER}]+"
# A family name with a capital inside ("McKenzie", "O'Brien", "DiCaprio", "LeBlanc"). Not
# "Mac": "MacBook" is written far more than "MacLeod"; "De", "Di", "Le" and "La" only
# before three letters, so "DeFi" stays a term.
# Its elided form ("O'Brien", "D'Angelo") is one word to the tokenizer (text/mentions.py).
ELIDED_SURNAME = f"[OD]['’][{UPPER}][{LOWER}]{{2,}}"
SURNAME_WORD = (
    f"Mc[{UPPER}][{LOWER}]{{2,}}|{ELIDED_SURNAME}|(?:De|Di|Le|La)[{UPPER}][{LOWER}]{{3,}}"
)
SURNAME = re.compile(SURNAME_WORD)
# A word that may be (part of) a name: capitalised, hyphen-joined ("Jean-Luc"), a family
# name with a capital inside, or a short all-capital acronym.
CAPITALISED = re.compile(
    f"{CAPITALISED_WORD}(-{CAPITALISED_WORD})?|{SURNAME_WORD}|[{UPPER}]{{2,5}}"
)

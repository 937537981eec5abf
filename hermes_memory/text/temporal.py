"""Time in text (pure functions).

``resolve_dates`` turns relative expressions ("yesterday", "last week", "next
Friday", "two years ago", "in 3 days", "next quarter", "in March") and explicit dates
("8 May 2023", "2024-03-01") into timestamps, against the time the text was written;
``query_window`` reads the time a question asks about, ``with_dates`` shows what a
relative date means. Which statements a new one supersedes is ``supersession``'s.
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from dateutil.relativedelta import relativedelta

from hermes_memory.text.lexicon import MONTH_ABBREVIATIONS
from hermes_memory.text.tense import RESCHEDULED, tense_at

_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "couple of": 2,
    "few": 3, "several": 3,
}  # fmt: skip
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MONTHS = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
]  # fmt: skip
_MONTH_NAMES = [m.capitalize() for m in _MONTHS]
# A month's name in a date without its year, capitalised as written ("January 15th",
# "15 Jan", "Sept. 3"): in lower case, "may" and "march" are words.
_MONTH_SHORT = "|".join(sorted((m.capitalize() for m in MONTH_ABBREVIATIONS), reverse=True))
_MONTH_WRITTEN = rf"(?-i:{'|'.join(_MONTH_NAMES)}|(?:{_MONTH_SHORT})\b\.?)"
# "last Tues", "on Fri": capitalised only ("this sun", "last wed").
_DAY_SHORT = r"Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun"
_DAY_ABBREVIATIONS = rf"(?-i:{_DAY_SHORT})\b"
_UNIT = r"(day|week|month|quarter|year)s?"
_NUM = r"(\d+|" + "|".join(sorted(_NUMBERS, key=len, reverse=True)) + ")"
_PATTERNS = [
    ("ago", re.compile(rf"\b{_NUM}\s+{_UNIT}\s+ago\b", re.I)),
    ("in", re.compile(rf"\bin\s+{_NUM}\s+{_UNIT}\b", re.I)),
    ("rel_unit", re.compile(rf"\b(last|next|this|past)\s+{_UNIT}\b", re.I)),
    (
        "rel_day",
        re.compile(
            rf"\b(last|next|this|on)\s+((?:{'|'.join(_WEEKDAYS)})\b|{_DAY_ABBREVIATIONS})", re.I
        ),
    ),
    ("word", re.compile(r"\b(yesterday|today|tonight|tomorrow|last night|this morning)\b", re.I)),
    ("iso", re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")),
    (
        "dmy",
        re.compile(
            rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({'|'.join(_MONTHS)})(?:,\s*|\s+)(\d{{4}})\b", re.I
        ),
    ),
    (
        "mdy",
        re.compile(  # "December 1, 2023", and "December 1,2023" as typed
            rf"\b({'|'.join(_MONTHS)})\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,\s*|\s+)(\d{{4}})\b", re.I
        ),
    ),
    ("my", re.compile(rf"\b({'|'.join(_MONTHS)}),?\s+(\d{{4}})\b", re.I)),
    # A day of a month with no year ("January 15th", "Jan 15", "the 3rd of December",
    # "15 January"): the nearest such day on the side the sentence's tense points to.
    ("md", re.compile(rf"\b({_MONTH_WRITTEN})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?![.,]?\d)")),
    ("dm", re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_WRITTEN})(?!\w)")),
    ("weekend", re.compile(r"\b(last|next|this|past)\s+weekend\b", re.I)),
    # "last March", "next May": the month's name capitalised ("this may take a while").
    ("rel_month", re.compile(rf"\b((?i:last|next|this))\s+({'|'.join(_MONTH_NAMES)})\b")),
    ("year", re.compile(r"\b(?:in|during|of|since)\s+((?:19|20)\d\d)\b", re.I)),
    # A month by its name alone, after a word of time ("we ship in March", "by June",
    # "until September"): the next or the last such month, by the sentence's tense.
    (
        "month_alone",
        re.compile(
            r"\b((?i:in|by|until|till|before|after|since|during|through|early|late|mid|"
            r"(?:the\s+)?(?:end|start|beginning|middle)\s+of))[\s-]+"
            rf"({'|'.join(_MONTH_NAMES)})\b(?![.,]?\s*\d)"
        ),
    ),
    # "Q3", "end of Q1", "mid-Q2 2027", "Q4 '26": a business quarter.
    (
        "quarter",
        re.compile(
            r"\b(?:(end|start|beginning|middle|mid)(?:\s+of\s+|-))?(?-i:Q)([1-4])"
            r"(?:\s+((?:19|20)\d\d)|\s*['’](\d\d))?\b",
            re.I,
        ),
    ),
]

# Every pattern above needs a four-digit year, a unit, a weekday, a month's name
# capitalised or one of the words: a text that is not ASCII and has none is skipped in
# one pass (an ASCII text is read for the words each pattern needs, below).
_ANY = re.compile(
    rf"\d{{4}}|(?-i:\bQ[1-4]\b)|\b(?:(?:day|week|month|quarter|year|{'|'.join(_WEEKDAYS)})s?"
    r"|weekend|yesterday|today|tonight|tomorrow|night|morning"
    rf"|(?-i:{'|'.join(_MONTH_NAMES)}|{_MONTH_SHORT}|{_DAY_SHORT}))\b",
    re.I,
)

_DIGITS = frozenset("0123456789")
# A number's first digit: a digit not inside a word ("3 Mar", not "S3", "k8s", "v2").
_NUMBER = frozenset({"#"})
_NUMBER_START = re.compile(r"\b[0-9]")
_UNITS = frozenset(u + s for u in ("day", "week", "month", "quarter", "year") for s in ("", "s"))
_MONTH_WORDS = frozenset(_MONTHS)
_DAY_WORDS = frozenset(_WEEKDAYS) | frozenset("mon tue tues wed thu thur thurs fri sat sun".split())
_LAST_NEXT = frozenset({"last", "next", "this", "past"})
# The words (in lower case; "0"-"9" for a digit, "#" for a number) a pattern cannot
# match without, one of each set. A pattern runs only on a text that has them, as a
# 20,000-character message scanned by every pattern took ~35 ms on a slow machine where
# one pass for the words takes ~3.
_NEEDS: dict[str, tuple[frozenset[str], ...]] = {
    "ago": (frozenset({"ago"}), _UNITS),
    "in": (frozenset({"in"}), _UNITS),
    "rel_unit": (_LAST_NEXT, _UNITS),
    "rel_day": (frozenset({"last", "next", "this", "on"}), _DAY_WORDS),
    "word": (frozenset({"yesterday", "today", "tonight", "tomorrow", "night", "morning"}),),
    "iso": (_NUMBER,),
    "dmy": (_MONTH_WORDS, _NUMBER),
    "mdy": (_MONTH_WORDS, _NUMBER),
    "my": (_MONTH_WORDS, _NUMBER),
    "md": (_MONTH_WORDS | MONTH_ABBREVIATIONS, _NUMBER),
    "dm": (_MONTH_WORDS | MONTH_ABBREVIATIONS, _NUMBER),
    "weekend": (_LAST_NEXT, frozenset({"weekend"})),
    "rel_month": (_LAST_NEXT, _MONTH_WORDS),
    "year": (frozenset({"in", "during", "of", "since"}), _NUMBER),
    "month_alone": (_MONTH_WORDS,),
    "quarter": (frozenset({"q"}), _DIGITS),
}
_WORD_OR_DIGIT = re.compile(r"[a-z]+|[0-9]")


def _runnable(text: str) -> list[tuple[str, re.Pattern[str]]]:
    """The patterns that may match ``text``. Only an ASCII text is read for their words:
    a case-blind pattern also matches a few other letters ("ſ" for "s")."""
    if not text.isascii():
        return _PATTERNS if _ANY.search(text) else []
    words = set(_WORD_OR_DIGIT.findall(text.lower()))
    if not words.isdisjoint(_DIGITS) and _NUMBER_START.search(text):
        words.add("#")
    return [(k, p) for k, p in _PATTERNS if all(not words.isdisjoint(n) for n in _NEEDS[k])]


@dataclass(frozen=True)
class DateMention:
    phrase: str
    timestamp: float  # start of the day (UTC) the phrase points to
    precision: str  # day | weekend | week | month | quarter | year
    start: int = 0  # where the phrase starts in the text
    # "on Friday" in a sentence not about the future: back one, as reports mostly mean
    guessed: bool = False


# The dates a text's timeline events come from: its first, at most this many (a text
# naming more is a log or a table, and each date is a row written in the transaction).
MAX_DATES = 64
# How far past a date a pattern is read for one starting before it: far longer than a
# date phrase is written (one padded past it with whitespace inside is not read).
_DATE_CHARS = 200


def resolve_dates(text: str, written_at: float, limit: int | None = None) -> list[DateMention]:
    """Every date expression in ``text`` (the first ``limit``), resolved against
    ``written_at``."""
    patterns = _runnable(text)
    if not patterns:
        return []
    base = datetime.fromtimestamp(written_at, tz=UTC).replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    found: list[tuple[int, DateMention]] = []
    # The characters an earlier pattern's date holds: checking a match against a list of
    # the dates taken was quadratic (a 20,000-character "today today ..." took 0.3 s).
    taken = bytearray(len(text))
    # The starts of the first ``limit`` dates found so far, negated (a max-heap): a later
    # match past them all cannot be among the first, so each pattern stops there.
    first: list[int] = []
    for kind, pattern in patterns:
        # Once ``limit`` dates are found, a pattern is read only up to a date's length
        # past the last of them: one matching nothing read all 20,000 characters of a
        # message. A match the cut may have changed is read again in the whole text.
        end = len(text)
        if limit is not None and len(first) >= limit:
            end = min(end, -first[0] + _DATE_CHARS)
        for cut in pattern.finditer(text, 0, end):
            m = cut if end == len(text) else pattern.match(text, cut.start())
            if m is None:
                continue
            if limit is not None and len(first) >= limit and m.start() > -first[0]:
                break
            if taken.find(1, m.start(), m.end()) >= 0:
                continue
            try:
                on_day = kind == "rel_day" and m.group(1).casefold() == "on"
                yearless = kind in ("md", "dm", "quarter", "month_alone") and not (
                    kind == "quarter" and (m.group(3) or m.group(4))
                )
                # (A yearless day's tense is read from its last character: "Sept. 3" is
                # not a sentence ending at "Sept.")
                at = m.end() - 1 if yearless else m.start()
                tense = tense_at(text, at) if on_day or yearless else None
                if yearless and RESCHEDULED.search(text, max(0, m.start() - 60), m.start()):
                    tense = True  # "the deadline moved to February 1st": the new date
                hit = _resolve(kind, m, base, tense=tense)
            except (ValueError, OverflowError):  # 31 February; "5000 years ago"
                continue
            if hit is None:
                continue
            day, precision = hit
            taken[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
            # "on Friday" outside a plan, and a day with no year in a sentence of no
            # tense, are the likelier reading, not a certain one.
            guessed = (on_day and tense is not True) or (yearless and tense is None)
            if kind == "month_alone" and m.group(1).lower() in _SIDED:
                guessed = False  # "since June", "by June": the word says which side
            mention = DateMention(m.group(0), day.timestamp(), precision, m.start(), guessed)
            found.append((m.start(), mention))
            if limit is not None:
                (heapq.heappush if len(first) < limit else heapq.heappushpop)(first, -m.start())
    dates = [d for _, d in sorted(found, key=lambda x: x[0])]
    return dates if limit is None else dates[:limit]


def _amount(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBERS[word.lower()]


def _shift(unit: str, n: int) -> relativedelta:
    unit = unit.lower().rstrip("s")
    if unit == "day":
        return relativedelta(days=n)
    if unit == "week":
        return relativedelta(weeks=n)
    if unit == "month":
        return relativedelta(months=n)
    if unit == "quarter":
        return relativedelta(months=3 * n)
    return relativedelta(years=n)


def _resolve(
    kind: str, m: re.Match[str], base: datetime, tense: bool | None = None
) -> tuple[datetime, str] | None:
    """The day ``m`` names and its precision; ``tense`` is :func:`tense_at`'s reading of
    the sentence, for the phrases that point either way."""
    g = [x for x in m.groups()]
    if kind in ("ago", "in"):
        n = _amount(g[0])
        sign = -1 if kind == "ago" else 1
        return base + _shift(g[1], sign * n), g[1].lower().rstrip("s")
    if kind == "rel_unit":
        which, unit = g[0].lower(), g[1].lower().rstrip("s")
        step = {"last": -1, "past": -1, "next": 1, "this": 0}[which]
        return base + _shift(unit, step), unit
    if kind == "rel_month":  # the last such month before this one, or the next after
        which, number = g[0].lower(), _MONTH_NAMES.index(g[1]) + 1
        shift = {"last": -(number >= base.month), "next": int(number <= base.month), "this": 0}
        return datetime(base.year + shift[which], number, 1, tzinfo=UTC), "month"
    if kind == "rel_day":
        which = g[0].lower()
        day = next(i for i, w in enumerate(_WEEKDAYS) if w[:3] == g[1][:3].lower())
        delta = (day - base.weekday()) % 7
        if which == "last":
            delta = delta - 7 if delta else -7
        elif which == "next" or (which == "on" and tense is True):  # "we'll meet on Friday"
            delta = delta if delta else 7
        elif which == "on":  # "on Friday" in a past-tense note points back
            delta = delta - 7 if delta else 0
        return base + timedelta(days=delta), "day"
    if kind == "word":
        offsets = {"yesterday": -1, "last night": -1, "tomorrow": 1}
        return base + timedelta(days=offsets.get(g[0].lower(), 0)), "day"
    if kind == "iso":
        return datetime(int(g[0]), int(g[1]), int(g[2]), tzinfo=UTC), "day"
    if kind == "dmy":
        return datetime(int(g[2]), _MONTHS.index(g[1].lower()) + 1, int(g[0]), tzinfo=UTC), "day"
    if kind == "mdy":
        return datetime(int(g[2]), _MONTHS.index(g[0].lower()) + 1, int(g[1]), tzinfo=UTC), "day"
    if kind == "my":
        return datetime(int(g[1]), _MONTHS.index(g[0].lower()) + 1, 1, tzinfo=UTC), "month"
    if kind == "year":
        return datetime(int(g[0]), 1, 1, tzinfo=UTC), "year"
    if kind == "quarter":
        return _quarter(g, base, tense)
    if kind == "month_alone":
        word, name = g[0].lower(), g[1]
        if word == "since":  # "since September": always the last one
            tense = False
        elif tense is None and word in _SIDED:
            tense = True  # a deadline: "we launch by June"
        if tense is None:  # the nearer of the last and the next
            options = (_month_start(name, None, base), _month_start(name, None, base, ahead=True))
            return min(options, key=lambda d: abs(d - base)), "month"
        return _month_start(name, None, base, ahead=tense), "month"
    if kind in ("md", "dm"):
        month, day_of = (g[0], g[1]) if kind == "md" else (g[1], g[0])
        return _yearless(_month_number(month), int(day_of), base, tense), "day"
    if kind == "weekend":  # its Saturday; the week starts on Monday
        saturday = base + timedelta(days=5 - base.weekday())
        step = {"last": -7, "past": -7, "next": 7, "this": 0}[g[0].lower()]
        return saturday + timedelta(days=step), "weekend"
    return None


# The words before a month's name alone that say which side of now it is on.
_SIDED = frozenset({"since", "by", "until", "till", "before"})


def _quarter(g: list[str | None], base: datetime, tense: bool | None) -> tuple[datetime, str]:
    """The quarter "Q<n>" names (its year as written, else the next one, this one while
    it runs; the last one in a sentence about the past), or, for "end/start/mid of
    Q<n>", that month of it."""
    part, number, year, short = g
    q = int(str(number))
    if year or short:
        at = int(year) if year else 2000 + int(str(short))
    else:
        now = (base.month - 1) // 3 + 1
        at = base.year + (q < now) if tense is not False else base.year - (q > now)
    start = datetime(at, 3 * q - 2, 1, tzinfo=UTC)
    if part is None:
        return start, "quarter"
    step = {"end": 2, "middle": 1, "mid": 1}.get(part.lower(), 0)
    return start + relativedelta(months=step), "month"


def _month_number(written: str) -> int:
    """1-12 for a month's name or its abbreviation ("Sept.")."""
    return next(i for i, m in enumerate(_MONTHS, 1) if m.startswith(written[:3].lower()))


def _yearless(month: int, day: int, base: datetime, tense: bool | None) -> datetime:
    """The ``month``/``day`` nearest ``base``: the next one (this day included) in a
    sentence about what is to come, the last one in a report, the nearer otherwise."""
    found = []
    for year in (base.year - 1, base.year, base.year + 1):
        try:
            found.append(datetime(year, month, day, tzinfo=UTC))
        except ValueError:  # 29 February in a common year
            continue
    if tense is True:
        found = [d for d in found if d >= base]
    elif tense is False:
        found = [d for d in found if d <= base]
    if not found:
        raise ValueError(f"no {month}/{day} near {base:%Y-%m-%d}")
    return min(found, key=lambda d: abs(d - base))


_MONTH_ALONE = re.compile(rf"\b(?:in|during)\s+({'|'.join(_MONTHS)})\b(?!,?\s*\d)", re.I)
_ORDINALS = ["first", "second", "third", "fourth"]
_PART_OF = re.compile(
    rf"\b({'|'.join(_ORDINALS)}|last)\s+(week|half)\s+of\s+({'|'.join(_MONTHS)})"
    r"(?:,?\s+(\d{4}))?\b",
    re.I,
)
_SPAN = {
    "day": relativedelta(days=1),
    "weekend": relativedelta(days=2),
    "week": relativedelta(weeks=1),
    "month": relativedelta(months=1),
    "quarter": relativedelta(months=3),
    "year": relativedelta(years=1),
}


def query_window(text: str, now: float, *, told_later: bool = True) -> tuple[float, float] | None:
    """The time a question asks about ("in July 2023", "on 3 June, 2023", "last
    week", "the second week of November"), as a (start, end) range of timestamps, or
    None. What happened then is often told a little later, so the range runs on past
    the period, by up to two weeks (a day for a day, a week for a week; not with
    ``told_later`` False: what was said then), and starts a day early (time zones)."""
    today = datetime.fromtimestamp(now, tz=UTC)
    if (part := _PART_OF.search(text)) and (bounds := _part_window(part, today)):
        start, span = bounds
    elif (found := resolve_dates(text, now, limit=1)) and not _MONTH_ALONE.search(found[0].phrase):
        start = _period_start(
            datetime.fromtimestamp(found[0].timestamp, tz=UTC), found[0].precision
        )
        span = _SPAN[found[0].precision]
    elif alone := _MONTH_ALONE.search(text):
        # Questions only: in a note, "we ship in June" may be next June. A question of
        # what is to come ("what's due in January?") asks the next one, this one once
        # it has begun; any other the last.
        ahead = tense_at(text, alone.start()) is True
        start, span = _month_start(alone.group(1), None, today, ahead=ahead), _SPAN["month"]
    else:
        return None
    try:
        end = start + span
        grace = min(end - start, timedelta(days=14)) if told_later else timedelta(days=1)
        return (start - timedelta(days=1)).timestamp(), (end + grace).timestamp()
    except (ValueError, OverflowError):  # a period at the end of the calendar (9999)
        return None


def _period_start(day: datetime, precision: str) -> datetime:
    """The first day of the week (Monday), month or year ``day`` falls in, as
    ``precision`` says: "last week" asked on a Friday is all of last week, not the
    seven days from last Friday."""
    if precision == "week":
        return day - timedelta(days=day.weekday())
    if precision == "month":
        return day.replace(day=1)
    if precision == "quarter":
        return day.replace(month=day.month - (day.month - 1) % 3, day=1)
    if precision == "year":
        return day.replace(month=1, day=1)
    return day


def _part_window(part: re.Match[str], today: datetime) -> tuple[datetime, relativedelta] | None:
    """The period "the <which> <week|half> of <month> [year]" names, if it exists."""
    try:
        month = _month_start(part.group(3), part.group(4), today)
        return _part_of_month(part.group(1).lower(), part.group(2).lower(), month)
    except (ValueError, OverflowError):  # year 0, or the end of the calendar (9999)
        return None


def _month_start(name: str, year: str | None, today: datetime, *, ahead: bool = False) -> datetime:
    """The first day of month ``name``: of ``year``, or without one the last such month
    (``ahead``: the next one), this one if it has begun."""
    number = _MONTHS.index(name.lower()) + 1
    if year is not None:
        return datetime(int(year), number, 1, tzinfo=UTC)
    if ahead:
        return datetime(today.year + (number < today.month), number, 1, tzinfo=UTC)
    return datetime(today.year - (number > today.month), number, 1, tzinfo=UTC)


def _part_of_month(which: str, part: str, month: datetime) -> tuple[datetime, relativedelta]:
    """Where "the <which> <part> of" a month starts, and how long it runs."""
    length = ((month + relativedelta(months=1)) - month).days
    if part == "half" and which == "first":
        return month, relativedelta(days=15)
    if part == "half":  # the second (or last) half
        return month + timedelta(days=15), relativedelta(days=length - 15)
    if which == "last":
        return month + timedelta(days=length - 7), _SPAN["week"]
    return month + timedelta(weeks=_ORDINALS.index(which)), _SPAN["week"]


# A phrase naming its own year is a date already; the rest are said relative to a day.
_ABSOLUTE = re.compile(r"\d{4}")


def relative_dates(text: str, written_at: float, limit: int = 16) -> list[tuple[DateMention, str]]:
    """The relative date phrases of ``text`` (its first ``limit`` dates), each with the
    date it means, resolved against ``written_at``: "yesterday" -> "2023-05-07", "last
    week" -> "week of 2023-05-01", "last month" -> "April 2023". Absolute dates,
    phrases meaning the day, week, month or year it was written ("today", "this
    week"), and "on <weekday>" outside a sentence about the future, which may point
    either way, are left out."""
    written = datetime.fromtimestamp(written_at, tz=UTC)
    out: list[tuple[DateMention, str]] = []
    for d in resolve_dates(text, written_at, limit=limit):
        # "on Friday" points back in a report and ahead in a plan: shown only when the
        # sentence says it is a plan.
        if _ABSOLUTE.search(d.phrase) or d.guessed:
            continue
        day = datetime.fromtimestamp(d.timestamp, tz=UTC)
        if d.precision == "weekend":
            same = day <= written < day + timedelta(days=2)
        elif d.precision == "week":
            day -= timedelta(days=day.weekday())
            same = day <= written < day + timedelta(weeks=1)
        elif d.precision == "month":
            same = (day.year, day.month) == (written.year, written.month)
        elif d.precision == "quarter":
            day = _period_start(day, "quarter")
            same = day <= written < day + _SPAN["quarter"]
        elif d.precision == "year":
            same = day.year == written.year
        else:
            same = day.date() == written.date()
        if not same:
            out.append((d, shown_date(d.timestamp, d.precision)))
    return out


def shown_date(timestamp: float, precision: str | None) -> str:
    """A date as precise as it was said: "2026-12-04", "week of 2026-11-30", "weekend
    of 2026-12-05", "March 2027", "Q1 2027", "2027"; with no precision known, the day
    of a midnight (how dates are stored) and the minute of any other time."""
    day = datetime.fromtimestamp(timestamp, tz=UTC)
    if precision == "weekend":
        return f"weekend of {day:%Y-%m-%d}"
    if precision == "week":
        return f"week of {day - timedelta(days=day.weekday()):%Y-%m-%d}"
    if precision == "month":
        return f"{day:%B %Y}"
    if precision == "quarter":
        start = _period_start(day, "quarter")
        return f"Q{(start.month - 1) // 3 + 1} {start:%Y}"
    if precision == "year":
        return f"{day:%Y}"
    if precision == "day" or (day.hour, day.minute, day.second) == (0, 0, 0):
        return f"{day:%Y-%m-%d}"
    return f"{day:%Y-%m-%d %H:%M}"


def with_dates(text: str, written_at: float, limit: int = 16) -> str:
    """``text`` with each relative date phrase followed by the date it means
    (:func:`relative_dates`): "I went yesterday (2023-05-07)". A reader told only when a
    memory was written must otherwise work the date out, which language models get
    wrong."""
    parts: list[str] = []
    done = 0
    for d, shown in relative_dates(text, written_at, limit):
        end = d.start + len(d.phrase)
        parts += [text[done:end], f" ({shown})"]
        done = end
    return "".join(parts) + text[done:] if parts else text


def event_time(text: str, written_at: float) -> float | None:
    """When what ``text`` reports happened, if it says so (its first past date)."""
    span = event_span(text, written_at)
    return None if span is None else span[0]


def event_span(text: str, written_at: float) -> tuple[float, float] | None:
    """The period :func:`event_time` dates ``text`` to, as (start, end): a day, or the
    whole month, quarter or year it names."""
    for d in resolve_dates(text, written_at):
        if d.timestamp <= written_at:
            period = _period_start(datetime.fromtimestamp(d.timestamp, tz=UTC), d.precision)
            return d.timestamp, (period + _SPAN.get(d.precision, _SPAN["day"])).timestamp()
    return None

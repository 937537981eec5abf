"""Dates said without their year, and weekends (text/temporal.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from hermes_memory import MemoryAPI, unwrap
from hermes_memory.cli.main import cli
from hermes_memory.text.temporal import query_window, resolve_dates, shown_date, with_dates

# Friday 2026-11-27, 15:00
FRIDAY = datetime(2026, 11, 27, 15, tzinfo=UTC).timestamp()


def _days(text: str, at: float = FRIDAY) -> list[tuple[str, str, bool]]:
    return [
        (d.phrase, datetime.fromtimestamp(d.timestamp, UTC).date().isoformat(), d.guessed)
        for d in resolve_dates(text, at)
    ]


@pytest.mark.parametrize(
    ("said", "day"),
    [
        # A deadline or a plan: the next such day (this one included).
        ("The migration has to be finished by January 15th.", "2027-01-15"),
        ("We'll ship on Dec 3.", "2026-12-03"),
        ("The review is on the 3rd of December.", "2026-12-03"),
        ("Nov 27 is the cut-off.", "2026-11-27"),
        ("Sept. 3 is the launch.", "2027-09-03"),
        # A report: the last one.
        ("I went there on May 8.", "2026-05-08"),
        ("On Jan. 15 we shipped it.", "2026-01-15"),
        ("We met on 2 December.", "2025-12-02"),
        # A plan moved to a day is to come, whatever the verb's tense; a colon ends a
        # clause of its own tense.
        ("We moved the trip to March 10th.", "2027-03-10"),
        ("They postponed the launch until June 3.", "2027-06-03"),
        ("Actually we moved it: the trip is now on March 10th.", "2027-03-10"),
        ("I moved my things to the new flat on May 8.", "2026-05-08"),
        # "we need" is no past form
        ("Review takes 3 days, so we need to submit by March 28th.", "2027-03-28"),
        # "Got it, ..." acknowledges; it reports nothing done
        ("Got it, the wedding is now June 21st.", "2027-06-21"),
    ],
)
def test_a_day_without_its_year_is_the_nearest_on_the_side_its_tense_points_to(
    said: str, day: str
) -> None:
    [(_, got, guessed)] = _days(said)
    assert got == day
    assert not guessed


def test_a_yearless_day_in_a_sentence_of_no_tense_is_the_nearer_and_only_guessed() -> None:
    assert _days("Deadline: January 15th") == [("January 15th", "2027-01-15", True)]
    assert _days("Standup notes, 20 Nov") == [("20 Nov", "2026-11-20", True)]
    # A perfect tense points either way: begun in the past, for what is to come.
    assert _days("I've started training for a race on January 18th.") == [
        ("January 18th", "2027-01-18", True)
    ]
    # A guess is not written into what the agent is shown.
    assert with_dates("Deadline: January 15th", FRIDAY) == "Deadline: January 15th"
    assert with_dates("It has to be done by January 15th.", FRIDAY) == (
        "It has to be done by January 15th (2027-01-15)."
    )


def test_what_is_not_a_yearless_day_stays_as_it_was() -> None:
    # With its year, a date is read whole; a month and year is a month.
    assert _days("by January 15, 2027") == [("January 15, 2027", "2027-01-15", False)]
    assert [d.precision for d in resolve_dates("in March 2023", FRIDAY)] == ["month"]
    # Lower case months are words; a day that never comes near is no date.
    assert _days("you may 3 times retry, march 4 steps") == []
    assert _days("We met on Feb 29.") == []
    assert _days("Jan15 and version 3 Mar2") == []


def test_a_weekend_is_its_saturday_and_shown_as_the_weekend() -> None:
    said = "Last weekend was quiet, this weekend I rest, next weekend Nora visits."
    assert [(phrase, day) for phrase, day, _ in _days(said)] == [
        ("Last weekend", "2026-11-21"),
        ("this weekend", "2026-11-28"),
        ("next weekend", "2026-12-05"),
    ]
    assert {d.precision for d in resolve_dates(said, FRIDAY)} == {"weekend"}
    sunday = datetime(2026, 11, 29, 10, tzinfo=UTC).timestamp()
    assert _days("this weekend", sunday) == [("this weekend", "2026-11-28", False)]
    assert with_dates("Nora visits next weekend.", FRIDAY) == (
        "Nora visits next weekend (weekend of 2026-12-05)."
    )
    # The weekend it was written in needs no date.
    assert with_dates("this weekend I rest", sunday) == "this weekend I rest"
    start, end = query_window("What did I do last weekend?", FRIDAY) or (0.0, 0.0)
    assert start < datetime(2026, 11, 21, tzinfo=UTC).timestamp() < end
    assert end <= datetime(2026, 11, 26, tzinfo=UTC).timestamp()


def test_a_deadline_said_without_its_year_is_on_the_timeline(api: MemoryAPI) -> None:
    said = datetime(2026, 1, 20, 9, tzinfo=UTC).timestamp()  # before the test clock's now
    api.ingest_turn(
        "user",
        "The warehouse migration has to be finished by March 15th.",
        session_id="s1",
        message_id="m1",
        timestamp=said,
    )
    events = unwrap(api.timeline_query(query="migration"))
    # The plan formed from the turn is a fact too; the date is on the timeline once.
    (plan,) = unwrap(api.fact_query("migration", formed=True))
    assert plan["category"] == "project"
    assert [e["timestamp"][:10] for e in events] == ["2026-03-15"]


def test_a_store_read_again_dates_what_the_text_names_now(api: MemoryAPI) -> None:
    from hermes_memory.api import rederive
    from hermes_memory.tier2 import health as tier2_health

    said = datetime(2026, 1, 20, 9, tzinfo=UTC).timestamp()
    for n, text in enumerate(
        ["The migration has to be finished by March 15th.", "The review is on March 20th."]
    ):
        api.ingest_turn("user", text, session_id="s1", message_id=f"m{n}", timestamp=said)
    # As an older extractor left it: no day without its year was a date; and a person
    # deleted the review's event.
    with api.db.transaction() as conn:
        conn.execute("DELETE FROM timeline WHERE title LIKE 'The migration%'")
        conn.execute("UPDATE timeline SET deleted_at = 1.0 WHERE title LIKE 'The review%'")
    tier2_health.set_derived_status(api.db, "relations", "ok", 0.0, extractor=1)
    assert rederive.rederive(api)["dates"] == 1
    events = unwrap(api.timeline_query(query="migration"))
    assert [e["timestamp"][:10] for e in events] == ["2026-03-15"]
    assert unwrap(api.timeline_query(query="review")) == []  # stays deleted
    # Read again, nothing is added twice.
    tier2_health.set_derived_status(api.db, "relations", "ok", 0.0, extractor=1)
    assert rederive.rederive(api)["dates"] == 0
    assert len(unwrap(api.timeline_query(query="migration"))) == 1


def test_a_formed_facts_own_date_is_dropped_when_the_store_is_read_again(api: MemoryAPI) -> None:
    from hermes_memory.api import rederive
    from hermes_memory.tier2 import health as tier2_health
    from hermes_memory.tier2.timeline import DateSource, mention_date

    said = datetime(2026, 1, 20, 9, tzinfo=UTC).timestamp()
    api.ingest_turn(
        "user", "The launch is planned for March 3rd.", session_id="s1", message_id="m1",
        timestamp=said,
    )  # fmt: skip
    (plan,) = unwrap(api.fact_query("launch", formed=True))
    # As the extractor before version 22 left it: the fact dated too, beside its turn.
    with api.db.transaction() as conn:
        source = DateSource.of("fact", plan["uuid"], plan["content"], [], False)
        when = datetime(2026, 3, 3, tzinfo=UTC).timestamp()
        mention_date(conn, api.owner, phrase="March 3rd", when=when, source=source, now=said)
    assert len(unwrap(api.timeline_query(query="launch"))) == 2
    tier2_health.set_derived_status(api.db, "relations", "ok", 0.0, extractor=21)
    rederive.rederive(api)
    (event,) = unwrap(api.timeline_query(query="launch"))
    assert event["source"]["kind"] == "episode"


def test_a_quarter_is_the_next_one_or_the_last_one_its_tense_points_to() -> None:
    assert _days("We're replacing ArgoCD with Flux by end of Q1.") == [
        ("end of Q1", "2027-03-01", False)
    ]
    assert _days("We shipped it in Q3.") == [("Q3", "2026-07-01", False)]
    assert [p for p, _, _ in _days("The Q4 goal is uptime.")] == ["Q4"]  # this one, running
    assert _days("The Q2 2025 numbers were good.") == [("Q2 2025", "2025-04-01", False)]
    assert {d.precision for d in resolve_dates("Hiring resumes next quarter.", FRIDAY)} == {
        "quarter"
    }
    assert with_dates("Hiring resumes next quarter.", FRIDAY) == (
        "Hiring resumes next quarter (Q1 2027)."
    )
    assert with_dates("We'll migrate by end of Q1.", FRIDAY) == (
        "We'll migrate by end of Q1 (March 2027)."
    )
    # lower case is no quarter ("q1" in code), nor the quarter it was written in
    assert _days("set q1 = 0") == []
    assert with_dates("Our Q4 goal is uptime.", FRIDAY) == "Our Q4 goal is uptime."
    start, end = query_window("What is due in Q1?", FRIDAY) or (0.0, 0.0)
    assert start < datetime(2027, 1, 1, tzinfo=UTC).timestamp()
    assert datetime(2027, 3, 31, tzinfo=UTC).timestamp() < end


def test_a_month_by_its_name_alone_is_the_next_or_the_last_by_its_tense() -> None:
    assert _days("We'll ship in March.") == [("in March", "2027-03-01", False)]
    assert _days("I went to Paris in May.") == [("in May", "2026-05-01", False)]
    # the word before it may say the side: a deadline ahead, a start behind
    assert _days("We launch by June.") == [("by June", "2027-06-01", False)]
    assert _days("I have been painting since May.") == [("since May", "2026-05-01", False)]
    # no tense: the nearer, only guessed; a month's name in lower case is a word
    assert _days("Anything in March?") == [("in March", "2027-03-01", True)]
    assert _days("we may march in the rain") == []
    assert with_dates("We'll ship in March.", FRIDAY) == "We'll ship in March (March 2027)."
    # a question keeps its own reading ("in March" asked with no tense: the last one)
    start, end = query_window("Anything in March?", FRIDAY) or (0.0, 0.0)
    assert start < datetime(2026, 3, 1, tzinfo=UTC).timestamp() < end


def test_the_timeline_shows_a_date_as_precisely_as_it_was_said_and_once(
    api: MemoryAPI, home: Path
) -> None:
    turns = [
        ("user", "Marcus moved the beta deadline to December 4th."),
        ("assistant", "Beta now December 4th. I'll keep the release notes ready."),
        ("user", "We're replacing ArgoCD with Flux next quarter, and we ship the app in March."),
        ("assistant", "Noted. Your security review is on January 12th."),
    ]
    for i, (speaker, said) in enumerate(turns):
        api.ingest_turn(speaker, said, session_id="s1", message_id=f"m{i}", timestamp=FRIDAY + i)
    events = unwrap(api.timeline_query())
    shown = sorted((e["when"], e["title"][:20]) for e in events)
    # The assistant's "Beta now December 4th" repeats the person's date: one event. Its
    # own date, said by nobody else, stays.
    assert shown == [
        ("2026-12-04", "Marcus moved the bet"),
        ("2027-01-12", "Noted. Your security"),
        ("March 2027", "We're replacing Argo"),
        ("Q1 2027", "We're replacing Argo"),
    ]
    assert {e["precision"] for e in events} == {"day", "month", "quarter"}
    # The CLI lists them so, and the JSON keeps the stored timestamp.
    out = CliRunner().invoke(cli, ["--home", str(home), "timeline"])
    assert "Q1 2027  [mentioned_date] We're replacing ArgoCD" in out.output, out.output
    assert "2026-12-04  [mentioned_date] Marcus moved" in out.output
    assert all(e["timestamp"].endswith("Z") for e in events)


def test_a_date_shown_without_its_precision_keeps_a_time_when_it_has_one() -> None:
    midnight = datetime(2026, 12, 4, tzinfo=UTC).timestamp()
    assert shown_date(midnight, None) == "2026-12-04"
    assert shown_date(midnight + 9.5 * 3600, None) == "2026-12-04 09:30"
    assert shown_date(midnight, "week") == "week of 2026-11-30"
    assert shown_date(midnight, "year") == "2026"


def test_a_commitment_told_in_the_past_dates_what_lies_ahead_of_it() -> None:
    # The past tense is the signing up's or the deciding's, not the race's: the nearer
    # of the last and the next such day (a guess: the sentence does not say which).
    sept = datetime(2026, 9, 1, 19, tzinfo=UTC).timestamp()
    assert _days("I signed up for the Valencia half marathon on December 6th.", sept) == [
        ("December 6th", "2026-12-06", True)
    ]
    said = "I decided to drop the half and do the Rotterdam 10k on December 13th instead."
    assert _days(said, FRIDAY) == [("December 13th", "2026-12-13", True)]
    # A booking a week back is past; a report with no commitment stays a report.
    assert _days("I booked the flight on November 3rd.", FRIDAY) == [
        ("November 3rd", "2026-11-03", True)
    ]
    assert _days("I went to Japan on December 3rd.", FRIDAY) == [
        ("December 3rd", "2025-12-03", False)
    ]


# Phrases of every kind of date, in the cases they are written in, inside sentences.
_EVERY_KIND = [
    "It broke 3 days ago.",
    "We ship in two weeks.",
    "Last month was slow.",
    "See you next Friday!",
    "on Tues we met",
    "I did it yesterday.",
    "Is it due tonight?",
    "Released 2024-03-01.",
    "Born 8 May 2023, she",
    "on December 1, 2023 at noon",
    "since March 2024",
    "The demo is January 15th.",
    "Sept. 3 works",
    "the 3rd of Dec",
    "last weekend was fun",
    "we left last March",
    "graduated in 2019",
    "We ship in June.",
    "by end of Q3 2027",
    "mid-Q2",
    "until September",
    "THIS MORNING I woke late",
    "we talked last night",
    "LAST WEEKEND",
    "in 10 DAYS",
    "Q4 '26 targets",
]


def test_each_date_pattern_runs_on_every_text_it_can_match() -> None:
    """A pattern is skipped on a text lacking the words it needs (for speed): every
    pattern that matches a phrase must still run on it, and every kind is exercised."""
    from hermes_memory.text.temporal import _PATTERNS, _runnable

    matched: set[str] = set()
    for text in _EVERY_KIND:
        runs = {kind for kind, _ in _runnable(text)}
        for kind, pattern in _PATTERNS:
            if pattern.search(text):
                matched.add(kind)
                assert kind in runs, (kind, text)
    assert matched == {kind for kind, _ in _PATTERNS}
    # a digit inside a word starts no number: the patterns of numbered days do not run
    runs = {kind for kind, _ in _runnable("Lee0 moved the k8s cluster to S3 last March")}
    assert runs == {"rel_month", "month_alone"}


@pytest.mark.parametrize(
    "said",
    [
        "I have a review on Friday",
        "We'll meet on Friday",
        "I saw it on Friday",
        "I've got a review on Friday",
        "Got it, see you on Friday",
        "I signed up for the half marathon on December 6th",
        "I signed up, then we talked about it on December 6th",
        "we needed it on Friday",
        "They rescheduled it and it's on Friday",
        "I am free on Friday " * 30,
        "it was submitted on Friday",
    ],
)
def test_tense_reads_a_clause_the_same_whether_searched_whole_or_by_its_words(
    said: str,
) -> None:
    """An ASCII clause is searched only where its words allow a match; any other is
    searched whole. The two readings agree (a non-ASCII letter that matches nothing
    sends a clause down the whole search)."""
    from hermes_memory.text.tense import tense_at

    at = said.index("on ") + 3
    assert tense_at(said, at) == tense_at(said + " ü", at)
    assert tense_at(said, at) == tense_at("ü " + said, at + 2)

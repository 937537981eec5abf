"""What the words around a capitalised name say it is (text/kinds.py), read by
extraction (text/mentions.py)."""

from __future__ import annotations

import pytest

from hermes_memory.text.extract import extract


def kinds(text: str) -> dict[str, str]:
    return dict(extract(text).entities)


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("We picked Parquet over CSV for the exports.", "Parquet"),
        ("We chose Pulsar instead of Kafka.", "Pulsar"),
        ("Kafka or Pulsar, we have not decided.", "Pulsar"),
        ("Kafka vs. Pulsar: which one?", "Pulsar"),
        ("The job writes them to S3 as Parquet.", "Parquet"),
        ("The analysts query it with Athena.", "Athena"),
        ("We monitor the cluster with Rollbar.", "Rollbar"),
        ("We honour Retry-After and set Content-Type.", "Retry-After"),
        ("Let's switch to Zorblet for the queue.", "Zorblet"),
        ("We're switching the queue to SQS next sprint.", "SQS"),
        ("Docker Desktop keeps crashing on my Mac.", "Mac"),
        ("I left my Pixel at home.", "Pixel"),
        ("We need a module that Expo Go doesn't support, so we're moving off Expo.", "Expo Go"),
    ],
)
def test_a_name_working_as_a_tool_is_a_tool(said: str, name: str) -> None:
    assert kinds(said)[name] == "tech"


@pytest.mark.parametrize(
    "said",
    [
        "I had lunch with Athena yesterday.",
        "Athena is my cousin.",
        "I prefer working with Alice over Bob.",
        "Mary-Kate joined the team.",
        "He is known as Bob.",
        "I sent the report to Marta.",
        "I miss my Grandma.",
        "What made you name her Tilly?",
    ],
)
def test_people_stay_people(said: str) -> None:
    assert "tech" not in kinds(said).values()
    assert "person" in kinds(said).values()


def test_a_word_before_a_labels_colon_names_nothing() -> None:
    assert kinds("Bad news: the deadline moved.") == {}
    assert kinds("Deadline noted: warehouse migration by January 15th.") == {}
    # A person's reported words keep the person.
    assert kinds("Priya writes: we should ship it.") == {"Priya": "person"}
    assert kinds("Sam says: ship it.") == {"Sam": "person"}


def test_a_months_short_name_by_a_days_number_is_a_date() -> None:
    assert kinds("We ship on Jan 15.") == {}
    assert kinds("Due 3 Mar, then review.") == {}
    assert kinds("Jan Kowalski joined the team.") == {"Jan Kowalski": "person"}


def test_how_often_and_a_format_are_no_people() -> None:
    assert kinds("Nightly builds fail on arm64.") == {}
    assert kinds("Weekly reports go to Carla.") == {"Carla": "person"}
    assert kinds("Hourly pulls into S3, Parquet format.")["Parquet"] == "tech"
    assert kinds("Emily says hi.") == {"Emily": "person"}


def test_where_one_goes_or_what_one_sends_to() -> None:
    assert kinds("I'm flying to Reykjavik tomorrow.") == {"Reykjavik": "place"}
    assert kinds("We moved the kids to Lisbon.") == {"Lisbon": "place"}
    # an acronym sent to is a body, a name a person
    assert kinds("I sent the logs to AWS support.") == {"AWS": "org"}
    assert kinds("Then I talked to Carol.") == {"Carol": "person"}


def test_a_department_acting_or_spoken_to_is_a_body() -> None:
    assert kinds("Finance says Snowflake is too expensive.")["Finance"] == "org"
    assert kinds("Legal wants the review done by June 30th.") == {"Legal": "org"}
    assert kinds("I talked to Marketing about the launch.") == {"Marketing": "org"}
    assert kinds("Design is my passion.") == {}  # a subject named, no body acting


def test_numbers_acknowledgements_verbs_and_sql_name_nothing() -> None:
    assert kinds("We run about forty services on Kubernetes.") == {"Kubernetes": "tech"}
    assert kinds("Understood, I'll keep runbook steps short.") == {}
    assert kinds("Done, the build passes now.") == {}
    assert kinds("Grace's team is adding cache versioning.") == {"Grace": "person"}
    assert kinds("We're adding cache versioning next week.") == {}
    assert kinds("The billing service is caching invoices.") == {"billing": "project"}
    assert kinds("The query uses UPSERT and AS OF SYSTEM TIME.") == {}
    assert kinds("I work with NASA and ESA on the mission.") == {"NASA": "org", "ESA": "org"}
    assert kinds("I joined as an SRE and the CMO wants a dashboard.") == {}


def test_a_name_by_a_release_number_or_holding_work_is_software() -> None:
    assert kinds("I added caching with Workbox 7.0.0.")["Workbox"] == "tech"
    assert kinds("The CMO wants the attribution dashboard in Looker.")["Looker"] == "tech"
    assert kinds("I filed a ticket in Jira about it.") == {"Jira": "tech"}
    assert kinds("Maria is 2.5 hours away.") == {"Maria": "person"}
    assert kinds("The office in Lisbon opens Monday.") == {"Lisbon": "place"}


def _labelled_texts() -> list[str]:
    """The sentences of every labelled extraction set (tests/data/extraction_*.jsonl)."""
    import json
    from pathlib import Path

    data = Path(__file__).parent / "data"
    return [
        json.loads(line)["text"]
        for path in sorted(data.glob("extraction_*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def test_no_token_skipped_up_front_would_open_a_name() -> None:
    """Extraction skips lower-case words, numbers, punctuation and capitalised openers
    before asking its readers (for speed); each reader asked about such a token finds
    no name there."""
    from hermes_memory.text import mentions as m
    from hermes_memory.text.components import component_at
    from hermes_memory.text.gazetteer import KNOWN
    from hermes_memory.text.identifiers import identifier
    from hermes_memory.text.inert import inert_tokens
    from hermes_memory.text.preferences import object_starts

    texts = _labelled_texts()
    skipped = 0
    for text in texts:
        toks = [(t.group(), t.start(), t.end()) for t in m._TOKEN.finditer(text)]
        objects_at = object_starts(text)
        for i, inert in enumerate(inert_tokens(toks, objects_at)):
            if not inert:
                continue
            skipped += 1
            assert m._title(text, toks, i) is None, (text, toks[i])
            assert m._known(toks, i) is None, (text, toks[i])
            assert toks[i][1] not in objects_at
            assert identifier(toks, i) is None, (text, toks[i])
            assert component_at(toks, i, KNOWN) is None, (text, toks[i])
            assert m._name(text, toks, i) is None, (text, toks[i])
        # judged a block at a time, the same: a head noun reaches back across blocks
        whole = inert_tokens(toks, objects_at)
        for block in (1, 2, 3, 7):
            parts = [
                inert_tokens(toks, objects_at, at, at + block) for at in range(0, len(toks), block)
            ]
            assert [x for part in parts for x in part] == whole, (text, block)
    assert skipped > 2_000  # most tokens of real sentences are skipped


# Each end-anchored context with words before a name it matches (kinds.Before).
_BEFORE_EXAMPLES = {
    "ORG_CONTEXT": ["she works at ", "we signed a contract with ", "he was hired by "],
    "LEAVING_FOR": ["she wants to leave for ", "we set off for "],
    "PLACE_CONTEXT": [
        "we moved to ",
        "a trip to ",
        "visiting ",
        "we're leaving for ",
        "went camping at ",
    ],
    "TOOL_CONTEXT": ["we're using ", "let's go with ", "evaluating ", "install react, vue, and "],
    "BUILT_WITH": [
        "building a budgeting app with ",
        "wrote the cli in ",
        "made an app with react, ",
    ],
    "HOSTED": ["host the site on ", "run the workers on ", "deployed the api to "],
    "SWITCHED_TO": [
        "let's switch to ",
        "switching the queue over onto ",
        "i moved my notes to ",
    ],
    "STACK_PART_IS": ["our database is ", "the api gateway is now ", "my editor is "],
    "SUPPLIER_SWITCH": ["switching butter supplier to ", "we moved our bank from "],
    "STORED_AS": ["writes them to s3 as "],
    "ARTEFACT_IN": ["the dashboard in ", "a ticket in "],
    "WRITTEN_IN": ["the service is written in ", "it was implemented mostly in "],
    "WORKED_WITH": ["query it with ", "monitoring the cluster through "],
    "MADE": ["i'm building ", "bob maintains the "],
    "PET_BEFORE": ["our dog ", "a puppy named ", "two guinea pigs, "],
    "WORK_BEFORE": ["the book ", "her new album ", "a game called "],
    "LEFT_WORK": ["i left ", "she resigned from ", "i was laid off from ", "quitting "],
}


def test_a_context_is_searched_wherever_it_can_end() -> None:
    """A context pattern anchored at the words before a name is searched only where the
    last of them is one it can end on (for speed): each finds what its pattern finds
    before every capitalised word of the labelled sets, and its examples."""
    import re

    from hermes_memory.text import kinds as k

    texts = _labelled_texts()
    windows = [
        text[max(0, m.start() - 120) : m.start()].lower()
        for text in texts
        for m in re.finditer(r"\b[A-Z]", text)
    ]
    assert len(windows) > 1_000
    for name, examples in _BEFORE_EXAMPLES.items():
        before = getattr(k, name)
        assert isinstance(before, k.Before)
        for example in examples:  # after words enough for the check to be made
            window = "we talked it over for a while, and then " + example
            assert len(window) > k._SHORT_WINDOW
            assert before.search(window) is not None, (name, window)
        for window in windows:
            expected = before.pattern.search(window)
            got = before.search(window)
            assert (got and got.span()) == (expected and expected.span()), (name, window)
    befores = [n for n in dir(k) if isinstance(getattr(k, n), k.Before)]
    assert sorted(befores) == sorted(_BEFORE_EXAMPLES)


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("I talked to Jan de Vries about the budget.", "Jan de Vries"),
        ("My colleague Maria de Souza joined the team.", "Maria de Souza"),
        ("Ursula von der Leyen gave a speech.", "Ursula von der Leyen"),
        ("Maria de la Cruz is my manager.", "Maria de la Cruz"),
        ("The party is at Quinta do Vale on June 20th.", "Quinta do Vale"),
    ],
)
def test_a_name_keeps_its_particles(said: str, name: str) -> None:
    """ "de", "van", "von der" inside a name are part of it: one entity, not two."""
    found = kinds(said)
    assert name in found
    assert not {w for w in name.split() if w[:1].isupper()} & set(found)


@pytest.mark.parametrize(
    ("said", "names"),
    [
        # "do" is also an English verb: it joins a name only after a preposition of place
        ("Mark and Anna do CrossFit on Mondays.", {"Mark", "Anna", "CrossFit"}),
        ("Did Alice and Mark do Pilates?", {"Alice", "Mark"}),
        # a known name after the particle is its own
        ("Should Mark do React or Vue?", {"Mark", "React", "Vue"}),
    ],
)
def test_a_particle_between_separate_names_joins_nothing(said: str, names: set[str]) -> None:
    assert names <= set(kinds(said))


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("Sarah McKenzie works at Google.", "Sarah McKenzie"),
        ("Deirdre O'Brien joined us on Monday.", "Deirdre O'Brien"),
        ("I talked to O’Neil about the release.", "O’Neil"),
        ("Leonardo DiCaprio starred in it.", "Leonardo DiCaprio"),
        ("LeBron James scored 40 last night.", "LeBron James"),
    ],
)
def test_a_family_name_with_a_capital_inside_is_a_persons(said: str, name: str) -> None:
    """ "McKenzie" was read as a product's name ("MacBook"), "O'Brien" as "Brien"."""
    found = kinds(said)
    assert found.get(name) == "person", found
    assert len([n for n, kind in found.items() if kind == "person"]) == 1


def test_a_capital_inside_a_products_name_still_makes_it_a_product() -> None:
    assert kinds("We use MacBook Pros at work.") == {"MacBook Pros": "tech"}
    assert kinds("I'm reading about DeFi.").get("DeFi") != "person"


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("The quote from Van Dijk Logistics was too high.", "Van Dijk Logistics"),
        ("Their lawyer is from Baker McKenzie LLP.", "Baker McKenzie LLP"),
        ("The invoice from Brightwater Consulting is overdue.", "Brightwater Consulting"),
        ("We pay Kessler GmbH every month.", "Kessler GmbH"),
        ("I signed with Harbor Partners last week.", "Harbor Partners"),
    ],
)
def test_a_firm_is_named_by_its_legal_form_or_trade(said: str, name: str) -> None:
    assert kinds(said).get(name) == "org"


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("Please always answer in British English.", "British English"),
        ("Reply in Brazilian Portuguese.", "Brazilian Portuguese"),
        ("The docs are in Simplified Chinese.", "Simplified Chinese"),
    ],
)
def test_a_languages_variety_is_no_place(said: str, name: str) -> None:
    assert kinds(said).get(name) == "concept"


def test_a_plural_possessive_inside_an_institutions_name() -> None:
    found = kinds("Jules is a nurse at St Thomas' Hospital.")
    assert found.get("St Thomas' Hospital") == "org", found
    assert "Hospital" not in found
    assert kinds("We visited St James’ Park on Sunday.").get("St James’ Park") == "place"


def test_a_service_named_by_its_web_address() -> None:
    assert kinds("We deploy the api to Render.com.") == {"Render.com": "tech"}
    assert kinds("The chat uses Socket.io for events.").get("Socket.io") == "tech"
    assert kinds("See github.com/acme/api for the code.") == {}


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("Deploy the web-frontend with Vercel instead of Netlify.", "Netlify"),
        ("Jin prefers Grafana dashboards over Kibana.", "Kibana"),
        ("Okta handles our single sign-on.", "Okta"),
        ("We moved the warehouse to ClickHouse.", "ClickHouse"),
    ],
)
def test_deployment_and_data_tools_are_known(said: str, name: str) -> None:
    assert kinds(said).get(name) == "tech"


def test_a_tool_that_is_also_a_word_is_known_only_in_capitals() -> None:
    assert kinds("I set up a tableau of photos.") == {}
    assert kinds("Our dashboards live in Tableau.").get("Tableau") == "tech"


def test_a_name_after_a_place_and_a_comma_closing_the_clause_is_its_region() -> None:
    found = extract("As someone living in New Gary, Saint Helena, I need a laptop.").entities
    assert found["New Gary"] == found["Saint Helena"] == "place"
    assert extract("Search for Jamestown, Saint Helena and filter.").entities["Saint Helena"] == (
        "place"
    )
    # One word after a place is as often who is spoken to, and a verb makes a subject.
    assert extract("We were in Lisbon, Carla.").entities["Carla"] == "person"
    assert extract("In Paris, Marie Curie said hello.").entities["Marie Curie"] == "person"


def test_an_idiom_opening_a_line_names_no_one() -> None:
    for line in ("Fingers crossed it works out!", "Rest assured, the data is safe."):
        assert kinds(line) == {}, line


def test_a_person_is_read_by_what_they_have_done_and_what_is_theirs() -> None:
    assert kinds("Tomasz is out, so Priya is covering his shifts.")["Priya"] == "person"
    assert kinds("The migration is blocked on Omar's review.")["Omar"] == "person"
    assert kinds("Since March, Ben has led the platform team.")["Ben"] == "person"
    assert ("Ben", "manages", "platform") in {
        (r.head, r.type, r.tail)
        for r in extract("Since March, Ben has led the platform team.").relations
    }


def test_someone_from_a_company_named_by_its_product_works_there() -> None:
    found = extract("I'm meeting Lena from Datadog on Thursday.")
    assert found.entities["Datadog"] == "org"
    assert [(r.head, r.type, r.tail) for r in found.relations] == [("Lena", "works_at", "Datadog")]
    # Someone known from an event is not its employee.
    met = extract("Farid knows Elena from the Rust meetup.")
    assert not any(r.type == "works_at" for r in met.relations)

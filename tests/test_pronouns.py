"""A sentence opening with "it", "she" or "he" states relations of the name before."""

from __future__ import annotations

from hermes_memory import MemoryAPI, unwrap
from hermes_memory.text.anaphora import opening_pronoun, spoken_out
from hermes_memory.text.extract import extract


def relations(text: str) -> set[tuple[str, str, str]]:
    return {(r.head, r.type, r.tail) for r in extract(text).relations if r.stated}


def test_it_continues_with_the_thing_the_sentence_before_was_about() -> None:
    assert relations("I'm setting up the new payments-api. It depends on the ledger-service.") == {
        ("payments-api", "depends_on", "ledger-service")
    }
    # two verbs after the pronoun: both the antecedent's, not the first object's
    assert relations(
        "We built the checkout-service last year. It uses Redis and talks to the pricing-api."
    ) == {("checkout-service", "uses", "Redis"), ("checkout-service", "depends_on", "pricing-api")}
    # the subject, when a thing opened the sentence; "it's" is "it is"
    assert ("auth-service", "uses", "Fly.io") in relations(
        "Our auth-service uses Postgres. It's deployed on Fly.io."
    )
    # what a person was stated to work on
    assert ("auth-service", "uses", "Go") in relations(
        "Bob maintains the auth-service. It is written in Go."
    )
    # the speaker acted on it after a word or two of time ("Today I ...")
    assert relations(
        "Today I want to start on the recommendations-service. It's a FastAPI app and it "
        "reads user events from Kafka."
    ) == {
        ("recommendations-service", "uses", "FastAPI"),
        ("recommendations-service", "depends_on", "Kafka"),
    }
    # a chain of pronouns keeps its subject
    assert ("auth-service", "depends_on", "Kafka") in relations(
        "The auth-service uses Postgres. It runs on Fly.io. It also reads from Kafka."
    )


def test_she_and_he_are_the_one_person_named_before() -> None:
    assert relations("Priya joined in May. She reports to Tomasz and lives in Lisbon.") == {
        ("Priya", "reports_to", "Tomasz"),
        ("Priya", "lives_in", "Lisbon"),
    }
    assert ("Luca", "works_at", "Fiat") in relations(
        "My brother Luca moved to Turin. He works at Fiat now."
    )
    assert ("Sofia Reyes", "works_at", "Shopify") in relations(
        "I met Sofia Reyes last week. She works at Shopify."
    )


def test_a_pronoun_that_could_mean_two_names_or_none_states_nothing() -> None:
    # two people named before: either could be meant
    assert not any(
        r[0] in ("Priya", "Ana") and r[2] == "billing-service"
        for r in relations("Priya and Ana both joined Stripe. She leads the billing-service.")
    )
    # the subject is something the memory does not name
    assert relations("The notifier uses Twilio and SendGrid. It runs on AWS Lambda.") == set()
    assert relations("Parallels Desktop integrates with macOS. It makes Windows easy.") == set()
    # "it" standing for no thing
    assert relations(
        "We moved the search-api to Kubernetes. It turns out Elasticsearch needs more memory."
    ) == {("search-api", "migrated_to", "Kubernetes")}
    assert opening_pronoun("It was great to see Grafana 11 land.") is None
    assert opening_pronoun("It seems that Bob prefers RabbitMQ.") is None
    # a place is no "it" that uses things; a sentence between breaks the chain
    assert relations("I moved to Berlin. It is lovely and I work at Spotify now.") == {
        ("the user", "lives_in", "Berlin"),
        ("the user", "works_at", "Spotify"),
    }
    assert relations("The auth-service is fine. Nothing else. It uses Redis.") == set()
    # a pronoun's name gets no co-mention edges, only what the sentence states
    said = extract("We rolled out the gateway-api. It ships alongside Envoy and Istio.")
    assert not any(r.head == "gateway-api" and not r.stated for r in said.relations)


def test_spoken_out_reads_an_opening_contraction_only() -> None:
    assert spoken_out("It's written in Go.") == "It is written in Go."
    assert spoken_out("And she's at Zalando now.") == "And she is at Zalando now."
    assert spoken_out("Its config lives in etcd.") == "Its config lives in etcd."
    assert spoken_out("Alice's team owns it.") == "Alice's team owns it."


def test_a_turn_with_a_pronoun_links_the_graph_for_a_chained_question(api: MemoryAPI) -> None:
    turns = [
        "I'm setting up the new payments-api. It depends on the ledger-service.",
        "Sure, let's map its dependencies.",
        "The ledger-service stores its data in CockroachDB.",
    ]
    for i, said in enumerate(turns):
        speaker = "assistant" if i == 1 else "user"
        unwrap(api.ingest_turn(speaker, said, session_id="s1", message_id=f"m{i}"))
    path = unwrap(api.graph_shortest_path("payments-api", "CockroachDB"))
    assert [p["name"] for p in path] == ["payments-api", "ledger-service", "CockroachDB"]
    assert [p["via"]["relation"] for p in path[1:]] == ["depends_on", "uses"]
    answer = unwrap(api.recall("Where does the service that payments-api depends on keep data?"))
    assert answer[0]["content"] == f"user: {turns[2]}"
    assert answer[0]["graph_path"] == (
        "payments-api -depends_on-> ledger-service -uses-> CockroachDB"
    )

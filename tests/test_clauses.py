"""Clauses inside a sentence: a negated verb, a clause closing the sentence, a second
clause about the subject (text/extract.py, text/clauses.py)."""

from __future__ import annotations

from hermes_memory.text.clauses import between, chosen_over, words_between
from hermes_memory.text.extract import extract
from hermes_memory.text.mentions import find_mentions
from hermes_memory.text.reading import Claim, Extraction


def triples(found: Extraction) -> set[tuple[str, str, str]]:
    return {(r.head, r.type, r.tail) for r in found.relations}


def relations(text: str) -> set[tuple[str, str, str]]:
    return triples(extract(text))


def test_a_negated_verb_states_no_relation() -> None:
    assert relations("The platform team won't run Redis anymore.") == set()
    assert relations("The billing-service doesn't call the ledger-service.") == set()
    assert relations("The search-api can't use Elasticsearch 8.") == set()
    assert relations("The billing-service calls the ledger-service.") == {
        ("billing-service", "depends_on", "ledger-service")
    }


def test_a_clause_with_its_own_subject_that_closes_the_sentence() -> None:
    assert relations(
        "The ranking model is served by the model-gateway, which Fatima maintains."
    ) == {("Fatima", "works_on", "model-gateway")}
    # the same clause set off by commas inside the sentence, as before
    assert ("Alice", "owns", "billing-service") in relations(
        "The billing-service, which Alice owns, uses Stripe."
    )


def test_a_second_clause_about_the_subject() -> None:
    assert relations("The auth-service is a Flask app and it talks to the ledger-service.") == {
        ("auth-service", "uses", "Flask"),
        ("auth-service", "depends_on", "ledger-service"),
    }
    # "reads user events from": up to two words between the verb and "from"
    assert ("recommendations-service", "depends_on", "Kafka") in relations(
        "The recommendations-service reads user events from Kafka."
    )


def test_the_words_between_two_names() -> None:
    sentence = "The payments-api now depends on the ledger-service 2.1 since last March."
    a, b = find_mentions(sentence)[:2]
    assert between(sentence, a, b) == "depends on"
    assert words_between(sentence, b.end, len(sentence)) == "since ."


def test_a_name_led_by_an_acronym_is_a_product() -> None:
    for tool in ("MLflow", "XGBoost", "SQLAlchemy", "HAProxy", "APScheduler"):
        found = extract(f"The ingest-service uses {tool} now.")
        assert found.entities.get(tool) == "tech", tool
        assert ("ingest-service", "uses", tool) in triples(found)
    for word in ("RESTful", "SSHing"):  # an acronym with an English ending is a word
        assert word not in extract(f"The ingest-service is {word} now.").entities


def test_the_subjects_next_verb_after_the_rest_of_its_clause() -> None:
    assert relations(
        "The ingestion-job pulls orders from the Shopify API every hour and writes them to S3."
    ) >= {("ingestion-job", "depends_on", "Shopify"), ("ingestion-job", "uses", "S3")}
    # The same after an opening "it" that stands for the job.
    assert ("ingestion-job", "uses", "S3") in relations(
        "I'm working on the ingestion-job. It pulls orders from Shopify every hour and "
        "writes them to S3."
    )
    # A next verb whose subject is another name stays that name's.
    assert ("Bob", "works_on", "billing-service") in relations(
        "The auth-service calls Stripe for payments and Bob maintains the billing-service."
    )


def test_a_lists_next_item_takes_no_relation_from_the_words_of_the_one_before() -> None:
    assert relations("We use Postgres in production and Redis for caching.") == set()
    # A list after the subject's own verb keeps it.
    # (a version written with a "v" breaks no list; Socket.io is named by its address)
    assert relations("I'm using Socket.io v4.6.1 and Express v4.18.2.") == {
        ("the user", "uses", "Socket.io"),
        ("the user", "uses", "Express"),
    }


def test_a_teams_members() -> None:
    assert relations("The platform team includes Omar and Lena.") >= {
        ("Omar", "part_of", "platform"),
        ("Lena", "part_of", "platform"),
    }
    assert ("Priya", "part_of", "data") in relations("The data team is Priya.")
    # Not a team: no members ("The dashboard is Grafana" names a tool).
    assert relations("The dashboard is Grafana.") == set()


def test_a_preposition_said_again_for_the_next_item() -> None:
    said = "checkout-service depends on inventory-api and on the pricing-engine."
    assert relations(said) == {
        ("checkout-service", "depends_on", "inventory-api"),
        ("checkout-service", "depends_on", "pricing-engine"),
    }
    assert relations("Ana works on the billing-service and on the search-api.") == {
        ("Ana", "works_on", "billing-service"),
        ("Ana", "works_on", "search-api"),
    }


def test_the_speakers_use_of_a_list_is_claimed_for_each_item() -> None:
    def ours(text: str) -> set[tuple[str, str]]:
        return {(c.predicate, c.object) for c in extract(text).claims if c.subject is None}

    said = "We use Prometheus and Grafana for monitoring, and PagerDuty for alerts."
    assert ours(said) == {("uses", "Prometheus"), ("uses", "Grafana"), ("uses", "PagerDuty")}
    assert ours("Our stack is Django, Celery and Redis.") == {
        ("uses", "Django"),
        ("uses", "Celery"),
        ("uses", "Redis"),
    }
    assert ours("We run forty services on Kubernetes, deployed with ArgoCD.") == {
        ("uses", "Kubernetes"),
        ("uses", "ArgoCD"),
    }
    assert ours("We use Slack and I talk to Maria daily.") == {("uses", "Slack")}
    # a place said with its region is one home
    assert ours("I'm from Davistown, Palau.") == {("lives_in", "Davistown")}


def test_joining_a_team_at_a_company_is_working_there() -> None:
    assert relations("I just joined the platform team at Northwind.") == {
        ("the user", "part_of", "platform"),
        ("the user", "works_at", "Northwind"),
    }
    assert ("Ana", "works_at", "Globex") in relations("Ana leads the data team at Globex.")


def test_what_an_opening_condition_supposes_is_no_relation() -> None:
    assert relations("If I met Michael, I'd ask him about his career.") == set()
    assert relations("If the api uses Redis, we should cache more.") == set()
    assert relations("If I go with the Galaxy S23 Ultra, I'll need a case.") == set()
    # after the condition, the sentence states again
    said = "If it rains, Ana works on the billing-service."
    assert relations(said) == {("Ana", "works_on", "billing-service")}
    assert relations("I met Michael at the library.") == {("the user", "knows", "Michael")}


def test_a_team_members_verb_is_the_members() -> None:
    said = "Ravi Menon from the data team will handle the data migration for inventory-api."
    assert relations(said) == {
        ("Ravi Menon", "part_of", "data"),
        ("Ravi Menon", "works_on", "inventory-api"),
    }
    assert ("Ana", "owns", "billing-service") in relations(
        "Ana from the infra team owns the billing-service."
    )


def test_moving_back_to_a_place_is_living_there() -> None:
    assert ("the user", "lives_in", "Lisbon") in relations("I moved back to Lisbon in August.")
    assert relations("Mia moved back to Milan in June.") == {("Mia", "lives_in", "Milan")}


def test_a_marriage_and_a_relative_named_after_a_possessive_are_stated() -> None:
    assert relations("Anika is married to Tom.") == {("Anika", "knows", "Tom")}
    assert relations("Kenji's daughter Emi started school.") == {("Kenji", "knows", "Emi")}
    stated = {
        (r.head, r.tail) for r in extract("Bea's partner Jules is a nurse.").relations if r.stated
    }
    assert stated == {("Bea", "Jules")}
    # what someone's team does is the team's, still
    assert relations("Kofi's team maintains the ledger-service.") == set()


def test_a_relative_named_after_and_is_stated() -> None:
    found = extract("Elif and her brother Can run a bakery in Izmir.").relations
    assert [(r.head, r.type, r.tail, r.stated) for r in found if r.type == "knows"] == [
        ("Elif", "knows", "Can", True)
    ]


def test_whom_one_has_at_a_body_works_there() -> None:
    said = "Our accountant at Deloitte is Peter Novak."
    assert relations(said) == {("Peter Novak", "works_at", "Deloitte")}


def test_a_role_at_a_service_named_by_its_address_is_work_at_a_company() -> None:
    assert relations("I'm a data engineer at Booking.com.") == {
        ("the user", "works_at", "Booking.com")
    }
    assert extract("I'm a data engineer at Booking.com.").entities["Booking.com"] == "org"


def test_a_clause_after_because_has_its_own_subject() -> None:
    said = "We postponed the Kafka migration to Q2 because Omar is on leave."
    assert relations(said) == set()
    assert extract(said).entities["Omar"] == "person"
    assert relations("Bob uses Kafka because it scales.") == {("Bob", "uses", "Kafka")}


def test_what_a_service_works_through_it_uses() -> None:
    said = "The notification-service sends pushes through Firebase."
    assert relations(said) == {("notification-service", "uses", "Firebase")}
    assert relations("The billing-api charges cards via Stripe.") == {
        ("billing-api", "uses", "Stripe")
    }
    # a person going through something does not use it
    assert relations("Alice went through the Kafka docs.") == set()


def test_what_a_choice_is_for_is_the_chosen_ones() -> None:
    # "X over Y for Z": Z uses X; the one turned down states nothing of Z.
    for text in (
        "We chose Postgres over MongoDB for the orders database.",
        "We picked Postgres instead of MongoDB for the orders database.",
    ):
        assert relations(text) == {("orders", "uses", "PostgreSQL")}
    assert relations("We went with Redis rather than Memcached for the session cache.") == {
        ("session", "uses", "Redis")
    }
    chose = extract("Alice chose Terraform over Pulumi for the infra repo.")
    assert chose.entities["Alice"] == "person"  # "chose" is what a person does
    assert triples(chose) == {("infra", "uses", "Terraform")}
    # A choice said as it is made is ours; "over" without a verb of choosing carries.
    assert Claim(None, "uses", "Redis") in extract("We went with Redis over Memcached.").claims
    assert Claim(None, "uses", "PyMuPDF") in extract("I've chosen PyMuPDF for parsing.").claims
    assert chosen_over("We use gRPC over HTTP/2.", find_mentions("We use gRPC over HTTP/2.")) == {}


def test_a_lead_in_before_i_keeps_the_user_the_subject_of_each_verb() -> None:
    for lead in ("Remember that", "Please note that", "Btw,", "Just so you know,", "FYI"):
        assert relations(f"{lead} I live in Porto and work for Acme Corp.") == {
            ("the user", "lives_in", "Porto"),
            ("the user", "works_at", "Acme Corp"),
        }
    for line in ("Fyi, the api uses Redis.", "Tbh, I prefer Vim.", "Imo, Vim is better."):
        assert {n for n, t in extract(line).entities.items() if t == "person"} <= {"the user"}
    # Someone else's words before the "I" are no lead-in.
    assert ("the user", "works_at", "Acme Corp") not in relations(
        "Dana said that I live in Porto and work for Acme Corp."
    )


def test_being_at_a_company_is_working_there_unless_said_of_the_moment() -> None:
    found = extract("I used to work at Google but now I'm at Anthropic.")
    assert triples(found) == {("the user", "works_at", "Anthropic")}
    assert Claim(None, "left", "Google") in found.claims
    assert relations("I'm at Starbucks right now.") == set()
    assert relations("I'm at Starbucks for a coffee with Dana.") == set()


def test_being_on_a_tool_runs_it_and_being_on_a_project_works_on_it() -> None:
    assert relations("I'm fully on macOS now.") == {("the user", "uses", "macOS")}
    assert relations("Priya is on the billing-service.") == {
        ("Priya", "works_on", "billing-service")
    }
    assert ("Liam", "works_on", "Kafka") in relations("Liam is working on the Kafka upgrade.")
    assert ("Hana", "works_on", "mobile-app") in relations("Hana is the new PM for the mobile-app.")


def test_a_tools_thing_moved_onto_another_tool_is_a_migration() -> None:
    moved = extract("We moved our Slack workspace to Discord.")
    assert moved.relations == []  # Slack uses nothing
    assert moved.claims == [
        Claim(None, "migrated_from", "Slack"),
        Claim(None, "migrated_to", "Discord"),
    ]
    assert extract("I moved my notes to Obsidian.").entities == {"Obsidian": "tech"}
    assert extract("I moved my family to Denver.").entities == {"Denver": "place"}


def test_a_groups_people_in_brackets_are_its_members_and_it_does_what_follows() -> None:
    assert relations("The frontend team (Ines and Paulo) owns the design-system repo.") == {
        ("Ines", "part_of", "frontend"),
        ("Paulo", "part_of", "frontend"),
        ("frontend", "owns", "design-system"),
        ("Ines", "knows", "Paulo"),
    }
    found = extract("The data team (Priya, Mei and Ravi) maintains the Airflow DAGs.")
    assert {n for n, t in found.entities.items() if t == "person"} == {"Priya", "Mei", "Ravi"}
    # Brackets after something other than a group hold no members.
    assert not any(
        r.type == "part_of" for r in extract("The billing-service (Python) calls Stripe.").relations
    )


def test_whom_a_holder_replaced_as_owner_is_a_person() -> None:
    found = extract("Priya replaced Bob as the owner of the billing-service.")
    assert found.entities["Bob"] == "person"
    assert triples(found) == {("Priya", "owns", "billing-service")}


def test_a_compound_adjective_or_a_kind_of_stack_names_no_component() -> None:
    for text in ("The real-time dashboard uses Kafka.", "My go-to stack is FastAPI and React."):
        assert {t for t in extract(text).entities.values()} == {"tech"}, text
    assert extract("Our tech stack includes Go and Kafka.").entities == {
        "Go": "tech",
        "Kafka": "tech",
    }
    # ... while a domain's compound still does, and a compound before another word.
    assert extract("The e-commerce site uses Stripe.").entities["e-commerce site"] == "project"
    assert "real-time chat app" in extract("I'm working on my real-time chat app.").entities


def test_the_tools_of_ones_own_stack_are_each_used() -> None:
    said = extract("My stack is FastAPI, Postgres and React.").claims
    assert [c for c in said if c.predicate == "uses"] == [
        Claim(None, "uses", "FastAPI"),
        Claim(None, "uses", "PostgreSQL"),
        Claim(None, "uses", "React"),
    ]
    assert not any(c.predicate == "uses" for c in extract("My stack was Rails and MySQL.").claims)


def test_where_my_relative_works_is_theirs_and_where_my_team_works_is_mine() -> None:
    for text in ("My sister works at Pfizer.", "My older brother works for Google."):
        assert relations(text) == set(), text
    assert relations("My manager works at Pfizer.") == set()
    assert relations("My team works at Pfizer.") == {("the user", "works_at", "Pfizer")}
    assert relations("My sister Ana works at Pfizer.") == {
        ("the user", "knows", "Ana"),
        ("Ana", "works_at", "Pfizer"),
    }


def test_what_a_clause_only_considers_states_nothing_yet() -> None:
    for text in (
        "I'm thinking of moving to Berlin.",
        "I may switch to Neovim.",
        "We could use Redis for the cache.",
        "I wonder if we should migrate to Postgres.",
        "I'm considering using Workbox for caching.",
        "We're planning to move the api from Heroku to Fly.io.",
    ):
        found = extract(text)
        assert found.relations == [] and found.claims == [], text
    # What the clause before the hedge says still holds, and so does a relative.
    assert relations("We use Redis, but we might add Kafka.") == set()
    assert Claim(None, "uses", "Redis") in extract("We use Redis, but we might add Kafka.").claims
    assert ("the user", "knows", "Karen") in relations("I'm considering my mom Karen's advice.")
    # A new subject after "and" opens a clause of its own, not "and" before an object.
    assert ("Jamie", "prefers", "Samsung Galaxy S23 Ultra") in relations(
        "I'm considering a new phone and Jamie recommended the Samsung Galaxy S23 Ultra."
    )
    assert relations("I'm planning to use MongoDB and Mongoose for the database.") == set()
    # A request, "given that", and "May" the month hedge nothing.
    assert ("Selenium", "uses", "pytest") in relations(
        "I was wondering if you could help me run my Selenium tests using Pytest."
    )
    assert ("the user", "uses", "React") in relations("Considering I'm using React, what next?")
    assert relations("I moved to Berlin in May.") == {("the user", "lives_in", "Berlin")}
    # ... and the month before a hedge hides it not.
    found = extract("In May we might move the api from Heroku to Fly.io.")
    assert found.relations == [] and found.claims == []


def test_what_we_used_to_do_ends_it_and_where_i_used_to_live_is_no_home() -> None:
    assert extract("We used to use Jenkins.").claims == [Claim(None, "stopped_using", "Jenkins")]
    assert extract("I used to live in Madrid.").claims == []
    moved = extract("I used to live in Madrid, but I moved to Lisbon in 2023.")
    assert moved.claims == [Claim(None, "lives_in", "Lisbon")]


def test_a_part_of_ones_own_stack_said_to_be_a_name_is_a_tool() -> None:
    for text, part in (
        ("Our database is Cassandra.", "database"),
        ("The API gateway is Kong.", "gateway"),
        ("My editor is Helix.", "editor"),
    ):
        found = extract(text)
        tool = text.split(" is ")[1].rstrip(".")
        assert found.entities == {tool: "tech"}, text
        assert Claim(None, f"uses@{part}", tool) in found.claims, text


def test_what_a_person_does_to_me_ties_them_to_the_user() -> None:
    assert relations("Priya manages me.") == {("the user", "reports_to", "Priya")}
    assert relations("Sara reports to me.") == {("Sara", "reports_to", "the user")}
    assert relations("Nikhil mentors me on system design.") == {("the user", "knows", "Nikhil")}
    assert ("the user", "knows", "Ana") in relations("Ana told me that Redis is slow.")
    # ... and whom they introduced the user to
    assert {("the user", "knows", "Tom"), ("the user", "knows", "Lee")} <= relations(
        "Tom introduced me to Dr. Lee."
    )
    # Not a tie now, not yet, nor anything done to someone else.
    for text in (
        "Priya no longer manages me.",
        "Maybe Priya manages me now.",
        "Priya manages Tom.",
    ):
        assert ("the user", "reports_to", "Priya") not in relations(text), text
    # A named speaker's "me" is the speaker, in the claim as in the relation.
    found = extract("Sara reports to me.", me="Caroline")
    assert found.relations[0].tail == "Caroline"
    assert Claim("Sara", "reports_to", "Caroline") in found.claims


def test_what_we_are_on_we_run() -> None:
    for text, tool in (
        ("We're on Postgres 15 for the main database.", "PostgreSQL"),
        ("We are still on Python 3.9.", "Python"),
    ):
        assert Claim(None, "uses", tool) in extract(text).claims, text
    assert extract("We're on track for the launch.").claims == []


def test_where_one_camps_or_skis_is_a_place() -> None:
    for text, name in (
        ("We went camping at Yosemite last weekend.", "Yosemite"),
        ("I went skiing at Whistler.", "Whistler"),
    ):
        assert [(m.name, m.type) for m in extract(text).mentions] == [(name, "place")], text
    assert ("Chipotle", "org") in [(m.name, m.type) for m in extract("Lunch at Chipotle.").mentions]


def test_a_move_right_after_dropping_a_tool_is_onto_a_tool() -> None:
    found = extract("I no longer use VS Code; I moved to Zed.")
    assert {(r.head, r.type, r.tail) for r in found.relations} == {("the user", "uses", "Zed")}
    # the user is nobody's stopped tool
    assert Claim(None, "stopped_using", "the user") not in found.claims
    assert relations("I no longer use VS Code; I moved to Porto.") == {
        ("the user", "lives_in", "Porto")
    }
    assert (
        Claim(None, "stopped_using", "the user")
        not in extract("I stopped using Vim and I moved to Lisbon.").claims
    )


def test_a_clause_opened_by_a_pronoun_is_not_the_names_before_it() -> None:
    assert relations("We don't use Kubernetes for the batch jobs; they run on AWS Batch.") == set()
    assert ("billing-service", "uses", "PostgreSQL") not in relations(
        "Alice owns the billing-service, and she uses Postgres."
    )


def test_a_move_recommended_is_a_liking_not_a_use() -> None:
    assert ("Alex", "prefers", "Terraform Cloud") in relations(
        "Alex recommended switching to Terraform Cloud."
    )
    assert ("Alex", "uses", "Terraform Cloud") not in relations(
        "Alex recommended switching to Terraform Cloud."
    )


def test_what_a_part_of_our_stack_runs_on_is_ours() -> None:
    claims = extract("Our CI runs on GitHub Actions.").claims
    assert Claim(None, "uses", "GitHub Actions") in claims
    assert Claim(None, "uses@ci", "GitHub Actions") in claims
    assert Claim(None, "uses@database", "RDS") in extract("The database is hosted on RDS.").claims


def test_where_one_is_going_is_a_place_and_who_goes_along_no_tie_of_its() -> None:
    found = extract("I'm going to Yosemite with Mark next weekend.")
    assert ("Yosemite", "place") in [(m.name, m.type) for m in found.mentions]
    assert found.relations == []
    # a step in an app is no trip
    assert ("Settings", "place") not in [
        (m.name, m.type) for m in extract("Go to Settings and turn it off.").mentions
    ]


def test_what_one_would_rather_use_is_a_liking() -> None:
    assert relations("I'd rather use Linear.") == {("the user", "prefers", "Linear")}


def test_the_language_code_is_written_in_is_a_tool_it_uses() -> None:
    assert ("notification-service", "uses", "Elixir") in relations(
        "The notification-service is written in Elixir."
    )
    kinds = {
        text: [(m.name, m.type) for m in extract(text).mentions]
        for text in ("The service is written in Zig.", "The letter was written in Spanish.")
    }
    assert kinds["The service is written in Zig."] == [("Zig", "tech")]
    assert kinds["The letter was written in Spanish."] == [("Spanish", "concept")]


def test_what_is_dropped_is_stopped_and_what_it_was_dropped_for_is_used() -> None:
    claims = extract("I stopped using Slack, Zoom and Teams.").claims
    assert {c.object for c in claims if c.predicate == "stopped_using"} == {
        "Slack", "Zoom", "Teams",
    }  # fmt: skip
    # whoever stopped is named before the verb: not the tool before the next one
    claims = extract("Priya stopped using Vim and Emacs.").claims
    assert Claim("Vim", "stopped_using", "Emacs") not in claims
    assert Claim("Priya", "stopped_using", "Emacs") in claims
    # what a tool is dropped for is the new one, not a tool dropped too
    claims = extract("We dropped Redux for Zustand.").claims
    assert Claim(None, "uses", "Zustand") in claims
    assert Claim(None, "stopped_using", "Zustand") not in claims
    assert (
        Claim(None, "uses", "GitHub Actions")
        in extract("We dropped Jenkins and CircleCI for GitHub Actions.").claims
    )


def test_a_tool_replaced_by_another_and_a_job_started_at() -> None:
    claims = extract("Kafka was replaced by Redpanda in the ingest path.").claims
    assert {Claim(None, "migrated_from", "Kafka"), Claim(None, "migrated_to", "Redpanda")} <= set(
        claims
    )
    assert ("the user", "works_at", "Figma") in relations(
        "I left Spotify in June and started at Figma in July."
    )
    assert relations("The meeting started at noon.") == set()
    claims = extract("We switched the editor back to Vim.").claims
    assert Claim(None, "changed@editor", "Vim") in claims


def test_a_tool_ditched_given_up_or_done_with_is_stopped() -> None:
    for text, tool in (
        ("We're done with AWS; everything runs on GCP now.", "AWS"),
        ("We ditched Jenkins last year.", "Jenkins"),
        ("I gave up on Notion.", "Notion"),
    ):
        found = extract(text)
        assert Claim(None, "stopped_using", tool) in found.claims, text
        assert not any(r.stated for r in found.relations), text  # "gave up on" works on nothing


def test_a_move_after_leaving_something_is_a_home_only_to_a_known_place() -> None:
    homes = {
        text: {c.object for c in extract(text).claims if c.predicate == "lives_in"}
        for text in (
            "I stopped using Twitter and moved to Mastodon.",
            "We dropped Heroku and moved to Render.",
            "I quit Twitter and moved to Mastodon.",
            "I left Acme and moved to Globex.",
            "I left Google and moved to Zurich.",
            "I no longer use VS Code; I moved to Porto.",
            "I left London and moved to Zug.",
            "I quit my job and moved to Zug.",
        )
    }
    assert homes == {
        # a use stopped: the move is onto a tool, whatever the stopped thing was typed
        "I stopped using Twitter and moved to Mastodon.": set(),
        "We dropped Heroku and moved to Render.": set(),
        # a body left: a town, the next employer or a platform; nothing says which
        "I quit Twitter and moved to Mastodon.": set(),
        "I left Acme and moved to Globex.": set(),
        # a known place, a place left, or no body named: a home
        "I left Google and moved to Zurich.": {"Zurich"},
        "I no longer use VS Code; I moved to Porto.": {"Porto"},
        "I left London and moved to Zug.": {"Zug"},
        "I quit my job and moved to Zug.": {"Zug"},
    }
    for text, tool in (
        ("I stopped using Twitter and moved to Mastodon.", "Mastodon"),
        ("We dropped Heroku and moved to Render.", "Render"),
    ):
        assert Claim(None, "uses", tool) in extract(text).claims, text


def test_our_move_between_providers_is_no_job_and_working_from_a_place_no_home() -> None:
    ours = set(extract("We moved from Heroku to Fly.io.").claims)
    assert {Claim(None, "migrated_from", "Heroku"), Claim(None, "uses", "Fly.io")} <= ours
    assert not any(c.predicate == "works_at" for c in ours)
    assert Claim(None, "works_at", "Meta") in extract("I moved from Google to Meta.").claims
    assert Claim(None, "lives_in", "Denver") in extract("We moved from Boston to Denver.").claims
    for text in ("I'm working from Madrid this week.", "I'm calling from Berlin."):
        assert not any(c.predicate == "lives_in" for c in extract(text).claims), text
    assert Claim(None, "lives_in", "Porto") in extract("I'm from Porto.").claims


def test_a_past_job_and_a_visit_to_a_companys_office_are_no_current_work() -> None:
    for text, left in (
        ("I worked at Google before Acme.", "Google"),
        ("Priya worked at Stripe before she joined us.", "Stripe"),
    ):
        claims = extract(text).claims
        assert not any(c.predicate == "works_at" for c in claims), text
        assert any(c.predicate == "left" and c.object == left for c in claims), text
    assert Claim(None, "works_at", "Google") in extract("I've worked at Google since 2019.").claims
    assert extract("I'm at Stripe's office today.").claims == []
    assert Claim(None, "works_at", "Stripe") in extract("I'm at Stripe.").claims

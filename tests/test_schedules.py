"""What a plan is about, and whether it moves one (text/schedules.py)."""

from __future__ import annotations

import pytest

from hermes_memory.text.schedules import moves_plan, planned_thing, replaced_plan


@pytest.mark.parametrize(
    ("sentence", "thing", "moves"),
    [
        ("The beta launch on TestFlight is planned for December 14th.",
         {"beta", "launch", "testflight"}, False),
        ("Change of plan: the beta moves to January 10th.", {"beta"}, True),
        ("Heads up: the code freeze has been pushed to December 2nd.", {"code", "freeze"}, True),
        ("The release got postponed until June because of the audit.", {"release"}, True),
        ("The sprint review is now on Friday.", {"sprint", "review"}, True),
        ("I have a dentist appointment on Thursday at 3pm.", {"dentist", "appointment"}, False),
        ("It moved to Friday.", set(), True),  # which plan is the chat's to say
        ("Maya called: the wedding moved to June 21st.", {"maya", "wedding"}, True),
        ("My sister Maya is getting married on June 14th.", {"sister", "maya"}, False),
        ("We moved on to the next step by Friday.", set(), False),
        ("The CMO wants the attribution dashboard in Looker by October 20th.",
         {"attribution", "dashboard", "looker"}, False),
        ("The dashboard deadline slipped to November 3rd.", {"dashboard", "deadline"}, True),
        ("Our release slid to the 28th.", {"release"}, True),
        # who moves a plan is not the plan: the thing moved is
        ("Marcus moved the beta deadline to December 4th because the vendor is late.",
         {"beta", "deadline"}, True),
        ("We pushed the launch back to June.", {"launch"}, True),
        ("We pushed it to Friday.", set(), True),
        ("We shifted the demo from Tuesday to Thursday.", {"demo"}, True),
        ("I signed up for the Valencia half marathon on December 6th.",
         {"valencia", "half", "marathon"}, False),
        # each clause's subject: the paper and its deadline
        ("The paper is going to ECCV workshops, the submission deadline is October 10th.",
         {"paper", "submission", "deadline"}, False),
        ("The beta launch, on TestFlight, is planned for December 14th.",
         {"beta", "launch", "testflight"}, False),
        ("Bad news: the workshop deadline got extended to October 24th.",
         {"workshop", "deadline"}, True),
        ("They extended the deadline to October 24th.", {"deadline"}, True),
        # wanted by an event of its own, which a later move names
        ("Dr. Okafor wants it under 48 by my review on October 14th.",
         {"under", "48", "review"}, False),
        # an occasion wanted on a day; a need "on" something else wants no occasion
        ("Hannah wants a demo for the retention stakeholders on October 14th.",
         {"demo"}, False),
        ("Now, I need to focus on the QA sign-off scheduled for April 19, 2024.",
         {"now", "need", "focus", "qa", "sign-off"}, False),
    ],
)  # fmt: skip
def test_a_plan_names_its_thing_and_says_whether_it_moves(
    sentence: str, thing: set[str], moves: bool
) -> None:
    assert planned_thing(sentence) == thing
    assert moves_plan(sentence) is moves


@pytest.mark.parametrize(
    ("sentence", "dropped"),
    [
        ("I decided to drop the Valencia half and do the Rotterdam 10k on December 13th "
         "instead, the shin still feels fragile.", {"valencia", "half"}),
        ("We're cancelling the offsite and doing a team dinner instead.", {"offsite"}),
        ("Skip the standup, and do async updates instead.", {"standup"}),
        ("I dropped the ball and it broke.", set()),  # nothing instead: no plan dropped
        ("Let's drop the offsite.", set()),
    ],
)  # fmt: skip
def test_a_plan_dropped_for_another_names_what_it_drops(sentence: str, dropped: set[str]) -> None:
    assert replaced_plan(sentence) == dropped

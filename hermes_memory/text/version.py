"""The version of what reading text yields (entities, relations, claims, dates), and
what each version changed. A change to what extraction finds bumps it: relations and
entities record the version that read them, and the next consolidate reads a store's
text again (api/rederive.py), as are the claims stored for supersession
(api/fact_ops.py)."""

from __future__ import annotations

# 3: the user's own entity, faceted uses and changes of value (text/changes.py), roles,
# passives. 4: a name before an adverb and its verb ("Bob now owns ..."), a change of
# hands (took_over).
# 5: words in capitals that code, logs and chat use are no names ("FROM", "ERROR").
# 6: markdown read as such (fenced code skipped; headings, bold labels, list markers and
# discourse adverbs open no name: "### Step 1: Ensure ...", "However, ...").
# 7: steps, products and terms are no people (text/lexicon.py): an instruction's verb
# opening a line, title-case lines, HTTP reason phrases, model numbers ("Pixel 6 Pro" is
# a tool), abstract nouns, names after an article and "<X> of <Y>" are concepts, tools
# by their use or a product's head ("Task Scheduler"), protocol acronyms known; more
# places, and a fronted home ("As someone living in Porto, I ...") is the user's.
# 8: a sentence's capitalised first word is no name when the writer, in this text or the
# rest of the memory, writes it in lower case more often than capitalised inside a
# sentence ("Dance is my life" beside "I love to dance"; text/casing.py); languages are
# concepts; an opening gerund is no part of the name after it ("Using Docker").
# 9: a product's further words are its name ("MacBook Air"), a name in backticks or
# before "class" is code, operating systems and browsers are known tools.
# 10: names in accented Latin letters ("José Álvarez"); a maker's product ("Grafana
# Cloud") and a name that opens with a place ("Paris Hilton") are one name; companies
# people name in passing are known; "X is my brother", "my manager X", "X and I"; a
# pronoun's clause is its antecedent's ("... and he lives in Denver"), "my mom lives in"
# is not the user's, "Kofi's team maintains" not Kofi's; "Dune by Frank Herbert" is a work;
# "moved from X to Y" and "switched from X to Y" are the new home and tool; what software
# is built with is a tool; a list's further items carry its relation.
# 11: "I work at Datadog" (a company named by its product), "a backend engineer" is no
# component, "Sarah from accounting" opens a sentence as a name, an office's city is no
# home, pets are no people, "Nina and her husband Raj moved" both moved, "host the site
# on Netlify" is a use, developer tools written in lower case are known ("dbt", "pytest"),
# a title in quotes is one concept ("Charlotte's Web", text/titles.py).
# 12: a change log's line opens with what was done, not who ("- Added Sentry", "Removed
# unused imports", "Refactored auth module"); Postman and Wireshark are known tools.
# 13: a field's type in code is no name ("token:String"), "Article 17" is a numbered
# part, and a past tense after a label's colon opens a clause ("Fixes: Added ..."); CSS
# Grid, Tailwind CSS, Dockerfile and Let's Encrypt are known.
# 14: a describing adjective names no component ("my lightweight API", "a custom service").
# 15: a light verb's gerund opens a clause ("Using Morgan for logs"), a capitalised label
# before its colon whose last word the writer also writes in lower case names nothing
# ("Key Features:"), a capitalised word before "header" or "flag" is code ("Secure").
# 16: a table's header row gives no guessed names (column names), and a text is read
# by its opening (READ_CHARS, MAX_SENTENCES).
# 17: a table's cell opens like a line ("| Test joining a room |": no name; "| Bob |" one).
# 18: a clause set off by commas with its own subject ("X, which Alice owns, uses Y":
# Alice owns X, X uses Y), a move "off X onto Y", and the tool moved to from a tool;
# "St. Louis", "St Mary's Hospital", "Mt. Hood" are one name ("Dr." ends no sentence);
# "dropped X in favour of Y": the subject's use of Y, not X's; "a component in React
# that fetches ...": the clause is the component's, not React's; "the frontend is a
# React app served by Nginx": the frontend is served; "moving the risk-engine to
# Kotlin" is a migration; suggesting a tool is no use of it.
# 19: a sentence opening with "it", "she" or "he" states relations of the name before
# (text/anaphora.py): "I'm setting up the payments-api. It depends on the
# ledger-service." relates the payments-api; only an antecedent with no rival counts.
# 20: a negated verb states nothing ("won't run Redis", "doesn't call X"); a clause with
# its own subject may close the sentence ("the model-gateway, which Fatima maintains.");
# "X is a Flask app and it talks to Y" is X's; "reads user events from Kafka"; "Today
# I ..." has the speaker as subject for an "it" after it; a name led by an acronym is
# a product ("MLflow", "XGBoost", "SQLAlchemy", "HAProxy"; not "RESTful").
# 21: a day of a month without its year ("January 15th", "the 3rd of Dec") and a weekend
# ("next weekend") are dates, resolved by the sentence's tense; a capitalised word before
# a label's colon is no name ("Bad news:"); a name weighed against a tool ("Parquet over
# CSV"), stored as a format ("as Parquet"), used to work on data ("query it with
# Athena") or an HTTP header's ("Retry-After") is a tool; a subject's next verb after
# the rest of its clause ("pulls orders from X every hour and writes them to S3"); a
# list's next item takes no relation from the words of the one before ("Postgres in
# production and Redis"); "vs." ends no sentence; "Jan 15" is a date, not a name; who a
# person is to the user ("my brother Tomas") is kept as words that find them
# (text/relatives.py, tier2/roles.py); "the data team is Priya" and "the platform team
# includes Omar and Lena" are its members; "we need" is no past tense; "Nightly",
# "Weekly" open no name, and "Parquet format" is a tool.
# 22: "I've got a review on Friday" is to come ("got" after "have" is no past, nor "Got
# it, ..."); a choice said as it is made ("let's go with Expo",
# "we're sticking with Heroku") is our use of a tool; "..., so we're moving off Expo to a
# bare React Native project" is our move (not the name before it), onto the tool after
# the words of its kind.
# 23: what a thing is switched to is a tool, before "to" makes a place or a person of it
# ("let's switch to Zorblet", "switching the queue to SQS"); an acronym told to or heard
# from is a body ("sent it to AWS"), and flying or heading to a name goes to a place; a
# bare name owned ("on my Mac", "your Pixel") is a device, not a person; a guessed name
# opening with a tool the text names is its product ("Expo Go" beside "Expo"); "sent
# the report to Marta" is no reporting line, "read it on my Kindle" no work on it, "Zed
# for Rust work" no use by Rust; "to" says a tool uses another only as its next word but one.
# 24: a speaker's own stack is claimed by its parts ("the warehouse is Snowflake": the
# speaker's side uses it, as its warehouse; "we're moving the warehouse from Snowflake to
# BigQuery" changes that part's value, text/changes.stack_claims); "we'll ..." changes
# nothing yet.
# 25: a company's department said as a body that acts or is spoken to is one ("Finance
# says ...", "Legal wants ...", "I talked to Marketing"), no person.
# 26: number words and an assistant's acknowledgements are no names ("about forty
# services", "Understood, ..."), nor a verb in -ing after "is"/"we're" ("the team is
# adding cache versioning"), nor a word of an all-capital clause of SQL ("AS OF SYSTEM
# TIME"); a name before a release number is software ("Workbox 7.0.0"); "depends on X
# and on Y" relates Y too; the speaker's use of a list is a claim for each item ("We
# use Prometheus and Grafana for monitoring, and PagerDuty for alerts", "Our stack is
# Django, Celery and Redis"), and of a tool set off after it ("..., deployed with ArgoCD");
# "I joined the platform team at Northwind" is work there, and what "Ravi from the data
# team will handle ..." does is Ravi's ("handle ... for X": work on X); what an opening condition
# supposes states nothing ("If I met Michael, I'd ask him ..."). Dates: a business quarter
# ("by end of Q1", "next quarter") and a month by its name alone after a word of time
# ("we ship in March", "since May"), on the side of now the sentence's tense points to.
# 27: what a thing is moved off and onto is a tool ("we decided to move the backend
# from Firebase to Supabase": migrated from one, to the other; base forms "move",
# "switch" read as moves), unless a person moves or a known place is named; where a move
# starts is no home ("we moved back from Lisbon"); "I'm from Porto" is a place; a name
# before a service's part or cost ("the Supabase migration", "Firebase costs") is a
# tool; a name guessed in one sentence takes the tool or body its sure readings say,
# when they outweigh its guesses at a third each (a text means one thing by one name);
# an organisation after a bare "for" is a guess ("a gift for Sarah"); two mentions of
# one name relate nothing to itself. A list holds things of one kind ("Microsoft Project,
# Trello, Asana, or Google Sheets", "React Native + Expo": tools); a name given to a
# thing or a body is that thing's ("their member app, Tidewater", "their vendor,
# Mindbody,", "an app called Pennywise"), and the noun phrase before it no second
# mention; what is built or kept running is a project ("I'm building Tidewater"); "a
# contract with Harbor Fitness" is work for it. From a personal chat: "We live in
# Rotterdam" (or "we just moved to Lyon") is the user's home; the people who care for the
# user are known to them ("my physio Dr. Meijer", "my therapist Ana"); "he" after a
# comma is someone else ("I want to plan a dinner, he loves Ethiopian food": not the
# user's liking); "Bad news, ..." names nobody. Dates: a past commitment to what lies
# ahead ("I signed up for the half marathon on December 6th") reads the nearer day.
# 28: from a researcher's chat: "Prof." and "e.g." end no sentence ("My supervisor is
# Prof. Anneke Visser": she is whom the user reports to, "Prof" nobody); a name and its
# model number in one word is a tool ("ResNet-50", "Sentinel-2", "GPT-4"); "Weights &
# Biases" is one name; an acronym after "a" or "an" is a thing, no body ("an LSTM"), and
# one alone a guessed body, which a text's sure reading of it retypes;
# nationalities describe ("British spelling"), name nothing; a role held there is work
# there ("I'm a PhD student at TU Delft", "Anna is a designer at Figma"); a labmate is
# known; logging to a tool uses it. From a chat between friends: a teacher is known
# ("my teacher Inés"); a place of business is named by "called" ("a studio called
# Barro"); a pet named in the sentence after it is no person ("I adopted a cat. Her
# name is Mochi."); leaving for a place is no work for a body ("wants to leave for
# Rotterdam"); one switches tools, not homes ("I've switched from Scrivener to
# Ulysses": both tools); where one was born, raised or is originally from is no home;
# a role at a body is work there, not its management ("Marcus Bell is the head of
# product at Harbor Fitness"), and so is being someone's contact there ("My contact at
# Harbor is Marcus Bell"). The gazetteer knows 140 more cities ("Galway looks amazing"
# was a person).
# 29: from a platform engineer's chat: one works under whom one reports to ("on the SRE
# team under Dana Whitfield"), and who "will be my new manager" is so; a name weighed
# against a tool is a tool ("Grafana Tempo over Jaeger"); "pushed back to January"
# backs nothing. From a patient's chat: a role said in capitals is no name ("my GP, Dr.
# Okafor": the user knows Okafor, with or without the comma); a long sentence's every
# "my" is the user's, past its first two "I"s ("I'm 52, I live in Leeds with my wife
# Carol"); holidays are concepts ("Christmas" was a body). From friends' chat: a trip's
# return is no home ("I just got back from Lisbon"); a breed names a pet ("a beagle
# called Pepper"); a word of praise opening a line is no one ("Beautiful, they ...").
# From a baker's chat: "our accountant, Sofie Claes" is the user's; a place of business
# named by "called" with where it is between ("a bakery in Ghent called Bakkerij
# Mertens"); a supplier switched to is a body ("switching butter supplier to Corman").
# A person set off before a component's role owns it or works on it, alone ("Dana and
# Oskar, the route-planner owner").
# "My PhD supervisor, Dr. Smith, ...": set off by commas, still whom the user reports to.
# 30: from a data scientist's chat: "AI" closes a product's name ("train in Vertex AI
# notebooks" was a place "Vertex"), not a label's words ("Strong AI features"). From
# siblings' chat: a relative's title is no part of the name ("Aunt Lucia" is Lucia, as
# "Dr. Okafor" is Okafor).
# 31: a name keeps its particles ("Jan de Vries", "Ursula von der Leyen" were two people
# or a part of one); "do", "dos" and "das", English and German words too, only after a
# preposition of place ("at Quinta do Vale"), and never before a known name ("should Mark
# do React").
# 32: a family name with a capital inside is a name ("Sarah McKenzie" was only a product
# "McKenzie"; "Deirdre O'Brien" was "Brien"); a firm is named by its legal form or trade
# ("Van Dijk Logistics", "Baker McKenzie LLP" were people); a
# language's variety is no place ("answer in British English"); a plural possessive
# stays inside an institution's name ("St Thomas' Hospital"); moving back to a place is
# living there; a marriage, a relative named after a possessive ("Kenji's daughter Emi")
# or after "and" ("Elif and her brother Can") state that the two know each other; whom
# one has at a body works there ("Our accountant at Deloitte is Peter Novak"). A service
# named by its web address is a tool ("Socket.io", "Render.com", "Booking.com" were no
# names), and a company when one holds a role there ("I'm a data engineer at
# Booking.com"); a version written with a "v" breaks no list ("Socket.io v4.6.1 and
# Express v4.18.2"). The gazetteer knows 39 more platforms and tools of deployment, data
# and messaging ("Netlify", "Kibana", "Okta", "ClickHouse"; "Tableau" and "Looker" only
# in capitals); what a service works through or via it uses ("sends pushes through
# Firebase"); a clause after "because" (not "because of"), "although" or "unless" has
# its own subject ("the Kafka migration to Q2 because Omar is on leave" made Kafka use
# Omar).
# 33: a formula's subscripts are no components ("a_1", "x_2" were projects in 1,133 of
# BEAM's messages, "a_1" alone in 540); nor is a compound of a prefix, a single letter
# or a small word ("in-app", "x-axis", "step-by-step") or an adjective in -ing or -ed
# ("problem-solving", "lazy-loaded"). Reading is bounded tighter with nothing read
# differently: names are looked for in a sentence's first 1,000 tokens and in a message's
# first 128 found, and a repeated sentence is read once.
# 34: an instruction's verb is no component's name: after "to", "and" or "or", or opening
# a title-case label, with its object read past whole ("to reduce database load",
# "**Optimize Database Indexes**" were projects "reduce" and "Optimize"); nor is a word
# that says which one ("your actual database", "the official website", "additional
# services") or "operating" ("Operating System" was a project "Operating" in 145 BEAM
# messages).
# 35: a step addressed to someone names them ("Ask Priya to review it", "Remind Ana ...":
# "Tell Priya" and "Remind Ana" were people); a step opening a line in lower case is no
# component ("open Services and click ...", "free up ..."), but a subject is ("build
# pipeline failed"); a verb's -ing after a preposition ("by optimizing database
# queries") and a describing word ("another", "efficient", "an in-memory cache") name
# none; "Vertex AI Pipelines" is one product.
# 36: a step names the known name it takes ("Install Redis first", "Check Sentry for
# errors" named nothing; "Check Redis Configuration" names Redis alone); names written
# across a slash are listed together ("worked at IBM/Shopify", "moved from Oracle/Sun to
# Stripe", "migrated from MySQL/MariaDB to Postgres": MariaDB used Postgres); "Azure AI
# Search" is one product; "automatic", "automated" and "manual" say which one. Managed
# cloud services are tools ("runs on EKS" made EKS an organisation; "IAM Roles" is IAM),
# REST is a standard, and a preposition's object is no later verb's subject ("The pods
# run on EKS and pull from ECR": EKS depended on ECR). A formula's command names nothing
# ("\Delta", "\theta_i" were a concept and a component in 81 BEAM messages), and a
# sentence without two letters in a row is not tokenized (a formula's lines: 0.31 of the
# time). A work's name after what it is is a title ("the book Atomic Habits" was a
# person).
# 37: a means to an end uses nothing its end names ("Docker to deploy my Flask app",
# "Pillow to ensure compliance with Instagram", "a Docker container to deploy my
# Detector class" made Docker use Flask and Pillow use Instagram), unless the end is
# using or talking to it or shipping onto it ("redis-py to interact with my Redis
# server"); a library written for a language is not the language's ("the AWS SDK for
# Python" made Python use the SDK), nor is a call made from code in one ("a script in
# Python to call the SNS API") or what a project in one uses ("my Python project using
# mypy" made Python use mypy). A company is joined as well as worked at ("is joining
# Stripe", "joins Initech"), a person one joins for something, somewhere or with
# someone is none ("I joined Sarah for dinner" made Sarah a company the user worked
# at); two people with a time between them are no list ("I left Acme last year and I'm
# now joining Globex" made Acme work at Globex). "See" opens a step ("See API
# reference" was a component "See"). A tool in a component is its use ("JWT
# authentication in my backend" was JWT part_of backend); a verb of depending is a whole
# word ("specifically" held a "call", "consumer" a "consumes").
# 38: a workplace left is a body ("I left Acme", "resigned from Initech" made each a
# person) and a claim, "left", that ends working there ("I work at Initech" held on
# after "I resigned from Initech"); leaving one firm for another is working at the
# second ("I left Google for Meta" was a co-mention of the two firms). "Ana is no longer
# my manager" ends reporting to her, "Bob no longer owns X" his hold on X, and "Kenji
# handed X over to Lena" is Lena's hold (it was "X uses Lena", a tool), as is "Lena
# replaced Tom as the lead for X" (it was Tom's, and "Lena migrated_from Tom"); a promotion or
# a start at a firm is work there; a name before a negated verb or "no longer" is a name
# ("Priya isn't", "Bob no longer owns" named no one). A negated use or liking claims
# none ("We don't use Kafka" claimed its use, "I don't like Jira" a preference), or its
# end ("We don't use Kafka anymore": stopped_using; "I don't like Jira": dislikes). A
# web link's scheme names nothing ("running on http://localhost:5173" made the frontend
# use HTTP; 119 BEAM messages named HTTP or HTTPS only in a link).
# 39: a person is "in" a team by a verb of being or working ("I'm in the platform
# team"); an "in" after another word is that word's ("bottlenecks in my scheduling
# system" put the user part_of the scheduling system). A tool for sending or connecting
# to a thing is the act's ("connect to my MongoDB database using Mongoose" made MongoDB
# use Mongoose), and what something is used for is no use ("using the best approach for
# my NLP task" used NLP). "Like" after a noun is "such as" ("a message queue like
# RabbitMQ", "errors like ConnectionRefusedError" were preferences). A maker's former
# name stays in its products' names ("Facebook Graph API" was "Meta Graph"). Someone
# "from" a company works there ("Sam from Acme Corp" was part_of it), and a sentence's
# first word before "from" and a company is a person when only a person does what
# follows ("Lena from Stripe called me" named Stripe alone). A job lost or left ends
# the work there and states none ("I lost my job at Door Dash" stated works_at);
# joining is work only at the name joined ("joined a new LGBTQ activist group" was work
# at LGBTQ), and "from" is a home only right before its name ("the idea from that trip
# to England" was a home in England). Lower- and mixed-case libraries of data and
# machine learning are known (spaCy, NLTK, XGBoost, SQLAlchemy, PyMuPDF, Hugging Face).
# A liking's object cut short is none ("I love running my own studio" preferred
# "running", "I hate not being on the court" disliked "not being"), nor is a verb after
# a liking that closed a clause ("the things I love makes writing even more fun"). An
# error's class is no use ("catch ValueError exceptions" used ValueError), nor is a part
# of data in what holds it ("the (user_id, restaurant_id) columns in my PostgreSQL
# database"). A business acronym in capitals names nothing ("our 300ms SLA", "our MVP"
# were organisations, and "using Redis caching to meet our SLA" made Redis use one).
# Work on a task is not work on where its object is ("working on creating an endpoint
# on Flask" worked on Flask; "working on deploying my application using Docker" now
# uses Docker).
# 40: an acronym no list knows is a tool where one is used, installed or configured
# ("using BERT", "using GPS" were organisations); a name counted by a quantifier is no
# one ("some Gatorade", "some Chess" were people); a gerund liking keeps what carries
# its meaning ("getting lost in fantasy worlds", "helping the community", "running my
# own studio" were "getting lost", "helping" and nothing), and a liking keeps its
# names' case ("watching LeBron" was "watching lebron"). A list of liked things is liked
# item by item ("I enjoy reading, watching movies, and exploring nature" liked reading
# alone), a verb after "and" not ("I enjoy cooking and eat well"). Work on a task whose
# object a tool's name opens uses the tool ("working on writing pytest unit tests",
# "working on optimizing my Docker image" worked on pytest and Docker), and what a group
# joined is for is no group joined ("joined a mentorship program for LGBTQ youth").
# Being into a thing is a liking of it ("my son Ronald is really into gaming" stated none).
# 41: "is" states a use only of the name right after it ("the frontend is a React app";
# "the Redis service is running before the Flask app" made Redis use Flask, "macOS is
# intuitive and integrates well with other Apple devices" made macOS use Apple), and
# being made to work with a thing is no use of it ("configure Sentry to work with my
# Node.js application"). A name set off before "I" is who is spoken to ("Hey Tim, I
# work at Google" put Tim at Google too), and what "you" do in a clause after "I" is the
# listener's ("I can see why you enjoy spending time" was the speaker's liking). "Into"
# and "about" carry a gerund liking's meaning ("sinking into magical worlds" and
# "learning about different cultures" were "sinking" and "learning"). People met
# together are each known ("rehearsed it with Robert and Michele" knew Robert alone).
# What one thinks of a thing names no component ("the perfect job" was a project
# "perfect"). What a role heads is a body and what a ruler rules a place ("the CEO of
# Zentrix", "king of Gondor" were people). A thing in an app named by its framework uses
# no framework ("the spaCy model in my Flask app" made spaCy use Flask), and exposing
# is an end ("updated the Dockerfile to expose port 5000 for the REST API" used REST).
# An acronym after a maker's former name is its product ("Facebook SDK" was Meta).
# 42: a capitalised name nothing else types is a person only where the words around
# it say so (text/people.py): a person's doing after it ("Jamie suggested"), a tie
# before it ("my friend Ronald", "a fellow enthusiast, Raymond,"), a person's things
# after its possessive ("Gary's advice"), being spoken to ("Bye Caroline.", "Thanks,
# Gina -"), named, given something or listed with a person ("Laura and Ben"); a full
# name of words the writer does not use in lower case is one still ("Meghan Fowler").
# The rest are terms ("games like Fortnite", "the Night Sight mode", "Sn = n/2",
# "support for multi-language Unicode" were people), and an instance named after its
# kind is of that kind ("graphing software like Desmos" is a tool). A one-word name
# ending like a town's is a place ("from Davistown" was a person). A name of several words
# closed by an acronym is a product or a standard, not a body, unless something says
# one is ("Retina XDR", "the EB CLI", "Full HD" were organisations read for sure).
# 43: what a choice is for is the chosen one's ("chose Postgres over MongoDB for the
# orders database" made the orders use MongoDB), and a choice said as made is ours ("I've
# chosen PyMuPDF"). A lead-in before "I" keeps the user the subject of each verb
# ("Remember that I live in Porto and work for Acme" lost the work), and chat's short
# forms open no name ("Fyi, the api uses Redis" made Fyi a person). Being at a company is
# work there ("now I'm at Anthropic"), unless said of the moment ("right now"), and
# being on a tool is running it ("I'm fully on macOS" worked on macOS). A tool's thing
# moved onto another tool is a migration ("moved our Slack workspace to Discord" made
# Slack use Discord; "moved my notes to Obsidian" made it a place). A group's members in
# brackets are its members, and the group does what follows ("the frontend team (Ines
# and Paulo) owns X"). "chose" is a person's doing, an owner or a maintainer a tie, and
# a PM of a product works on it. Where "my sister" or "my manager" works is theirs, not
# the user's ("My sister works at Pfizer" put the user at Pfizer; "my team" still does).
# What a clause only considers states nothing yet (text/tense.py, ``considered``): "I'm
# thinking of moving to Berlin" ended "I live in Lisbon", "we're thinking about replacing
# Celery with Temporal" ended our use of Celery; a relative named is one still, and an
# "and" before a new subject and its verb opens a clause of its own. A next
# clause's own subject before "is" is no object ("the queue is RabbitMQ, the cache is
# Redis" made RabbitMQ use Redis). A guessed name after a place and a comma, closing the
# clause, is its region ("living in New Gary, Saint Helena," was a person), and an idiom
# opening a line names no one ("Fingers crossed!", "Rest assured, ..."). More cues of a
# person: a clause's subject after "so", what they have done ("Ben has led"), their
# review or their team ("blocked on Omar's review"); someone from a company named by its
# product works there ("Lena from Datadog"), and "Elena replaced Marcus as my manager"
# ends reporting to Marcus. What we used to use we use no more, and where I used to live
# is no home ("I used to live in Madrid" claimed it, ending "I live in Lisbon"); a part of
# one's own stack said to be a name makes it a tool ("our database is Cassandra" was a
# term, "the API gateway is Kong" too).
# 44: what a named person does to the user, said with "me", ties them (text/acted_on.py:
# "Priya manages me" is reporting to Priya, "Sara reports to me" the reverse, "Nikhil
# mentors me" or "Michele invited me" knowing them, and whom they introduced the user
# to; all were read as nothing). Every hedge in a clause counts, not only its first word
# of the kind ("In May we might move to Fly.io" claimed the move, the month read first).
# What we are on we run ("We're on Postgres 15", "we are still on Python 3.9"), and
# where one camps or skis is a place ("camping at Yosemite" was a body). A named
# speaker's "me" in a claim is the speaker. A move right after dropping a tool is onto a
# tool ("I no longer use VS Code; I moved to Zed" made Zed the user's home, and the user
# a tool stopped). A clause opened by a person's pronoun after a comma or a semicolon is
# not about the name before it ("We don't use Kubernetes for the jobs; they run on AWS
# Batch" made Kubernetes use it). A move recommended is a liking ("Alex recommended
# switching to X" made Alex use X), and what a part of our stack runs on is ours ("Our
# CI runs on GitHub Actions"). Where one is going is a place ("I'm going to Yosemite
# with Mark" made Yosemite a person who knows Mark), and what one would rather use is a
# liking ("I'd rather use Linear"). The language code is written in is a tool ("written
# in Elixir" was a place the service was located in). What a tool is dropped for is the
# new one ("We dropped Redux for Zustand" stopped both), each item of a list dropped is
# stopped, and whoever stopped is named before the verb ("Priya stopped using Vim and
# Emacs" made Vim stop using Emacs). Starting at a company is work there ("... and
# started at Figma" lost it), a tool replaced by another is our move off it ("Kafka was
# replaced by Redpanda" claimed nothing), and a part of the stack switched back to a
# tool changes it. A tool ditched, abandoned, given up on or done with is stopped
# ("We're done with AWS" ended nothing).
# 45: a move right after a use stopped is onto a tool whatever the thing stopped was
# typed ("I stopped using Twitter and moved to Mastodon", "We dropped Heroku and moved to
# Render" made Mastodon and Render homes, ending the home held), and after leaving a
# body a name not known as a place is no home ("I quit Twitter and moved to Mastodon",
# "I left Acme and moved to Globex": a town, an employer or a platform); a known place
# still is ("I left Google and moved to Zurich"). text/changes.after_leaving. "We moved
# from Heroku to Fly.io" is our move between providers, not the user's new job ("I moved
# from Google to Meta" still is), and where one works or calls from is no home ("I'm
# working from Madrid this week" ended "I live in Lisbon"). A job in the simple past is
# one left ("I worked at Google before Acme" ended working at Acme; "I've worked at
# Google since 2019" is work there), a company's premises one is at are no workplace
# ("I'm at Stripe's office today"), and a leaving covers each name across a slash ("I
# left IBM/Shopify" left IBM only).
EXTRACTOR_VERSION = 45

"""Known names and their aliases: the canonical form entity resolution merges into.

Keys are lower-case surface forms; values are ``(canonical name, entity type)``.
Extend by adding rows.
"""

from __future__ import annotations

# Managed cloud services: the capitalised words after one name what it holds ("IAM
# Role", "SNS Topic", "EC2 Instance"), not a product of its own.
CLOUD_SERVICES = frozenset(
    (
        "EC2 ECS EKS ECR Fargate SQS SNS SES RDS DynamoDB CloudFront CloudWatch IAM VPC "
        "EBS EFS KMS CDK GKE GCS AKS"
    ).split()
)
_TECH = {
    "PostgreSQL": ["postgres", "postgresql", "psql", "pg"],
    "MySQL": ["mysql"],
    "MariaDB": ["mariadb"],
    "SQLite": ["sqlite", "sqlite3"],
    "MongoDB": ["mongodb", "mongo"],
    "Redis": ["redis"],
    "Memcached": ["memcached"],
    "Kafka": ["kafka", "apache kafka"],
    "RabbitMQ": ["rabbitmq", "rabbit"],
    "Kubernetes": ["kubernetes", "k8s", "kube"],
    "Docker": ["docker"],
    "Terraform": ["terraform", "tf"],
    "Ansible": ["ansible"],
    "Grafana": ["grafana"],
    "Prometheus": ["prometheus"],
    "Nginx": ["nginx"],
    "Django": ["django"],
    "Flask": ["flask"],
    "FastAPI": ["fastapi"],
    "React": ["react", "reactjs", "react.js"],
    "Vue": ["vue", "vuejs", "vue.js"],
    "Angular": ["angular"],
    "Node.js": ["node", "nodejs", "node.js"],
    "TypeScript": ["typescript", "ts"],
    "JavaScript": ["javascript", "js"],
    "Python": ["python", "python3"],
    "Rust": ["rust"],
    "Go": ["golang"],
    "Java": ["java"],
    "Kotlin": ["kotlin"],
    "Swift": ["swift"],
    "Ruby": ["ruby"],
    "Rails": ["rails", "ruby on rails"],
    "Elasticsearch": ["elasticsearch", "elastic search", "es"],
    "OpenSearch": ["opensearch"],
    "Celery": ["celery"],
    "Airflow": ["airflow", "apache airflow"],
    "Spark": ["spark", "apache spark"],
    "Vault": ["vault", "hashicorp vault"],
    "LanceDB": ["lancedb"],
    "Snowflake": ["snowflake"],
    "BigQuery": ["bigquery", "big query"],
    "Redshift": ["redshift"],
    "S3": ["s3", "amazon s3"],
    "gRPC": ["grpc"],
    "GraphQL": ["graphql"],
    "Jenkins": ["jenkins"],
    "GitHub Actions": ["github actions", "gh actions"],
    "GitLab CI": ["gitlab ci", "gitlab-ci"],
    "Git": ["git"],
    "VS Code": ["vs code", "vscode", "visual studio code"],
    "Neovim": ["neovim", "nvim"],
    "Vim": ["vim"],
    "Emacs": ["emacs"],
    "Linux": ["linux"],
    "macOS": ["macos", "osx"],
    "Windows": ["windows"],
    "Android": ["android"],
    "iOS": ["ios"],
    "Ubuntu": ["ubuntu"],
    "Debian": ["debian"],
    "ChromeOS": ["chromeos", "chrome os"],
    "Chrome": ["chrome"],
    "Firefox": ["firefox"],
    "Safari": ["safari"],
    "NetworkX": ["networkx"],
    "PyTorch": ["pytorch", "torch"],
    "TensorFlow": ["tensorflow"],
    "pandas": ["pandas"],
    "NumPy": ["numpy"],
    "Helm": ["helm"],
    "Istio": ["istio"],
    "Envoy": ["envoy"],
    "Consul": ["consul"],
    "Sentry": ["sentry"],
    "Datadog": ["datadog"],
    "Slack": ["slack"],
    "Jira": ["jira"],
    "Notion": ["notion"],
    # Developer tools mostly written in lower case, where no capital marks them as names
    "pytest": ["pytest"],
    "mypy": ["mypy"],
    "Ruff": ["ruff"],
    "Pydantic": ["pydantic"],
    "isort": ["isort"],
    "Pylint": ["pylint"],
    "Flake8": ["flake8"],
    "Uvicorn": ["uvicorn"],
    "Gunicorn": ["gunicorn"],
    "Pipenv": ["pipenv"],
    "virtualenv": ["virtualenv", "venv"],
    "pyenv": ["pyenv"],
    "pip": ["pip"],
    "Conda": ["conda", "anaconda", "miniconda"],
    "SciPy": ["scipy"],
    "Matplotlib": ["matplotlib"],
    "scikit-learn": ["scikit-learn", "sklearn"],
    "webpack": ["webpack"],
    "esbuild": ["esbuild"],
    "ESLint": ["eslint"],
    "Vite": ["vite", "vitejs"],
    "Vitest": ["vitest"],
    "Jest": ["jest"],
    "Next.js": ["next.js", "nextjs"],
    "Svelte": ["svelte", "sveltekit"],
    "Deno": ["deno"],
    "npm": ["npm"],
    "pnpm": ["pnpm"],
    "nvm": ["nvm"],
    "kubectl": ["kubectl"],
    "tmux": ["tmux"],
    "FFmpeg": ["ffmpeg"],
    "dbt": ["dbt"],
    "k6": ["k6"],
    "jq": ["jq"],
    "Postman": ["postman"],
    "Wireshark": ["wireshark"],
    "CSS Grid": ["css grid"],
    "Tailwind CSS": ["tailwind", "tailwindcss", "tailwind css"],
    "Dockerfile": ["dockerfile", "dockerfiles"],
    # The second alias is the name as the tokenizer splits it (text/mentions.py).
    "Let's Encrypt": ["letsencrypt", "let 's encrypt"],
    # Platforms and tools of deployment, data and messaging that are no English word or
    # given name ("Ray", "Flux", "Hive", "Presto" and "Temporal" are left to context).
    **{
        name: [name.lower()]
        for name in (
            "Netlify Supabase Firebase Pulumi CircleCI ArgoCD Kustomize Skaffold Traefik "
            "HAProxy Linkerd Keycloak Auth0 Okta Kibana Jaeger Fluentd Logstash Filebeat "
            "Metabase Looker Tableau ClickHouse DuckDB MinIO Trino Hadoop Flink Dask Dagster "
            "MLflow Twilio SendGrid Mailgun Algolia Meilisearch Typesense Protobuf ZeroMQ"
        ).split()
    },
    # Libraries of data, machine learning and Python written in lower case or mixed case
    # ("using spaCy for entity recognition", "nltk", "xgboost" named nothing).
    **{
        name: [name.lower()]
        for name in (
            "spaCy NLTK XGBoost LightGBM CatBoost Keras SQLAlchemy Alembic Tweepy PyMuPDF "
            "OpenCV Seaborn Plotly Streamlit Gradio LangChain LlamaIndex pgAdmin DBeaver"
        ).split()
    },
    "Hugging Face": ["hugging face", "huggingface"],
    # Managed cloud services said as acronyms: alone, an acronym is typed a body ("runs
    # on EKS" made EKS an organisation).
    **{name: [name.lower()] for name in CLOUD_SERVICES},
}
# Protocols and standards of computing, written as acronyms: without the list an acronym
# alone is typed an organisation ("NASA"), and "HTTP" or "JWT" is none.
STANDARDS = frozenset(
    (
        "HTTP", "HTTPS", "SSL", "TLS", "SQL", "NoSQL", "JWT", "OAuth", "SAML", "SSO", "RBAC",
        "CORS", "CSRF", "XSS", "SSH", "DNS", "TCP", "UDP", "SMTP", "IMAP", "FTP", "SFTP",
        "VPN", "CDN", "SDK", "CLI", "NLP", "OCR", "WebSocket", "WebRTC", "OpenAPI", "REST",
    )
)  # fmt: skip
_TECH.update((name, [name.lower()]) for name in STANDARDS)
# Programming languages and runtimes: a library or an SDK is written for one ("the AWS
# SDK for Python"), code is written in one; neither uses what that code calls.
PROGRAMMING_LANGUAGES = frozenset(
    ("Python", "Rust", "Go", "Java", "Kotlin", "Swift", "Ruby", "TypeScript", "JavaScript",
     "Node.js", "Deno")
)  # fmt: skip
_ORG = {
    "AWS": ["aws", "amazon web services"],
    "GCP": ["gcp", "google cloud"],
    "Azure": ["azure"],
    "Google": ["google"],
    "Microsoft": ["microsoft"],
    "Amazon": ["amazon"],
    "Apple": ["apple"],
    "Meta": ["meta", "facebook"],
    "GitHub": ["github"],
    "GitLab": ["gitlab"],
    "Stripe": ["stripe"],
    "Cloudflare": ["cloudflare"],
    "OpenAI": ["openai"],
    "Anthropic": ["anthropic"],
    "Hetzner": ["hetzner"],
    "Fly.io": ["fly.io", "fly"],
    "Vercel": ["vercel"],
    "Heroku": ["heroku"],
    # Companies and platforms people name in passing ("posted it on Reddit", "bought it
    # at Best Buy"); without them a sentence-opening "Netflix released ..." is a person.
    **{
        name: [name.lower()]
        for name in (
            "Twitter",
            "Reddit",
            "Netflix",
            "LinkedIn",
            "IKEA",
            "Best Buy",
            "Stack Overflow",
            "Uber",
            "Lyft",
            "Instagram",
            "YouTube",
            "TikTok",
            "WhatsApp",
            "Airbnb",
            "Etsy",
            "eBay",
            "Walmart",
            "Costco",
            "Starbucks",
            "Disney",
            "Hulu",
            "Spotify",
            "Pinterest",
            "Discord",
            "Zoom",
            "Duolingo",
            "Coursera",
            "Udemy",
            "Whole Foods",
            "Tesla",
            "Nike",
            "Adidas",
            "Samsung",
            "Sony",
            "Nintendo",
            "Twitch",
            "Patreon",
            "Substack",
            "Wikipedia",
            "Quora",
            "Shopify",
            "Salesforce",
            "Oracle",
            "IBM",
            "Intel",
            "Nvidia",
            "AMD",
            "PayPal",
            "Venmo",
            "Dropbox",
            "Atlassian",
            "Canva",
            "DoorDash",
            "Instacart",
            "Home Depot",
            "Goodreads",
            "Kickstarter",
            "Craigslist",
            "Yelp",
            "Snapchat",
            "Dell",
            "Lenovo",
            "HP",
            "Asus",
            "Acer",
            "Xiaomi",
            "Huawei",
            "OnePlus",
            "Motorola",
            "Logitech",
            "Razer",
            "Bose",
            "Garmin",
            "Fitbit",
            "Canon",
            "Nikon",
            "Panasonic",
            "Philips",
            "Dyson",
            "Under Armour",
        )
    },
}
_PLACE = [
    "Berlin", "Munich", "Hamburg", "London", "Paris", "Lisbon", "Madrid", "Barcelona",
    "Rome", "Milan", "Amsterdam", "Vienna", "Zurich", "Geneva", "Prague", "Warsaw",
    "Stockholm", "Oslo", "Copenhagen", "Helsinki", "Dublin", "Edinburgh", "Brussels",
    "Tokyo", "Osaka", "Kyoto", "Seoul", "Beijing", "Shanghai", "Singapore", "Bangalore",
    "Mumbai", "Delhi", "Sydney", "Melbourne", "Toronto", "Vancouver", "Montreal",
    "New York", "San Francisco", "Seattle", "Boston", "Chicago", "Austin", "Los Angeles",
    "Mexico City", "Buenos Aires", "Sao Paulo", "Cape Town", "Nairobi", "Lagos", "Cairo",
    "Istanbul", "Dubai", "Tel Aviv", "Athens", "Budapest",
    # More cities people live in, move to and travel to ("leave for Rotterdam", "the
    # Valencia half marathon"); those that are first names as often (Florence, Santiago,
    # Sofia, Victoria) are typed by context instead.
    "Rotterdam", "The Hague", "Utrecht", "Eindhoven", "Antwerp", "Ghent", "Bruges", "Lyon",
    "Marseille", "Toulouse", "Bordeaux", "Strasbourg", "Lille", "Nantes", "Frankfurt",
    "Cologne", "Stuttgart", "Düsseldorf", "Dresden", "Leipzig", "Nuremberg", "Bremen",
    "Porto", "Seville", "Valencia", "Bilbao", "Malaga", "Granada", "Zaragoza", "Naples",
    "Turin", "Venice", "Bologna", "Verona", "Palermo", "Krakow", "Gdansk", "Wroclaw",
    "Salzburg", "Innsbruck", "Basel", "Lausanne", "Manchester", "Liverpool", "Birmingham",
    "Leeds", "Glasgow", "Bristol", "Cardiff", "Belfast", "Galway", "Reykjavik", "Tallinn",
    "Riga", "Vilnius", "Bucharest", "Belgrade", "Zagreb", "Ljubljana", "Bratislava", "Kyiv",
    "Kiev", "Minsk", "Moscow", "Marrakech", "Casablanca", "Tunis", "Accra", "Addis Ababa",
    "Kampala", "Kigali", "Johannesburg", "Durban", "Dakar", "Miami", "Denver", "Portland",
    "Atlanta", "Dallas", "Philadelphia", "San Diego", "San Jose", "Nashville",
    "New Orleans", "Detroit", "Minneapolis", "Pittsburgh", "Baltimore", "Honolulu",
    "Las Vegas", "Salt Lake City", "Ottawa", "Calgary", "Lima", "Bogota", "Medellin",
    "Rio de Janeiro", "Havana", "Hanoi", "Ho Chi Minh City", "Bangkok", "Jakarta", "Bali",
    "Manila", "Kuala Lumpur", "Taipei", "Shenzhen", "Chennai", "Hyderabad", "Kolkata",
    "Pune", "Karachi", "Lahore", "Dhaka", "Kathmandu", "Auckland", "Brisbane", "Doha",
    "Abu Dhabi", "Riyadh", "Jerusalem", "Beirut", "Amman", "Tehran",
    "Germany", "France", "Spain", "Portugal", "Italy", "Japan", "China", "India",
    "Canada", "Mexico", "Brazil", "Sweden", "Norway", "Poland", "Ireland", "Scotland",
    "England", "Australia", "Netherlands", "Switzerland", "Austria", "Greece", "Turkey",
    "Alps", "Europe", "Asia", "Africa", "America", "USA", "UK",
    # Countries, US states and Canadian provinces; those that are first names as often
    # (Jordan, Chad, Georgia, Victoria, Washington, Virginia) are typed by context instead.
    "Afghanistan", "Albania", "Algeria", "Angola", "Argentina", "Armenia", "Azerbaijan",
    "Bahamas", "Bahrain", "Bangladesh", "Barbados", "Belarus", "Belgium", "Belize", "Benin",
    "Bhutan", "Bolivia", "Bosnia", "Botswana", "Bulgaria", "Burkina Faso", "Burundi",
    "Cambodia", "Cameroon", "Chile", "Colombia", "Congo", "Costa Rica", "Croatia", "Cuba",
    "Cyprus", "Czech Republic", "Czechia", "Denmark", "Ecuador", "Egypt", "El Salvador",
    "Estonia", "Ethiopia", "Fiji", "Finland", "Gabon", "Gambia", "Ghana", "Guatemala",
    "Guinea", "Haiti", "Honduras", "Hong Kong", "Hungary", "Iceland", "Indonesia", "Iran",
    "Iraq", "Israel", "Jamaica", "Kazakhstan", "Kenya", "Kosovo", "Kuwait", "Kyrgyzstan",
    "Laos", "Latvia", "Lebanon", "Liberia", "Libya", "Lithuania", "Luxembourg",
    "Madagascar", "Malawi", "Malaysia", "Maldives", "Mali", "Malta", "Mauritius", "Moldova",
    "Monaco", "Mongolia", "Montenegro", "Morocco", "Mozambique", "Myanmar", "Namibia",
    "Nepal", "New Zealand", "Nicaragua", "Niger", "Nigeria", "North Korea",
    "North Macedonia", "Oman", "Pakistan", "Palau", "Palestine", "Panama",
    "Papua New Guinea", "Paraguay", "Peru", "Philippines", "Qatar", "Romania", "Russia",
    "Rwanda", "Samoa", "Saudi Arabia", "Senegal", "Serbia", "Sierra Leone", "Slovakia",
    "Slovenia", "Somalia", "South Africa", "South Korea", "Sri Lanka", "Sudan", "Suriname",
    "Syria", "Taiwan", "Tajikistan", "Tanzania", "Thailand", "Togo", "Tonga", "Tunisia",
    "Turkmenistan", "Uganda", "Ukraine", "United Arab Emirates", "United Kingdom",
    "United States", "Uruguay", "Uzbekistan", "Venezuela", "Vietnam", "Wales", "Yemen",
    "Zambia", "Zimbabwe",
    "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut",
    "Delaware", "Florida", "Hawaii", "Idaho", "Illinois", "Iowa", "Kansas", "Kentucky",
    "Louisiana", "Maine", "Maryland", "Massachusetts", "Michigan", "Minnesota",
    "Mississippi", "Missouri", "Nebraska", "Nevada", "New Hampshire", "New Jersey",
    "New Mexico", "North Carolina", "North Dakota", "Ohio", "Oklahoma", "Oregon",
    "Pennsylvania", "Rhode Island", "South Carolina", "South Dakota", "Tennessee", "Texas",
    "Utah", "Vermont", "West Virginia", "Wisconsin", "Wyoming", "Alberta",
    "British Columbia", "Manitoba", "Nova Scotia", "Ontario", "Quebec", "Saskatchewan",
]  # fmt: skip


# Languages: a concept someone learns or speaks, not a person ("I know some Spanish").
_LANGUAGE = [
    "English", "Spanish", "French", "German", "Italian", "Portuguese", "Dutch", "Swedish",
    "Norwegian", "Danish", "Finnish", "Icelandic", "Polish", "Czech", "Hungarian",
    "Romanian", "Russian", "Ukrainian", "Greek", "Turkish", "Arabic", "Hebrew", "Persian",
    "Hindi", "Urdu", "Bengali", "Punjabi", "Tamil", "Telugu", "Mandarin", "Cantonese",
    "Chinese", "Japanese", "Korean", "Vietnamese", "Thai", "Indonesian", "Tagalog",
    "Swahili", "Latin", "Esperanto",
]  # fmt: skip


# Holidays and festivals: a time of year, no body or person ("flying to Dublin for
# Christmas").
_HOLIDAY = [
    "Christmas", "Christmas Eve", "Christmas Day", "Boxing Day", "New Year's Eve",
    "New Year's Day", "Easter", "Thanksgiving", "Halloween", "Hanukkah", "Chanukah",
    "Diwali", "Ramadan", "Eid", "Passover", "Lunar New Year", "Valentine's Day",
    "Mother's Day", "Father's Day", "Independence Day", "Labor Day", "Labour Day",
    "Memorial Day", "Oktoberfest", "Mardi Gras", "Holi", "Kwanzaa", "Yom Kippur",
    "Rosh Hashanah",
]  # fmt: skip


def _build() -> dict[str, tuple[str, str]]:
    table: dict[str, tuple[str, str]] = {}
    for language in [*_LANGUAGE, *_HOLIDAY]:
        table[language.lower()] = (language, "concept")
    for kind, names in (("tech", _TECH), ("org", _ORG)):
        for canonical, aliases in names.items():
            for surface in [canonical, *aliases]:
                table[surface.lower()] = (canonical, kind)
    for place in _PLACE:
        table[place.lower()] = (place, "place")
    return table


KNOWN: dict[str, tuple[str, str]] = _build()
# A maker's former name, kept by the products still called after it: "Facebook Graph
# API" is no "Meta Graph" (an alias that only spells its name otherwise, "Amazon Web
# Services Lambda", is still "AWS Lambda").
FORMER_NAMES = frozenset({"facebook"})
# Aliases that are ordinary English words unless written as a name.
AMBIGUOUS = frozenset(
    ["go", "ts", "es", "tf", "pg", "fly", "spark", "rust", "swift", "vault", "consul", "envoy"]
    + ["helm", "notion", "slack", "meta", "apple", "amazon", "windows", "flask", "celery"]
    + ["tableau", "looker", "rest"]
    + ["react", "angular", "node", "java", "ruby", "rails", "git", "kube", "rabbit", "mongo"]
    + ["snowflake", "sentry", "jira", "es", "tf", "pg", "ts", "node", "git"]
    # places that are words too ("roast turkey", "fine china", "a guinea pig")
    + ["turkey", "china", "chile", "guinea", "niger", "maine", "wales", "congo", "mali"]
    + ["polish", "latin"]  # "polish the draft", "latin square"
    + ["chrome", "safari"]  # "chrome trim", "a safari"
    + ["ruff", "jest", "pip", "postman"]  # "a ruff collar", "in jest", "the postman"
    + ["tailwind"]  # "a tailwind"
    + ["uber", "zoom", "discord", "twitch", "oracle", "tesla"]  # "zoom in", "an oracle"
)


def _longest() -> dict[str, int]:
    out: dict[str, int] = {}
    for key in KNOWN:
        words = key.split(" ")
        out[words[0]] = max(out.get(words[0], 0), len(words))
    return out


# The most words of a known name starting with this (lower-case) word: most words
# start none, and the lookup skips them at once.
LONGEST: dict[str, int] = _longest()
LANGUAGES = frozenset(language.lower() for language in _LANGUAGE)

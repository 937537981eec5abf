"""Content guard: secrets and prompt-injection patterns, as pure functions.

Memory text is later placed in a model's context, so anything stored must not
carry credentials or instructions aimed at the model. The patterns anchor on
unambiguous shapes (key prefixes, PEM headers, "ignore ... previous instructions")
rather than on bossy English, to keep false positives rare.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from hermes_memory.errors import ContentRefused

# Scanning is bounded so adversarial input cannot make a regex run for long.
_MAX_SCAN = 65_536
_FILL = r"(?:[\w'-]+\s+){0,8}"

_SECRET_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(rx))
    for name, rx in (
        # The whole block (to its END line, or to the end of the text if cut off):
        # redacting only the header would keep the key itself.
        (
            "private_key",
            r"-----BEGIN (?:[A-Z0-9]+ )?PRIVATE KEY(?: BLOCK)?-----"
            r"(?:[\s\S]*?-----END (?:[A-Z0-9]+ )?PRIVATE KEY(?: BLOCK)?-----|[\s\S]*)",
        ),
        ("aws_access_key", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
        ("github_token", r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b"),
        ("openai_key", r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}\b"),
        ("slack_token", r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b"),
        ("google_api_key", r"\bAIza[0-9A-Za-z_-]{35}\b"),
        ("stripe_key", r"\b[sr]k_(?:live|test)_[0-9A-Za-z]{20,}\b"),
        ("jwt", r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b"),
        ("gitlab_token", r"\bgl(?:pat|dt|ptt|rt)-[0-9A-Za-z_-]{20,}"),
        ("huggingface_token", r"\bhf_[A-Za-z0-9]{30,}\b"),
        ("npm_token", r"\bnpm_[A-Za-z0-9]{36}\b"),
        ("sendgrid_key", r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}"),
        ("azure_key", r"(?i)\b(?:Account|SharedAccess)Key\s*=\s*[A-Za-z0-9+/]{20,}={0,2}"),
        # (a template such as {os.environ['DB_PASSWORD']} names where it lives)
        ("url_credentials", r"\b[a-z][a-z0-9+.-]*://[^\s:/@{}]+:(?![{$])[^\s@/]{3,}@"),
        (
            # NAME = value where the name says what it is (DB_PASSWORD, aws_secret_access_key,
            # apiKey, "token": ...), the value a literal: a call, a dotted path or an
            # environment lookup names where the secret lives and is left alone.
            "assigned_secret",
            r"(?i)(?<![\w.-])[\w.-]*?(?:api[_-]?key|secret|token|password|passwd|pwd|"
            r"access[_-]?key|private[_-]?key|auth[_-]?key|credentials?)\w*['\"]?"
            r"\s*(?:=>|[=:])\s*"
            r"(?!(?:process\.env|os\.environ|env\b|getenv|\$|<|\{|%\(|none\b|null\b|"
            r"undefined\b|true\b|false\b))"
            r"(?:(['\"])[^'\"\s]{6,}\1"
            # unquoted: not a dotted path, a call, nor a variable's name (snake_case or
            # camelCase letters: "password=hashed_password", "token = tokenCache")
            r"|(?![A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\b)(?![\w$.]*\()"
            r"(?-i:(?!(?:[a-z_]+|[a-z]+(?:[A-Z][a-z]+)+)(?![\w$])))"
            r"[^\s'\"(),;{}\[\]]{8,})",
        ),
        (
            # An environment file or shell line (DB_PASSWORD=..., export JWT_SECRET=...)
            # assigns literals, so a lower-case word there is a secret too.
            "env_secret",
            r"(?<![\w.-])[A-Z0-9_]*(?:API_?KEY|SECRET|TOKEN|PASSWORD|PASSWD|PWD|ACCESS_?KEY|"
            r"PRIVATE_?KEY|AUTH_?KEY|CREDENTIALS?)[A-Z0-9_]*=(?![$<{%])[^\s'\"]{8,}",
        ),
        (
            "stated_password",
            r"(?i)\bmy\s+(?:\w+\s+)?(?:password|passcode|passphrase|pin)\s+(?:is|was)\s*:?\s*\S{4,}",
        ),
        ("bearer_token", r"(?i)\bbearer\s+[A-Za-z0-9._~+/-]{20,}=*"),
    )
)

_INJECTION_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(rx, re.IGNORECASE))
    for name, rx in (
        (
            "ignore_instructions",
            rf"\b(?:ignore|forget|override|overrule|drop|abandon|skip|bypass)\s+{_FILL}"
            rf"(?:previous|all|above|prior|earlier|preceding|existing|your|any|the)\s+{_FILL}"
            r"(?:instructions?|rules|prompts?|guidelines|directions|directives|guardrails|"
            r"constraints|programming)",
        ),
        (
            "chat_template",
            r"<\|(?:im_start|im_end|system|user|assistant|begin_of_text|start_header_id|eot_id)"
            r"\|>|\[/?INST\]|<</?SYS>>|(?:^|\n)\s*#{2,}\s*(?:system|instruction)s?\s*:",
        ),
        (
            "disregard_rules",
            rf"\bdisregard\s+{_FILL}(?:your|all|any|the)\s+{_FILL}(?:instructions|rules|guidelines)",
        ),
        ("system_prompt_override", r"\bsystem\s+prompt\s+override\b|\bnew\s+system\s+prompt\s*:"),
        (
            "role_hijack",
            rf"\byou\s+are\s+now\s+{_FILL}(?:jailbroken|unrestricted|dan\b|in\s+developer\s+mode)",
        ),
        ("hide_from_user", rf"\bdo\s+not\s+{_FILL}tell\s+{_FILL}the\s+user\b"),
        (
            "leak_prompt",
            rf"\b(?:reveal|output|print|repeat)\s+{_FILL}(?:system|initial|hidden)\s+prompt\b",
        ),
        (
            "exfiltrate_secret",
            r"\b(?:curl|wget)\s+[^\n]{0,512}\$\{?\w*(?:KEY|TOKEN|SECRET|PASSWORD)",
        ),
        ("fake_role_tag", r"<\s*/?\s*(?:system|assistant|memory-context)\s*>"),
        ("ssh_backdoor", r"\bauthorized_keys\b"),
    )
)

# Zero-width (non-)joiners are left out: emoji sequences and Indic scripts need them.
_INVISIBLE = re.compile("[\u200b\u2060\u2062-\u2064\ufeff\u202a-\u202e\u2066-\u2069]")


def _union(patterns: tuple[tuple[str, re.Pattern[str]], ...]) -> re.Pattern[str]:
    """One pattern matching wherever any of ``patterns`` does: clean text (nearly all of
    it) is cleared in one pass instead of one per pattern."""
    parts = []
    for _, rx in patterns:
        body = rx.pattern.removeprefix("(?i)")
        ignore = rx.flags & re.IGNORECASE or body != rx.pattern
        parts.append(f"(?i:{body})" if ignore else f"(?:{body})")
    return re.compile("|".join(parts))


_ANY_SECRET = _union(_SECRET_PATTERNS)
_ANY_INJECTION = _union(_INJECTION_PATTERNS)


@dataclass(frozen=True)
class Finding:
    kind: str  # "secret" | "injection" | "invisible"
    name: str
    start: int
    end: int


def find_secrets(text: str) -> list[Finding]:
    """Every span that looks like a credential."""
    window = text[:_MAX_SCAN]
    if not _ANY_SECRET.search(window):
        return []
    found = [
        Finding("secret", name, m.start(), m.end())
        for name, rx in _SECRET_PATTERNS
        for m in rx.finditer(window)
    ]
    return sorted(found, key=lambda f: f.start)


# Letters of other scripts that look like Latin ones ("іgnore" with a Cyrillic і):
# folded before the injection patterns are tried, so a lookalike spelling is caught.
_LOOKALIKES = str.maketrans(
    "аеіјорсухѕԁɡһӏոզսᴠԝАВЕІЈКМНОРСТХЅΑΒΕΗΙΚΜΝΟΡΤΧΥΖοιαενκτ",
    "aeijopcyxsdghlnquvwABEIJKMHOPCTXSABEHIKMNOPTXYZoiaevkt",
)


def fold_lookalikes(text: str) -> str:
    """``text`` in compatibility form (NFKC: full-width and styled letters become plain)
    with look-alike letters of other scripts mapped to Latin; same length is not kept."""
    return unicodedata.normalize("NFKC", text).translate(_LOOKALIKES)


def find_injection(text: str) -> Finding | None:
    """The first prompt-injection pattern in ``text`` (or in it with look-alike
    letters folded to Latin), if any."""
    window = text[:_MAX_SCAN]
    if m := _INVISIBLE.search(window):
        return Finding("invisible", "invisible_unicode", m.start(), m.end())
    if not window.isascii():
        # Positions then refer to the folded text; the pattern's name is what matters.
        window = fold_lookalikes(window)
    return _first_injection(window)


def _first_injection(window: str) -> Finding | None:
    if not _ANY_INJECTION.search(window):
        return None
    for name, rx in _INJECTION_PATTERNS:
        if m := rx.search(window):
            return Finding("injection", name, m.start(), m.end())
    return None


def redact_secrets(text: str, findings: list[Finding]) -> str:
    """``text`` with each secret span replaced by ``[REDACTED:<kind>]``."""
    out: list[str] = []
    pos = 0
    for f in findings:
        if f.start < pos:  # overlapping matches: the first one already covers it
            continue
        out.append(text[pos : f.start])
        out.append(f"[REDACTED:{f.name}]")
        pos = f.end
    out.append(text[pos:])
    return "".join(out)


def screen(
    text: str, *, field: str, secrets: str = "refuse", injection: str = "refuse"
) -> tuple[str, list[str]]:
    """Apply the guard policy to ``text``.

    Returns the text to store (secrets redacted under the ``redact`` policy) and a
    list of flags (``"injection:<pattern>"`` under the ``flag`` policy). Raises
    :class:`ContentRefused` under the ``refuse`` policies.
    """
    flags: list[str] = []
    secret_spans = find_secrets(text)
    if secret_spans:
        if secrets == "refuse":
            raise ContentRefused(
                f"looks like it contains a secret ({secret_spans[0].name}); "
                "store a reference to where the secret lives instead",
                field=field,
                reason=secret_spans[0].name,
            )
        text = redact_secrets(text, secret_spans)
        flags.append(f"redacted:{len(secret_spans)}")
    hit = find_injection(text)
    if hit:
        if injection == "refuse":
            raise ContentRefused(
                f"looks like a prompt injection ({hit.name}); rephrase it as a plain fact",
                field=field,
                reason=hit.name,
            )
        flags.append(f"injection:{hit.name}")
    return text, flags

"""What every command shares: the lazily opened MemoryAPI and how results print."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import click

from hermes_memory.api import Envelope, MemoryAPI
from hermes_memory.config import MemoryConfig, load_config
from hermes_memory.errors import HermesMemoryError


class Context:
    def __init__(self, home: str | None, profile: str | None, as_json: bool) -> None:
        self.home = home
        self.profile = profile
        self.as_json = as_json
        self._api: MemoryAPI | None = None

    def config(self) -> MemoryConfig:
        return load_config(self.home, self.profile)

    def api(self, *, embed_inline: bool = False) -> MemoryAPI:
        """The profile's memory, opened once. ``embed_inline``: for a long-running
        server, whose next search should see what it just wrote."""
        if self._api is None:
            # A command's writes go to the outbox, not through the model: `remember` in a
            # script's loop answers in a fraction of a second instead of loading the
            # model and the vector table each time. `recall` embeds what is waiting
            # first (``searching``); the embed job does it for everyone else.
            cfg = load_config(self.home, self.profile)
            tier3 = cfg.tier3.model_copy(update={"embed_inline": embed_inline})
            self._api = MemoryAPI(cfg.model_copy(update={"tier3": tier3}), actor="cli")
        return self._api

    def searching(self) -> MemoryAPI:
        """The API, with the outbox embedded first so a search sees every memory."""
        api = self.api()
        if api.config.tier3.enabled:
            api.embed_pending()  # a failure leaves recall lexical and says so there
        return api

    def close(self) -> None:
        if self._api is not None:
            self._api.close()


pass_ctx = click.make_pass_decorator(Context)


def emit(ctx: Context, envelope: Envelope, render: Callable[[Any], str]) -> None:
    """Print the envelope (JSON) or its rendering; a failed call raises to ``main``."""
    if ctx.as_json:
        click.echo(json.dumps(envelope, indent=2, ensure_ascii=False, default=str))
        if not envelope["success"]:
            sys.exit(1)
        return
    if not envelope["success"]:
        raise HermesMemoryError(envelope["error"])
    text = render(envelope["data"])
    if text:
        click.echo(text)


def split_tiers(listed: str | None, repeated: tuple[str, ...] = ()) -> list[str] | None:
    """The tiers of ``--tiers a,b`` and ``--tier a --tier b`` (either, or both); None
    for all."""
    chosen = [t.strip() for part in (listed or "", *repeated) for t in part.split(",")]
    return list(dict.fromkeys(t for t in chosen if t)) or None

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

    def api(self) -> MemoryAPI:
        if self._api is None:
            self._api = MemoryAPI(self.config(), actor="cli")
        return self._api

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

"""hermes-memory for Hermes Agent (installed by `hermes-memory hermes install`).

Hermes discovers this directory as a memory provider (it subclasses
MemoryProvider); the provider itself lives in the installed hermes_memory package,
so upgrading the package upgrades the plugin.
"""

from hermes_memory.hermes.provider import HermesMemoryProvider, register

__all__ = ["HermesMemoryProvider", "register"]

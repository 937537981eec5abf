"""The unified interface: MemoryAPI and its result envelope."""

from hermes_memory.api.envelope import Envelope, unwrap
from hermes_memory.api.memory_api import MemoryAPI

__all__ = ["Envelope", "MemoryAPI", "unwrap"]

"""hermes-memory: local, tiered long-term memory for AI agents."""

from hermes_memory.api import MemoryAPI, unwrap
from hermes_memory.clock import FrozenClock
from hermes_memory.config import RECALL_PRESETS, MemoryConfig, load_config
from hermes_memory.errors import HermesMemoryError
from hermes_memory.tier2.records import Owner

__all__ = [
    "RECALL_PRESETS",
    "FrozenClock",
    "HermesMemoryError",
    "MemoryAPI",
    "MemoryConfig",
    "Owner",
    "load_config",
    "unwrap",
]
__version__ = "0.1.0"

"""The command line the prefetch-block benchmarks share (prefetch_answers.py on BEAM,
prefetch_chat.py on LoCoMo): the data, the stores a retrieval benchmark built, which
conversations, where baseline vectors are cached, and setting overrides."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path


def parse(doc: str | None, *, data: Path, builder: str, conversations: int) -> argparse.Namespace:
    """The arguments; ``builder`` is the benchmark whose ``--profiles`` built the
    stores (its name also names the cache), ``conversations`` how many by default."""
    parser = argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", default=str(data))
    parser.add_argument("--profiles", required=True, help=f"the stores ({builder}.py --profiles)")
    parser.add_argument("--conversations", type=int, default=conversations)
    parser.add_argument("--skip", type=int, default=0)
    parser.add_argument(
        "--cache",
        default=str(Path(tempfile.gettempdir()) / f"{builder}-cache"),
        help="baseline vectors are cached here",
    )
    parser.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE")
    return parser.parse_args()

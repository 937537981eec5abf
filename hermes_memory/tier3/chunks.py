"""Split long texts into overlapping chunks on word boundaries (a pure function)."""

from __future__ import annotations


def chunk_text(text: str, size: int = 512, overlap: int = 64) -> list[str]:
    """Chunks of at most ``size`` characters, each starting ``overlap`` characters
    before the previous one ended, cut at whitespace where possible."""
    text = text.strip()
    if len(text) <= size:
        return [text]
    chunks: list[str] = []
    start = 0
    while start < len(text):
        end = min(start + size, len(text))
        if end < len(text):
            cut = text.rfind(" ", start + size // 2, end)
            end = cut if cut > start else end
        chunks.append(text[start:end].strip())
        if end >= len(text):
            break
        start = max(end - overlap, start + 1)
        space = text.find(" ", start, end)
        start = space + 1 if 0 <= space < end else start
    return [c for c in chunks if c]

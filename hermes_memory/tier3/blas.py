"""How many threads numpy's BLAS runs in this process.

OpenBLAS's worker threads keep spinning for a while after each matrix product, so on a
small machine they take the core that the other half of a recall (SQLite's lexical
search, or the query's embedding) runs on. Measured on 2 cores: a query's embedding
14 -> 26 ms right after a scan of the exact copy; at 100k agent turns a recall's p95
9.2-10.5 -> 5.6-7.3 query embeddings with one BLAS thread. Our products are
matrix-vector ones, bound by memory bandwidth; where a scan is worth two cores,
``snapshot.on_both_cores`` splits it explicitly.

The setting is process-wide (BLAS has one thread count) and is not undone: OpenBLAS
ignores a raise of its thread count from any thread but the main one, so a limit
scoped to a recall run in a server's worker thread would stay on anyway.
"""

from __future__ import annotations

from threadpoolctl import ThreadpoolController


def limit_blas_threads(threads: int) -> None:
    """Run numpy's BLAS on at most ``threads`` threads from now on (0: leave it)."""
    if threads <= 0:
        return
    controller = ThreadpoolController()  # ~1.5 ms: finds the loaded BLAS libraries
    blas = controller.select(user_api="blas")
    if any(lib.num_threads > threads for lib in blas.lib_controllers):
        blas.limit(limits=threads)

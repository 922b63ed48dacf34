"""scipy.stats' quantiles, remembered on disk for every process of this machine (the CLI, each notebook kernel, the
simulation's workers): scipy takes ~0.1 s for one of the studentized range, and a verdict asks for about fifty.
joblib keys each by its arguments and this function's code, the folder by scipy's version; where the cache cannot be
made (a read-only home), each is computed. CLIENTBENCH_CACHE names another folder."""
from __future__ import annotations

import functools
import os
from importlib import metadata
from pathlib import Path


def folder() -> Path:
    """Where they are kept: $CLIENTBENCH_CACHE, else the user's cache folder (XDG), per scipy version."""
    base = os.environ.get("CLIENTBENCH_CACHE")
    if not base:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "clientbench"
    return Path(base) / f"quantiles-scipy-{metadata.version('scipy')}"


def quantile(distribution: str, p: float, *shape) -> float:
    """scipy.stats.<distribution>.ppf(p, *shape), from the disk when a process here has asked for it before."""
    return _remembered()(distribution, p, *shape)


def ppf(distribution: str, p: float, *shape) -> float:
    from scipy import stats

    return float(getattr(stats, distribution).ppf(p, *shape))


@functools.cache
def _remembered():
    import joblib

    try:
        return joblib.Memory(folder(), verbose=0).cache(ppf)
    except OSError:
        return ppf

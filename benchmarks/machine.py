"""What every benchmark shares: the machine line it prints first (CPU model, cores, Python) and
the median timing of a call."""

from __future__ import annotations

import os
import platform
import statistics
import time


def cpu_name() -> str:
    """The CPU's model name (from /proc/cpuinfo on Linux), else what `platform` knows."""
    try:
        with open("/proc/cpuinfo") as file:
            for line in file:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def machine_line() -> str:
    """`Machine: <CPU>, <n> cores, Python <version>`; benchmarks append their own details."""
    return f"Machine: {cpu_name()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def median_seconds(function, repeats: int) -> float:
    """The median wall time of `repeats` calls of `function`, after one untimed call (kernels
    loaded, caches filled)."""
    function()
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return statistics.median(times)

"""What the machine a double runs on says about itself (Linux /proc), for the
doubles' system-statistics routes: a panel reports the host it runs on, and so
does its double."""

import resource


def meminfo():
    """/proc/meminfo in bytes, by field name (MemTotal, MemFree, MemAvailable, Cached, ...)."""
    fields = {}
    with open("/proc/meminfo") as f:
        for line in f:
            name, _, rest = line.partition(":")
            fields[name] = int(rest.split()[0]) * 1024
    return fields


def cpu_times():
    """(all jiffies, idle + iowait jiffies) of the first line of /proc/stat."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    return sum(values), values[3] + values[4]


def uptime_s():
    """Seconds since the host booted (/proc/uptime)."""
    with open("/proc/uptime") as f:
        return float(f.read().split()[0])


def process_rss():
    """This process's resident set size in bytes (/proc/self/statm, pages)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()

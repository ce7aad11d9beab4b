import InputCore

#if canImport(Glibc)
import Glibc
#endif

/// `CLOCK_MONOTONIC`, the clock the daemon asks libevdev to stamp events with, so that the
/// daemon's own times (a device removed, a recording's start) compare with event times.
public enum MonotonicClock {
    public static func now() -> Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Timestamp(microseconds: Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000)
    }
}

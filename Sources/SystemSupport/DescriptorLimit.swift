#if canImport(Glibc)
import Glibc
#endif

/// The process's descriptor limit (`RLIMIT_NOFILE`).
public enum DescriptorLimit {
    /// Raises the soft limit to `target` (by default, as far as it goes), or to the hard limit
    /// where that is lower; never lowers it. Returns the soft limit in force afterwards (nil if it cannot be read).
    ///
    /// Children inherit the soft limit, and programs that use `select` break over 1024: a command
    /// that spawns others raises only as far as it needs; the daemon, which spawns nothing and
    /// holds a descriptor per client, raises to the hard limit.
    @discardableResult
    public static func raiseSoft(to target: rlim_t = .max) -> rlim_t? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        let wanted = min(target, limit.rlim_max)
        guard limit.rlim_cur < wanted else { return limit.rlim_cur }
        let old = limit.rlim_cur
        limit.rlim_cur = wanted
        return setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? wanted : old
    }
}

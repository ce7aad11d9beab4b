/// A point in time in microseconds, as the kernel stamps `input_event`s (`struct timeval`).
///
/// The clock is whatever produced the events: `CLOCK_MONOTONIC` for a live device read by the
/// daemon, the recording's own clock (absolute or relative to its first event) for a replay.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since the clock's epoch.
    public var microseconds: Int64

    @inlinable
    public init(microseconds: Int64) { self.microseconds = microseconds }

    @inlinable
    public init(seconds: Int64, microseconds: Int64) {
        self.microseconds = seconds &* 1_000_000 &+ microseconds
    }

    public static let zero = Timestamp(microseconds: 0)

    /// Microseconds from `earlier` to this time, saturated at `Int64`'s bounds: a recording's
    /// times are untrusted and may lie anywhere in Int64 (a plain difference would trap).
    @inlinable
    public func microseconds(since earlier: Timestamp) -> Int64 {
        let (d, overflow) = microseconds.subtractingReportingOverflow(earlier.microseconds)
        return overflow ? (microseconds < earlier.microseconds ? .min : .max) : d
    }

    /// This time `delta` microseconds later, saturated at `Int64`'s bounds.
    @inlinable
    public func adding(microseconds delta: Int64) -> Timestamp {
        let (t, overflow) = microseconds.addingReportingOverflow(delta)
        return Timestamp(microseconds: overflow ? (delta > 0 ? .max : .min) : t)
    }

    @inlinable
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.microseconds < rhs.microseconds }

    public var description: String {
        let s = microseconds / 1_000_000
        let us = abs(microseconds % 1_000_000)
        let frac = String(us)
        return "\(s).\(String(repeating: "0", count: 6 - frac.count))\(frac)"
    }
}

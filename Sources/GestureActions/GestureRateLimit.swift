/// How often a rule (or all rules together) may run a command.
public enum GestureRateLimit: Sendable, Hashable {
    /// At least this many microseconds between two runs (`every: 500ms`).
    case every(microseconds: Int64)
    /// At most this many runs in any one second (`maxPerSecond: 3`).
    case perSecond(Int)

    /// Parses a duration as the configuration writes it: a number and a unit, `ms` or `s`
    /// (`500ms`, `1.5s`, `250 ms`). Nil for anything else, a bare number included (which unit?).
    public static func microseconds(text: String) -> Int64? {
        let t = text.filter { $0 != " " }
        let (number, scale): (Substring, Double)
        if t.hasSuffix("ms") {
            (number, scale) = (t.dropLast(2), 1_000)
        } else if t.hasSuffix("s") {
            (number, scale) = (t.dropLast(1), 1_000_000)
        } else {
            return nil
        }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale < 1e15 else { return nil }
        return Int64((value * scale).rounded())
    }
}

/// A `GestureRateLimit` applied: remembers when it let commands run. Pure: the caller says what time it
/// is (microseconds on any clock that does not go back).
public struct RateLimiter: Sendable, Hashable {
    public let limit: GestureRateLimit
    /// The latest runs, oldest first: one for `every`, up to N for `perSecond(N)`.
    private var runs: [Int64] = []

    public init(_ limit: GestureRateLimit) { self.limit = limit }

    /// Whether a run at `now` is within the limit.
    public func allows(at now: Int64) -> Bool {
        switch limit {
        case .every(let interval):
            guard let last = runs.last else { return true }
            return now - last >= interval
        case .perSecond(let n):
            guard runs.count >= n, let oldest = runs.first else { return true }
            return now - oldest >= 1_000_000
        }
    }

    /// Counts a run at `now`.
    public mutating func record(at now: Int64) {
        switch limit {
        case .every:
            runs = [now]
        case .perSecond(let n):
            runs.append(now)
            if runs.count > n { runs.removeFirst(runs.count - n) }
        }
    }
}

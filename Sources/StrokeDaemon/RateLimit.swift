/// A burst of `burst` events per `interval`, after libinput's `ratelimit_test()`
/// (`src/util-ratelimit.c`, itself after the kernel's `lib/ratelimit.c`). Pure: the caller
/// passes the time.
///
/// The window opens at the first event and lasts `interval`; within it the first `burst - 1`
/// events pass, the `burst`th is the `threshold` (pass it, and say that more will be suppressed),
/// and the rest are `exceeded`. The first event after the window opens the next.
public struct RateLimit: Hashable, Sendable {
    public enum Verdict: Hashable, Sendable {
        case pass
        /// The last one that passes in this window.
        case threshold
        case exceeded
    }

    /// Microseconds.
    public let interval: Int64
    public let burst: Int
    private var begin: Int64?
    private var count = 0

    public init(intervalMicroseconds: Int64, burst: Int) {
        precondition(intervalMicroseconds > 0 && burst > 0)
        interval = intervalMicroseconds
        self.burst = burst
    }

    /// Counts one event at `now` (monotonic microseconds) and judges it.
    public mutating func test(at now: Int64) -> Verdict {
        if let begin, now - begin <= interval {
            guard count < burst else { return .exceeded }
            count += 1
            return count == burst ? .threshold : .pass
        }
        begin = now
        count = 1
        return burst == 1 ? .threshold : .pass
    }
}

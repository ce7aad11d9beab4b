import StrokeProtocol

/// Decides, gesture by gesture, which command to run: the first matching rule, within its own
/// rate limit, the global one and `maxRunning`. Pure: the caller says what time it is and how
/// many commands are still running, and carries out the decision.
public struct GestureDispatcher: Sendable {
    public let configuration: GestureActionConfiguration
    private var ruleLimiters: [RateLimiter?]
    private var globalLimiter: RateLimiter?

    public enum Decision: Sendable, Hashable {
        /// No rule matches.
        case none
        case run(PlannedCommand)
        /// The first matching rule's own limit said no (the gesture goes no further).
        case ruleLimited(rule: String)
        /// The limit for all rules said no.
        case globalLimited(rule: String)
        /// `maxRunning` commands are still running.
        case busy(rule: String)
    }

    public init(_ configuration: GestureActionConfiguration) {
        self.configuration = configuration
        ruleLimiters = configuration.rules.map { $0.limit.map(RateLimiter.init) }
        globalLimiter = configuration.limit.map(RateLimiter.init)
    }

    /// The decision for `gesture` at `now` (µs, a clock that does not go back), with `running`
    /// commands not yet finished. A run is counted against the limits; a refusal is not.
    public mutating func decide(_ gesture: GestureMessage, deviceName: String?, running: Int, now: Int64) -> Decision {
        guard let index = configuration.rules.firstIndex(where: { $0.match.matches(gesture, deviceName: deviceName) }) else {
            return .none
        }
        let rule = configuration.rules[index]
        if let limiter = ruleLimiters[index], !limiter.allows(at: now) { return .ruleLimited(rule: rule.name) }
        if let limiter = globalLimiter, !limiter.allows(at: now) { return .globalLimited(rule: rule.name) }
        if running >= configuration.maxRunning { return .busy(rule: rule.name) }
        ruleLimiters[index]?.record(at: now)
        globalLimiter?.record(at: now)
        return .run(PlannedCommand(rule: rule, gesture: gesture, deviceName: deviceName))
    }
}

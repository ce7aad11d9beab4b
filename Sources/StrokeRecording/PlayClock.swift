import InputCore

/// A recording's times turned into playing times that never go back: what every player paces
/// frames by (`strokes daemon --replay`, `strokes replay --realtime`, `--uinput`).
///
/// Each time plays its interval after the one before it. An interval that is negative (a
/// wall-clock recording across a clock change, files joined together) counts as 0: the frame after
/// the step plays right after the one before it and the rest keep their spacing from there, as
/// evemu-play sleeps for each positive interval. Paced from the first time alone, everything up
/// to where the times caught up again would play at once. Pure: no clock of its own.
public struct PlayClock: Sendable {
    private var last: Int64?
    /// The playing time of the last time fed, in µs after the first.
    public private(set) var played: Double = 0

    public init() {}

    /// The playing time of `time`, the next time of the recording, in µs after the first.
    public mutating func play(_ time: Timestamp) -> Double {
        // In `Double`: a crafted recording's times may be any `Int64`, and their difference would
        // overflow one.
        if let last { played += max(Double(time.microseconds) - Double(last), 0) }
        last = time.microseconds
        return played
    }
}

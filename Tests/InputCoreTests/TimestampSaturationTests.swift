import InputCore
import Testing

/// A recording's times are untrusted and may lie anywhere in Int64: differences and deadlines
/// saturate instead of trapping (a looped recording near 2^63 µs trapped the daemon in a hold's
/// deadline, the seventh black-box round).
@Suite struct TimestampSaturationTests {
    @Test func differencesAndSumsSaturate() {
        let late = Timestamp(microseconds: .max - 5)
        let early = Timestamp(microseconds: .min + 5)
        #expect(late.microseconds(since: early) == .max)
        #expect(early.microseconds(since: late) == .min)
        #expect(Timestamp(microseconds: 10).microseconds(since: Timestamp(microseconds: 4)) == 6)
        #expect(late.adding(microseconds: 400_000) == Timestamp(microseconds: .max))
        #expect(early.adding(microseconds: -400_000) == Timestamp(microseconds: .min))
        #expect(Timestamp(microseconds: 1).adding(microseconds: 2) == Timestamp(microseconds: 3))
    }
}

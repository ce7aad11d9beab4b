import InputCore
import StrokeRecording
import Testing

@Suite struct PlayClockTests {
    private func played(_ times: [Int64]) -> [Double] {
        var clock = PlayClock()
        return times.map { clock.play(Timestamp(microseconds: $0)) }
    }

    @Test func timesPlayTheirSpacingFromTheFirst() {
        #expect(played([5_000_000, 5_010_000, 5_010_000, 5_025_000]) == [0, 10_000, 10_000, 25_000])
    }

    /// A step back (a wall-clock recording across a clock change) plays right after the time
    /// before it, and the spacing goes on from there: paced from the first time alone, the frames
    /// up to where the times caught up would all be due at once.
    @Test func aStepBackStartsTheSpacingOver() {
        #expect(played([1_000_000, 1_010_000, 200, 10_200, 2_000_000]) == [0, 10_000, 10_000, 20_000, 2_009_800])
    }

    @Test func timesAtTheEndsOfInt64DoNotOverflow() {
        let p = played([Int64.min, Int64.max, 0])
        #expect(p[0] == 0)
        #expect(p[1] == Double(Int64.max) - Double(Int64.min))
        #expect(p[2] == p[1])
    }
}

import MultitouchDecoder
import StrokeDaemon
import StrokeTracker
import Testing

/// The rate limit on logging the decoders' diagnostics, with the time passed in.
@Suite struct DiagnosticLogTests {
    @Test func rateLimitPassesABurstPerIntervalThenExceeds() {
        var r = RateLimit(intervalMicroseconds: 1000, burst: 3)
        #expect([r.test(at: 10), r.test(at: 20), r.test(at: 30), r.test(at: 40), r.test(at: 1010)] == [.pass, .pass, .threshold, .exceeded, .exceeded])
        // The window opened at 10 and lasts 1000 µs: the first event after it opens the next.
        #expect([r.test(at: 1011), r.test(at: 1012)] == [.pass, .pass])
        var one = RateLimit(intervalMicroseconds: 1000, burst: 1)
        #expect([one.test(at: 0), one.test(at: 5), one.test(at: 2000)] == [.threshold, .exceeded, .threshold])
    }

    @Test func fiveLinesAnHourPerDeviceAndKindThenOneSayingTheRestAreSuppressed() {
        var log = DiagnosticLog()
        let bad = DecoderDiagnostic.slotOutOfRange(value: 12, count: 10)
        func lines(_ d: DecoderDiagnostic, _ device: UInt32, _ t: Int64) -> [DiagnosticLog.Line] {
            log.lines(for: d, device: DeviceID(device), name: "pad", at: t) { _, code in "code \(code)" }
        }
        var logged: [DiagnosticLog.Line] = []
        for t in 0..<20 { logged += lines(bad, 1, Int64(t) * 1_000_000) }
        #expect(logged.count == 6)
        #expect(logged.allSatisfy { $0.level == .warning && $0.kind == .slotOutOfRange })
        #expect(logged[0].message == "kernel bug: device 1 'pad': ABS_MT_SLOT 12 outside 0..<10; events ignored until a valid slot")
        #expect(logged[5].message.contains("further ones suppressed"))
        // Another kind, and another device, have limits of their own.
        #expect(lines(.undeclaredCode(type: .abs, code: 25), 1, 30_000_000).count == 1)
        #expect(lines(bad, 2, 30_000_000).count == 1)
        // An hour after the window opened, the next one passes again.
        #expect(lines(bad, 1, 3_600_000_001).count == 1)
        // Lost events are a notice, without a bug prefix.
        let drop = lines(.dropped, 1, 0)
        #expect(drop.count == 1 && drop[0].level == .notice && drop[0].message.hasPrefix("device 1 'pad': SYN_DROPPED"))
    }
}

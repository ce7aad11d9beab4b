import InputCore
import MultitouchDecoder
import Testing

/// Every case `DecoderDiagnostics` counts is also reported as a typed `DecoderDiagnostic`, the
/// first of each kind per call, with its origin (kernel bug or notice) and the values involved.
@Suite struct DecoderDiagnosticTests {
    @Test func aHostileFrameReportsTheFirstOfEachKindAndCountsThemAll() throws {
        var s = try Script(TestDevices.touchscreen(slots: 4, toolType: false))
        s.feed([E.slot(0), E.id(5), E.x(1), E.y(1), E.syn])
        #expect(s.decoder.reports.isEmpty)
        s.feed([
            E.slot(12), E.x(3), E.slot(9), E.slot(0), E.x(5000), E.x(6000), E.abs(AbsCode.mtDistance, 3), E.id(5),
            InputEvent(time: .zero, type: .syn, code: SynCode.mtReport, value: 0), E.syn,
        ])
        #expect(
            s.decoder.reports == [
                .slotOutOfRange(value: 12, count: 4), .eventForInvalidSlot(code: AbsCode.mtPositionX),
                .valueOutOfRange(code: AbsCode.mtPositionX, value: 5000, range: 0...1000),
                .undeclaredCode(type: .abs, code: AbsCode.mtDistance), .repeatedTrackingID(slot: 0, trackingID: 5),
                .protocolAReport,
            ])
        #expect(s.decoder.reports.allSatisfy { $0.origin == .kernel })
        let d = s.decoder.diagnostics
        #expect(d.slotOutOfRange == 2 && d.eventsForInvalidSlot == 1 && d.valuesOutOfRange == 2)
        #expect(d.undeclaredCodes == 1 && d.repeatedTrackingIDs == 1 && d.protocolAReports == 1)
        // Every report's kind names a counter that counted it.
        for r in s.decoder.reports { #expect(d[r.kind] >= 1) }
        #expect(d.nonZero.map(\.0).sorted() == s.decoder.reports.map(\.kind.rawValue).sorted())
        // The next clean frame reports nothing; the counters stay.
        s.feed([E.slot(0), E.x(7), E.syn])
        #expect(s.decoder.reports.isEmpty)
        #expect(s.decoder.diagnostics == d)
    }

    @Test func lostEventsAndPalmsAreNoticesNotBugs() throws {
        var s = try Script(TestDevices.touchscreen())
        s.feed([E.slot(0), E.id(5), E.x(1), E.y(1), E.syn])
        s.feed([E.dropped, E.x(3), E.syn])
        #expect(s.decoder.reports == [.dropped])
        s.feed([E.slot(1), E.id(6), E.tool(ToolType.palm), E.x(1), E.y(1), E.syn])
        #expect(s.decoder.reports == [.palmSuppressed(slot: 1)])
        #expect(
            [DecoderDiagnostic.dropped, .palmSuppressed(slot: 1), .resynced, .unseenContactEnded(slot: 0), .penToolIgnored(code: KeyCode.btnToolPen)]
                .allSatisfy { $0.origin == .notice })
    }

    @Test func messagesNameTheValues() {
        #expect(DecoderDiagnostic.slotOutOfRange(value: 12, count: 10).message().hasPrefix("ABS_MT_SLOT 12 outside 0..<10"))
        #expect(
            DecoderDiagnostic.valueOutOfRange(code: AbsCode.mtPositionX, value: 5000, range: 0...1000).message { _, c in "code\(c)" }
                == "code53 5000 outside its declared 0...1000; kept")
    }
}

import InputCore
import MultitouchDecoder
import StrokeTracker
import Testing

/// Hard cases a black-box round found mishandled (Tests/adversary/30-35, REPORT.md): each pinned
/// here as the decoder and tracker now handle it.
@Suite struct HardCaseRegressionTests {
    /// Script 30: a palm that lifts in the frame it became one is cancelled, not a completed stroke.
    @Test func aPalmThatLiftsInTheFrameItBecameOneIsCancelled() throws {
        var s = try Script(TestDevices.touchscreen())
        s.feed([E.id(5), E.x(100), E.y(200), E.syn])
        #expect(s.feed([E.tool(ToolType.palm), E.id(-1), E.syn]) == ["cancelled(palm) 1 s0 #5 (100,200)"])
        #expect(s.tracker.completed.isEmpty)
        // With a new contact in the same frame: the palm is cancelled, the new one begins.
        var t = try Script(TestDevices.touchscreen())
        t.feed([E.id(5), E.x(100), E.y(200), E.syn])
        #expect(t.feed([E.tool(ToolType.palm), E.id(6), E.tool(ToolType.finger), E.x(300), E.syn])
            == ["cancelled(palm) 1 s0 #5 (100,200)", "began 2 s0 #6 (300,200)"])
    }

    /// Script 31: after a drop, a slot's position is unknown, so the current slot (which the lost
    /// events may have switched) cannot join one finger's x to another's y.
    @Test func afterADropAContactIsAdoptedOnlyOnceBothCoordinatesAreReportedAgain() throws {
        var s = try Script(TestDevices.touchscreen())
        s.feed([E.id(5), E.x(100), E.y(100), E.syn])
        #expect(s.feed([E.dropped, E.y(3000), E.syn]) == ["cancelled(eventsDropped) 1 s0 #5 (100,100)"])
        #expect(s.feed([E.x(310), E.syn]) == [], "x alone: the slot's y is not known since the drop")
        #expect(s.feed([E.x(320), E.syn]) == [])
        #expect(s.feed([E.y(330), E.syn]) == ["began 2 s0 #? (320,330) [adopted]"])
    }

    /// Script 32: a tool that came into proximity without a position (so not published) is
    /// forgotten by a drop like a published one: nothing until its next BTN_TOOL_*.
    @Test func aDropForgetsAToolThatWasNotPublishedYet() throws {
        var s = try Script(TestDevices.penDisplay())
        #expect(s.feed([E.pen(1), E.touch(1), E.pressure(300), E.syn]) == [])
        #expect(s.feed([E.dropped, E.syn]) == [])
        #expect(s.feed([E.px(100), E.py(50), E.syn]) == [], "the tool is unknown since the drop")
        #expect(s.feed([E.px(110), E.syn]) == [])
        #expect(s.feed([E.pen(0), E.touch(0), E.syn]) == [])
        #expect(s.feed([E.pen(1), E.px(120), E.syn]) == ["hover(proximityIn) s0 (120,50) pen"])
    }

    /// Script 33: the stroke a touch jump begins carries its frame as its last frame (a pen's
    /// cancel reports it), never 0.
    @Test func aStrokeBegunAtAJumpHasItsFrameAsItsLastFrame() throws {
        var s = try Script(TestDevices.touchpad())
        s.feed([E.id(5), E.x(100), E.y(100), E.syn])
        s.feed([E.x(102), E.syn])
        #expect(s.feed([E.x(900), E.syn]) == ["ended 1 s0 #5 (102,100)", "began 2 s0 #5 (900,100) [jump]"])
        #expect(s.tracker.live.map(\.lastFrame) == [3])
    }

    /// Script 35: a protocol A device's SYN_MT_REPORTs are its protocol, not a kernel fault.
    @Test func aProtocolADevicesReportsAreNotCountedAsFaults() throws {
        var s = try Script(TestDevices.protocolA(withSingleTouch: true))
        let mtReport = InputEvent(time: .zero, type: .syn, code: SynCode.mtReport, value: 0)
        s.feed([E.abs(AbsCode.mtPositionX, 10), E.abs(AbsCode.mtPositionY, 10), mtReport, E.px(10), E.py(10), E.touch(1), E.syn])
        #expect(s.decoder.diagnostics.protocolAReports == 0)
        var b = try Script(TestDevices.touchscreen())
        b.feed([mtReport, E.syn])
        #expect(b.decoder.diagnostics.protocolAReports == 1, "in a protocol B stream it is a fault")
    }
}

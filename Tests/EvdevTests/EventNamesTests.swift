import Evdev
import InputCore
import Testing

/// The names come from the real libevdev the package links against.
@Suite struct EventNamesTests {
    @Test func namesMatchTheKernelHeaders() {
        #expect(EventNames.typeName(.abs) == "EV_ABS")
        #expect(EventNames.codeName(.abs, AbsCode.mtSlot) == "ABS_MT_SLOT")
        #expect(EventNames.codeName(.abs, AbsCode.mtTrackingID) == "ABS_MT_TRACKING_ID")
        #expect(EventNames.codeName(.key, KeyCode.btnTouch) == "BTN_TOUCH")
        #expect(EventNames.propertyName(InputProperty.semiMT) == "INPUT_PROP_SEMI_MT")
    }

    @Test func ourConstantsAgreeWithLibevdev() throws {
        let pairs: [(String, EventType, UInt16)] = [
            ("ABS_MT_SLOT", .abs, AbsCode.mtSlot), ("ABS_MT_POSITION_X", .abs, AbsCode.mtPositionX),
            ("ABS_MT_TOOL_TYPE", .abs, AbsCode.mtToolType), ("ABS_MT_PRESSURE", .abs, AbsCode.mtPressure),
            ("ABS_MT_TOOL_Y", .abs, AbsCode.mtToolY), ("BTN_TOOL_FINGER", .key, KeyCode.btnToolFinger),
            ("BTN_TOOL_QUADTAP", .key, KeyCode.btnToolQuadtap), ("SYN_DROPPED", .syn, SynCode.dropped),
            ("SYN_MT_REPORT", .syn, SynCode.mtReport),
        ]
        for (name, type, code) in pairs {
            let found = try #require(EventNames.code(named: name))
            #expect(found.type == type && found.code == code, "\(name)")
        }
    }

    @Test func unknownCodesFallBackToNumbers() {
        #expect(EventNames.codeName(.abs, 0x27) == nil)
        #expect(EventNames.describe(.abs, 0x27) == "0x03:0x27")
        #expect(EventNames.code(named: "NOT_A_CODE") == nil)
    }
}

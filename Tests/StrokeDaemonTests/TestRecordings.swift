import InputCore
import StrokeRecording

/// Recordings built by hand: a 10-slot touchscreen, 0...1000 on both axes, and its frames.
enum TestRecordings {
    static func screen(_ name: String) -> DeviceDescription {
        DeviceDescription(
            name: name, id: InputID(bustype: 3, vendor: 1, product: 2, version: 3),
            properties: [InputProperty.direct], codes: [.key: [KeyCode.btnTouch]],
            absInfo: [
                AbsCode.x: AbsInfo(minimum: 0, maximum: 1000), AbsCode.y: AbsInfo(minimum: 0, maximum: 1000),
                AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9), AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
                AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000), AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 1000),
            ])
    }

    /// `frames` of `screen(name)`: each a list of `EV_ABS` code and value, then a `SYN_REPORT`;
    /// the first at 1 s, 10 ms apart.
    static func recording(_ name: String, frames: [[(UInt16, Int32)]]) -> Recording {
        var events: [InputEvent] = []
        var t: Int64 = 1_000_000
        for frame in frames {
            for (code, value) in frame { events.append(InputEvent(time: Timestamp(microseconds: t), type: .abs, code: code, value: value)) }
            events.append(InputEvent(time: Timestamp(microseconds: t), type: .syn, code: SynCode.report, value: 0))
            t += 10_000
        }
        return Recording(format: .evemu(major: 1, minor: 3), devices: [RecordedDevice(description: screen(name), events: events)])
    }
}

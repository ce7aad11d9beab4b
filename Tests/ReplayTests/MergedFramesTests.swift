import InputCore
import StrokeRecording
import Testing

/// The one merge-by-time of a recording's devices (`strokes replay`, `render`, `daemon --replay`).
@Suite struct MergedFramesTests {
    @Test func twoDevicesInterleaveByTimeKeepingEachDevicesOrder() throws {
        let recording = try Fixtures.recording("03+11-two-devices.libinput.yml")
        #expect(recording.devices.count == 2)
        var perDevice: [[FrameInput]] = recording.devices.map { d in
            var a = FrameAssembler()
            return d.events.compactMap { a.feed($0) }
        }
        var merged = MergedFrames(RecordingStream(memory: recording, file: "two"))
        var last = Timestamp(microseconds: .min)
        var seen = [0, 0]
        while let (device, input) = try merged.next() {
            #expect(input.time >= last, "frames in time order")
            last = input.time
            #expect(input == perDevice[device][seen[device]], "each device's frames in its own order")
            seen[device] += 1
        }
        #expect(seen == perDevice.map(\.count))
        #expect(seen.allSatisfy { $0 > 0 })
        perDevice.removeAll()
    }

    @Test func onEqualTimesTheFirstDeviceGoesFirst() throws {
        let d = DeviceDescription(name: "d", id: InputID(bustype: 3, vendor: 1, product: 1, version: 1))
        func frames(_ times: [Int64]) -> [InputEvent] {
            times.map { InputEvent(time: Timestamp(microseconds: $0), type: .syn, code: SynCode.report, value: 0) }
        }
        let recording = Recording(
            format: .evemu(major: 1, minor: 3),
            devices: [RecordedDevice(description: d, events: frames([5, 10])), RecordedDevice(description: d, events: frames([5, 7]))])
        var merged = MergedFrames(RecordingStream(memory: recording, file: "ties"))
        var order: [(Int, Int64)] = []
        while let (device, input) = try merged.next() { order.append((device, input.time.microseconds)) }
        #expect(order.map(\.0) == [0, 1, 1, 0])
        #expect(order.map(\.1) == [5, 5, 7, 10])
    }
}

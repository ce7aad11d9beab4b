import Foundation
import StrokeClient
@testable import StrokeDaemon
import InputCore
import MultitouchDecoder
import StrokeProtocol
import StrokeRecording
import StrokeReplay
import StrokeTracker
import Testing

/// `hover` is a stream type a client asks for; clients that do not (every client written before
/// it, such as examples/strokes_client.py) see the stream they always saw.
@Suite(.serialized) struct HoverStreamTests {
    static let pen = "16-wacom-cintiq13hd-pen-hover-tilt.evemu"

    /// `strokes replay` of the pen recording, with or without hover.
    static func transcript(hover: Bool) throws -> [String] {
        var replayer = try Replayer(recording: try RecordingReader.read(path: TestDaemon.fixture(pen)))
        return try replayer.runToEnd().filter { e in
            if case .hover = e.kind { return hover }
            return true
        }.map { $0.json(geometry: replayer.devices[0].geometry) }
    }

    @Test func greetingAnnouncesHover() async throws {
        let d = try await TestDaemon(recording: Self.pen)
        let socket = try LineSocket(path: d.path)
        let hello = try #require(try socket.readLine(timeout: 5)).json
        #expect((hello["features"] as? [String])?.contains("hover") == true)
        #expect(hello["protocol"] as? Int == 1)
        try await d.stop()
    }

    @Test func defaultSubscriptionHasNoHoverAndAskingForItAddsIt() async throws {
        let plain = try Self.transcript(hover: false)
        let withHover = try Self.transcript(hover: true)
        #expect(withHover.count > plain.count)
        let d = try await TestDaemon(recording: Self.pen)
        let old = try d.connect()
        _ = try old.subscribe()
        let hovering = try d.connect()
        _ = try hovering.subscribe(["events": ["began", "moved", "ended", "cancelled", "hover"]])
        try await d.advance()
        let oldLines = try old.read(plain.count)
        #expect(oldLines.map(\.withoutSeq) == plain)
        // Hover takes no sequence numbers: a client without it still sees them gapless.
        #expect(oldLines.map { $0.json["seq"] as? Int ?? -1 } == Array(2..<(2 + plain.count)))
        let hoverLines = try hovering.read(withHover.count)
        #expect(hoverLines.map(\.withoutSeq) == withHover)
        #expect(hoverLines.filter { $0.contains(#""type":"hover""#) }.allSatisfy { !$0.contains(#""seq""#) })
        try await d.stop()
    }

    @Test func penDeviceObjectSaysWhatTheDeviceIs() async throws {
        let d = try await TestDaemon(recording: "17-wacom-cintiq12wx-pen-and-eraser.evemu")
        let c = try d.connect()
        guard case .devices(let devices) = try c.result(Request(id: 3, .devices)), let device = devices.first else {
            throw LineSocket.Error(message: "no device in the devices reply")
        }
        #expect(device.kind == .penDisplay)
        #expect(device.tools == [.pen, .eraser, .brush, .pencil, .airbrush])
        #expect(["pressure", "toolType", "distance", "tiltX", "tiltY", "buttons", "serial"].allSatisfy(device.axes.contains))
        try await d.stop()
    }

    @Test func hoverMotionIsMergedLikeMovesForSlowClients() {
        let device = DeviceID(1)
        let key = StrokeID.hover(device: device, slot: 0)
        #expect(key != StrokeID(rawValue: 1) && key.rawValue > UInt64(UInt32.max))
        func broadcast(_ phase: HoverPhase) -> Broadcast {
            let point = StrokePoint(time: .zero, sample: .init(), geometry: .init(description: .init(name: "", id: .init(bustype: 0, vendor: 0, product: 0, version: 0))))
            let e = StrokeEvent(kind: .hover(phase), stroke: key, device: device, frame: 1, slot: 0, trackingID: nil, point: point, flags: [])
            return Broadcast(seq: 1, kind: .stroke(StrokeHeader(e)), device: device, line: "", mergedOffset: 0)
        }
        let hoverKey = MergeKey.hover(device: device, slot: 0)
        #expect(broadcast(.motion).mergeKey == hoverKey)
        #expect(broadcast(.proximityIn).mergeKey == nil && broadcast(.proximityOut).mergeKey == nil)
        #expect(broadcast(.proximityOut).finishedKey == hoverKey && broadcast(.motion).finishedKey == nil)
        #expect(broadcast(.motion).isHover && broadcast(.motion).typeName == "hover")

        // Past the merge threshold, a slot's hover motion replaces its queued one, but not across
        // a proximity out.
        var q = ClientQueue<String>(mergeThreshold: 1, disconnectThreshold: 20)
        _ = q.enqueue("in", mergeKey: nil, bytes: 1)
        _ = q.enqueue("h1", mergeKey: hoverKey, bytes: 1)
        #expect(q.enqueue("h2", mergeKey: hoverKey, bytes: 1) == .merged)
        _ = q.enqueue("out", mergeKey: nil, bytes: 1)
        q.finished(hoverKey)
        #expect(q.enqueue("h3", mergeKey: hoverKey, bytes: 1) == .queued)
        var order: [String] = []
        while let e = q.dequeue() { order.append(e.merged > 0 ? "\(e.message)+\(e.merged)" : e.message) }
        #expect(order == ["in", "h2+1", "out", "h3"])
    }
}

/// libinput's device-group rule, as `DeviceGroup` applies it to live nodes.
@Suite struct DeviceGroupTests {
    @Test func penAndTouchOfOneUSBDeviceShareAGroup() {
        let pen = DeviceGroup.key(phys: "usb-0000:00:14.0-1/input0", uniq: "", bustype: 3, vendor: 0x56a)
        let touch = DeviceGroup.key(phys: "usb-0000:00:14.0-1/input1", uniq: "", bustype: 3, vendor: 0x56a)
        let other = DeviceGroup.key(phys: "usb-0000:00:14.0-2/input0", uniq: "", bustype: 3, vendor: 0x56a)
        #expect(pen != nil && pen == touch && pen != other)
    }

    @Test func uniqWinsAndNoPhysMeansNoGroup() {
        #expect(DeviceGroup.key(phys: "a/b", uniq: "00:11:22", bustype: 5, vendor: 1) == "uniq:00:11:22")
        #expect(DeviceGroup.key(phys: "", uniq: "", bustype: 3, vendor: 1) == nil)
        #expect(DeviceGroup.key(phys: "isa0060", uniq: "", bustype: 17, vendor: 2) == nil)
    }
}

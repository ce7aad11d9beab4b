import InputCore
import Logging
import NIOCore
import NIOEmbedded
import StrokeTracker
import Testing

@testable import Evdev
@testable import StrokeDaemon

/// The live path without a device: raw `input_event` records written into a device's channel
/// (`EvdevSource.DeviceReader`, the handler the loop reads a node with) come out as the daemon's
/// stroke events, through real libevdev's filter and state.
@Suite struct DeviceReaderTests {
    func record(_ t: Int64, _ type: EventType, _ code: UInt16, _ value: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        put(t / 1_000_000); put(t % 1_000_000); put(type.rawValue); put(code); put(value)
        return bytes
    }

    /// A reader on an embedded loop for `TestRecordings.screen`, and the daemon it feeds.
    func reader() throws -> (EmbeddedChannel, Daemon, EvdevSource.DeviceReader) {
        let loop = EmbeddedEventLoop()
        let daemon = Daemon(loop: loop, settings: .init(), logger: Logger(label: "test"))
        let source = EvdevSource(daemon: daemon, configuration: DaemonConfiguration(), logger: Logger(label: "test"))
        let device = try #require(EvdevDevice(unopened: TestRecordings.screen("reader test")))
        let id = try daemon.addDevice(path: "/dev/input/event99", description: device.description)
        let reader = EvdevSource.DeviceReader(device: device, id: id, source: source)
        return (EmbeddedChannel(handler: reader, loop: loop), daemon, reader)
    }

    func types(_ daemon: Daemon) -> [String] { daemon.hub.resume(after: 0)?.map(\.typeName) ?? [] }

    @Test func framesSplitAcrossReadsBecomeOneStroke() throws {
        let (channel, daemon, _) = try reader()
        let first = record(1_000_000, .abs, AbsCode.mtSlot, 0) + record(1_000_000, .abs, AbsCode.mtTrackingID, 4)
            + record(1_000_000, .abs, AbsCode.mtPositionX, 100) + record(1_000_000, .abs, AbsCode.mtPositionY, 100)
        // The first frame's SYN_REPORT comes with the next read, as when the kernel's buffer is
        // read mid-frame.
        let second = record(1_000_000, .syn, SynCode.report, 0)
            + record(1_010_000, .abs, AbsCode.mtPositionX, 120) + record(1_010_000, .syn, SynCode.report, 0)
            // libevdev drops a tracking ID that replaces another without -1: the contact goes on.
            + record(1_020_000, .abs, AbsCode.mtTrackingID, 9) + record(1_020_000, .abs, AbsCode.mtPositionX, 140)
            + record(1_020_000, .syn, SynCode.report, 0)
            + record(1_030_000, .abs, AbsCode.mtTrackingID, -1) + record(1_030_000, .syn, SynCode.report, 0)
        try channel.writeInbound(ByteBuffer(bytes: first))
        #expect(types(daemon) == ["deviceAdded"])
        try channel.writeInbound(ByteBuffer(bytes: second))
        #expect(types(daemon) == ["deviceAdded", "began", "moved", "moved", "ended"])
        #expect(daemon.hub.tracker.inProgressCount == 0)
    }

    @Test func aClosedChannelRemovesTheDeviceUnlessTheSourceClosedIt() throws {
        let (channel, daemon, reader) = try reader()
        try channel.writeInbound(ByteBuffer(bytes:
            record(1_000_000, .abs, AbsCode.mtTrackingID, 4) + record(1_000_000, .abs, AbsCode.mtPositionX, 100)
            + record(1_000_000, .abs, AbsCode.mtPositionY, 100) + record(1_000_000, .syn, SynCode.report, 0)))
        #expect(types(daemon) == ["deviceAdded", "began"])
        _ = try channel.finish()  // the node reported ENODEV: NIO closes the channel
        #expect(types(daemon) == ["deviceAdded", "began", "cancelled", "deviceRemoved"])
        #expect(reader.quiet == false)

        let (other, otherDaemon, otherReader) = try self.reader()
        otherReader.quiet = true  // the source closes it at shutdown: the daemon cancels with `shutdown`
        _ = try other.finish()
        #expect(types(otherDaemon) == ["deviceAdded"])
    }
}

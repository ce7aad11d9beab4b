import Evdev
import InputCore
import NIOCore
import StrokeTracker

#if canImport(Glibc)
import Glibc
#endif

extension EvdevSource {
    /// One open device's channel: NIO reads whole `input_event`s from the node; each goes
    /// through libevdev's filter and state, the frames they complete go to the daemon right
    /// there, on the loop.
    final class DeviceReader: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        let device: EvdevDevice
        let id: DeviceID
        private let source: EvdevSource
        /// The source closed the channel (shutdown): the device is not gone.
        var quiet = false
        private var assembler = FrameAssembler()
        private var syncEvents: [InputEvent] = []
        /// Reused per read.
        private var events: [InputEvent] = []
        /// The events of a read libevdev kept, when no drop interrupted it (reused per read).
        private var live: [InputEvent] = []
        private var kept: [(event: InputEvent, sync: Bool)] = []

        init(device: EvdevDevice, id: DeviceID, source: EvdevSource) {
            self.device = device
            self.id = id
            self.source = source
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            events.removeAll(keepingCapacity: true)
            live.removeAll(keepingCapacity: true)
            buffer.withUnsafeReadableBytes { EvdevDevice.events(in: $0, into: &events) }
            var dropped = false
            for e in events {
                // What follows a drop in the same read is discarded, as libevdev's sync does.
                if e.type == .syn && e.code == SynCode.dropped {
                    dropped = true
                    break
                }
                if device.track(e) { live.append(e) }
            }
            let daemon = source.daemon
            guard dropped else {
                // The common case: the frames go to the daemon in place, from this read's events.
                let id = self.id
                live.withUnsafeBufferPointer { read in
                    assembler.feed(read) { input in
                        switch input {
                        case .frame: daemon.process(input, device: id)
                        case .dropped: break  // never fed one: a drop ends the read above
                        }
                    }
                }
                return
            }
            kept.removeAll(keepingCapacity: true)
            for e in live { kept.append((e, false)) }
            let outcome = device.resync(into: &kept)
            for (frame, resync) in EvdevSource.frames(from: kept, assembler: &assembler, syncEvents: &syncEvents) {
                if resync {
                    daemon.process(frame, origin: .resync, device: id)
                } else {
                    daemon.process(.frame(frame), device: id)
                }
            }
            switch outcome {
            case .drained: break
            case .removed: context.close(promise: nil)
            case .failed(let error):
                source.logger.error("\(device.path): sync failed: \(error)")
                context.close(promise: nil)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            // ENODEV is the device unplugged; anything else is said.
            if (error as? IOError)?.errnoCode != ENODEV, !quiet {
                source.logger.error("\(device.path): read failed: \(error)")
            }
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            source.closed(self)
        }
    }

    /// The hotplug watch's channel: inotify records, each naming a node made or changed.
    final class HotplugWatch: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        private let source: EvdevSource

        init(source: EvdevSource) { self.source = source }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            let names = buffer.withUnsafeReadableBytes { EvdevSource.inotifyNames(in: $0) }
            for name in names where name.hasPrefix("event") { source.open(source.directory + "/" + name) }
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            source.logger.warning("hotplug: reading inotify: \(error)")
        }
    }

    /// Complete frames from what was read, each marked whether it is a resync frame: sync events
    /// form frames of their own, and the frame a drop interrupted is void (libevdev's sync
    /// replaces it).
    static func frames(
        from events: [(event: InputEvent, sync: Bool)], assembler: inout FrameAssembler, syncEvents: inout [InputEvent]
    ) -> [(Frame, Bool)] {
        var out: [(Frame, Bool)] = []
        for (e, sync) in events {
            if sync {
                if e.isSynReport {
                    out.append((Frame(events: syncEvents, time: e.time), true))
                    syncEvents.removeAll()
                } else if e.type != .syn {
                    syncEvents.append(e)
                }
                assembler = FrameAssembler()
                continue
            }
            if let input = assembler.feed(e), case .frame(let f) = input { out.append((f, false)) }
        }
        return out
    }

    /// The names in a buffer of whole inotify records (the kernel never splits one). Each record
    /// is an `inotify_event` followed by `len` bytes of NUL-padded name.
    static func inotifyNames(in raw: UnsafeRawBufferPointer) -> [String] {
        var names: [String] = []
        let header = MemoryLayout<inotify_event>.size
        var offset = 0
        while offset + header <= raw.count {
            let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
            let start = offset + header
            let end = min(start + Int(event.len), raw.count)
            let name = raw[start..<end].prefix { $0 != 0 }
            names.append(String(decoding: name, as: UTF8.self))
            offset = start + Int(event.len)
        }
        return names
    }
}

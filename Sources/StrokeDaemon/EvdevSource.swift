import Evdev
import Foundation
import InputCore
import Logging
import MultitouchDecoder
import NIOCore
import StrokeTracker

/// Live touch devices (`/dev/input/event*`) read through libevdev on a reader thread, handed to
/// the daemon's loop frame by frame.
///
/// - At start every touch device is opened (or those `selectors` name), its slot state seeded so
///   contacts already down are adopted.
/// - Hotplug: inotify on `/dev/input` (`IN_CREATE`, and `IN_ATTRIB` because udev sets the
///   permissions after the node appears). Chosen over a libudev monitor because it needs no
///   netlink socket (the service allows `AF_UNIX` only), no udevd (initramfs, containers, the
///   QEMU guest of the end-to-end tests) and no extra library.
/// - A device that reports `ENODEV` is closed and removed: its strokes are cancelled
///   (`deviceRemoved`) and the daemon goes on.
/// - After `SYN_DROPPED`, libevdev's sync frames are decoded as a resync (strokes that ended or
///   changed meanwhile are cancelled with `resync`; the others go on).
public final class EvdevSource: @unchecked Sendable, StrokeSource {
    struct Open {
        var device: EvdevDevice
        var id: DeviceID
        var assembler = FrameAssembler()
        var syncEvents: [InputEvent] = []
    }

    private let daemon: Daemon
    private let configuration: DaemonConfiguration
    private let logger: Logger
    private let directory: String
    private var open: [Int32: Open] = [:]  // by fd; reader thread only
    /// A pipe: `stop()` writes a byte, the reader thread's poll wakes and the thread ends.
    private let wake: Int32
    private let wakeWriter: Int32
    private var thread: Thread?

    public init(daemon: Daemon, configuration: DaemonConfiguration, logger: Logger, directory: String = "/dev/input") {
        self.daemon = daemon
        self.configuration = configuration
        self.logger = logger
        self.directory = directory
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        wake = ends[0]
        wakeWriter = ends[1]
    }

    /// Opens the devices present now (before returning, so that readiness means they are open)
    /// and starts the reader thread. Call off the loop.
    public func start() {
        for path in EvdevSource.eventNodes(in: directory) { tryOpen(path) }
        let t = Thread { [self] in run() }
        t.name = "strokes-evdev"
        thread = t
        t.start()
    }

    deinit {
        close(wake)
        close(wakeWriter)
    }

    public func stop() {
        var one: UInt8 = 1
        _ = write(wakeWriter, &one, 1)
    }

    /// `/dev/input/event*`, in numeric order.
    public static func eventNodes(in directory: String = "/dev/input") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("event") }
            .sorted { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
            .map { directory + "/" + $0 }
    }

    /// Whether the device is one strokes serves: protocol B, single-touch, or protocol A with
    /// single-touch axes (`DeviceDescription.touchDecoding`, what `MultitouchDecoder` accepts).
    public static func isTouch(_ d: DeviceDescription) -> Bool { d.touchDecoding.isDecodable }

    private func wanted(_ path: String, _ d: DeviceDescription) -> Bool {
        guard EvdevSource.isTouch(d) else { return false }
        if configuration.devices.isEmpty { return true }
        return configuration.devices.contains { DeviceSelector($0).matches(path: path, name: d.name) }
    }

    private func tryOpen(_ path: String) {
        guard !open.values.contains(where: { $0.device.path == path }) else { return }
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: path)
        } catch {
            logger.debug("not opened: \(error)")
            return
        }
        guard wanted(path, device.description) else { return }
        if configuration.grab {
            do { try device.grab(true) } catch { logger.warning("\(error)") }
        }
        let daemon = self.daemon
        let description = device.description
        let calibration = configuration.calibration(path: path, name: description.name)
        let jumps = configuration.jumpSetting(path: path, name: description.name)
        let group = DeviceGroup.key(eventNode: path, bustype: description.id.bustype, vendor: description.id.vendor)
        let arbitration = configuration.touchArbitration(path: path, name: description.name)
        let (slots, current) = device.slotStates()
        let now = MonotonicClock.now()
        let toolSeed = device.toolSeedEvents(time: now)
        let id: DeviceID? = try? daemon.loop.submit {
            let id = try daemon.addDevice(
                path: path, description: description, calibration: calibration, group: group, arbitration: arbitration,
                jumps: jumps)
            if !slots.isEmpty {
                daemon.process(Frame.seed(slots: slots, currentSlot: current, time: now), origin: .seed, device: id)
            }
            if !toolSeed.isEmpty { daemon.process(Frame(events: toolSeed, time: now), origin: .seed, device: id) }
            return id
        }.wait()
        guard let id else { return }
        open[device.fd] = Open(device: device, id: id)
    }

    private func run() {
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        if inotify >= 0 {
            if inotify_add_watch(inotify, directory, UInt32(IN_CREATE | IN_ATTRIB)) < 0 {
                logger.warning("no hotplug: cannot watch \(directory): \(String(cString: strerror(errno)))")
            }
        }
        defer {
            if inotify >= 0 { close(inotify) }
            open.removeAll()
        }
        var buffer: [(event: InputEvent, sync: Bool)] = []
        while true {
            var fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            if inotify >= 0 { fds.append(pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)) }
            for fd in open.keys { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            let rc = poll(&fds, nfds_t(fds.count), -1)
            if rc < 0 {
                if errno == EINTR { continue }
                logger.error("poll: \(String(cString: strerror(errno)))")
                return
            }
            if fds[0].revents != 0 { return }
            for p in fds.dropFirst() where p.revents != 0 {
                if p.fd == inotify {
                    for name in EvdevSource.drainInotify(inotify) where name.hasPrefix("event") {
                        tryOpen(directory + "/" + name)
                    }
                    continue
                }
                guard var dev = open[p.fd] else { continue }
                buffer.removeAll(keepingCapacity: true)
                let outcome = dev.device.read(into: &buffer)
                let work = EvdevSource.frames(from: buffer, assembler: &dev.assembler, syncEvents: &dev.syncEvents)
                open[p.fd] = dev
                let daemon = self.daemon
                let id = dev.id
                if !work.isEmpty {
                    daemon.loop.execute {
                        for (frame, resync) in work {
                            if resync {
                                daemon.process(frame, origin: .resync, device: id)
                            } else {
                                daemon.process(.frame(frame), device: id)
                            }
                        }
                    }
                }
                switch outcome {
                case .drained: break
                case .removed, .failed:
                    if case .failed(let e) = outcome { logger.error("\(dev.device.path): read failed: \(String(cString: strerror(e)))") }
                    open[p.fd] = nil
                    let now = MonotonicClock.now()
                    daemon.loop.execute { daemon.removeDevice(id, time: now) }
                }
            }
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

    private static func drainInotify(_ fd: Int32) -> [String] {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let len = buffer.withUnsafeBytes { raw in
                    Int(raw.load(fromByteOffset: offset + 12, as: UInt32.self))  // inotify_event.len
                }
                let start = offset + MemoryLayout<inotify_event>.size
                let nameBytes = buffer[start..<min(start + len, n)].prefix { $0 != 0 }
                names.append(String(decoding: nameBytes, as: UTF8.self))
                offset = start + len
            }
        }
        return names
    }
}

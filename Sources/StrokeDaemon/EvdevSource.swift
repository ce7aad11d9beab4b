import Evdev
import InputCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import StrokeTracker
import Synchronization
import struct SystemPackage.Errno
import SystemSupport

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
public final class EvdevSource: Service {
    private let daemon: Daemon
    private let configuration: DaemonConfiguration
    private let logger: Logger
    private let directory: String
    /// The open devices and the reader's loop: filled by `openDevices()` before the reader runs,
    /// then held by the reader thread for its whole life (it never contends).
    private let reader: Mutex<Reader>
    /// A pipe: a byte written wakes the reader thread's poll, and the thread ends.
    private let wake: (read: Int32, write: Int32)
    /// The reader thread: one, joined by its graceful shutdown at the end of `run()`.
    private let thread = NIOThreadPool(numberOfThreads: 1)

    public init(
        daemon: Daemon, configuration: DaemonConfiguration, logger: Logger, directory: String = "/dev/input"
    ) throws(Errno) {
        self.daemon = daemon
        self.configuration = configuration
        self.logger = logger
        self.directory = directory
        var ends: [Int32] = [-1, -1]
        _ = try Syscall.retrying { pipe(&ends) }  // pipe2 is not in Glibc's Swift overlay
        for fd in ends { _ = try Syscall.retrying { fcntl(fd, F_SETFD, FD_CLOEXEC) } }
        wake = (ends[0], ends[1])
        reader = Mutex(Reader(directory: directory, wake: ends[0]))
    }

    deinit {
        try? Syscall.closeDescriptor(wake.read)  // nothing uses the pipe any more: a failed close loses nothing
        try? Syscall.closeDescriptor(wake.write)
    }

    /// Opens the devices present now, so that once this returns their contacts are in the hub.
    /// Call off the loop, before `run()`.
    public func openDevices() {
        reader.withLock { reader in
            for path in EvdevSource.eventNodes(in: directory) { reader.tryOpen(path, source: self) }
        }
    }

    /// Reads the devices on the reader thread until graceful shutdown (or cancellation), then
    /// wakes the thread and joins it: when this returns, the last frames read have been handed
    /// to the loop and no thread of this source is left.
    public func run() async throws {
        thread.start()
        do {
            try await withTaskCancellationOrGracefulShutdownHandler {
                try await thread.runIfActive { [self] in
                    try reader.withLock { reader in try reader.run(source: self) }
                }
            } onCancelOrGracefulShutdown: { [self] in
                wakeReader()
            }
        } catch {
            try await thread.shutdownGracefully()
            throw error
        }
        try await thread.shutdownGracefully()
    }

    /// Whether no reader thread holds the reader's state: before `run()`, and after it returned.
    var readerIsIdle: Bool { reader.withLockIfAvailable { _ in true } ?? false }

    /// Wakes the reader thread to end it. The pipe is empty or holds a byte or two, so the write
    /// cannot block; its failure would leave the thread running, which must not pass unseen.
    private func wakeReader() {
        do {
            var one: UInt8 = 1
            _ = try Syscall.retrying { write(wake.write, &one, 1) }
        } catch {
            preconditionFailure("cannot wake the evdev reader thread: \(error)")
        }
    }

    /// `/dev/input/event*`, in numeric order.
    public static func eventNodes(in directory: String = "/dev/input") -> [String] {
        let names = (try? Files.names(in: directory)) ?? []
        return names.filter { $0.hasPrefix("event") }
            .sorted { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
            .map { directory + "/" + $0 }
    }

    /// Whether the device is one strokes serves: protocol B, single-touch, or protocol A with
    /// single-touch axes (`DeviceDescription.touchDecoding`, what `MultitouchDecoder` accepts).
    public static func isTouch(_ d: DeviceDescription) -> Bool { d.touchDecoding.isDecodable }

    func wanted(_ path: String, _ d: DeviceDescription) -> Bool {
        guard EvdevSource.isTouch(d) else { return false }
        if configuration.devices.isEmpty { return true }
        return configuration.devices.contains { DeviceSelector($0).matches(path: path, name: d.name) }
    }

    /// Adds an opened device to the daemon (on its loop, waited for) and seeds the contacts and
    /// tool already down; nil when the daemon refused it.
    func add(_ device: EvdevDevice) -> DeviceID? {
        let path = device.path
        if configuration.grab {
            do { try device.grab(true) } catch { logger.warning("\(error)") }
        }
        let daemon = self.daemon
        let description = device.description
        let calibration = configuration.calibration(path: path, name: description.name)
        let jumps = configuration.jumpSetting(path: path, name: description.name)
        let group = DeviceGroup.key(eventNode: path, bustype: description.id.bustype, vendor: description.id.vendor)
        let arbitration = configuration.touchArbitration(path: path, name: description.name)
        let gestures = configuration.gestureConfiguration(path: path, description: description)
        let (slots, current) = device.slotStates()
        let now = MonotonicClock.now()
        let toolSeed = device.toolSeedEvents(time: now)
        do {
            return try daemon.loop.submit {
                let id = try daemon.addDevice(
                    path: path, description: description, calibration: calibration, group: group, arbitration: arbitration,
                    jumps: jumps, gestures: gestures)
                if !slots.isEmpty {
                    daemon.process(
                        Frame.seed(slots: slots, currentSlot: current, time: now), origin: .seed, device: id)
                }
                if !toolSeed.isEmpty { daemon.process(Frame(events: toolSeed, time: now), origin: .seed, device: id) }
                return id
            }.wait()
        } catch {
            logger.warning("\(path): not added: \(error)")
            return nil
        }
    }

    /// Hands frames read from a device to the daemon's loop: one hop per read, not per frame.
    func deliver(_ work: [(Frame, Bool)], device id: DeviceID) {
        let daemon = self.daemon
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

    func removed(_ id: DeviceID) {
        let daemon = self.daemon
        let now = MonotonicClock.now()
        daemon.loop.execute { daemon.removeDevice(id, time: now) }
    }

    func warning(_ message: String) { logger.warning("\(message)") }
    func error(_ message: String) { logger.error("\(message)") }
    func debug(_ message: String) { logger.debug("\(message)") }

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
}

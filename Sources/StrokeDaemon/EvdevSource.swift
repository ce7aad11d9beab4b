import Evdev
import InputCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import StrokeTracker
import struct SystemPackage.Errno
import SystemSupport

/// Live touch devices (`/dev/input/event*`), read on the daemon's event loop: each open device
/// is a NIO channel on its node, and a frame goes from the kernel to the clients on one thread,
/// with no hop between a reader and the loop.
///
/// - libevdev opens and describes each device and keeps its view of the device's state: every
///   event read goes through libevdev's filter and state (`EvdevDevice.track`), as when libevdev
///   reads the node itself.
/// - At start every touch device is opened (or those `selectors` name), its slot state seeded so
///   contacts already down are adopted.
/// - Hotplug: inotify on `/dev/input` (`IN_CREATE`, and `IN_ATTRIB` because udev sets the
///   permissions after the node appears), itself a channel on the loop. Chosen over a libudev
///   monitor because it needs no netlink socket (the service allows `AF_UNIX` only), no udevd
///   (initramfs, containers, the QEMU guest of the end-to-end tests) and no extra library.
/// - A device that reports `ENODEV` is closed and removed: its strokes are cancelled
///   (`deviceRemoved`) and the daemon goes on.
/// - After `SYN_DROPPED`, the rest of that read is discarded and libevdev syncs
///   (`EvdevDevice.resync`); its sync frames are decoded as a resync (strokes that ended or
///   changed meanwhile are cancelled with `resync`; the others go on).
public final class EvdevSource: Service {
    let daemon: Daemon
    private let configuration: DaemonConfiguration
    let logger: Logger
    let directory: String
    /// The open devices' channels and the hotplug watch; on the loop only.
    private let state: NIOLoopBoundBox<State>

    struct State {
        /// Every device opened, from the moment it is added (its channel may still be being
        /// registered: a second `open` of the same node, in the same inotify read, finds it).
        var devices: [DeviceID: Open] = [:]
        var hotplug: Channel?
        /// Set when the source stops: nothing more is opened.
        var stopped = false
    }

    struct Open {
        var path: String
        var reader: DeviceReader
        var channel: EventLoopFuture<Channel>
    }

    public init(daemon: Daemon, configuration: DaemonConfiguration, logger: Logger, directory: String = "/dev/input") {
        self.daemon = daemon
        self.configuration = configuration
        self.logger = logger
        self.directory = directory
        state = .makeBoxSendingValue(State(), eventLoop: daemon.loop)
    }

    /// Starts the hotplug watch, then opens the devices present now (a node made in between is
    /// seen by both, and opened once); when this returns their contacts are in the hub.
    public func openDevices() async throws {
        try await daemon.loop.flatSubmit { [self] in
            startHotplugWatch().map { [self] in
                for path in EvdevSource.eventNodes(in: directory) { open(path) }
            }
        }.get()
    }

    /// Serves until graceful shutdown (or cancellation), then closes every device and the
    /// hotplug watch: when this returns, no channel of this source is left.
    public func run() async throws {
        try? await gracefulShutdown()  // thrown only for cancellation, which ends the same way
        try await stop()
    }

    /// Closes every device (without removing it from the hub: shutdown cancels its strokes) and
    /// the hotplug watch.
    public func stop() async throws {
        try await daemon.loop.flatSubmit { [self] in
            state.value.stopped = true
            var closing = state.value.devices.values.map { device in
                device.reader.quiet = true
                // A channel still being registered is closed once it is; one that failed to be
                // has nothing to close.
                return device.channel.flatMap { $0.close() }.recover { _ in }
            }
            if let hotplug = state.value.hotplug { closing.append(hotplug.close()) }
            state.value.devices.removeAll()
            state.value.hotplug = nil
            return EventLoopFuture.andAllComplete(closing, on: daemon.loop)
        }.get()
    }

    /// How many devices are open; on the loop only.
    var openCount: Int { state.value.devices.count }

    /// Whether the hotplug watch is open; on the loop only.
    var watching: Bool { state.value.hotplug != nil }

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

    /// Opens `path` if it is a touch device strokes serves and not open yet: adds it to the
    /// daemon, seeds the contacts and tool already down, and reads it from then on. On the loop.
    func open(_ path: String) {
        guard !state.value.stopped, !state.value.devices.values.contains(where: { $0.path == path }) else { return }
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: path)
        } catch {
            logger.debug("not opened: \(error)")
            return
        }
        guard wanted(path, device.description), let id = add(device) else { return }
        let descriptor: Int32
        do {
            // NIO closes what it is given; libevdev keeps the device's own descriptor (the same
            // open file: one kernel buffer, one grab).
            descriptor = try Syscall.retrying { dup(device.fd) }
        } catch {
            logger.error("\(path): cannot read it: dup: \(error)")
            daemon.removeDevice(id, time: MonotonicClock.now())
            return
        }
        let reader = NIOLoopBound(DeviceReader(device: device, id: id, source: self), eventLoop: daemon.loop)
        let bootstrap = NIOPipeBootstrap(group: daemon.loop)
            // Whole events per read, as many as a frame of every slot of a large device holds.
            .channelOption(ChannelOptions.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: EvdevDevice.eventSize * 512))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(reader.value) }
            }
        let channel = bootstrap.takingOwnershipOfDescriptor(input: descriptor)
        state.value.devices[id] = Open(path: path, reader: reader.value, channel: channel)
        channel.whenFailure { [self] error in
            try? Syscall.closeDescriptor(descriptor)  // still ours when the bootstrap failed
            // Unless the source stopped meanwhile (it let the device go already).
            guard state.value.devices.removeValue(forKey: id) != nil else { return }
            logger.error("\(path): cannot read it: \(error)")
            daemon.removeDevice(id, time: MonotonicClock.now())
        }
    }

    /// Adds an opened device to the daemon and seeds the contacts and tool already down; nil when
    /// the daemon refused it. On the loop.
    private func add(_ device: EvdevDevice) -> DeviceID? {
        let path = device.path
        if configuration.grab {
            do { try device.grab(true) } catch { logger.warning("\(error)") }
        }
        let description = device.description
        let (slots, current) = device.slotStates()
        let now = MonotonicClock.now()
        let keySeed = device.keySeedEvents(time: now)
        do {
            let id = try daemon.addDevice(
                path: path, description: description,
                calibration: configuration.calibration(path: path, name: description.name),
                group: DeviceGroup.key(eventNode: path, bustype: description.id.bustype, vendor: description.id.vendor),
                arbitration: configuration.touchArbitration(path: path, name: description.name),
                jumps: configuration.jumpSetting(path: path, name: description.name),
                gestures: configuration.gestureConfiguration(path: path, description: description))
            if !slots.isEmpty {
                daemon.process(Frame.seed(slots: slots, currentSlot: current, time: now), origin: .seed, device: id)
            }
            if !keySeed.isEmpty { daemon.process(Frame(events: keySeed, time: now), origin: .seed, device: id) }
            return id
        } catch {
            logger.warning("\(path): not added: \(error)")
            return nil
        }
    }

    /// A device's channel closed: unless the source closed it, the device is gone. On the loop.
    func closed(_ reader: DeviceReader) {
        guard !reader.quiet else { return }
        state.value.devices[reader.id] = nil
        daemon.removeDevice(reader.id, time: MonotonicClock.now())
    }

    /// inotify on the directory for new nodes and for nodes udev has just made readable; without
    /// it (a warning says why) the devices present at start are served and no others.
    private func startHotplugWatch() -> EventLoopFuture<Void> {
        let fd: Int32
        do {
            fd = try Syscall.retrying { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
        } catch {
            logger.warning("no hotplug: inotify: \(error)")
            return daemon.loop.makeSucceededVoidFuture()
        }
        do {
            _ = try Syscall.retrying { inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_ATTRIB)) }
        } catch {
            logger.warning("no hotplug: cannot watch \(directory): \(error)")
        }
        let watch = NIOLoopBound(HotplugWatch(source: self), eventLoop: daemon.loop)
        return NIOPipeBootstrap(group: daemon.loop)
            // A record is at most `inotify_event` and a name of NAME_MAX + 1 bytes.
            .channelOption(ChannelOptions.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 4096))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(watch.value) }
            }
            .takingOwnershipOfDescriptor(input: fd)
            .map { [self] channel in state.value.hotplug = channel }
            .flatMapErrorThrowing { [self] error in
                try? Syscall.closeDescriptor(fd)  // still ours when the bootstrap failed
                logger.warning("no hotplug: \(error)")
            }
    }
}

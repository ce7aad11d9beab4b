import CEvdevShims
import CLibevdev
import InputCore
import SystemPackage
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// A virtual input device made through `/dev/uinput` with libevdev's uinput API, from a
/// recording's device description. Every input stack on the machine sees it as a real device;
/// it disappears when this object is released (or `destroy()` is called).
///
/// Axes are created with fuzz 0: recorded values have already been through the kernel's fuzz
/// filter once (`input_defuzz_abs_event`), and filtering them again would change them.
public final class UinputDevice {
    private var dev: OpaquePointer?
    private var uidev: OpaquePointer?
    /// Our own `/dev/uinput` descriptor when we opened it (to set `phys`), else -1.
    private var uinputFD: Int32 = -1
    /// The `/dev/input/eventN` node, once the kernel has made it.
    public private(set) var devnode: String?

    public struct Error: Swift.Error, CustomStringConvertible {
        public var what: String
        public var errno: Errno
        public var description: String {
            var text = "\(what): \(errno)"
            if errno == .noSuchFileOrDirectory || errno == .permissionDenied {
                text += " (is the uinput module loaded and /dev/uinput writable?)"
            }
            return text
        }
    }

    /// Creates the device. Its node may take a moment to appear: see `devnode`.
    ///
    /// `phys` becomes the device's physical path (`UI_SET_PHYS`; `EVIOCGPHYS` and sysfs `phys`
    /// report it), which is what groups a pen and its touch sibling into one hardware. uinput has
    /// no way to set `uniq` (no `UI_SET_UNIQ`): a uinput device's `uniq` is always empty.
    public init(description: DeviceDescription, phys: String? = nil) throws {
        guard let dev = Libevdev.make(declaring: description) else { throw Error(what: "libevdev_new", errno: .noMemory) }
        self.dev = dev
        var fd = Int32(LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue)
        if let phys {
            // libevdev (1.13) hands uinput no phys, even after libevdev_set_phys: set it on a
            // uinput descriptor of our own, on which libevdev then creates the device.
            let own: Int32
            do {
                own = try Syscall.retrying { open("/dev/uinput", O_RDWR | O_CLOEXEC) }
            } catch {
                destroy()
                throw Error(what: "cannot open /dev/uinput", errno: error)
            }
            uinputFD = own
            do {
                _ = try Syscall.retrying { cevdev_uinput_set_phys(own, phys) }
            } catch {
                destroy()
                throw Error(what: "UI_SET_PHYS", errno: error)
            }
            fd = own
        }
        var made: OpaquePointer?
        do {
            _ = try Syscall.retryingNegatedErrno { libevdev_uinput_create_from_device(dev, fd, &made) }
        } catch {
            destroy()
            throw Error(what: "cannot create a uinput device", errno: error)
        }
        guard let made else {
            destroy()
            throw Error(what: "cannot create a uinput device", errno: .operationNotSupportedByDevice)
        }
        uidev = made
        devnode = libevdev_uinput_get_devnode(made).map { String(cString: $0) }
    }

    deinit { destroy() }

    /// Waits up to `timeout` seconds for the kernel to create the device node, and returns it.
    public func waitForDevnode(timeout: Double = 5) -> String? {
        guard let uidev else { return nil }
        let deadline = MonotonicClock.now().microseconds + Int64(timeout * 1_000_000)
        while devnode == nil || access(devnode!, F_OK) != 0 {
            devnode = libevdev_uinput_get_devnode(uidev).map { String(cString: $0) }
            if MonotonicClock.now().microseconds > deadline { return nil }
            usleep(10_000)
        }
        return devnode
    }

    /// Writes one event. The kernel stamps it with the time of the write; a `SYN_REPORT` hands the
    /// frame to readers.
    public func write(type: EventType, code: UInt16, value: Int32) throws {
        guard let uidev else { throw Error(what: "the device was destroyed", errno: .operationNotSupportedByDevice) }
        do {
            _ = try Syscall.retryingNegatedErrno { libevdev_uinput_write_event(uidev, UInt32(type.rawValue), UInt32(code), value) }
        } catch {
            throw Error(what: "uinput write", errno: error)
        }
    }

    /// Writes `events` and, unless the last one already is one, a closing `SYN_REPORT`.
    public func writeFrame(_ events: [InputEvent]) throws {
        for e in events { try write(type: e.type, code: e.code, value: e.value) }
        if let last = events.last, last.type == .syn, last.code == SynCode.report { return }
        try write(type: .syn, code: SynCode.report, value: 0)
    }

    /// Removes the device from the system: readers get `ENODEV`.
    public func destroy() {
        if let uidev { libevdev_uinput_destroy(uidev) }
        if let dev { libevdev_free(dev) }
        if uinputFD >= 0 { try? Syscall.closeDescriptor(uinputFD) }  // the device is gone either way
        uidev = nil
        dev = nil
        uinputFD = -1
    }
}

import CEvdevShims
import CLibevdev
import InputCore
import SystemPackage
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// A live input device read through libevdev, with `CLOCK_MONOTONIC` timestamps. Not thread-safe:
/// one thread owns it. Either libevdev reads the node (`read(into:)`), or the owner reads it and
/// hands each event to libevdev (`events(in:into:)`, `track`, `resync`).
public final class EvdevDevice {
    public let path: String
    public let fd: Int32
    private let dev: OpaquePointer
    /// The device as libevdev describes it right after opening (absinfo holds current values).
    public let description: DeviceDescription

    /// What one read produced.
    public enum ReadOutcome: Equatable {
        /// Nothing more to read now (`EAGAIN`).
        case drained
        /// The device is gone (`ENODEV`): it was unplugged.
        case removed
        /// Another error.
        case failed(Errno)
    }

    public struct OpenError: Error, CustomStringConvertible {
        public var path: String
        public var errno: Errno
        public var what: String
        public var description: String { "\(path): \(what): \(errno)" }
    }

    /// Opens `path` non-blocking. Throws when it cannot be opened or is not an evdev device.
    public init(path: String) throws {
        self.path = path
        let fd: Int32
        do {
            fd = try Syscall.retrying { FileName.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) } }
        } catch {
            throw OpenError(path: path, errno: error, what: "cannot open")
        }
        var device: OpaquePointer?
        do {
            _ = try Syscall.retryingNegatedErrno { libevdev_new_from_fd(fd, &device) }
        } catch {
            try? Syscall.closeDescriptor(fd)  // opened read-only and unused: nothing to lose
            throw OpenError(path: path, errno: error, what: "not an evdev device")
        }
        // Frame times must be comparable across devices and with the daemon's own clock.
        do {
            _ = try Syscall.retryingNegatedErrno { libevdev_set_clock_id(device, CLOCK_MONOTONIC) }
        } catch {
            libevdev_free(device)
            try? Syscall.closeDescriptor(fd)
            throw OpenError(path: path, errno: error, what: "cannot set the clock to CLOCK_MONOTONIC")
        }
        self.fd = fd
        dev = device!
        description = EvdevDevice.describe(dev)
    }

    /// A device with no node that declares what `description` declares, for tests of `track`:
    /// libevdev's filter and state without a device. Nothing can be read from it.
    init?(unopened description: DeviceDescription) {
        guard let dev = Libevdev.make(declaring: description) else { return nil }
        path = "(no node)"
        fd = -1
        self.dev = dev
        self.description = EvdevDevice.describe(dev)
    }

    deinit {
        libevdev_free(dev)
        if fd >= 0 {
            try? Syscall.closeDescriptor(fd)  // nothing to do about a failed close of a device being let go
        }
    }

    /// The physical path the kernel reports (`EVIOCGPHYS`), empty when it has none.
    public var phys: String { libevdev_get_phys(dev).map { String(cString: $0) } ?? "" }

    /// The unique identifier the kernel reports (`EVIOCGUNIQ`), empty when it has none.
    public var uniq: String { libevdev_get_uniq(dev).map { String(cString: $0) } ?? "" }

    /// Takes or releases an exclusive grab (`EVIOCGRAB`): while grabbed, no one else sees events.
    public func grab(_ on: Bool) throws {
        do {
            _ = try Syscall.retryingNegatedErrno { libevdev_grab(dev, on ? LIBEVDEV_GRAB : LIBEVDEV_UNGRAB) }
        } catch {
            throw OpenError(path: path, errno: error, what: "cannot grab")
        }
    }

    /// The slots' state as libevdev read it (`EVIOCGMTSLOTS`) when the device was opened or last
    /// synced, for `Frame.seed`.
    public func slotStates() -> (slots: [SlotState], current: Int32) {
        let count = libevdev_get_num_slots(dev)
        guard count > 0 else { return ([], 0) }
        var out: [SlotState] = []
        for slot in 0..<count {
            let id = Int32(libevdev_get_slot_value(dev, UInt32(slot), UInt32(AbsCode.mtTrackingID)))
            var axes: [UInt16: Int32] = [:]
            for code in UInt16(AbsCode.mtSlot + 1)...UInt16(cevdev_abs_max()) where AbsCode.isPerSlot(code) {
                guard code != AbsCode.mtTrackingID, libevdev_has_event_code(dev, UInt32(EV_ABS), UInt32(code)) == 1 else { continue }
                axes[code] = Int32(libevdev_get_slot_value(dev, UInt32(slot), UInt32(code)))
            }
            out.append(.init(trackingID: id, axes: axes))
        }
        return (out, Int32(libevdev_get_current_slot(dev)))
    }

    /// For a pen device with a tool in proximity: its state as libevdev read it when the device
    /// was opened (`EVIOCGKEY`, `EVIOCGABS`) as one frame of events, for
    /// `MultitouchDecoder.process(_:origin:)` with `.seed`, so that the pen is published at once.
    /// Keys, position, pressure and distance only: an axis such as tilt holds the kernel's initial
    /// 0 on a device that never reports it, and would be an invented value. Empty otherwise.
    ///
    /// For a single-touch device (protocol A too): its `BTN_TOUCH` as one event, so that the
    /// decoder knows whether the device is touching (adopted, with the position the description
    /// seeds) or not (motion is then a hovering tool or an approaching finger, not a contact). A
    /// recording has no key state, and its motion before the first `BTN_TOUCH` is adopted
    /// (docs/decoder.md, "Devices without slots").
    public func keySeedEvents(time: Timestamp) -> [InputEvent] {
        let d = description
        if d.touchDecoding == .singleTouch {
            let touch = libevdev_get_event_value(dev, UInt32(EV_KEY), UInt32(KeyCode.btnTouch))
            return [InputEvent(time: time, type: .key, code: KeyCode.btnTouch, value: touch)]
        }
        guard d.touchProtocol == .tool else { return [] }
        let inProximity = d.penToolKeys.contains { libevdev_get_event_value(dev, UInt32(EV_KEY), UInt32($0)) != 0 }
        guard inProximity else { return [] }
        var events: [InputEvent] = []
        for code in [AbsCode.x, AbsCode.y, AbsCode.pressure, AbsCode.distance] where d.has(.abs, code) {
            events.append(InputEvent(time: time, type: .abs, code: code, value: libevdev_get_event_value(dev, UInt32(EV_ABS), UInt32(code))))
        }
        for code in (d.codes[.key] ?? []).sorted() {
            events.append(InputEvent(time: time, type: .key, code: code, value: libevdev_get_event_value(dev, UInt32(EV_KEY), UInt32(code))))
        }
        return events
    }

    /// Reads every event available now, in order, each marked whether it is one of libevdev's
    /// sync events: after the kernel dropped events (`SYN_DROPPED`), libevdev reports the
    /// difference between the state before the drop and the device's state now as sync events,
    /// ending with their `SYN_REPORT`; ordinary events follow.
    public func read(into out: inout [(event: InputEvent, sync: Bool)]) -> ReadOutcome {
        var ev = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let rc: Int32
            do {
                rc = try Syscall.retryingNegatedErrno { libevdev_next_event(dev, flags, &ev) }
            } catch .resourceTemporarilyUnavailable {
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                return .drained
            } catch .operationNotSupportedByDevice {  // ENODEV
                return .removed
            } catch {
                return .failed(error)
            }
            if rc == LIBEVDEV_READ_STATUS_SUCCESS.rawValue {
                out.append((EvdevDevice.event(ev), flags == LIBEVDEV_READ_FLAG_SYNC.rawValue))
            } else if rc == LIBEVDEV_READ_STATUS_SYNC.rawValue {
                // This status comes with the SYN_DROPPED event itself (or with a sync event while
                // syncing); the state difference is read in sync mode until -EAGAIN (libevdev.h,
                // "SYN_DROPPED handling").
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue { out.append((EvdevDevice.event(ev), true)) }
                flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
            }
        }
    }

    /// For a reader that reads the node itself (the daemon reads on its event loop): what libevdev
    /// does with each event when it reads it (`libevdev_next_event`). The event is dropped when
    /// libevdev's filter drops it (a code the device does not declare; a tracking ID that goes
    /// from -1 to -1 or from one ID to another); otherwise libevdev's view of the device (slots,
    /// keys, axes) takes it, and a later `resync` compares that view with the kernel's.
    /// Returns whether the event is kept. Not for `read(into:)`'s events: libevdev took those.
    public func track(_ event: InputEvent) -> Bool {
        let type = UInt32(event.type.rawValue)
        // The types libevdev keeps state for; it passes the others through when declared.
        if event.type == .abs || event.type == .key || event.type == .led || event.type == .sw {
            return libevdev_set_event_value(dev, type, UInt32(event.code), event.value) == 0
        }
        return libevdev_has_event_code(dev, type, UInt32(event.code)) == 1
    }

    /// After `SYN_DROPPED` among the events read from the node: libevdev's sync, as
    /// `read(into:)` runs it. libevdev discards what the kernel still holds for this reader,
    /// reads the device's state (`EVIOCGMTSLOTS`, `EVIOCGKEY`, `EVIOCGABS`) and appends its
    /// difference from libevdev's view (`track`) as sync events, each frame ending with its
    /// `SYN_REPORT`. The reader goes on reading the node afterwards.
    public func resync(into out: inout [(event: InputEvent, sync: Bool)]) -> ReadOutcome {
        var ev = input_event()
        var flags = LIBEVDEV_READ_FLAG_FORCE_SYNC.rawValue
        while true {
            let rc: Int32
            do {
                rc = try Syscall.retryingNegatedErrno { libevdev_next_event(dev, flags, &ev) }
            } catch .resourceTemporarilyUnavailable {
                return .drained  // every sync event handed over
            } catch .operationNotSupportedByDevice {  // ENODEV
                return .removed
            } catch {
                return .failed(error)
            }
            if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                if rc == LIBEVDEV_READ_STATUS_SYNC.rawValue { out.append((EvdevDevice.event(ev), true)) }
            } else {
                flags = LIBEVDEV_READ_FLAG_SYNC.rawValue  // FORCE_SYNC answers with SYN_DROPPED itself
            }
        }
    }

    /// The events in `bytes` as `read(2)` returns them from an evdev node: whole `input_event`s
    /// (the kernel never returns part of one).
    public static func events(in bytes: UnsafeRawBufferPointer, into out: inout [InputEvent]) {
        let size = MemoryLayout<input_event>.size
        var offset = 0
        while offset + size <= bytes.count {
            out.append(event(bytes.loadUnaligned(fromByteOffset: offset, as: input_event.self)))
            offset += size
        }
    }

    /// The size of one event as the node returns it.
    public static var eventSize: Int { MemoryLayout<input_event>.size }

    private static func event(_ ev: input_event) -> InputEvent {
        var copy = ev
        let micros = cevdev_event_sec(&copy) * 1_000_000 + cevdev_event_usec(&copy)
        return InputEvent(time: Timestamp(microseconds: micros), type: EventType(ev.type), code: ev.code, value: ev.value)
    }

    private static func describe(_ dev: OpaquePointer) -> DeviceDescription {
        let name = libevdev_get_name(dev).map { String(cString: $0) } ?? ""
        let id = InputID(
            bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(dev)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(dev)))
        var properties: Set<UInt16> = []
        for p in 0..<UInt32(INPUT_PROP_CNT) where libevdev_has_property(dev, p) == 1 { properties.insert(UInt16(p)) }
        var codes: [EventType: Set<UInt16>] = [:]
        var absInfo: [UInt16: AbsInfo] = [:]
        // EV_MSC for pens: MSC_SERIAL is the tool's serial number (docs/decoder.md, "Pens").
        let types = [(UInt32(EV_KEY), Int(cevdev_key_max())), (UInt32(EV_ABS), Int(cevdev_abs_max())), (UInt32(EV_MSC), Int(MSC_MAX))]
        for (type, max) in types {
            guard libevdev_has_event_type(dev, type) == 1 else { continue }
            var set: Set<UInt16> = []
            for code in 0...max where libevdev_has_event_code(dev, type, UInt32(code)) == 1 {
                set.insert(UInt16(code))
                if type == UInt32(EV_ABS), let a = libevdev_get_abs_info(dev, UInt32(code))?.pointee {
                    absInfo[UInt16(code)] = AbsInfo(
                        value: a.value, minimum: a.minimum, maximum: a.maximum, fuzz: a.fuzz, flat: a.flat,
                        resolution: a.resolution)
                }
            }
            codes[EventType(UInt16(type))] = set
        }
        return DeviceDescription(
            name: name, id: id, properties: properties, codes: codes, absInfo: absInfo, currentValues: Set(absInfo.keys))
    }
}

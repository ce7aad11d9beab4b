import Evdev
import InputCore
import StrokeTracker
import struct SystemPackage.Errno
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

extension EvdevSource {
    /// What the reader thread owns: the open devices by descriptor, each with its frame assembly,
    /// and the poll loop over them, the hotplug watch and the wake pipe.
    struct Reader {
        struct Open {
            var device: EvdevDevice
            var id: DeviceID
            var assembler = FrameAssembler()
            var syncEvents: [InputEvent] = []
        }

        let directory: String
        /// The read end of the source's wake pipe.
        let wake: Int32
        var open: [Int32: Open] = [:]

        init(directory: String, wake: Int32) {
            self.directory = directory
            self.wake = wake
        }

        mutating func tryOpen(_ path: String, source: EvdevSource) {
            guard !open.values.contains(where: { $0.device.path == path }) else { return }
            let device: EvdevDevice
            do {
                device = try EvdevDevice(path: path)
            } catch {
                source.debug("not opened: \(error)")
                return
            }
            guard source.wanted(path, device.description), let id = source.add(device) else { return }
            open[device.fd] = Open(device: device, id: id)
        }

        /// Polls the devices, the hotplug watch and the wake pipe until a byte arrives on the
        /// pipe; then closes the devices. Throws when poll itself fails.
        mutating func run(source: EvdevSource) throws {
            let inotify = startHotplugWatch(source)
            defer {
                if let inotify { try? Syscall.closeDescriptor(inotify) }  // read-only watch: nothing to lose
                open.removeAll()
            }
            var buffer: [(event: InputEvent, sync: Bool)] = []
            var fds: [pollfd] = []
            while true {
                fds.removeAll(keepingCapacity: true)
                fds.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0))
                if let inotify { fds.append(pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)) }
                for fd in open.keys { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
                _ = try Syscall.retrying { poll(&fds, nfds_t(fds.count), -1) }
                if fds[0].revents != 0 { return }
                for p in fds.dropFirst() where p.revents != 0 {
                    if p.fd == inotify {
                        let names: [String]
                        do {
                            names = try Reader.drainInotify(p.fd)
                        } catch {
                            source.warning("hotplug: reading inotify: \(error)")
                            continue
                        }
                        for name in names where name.hasPrefix("event") { tryOpen(directory + "/" + name, source: source) }
                        continue
                    }
                    guard var dev = open[p.fd] else { continue }
                    buffer.removeAll(keepingCapacity: true)
                    let outcome = dev.device.read(into: &buffer)
                    let work = EvdevSource.frames(from: buffer, assembler: &dev.assembler, syncEvents: &dev.syncEvents)
                    open[p.fd] = dev
                    if !work.isEmpty { source.deliver(work, device: dev.id) }
                    switch outcome {
                    case .drained: break
                    case .removed:
                        open[p.fd] = nil
                        source.removed(dev.id)
                    case .failed(let e):
                        source.error("\(dev.device.path): read failed: \(e)")
                        open[p.fd] = nil
                        source.removed(dev.id)
                    }
                }
            }
        }

        /// inotify on the directory for new nodes (`IN_CREATE`) and for nodes udev has just made
        /// readable (`IN_ATTRIB`); nil, with a warning, when there is no hotplug.
        private func startHotplugWatch(_ source: EvdevSource) -> Int32? {
            let fd: Int32
            do {
                fd = try Syscall.retrying { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
            } catch {
                source.warning("no hotplug: inotify: \(error)")
                return nil
            }
            do {
                _ = try Syscall.retrying { inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_ATTRIB)) }
            } catch {
                source.warning("no hotplug: cannot watch \(directory): \(error)")
            }
            return fd
        }

        /// The names in the inotify records available now. Each record is an `inotify_event`
        /// followed by `len` bytes of NUL-padded name.
        static func drainInotify(_ fd: Int32) throws(Errno) -> [String] {
            var names: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n: Int
                do {
                    n = try Syscall.retrying { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
                } catch .resourceTemporarilyUnavailable {
                    break
                }
                guard n > 0 else { break }
                names += records(buffer[..<n])
            }
            return names
        }

        /// The names in a buffer of whole inotify records (the kernel never splits one).
        static func records(_ bytes: ArraySlice<UInt8>) -> [String] {
            var names: [String] = []
            let header = MemoryLayout<inotify_event>.size
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset + header <= raw.count {
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let start = offset + header
                    let end = min(start + Int(event.len), raw.count)
                    let name = raw[start..<end].prefix { $0 != 0 }
                    names.append(String(decoding: name, as: UTF8.self))
                    offset = start + Int(event.len)
                }
            }
            return names
        }
    }
}

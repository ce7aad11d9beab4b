import NIOConcurrencyHelpers
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// The peer's supplementary groups, from `SO_PEERGROUPS` (Linux 4.13 and later), which the
/// kernel records at connect time like `SO_PEERCRED`.
///
/// Read into a fixed buffer of 128 groups (NIO's socket options have a fixed size and drop the
/// returned length): a peer in more groups than that, or a kernel without the option, gets nil
/// and only its primary group is matched. Group 0 is ignored in the list, since the buffer's
/// unused tail is zero; the primary group matches it.
enum PeerGroups {
    static let capacity = 128
    typealias Buffer = (gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t)

    static func read(_ channel: Channel) -> Set<UInt32>? {
        guard let provider = channel as? SocketOptionProvider else { return nil }
        let future: EventLoopFuture<Buffer> = provider.unsafeGetSocketOption(
            level: .socket, name: NIOBSDSocket.Option(rawValue: 59))  // SO_PEERGROUPS
        let result = NIOLockedValueBox<Set<UInt32>?>(nil)
        // On the channel's event loop the option is read at once and the future is complete.
        future.whenSuccess { buffer in
            var groups = Set<UInt32>()
            withUnsafeBytes(of: buffer) { raw in
                for gid in raw.bindMemory(to: gid_t.self) where gid != 0 { groups.insert(UInt32(gid)) }
            }
            result.withLockedValue { $0 = groups }
        }
        return result.withLockedValue { $0 }
    }
}

import NIOConcurrencyHelpers
import NIOCore

/// Reads a socket option of a connected channel, on the channel's event loop.
enum SocketOption {
    /// The option's value, or nil when the channel has no socket options or the read failed. On
    /// the channel's event loop the option is read at once and the future is already complete, so
    /// the callback runs before this returns.
    static func read<Value: Sendable>(_ channel: Channel, level: NIOBSDSocket.OptionLevel = .socket, _ name: Int32) -> Value? {
        guard let provider = channel as? SocketOptionProvider else { return nil }
        let future: EventLoopFuture<Value> = provider.unsafeGetSocketOption(level: level, name: NIOBSDSocket.Option(rawValue: name))
        let value = NIOLockedValueBox<Value?>(nil)
        future.whenSuccess { v in value.withLockedValue { $0 = v } }
        return value.withLockedValue { $0 }
    }
}

import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// The listening channel's back-off when accept fails for want of descriptors or memory (EMFILE,
/// ENFILE, ENOBUFS, ENOMEM): reading (accepting) is paused for the delay `failed` returns, then
/// resumed. NIO's `AcceptBackoffHandler` only holds back the next `read()`, but after a failed
/// accept NIO still has a read pending and the listening descriptor stays registered, so the
/// level-triggered poll reports it again at once and accept is retried in a busy loop; turning
/// `autoRead` off takes the descriptor out of the poll until the delay is over.
/// Both listeners use it: the clients' socket and the HTTP listener.
public final class AcceptBackoff: ChannelInboundHandler {
    public typealias InboundIn = Channel
    public typealias InboundOut = Channel

    private let failed: (IOError) -> TimeAmount
    private var paused = false

    public init(failed: @escaping (IOError) -> TimeAmount) { self.failed = failed }

    public func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard let error = error as? IOError else {
            context.fireErrorCaught(error)
            return
        }
        // Other accept errors NIO does not close the listener for (ECONNABORTED: a client gone
        // before it was accepted) need nothing; those it closes it for, nothing here can mend.
        guard Self.recoverable(error.errnoCode) else { return }
        let delay = failed(error)
        guard !paused, let options = context.channel.syncOptions else { return }
        paused = true
        try? options.setOption(ChannelOptions.autoRead, value: false)
        let channel = context.channel
        context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
            self.paused = false
            if channel.isActive { try? channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true) }
        }
    }

    static func recoverable(_ code: Int32) -> Bool {
        code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM
    }
}

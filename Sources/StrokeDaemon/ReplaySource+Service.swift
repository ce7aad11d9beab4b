import ServiceLifecycle

extension ReplaySource: Service {
    /// Plays until graceful shutdown (or cancellation), then stops on the loop: no frame is fed
    /// after this returns. A recording played through (without `loop`) leaves the daemon
    /// serving, as a live device that stops moving does.
    public func run() async throws {
        try? await gracefulShutdown()  // thrown only for cancellation, which ends the same way
        try await daemon.loop.submit { self.stop() }.get()
    }
}

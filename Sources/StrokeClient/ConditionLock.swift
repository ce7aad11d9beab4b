#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex with a condition variable, and a detached pthread: what the reader thread and
/// its consumers share. Plain pthreads so that the client library needs nothing of Foundation
/// beyond FoundationEssentials (no ICU in a client's memory; issue 14).
public final class ConditionLock: @unchecked Sendable {
    // @unchecked: the pthread objects are what makes the rest thread-safe; they never move.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        precondition(pthread_mutex_init(mutex, nil) == 0 && pthread_cond_init(condition, nil) == 0)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
    /// Waits for `signal` or `broadcast`, with the lock held (released while waiting).
    public func wait() { pthread_cond_wait(condition, mutex) }
    public func signal() { pthread_cond_signal(condition) }
    public func broadcast() { pthread_cond_broadcast(condition) }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Runs `body` on a new detached thread.
public func startThread(_ body: @escaping @Sendable () -> Void) throws {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let rc = pthread_create(&thread, nil, { raw in
        Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }, box)
    guard rc == 0 else {
        Unmanaged<Box>.fromOpaque(box).release()
        throw StrokeClientError(.connectionLost, "cannot start a thread: \(String(cString: strerror(rc)))")
    }
    pthread_detach(thread)
}

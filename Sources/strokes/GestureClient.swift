import GestureActions
import StrokeClient
import StrokeProtocol
import UnixSignals

/// `strokes gestures` once its configuration is read: the subscription to the daemon's gestures,
/// the commands they start, and SIGHUP, which reads the configuration again.
struct GestureClient: Sendable {
    var configurationPath: String
    var socketPath: String
    var devices: [UInt32]
    var dryRun: Bool
    var once: Bool
    var verbose: Bool

    func run(_ configuration: GestureActionConfiguration) async throws {
        let rules = Rules(GestureDispatcher(configuration))
        // Trapped before connecting: a SIGHUP from then on reloads instead of ending the process.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await serve(rules) }
            group.addTask {
                for await _ in hangups { reload(rules) }
            }
            // The stream ends only with --once; then the reloads go too.
            try await group.next()
            group.cancelAll()
        }
    }

    /// Reads the configuration again; an invalid one changes nothing (the error is logged).
    private func reload(_ rules: Rules) {
        do {
            let configuration = try GestureActionConfiguration.parse(
                try GesturesCommand.read(configurationPath), file: configurationPath)
            rules.replace(GestureDispatcher(configuration))
            gesturesLog("configuration reloaded: \(configuration.rules.count) rule(s)")
        } catch {
            gesturesLog("configuration not reloaded: \(error)")
        }
    }

    /// Connects and streams; without `--once`, a daemon that sends what is not the protocol is
    /// left and connected to again (backed off), as one that goes away is: one bad line ended the
    /// client (exit 69), and with it every rule.
    private func serve(_ rules: Rules) async throws {
        let spawner = dryRun ? nil : CommandSpawner(log: { gesturesLog($0) })
        let backoff = Backoff(initial: 0.5, maximum: 30)
        var broken = 0
        while true {
            let client = try await connect()
            defer { client.close() }
            guard client.hello.features.contains("gestures") else {
                printError("\(client.hello.daemon) at \(socketPath) does not recognise gestures (no feature 'gestures')")
                throw Exit.unavailable
            }
            do {
                try await stream(client, rules, spawner)
                return
            } catch let error as StrokeClientError where error.code == .protocolError && !once {
                broken += 1
                gesturesLog("the daemon sent what is not the strokes protocol (\(error.message)); reconnecting")
                try await Task.sleep(nanoseconds: UInt64(backoff.delay(after: broken) * 1e9))
            }
        }
    }

    private func stream(_ client: StrokeClient, _ rules: Rules, _ spawner: CommandSpawner?) async throws {
        let events: [Request.StreamType] = [.gesture, .deviceAdded, .deviceRemoved]
        var names: [UInt32: String] = [:]
        var out = OutputBuffer()
        let clock = ContinuousClock()
        let start = clock.now
        do {
            stream: for try await event in client.subscribe(devices: devices.isEmpty ? nil : devices, events: events, reconnect: !once) {
                switch event {
                case .message(.gesture(let gesture)):
                    let elapsed = (clock.now - start).components
                    let now = elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000
                    let name = names[gesture.device]
                    let (decision, maxRunning) = rules.decide(gesture, deviceName: name, running: spawner?.running ?? 0, now: now)
                    switch decision {
                    case .none: break
                    case .run(let command):
                        guard let spawner else {
                            out.line(command.dryRunLine)
                            out.flush()
                            continue
                        }
                        switch spawner.spawn(command) {
                        case .success(let pid): if verbose { gesturesLog("\(command.rule): started \(command.argv) (pid \(pid))") }
                        case .failure(let errno): gesturesLog("\(command.rule): cannot run \(command.argv): \(errno)")
                        }
                    case .ruleLimited(let rule): if verbose { gesturesLog("\(rule): skipped a gesture (the rule's rate limit)") }
                    case .globalLimited(let rule): if verbose { gesturesLog("\(rule): skipped a gesture (the global rate limit)") }
                    case .busy(let rule): gesturesLog("\(rule): skipped a gesture: \(maxRunning) commands are still running")
                    }
                case .message(.snapshot):
                    // A new subscription (the first, or after a gap): device ids may have changed.
                    // Without names, rules by name do not match until the next snapshot; ids still do.
                    do {
                        names = Dictionary(try await client.devices().map { ($0.device, $0.name) }) { $1 }
                    } catch {
                        gesturesLog("cannot list the daemon's devices: \(error)")
                    }
                case .message(.deviceAdded(let added)): names[added.device.device] = added.device.name
                case .message(.deviceRemoved(let removed)): names[removed.device] = nil
                case .message(.goodbye(let goodbye)):
                    if once { break stream }
                    gesturesLog("the daemon said goodbye (\(goodbye.reason)); reconnecting")
                case .message(.error(let error)): gesturesLog("the daemon: \(error.error): \(error.message)")
                case .message(.hello), .message(.reply), .message(.stroke), .message(.hover), .message(.replayEnded),
                    .message(.unknown):
                    break
                case .gap(let gap): gesturesLog("reconnected to the daemon (\(gap.reason))")
                }
            }
        } catch let error as StrokeClientError where once && error.code == .connectionLost {
            // The end of a --once run, as a goodbye is.
        } catch let error as StrokeClientError where !(error.code == .protocolError && !once) {
            printError("\(error)")
            throw Exit.unavailable
        }
        // Only --once gets here: the commands it started finish before it exits.
        await spawner?.waitForAll()
    }

    /// The first connection; without `--once`, retried until the daemon answers (a user unit
    /// may start before it), said once.
    private func connect() async throws -> StrokeClient {
        let backoff = Backoff(initial: 0.1, maximum: 5)
        var failures = 0
        while true {
            do {
                return try await StrokeClient.connect(path: socketPath)
            } catch let error as StrokeClientError where error.code == .connectionLost && !once {
                failures += 1
                if failures == 1 { gesturesLog("waiting for the daemon at \(socketPath): \(error.message)") }
                try await Task.sleep(nanoseconds: UInt64(backoff.delay(after: failures) * 1e9))
            } catch {
                printError("\(error)")
                throw Exit.unavailable
            }
        }
    }
}

/// The dispatcher in force, replaced whole by a reload (its rate limits start afresh).
private final class Rules: @unchecked Sendable {
    // @unchecked: `dispatcher` is read and written only with `lock` held.
    private let lock = ConditionLock()
    private var dispatcher: GestureDispatcher

    init(_ dispatcher: GestureDispatcher) { self.dispatcher = dispatcher }

    func replace(_ dispatcher: GestureDispatcher) { lock.withLock { self.dispatcher = dispatcher } }

    /// The decision, and the `maxRunning` it was taken with.
    func decide(_ gesture: GestureMessage, deviceName: String?, running: Int, now: Int64) -> (GestureDispatcher.Decision, Int) {
        lock.withLock {
            (dispatcher.decide(gesture, deviceName: deviceName, running: running, now: now), dispatcher.configuration.maxRunning)
        }
    }
}

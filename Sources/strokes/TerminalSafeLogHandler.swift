import InputCore
import Logging

/// The daemon's log lines (standard error: the journal, or a terminal) with what they quote from
/// outside (device names, recording paths, daemon clients' text) made one line that cannot move
/// the cursor or display reversed: the message and every metadata value through `terminalSafe`,
/// then `StreamLogHandler`'s format.
struct TerminalSafeLogHandler: LogHandler {
    var inner: StreamLogHandler

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var safe = event
        safe.message = "\(terminalSafe(event.message.description))"
        safe.metadata = event.metadata?.mapValues { .string(terminalSafe($0.description)) }
        inner.log(event: safe)
    }
}

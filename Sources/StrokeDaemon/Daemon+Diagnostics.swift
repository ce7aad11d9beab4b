import Evdev
import NIOCore
import StrokeProtocol

// The decoders' diagnostics: logged rate-limited (`DiagnosticLog`), counted per device in `stats`.
extension Daemon {
    /// Logs what the decoders reported since the last call, and forgets it.
    func logDiagnostics() {
        let now = Int64(NIODeadline.now().uptimeNanoseconds / 1000)
        for (device, diagnostic) in hub.reports {
            let name = hub.device(device)?.description.name ?? ""
            for line in diagnosticLog.lines(for: diagnostic, device: device, name: name, at: now, naming: EventNames.describe) {
                logger.log(level: line.level, "\(line.message)", metadata: ["device": "\(device)", "diagnostic": "\(line.kind.rawValue)"])
            }
        }
        hub.clearReports()
    }

    /// `stats`' `devices`: per device, its id and its non-zero decoder counters.
    func diagnosticsJSON() -> String {
        var out = "["
        for info in hub.deviceInfos {
            guard let counts = hub.diagnostics(of: info.id) else { continue }
            var c = JSONWriter()
            for (name, count) in counts.nonZero { c.field(named: name, count) }
            var d = JSONWriter()
            d.field("device", info.id.rawValue)
            d.raw("diagnostics", c.finish())
            if out.count > 1 { out.append(",") }
            out.append(d.finish())
        }
        return out + "]"
    }
}

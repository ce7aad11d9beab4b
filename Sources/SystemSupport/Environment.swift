#if canImport(Glibc)
import Glibc
#endif

/// The process's environment (`environ`), as Foundation's `ProcessInfo.environment` gives it,
/// without Foundation: `NAME=value` entries, the first of a repeated name kept.
public enum Environment {
    public static var variables: [String: String] {
        var out: [String: String] = [:]
        var entry = environ
        while let p = entry.pointee {
            let text = String(cString: p)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if out[name] == nil { out[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return out
    }
}

import Foundation

/// PNG through rsvg-convert (librsvg, Debian package `librsvg2-bin`): librsvg is the SVG renderer
/// GNOME ships and keeps; we do not write an image encoder.
enum PNGConverter {
    static let tool = "rsvg-convert"

    static func convert(svg: String, to output: String) throws {
        guard let executable = findInPath(tool) else {
            printError("PNG output needs \(tool) (Debian: apt install librsvg2-bin); SVG needs nothing")
            throw Exit.unavailable
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-render-\(getpid())-\(UUID().uuidString.prefix(8)).svg")
        try Data(svg.utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        // Without --output rsvg-convert writes to standard output, which we pass through for '-'.
        process.arguments = ["--format", "png"] + (output == "-" ? [] : ["--output", output]) + [input.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // rsvg-convert's diagnostics are a few lines: the pipe holds them until it exits.
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            printError("\(tool) failed (status \(process.terminationStatus)): \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
            throw Exit.software
        }
    }

    private static func findInPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

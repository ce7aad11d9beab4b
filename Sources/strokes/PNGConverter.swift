import SystemPackage
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// PNG through rsvg-convert (librsvg, Debian package `librsvg2-bin`): librsvg is the SVG renderer
/// GNOME ships and keeps; we do not write an image encoder.
enum PNGConverter {
    static let tool = "rsvg-convert"

    static func convert(svg: String, to output: String) throws {
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        // A regular file (or none) is replaced whole, as SVG output is (`Files.writeAtomically`):
        // rsvg-convert writes a file beside it, renamed over it once complete, so a full disk or a
        // failure leaves the old picture. A FIFO, link or device is written through.
        let staged = output != "-" && Files.isRegularOrAbsent(output) ? "\(output).\(getpid()).tmp" : nil
        defer { if let staged { FileName.withCString(staged) { _ = unlink($0) } } }
        var input: String?
        defer { if let input { FileName.withCString(input) { _ = unlink($0) } } }
        let ended: ChildProcess.Termination
        let errors: [UInt8]
        do throws(Step) {
            // Ended by a signal half-way, nothing is left behind: neither file (the SVG from the
            // moment it exists), nor the helper.
            (ended, errors) = try SignalCleanup.during(removing: staged.map { [$0] } ?? []) { () throws(Step) in
                do throws(Errno) {
                    input = try SignalCleanup.creating { () throws(Errno) in
                        try temporaryFile(in: directory, bytes: Array(svg.utf8))
                    }
                } catch {
                    throw .temporary(error)
                }
                // Without --output rsvg-convert writes to standard output, which we pass through for '-'.
                let arguments = ["--format", "png"] + (output == "-" ? [] : ["--output", staged ?? output]) + [input!]
                do throws(Errno) {
                    return try ChildProcess.run(tool, arguments: arguments, started: SignalCleanup.noteChild)
                } catch {
                    throw .run(error)
                }
            }
        } catch .temporary(let error) {
            printError("cannot write a temporary file in \(directory): \(error)")
            throw Exit.cannotCreate
        } catch .run(.noSuchFileOrDirectory), .run(.permissionDenied) {
            printError("PNG output needs \(tool) (Debian: apt install librsvg2-bin); SVG needs nothing")
            throw Exit.unavailable
        } catch .run(let error) {
            printError("cannot run \(tool): \(error)")
            throw Exit.software
        }
        guard ended == .exited(0) else {
            let text = String(decoding: errors, as: UTF8.self)
            let message = text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
            let status = switch ended {
            case .exited(let code): "status \(code)"
            case .signalled(let signal): "signal \(signal)"
            }
            printError("\(tool) failed (\(status)): \(String(message))")
            throw Exit.software
        }
        guard let staged else { return }
        var st = stat()
        guard FileName.withCString(staged, { stat($0, &st) }) == 0, st.st_size > 0 else {
            printError("\(tool) exited 0 but wrote no PNG")
            throw Exit.software
        }
        do {
            // What replaces a file keeps its mode and group (`Files.keepMode`).
            let fd = try Syscall.retrying { FileName.withCString(staged) { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) } }
            defer { try? Syscall.closeDescriptor(fd) }  // opened to set its mode: nothing written
            try Files.keepMode(of: output, on: fd)
            _ = try Syscall.retrying { FileName.withCString(staged) { s in FileName.withCString(output) { rename(s, $0) } } }
        } catch {
            printError("cannot write \(output): \(error)")
            throw Exit.cannotCreate
        }
    }

    /// What failed: making the temporary SVG, or running the converter.
    private enum Step: Error {
        case temporary(Errno)
        case run(Errno)
    }

    /// A new file holding `bytes` (`mkstemps(3)`: a name no other process has), its path.
    private static func temporaryFile(in directory: String, bytes: [UInt8]) throws(Errno) -> String {
        var template = Array("\(directory)/strokes-render-XXXXXX.svg".utf8CString)
        let fd = try Syscall.retrying { mkstemps(&template, 4) }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        do throws(Errno) {
            try Files.writeAll(fd, bytes)
            try Syscall.closeDescriptor(fd)
        } catch {
            unlink(path)
            throw error
        }
        return path
    }
}

import Foundation
import Testing

/// The command line at its edges (an adversary's round on the CLI): a clock that steps back, and
/// refusals that say what is really wrong.
@Suite struct EdgeCLITests {
    /// A recording whose clock steps back (5 s, then 1 s and 1.5 s): `--summary`'s duration and
    /// the picture's legend are the span of its times, never negative.
    @Test func aClockThatStepsBackGivesNoNegativeDuration() throws {
        let dir = try RenderCLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fixture = try String(contentsOfFile: CLI.fixture("03-atmel-maxtouch-touchscreen-4finger-drag.evemu"), encoding: .utf8)
        let header = fixture.split(separator: "\n").filter { !$0.hasPrefix("E:") }
        let events = [
            "E: 5.000000 0003 0039 0001", "E: 5.000000 0003 0035 0010", "E: 5.000000 0003 0036 0010",
            "E: 5.000000 0000 0000 0000", "E: 1.000000 0003 0035 0020", "E: 1.000000 0000 0000 0000",
            "E: 1.500000 0003 0039 -1", "E: 1.500000 0000 0000 0000",
        ]
        let file = dir + "/back.evemu"
        try ((header.map(String.init) + events).joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let summary = try CLI.run(["replay", "--summary", file])
        #expect(summary.status == 0 && summary.stdout.contains("duration: 4.000000 s"), "\(summary.stdout)")
        let svg = try CLI.run(["render", file, "-o", "-"])
        #expect(svg.status == 0)
        #expect(svg.stdout.contains("1 stroke: 1 ended · 4.00 s, from 0.00 to 4.00 s"), "\(svg.stdout.suffix(600))")
    }

    /// A picture written over an existing file keeps that file's mode, as `>` does: a private
    /// 0600 picture stayed private only until it was rendered again (0644 after).
    @Test func renderingOverAFileKeepsItsMode() throws {
        let dir = try RenderCLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["private.svg", "private.png"] {
            let path = dir + "/" + name
            #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8)))
            #expect(chmod(path, 0o600) == 0)
            let r = try CLI.run(["render", RenderCLITests.small, "-o", path])
            #expect(r.status == 0, "\(r.stderr)")
            var st = stat()
            #expect(stat(path, &st) == 0 && st.st_mode & 0o7777 == 0o600 && st.st_size > 3, "\(name)")
        }
    }

    @Test func refusalsNameTheRealProblem() throws {
        let twice = try CLI.run([
            "replay", "--group", "1,2", "--group", "1,2", CLI.fixture("01-wacom-dth2242-touchscreen-10finger.evemu"),
            CLI.fixture("18-wacom-dth2242-pen-buttons.evemu"),
        ])
        #expect(twice.status == 64 && twice.stderr.contains("--group '1,2' is given twice"), "\(twice.stderr)")
        let same = try CLI.run(["replay", "--group", "1,1", CLI.fixture("01-wacom-dth2242-touchscreen-10finger.evemu")])
        #expect(same.status == 64 && same.stderr.contains("names device 1 twice"), "\(same.stderr)")
        let wide = try CLI.run(["render", CLI.fixture("03-atmel-maxtouch-touchscreen-4finger-drag.evemu"), "--line-width", "1e308", "-o", "-"])
        #expect(wide.status == 64 && wide.stderr.contains("above 0 and at most 1000"), "\(wide.stderr)")
        let big = try CLI.run(["render", RenderCLITests.small, "--size", "40000", "--format", "png", "-o", "-"])
        #expect(big.status == 64 && big.stderr.contains("at most 32767 pixels for PNG"), "\(big.stderr)")
        // Options that would do nothing are refused; --speed paces --realtime too.
        for options in [["--speed", "10"], ["--wait"], ["--settle", "3"], ["--realtime", "--wait"]] {
            let r = try CLI.run(["replay"] + options + [RenderCLITests.small])
            #expect(r.status == 64, "\(options): \(r.stderr)")
        }
        let fast = try CLI.run(["replay", "--realtime", "--speed", "0", RenderCLITests.small])
        let plain = try CLI.run(["replay", RenderCLITests.small])
        #expect(fast.status == 0 && fast.stdout == plain.stdout)
    }
}

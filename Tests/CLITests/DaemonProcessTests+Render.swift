import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension DaemonProcessTests {
    /// `strokes render --socket` against a daemon serving the 10-finger recording: while it
    /// plays, following the stream gives strokes that are pieces of the recording's own picture;
    /// once it has played, history alone gives exactly the recording's picture.
    @Test func renderDrawsWhatTheDaemonHolds() throws {
        let daemon = try RunningDaemon(["--no-loop"])
        let dir = daemon.directory
        let recording = RenderCLITests.paths(try CLI.run(["render", CLI.fixture("01-wacom-dth2242-touchscreen-10finger.evemu"), "-o", "-"]).stdout)
        #expect(recording.count == 66)

        let during = try CLI.run(["render", "--socket", daemon.socketPath, "-o", dir + "/during.svg", "--follow", "1.5"])
        #expect(during.status == 0, "\(during.stderr)")
        let partial = RenderCLITests.paths(try String(contentsOfFile: dir + "/during.svg", encoding: .utf8))
        #expect(!partial.isEmpty)
        for (id, path) in partial {
            let whole = try #require(recording[id])
            switch path.state {
            case "ended": #expect(path.d == whole.d, "stroke \(id)")
            case "inProgress":
                // A stroke still at its first pixel is drawn as a dot ("M p L p"): its first vertex
                // must be the recording's.
                let dot = path.d.split(separator: " L", maxSplits: 1)
                if dot.count == 2, dot[0].dropFirst() == dot[1] {
                    #expect(whole.d == String(dot[0]) || whole.d.hasPrefix(dot[0] + " "), "stroke \(id)")
                } else {
                    #expect(whole.d.hasPrefix(path.d), "stroke \(id)")
                }
            default: Issue.record("stroke \(id) is \(path.state)")
            }
        }

        // Wait for the whole recording (24 s at speed 4) to be in the daemon's history.
        for _ in 0..<300 {
            let now = RenderCLITests.paths(try CLI.run(["render", "--socket", daemon.socketPath, "-o", "-"]).stdout)
            if now.count == 66 && now.values.allSatisfy({ $0.state == "ended" }) { break }
            usleep(100_000)
        }
        let after = try CLI.run(["render", "--socket", daemon.socketPath, "-o", dir + "/after.svg"])
        #expect(after.status == 0)
        let svg = try String(contentsOfFile: dir + "/after.svg", encoding: .utf8)
        let history = RenderCLITests.paths(svg)
        #expect(history.count == 66)
        #expect(history.allSatisfy { recording[$0.key]?.d == $0.value.d && $0.value.state == "ended" })
        #expect(svg.contains("<title>strokes: daemon at \(daemon.socketPath)</title>"))
        #expect(svg.contains(">device 1: Wacom DTH2242 Finger (touchscreen)</text>"))
        #expect(daemon.stop() == 0)
    }
}

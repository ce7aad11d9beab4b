// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for strokes (README, "Fuzzing"). Built only by Scripts/fuzz.sh, with
// `-sanitize=fuzzer,address -parse-as-library`: libFuzzer supplies `main`. The library targets
// are symlinks to ../Sources, so the code fuzzed is the code shipped, instrumented for coverage,
// without adding products to the main package; the oracles are a symlink to
// ../Tests/FuzzRegressionTests/Oracles, which the ordinary test run compiles too.
let libraries: [Target] = [
    .target(name: "InputCore"),
    .target(name: "SystemSupport", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),
    .target(name: "YAMLReader"),
    .target(name: "StrokeRecording", dependencies: ["InputCore", "SystemSupport", "YAMLReader"]),
    .target(name: "MultitouchDecoder", dependencies: ["InputCore"]),
    .target(name: "StrokeTracker", dependencies: ["InputCore", "MultitouchDecoder"]),
    .target(name: "GestureRecognizer", dependencies: ["InputCore", "MultitouchDecoder", "StrokeTracker"]),
    .target(name: "StrokeProtocol", dependencies: ["StrokeTracker", "GestureRecognizer"]),
    .target(name: "StrokePipeline", dependencies: ["InputCore", "MultitouchDecoder", "StrokeTracker"]),
    .target(name: "StrokeReplay", dependencies: ["InputCore", "StrokeRecording", "MultitouchDecoder", "StrokeTracker", "StrokePipeline", "StrokeProtocol"]),
    .target(name: "LibFuzzerDriver"),
    .target(
        name: "Oracles",
        dependencies: [
            "InputCore", "StrokeRecording", "StrokeReplay", "MultitouchDecoder", "StrokeTracker", "StrokeProtocol", "GestureRecognizer",
            "YAMLReader",
        ]
    ),
]

/// One executable per target name of `FuzzOracles.Target`.
let fuzzTargets = ["evemu", "evtest", "libinput-record", "frames", "request", "gestures", "yaml"]

let package = Package(
    name: "strokes-fuzz",
    dependencies: [
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: libraries + fuzzTargets.map { name in
        .executableTarget(name: "fuzz-\(name)", dependencies: ["Oracles", "LibFuzzerDriver"], path: "Targets/\(name)")
    }
)

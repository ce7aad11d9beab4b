import LibFuzzerDriver
import Oracles

/// libFuzzer's entry point: one input through the `yaml` oracle; a broken rule traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if let broken = FuzzOracles.check(.yaml, bytes) { fatalError("yaml: \(broken)") }
    return 0
}

/// SwiftPM links an executable's `main` to `<module>_main`; with `-parse-as-library` there is
/// none, so this one hands the process to libFuzzer's driver.
@_cdecl("fuzz_yaml_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput)
}

// Coverage-guided fuzz entry for experiment configs: the bytes are a YAML config, decoded and
// resolved (names, shapes, flag sets, inline queries) exactly as `testbed run` does before any
// work. Any crash is a bug; thrown errors are the expected answer to bad input.
//
// Built two ways (see scripts/fuzz.sh):
// - with `-D FUZZING -sanitize=fuzzer`: the program's main hands LLVMFuzzerTestOneInput to
//   libFuzzer's driver (LLVMFuzzerRunDriver);
// - normally: a reproducer, `FuzzConfigLoader FILE...` loads each file once.
import Experiments
import FileSupport
#if canImport(Glibc)
import Glibc
#endif

enum ConfigFuzz {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? ExperimentResolver.resolve(text: text, file: "fuzz.yaml")
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigLoader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ConfigFuzz.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// libFuzzer's driver, called from this program's own main (so SwiftPM's entry point stays
/// as it is): it parses libFuzzer's flags from the command line and runs the callback.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

var fuzzArgc = CommandLine.argc
var fuzzArgv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&fuzzArgc, &fuzzArgv, fuzzConfigLoader))
#else
for path in CommandLine.arguments.dropFirst() {
    guard let text = try? FileSystem.readText(path) else { print("cannot read \(path)"); continue }
    Array(text.utf8).withUnsafeBytes { ConfigFuzz.run($0) }
    print("\(path): no crash")
}
#endif

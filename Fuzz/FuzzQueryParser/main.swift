// Coverage-guided fuzz entry for the query language: the bytes are query text, parsed as a
// catalog file (the `# shape:` header) and against the documents catalog. Any crash is a bug;
// thrown errors are the expected answer to bad input.
//
// Built two ways (see scripts/fuzz.sh):
// - with `-D FUZZING -sanitize=fuzzer`: the program's main hands LLVMFuzzerTestOneInput to
//   libFuzzer's driver (LLVMFuzzerRunDriver);
// - normally: a reproducer, `FuzzQueryParser FILE...` parses each file once.
import FileSupport
#if canImport(Glibc)
import Glibc
#endif
import Workloads

enum QueryFuzz {
    nonisolated(unsafe) static let catalog: RelationCatalog =
        (try? Shape.documents.generate(rows: 20, seed: 1).memoryRelations()) ?? RelationCatalog()

    static func run(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? CatalogQuery(name: "fuzz", text: text, path: "fuzz.rq")
        _ = try? Query.parse(text, catalog: catalog, file: "fuzz.rq")
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQueryParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    QueryFuzz.run(UnsafeRawBufferPointer(start: data, count: size))
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
exit(runFuzzerDriver(&fuzzArgc, &fuzzArgv, fuzzQueryParser))
#else
for path in CommandLine.arguments.dropFirst() {
    guard let text = try? FileSystem.readText(path) else { print("cannot read \(path)"); continue }
    Array(text.utf8).withUnsafeBytes { QueryFuzz.run($0) }
    print("\(path): no crash")
}
#endif

import ArgumentParser
import Foundation

/// Refuses a command-line argument that is not valid UTF-8. Swift hands the arguments over
/// as strings, decoding each invalid byte as U+FFFD, so a path such as `$'d\xff/p'` named a
/// different file: `plan --out` wrote into a new directory beside the one given, `generate
/// --sqlite` wrote or refused the wrong file, and `query` said an existing file was missing.
/// Paths, names and values must therefore be UTF-8; the raw bytes are checked before any
/// argument is read.
enum ArgumentEncoding {
    static func check() throws {
        let count = Int(CommandLine.argc)
        guard count > 1 else { return }
        for index in 1..<count {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                            count: strlen(pointer))
            if String(validating: bytes, as: UTF8.self) == nil {
                throw ValidationError("argument \(index) (\(escaped(bytes))) is not valid UTF-8; give paths, names and "
                    + "values in UTF-8 (a file whose name is not can be renamed or linked to one that is)")
            }
        }
    }

    /// The bytes as text, each byte outside printable ASCII as `\xHH`.
    static func escaped(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var text = "'"
        for byte in bytes {
            if byte >= 0x20 && byte < 0x7f && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "'") {
                text.append(Character(UnicodeScalar(byte)))
            } else {
                text += String(format: "\\x%02X", byte)
            }
        }
        return text + "'"
    }
}

// libFuzzer target for what `exthost import` reads from a project before anything else: the
// old-style plist parser (project.pbxproj), build-setting expansion, and the Objective-C-runtime
// adaptation of a Swift file. Built by Scripts/fuzz against those files of Sources/XcodeProjects
// compiled as their own module (SwiftPM ignores this directory). None may trap on any input.
import Foundation
import XcodeProjects

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXcodeProjects(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    _ = try? OldStylePlist.parse(bytes, file: "fuzz.pbxproj")
    let text = String(decoding: bytes, as: UTF8.self)
    let location = SourceLocation(file: "fuzz", line: 1, column: 1)
    let settings = BuildSettingLevels(levels: [
        ["A": .init(text, at: location), "B": .init("$(A)-$(inherited)", at: location)],
        ["B": .init(text, at: location), "TARGET_NAME": .init("T")],
    ])
    _ = try? settings.value("A")
    _ = try? settings.value("B")
    _ = try? settings.expand(text)
    _ = try? ObjCAdaptation.adapt(text, file: "fuzz.swift")
    return 0
}

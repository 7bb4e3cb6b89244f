// exthost-defaults-writer: an app-side program written against Apple's names only. It sets
// COUNT keys PREFIX0…PREFIX<COUNT-1> in `UserDefaults(suiteName: GROUP)` and prints what
// `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)` answers; the tests run two at
// once, as an app and its extension would.
//   exthost-defaults-writer GROUP PREFIX COUNT

import Foundation
import UniformTypeIdentifiers

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
    print("usage: exthost-defaults-writer GROUP PREFIX COUNT")
    exit(2)
}
let group = arguments[1]
let prefix = arguments[2]
print("container: \(FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group)?.path ?? "nil")")
guard let defaults = UserDefaults(suiteName: group) else {
    print("no suite")
    exit(1)
}
for index in 0..<count {
    defaults.set(index, forKey: "\(prefix)\(index)")
}
defaults.set(true, forKey: "\(prefix)done")
print("type: \(type(of: defaults))")
exit(defaults.synchronize() ? 0 : 1)

// The app: what the share extension saved, read from the App Group as on iOS.
import Foundation
import UniformTypeIdentifiers

let group = "group.com.example.MyApp"
guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) else {
    print("MyApp is not entitled to \(group)")
    exit(1)
}
let shared = container.appendingPathComponent("Shared", isDirectory: true)
let names = ((try? FileManager.default.contentsOfDirectory(atPath: shared.path)) ?? []).sorted()
print("MyApp: \(names.count) shared item(s)")
for name in names {
    let size = (try? FileManager.default.attributesOfItem(atPath: shared.appendingPathComponent(name).path)[.size]) ?? 0
    print("  \(name) (\(size) bytes)")
}
let last = UserDefaults(suiteName: group)?.stringArray(forKey: "lastShare") ?? []
print("last share: \(last.joined(separator: ", "))")

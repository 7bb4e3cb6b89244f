// A non-UI extension as Xcode's Action Extension template writes it, in Swift 5 language mode: not
// final, no initializer, the protocol's one method; a completion handler appends to a local array
// through a local function; the App Group's defaults are reached with a `String?` read from the
// Info.plist, as cross-platform templates do. Built as a dynamic library (the ExtHostFixtureAppex
// product), it is loaded by exthost's sandbox launcher from an .appex naming
// `$(PRODUCT_MODULE_NAME).ActionRequestHandler`.

import Foundation
import UniformTypeIdentifiers

class ActionRequestHandler: NSObject, NSExtensionRequestHandling {
    var extensionContext: NSExtensionContext?

    func beginRequest(with context: NSExtensionContext) {
        extensionContext = context
        let groupID = FixtureInfo.value("AppGroupId") as? String
        print("FIXTURE beginRequest main-thread=\(Thread.isMainThread) group=\(groupID ?? "nil")")
        var names: [String] = []
        let lock = NSLock()
        func add(_ name: String) {
            lock.lock()
            names.append(name)
            lock.unlock()
        }
        let loads = DispatchGroup()
        for item in context.inputItems as? [NSExtensionItem] ?? [] {
            for provider in item.attachments ?? [] {
                guard let type = provider.registeredTypeIdentifiers.first else { continue }
                loads.enter()
                provider.loadItem(forTypeIdentifier: type, options: nil) { item, error in
                    if let url = item as? URL {
                        add(url.lastPathComponent)
                    } else if let text = item as? String {
                        add("text:" + text.prefix(20))
                    } else if let data = item as? Data {
                        add("data:\(data.count)")
                    } else {
                        add("error:\(error.map { "\($0)" } ?? "nothing")")
                    }
                    loads.leave()
                }
            }
        }
        loads.notify(queue: .main) {
            let sorted = names.sorted()
            print("FIXTURE loaded \(sorted.joined(separator: ","))")
            let defaults = UserDefaults(suiteName: groupID)
            defaults?.set(sorted, forKey: "names")
            defaults?.set("ActionRequestHandler", forKey: "writtenBy")
            Task { @MainActor in
                HandOffModes.run(FixtureInfo.value("FixtureMode") as? String, context: context) {
                    context.completeRequest(returningItems: nil, completionHandler: nil)
                }
            }
        }
    }
}

/// Named by a bundle whose principal class is wrong: neither a view controller nor a handler.
class NotAPrincipal: NSObject {}

/// The async legacy load with Apple's declared result type, cast as share extensions cast it
/// (compiled in Swift 5 mode with warnings as errors: none of these casts may warn).
enum AsyncLoads {
    static func describe(_ provider: NSItemProvider, _ type: String) async -> String {
        do {
            let item: NSSecureCoding = try await provider.loadItem(forTypeIdentifier: type, options: nil)
            if let url = item as? URL { return "url:" + url.lastPathComponent }
            if let text = item as? String { return "text:" + text }
            if let data = item as? Data { return "data:\(data.count)" }
            if let results = item as? [String: Any] { return "dictionary:\(results.count)" }
            return "other"
        } catch {
            return "error:\(error)"
        }
    }
}

import Foundation

/// The coder UIKit hands to `init?(coder:)` when it makes an object by class name: empty for an app
/// or scene delegate; for a storyboard's object, the attributes read from the storyboard under the
/// keys UIKit's `init?(coder:)` implementations read (`frame`, `title`, `text`, …).
package final class UIKeyedCoder: NSCoder {
    /// The values by key.
    package var values: [String: Any]

    /// A coder with `values`.
    package init(_ values: [String: Any] = [:]) {
        self.values = values
        super.init()
    }

    /// Always keyed, as an archive from a storyboard is.
    package override var allowsKeyedCoding: Bool { true }

    /// Whether there is a value under `key`.
    package override func containsValue(forKey key: String) -> Bool { values[key] != nil }

    /// The value under `key`.
    package override func decodeObject(forKey key: String) -> Any? { values[key] }

    /// The Boolean under `key` (`false` when absent).
    package override func decodeBool(forKey key: String) -> Bool { values[key] as? Bool ?? false }

    /// The number under `key` (0 when absent).
    package override func decodeDouble(forKey key: String) -> Double {
        (values[key] as? Double) ?? (values[key] as? Int).map(Double.init) ?? 0
    }

    /// The integer under `key` (0 when absent).
    package override func decodeInteger(forKey key: String) -> Int { values[key] as? Int ?? 0 }

    /// The string under `key`.
    func string(_ key: String) -> String? { values[key] as? String }
}

import Foundation

/// One shared item as a stamp's title.
public struct Stamp {
    public var title: String

    public init(_ item: Any?) {
        if let url = item as? URL {
            title = "stamped-" + url.lastPathComponent
        } else if let text = item as? String {
            title = "stamped-" + text
        } else {
            title = "?"
        }
    }
}

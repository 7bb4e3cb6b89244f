import Foundation

/// One shared item as a clip's title.
struct Clip {
    var title: String

    init(_ item: Any?) {
        if let url = item as? URL {
            title = url.lastPathComponent
        } else if let text = item as? String {
            title = text
        } else {
            title = "?"
        }
    }
}

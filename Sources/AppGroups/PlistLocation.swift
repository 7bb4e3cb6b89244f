import Foundation

/// Where a string value sits in an XML property list, for messages (`Share.entitlements:7:10`).
enum PlistLocation {
    /// `path:line:column` of the first `<string>` element holding `value` in the XML plist at
    /// `url` (the column of the value's first character), or just the path when the file is not
    /// XML or does not hold it so (a binary plist).
    static func describe(_ value: String, in url: URL) -> String {
        guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else {
            return url.path
        }
        let escaped = value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        guard let element = text.range(of: "<string>\(escaped)</string>") else { return url.path }
        let start = text.index(element.lowerBound, offsetBy: "<string>".count)
        let before = text[..<start]
        let line = before.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
        let column =
            before.distance(from: before.lastIndex(of: "\n").map(before.index(after:)) ?? before.startIndex, to: start)
            + 1
        return "\(url.path):\(line):\(column)"
    }
}

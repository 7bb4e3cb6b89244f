public import Foundation

/// Xcode-style build-setting expansion: `$(NAME)` and `${NAME}` in plist strings.
public enum BuildSettings {
    /// Parses `KEY=VALUE` words (from `--define`).
    /// - Throws: ``AppGroupError`` `.invalidIdentifier` for a word without `=` or with an empty key.
    public static func parseDefines(_ words: [String]) throws -> [String: String] {
        var defines: [String: String] = [:]
        for word in words {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                throw AppGroupError(.invalidIdentifier, "--define '\(word)' is not KEY=VALUE")
            }
            defines[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        return defines
    }

    /// Expands every `$(NAME)` / `${NAME}` in `text` from `defines`.
    /// - Throws: ``AppGroupError`` `.undefinedVariable` naming the variable and `file`, or
    ///   `.invalidBundle` for an unclosed reference.
    public static func expand(_ text: String, defines: [String: String], in file: URL) throws -> String {
        guard text.contains("$") else { return text }
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            guard character == "$", next < text.endIndex, text[next] == "(" || text[next] == "{" else {
                output.append(character)
                index = next
                continue
            }
            let close: Character = text[next] == "(" ? ")" : "}"
            let nameStart = text.index(after: next)
            guard let end = text[nameStart...].firstIndex(of: close) else {
                throw AppGroupError(.invalidBundle, "\(file.path): unclosed '$\(text[next])' in '\(text)'")
            }
            let name = String(text[nameStart..<end])
            guard let value = defines[name] else {
                throw AppGroupError(
                    .undefinedVariable,
                    "\(file.path): '\(text)' uses $(\(name)), which is not defined; pass --define \(name)=VALUE")
            }
            output += value
            index = text.index(after: end)
        }
        return output
    }
}

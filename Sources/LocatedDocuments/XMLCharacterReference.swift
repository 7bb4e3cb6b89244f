/// XML's references to a character (XML 1.0 §4.1, §4.6): the five predefined entities (`&lt;`,
/// `&gt;`, `&amp;`, `&quot;`, `&apos;`) and character references (`&#60;`, `&#x3C;`). The rule
/// files' scanner and the storyboard reader each decode their text with it.
public enum XMLCharacterReference {
    /// The character `name` (the text between `&` and `;`) stands for, or nil when it is neither a
    /// predefined entity nor a character reference to a Unicode scalar.
    public static func scalar<Name: StringProtocol>(named name: Name) -> Unicode.Scalar? {
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value =
                digits.hasPrefix("x") || digits.hasPrefix("X")
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init)
        }
    }
}

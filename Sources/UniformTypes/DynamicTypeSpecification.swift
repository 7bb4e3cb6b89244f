/// The tag specification a dynamic (`dyn.`) identifier encodes: the supertype asked for and the
/// tags the type was made from.
///
/// The encoding is Apple's as observed (it is undocumented, and Apple may change it): `dyn.a`
/// followed by Base32 of a tag-spec string such as `?0=6:1=sql`, most significant bit first, with
/// the alphabet `abcdefghkmnpqrstuvwxyz0123456789` and no padding. So `?0=6:1=sql` (conforms to
/// `public.data`, filename extension `sql`) is `dyn.ah62d4rv4ge81g6pq`.
///
/// In the tag-spec string the keys are `0` = conforms to, `1` = `public.filename-extension`,
/// `2` = `com.apple.ostype`, `3` = `public.mime-type`, `4` = `com.apple.nspboard-type`,
/// `5` = `public.url-scheme`; a conforms-to value may be one of the single-character short forms
/// (`6` = `public.data`, `7` = `public.text`, … `E` = `public.directory`, `F` = `public.folder`).
///
/// exthost's own choices, where Apple's format is unknown: a tag class without a short key is
/// written out in full as the key; `\`, `:`, `=` and `,` inside a value are escaped with `\`;
/// several conforms-to values are joined with `,`.
public struct DynamicTypeSpecification: Sendable, Hashable {
    /// One tag: its class (`public.filename-extension`, `public.mime-type`, …) and its value.
    public struct Tag: Sendable, Hashable {
        /// The tag class.
        public var tagClass: UniformTypeIdentifier
        /// The tag (`sql`, `application/x-foo`).
        public var value: String

        /// Creates a tag.
        public init(tagClass: UniformTypeIdentifier, value: String) {
            self.tagClass = tagClass
            self.value = value
        }
    }

    /// The supertypes the dynamic type conforms to (usually one: the `conformingTo` of the lookup).
    public var conformsTo: [UniformTypeIdentifier]
    /// The tags, in encoding order.
    public var tags: [Tag]

    /// Creates a specification.
    public init(conformsTo: [UniformTypeIdentifier], tags: [Tag]) {
        self.conformsTo = conformsTo
        self.tags = tags
    }

    /// The filename-extension tags.
    public var filenameExtensions: [String] { values(of: .filenameExtensionTagClass) }

    /// The MIME-type tags.
    public var mimeTypes: [String] { values(of: .mimeTypeTagClass) }

    /// The values of the tags of one class, in order.
    public func values(of tagClass: UniformTypeIdentifier) -> [String] {
        tags.filter { $0.tagClass == tagClass }.map(\.value)
    }

    // MARK: - Encoding

    /// The tag-spec string, such as `?0=6:1=sql`.
    public var tagSpecification: String {
        var parts: [String] = []
        if !conformsTo.isEmpty {
            let values = conformsTo.map { Self.shortTypes[$0.key] ?? Self.escape($0.rawValue) }
            parts.append("0=" + values.joined(separator: ","))
        }
        for tag in tags {
            let key = Self.shortTagClasses[tag.tagClass.key] ?? Self.escape(tag.tagClass.rawValue)
            parts.append(key + "=" + Self.escape(tag.value))
        }
        return "?" + parts.joined(separator: ":")
    }

    /// The `dyn.a…` identifier encoding this specification.
    public var identifier: UniformTypeIdentifier {
        UniformTypeIdentifier("dyn.a" + Self.base32Encode(Array(tagSpecification.utf8)))
    }

    // MARK: - Decoding

    /// Decodes a `dyn.a…` identifier (case-insensitively); nil when it is not one, or its payload
    /// is not a tag-spec string.
    public init?(decoding identifier: UniformTypeIdentifier) {
        let key = identifier.key
        guard key.hasPrefix("dyn.a"), let bytes = Self.base32Decode(key.utf8.dropFirst(5)),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        self.init(tagSpecification: text)
    }

    /// Parses a tag-spec string such as `?0=6:1=sql`; nil when it does not start with `?` or a
    /// component has no `=`.
    public init?(tagSpecification text: String) {
        guard text.first == "?" else { return nil }
        var conformsTo: [UniformTypeIdentifier] = []
        var tags: [Tag] = []
        let body = String(text.dropFirst())
        if !body.isEmpty {
            for component in Self.split(body, on: ":") {
                let pair = Self.split(component, on: "=")
                guard pair.count == 2, !pair[0].isEmpty else { return nil }
                let key = Self.unescape(pair[0])
                if key == "0" {
                    for value in Self.split(pair[1], on: ",") {
                        let name = Self.unescape(value)
                        conformsTo.append(UniformTypeIdentifier(Self.expandedTypes[name] ?? name))
                    }
                } else {
                    let tagClass = Self.expandedTagClasses[key] ?? key
                    tags.append(Tag(tagClass: UniformTypeIdentifier(tagClass), value: Self.unescape(pair[1])))
                }
            }
        }
        self.init(conformsTo: conformsTo, tags: tags)
    }

    // MARK: - Short forms

    private static let expandedTagClasses: [String: String] = [
        "1": "public.filename-extension", "2": "com.apple.ostype", "3": "public.mime-type",
        "4": "com.apple.nspboard-type", "5": "public.url-scheme",
    ]
    private static let shortTagClasses: [String: String] = Dictionary(
        uniqueKeysWithValues: expandedTagClasses.map { ($0.value, $0.key) })
    private static let expandedTypes: [String: String] = [
        "6": "public.data", "7": "public.text", "8": "public.plain-text", "9": "public.utf16-plain-text",
        "A": "com.apple.traditional-mac-plain-text", "B": "public.image", "C": "public.video", "D": "public.audio",
        "E": "public.directory", "F": "public.folder",
    ]
    private static let shortTypes: [String: String] = Dictionary(
        uniqueKeysWithValues: expandedTypes.map { ($0.value, $0.key) })

    // MARK: - Escaping

    private static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "\\" || character == ":" || character == "=" || character == "," { out.append("\\") }
            out.append(character)
        }
        return out
    }

    private static func unescape(_ text: String) -> String {
        var out = ""
        var escaped = false
        for character in text {
            if !escaped && character == "\\" {
                escaped = true
                continue
            }
            escaped = false
            out.append(character)
        }
        return out
    }

    /// Splits on `separator` where it is not escaped; the parts keep their escapes.
    private static func split(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == separator {
                parts.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        parts.append(current)
        return parts
    }

    // MARK: - Base32

    private static let alphabet: [UInt8] = Array("abcdefghkmnpqrstuvwxyz0123456789".utf8)

    private static let reverseAlphabet: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = Int8(index) }
        return table
    }()

    /// Base32, most significant bit first, no padding (the last group is padded with zero bits).
    static func base32Encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int((buffer >> UInt32(bits)) & 31)])
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of a Base32 text; nil on a character outside the alphabet. Trailing bits that do
    /// not make a whole byte are dropped.
    static func base32Decode(_ text: some Sequence<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in text {
            let value = reverseAlphabet[Int(character)]
            guard value >= 0 else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        return out
    }
}

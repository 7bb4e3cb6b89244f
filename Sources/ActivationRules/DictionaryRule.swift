public import Predicates

/// The dictionary form of an activation rule, read the way the device reads it.
///
/// Values are read like Objective-C's `intValue`/`boolValue`; each key's decision (accept, reject
/// or inherit) and count are kept so the rule can be turned into a predicate
/// (``derivedPredicate``) and explained in terms of its keys.
public struct DictionaryRule: Sendable, Hashable {
    /// What a category's key (or its nearest present ancestor's key) says about it.
    public enum Decision: Sendable, Hashable {
        /// Accepted by the key of the given category (non-zero).
        case accepted(by: ActivationCategory)
        /// Rejected by the key of the given category (present with 0).
        case rejected(by: ActivationCategory)
        /// No key on the way to the root is present.
        case unspecified
    }

    /// The `intValue` of each category key that is present.
    public var values: [ActivationCategory: Int]
    /// `NSExtensionActivationSupportsAttachmentsWithMinCount`, when present.
    public var minimumCount: Int?
    /// `NSExtensionActivationDictionaryVersion` (0 when absent).
    public var version: Int
    /// `NSExtensionActivationUsesStrictMatching` read with `boolValue` (false when absent).
    public var usesStrictMatching: Bool
    /// Whether some value in the dictionary, any key included, is non-zero. When none is, the rule
    /// never activates.
    public var hasNonZeroValue: Bool

    /// Creates a rule from already-read values.
    public init(
        values: [ActivationCategory: Int], minimumCount: Int? = nil, version: Int = 0, usesStrictMatching: Bool = false,
        hasNonZeroValue: Bool? = nil
    ) {
        self.values = values
        self.minimumCount = minimumCount
        self.version = version
        self.usesStrictMatching = usesStrictMatching
        self.hasNonZeroValue =
            hasNonZeroValue
            ?? (values.values.contains { $0 != 0 } || (minimumCount ?? 0) != 0 || version != 0 || usesStrictMatching)
    }

    /// `usesStrictMatching || version < 2`: every attachment must be accepted. Otherwise (fuzzy)
    /// one accepted attachment is enough, and only attachments in rejected categories fail the rule.
    public var isStrict: Bool { usesStrictMatching || version < 2 }

    /// The decision for a category: its own key if present, else its nearest present ancestor's.
    public func decision(for category: ActivationCategory) -> Decision {
        for step in category.lineage {
            if let value = values[step] { return value > 0 ? .accepted(by: step) : .rejected(by: step) }
        }
        return .unspecified
    }

    /// The categories whose attachments are accepted.
    public var acceptedCategories: Set<ActivationCategory> {
        Set(
            ActivationCategory.allCases.filter {
                if case .accepted = decision(for: $0) { return true } else { return false }
            })
    }

    /// The categories whose attachments fail the rule in either mode.
    public var rejectedCategories: Set<ActivationCategory> {
        Set(
            ActivationCategory.allCases.filter {
                if case .rejected = decision(for: $0) { return true } else { return false }
            })
    }

    /// The maximum count a present, non-zero count key sets for its category's subtree.
    public func maximumCount(for category: ActivationCategory) -> Int? {
        guard !category.isBoolean, let value = values[category], value > 0 else { return nil }
        return value
    }

    /// Whether the rule can activate at all: some value is non-zero and some category is accepted.
    public var canActivate: Bool { hasNonZeroValue && !acceptedCategories.isEmpty }

    // MARK: - Reading the plist

    /// Every key the system reads in a rule dictionary, for suggestions.
    public static let knownKeys: [String] =
        ActivationCategory.allCases.map(\.key) + [minimumCountKey, versionKey, strictKey, locationKey]

    static let minimumCountKey = "NSExtensionActivationSupportsAttachmentsWithMinCount"
    static let versionKey = "NSExtensionActivationDictionaryVersion"
    static let strictKey = "NSExtensionActivationUsesStrictMatching"
    static let locationKey = "NSExtensionActivationSupportsLocationWithMaxCount"

    /// Words people use for a category in invented keys (`…SupportsVideoWithMaxCount`).
    static let synonyms: [(String, ActivationCategory)] = [
        ("video", .movie), ("photo", .image), ("picture", .image), ("document", .file), ("pdf", .file),
        ("link", .webURL), ("url", .webURL), ("string", .text), ("webpage", .webPage),
    ]

    /// The real key an unknown one was probably meant to be.
    static func nearestKey(to key: String) -> String? {
        let lowered = key.lowercased()
        if lowered.hasPrefix("nsextensionactivation"),
            !knownKeys.contains(where: { $0.lowercased().hasPrefix(lowered) }),
            let (_, category) = synonyms.first(where: { lowered.contains($0.0) }),
            Suggestion.nearest(to: key, in: knownKeys).map({ !$0.lowercased().contains(category.rawValue.lowercased()) }
            ) ?? true
        {
            return category.key
        }
        return Suggestion.nearest(to: key, in: knownKeys)
    }

    /// Keys of the extension's other dictionaries, which do nothing inside the rule.
    static let misplacedKeys: [String: String] = [
        "NSExtensionActivationRule": "a rule nested inside the rule is never read; move its keys up one level",
        "NSExtensionAttributes": "NSExtensionAttributes belongs in NSExtension, around the rule",
        "NSExtension": "NSExtension belongs at the top of Info.plist",
        "NSExtensionPointIdentifier": "NSExtensionPointIdentifier belongs in NSExtension",
        "NSExtensionPrincipalClass": "NSExtensionPrincipalClass belongs in NSExtension",
        "NSExtensionMainStoryboard": "NSExtensionMainStoryboard belongs in NSExtension",
        "NSExtensionJavaScriptPreprocessingFile":
            "NSExtensionJavaScriptPreprocessingFile belongs in NSExtensionAttributes",
        "NSExtensionServiceAllowsFinderPreviewItem": "this key belongs in NSExtensionAttributes",
    ]

    /// Reads a rule dictionary, reporting every key and value the device would read differently
    /// from what the author probably meant.
    ///
    /// - Parameters:
    ///   - dictionary: the rule's keys and values.
    ///   - options: ``ActivationOptions/allowDevelopmentRules`` turns value-type errors into warnings.
    ///   - locate: the file, line and column of a key, for diagnostics.
    /// - Returns: the rule and its diagnostics.
    public static func read(
        _ dictionary: [String: PlistValue], options: ActivationOptions,
        locate: (String) -> (file: String?, line: Int?, column: Int?) = { _ in (nil, nil, nil) }
    ) -> (DictionaryRule, [RuleDiagnostic]) {
        var diagnostics: [RuleDiagnostic] = []
        func report(_ severity: RuleDiagnostic.Severity, _ code: RuleDiagnostic.Code, _ key: String, _ message: String)
        {
            let place = locate(key)
            diagnostics.append(
                RuleDiagnostic(severity, code, message, file: place.file, line: place.line, column: place.column))
        }
        var values: [ActivationCategory: Int] = [:]
        var minimumCount: Int?
        var version = 0
        var strict = false
        var hasNonZero = false
        let releaseSeverity: RuleDiagnostic.Severity = options.allowDevelopmentRules ? .warning : .error
        for key in dictionary.keys.sorted() {
            guard let value = dictionary[key] else { continue }
            let reading = ValueReading(value)
            if reading.intValue != 0 { hasNonZero = true }
            let category = ActivationCategory.allCases.first { $0.key == key }
            let expectsBoolean = category?.isBoolean == true || key == strictKey
            let isKnown = category != nil || [minimumCountKey, versionKey, strictKey, locationKey].contains(key)
            guard isKnown else {
                if let reason = misplacedKeys[key] {
                    report(.warning, .misplacedKey, key, "'\(key)' does nothing inside the rule dictionary: \(reason)")
                } else {
                    var message = "unknown key '\(key)' is ignored"
                    if let near = nearestKey(to: key) { message += "; did you mean '\(near)'?" }
                    report(.warning, .unknownKey, key, message)
                }
                continue
            }
            if let problem = reading.typeProblem(expectsBoolean: expectsBoolean) {
                let wanted = expectsBoolean ? "boolean" : "integer"
                // Both are release errors: the App Store rejects any value of the wrong plist type.
                report(
                    releaseSeverity, reading.isUnreadable ? .coercedValue : .valueType, key,
                    "value type for the key '\(key)' is not \(wanted) (\(problem)); App Store upload rejects it "
                        + "(ITMS-90361), and on a device it reads as \(expectsBoolean ? String(reading.boolValue) : String(reading.intValue))"
                )
            }
            if key == strictKey {
                strict = reading.boolValue
            } else if key == versionKey {
                version = reading.intValue
            } else if key == minimumCountKey {
                minimumCount = reading.intValue
            } else if key == locationKey {
                report(
                    .note, .unsupportedKey, key,
                    "'\(key)' is undocumented; only some platforms read it, and exthost does not model it")
            } else if let category {
                let number = category.isBoolean ? (reading.intValue != 0 ? 1 : 0) : reading.intValue
                if number < 0 {
                    report(.warning, .negativeCount, key, "'\(key)' is negative (\(number)); it rejects like 0")
                }
                values[category] = number
            }
        }
        if dictionary[strictKey] != nil, !strict, version < 2 {
            report(
                .warning, .strictMatchingIgnored, strictKey,
                "'\(strictKey)' = false changes nothing without '\(versionKey)' = 2: version 1 always matches strictly")
        }
        let rule = DictionaryRule(
            values: values, minimumCount: minimumCount, version: version, usesStrictMatching: strict,
            hasNonZeroValue: hasNonZero)
        if !hasNonZero {
            diagnostics.append(
                RuleDiagnostic(
                    .warning, .neverActivates,
                    "every value in the rule dictionary is zero, so the extension never appears; give the types "
                        + "it supports a non-zero count", file: locate("").file))
        } else if rule.acceptedCategories.isEmpty {
            diagnostics.append(
                RuleDiagnostic(
                    .warning, .neverActivates,
                    "no key accepts any attachment (no NSExtensionActivationSupports… key is non-zero), so the "
                        + "extension never appears", file: locate("").file))
        }
        return (rule, diagnostics)
    }
}

/// A plist value read the way `-[NSNumber intValue]`, `-[NSString intValue]` and `boolValue` do.
struct ValueReading {
    let value: PlistValue
    let intValue: Int
    let boolValue: Bool
    /// Neither a number, a Boolean, nor a string with digits: it reads as 0.
    let isUnreadable: Bool

    init(_ value: PlistValue) {
        self.value = value
        switch value {
        case .integer(let number):
            intValue = number
            boolValue = number != 0
            isUnreadable = false
        case .real(let number):
            intValue = number.isFinite ? Int(max(min(number, Double(Int32.max)), Double(Int32.min))) : 0
            boolValue = number != 0
            isUnreadable = false
        case .bool(let flag):
            intValue = flag ? 1 : 0
            boolValue = flag
            isUnreadable = false
        case .string(let text):
            let parsed = ValueReading.leadingInteger(text)
            intValue = parsed ?? 0
            boolValue = ValueReading.stringBoolValue(text)
            isUnreadable = parsed == nil && !boolValue
        default:
            intValue = 0
            boolValue = false
            isUnreadable = true
        }
    }

    /// Why the value is not of the wanted plist type, or nil when it is.
    func typeProblem(expectsBoolean: Bool) -> String? {
        switch value {
        case .integer where !expectsBoolean: return nil
        case .bool where expectsBoolean: return nil
        case .string(let text): return "it is the string \"\(text)\""
        default: return "it is a \(value.typeName) (\(value.description))"
        }
    }

    /// `-[NSString intValue]`: optional whitespace, an optional sign, then decimal digits.
    static func leadingInteger(_ text: String) -> Int? {
        var scalars = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        var sign = 1
        if let first = scalars.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            scalars = scalars.dropFirst()
        }
        let digits = scalars.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        guard let number = Int(digits.prefix(10)) else { return nil }
        return sign * Int(min(number, Int(Int32.max)))
    }

    /// `-[NSString boolValue]`: `Y`, `y`, `T`, `t` or a non-zero digit after optional whitespace,
    /// sign and zeros.
    static func stringBoolValue(_ text: String) -> Bool {
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        if let first = rest.first, first == "-" || first == "+" { rest = rest.dropFirst() }
        rest = rest.drop { $0 == "0" }
        guard let first = rest.first else { return false }
        return "YyTt123456789".contains(first)
    }
}

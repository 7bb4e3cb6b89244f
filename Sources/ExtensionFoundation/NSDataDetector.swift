public import Foundation

// MARK: - Checking types

/// The raw values of `NSTextCheckingResult.CheckingType` as swift-corelibs-foundation numbers them —
/// what `NSTextCheckingResult.CheckingType.link.rawValue` gives on Linux. corelibs starts its list
/// at `1 << 1` where Apple starts at `1 << 0`, so its first ten types are one bit above Apple's
/// (`.link` is `1 << 6` there, `1 << 5` on Apple's platforms; `.phoneNumber` is `1 << 11` on both).
/// ``NSDataDetector`` reads the types by these values, so code that spells the names as Apple does
/// finds what it asks for. (The names themselves are deprecated in corelibs; that warning is corelibs'.)
enum CheckingTypeValue {
    static let date: UInt64 = 1 << 4
    static let address: UInt64 = 1 << 5
    static let link: UInt64 = 1 << 6
    static let phoneNumber: UInt64 = 1 << 11
}

/// The checking types of ``NSDataDetector`` (`NSTextCheckingResult.CheckingType` raw values).
public typealias NSTextCheckingTypes = UInt64

// MARK: - Results

/// What one match of ``NSDataDetector`` found: a link, a phone number, an address or a date.
final class DataDetectorResult: NSTextCheckingResult {
    enum Found {
        case link(URL)
        case phoneNumber(String)
        case address([NSTextCheckingKey: String])
        case date(Date, TimeZone?, TimeInterval)
    }

    let found: Found
    private let foundRange: NSRange

    init(range: NSRange, found: Found) {
        foundRange = range
        self.found = found
        super.init()
    }

    required init?(coder: NSCoder) { nil }

    override var range: NSRange { foundRange }

    override var resultType: NSTextCheckingResult.CheckingType {
        switch found {
        case .link: .init(rawValue: CheckingTypeValue.link)
        case .phoneNumber: .init(rawValue: CheckingTypeValue.phoneNumber)
        case .address: .init(rawValue: CheckingTypeValue.address)
        case .date: .init(rawValue: CheckingTypeValue.date)
        }
    }
}

extension NSTextCheckingResult {
    /// The URL of a link (`.link`), as Apple's: a web address without a scheme gets `http://`, an
    /// e-mail address `mailto:`. Nil for other results.
    public var url: URL? {
        guard let result = self as? DataDetectorResult, case .link(let url) = result.found else { return nil }
        return url
    }

    /// The phone number of a `.phoneNumber` result, as written in the text. Nil for other results.
    public var phoneNumber: String? {
        guard let result = self as? DataDetectorResult, case .phoneNumber(let number) = result.found else {
            return nil
        }
        return number
    }

    /// The parts of an `.address` result (`.street`, `.city`,
    /// `.state`, `.zip`). Nil for other results.
    public var addressComponents: [NSTextCheckingKey: String]? {
        guard let result = self as? DataDetectorResult, case .address(let parts) = result.found else { return nil }
        return parts
    }

    /// The date of a `.date` result (a date without a time is noon of that day, in the current time
    /// zone, as Apple's detector gives it). Nil for other results.
    public var date: Date? {
        guard let result = self as? DataDetectorResult, case .date(let date, _, _) = result.found else { return nil }
        return date
    }

    /// The time zone a `.date` result names (`Z`, `+02:00`), else nil.
    public var timeZone: TimeZone? {
        guard let result = self as? DataDetectorResult, case .date(_, let zone, _) = result.found else { return nil }
        return zone
    }

    /// The duration of a `.date` result (0: a point in time).
    public var duration: TimeInterval {
        guard let result = self as? DataDetectorResult, case .date(_, _, let duration) = result.found else { return 0 }
        return duration
    }
}

extension NSTextCheckingKey {
    /// The street of an address (`"Street"`).
    public static let street = NSTextCheckingKey(rawValue: "Street")
    /// The city of an address (`"City"`).
    public static let city = NSTextCheckingKey(rawValue: "City")
    /// The state of an address (`"State"`).
    public static let state = NSTextCheckingKey(rawValue: "State")
    /// The ZIP code of an address (`"ZIP"`).
    public static let zip = NSTextCheckingKey(rawValue: "ZIP")
    /// The country of an address (`"Country"`).
    public static let country = NSTextCheckingKey(rawValue: "Country")
}

// MARK: - The detector

/// Apple's `NSDataDetector`: finds links, phone numbers, addresses and dates in text.
///
/// Pass the types as iOS code does, `NSDataDetector(types: NSTextCheckingResult.CheckingType.link.rawValue)`
/// (several with `|`); a match's `resultType == .link` holds for a link, and `url`,
/// `phoneNumber`, `addressComponents`, `date` say what was found. What is recognised:
/// - `.link`: `http`, `https`, `ftp` and `mailto:` URLs; `www.` hosts and bare host names with a
///   common top-level domain (`example.com/page`), as `http://`; e-mail addresses, as `mailto:`.
///   Trailing punctuation is not part of a link.
/// - `.phoneNumber`: 7 to 15 digits in groups, with an optional `+` country code and parentheses
///   (`+1 (555) 123-4567`, `020 7946 0958`).
/// - `.address`: US street addresses, `NUMBER STREET, CITY, ST 12345` (with or without a street
///   suffix such as `St`, `Ave`, `Loop`).
/// - `.date`: ISO 8601 dates and date-times (`2025-03-05`, `2025-03-05T14:30:00Z`), `March 5, 2025`,
///   `5 March 2025`, `Mar 5` (this year), `3/5/2025` (month first), each optionally followed by a time
///   (`at 2:30 PM`, `14:30`).
///
/// Apple's detector also reads relative and spoken dates (`tomorrow`, `next Friday`), addresses of
/// other countries and transit information; this one does not (corelibs has no detector to build on).
/// Where matches overlap, the one that starts first wins (then the longer).
///
/// Apple's is an `NSRegularExpression` subclass; corelibs' `NSRegularExpression` cannot be
/// subclassed outside Foundation, so this one has the same matching methods of its own.
open class NSDataDetector: NSObject, @unchecked Sendable {
    /// The types it looks for.
    public let checkingTypes: NSTextCheckingTypes

    /// A detector for `checkingTypes` (raw values of `NSTextCheckingResult.CheckingType`, joined with `|`).
    /// - Throws: never; kept for Apple's signature.
    public init(types checkingTypes: NSTextCheckingTypes) throws {
        self.checkingTypes = checkingTypes
        super.init()
    }

    /// Every match in `range` of `string`, in the order they appear.
    open func matches(
        in string: String, options: NSRegularExpression.MatchingOptions = [], range: NSRange
    ) -> [NSTextCheckingResult] {
        DataDetection(types: checkingTypes).matches(in: string, range: range)
    }

    /// Calls `block` with each match in `range` of `string`, until it sets its `stop` argument.
    open func enumerateMatches(
        in string: String, options: NSRegularExpression.MatchingOptions = [], range: NSRange,
        using block: (NSTextCheckingResult?, NSRegularExpression.MatchingFlags, UnsafeMutablePointer<ObjCBool>) -> Void
    ) {
        var stop: ObjCBool = false
        for match in matches(in: string, options: options, range: range) {
            block(match, [], &stop)
            if stop.boolValue { return }
        }
    }

    /// The first match in `range` of `string`.
    open func firstMatch(
        in string: String, options: NSRegularExpression.MatchingOptions = [], range: NSRange
    ) -> NSTextCheckingResult? {
        matches(in: string, options: options, range: range).first
    }

    /// The range of the first match in `range` of `string` (`NSNotFound` location when there is none).
    open func rangeOfFirstMatch(
        in string: String, options: NSRegularExpression.MatchingOptions = [], range: NSRange
    ) -> NSRange {
        firstMatch(in: string, options: options, range: range)?.range ?? NSRange(location: NSNotFound, length: 0)
    }

    /// How many matches are in `range` of `string`.
    open func numberOfMatches(
        in string: String, options: NSRegularExpression.MatchingOptions = [], range: NSRange
    ) -> Int {
        matches(in: string, options: options, range: range).count
    }
}

public import Foundation

/// `UIFont`: a font's name, size and weight. Nothing is drawn, so any name is accepted
/// (`UIFont(name:size:)` is nil on iOS for a font that is not installed).
open class UIFont: NSObject, @unchecked Sendable {
    // Immutable after init: no lock needed for `@unchecked Sendable`.

    /// A weight (`UIFont.Weight.bold`).
    public struct Weight: RawRepresentable, Hashable, Sendable {
        /// The weight's value (-1 … 1; regular is 0).
        public var rawValue: CGFloat
        /// A weight.
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        /// Ultra light.
        public static let ultraLight = Weight(rawValue: -0.8)
        /// Thin.
        public static let thin = Weight(rawValue: -0.6)
        /// Light.
        public static let light = Weight(rawValue: -0.4)
        /// Regular.
        public static let regular = Weight(rawValue: 0)
        /// Medium.
        public static let medium = Weight(rawValue: 0.23)
        /// Semibold.
        public static let semibold = Weight(rawValue: 0.3)
        /// Bold.
        public static let bold = Weight(rawValue: 0.4)
        /// Heavy.
        public static let heavy = Weight(rawValue: 0.56)
        /// Black.
        public static let black = Weight(rawValue: 0.62)

        var name: String? {
            switch self {
            case .ultraLight: "ultraLight"
            case .thin: "thin"
            case .light: "light"
            case .regular: nil
            case .medium: "medium"
            case .semibold: "semibold"
            case .bold: "bold"
            case .heavy: "heavy"
            case .black: "black"
            default: "weight \(rawValue)"
            }
        }
    }

    /// A Dynamic Type text style (`.body`), at the sizes of the default text size (large).
    public struct TextStyle: RawRepresentable, Hashable, Sendable {
        /// The style's name.
        public var rawValue: String
        /// A style.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// 34 pt.
        public static let largeTitle = TextStyle(rawValue: "UICTFontTextStyleTitle0")
        /// 28 pt.
        public static let title1 = TextStyle(rawValue: "UICTFontTextStyleTitle1")
        /// 22 pt.
        public static let title2 = TextStyle(rawValue: "UICTFontTextStyleTitle2")
        /// 20 pt.
        public static let title3 = TextStyle(rawValue: "UICTFontTextStyleTitle3")
        /// 17 pt semibold.
        public static let headline = TextStyle(rawValue: "UICTFontTextStyleHeadline")
        /// 15 pt.
        public static let subheadline = TextStyle(rawValue: "UICTFontTextStyleSubhead")
        /// 17 pt.
        public static let body = TextStyle(rawValue: "UICTFontTextStyleBody")
        /// 16 pt.
        public static let callout = TextStyle(rawValue: "UICTFontTextStyleCallout")
        /// 13 pt.
        public static let footnote = TextStyle(rawValue: "UICTFontTextStyleFootnote")
        /// 12 pt.
        public static let caption1 = TextStyle(rawValue: "UICTFontTextStyleCaption1")
        /// 11 pt.
        public static let caption2 = TextStyle(rawValue: "UICTFontTextStyleCaption2")

        var metrics: (name: String, size: CGFloat, weight: Weight) {
            switch self {
            case .largeTitle: ("largeTitle", 34, .regular)
            case .title1: ("title1", 28, .regular)
            case .title2: ("title2", 22, .regular)
            case .title3: ("title3", 20, .regular)
            case .headline: ("headline", 17, .semibold)
            case .subheadline: ("subheadline", 15, .regular)
            case .callout: ("callout", 16, .regular)
            case .footnote: ("footnote", 13, .regular)
            case .caption1: ("caption1", 12, .regular)
            case .caption2: ("caption2", 11, .regular)
            default: ("body", 17, .regular)
            }
        }
    }

    /// The font's name (`.SFUI-Regular` for the system font, as iOS reports it).
    public let fontName: String
    /// The family's name.
    public let familyName: String
    /// The size in points.
    public let pointSize: CGFloat
    /// The weight.
    let weight: Weight
    /// How it was asked for, for the screen's text (`system 17 bold`, `body 17`, `Menlo 12`).
    let summary: String

    init(name: String, family: String, size: CGFloat, weight: Weight, summary: String) {
        fontName = name
        familyName = family
        pointSize = size
        self.weight = weight
        self.summary = summary
        super.init()
    }

    /// The font named `fontName` at `fontSize` points.
    public convenience init?(name fontName: String, size fontSize: CGFloat) {
        guard !fontName.isEmpty else { return nil }
        let family = fontName.split(separator: "-").first.map(String.init) ?? fontName
        let weight: Weight = fontName.lowercased().contains("bold") ? .bold : .regular
        self.init(
            name: fontName, family: family, size: fontSize, weight: weight,
            summary: "\(fontName) \(Self.number(fontSize))")
    }

    /// The system font at `fontSize`.
    open class func systemFont(ofSize fontSize: CGFloat) -> UIFont { systemFont(ofSize: fontSize, weight: .regular) }

    /// The system font at `fontSize` and `weight`.
    open class func systemFont(ofSize fontSize: CGFloat, weight: UIFont.Weight) -> UIFont {
        let suffix = weight.name.map { " " + $0 } ?? ""
        return UIFont(
            name: ".SFUI-\(weight == .regular ? "Regular" : (weight.name ?? "Regular").capitalized)",
            family: ".SF UI Text", size: fontSize, weight: weight,
            summary: "system \(number(fontSize))\(suffix)")
    }

    /// The bold system font at `fontSize`.
    open class func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont { systemFont(ofSize: fontSize, weight: .bold) }

    /// The italic system font at `fontSize`.
    open class func italicSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(
            name: ".SFUI-RegularItalic", family: ".SF UI Text", size: fontSize, weight: .regular,
            summary: "system \(number(fontSize)) italic")
    }

    /// The monospaced system font at `fontSize` and `weight`.
    open class func monospacedSystemFont(ofSize fontSize: CGFloat, weight: UIFont.Weight) -> UIFont {
        let suffix = weight.name.map { " " + $0 } ?? ""
        return UIFont(
            name: ".SFMono-Regular", family: ".SF Mono", size: fontSize, weight: weight,
            summary: "monospaced \(number(fontSize))\(suffix)")
    }

    /// The system font with digits of equal width at `fontSize` and `weight`.
    open class func monospacedDigitSystemFont(ofSize fontSize: CGFloat, weight: UIFont.Weight) -> UIFont {
        systemFont(ofSize: fontSize, weight: weight)
    }

    /// The font of `style` at the default text size (large).
    open class func preferredFont(forTextStyle style: UIFont.TextStyle) -> UIFont {
        let metrics = style.metrics
        let suffix = metrics.weight.name.map { " " + $0 } ?? ""
        return UIFont(
            name: ".SFUI-Regular", family: ".SF UI Text", size: metrics.size, weight: metrics.weight,
            summary: "\(metrics.name) \(number(metrics.size))\(suffix)")
    }

    /// The same font at `fontSize`.
    open func withSize(_ fontSize: CGFloat) -> UIFont {
        let oldSize = Self.number(pointSize)
        let summary = self.summary.replacingOccurrences(of: " \(oldSize)", with: " \(Self.number(fontSize))")
        return UIFont(name: fontName, family: familyName, size: fontSize, weight: weight, summary: summary)
    }

    /// The height of a line (1.2 × the size, as San Francisco's metrics give).
    open var lineHeight: CGFloat { (pointSize * 1.2).rounded() }

    /// A label's default font size (17).
    public class var labelFontSize: CGFloat { 17 }
    /// A button's default font size (18).
    public class var buttonFontSize: CGFloat { 18 }
    /// The system font's default size (14).
    public class var systemFontSize: CGFloat { 14 }
    /// The small system font's size (12).
    public class var smallSystemFontSize: CGFloat { 12 }

    /// Equal when name, size and weight are.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UIFont else { return false }
        return fontName == other.fontName && pointSize == other.pointSize && weight == other.weight
    }

    /// A hash of the name and size.
    open override var hash: Int { fontName.hashValue ^ pointSize.hashValue }

    /// `font-family: …; font-size: 17pt`.
    open override var description: String { "font-family: \"\(familyName)\"; font-size: \(Self.number(pointSize))pt" }

    static func number(_ value: CGFloat) -> String {
        value == value.rounded() ? String(Int(value)) : String(Double(value))
    }
}
